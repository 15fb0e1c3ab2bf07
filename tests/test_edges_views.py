"""Issue 44 at the edges, for ``curate explore`` and ``curate across``: 2, 3, 5 and 6 models,
perfect agreement, a non-finite row, two score sets under one label (also at 22 models x 2),
and benchmarks that share no model. Every figure checked is recomputed here with numpy and
scipy (Kendall's tau, ranks, means) or by enumerating permutations, never with curate's own code.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.stats import kendalltau, rankdata
from statsmodels.stats.proportion import proportion_confint
from typer.testing import CliRunner

from curate.cli import app
from tests.support import edges_views as ev

pytestmark = pytest.mark.edges

runner = CliRunner()
SMALL_N = (2, 3, 5, 6)


def _metric(cells: dict[int, tuple[float, float]]) -> float:
    """% of pairs whose sent_more scores higher (numpy, from the scores themselves)."""
    return float(100 * np.mean([more > less for more, less in cells.values()]))


def _explore(root: Path, *args: str, code: int = 0) -> Any:
    result = runner.invoke(app, ["explore", *args, "--no-tokens", "--out", str(root / "site")])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(ev.project(tmp_path / "p"))
    return tmp_path / "p"


# ------------------------------------------------------------------------------ explore


@pytest.mark.parametrize("perfect", [False, True], ids=["random", "perfect-agreement"])
@pytest.mark.parametrize("n_models", SMALL_N)
def test_explore_at_small_n_shows_each_sets_own_numbers(here: Path, n_models: int, perfect: bool):
    data = ev.write_data(here)
    scores = ev.import_sets(here, data, "sa", n_models, seed=1, perfect=perfect)
    result = _explore(here, str(data), "--scores", str(scores))
    plural = "s" if n_models != 1 else ""
    assert f"{n_models} column{plural} from {n_models} model{plural}," in result.output
    document = ev.site_document(here / "site")
    assert [m["name"] for m in document["models"]] == [ev.label(i) for i in range(n_models)]
    assert document["notes"] == []
    metrics = []
    for i in range(n_models):
        cells = ev.column_cells(document, i, 0)
        assert cells == ev.own_scores(scores, i)
        metric = _metric(cells)
        assert metric == pytest.approx(ev.summary_metric(scores, i), abs=1e-9)
        # the page's interval (Wilson, as its dot plot draws it) is inside 0-100 and holds it
        k = round(metric * len(cells) / 100)
        low, high = proportion_confint(k, len(cells), method="wilson")
        assert 0 <= 100 * low <= metric <= 100 * high <= 100
        metrics.append(metric)
    if perfect:  # every model prefers the same sentences: one metric for all
        assert len(set(metrics)) == 1 and metrics[0] == pytest.approx(100 * 20 / 30)


def test_explore_leaves_non_finite_rows_out_and_says_so(here: Path):
    data = ev.write_data(here)
    scores = ev.import_sets(here, data, "sa", 3, seed=1)
    ev.spoil(scores, 1, {3: "nan", 7: "inf"})
    result = _explore(here, str(data), "--scores", str(scores))
    assert "2 rows with a non-finite score (NaN or infinite) left out" in result.output
    assert "pair 3, 7" in result.output
    document = ev.site_document(here / "site")
    (note,) = document["notes"]
    assert note.startswith("model-01 · imported:metric.py: 2 rows") and "pair 3, 7" in note
    cells = ev.column_cells(document, 1, 0)
    assert set(cells) == set(range(ev.N_PAIRS)) - {3, 7}
    own = ev.own_scores(scores, 1)  # the finite rows, read with csv
    assert cells == own and len(own) == ev.N_PAIRS - 2
    assert _metric(cells) == pytest.approx(_metric(own))
    # the other columns keep every row; the page's data is strict JSON (no NaN in it)
    assert len(ev.column_cells(document, 0, 0)) == ev.N_PAIRS
    text = (here / "site" / "index.html").read_text(encoding="utf-8")
    block = text.split('type="application/json">')[1].split("</script>")[0]
    assert ev.strict_json(block) == document


def test_explore_skips_a_set_whose_every_score_is_non_finite(here: Path):
    data = ev.write_data(here)
    scores = ev.import_sets(here, data, "sa", 2, seed=1)
    ev.spoil(scores, 0, {i: "nan" for i in range(ev.N_PAIRS)})
    result = _explore(here, str(data), "--scores", str(scores))
    assert "skipped, every score is NaN or infinite" in result.output
    assert [m["name"] for m in ev.site_document(here / "site")["models"]] == ["model-01"]


@pytest.mark.parametrize("n_models", [2, 22])
def test_two_score_sets_under_one_label_each_show_their_own_numbers(here: Path, n_models: int):
    """The issue's case: N models imported twice (two seeds, same labels) for two byte-identical
    files; the second version must show the second set's numbers (its summary.json's)."""
    a = ev.write_data(here, "a.csv")
    b = ev.write_data(here, "b.csv")
    assert a.read_bytes() == b.read_bytes()
    sa = ev.import_sets(here, a, "sa", n_models, seed=1)
    sb = ev.import_sets(here, b, "sb", n_models, seed=2)
    result = _explore(here, "a.csv", "b.csv", "--scores", "sa", "--scores", "sb")
    assert f"{n_models} columns from {n_models} models, {2 * n_models} score sets" in result.output
    assert "each version shows only the set made from its own file" in result.output
    document = ev.site_document(here / "site")
    assert len(document["models"]) == n_models
    differ = 0
    for i in range(n_models):
        first, second = ev.column_cells(document, i, 0), ev.column_cells(document, i, 1)
        assert first == ev.own_scores(sa, i) and second == ev.own_scores(sb, i)
        assert _metric(first) == pytest.approx(ev.summary_metric(sa, i), abs=1e-9)
        assert _metric(second) == pytest.approx(ev.summary_metric(sb, i), abs=1e-9)
        differ += ev.summary_metric(sa, i) != ev.summary_metric(sb, i)
    assert differ >= n_models // 2  # the two seeds give other numbers: the test can tell
    assert any("made from its own file" in n for n in document["notes"])


@pytest.mark.parametrize("n_models", [2, 22])
def test_two_score_sets_of_one_version_are_two_columns_told_apart(here: Path, n_models: int):
    a = ev.write_data(here, "a.csv")
    sa = ev.import_sets(here, a, "sa", n_models, seed=1)
    sb = ev.import_sets(here, a, "sb", n_models, seed=2)  # both of a.csv: both claim it
    result = _explore(here, "a.csv", "--scores", "sa", "--scores", "sb")
    assert f"{2 * n_models} columns from {n_models} models" in result.output
    document = ev.site_document(here / "site")
    labels = [m["label"] for m in document["models"]]
    assert len(set(labels)) == 2 * n_models
    for i in range(n_models):
        for scores, tag in ((sa, "sa"), (sb, "sb")):
            column = labels.index(f"{ev.label(i)} · imported:metric.py ({tag})")
            cells = ev.column_cells(document, column, 0)
            assert cells == ev.own_scores(scores, i)
            assert _metric(cells) == pytest.approx(ev.summary_metric(scores, i), abs=1e-9)
    assert any("told apart by its folder (sa, sb)" in n for n in document["notes"])


def test_same_label_page_in_a_browser_shows_the_second_sets_metric(here: Path, tmp_path: Path):
    """The page itself (its shares table, computed in the browser) at 22 models x 2."""
    from tests.support.browser import (
        MISSING,
        chromium,
        find_browser,
        severe_console_messages,
        wait_for,
    )

    if find_browser() is None:
        pytest.skip(MISSING)
    a, b = ev.write_data(here, "a.csv"), ev.write_data(here, "b.csv")
    sa = ev.import_sets(here, a, "sa", 22, seed=1)
    sb = ev.import_sets(here, b, "sb", 22, seed=2)
    _explore(here, "a.csv", "b.csv", "--scores", "sa", "--scores", "sb")
    with chromium(tmp_path / "profile") as driver:
        driver.get((here / "site" / "index.html").as_uri())
        wait_for(lambda: driver.execute_script("return !!document.getElementById('metric-7-1')"),
                 what="the shares table")  # fmt: skip
        shown = [
            [float(driver.execute_script(f"return document.getElementById('metric-{i}-{v}').dataset.value"))
             for v in (0, 1)]
            for i in range(22)
        ]  # fmt: skip
        notes = driver.execute_script("return document.getElementById('data-notes').innerText")
        about = driver.execute_script("return document.getElementById('about').innerText")
        assert not severe_console_messages(driver)
    for i in range(22):
        assert shown[i][0] == pytest.approx(ev.summary_metric(sa, i), abs=1e-9)
        assert shown[i][1] == pytest.approx(ev.summary_metric(sb, i), abs=1e-9)
    assert "made from its own file" in notes
    assert "22 score columns from 22 models" in about


# ------------------------------------------------------------------------------- across


def _across(root: Path, sweep: Path, code: int = 0) -> tuple[Any, dict[str, Any], str]:
    result = runner.invoke(app, ["across", str(sweep), "--out", str(root / "page")])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    report = ev.strict_json((root / "page" / "report.json").read_text(encoding="utf-8"))
    page = (root / "page" / "index.html").read_text(encoding="utf-8")
    return result, report, page


def _badness(values: dict[str, float], model: str, ideal: float = 50.0) -> float:
    return abs(values[model] - ideal)


def _exact_p(x: list[float], y: list[float]) -> float:
    """Two-sided permutation p of Kendall's tau over every ordering of y (itertools)."""
    observed = abs(kendalltau(x, y).statistic)
    hits = [abs(kendalltau(x, list(p)).statistic) >= observed - 1e-12 for p in itertools.permutations(y)]
    return sum(hits) / len(hits)


