"""Parallel-form reliability on the published Martínez & Kremer files (imported BERT and GPT-2)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.findings import read_findings
from curate.formats.labels import HF_BIAS_TYPES
from tests.support.intervals import assert_intervals_hold

runner = CliRunner()
#: GPT-2 numbers of their pipeline: the lower one wins (see the data README).
LOWER_WINS = {"bert": False, "gpt2": True}


@pytest.fixture(scope="module")
def mk() -> Path:
    folder = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / "martinez_kremer_2023"
    if not folder.is_dir():
        pytest.skip("the Martínez & Kremer files are not in $CURATE_DATA_MIRROR")
    return folder


@pytest.fixture(scope="module")
def scored(mk: Path, crows_pairs_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mk-scores")
    for model in LOWER_WINS:
        jobs = [(crows_pairs_path, mk / "output" / model / "crows_pairs_anonymized_csv_output.csv")]
        jobs += [
            (subset, mk / "output" / model / f"{subset.stem}_csv_output.csv")
            for subset in sorted((mk / "rephrased").glob("*.csv"))
        ]
        for data, published in jobs:
            result = runner.invoke(
                app, ["score", str(data), "--import", str(published), "-m", model,
                      "--out", str(root / data.stem), "--format", "json"],
            )
            assert result.exit_code == 0, result.output
    return root


def _implied_metric(subset: Path, published: Path, lower_wins: bool) -> float:
    """% of rows where the model preferred the input's sent_more, from the two files alone."""
    data, out = pd.read_csv(subset), pd.read_csv(published)
    same = out["sent_more"] == data["sent_more"]
    assert (same | (out["sent_more"] == data["sent_less"])).all()
    more = out["sent_more_score"].where(same, out["sent_less_score"])
    less = out["sent_less_score"].where(same, out["sent_more_score"])
    wins = (more < less) if lower_wins else (more > less)
    return 100 * wins.mean()


