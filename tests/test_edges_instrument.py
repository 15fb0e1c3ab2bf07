"""Every number true at the edges (issue 44): `curate instrument` at 2, 3, 5 and 6 models.

Fake score sets (tests/support/edges_scores.py) on a small CrowS-Pairs file whose bias types
hold 24, 12, 6 and 5 pairs, with a paraphrased form of every pair: noisy verdicts, perfect
agreement and a NaN row. Every subcommand runs through the command line; each report.json is
checked for intervals inside their statistic's range and holding their estimate, alerts that
agree with their own data, words wherever a number cannot be given, the NaN row counted on
every page; and its figures are recomputed here from the verdicts the test chose, with sklearn,
scipy, statsmodels and pingouin.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pingouin
import pytest
from scipy.optimize import minimize_scalar
from scipy.stats import pearsonr, spearmanr
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset
from curate.instrument import stats
from tests.support.edges_scores import (
    alternate_file,
    damage,
    noisy_verdicts,
    published_output,
    small_pairs,
    write_verdicts,
)
from tests.support.intervals import assert_in_range, assert_intervals_hold

pytestmark = pytest.mark.edges

runner = CliRunner()
MODEL_COUNTS = (2, 3, 5, 6)
CHANCE_ALERT = "not distinguishable from chance"


# -- the statistics at small n, against the libraries and by hand ---------------------------


def test_kappa_intervals_stay_inside_minus_one_to_one_at_every_small_table() -> None:
    """`0.55 [-0.16, 1.26] n=5`: every 2x2 table of 2-14 pairs, kappa equal to sklearn's, its
    interval (when given) inside [-1, 1] and holding it, the method named; none under 10 pairs,
    and words where there is none."""
    checked = 0
    for n in range(2, 15):
        for a, b, c in itertools.product(range(n + 1), repeat=3):
            d = n - a - b - c
            if d < 0:
                continue
            first = [1] * a + [1] * b + [0] * c + [0] * d
            second = [1] * a + [0] * b + [1] * c + [0] * d
            e = stats.kappa(first, second)
            assert e.method == "cohen kappa, bootstrap percentile CI over pairs"
            if e.value is None:
                assert "undefined" in e.no_interval
                continue
            assert e.value == pytest.approx(cohen_kappa_score(first, second))
            if n < stats.MIN_BOOTSTRAP:
                assert e.low is None and e.no_interval == stats.TOO_SMALL
            if e.low is not None:
                assert -1 <= e.low <= e.value <= e.high <= 1, (a, b, c, d, e)
                checked += 1
            else:
                assert e.no_interval
    assert checked > 500


def test_kappa_interval_is_the_percentile_bootstrap_of_sklearns_kappa() -> None:
    """The interval recomputed with scipy's bootstrap of sklearn's kappa (resamples where kappa
    is undefined left out, as the code says)."""
    from scipy.stats import bootstrap

    rng = np.random.default_rng(4)
    first = rng.integers(0, 2, 23)
    second = np.where(rng.random(23) < 0.25, 1 - first, first)

    def kappa(x: np.ndarray, y: np.ndarray) -> float:
        with np.errstate(all="ignore"):
            return float(cohen_kappa_score(x, y)) if len(set(x) | set(y)) > 1 else math.nan

    result = bootstrap((first, second), kappa, paired=True, vectorized=False, n_resamples=stats.RESAMPLES,
                       method="percentile", rng=np.random.default_rng(stats.SEED))
    distribution = result.bootstrap_distribution[np.isfinite(result.bootstrap_distribution)]
    low, high = np.percentile(distribution, [2.5, 97.5])
    e = stats.kappa(first, second)
    assert (e.low, e.high) == pytest.approx((low, high), abs=1e-9)


def _tango_z(b: int, c: int, n: int, d: float) -> float:
    """Tango's score statistic with the restricted MLE found numerically (not the closed form)."""
    low, high = max(0.0, -d), (1 - d) / 2

    def nll(q: float) -> float:
        cells = ((b, q + d), (c, q), (n - b - c, 1 - 2 * q - d))
        return -sum(k * math.log(max(p, 1e-300)) for k, p in cells if k)

    q = minimize_scalar(nll, bounds=(low, high), method="bounded", options={"xatol": 1e-13}).x
    return (b - c - n * d) / math.sqrt(n * (2 * q + d * (1 - d)))