def _columns(n_models: int, perfect: bool) -> tuple[list[str], list[tuple[str, str, str, dict]]]:
    rng = np.random.default_rng(n_models)
    models = [ev.label(i) for i in range(n_models)]
    crows = {m: int(v) for m, v in zip(models, rng.choice(np.arange(100, 180), n_models, replace=False), strict=True)}
    if perfect:  # the same order of distance from 50 % on every benchmark
        wino = {m: crows[m] + 10 for m in models}
    else:
        wino = {m: int(v) for m, v in zip(models, rng.choice(np.arange(100, 180), n_models, replace=False), strict=True)}
    return models, [("crows-pairs", "crows", "pll", crows), ("winobias", "wino", "pll", wino)]


@pytest.mark.parametrize("perfect", [False, True], ids=["random", "perfect-agreement"])
@pytest.mark.parametrize("n_models", SMALL_N)
def test_across_at_small_n_every_number_recomputed(tmp_path: Path, n_models: int, perfect: bool):
    models, columns = _columns(n_models, perfect)
    result, report, page = _across(tmp_path, ev.sweep(tmp_path / "sweep", columns))
    percent = {c[1]: {m: 100 * v / 200 for m, v in c[3].items()} for c in columns}
    # every metric's interval is inside 0-100 and holds its value (Wilson over 200 pairs)
    for column in report["columns"]:
        for model, record in column["values"].items():
            assert record["value"] == pytest.approx(percent[column["key"].split("/")[1]][model])
            assert 0 <= record["low"] <= record["value"] <= record["high"] <= 100
    # ranks: scipy's average ranks of the distance from 50
    for column in report["columns"]:
        values = percent[column["key"].split("/")[1]]
        expected = rankdata([_badness(values, m) for m in models])
        assert [column["ranks"][m] for m in models] == pytest.approx(list(expected))
    # combined: numpy mean of the two benchmarks' ranks, ranked again
    crows_r = rankdata([_badness(percent["crows"], m) for m in models])
    wino_r = rankdata([_badness(percent["wino"], m) for m in models])
    combined = np.mean([crows_r, wino_r], axis=0)
    assert [report["combined"]["scores"][m] for m in models] == pytest.approx(list(combined))
    assert [report["combined"]["ranks"][m] for m in models] == pytest.approx(list(rankdata(combined)))
    assert report["combined"]["no_score"] == {} and len(report["combined"]["groups"]) == 1
    (pair,) = report["agreement"]
    agree = report["combined"]["agreement_between_benchmarks"]
    x = [_badness(percent["crows"], m) for m in models]
    y = [_badness(percent["wino"], m) for m in models]
    if n_models < 3:  # nothing can be said: words, no number
        assert pair["value"] is None and pair["no_value"] == "fewer than 3 common models"
        assert agree["mean_tau"] is None and agree["pairs_without_tau"] == 1
        assert "no tau between combined columns" in result.output
        assert "No tau for 1 pair of columns: fewer than 3 common models" in page
        assert "tau-heatmap" not in page and "<th>permutation p</th>" not in page
        return
    tau = kendalltau(x, y).statistic
    assert pair["value"] == pytest.approx(tau, abs=1e-12)
    if perfect:
        assert tau == pytest.approx(1.0)
    assert "low" not in pair and pair["no_interval"] == "n too small for an interval"
    p = _exact_p(x, y)
    assert pair["p"] == pytest.approx(p, abs=1e-12)
    assert agree["mean_tau"] == pytest.approx(tau) and agree["pairs"] == 1
    assert agree["min_models"] == agree["max_models"] == n_models
    # the p and the number of models are on the page and in the terminal, not only in JSON
    p_shown = f"p={p:.3g}"
    assert p_shown in page and p_shown in result.output
    line = f"over 1 pair of columns of different benchmarks, each on {n_models} models in common"
    assert line in page and line in result.output
    assert "tau-heatmap" in page