def test_parallel_forms_on_the_published_files(mk: Path, crows_pairs_path: Path, scored: Path, tmp_path: Path) -> None:
    subsets = sorted((mk / "rephrased").glob("*.csv"))
    result = runner.invoke(
        app,
        ["instrument", "reliability", *map(str, subsets), "--original", str(crows_pairs_path),
         "--scores", str(scored), "--out", str(tmp_path / "report"),
         "--findings", str(tmp_path / "flips.jsonl")],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert assert_intervals_hold(report)
    assert (tmp_path / "report" / "report.html").read_text().count("<table>") == 5
    rows = {(r["bias_type"], r["model"]): r for r in report["rows"]}
    excluded = {link["file"]: link["excluded"] for link in report["links"]}
    assert len(rows) == 2 * len(subsets)
    whole = {m: pd.read_csv(mk / "output" / m / "crows_pairs_anonymized_csv_output.csv") for m in LOWER_WINS}
    for subset in subsets:
        frame = pd.read_csv(subset)
        bias_type = HF_BIAS_TYPES[int(frame["bias_type"].iloc[0])]
        for model, lower in LOWER_WINS.items():
            published = mk / "output" / model / f"{subset.stem}_csv_output.csv"
            row = rows[(bias_type, model)]
            # the subset metric exactly as their metric.py output implies
            assert 100 * row["alternate_metric"]["value"] == pytest.approx(_implied_metric(subset, published, lower))
            assert row["alternate_metric"]["n"] == len(frame)
            # the printed (inverted) number is kept beside it
            assert row["alternate_metric_as_published"] == pytest.approx(100 * pd.read_csv(published)["score"].mean())
            if "id" in frame:  # original pairs that have an alternate, from the whole-file output
                expected = 100 * whole[model].loc[frame["id"], "score"].mean()
                assert 100 * row["original_metric_linked"]["value"] == pytest.approx(expected)
            for key in ("agreement", "kappa", "difference", "gap_correlation"):
                # text links below --min-similarity (gender: no id column) are left out
                assert row[key]["n"] == len(frame) - excluded[subset.name], key
                assert "low" in row[key] or key == "kappa", key
            # the published number explained beside the cell: swapped rows = the 0-labelled ones
            zeros = int((frame["stereo_antistereo"] == 0).sum())
            assert f"{zeros} rows hold the pair's two sentences in each other's columns" in row["published_explained"]
    assert excluded["rephrased_subset_gender.csv"] > 0 and sum(excluded.values()) == excluded["rephrased_subset_gender.csv"]
    assert "below --min-similarity excluded" in result.output
    assert report["alerts"] == []  # the published subsets are sound
    findings = read_findings(tmp_path / "flips.jsonl")
    assert {f.code for f in findings} <= {"I002"} and len(findings) == len(report["findings"])
    # a count of flips under both models comes with its chance baseline; findings only above it
    for chance in report["flip_chance"]:
        rates = list(chance["rates"].values())
        assert len(rates) == 2 and chance["expected"] == pytest.approx(chance["pairs"] * rates[0] * rates[1])
        mine = [f for f in findings if chance["file"] in f.message]
        assert bool(mine) == chance["beats_chance"]


def test_text_links_recover_the_published_ids(mk: Path, crows_pairs_path: Path) -> None:
    """The subsets with an `id` column, linked as if they had none: the text linker (used for
    the gender subset) finds the original pair the authors named for nearly all of them."""
    import dataclasses

    from curate.datasets import read_dataset
    from curate.instrument.reliability import link_pairs

    original = read_dataset(crows_pairs_path).pairs
    total = right = 0
    for path in sorted((mk / "rephrased").glob("*.csv")):
        dataset = read_dataset(path)
        if dataset.shape.id_column != "id":
            continue
        blind = dataclasses.replace(dataset, shape=dataclasses.replace(dataset.shape, id_column=""))
        links = link_pairs(original, blind)
        assert {link.by for link in links} == {"text"} and len(links) == len(dataset.pairs)
        total += len(links)
        right += sum(link.alternate_id == link.original_id for link in links)
    assert total > 500 and right / total > 0.95


def test_compare_puts_both_versions_side_by_side(
    mk: Path, crows_pairs_path: Path, scored: Path, tmp_path: Path
) -> None:
    """A revision that drops the age pairs whose paraphrase flips for BERT: the published
    outputs filtered like the data, imported, then compared with the raw file."""
    from curate.datasets import read_dataset, write_dataset

    age = mk / "rephrased" / "rephrased_subset_age.csv"
    report = json.loads(
        runner.invoke(
            app, ["instrument", "reliability", str(age), "--original", str(crows_pairs_path),
                  "-s", str(scored), "-o", str(tmp_path / "rel"), "--format", "json"],
        ).stdout
    )
    dataset = read_dataset(crows_pairs_path)
    drop = set(pd.read_csv(age)["id"][:10])
    revised = tmp_path / "revised.csv"
    write_dataset(dataset.with_pairs([p for p in dataset.pairs if p.pair_id not in drop]), revised)
    for model in LOWER_WINS:
        published = pd.read_csv(mk / "output" / model / "crows_pairs_anonymized_csv_output.csv", index_col=0)
        filtered = tmp_path / f"{model}.csv"
        published.drop(index=sorted(drop)).to_csv(filtered)
        result = runner.invoke(
            app, ["score", str(revised), "--import", str(filtered), "-m", model, "--out",
                  str(scored / "revised"), "--format", "json"],
        )
        assert result.exit_code == 0, result.output
    result = runner.invoke(
        app,
        ["instrument", "compare", str(crows_pairs_path), str(revised), "-s", str(scored),
         "--alternate", str(age), "-o", str(tmp_path / "cmp")],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "cmp" / "report.json").read_text())
    assert "internal consistency skipped" in data["intro"][0]  # two models only
    before = {r["model"]: r for r in data["reliability"]["before"]}
    after = {r["model"]: r for r in data["reliability"]["after"]}
    assert before["bert"]["agreement"] == next(r for r in report["rows"] if r["model"] == "bert")["agreement"]
    assert after["bert"]["agreement"]["n"] == before["bert"]["agreement"]["n"] - 10
    (row,) = data["validity"]["correlations"]
    assert row["models"] == ["bert", "gpt2"]
    titles = [t["title"] for t in data["tables"]]
    assert "Parallel forms, before and after" in titles and "Model scores per measure" in titles