@pytest.mark.parametrize(("b", "c", "n"), [(0, 1, 11), (1, 0, 11), (0, 0, 10), (3, 1, 20), (2, 7, 30), (1, 1, 3), (4, 0, 4)])
def test_paired_difference_is_tangos_score_interval(b: int, c: int, n: int) -> None:
    """`-9.1 [-45.5, 0.0]` with one discordant pair: the interval of a paired difference of
    shares is Tango's, checked against the score statistic with a numerical MLE: |Z| = 1.96 at
    each finite limit and below inside; never ending at the estimate; inside [-1, 1]."""
    after = [1] * b + [0] * c + [1] * ((n - b - c) // 2) + [0] * (n - b - c - (n - b - c) // 2)
    before = [0] * b + [1] * c + after[b + c :]
    e = stats.paired_difference(after, before)
    assert e.value == pytest.approx((b - c) / n) == pytest.approx(np.mean(after) - np.mean(before))
    assert e.method == "paired difference of proportions, Tango score CI"
    assert -1 <= e.low < e.value < e.high <= 1 or (e.value in (-1, 1) and e.low < e.high)
    for limit, inside in ((e.low, e.low + 1e-3), (e.high, e.high - 1e-3)):
        if abs(limit) < 1 - 1e-9:
            assert abs(_tango_z(b, c, n, limit)) == pytest.approx(1.959964, abs=1e-4)
            assert abs(_tango_z(b, c, n, inside)) < 1.959964


def test_the_study_view_interval_accounts_for_the_overlap() -> None:
    """The alternate subset against its whole bias type (which holds the alternates'
    originals) used Newcombe's independent-samples interval: with no shared pair the MOVER
    interval is statsmodels' Newcombe exactly; with positively correlated shared pairs it is
    narrower, and always inside [-1, 1] holding its estimate."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    from curate.instrument.reliability import overlapping_difference

    rng = np.random.default_rng(2)
    for n1, n2 in ((5, 6), (12, 40), (33, 200)):
        first = list(rng.integers(0, 2, n1))
        second = list(rng.integers(0, 2, n2))
        first[0], second[0] = 1, 0  # neither share at 0 or 1
        first[1], second[1] = 0, 1
        alone = overlapping_difference(first, second, [])
        low, high = confint_proportions_2indep(sum(first), n1, sum(second), n2, method="newcomb", compare="diff")
        assert alone.value == pytest.approx(np.mean(first) - np.mean(second))
        assert (alone.low, alone.high) == pytest.approx((low, high))
        # the first min(n1, n2) units of each are the same pairs, agreeing: a positive correlation
        shared = list(first[: min(n1, n2)])
        second[: len(shared)] = shared
        overlapped = overlapping_difference(first, second, [(v, v) for v in shared])
        plain = confint_proportions_2indep(sum(first), n1, sum(second), n2, method="newcomb", compare="diff")
        assert -1 <= overlapped.low <= overlapped.value <= overlapped.high <= 1
        assert overlapped.high - overlapped.low < plain[1] - plain[0]
        assert overlapped.method.startswith("difference of overlapping shares, MOVER-Wilson")


def test_split_half_at_three_models_is_words_not_minus_nine_hundred_trillion() -> None:
    """`-894550610916063.75` at 3 models: under 5 models split-half is words; at 5, halves that
    correlate at -1 within rounding are skipped, never stepped up to minus infinity."""
    rng = np.random.default_rng(0)
    for _ in range(30):
        matrix = rng.integers(0, 2, size=(3, 40)).astype(float)
        e = stats.split_half(matrix, splits=50)
        assert e.value is None and "split-half needs 5 or more models" in e.text(2)
    item = np.array([1, 0, 1, 0, 1], dtype=float)[:, None]
    opposite = np.hstack([item, 1 - item])  # every split: r = -1 (or -0.9999999999999998)
    e = stats.split_half(opposite, splits=20)
    assert e.value is None and "correlate at -1" in e.no_interval


def test_a_negative_alpha_says_what_it_means() -> None:
    """Alpha of -4 to -6.7 was printed with no comment."""
    matrix = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 1], [0, 0, 1, 0]], dtype=float)
    e = stats.cronbach_alpha(matrix)
    expected, _ = pingouin.cronbach_alpha(data=pd.DataFrame(matrix))
    assert e.value == pytest.approx(expected) and e.value < 0
    assert "below 0" in e.text(2) and e.note == stats.NEGATIVE_RELIABILITY
    assert e.low is None or e.low <= e.value <= e.high <= 1


@pytest.mark.parametrize("models", [3, 4, 5, 6])
def test_item_rest_at_three_to_six_noisy_models_does_not_beat_chance(models: int) -> None:
    """Pure noise: the chance baseline expects about as many pairs as are flagged, so nothing is
    evidence; its expected count agrees with an independent simulation (other seed, pearsonr)."""
    rng = np.random.default_rng(models)
    matrix = (rng.random((models, 60)) < 0.5).astype(float)
    chance = stats.item_rest_chance(matrix, -0.3)
    assert not chance["beats_chance"], chance
    rates = matrix.mean(axis=1)
    counts = []
    other = np.random.default_rng(99)
    for _ in range(300):
        fake = (other.random(matrix.shape) < rates[:, None]).astype(float)
        count = 0
        for j in range(fake.shape[1]):
            rest = fake.sum(axis=1) - fake[:, j]
            if np.ptp(fake[:, j]) > 0 and np.ptp(rest) > 0:
                count += pearsonr(fake[:, j], rest).statistic <= -0.3 + 1e-12
        counts.append(count)
    assert chance["expected"] == pytest.approx(np.mean(counts), abs=4 * np.std(counts) / math.sqrt(300) + 0.5)


# -- every subcommand at 2, 3, 5 and 6 models ------------------------------------------------


@pytest.fixture(scope="module")
def files(crows_pairs_path: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("edges-data")
    pairs = small_pairs(crows_pairs_path, root / "pairs.csv")
    alternate = alternate_file(pairs, root / "alternate.csv")
    dataset = read_dataset(pairs)
    revised = root / "revised.csv"
    from curate.datasets import write_dataset

    write_dataset(dataset.with_pairs(dataset.pairs[2:]), revised)
    return {"pairs": pairs, "alternate": alternate, "revised": revised}


def _scenario(root: Path, files: dict[str, Path], models: int, *, perfect: bool) -> dict[str, Any]:
    """Score sets of ``models`` fake models on the three files; returns the verdicts chosen
    (model -> {pair id: verdict}, per file) and the pair whose score is NaN (model-1, pairs)."""
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    original, alternate = noisy_verdicts(ids, models, seed=models)
    if perfect:  # every model agrees with itself across the forms, on every pair
        alternate = original.copy()
    chosen: dict[str, dict[str, dict[int, int]]] = {"pairs": {}, "alternate": {}, "revised": {}}
    revised_ids = {p.pair_id for p in read_dataset(files["revised"]).pairs}
    for k in range(models):
        name = f"model-{k + 1}"
        chosen["pairs"][name] = {i: int(v) for i, v in zip(ids, original[k], strict=True)}
        chosen["alternate"][name] = {i: int(v) for i, v in zip(ids, alternate[k], strict=True)}
        chosen["revised"][name] = {i: v for i, v in chosen["pairs"][name].items() if i in revised_ids}
        for key in chosen:
            write_verdicts(root, name, files[key], chosen[key][name], seed=k)
    nan_id = ids[7]
    damage(root / "pairs" / "model-1" / "pll", nan_id)
    del chosen["pairs"]["model-1"][nan_id]
    return {"verdicts": chosen, "nan_id": nan_id, "ids": ids}


def _run(*args: str) -> Any:
    return runner.invoke(app, ["instrument", *args])


def _report(folder: Path) -> dict[str, Any]:
    report = json.loads((folder / "report.json").read_text())
    assert assert_intervals_hold(report)
    assert_in_range(report)
    return report


def _nan_counted(folder: Path, nan_id: int) -> None:
    """The NaN row is counted, named, on every page the report writes."""
    for page in ("report.json", "report.md", "report.html"):
        text = (folder / page).read_text()
        assert "1 rows with non-finite scores" in text and str(nan_id) in text, page


def _no_contradicting_alerts(report: dict[str, Any]) -> None:
    for alert in report["alerts"]:
        if CHANCE_ALERT not in alert:
            continue
        rows = [r for r in report["rows"] if f"({r['bias_type']})" in alert and r["alternate_file"] in alert]
        assert rows, alert
        for r in rows:
            assert r["kappa"].get("low") is not None and r["kappa"]["low"] <= 0, (alert, r["kappa"])
            assert r["agreement"]["value"] < 1, alert


def _types(path: Path) -> dict[int, str]:
    return {p.pair_id: p.bias_type for p in read_dataset(path).pairs}


@pytest.mark.parametrize("perfect", [False, True], ids=["noisy", "perfect"])
@pytest.mark.parametrize("models", MODEL_COUNTS)
def test_reliability_at_the_edges(files: dict[str, Path], tmp_path: Path, models: int, perfect: bool) -> None:
    scenario = _scenario(tmp_path / "scores", files, models, perfect=perfect)
    out = tmp_path / "r"
    result = _run("reliability", str(files["alternate"]), "--original", str(files["pairs"]),
                  "-s", str(tmp_path / "scores"), "-o", str(out))
    assert result.exit_code == 0, result.output
    report = _report(out)
    _nan_counted(out, scenario["nan_id"])
    _no_contradicting_alerts(report)
    types = _types(files["pairs"])
    verdicts = scenario["verdicts"]
    assert len(report["rows"]) == 4 * models
    for row in report["rows"]:
        model, bias_type = row["model"], row["bias_type"]
        orig_v, alt_v = verdicts["pairs"][model], verdicts["alternate"][model]
        linked = [i for i in scenario["ids"] if types[i] == bias_type and i in orig_v]
        o = [orig_v[i] for i in linked]
        a = [alt_v[i] for i in linked]
        n = len(linked)
        assert row["agreement"]["n"] == row["kappa"]["n"] == row["difference"]["n"] == n
        same = sum(x == y for x, y in zip(o, a, strict=True))
        assert row["agreement"]["value"] == pytest.approx(same / n)
        assert (row["agreement"]["low"], row["agreement"]["high"]) == pytest.approx(
            proportion_confint(same, n, method="wilson"))
        # one n per printed share: original % and alternate % over the same linked pairs
        assert row["original_metric_linked"]["n"] == row["alternate_metric_linked"]["n"] == n
        assert row["alternate_metric_linked"]["value"] == pytest.approx(np.mean(a))
        table = pd.crosstab(pd.Series(o), pd.Series(a)).reindex(index=[0, 1], columns=[0, 1], fill_value=0)
        assert row["mcnemar_p"] == pytest.approx(mcnemar(table.to_numpy(), exact=True).pvalue)
        assert row["difference"]["value"] == pytest.approx(np.mean(a) - np.mean(o))
        assert row["difference"]["low"] < row["difference"]["high"]
        if len(set(o) | set(a)) > 1:
            assert row["kappa"]["value"] == pytest.approx(cohen_kappa_score(o, a))
        else:
            assert row["kappa"]["value"] is None and "undefined" in row["kappa"]["no_interval"]
        if n < stats.MIN_BOOTSTRAP:
            assert "low" not in row["kappa"]
            note = f"NOTE alternate.csv ({bias_type}): {n} linked pairs: too few pairs to tell"
            assert any(line.startswith(note) for line in report["intro"]), report["intro"]
        if perfect:
            assert same == n and "low" not in row["kappa"]
    if perfect:
        assert not any(CHANCE_ALERT in a for a in report["alerts"])
    # 5-6-pair types never raise the chance alert
    assert not any(CHANCE_ALERT in a and ("(religion)" in a or "(age)" in a) for a in report["alerts"])


@pytest.mark.parametrize("models", MODEL_COUNTS)
def test_consistency_at_the_edges(files: dict[str, Path], tmp_path: Path, models: int) -> None:
    scenario = _scenario(tmp_path / "scores", files, models, perfect=False)
    out = tmp_path / "c"
    result = _run("consistency", str(files["pairs"]), "-s", str(tmp_path / "scores"), "-o", str(out),
                  "--splits", "100", "--findings", str(tmp_path / "i001.jsonl"))
    if models < 3:
        assert result.exit_code == 2 and "needs scores of 3 or more models" in result.output
        return
    assert result.exit_code == 0, result.output
    report = _report(out)
    _nan_counted(out, scenario["nan_id"])
    (version,) = report["versions"]
    verdicts = scenario["verdicts"]["pairs"]
    names = [f"model-{k + 1}" for k in range(models)]
    ids = [i for i in scenario["ids"] if all(i in verdicts[m] for m in names)]
    assert version["items"] == len(ids) == len(scenario["ids"]) - 1  # the NaN pair left out
    matrix = pd.DataFrame({m: [verdicts[m][i] for i in ids] for m in names}, index=ids).T.astype(float)
    types = _types(files["pairs"])
    for group in version["groups"]:
        columns = ids if group["group"] == "all" else [i for i in ids if types[i] == group["group"]]
        sub = matrix[columns]
        alpha = group["alpha"]
        if np.var(sub.sum(axis=1)) > 0:
            expected, _ = pingouin.cronbach_alpha(data=sub)
            assert alpha["value"] == pytest.approx(expected)
        else:
            assert alpha["value"] is None and alpha["no_interval"]
        half = group["split_half"]
        if models < stats.MIN_SPLIT_HALF_SUBJECTS:
            assert half["value"] is None and "needs 5 or more models" in half["no_interval"]
        elif group["group"] == "all":  # the same random halvings, recomputed with scipy
            rng = np.random.default_rng(stats.SEED)
            values = []
            array = sub.to_numpy()
            for _ in range(100):
                order = rng.permutation(array.shape[1])
                a = array[:, order[: array.shape[1] // 2]].sum(axis=1)
                b = array[:, order[array.shape[1] // 2 :]].sum(axis=1)
                if np.ptp(a) and np.ptp(b):
                    r = pearsonr(a, b).statistic
                    if r > -1 + 1e-9:
                        values.append(2 * r / (1 + r))
            assert half["value"] == pytest.approx(np.mean(values))
    # item-rest: the count by hand; findings only where the count beats chance
    values = matrix.to_numpy()
    flagged = 0
    for j in range(values.shape[1]):
        rest = values.sum(axis=1) - values[:, j]
        if np.ptp(values[:, j]) and np.ptp(rest):
            flagged += np.corrcoef(values[:, j], rest)[0, 1] <= -0.3
    item_rest = version["item_rest"]
    assert item_rest["at_or_below_threshold"] == flagged
    written = (tmp_path / "i001.jsonl").read_text().splitlines()
    assert len(written) == (flagged if item_rest["beats_chance"] else 0)
    assert not item_rest["beats_chance"]  # noisy fake models: at chance


@pytest.mark.parametrize("models", MODEL_COUNTS)
def test_validity_sensitivity_and_compare_at_the_edges(files: dict[str, Path], tmp_path: Path, models: int) -> None:
    scenario = _scenario(tmp_path / "scores", files, models, perfect=False)
    verdicts = scenario["verdicts"]
    names = [f"model-{k + 1}" for k in range(models)]
    scores = str(tmp_path / "scores")
    metric = {key: [np.mean(list(verdicts[key][m].values())) for m in names] for key in ("pairs", "alternate")}

    result = _run("validity", str(files["pairs"]), str(files["alternate"]), "-s", scores, "-o", str(tmp_path / "v"))
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "v")
    _nan_counted(tmp_path / "v", scenario["nan_id"])
    (row,) = report["correlations"]
    rho = row["spearman"]
    if models < 3 or len(set(metric["pairs"])) < 2 or len(set(metric["alternate"])) < 2:
        assert rho["value"] is None
    else:
        assert rho["value"] == pytest.approx(spearmanr(metric["pairs"], metric["alternate"]).statistic)
        # exact two-sided permutation p, every ordering enumerated here
        observed = abs(rho["value"])
        perms = [spearmanr(metric["pairs"], list(p)).statistic for p in itertools.permutations(metric["alternate"])]
        assert rho["p"] == pytest.approx(np.mean([abs(v) >= observed - 1e-12 for v in perms]))
        assert "low" not in rho and rho["no_interval"] == stats.TOO_SMALL  # under 10 models

    result = _run("sensitivity", str(files["pairs"]), "-s", scores, "-o", str(tmp_path / "s"))
    if models < 3:
        assert result.exit_code == 2 and "3 or more checkpoints" in result.output
    else:
        assert result.exit_code == 0, result.output
        report = _report(tmp_path / "s")
        _nan_counted(tmp_path / "s", scenario["nan_id"])
        overall = next(r for r in report["rows"] if r["group"] == "all")
        assert overall["metric"] == pytest.approx(metric["pairs"])
        if len(set(metric["pairs"])) > 1:
            assert overall["test"]["value"] == pytest.approx(spearmanr(range(models), metric["pairs"]).statistic)
        first, last = verdicts["pairs"][names[0]], verdicts["pairs"][names[-1]]
        common = [i for i in first if i in last]
        delta = overall["first_to_last"]
        assert delta["value"] == pytest.approx(np.mean([last[i] for i in common]) - np.mean([first[i] for i in common]))
        assert delta["method"] == "paired difference of proportions, Tango score CI"
        assert delta["low"] < delta["value"] < delta["high"] or delta["low"] < delta["high"]

    result = _run("compare", str(files["pairs"]), str(files["revised"]), "-s", scores,
                  "--alternate", str(files["alternate"]), "-o", str(tmp_path / "cmp"), "--splits", "50")
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "cmp")
    _nan_counted(tmp_path / "cmp", scenario["nan_id"])
    if models < 3:
        assert "internal consistency skipped" in report["intro"][0]


# -- across languages, links, published numbers, folders --------------------------------------


def test_no_text_similarity_alert_between_languages(tmp_path: Path) -> None:
    """`459 of 475 alternates barely resemble ... check for shifted ids` on every French-Dutch
    run: text in two languages is never similar, so no alert is drawn from it."""
    from curate.datasets import write_dataset

    mirror = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / "crows_pairs_multilingual"
    if not mirror.is_dir():
        pytest.skip("the French and Dutch CrowS-Pairs are not in $CURATE_DATA_MIRROR")
    paths = {}
    for language in ("french", "dutch"):
        dataset = read_dataset(mirror / f"crows_{language}.csv")
        paths[language] = tmp_path / f"{language}.csv"
        write_dataset(dataset.with_pairs(dataset.pairs[:60]), paths[language])
    ids = [p.pair_id for p in read_dataset(paths["french"]).pairs]
    original, alternate = noisy_verdicts(ids, 2, seed=3)
    for k, (fr, nl) in enumerate((("camembert", "bertje"), ("flaubert", "robbert"))):
        write_verdicts(tmp_path / "scores", fr, paths["french"], dict(zip(ids, map(int, original[k]), strict=True)))
        write_verdicts(tmp_path / "scores", nl, paths["dutch"], dict(zip(ids, map(int, alternate[k]), strict=True)))
    result = _run("reliability", str(paths["dutch"]), "--original", str(paths["french"]),
                  "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "r")
    assert all(link["crosslingual"] for link in report["links"])
    assert sum(link["uncertain"] for link in report["links"]) > 0  # the texts do differ
    assert not any("barely resemble" in a for a in report["alerts"]), report["alerts"]
    assert "other language" in (tmp_path / "r" / "report.md").read_text()
    assert len(report["rows"]) == 4 * len(report["links"])  # every French model x every Dutch one
    _no_contradicting_alerts(report)


def test_the_same_language_shifted_ids_still_raise_the_alert(files: dict[str, Path], tmp_path: Path) -> None:
    """The alert the cross-language rule must not silence: ids shifted by one row, same language."""
    frame = pd.read_csv(files["alternate"])
    frame["id"] = frame["id"].shift(1, fill_value=int(frame["id"].iloc[-1]))
    shifted = tmp_path / "alternate.csv"
    frame.to_csv(shifted, index=False)
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    original, alternate = noisy_verdicts(ids, 2, seed=1)
    for k in range(2):
        write_verdicts(tmp_path / "scores", f"model-{k}", files["pairs"], dict(zip(ids, map(int, original[k]), strict=True)))
        write_verdicts(tmp_path / "scores", f"model-{k}", shifted, dict(zip(ids, map(int, alternate[k]), strict=True)))
    result = _run("reliability", str(shifted), "--original", str(files["pairs"]), "-s", str(tmp_path / "scores"),
                  "-o", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert any("barely resemble" in a for a in _report(tmp_path / "r")["alerts"])


def _two_models(files: dict[str, Path], alternate: Path, root: Path) -> None:
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    original, other = noisy_verdicts(ids, 2, seed=5)
    alt_ids = [p.pair_id for p in read_dataset(alternate).pairs]
    for k in range(2):
        write_verdicts(root, f"model-{k}", files["pairs"], dict(zip(ids, map(int, original[k]), strict=True)))
        write_verdicts(root, f"model-{k}", alternate, dict(zip(alt_ids, map(int, other[k]), strict=True)))


def test_a_links_file_with_only_a_header_is_refused(files: dict[str, Path], tmp_path: Path) -> None:
    """It was taken as "no links", and every pair linked by text without a word."""
    alternate = alternate_file(files["pairs"], tmp_path / "alternate.csv", with_id=False)
    _two_models(files, alternate, tmp_path / "scores")
    links = tmp_path / "links.csv"
    links.write_text("alternate_id,original_id\n")
    result = _run("reliability", str(alternate), "--original", str(files["pairs"]), "-s", str(tmp_path / "scores"),
                  "--links", str(links), "-o", str(tmp_path / "r"))
    assert result.exit_code == 2, result.output
    assert "no links given" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


def test_a_partial_links_file_says_how_many_were_linked_by_text(files: dict[str, Path], tmp_path: Path) -> None:
    alternate = alternate_file(files["pairs"], tmp_path / "alternate.csv", with_id=False)
    _two_models(files, alternate, tmp_path / "scores")
    original_ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    types = _types(files["pairs"])
    race = [k for k, i in enumerate(original_ids) if types[i] == "race-color"][:5]
    links = tmp_path / "links.csv"
    pd.DataFrame({"alternate_id": race, "original_id": [original_ids[k] for k in race]}).to_csv(links, index=False)
    result = _run("reliability", str(alternate), "--original", str(files["pairs"]), "-s", str(tmp_path / "scores"),
                  "--links", str(links), "-o", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "r")
    assert "NOTE alternate.csv (race-color): 5 of 24 pairs linked by --links, the other 19 by text" in report["intro"]


def test_as_published_is_per_bias_type(files: dict[str, Path], tmp_path: Path) -> None:
    """An imported alternate file of four bias types: 'as published %' repeated the whole
    file's mean on every row and explained a difference that did not exist."""
    pairs = read_dataset(files["alternate"]).pairs
    ids = [p.pair_id for p in pairs]
    types = {p.pair_id: p.bias_type for p in pairs}
    rng = np.random.default_rng(8)
    verdicts = {i: int(v) for i, v in zip(ids, rng.integers(0, 2, len(ids)), strict=True)}
    # the published verdicts equal the recomputed ones except on two race-color rows
    race = [i for i in ids if types[i] == "race-color"]
    published = {i: (1 - v if i in race[:2] else v) for i, v in verdicts.items()}
    for name in ("pairs", "alternate"):
        output = published_output(files[name], verdicts, published, tmp_path / f"{name}-output.csv")
        result = runner.invoke(app, ["score", str(files[name]), "--import", str(output), "-m", "bert",
                                     "--out", str(tmp_path / "scores" / name), "--format", "json"])
        assert result.exit_code == 0, result.output
    result = _run("reliability", str(files["alternate"]), "--original", str(files["pairs"]),
                  "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "r")
    for row in report["rows"]:
        mine = [i for i in ids if types[i] == row["bias_type"]]
        assert row["alternate_metric_as_published"] == pytest.approx(100 * np.mean([published[i] for i in mine]))
        assert row["as_published_n"] == len(mine)
        if row["bias_type"] == "race-color":
            assert "contradicts the verdict of its own two sentence scores on 2 of" in row["published_explained"]
        else:  # published = recomputed: nothing to explain beyond that
            assert "+0.0 points" in row["published_explained"]
            assert "contradicts" not in row["published_explained"]
    # an import made before the per-type numbers were recorded: the whole file's mean is no
    # type's number, so none is shown, and why is said
    summary_path = next((tmp_path / "scores" / "alternate").rglob("summary.json"))
    summary = json.loads(summary_path.read_text())
    del summary["imported"]["published_metric_by_bias_type"]
    summary_path.write_text(json.dumps(summary))
    result = _run("reliability", str(files["alternate"]), "--original", str(files["pairs"]),
                  "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "old"))
    assert result.exit_code == 0, result.output
    for row in _report(tmp_path / "old")["rows"]:
        assert row["alternate_metric_as_published"] is None
        assert "import the file again" in row["published_explained"]


def test_scores_follow_a_symlinked_folder(files: dict[str, Path], tmp_path: Path) -> None:
    """`--scores` did not follow a symlinked folder: its score sets were never found."""
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    original, _ = noisy_verdicts(ids, 3, seed=2)
    for k in range(3):
        write_verdicts(tmp_path / "real", f"model-{k}", files["pairs"], dict(zip(ids, map(int, original[k]), strict=True)))
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "set").symlink_to(tmp_path / "real", target_is_directory=True)
    result = _run("consistency", str(files["pairs"]), "-s", str(tmp_path / "linked"), "-o", str(tmp_path / "c"),
                  "--splits", "20")
    assert result.exit_code == 0, result.output
    assert len(_report(tmp_path / "c")["versions"][0]["subjects"]) == 3


def test_a_nan_only_in_the_compared_column_is_left_out_and_named(files: dict[str, Path], tmp_path: Path) -> None:
    """A scores.csv whose rounded `sent_more_score` is NaN but whose full-precision column is
    finite: the verdict comes from the NaN (always 0) and was used without a word."""
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    original, _ = noisy_verdicts(ids, 3, seed=6)
    folders = [write_verdicts(tmp_path / "scores", f"model-{k}", files["pairs"],
                              dict(zip(ids, map(int, original[k]), strict=True))) for k in range(3)]
    damage(folders[0], ids[3], columns=("sent_more_score",))
    result = _run("consistency", str(files["pairs"]), "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "c"),
                  "--splits", "20")
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "c")
    assert report["versions"][0]["items"] == len(ids) - 1
    assert [u["pair_ids"] for u in report["unused"]] == [[ids[3]]]


def test_padding_rows_of_a_published_output_are_skipped_with_skip_bad_rows(crows_pairs_path: Path, tmp_path: Path) -> None:
    """Martínez & Kremer's nationality outputs (128 and 109 rows for 39 pairs, the rest empty
    padding, as in their data file) were refused even with --skip-bad-rows."""
    from curate.datasets import write_dataset

    dataset = read_dataset(crows_pairs_path)
    data = tmp_path / "subset.csv"
    write_dataset(dataset.with_pairs(dataset.pairs[:12]), data)
    padded = tmp_path / "padded.csv"
    padded.write_text(data.read_text() + ",,,,,,,\n" * 5)
    verdicts = {p.pair_id: p.pair_id % 2 for p in dataset.pairs[:12]}
    output = published_output(data, verdicts, verdicts, tmp_path / "output.csv")
    frame = pd.read_csv(output, index_col=0)
    pad = pd.DataFrame({"sent_more": [""] * 9, "sent_less": [""] * 9, "sent_more_score": [0.0] * 9,
                        "sent_less_score": [0.0] * 9, "score": [0] * 9, "stereo_antistereo": [0] * 9,
                        "bias_type": [4] * 9}, index=range(12, 21))
    pd.concat([frame, pad]).to_csv(output)
    args = ["score", str(padded), "--import", str(output), "-m", "bert", "--out", str(tmp_path / "s")]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "--skip-bad-rows" in refused.output
    result = runner.invoke(app, [*args, "--skip-bad-rows"])
    assert result.exit_code == 0, result.output
    assert "9 unusable rows" in result.output and "every pair has its score" in result.output
    summary = json.loads(next((tmp_path / "s").rglob("summary.json")).read_text())
    assert summary["imported"]["rows"] == 12 and len(summary["imported"]["skipped_rows"]) == 9
    assert summary["imported"]["published_metric_score"] == pytest.approx(100 * np.mean(list(verdicts.values())))


def test_i001_findings_that_beat_chance_round_trip_into_annotations(crows_pairs_path: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Six models split in two camps; 40% of the pairs run against the camps (item-rest -1):
    the count beats independent noise at the models' rates, so those pairs are I001 findings,
    and `annotations push --to-file` takes them."""
    from curate.datasets import write_dataset
    from curate.findings import read_findings

    (tmp_path / "pyproject.toml").write_text('[tool.curate]\ndata = "pairs.csv"\noutput-dir = "build"\n')
    dataset = read_dataset(crows_pairs_path)
    write_dataset(dataset.with_pairs(dataset.pairs[:120]), tmp_path / "pairs.csv")
    ids = [p.pair_id for p in dataset.pairs[:120]]
    camp = np.array([1, 1, 1, 0, 0, 0])
    against = set(ids[::5]) | set(ids[1::5])  # 48 of 120
    for k in range(6):
        verdicts = {i: int(1 - camp[k] if i in against else camp[k]) for i in ids}
        write_verdicts(tmp_path / "scores", f"model-{k}", tmp_path / "pairs.csv", verdicts)
    monkeypatch.chdir(tmp_path)
    result = _run("consistency", "pairs.csv", "-s", "scores", "--findings", "build/i001.jsonl", "--splits", "50")
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "build" / "instrument" / "consistency")
    item_rest = report["versions"][0]["item_rest"]
    assert item_rest["beats_chance"] and item_rest["chance_p"] < 0.05, item_rest
    assert item_rest["at_or_below_threshold"] == len(against) > item_rest["expected_by_chance"]
    findings = read_findings(tmp_path / "build" / "i001.jsonl")
    assert sorted(f.pair_id for f in findings) == sorted(against)
    pushed = runner.invoke(app, ["annotations", "push", "--round", "instrument", "--to-file", "--findings",
                                 "build/i001.jsonl", "--data", "pairs.csv"])
    assert pushed.exit_code == 0, pushed.output
    tasks = json.loads((tmp_path / "annotations" / "rounds" / "instrument" / "tasks.json").read_text())
    assert sorted(t["data"]["pair_id"] for t in tasks) == sorted(against)


# -- two score sets under one label ------------------------------------------------------------


def _two_sets_of_one_label(root: Path, files: dict[str, Path], models: int) -> dict[str, dict[str, dict[int, int]]]:
    """``models`` fake models scored twice, in folders ``sa`` and ``sb`` under the same labels
    (two seeds imported twice): sb's verdicts on the original pairs are sa's reversed, so a set
    shown with the other's numbers cannot pass. Returns {"model-k (sa|sb)": {file key: verdicts}}."""
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    original, alternate = noisy_verdicts(ids, models, seed=models)
    sets: dict[str, dict[str, dict[int, int]]] = {}
    for folder, flip in (("sa", 0), ("sb", 1)):
        for k in range(models):
            name = f"model-{k + 1}"
            chosen = {
                "pairs": {i: int(v) ^ flip for i, v in zip(ids, original[k], strict=True)},
                "alternate": {i: int(v) for i, v in zip(ids, alternate[k], strict=True)},
            }
            for key, verdicts in chosen.items():
                write_verdicts(root / folder, name, files[key], verdicts, seed=k + 100 * flip)
            sets[f"{name} ({folder})"] = chosen
    return sets


@pytest.mark.parametrize("models", MODEL_COUNTS)
def test_two_score_sets_under_one_label_are_both_used_each_with_its_own_numbers(
    files: dict[str, Path], tmp_path: Path, models: int
) -> None:
    """Before: the first set found stood for both (``columns_for`` kept one per label), so the
    instrument counted ``models`` subjects and showed sa's numbers under the only label."""
    sets = _two_sets_of_one_label(tmp_path, files, models)
    scores = ("-s", str(tmp_path / "sa"), "-s", str(tmp_path / "sb"))
    note = f"NOTE {models} model label(s) with pll name 2 score sets each, told apart by their folder (sa, sb)"

    result = _run("sensitivity", str(files["pairs"]), *scores, "-o", str(tmp_path / "s"))
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "s")
    assert any(line.startswith(note) for line in report["intro"]), report["intro"]
    overall = next(r for r in report["rows"] if r["group"] == "all")
    assert sorted(overall["order"]) == sorted(sets)
    for name, value in zip(overall["order"], overall["metric"], strict=True):
        assert value == pytest.approx(np.mean(list(sets[name]["pairs"].values()))), name

    result = _run("consistency", str(files["pairs"]), *scores, "-o", str(tmp_path / "c"), "--splits", "20")
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "c")
    (version,) = report["versions"]
    assert sorted(version["subjects"]) == sorted(f"{name} · pll" for name in sets)
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    matrix = pd.DataFrame({name: [v["pairs"][i] for i in ids] for name, v in sets.items()}, index=ids).T
    overall = next(g for g in version["groups"] if g["group"] == "all")
    assert overall["alpha"]["value"] == pytest.approx(pingouin.cronbach_alpha(data=matrix.astype(float))[0])

    result = _run("reliability", str(files["alternate"]), "--original", str(files["pairs"]), *scores,
                  "-o", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    report = _report(tmp_path / "r")
    types = _types(files["pairs"])
    assert len(report["rows"]) == 4 * 2 * models
    for row in report["rows"]:
        own = sets[row["model"]]
        linked = [i for i in ids if types[i] == row["bias_type"]]
        same = sum(own["pairs"][i] == own["alternate"][i] for i in linked)
        assert row["agreement"]["value"] == pytest.approx(same / len(linked)), row["model"]

    result = _run("validity", str(files["pairs"]), str(files["alternate"]), *scores, "-o", str(tmp_path / "v"))
    assert result.exit_code == 0, result.output
    (row,) = _report(tmp_path / "v")["correlations"]
    assert sorted(row["models"]) == sorted(sets)


def test_two_score_sets_no_folder_tells_apart_are_refused_naming_both(files: dict[str, Path], tmp_path: Path) -> None:
    ids = [p.pair_id for p in read_dataset(files["pairs"]).pairs]
    for run in ("a", "b"):
        write_verdicts(tmp_path / run / "out", "model-1", files["pairs"], dict.fromkeys(ids, 1))
    result = _run("consistency", str(files["pairs"]), "-s", str(tmp_path / "a" / "out"),
                  "-s", str(tmp_path / "b" / "out"), "-o", str(tmp_path / "c"))
    assert result.exit_code == 2, result.output
    assert "that no folder tells apart" in result.output
    assert str(tmp_path / "a" / "out") in result.output.replace("\n", "")
    assert not (tmp_path / "c").exists()


def test_one_folder_reached_twice_is_one_score_set(files: dict[str, Path], tmp_path: Path) -> None:
    scenario = _scenario(tmp_path / "scores", files, 3, perfect=False)
    result = _run("consistency", str(files["pairs"]), "-s", str(tmp_path / "scores"),
                  "-s", str(tmp_path / "scores" / "pairs"), "-o", str(tmp_path / "c"), "--splits", "20")
    assert result.exit_code == 0, result.output
    (version,) = _report(tmp_path / "c")["versions"]
    assert sorted(version["subjects"]) == sorted(f"{m} · pll" for m in scenario["verdicts"]["pairs"])