def test_across_perfect_agreement_at_12_models_gives_no_zero_width_interval(tmp_path: Path):
    _, columns = _columns(12, perfect=True)
    _, report, page = _across(tmp_path, ev.sweep(tmp_path / "sweep", columns))
    (pair,) = report["agreement"]
    assert pair["value"] == pytest.approx(1.0)
    if "low" in pair:  # an interval, if any, inside [-1, 1] and holding its estimate
        assert -1 <= pair["low"] <= pair["value"] <= pair["high"] <= 1
    else:
        assert pair["no_interval"]
    assert "[1.00, 1.00]" not in page


def test_across_leaves_a_non_finite_metric_out_with_a_note(tmp_path: Path):
    columns = [("crows-pairs", "crows", "pll", {"m1": 110, "m2": 120, "m3": float("nan"), "m4": 150}),
               ("winobias", "wino", "pll", {"m1": 100, "m2": 130, "m3": 140, "m4": float("inf")})]  # fmt: skip
    result, report, page = _across(tmp_path, ev.sweep(tmp_path / "sweep", columns))
    crows = next(c for c in report["columns"] if c["key"].startswith("crows"))
    assert set(crows["values"]) == {"m1", "m2", "m4"}
    assert "m3 is nan, not a finite number; left out" in result.output
    assert "m4 is inf, not a finite number; left out" in result.output
    tables = page.split("<section id='combined'>")[1].split("<section id='agreement'>")[0].lower()
    assert "nan" not in tables and "inf" not in tables  # no NaN or infinity printed
    assert all(math.isfinite(v) for v in report["combined"]["scores"].values())