def test_a_broken_subset_is_impossible_to_miss(mk: Path, crows_pairs_path: Path, tmp_path: Path) -> None:
    """A pre-processing error that shifts the ids of a subset by one row (each paraphrase linked
    to the wrong original) is called out, not reported as a surprising metric."""
    frame = pd.read_csv(mk / "rephrased" / "rephrased_subset_religion.csv", index_col=0)
    frame["id"] = frame["id"].shift(1, fill_value=int(frame["id"].iloc[-1]))
    broken = tmp_path / "rephrased_subset_religion.csv"
    frame.to_csv(broken)
    scores = tmp_path / "scores"
    for model in LOWER_WINS:
        for data, published in (
            (crows_pairs_path, mk / "output" / model / "crows_pairs_anonymized_csv_output.csv"),
            (broken, mk / "output" / model / "rephrased_subset_religion_csv_output.csv"),
        ):
            result = runner.invoke(
                app, ["score", str(data), "--import", str(published), "-m", model,
                      "--out", str(scores / data.stem), "--format", "json"],
            )
            assert result.exit_code == 0, result.output
    result = runner.invoke(
        app, ["instrument", "reliability", str(broken), "--original", str(crows_pairs_path),
              "-s", str(scores), "-o", str(tmp_path / "r")],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert assert_intervals_hold(report)
    assert any("barely resemble" in a for a in report["alerts"]), report["alerts"]
    assert "ALERT rephrased_subset_religion.csv" in result.output


def test_data_arguments_take_raw_as_every_command_does(
    mk: Path, crows_pairs_path: Path, scored: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`raw` (and a release version) names the data here as in `curate score` or `diff`: the
    reports from `raw` equal those from the file's path."""
    from tests.support.release_project import make_project

    make_project(tmp_path / "project", raw=crows_pairs_path)
    monkeypatch.chdir(tmp_path / "project")
    age = str(mk / "rephrased" / "rephrased_subset_age.csv")
    reports = {}
    for name in ("raw", str(crows_pairs_path)):
        for command in (["reliability", age, "--original", name], ["compare", name, age]):
            result = runner.invoke(
                app, ["instrument", *command, "-s", str(scored), "-o", str(tmp_path / "out"), "--format", "json"]
            )
            assert result.exit_code == 0, result.output
            reports[name, command[0]] = json.loads(result.stdout)["tables"]
    assert reports["raw", "reliability"] == reports[str(crows_pairs_path), "reliability"]
    assert reports["raw", "compare"] == reports[str(crows_pairs_path), "compare"]


def _verdicts_from_published(subset: Path, published: Path, lower_wins: bool) -> list[int]:
    """Per row of the subset, 1 when the model preferred the input's sent_more (files alone)."""
    data, out = pd.read_csv(subset), pd.read_csv(published)
    same = out["sent_more"] == data["sent_more"]
    more = out["sent_more_score"].where(same, out["sent_less_score"])
    less = out["sent_less_score"].where(same, out["sent_more_score"])
    return ((more < less) if lower_wins else (more > less)).astype(int).tolist()


def test_gender_with_links_fixed_equals_an_independent_recomputation(
    mk: Path, crows_pairs_path: Path, scored: Path, tmp_path: Path
) -> None:
    """The gender subset has no id column: 4 of its text links are wrong (issue 30). With the
    links supplied through --links, every cell equals the statistic recomputed here from the
    published files with sklearn and statsmodels."""
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.proportion import proportion_confint

    from curate.datasets import read_dataset
    from curate.instrument.reliability import link_pairs

    gender = mk / "rephrased" / "rephrased_subset_gender.csv"
    links = {link.alternate_id: link.original_id for link in link_pairs(read_dataset(crows_pairs_path).pairs, read_dataset(gender))}
    # the four wrong text links (rows 2, 4, 31, 41), by reading the sentences
    links.update({2: 47, 4: 77, 31: 439, 41: 702})
    links_file = tmp_path / "links.csv"
    pd.DataFrame({"alternate_id": list(links), "original_id": list(links.values())}).to_csv(links_file, index=False)
    result = runner.invoke(
        app, ["instrument", "reliability", str(gender), "--original", str(crows_pairs_path), "-s", str(scored),
              "--links", str(links_file), "-o", str(tmp_path / "r")],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert assert_intervals_hold(report)
    (link_row,) = report["links"]
    assert link_row["by"] == "file" and link_row["used"] == 98 and link_row["excluded"] == 0
    frame = pd.read_csv(gender)
    assert len(frame) == 98
    for model, lower in LOWER_WINS.items():
        alt = _verdicts_from_published(gender, mk / "output" / model / "rephrased_subset_gender_csv_output.csv", lower)
        whole = pd.read_csv(mk / "output" / model / "crows_pairs_anonymized_csv_output.csv")
        orig = [int(whole.loc[links[i], "score"]) for i in range(len(frame))]
        row = next(r for r in report["rows"] if r["model"] == model)
        same = [int(a == o) for a, o in zip(alt, orig, strict=True)]
        low, high = proportion_confint(sum(same), len(same), method="wilson")
        assert row["agreement"]["value"] == pytest.approx(sum(same) / len(same))
        assert (row["agreement"]["low"], row["agreement"]["high"]) == pytest.approx((low, high))
        assert row["kappa"]["value"] == pytest.approx(cohen_kappa_score(orig, alt))
        table = pd.crosstab(pd.Series(orig), pd.Series(alt)).reindex(index=[0, 1], columns=[0, 1], fill_value=0)
        assert row["mcnemar_p"] == pytest.approx(mcnemar(table.to_numpy(), exact=True).pvalue)
        assert row["original_metric_linked"]["value"] == pytest.approx(sum(orig) / len(orig))
        assert row["alternate_metric"]["value"] == pytest.approx(sum(alt) / len(alt))
        assert row["label"] == f"{model} · imported:metric.py"
    assert str(tmp_path) not in (tmp_path / "r" / "report.json").read_text()


def test_an_unscored_alternate_is_reported_and_fails(mk: Path, crows_pairs_path: Path, scored: Path, tmp_path: Path) -> None:
    """Eight alternate files, one of them without scores: named in the report, exit 1."""
    subsets = sorted((mk / "rephrased").glob("*.csv"))
    dirs = [scored / crows_pairs_path.stem] + [scored / s.stem for s in subsets if "religion" not in s.name]
    result = runner.invoke(
        app, ["instrument", "reliability", *map(str, subsets), "--original", str(crows_pairs_path),
              *(a for d in dirs for a in ("-s", str(d))), "-o", str(tmp_path / "r")],
    )
    assert result.exit_code == 1, result.output
    assert "rephrased_subset_religion.csv" in result.output and "contribute nothing" in result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert assert_intervals_hold(report)
    idle = [u for u in report["unused"] if u.get("contributes_nothing")]
    assert [u["input"] for u in idle] == ["rephrased_subset_religion.csv"]
    assert {r["alternate_file"] for r in report["rows"]} == {s.name for s in subsets} - {"rephrased_subset_religion.csv"}