def test_across_disjoint_benchmarks_give_no_combined_rank(tmp_path: Path):
    """BERT only on CrowS-Pairs, GPT-2 only on StereoSet: neither is ranked against the other."""
    columns = [("crows-pairs", "crows", "pll", {"bert": 120}),
               ("stereoset", "stereoset", "stereoset-clm", {"gpt2": 61.0})]  # fmt: skip
    result, report, page = _across(tmp_path, ev.sweep(tmp_path / "sweep", columns))
    combined = report["combined"]
    assert combined["scores"] == {} and combined["ranks"] == {}
    assert set(combined["no_score"]) == {"bert", "gpt2"}
    assert all(c["ranks"] == {} for c in report["columns"])  # a rank among one model: none
    for text in (result.output, page):
        assert "No combined score for bert, gpt2: each shares no bias column" in text
    assert "combined score: none" in result.output and "1.5" not in result.output
    section = page.split("<section id='combined'>")[1].split("</section>")[0]
    assert "<table" not in section and "#1" not in page  # no combined table, no rank of one
    assert "no bias column has a value for two or more models" in page
    # every pair of the 4 columns has fewer than 3 common models: one sentence, no heat map
    assert all(p["value"] is None for p in report["agreement"])
    assert "tau-heatmap" not in page and "<th>permutation p</th>" not in page
    assert f"No tau for {len(report['agreement'])} pairs of columns: fewer than 3 common models" in page


def test_across_groups_that_share_nothing_are_ranked_apart(tmp_path: Path):
    columns = [("crows-pairs", "crows", "pll", {"a": 110, "b": 140, "c": 120}),
               ("winobias", "wino", "pll", {"d": 100, "e": 130})]  # fmt: skip
    result, report, page = _across(tmp_path, ev.sweep(tmp_path / "sweep", columns))
    combined = report["combined"]
    assert combined["groups"] == [["a", "b", "c"], ["d", "e"]]
    # within each group, scipy's ranks of the distance from 50 %
    for group, biased in (("abc", (110, 140, 120)), ("de", (100, 130))):
        distance = [abs(100 * k / 200 - 50) for k in biased]
        assert [combined["ranks"][m] for m in group] == list(rankdata(distance))
    assert "2 groups that share no bias column (a, b, c; d, e)" in page
    assert "2 groups that share no bias column (a, b, c; d, e)" in result.output


def test_across_many_columns_at_2_models_prints_no_table_of_nothing(tmp_path: Path):
    """The issue's page: 18 columns at 2 models gave 153 rows of 'fewer than 3 common models'
    and a diagonal-only heat map."""
    columns = [("crows-pairs", f"v{k}", "pll", {"bert": 100 + k, "gpt2": 150 - k}) for k in range(18)]
    _, report, page = _across(tmp_path, ev.sweep(tmp_path / "sweep", columns))
    assert len(report["agreement"]) == 153
    assert "No tau for 153 pairs of columns: fewer than 3 common models" in page
    assert page.count("<tr>") < 40 and "tau-heatmap" not in page


def test_across_two_sweeps_with_one_label_are_told_apart(tmp_path: Path):
    """Two sweeps that each scored a model called gpt2 on CrowS-Pairs (two seeds): both
    shown, each with its own number, never one overwriting the other."""
    one = ev.sweep(tmp_path / "s1", [("crows-pairs", "crows", "pll", {"gpt2": 120, "bert": 110, "t5": 150})])
    two = ev.sweep(tmp_path / "s2", [("crows-pairs", "crows", "pll", {"gpt2": 160, "bert": 110, "t5": 150})])
    result = runner.invoke(app, ["across", str(one), str(two), "--out", str(tmp_path / "page")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "page/report.json").read_text(encoding="utf-8"))
    (column,) = report["columns"]
    assert column["values"]["gpt2 (s1)"]["value"] == pytest.approx(60.0)
    assert column["values"]["gpt2 (s2)"]["value"] == pytest.approx(80.0)
    assert column["values"]["bert"]["value"] == pytest.approx(55.0)  # the same in both: one
    assert "gpt2 (s1)" in result.output and "gpt2 (s2)" in result.output


def test_across_page_prints_no_interval_that_does_not_hold_its_value():
    """An interval from a benchmark's output that excludes its value (or a tau's outside
    [-1, 1]) is not printed as one: the page says why instead."""
    from curate.instrument.across import AcrossColumn, across_report
    from curate.instrument.across_page import render_page, shown_interval, tau_text

    values = {"a": {"value": 60.0, "n": 100, "low": 61.0, "high": 70.0},
              "b": {"value": 55.0, "n": 100, "low": 45.0, "high": 64.0},
              "c": {"value": 52.0, "n": 100, "no_interval": "n too small for an interval"}}  # fmt: skip
    column = AcrossColumn("x", "crows-pairs", "CrowS-Pairs", "pll", "bias", "closer", 50.0, values)
    page = render_page(across_report([column], ["a", "b", "c"]))
    assert "[61.00, 70.00]" not in page and "[45.00, 64.00]" in page
    assert "60.00 <span class='rank'>(no interval: the one given does not contain the value)" in page
    assert not shown_interval({"value": 0.9, "low": 0.5, "high": 1.2}, (-1.0, 1.0))
    assert tau_text({"value": 0.9, "low": 0.5, "high": 1.2, "no_interval": ""}) == "0.90"
    assert tau_text({"value": 0.9, "low": 0.5, "high": 1.0}) == "0.90 [0.50, 1.00]"
