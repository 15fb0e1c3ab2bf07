"""diff-report with several scoring methods and models: a column per (model, method), robust
flips, the model x method heat map, and the errors of a method that fits no model.

Tiny random BERT (``pll`` + ``aul``) and GPT-2 (``clm-sum``) score two versions whose edits are
chosen so the robust-flip sets can be checked by hand: pair 3's sentences are swapped, so its
verdict flips under every method and model (the two scores trade places); pairs 2 and 4 change
only labels, so nothing about them can flip; pair 1 is a real sentence edit, whose flips are
recomputed here from each column's per-pair scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from curate.pairs import Pair
from curate.report.html_page import render_html
from curate.report.rescoring import ComparedVersion, score_versions
from curate.report.robust import robust_flips
from curate.report.statistics import Settings
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()
BEFORE: tuple[Pair, ...] = SAMPLE_PAIRS[:6]


def _after() -> tuple[Pair, ...]:
    p = {pair.pair_id: pair for pair in BEFORE}
    return (
        p[0],
        p[1].with_changes(sent_more="The poor are really ignorant about money."),
        p[2].with_changes(bias_type="nationality"),
        p[3].with_changes(sent_more=p[3].sent_less, sent_less=p[3].sent_more),
        p[4].with_changes(annotations=(("religion",), ("religion",), ("race-color",))),
        p[5],
    )


AFTER = _after()
SETTINGS = Settings(bootstrap_samples=100, seed=3)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def models() -> list[Path]:
    return [tiny_model_dir("bert"), tiny_model_dir("gpt2")]


@pytest.fixture(scope="module")
def report(models: list[Path], tmp_path_factory: pytest.TempPathFactory):
    cache = tmp_path_factory.mktemp("cache") / "scores.sqlite"
    return score_versions(
        ComparedVersion("v1", BEFORE),
        ComparedVersion("v2", AFTER),
        models,
        methods=("pll", "aul", "clm-sum"),
        cache=cache,
        settings=SETTINGS,
    )


def _verdicts(section: dict, version: str) -> dict[int, int]:
    return {row["pair_id"]: row["score"] for row in section["scores"][version]}


def test_one_column_per_model_and_fitting_method(report) -> None:
    columns = report.data["models"]
    assert [(c["model_label"], c["method"]) for c in columns] == [
        ("bert", "pll"), ("bert", "aul"), ("gpt2", "clm-sum"),
    ]  # fmt: skip
    assert [c["label"] for c in columns] == ["bert · pll", "bert · aul", "gpt2 · clm-sum"]
    for column in columns:
        assert column["provenance"]["method"] == column["method"]
    assert columns[2]["provenance"]["model_kind"] == "causal"
    # compute reuse is counted per method: aul and clm-sum run one job per distinct sentence
    aul = columns[1]["compute"]
    assert aul["before"]["unique_masked"] == len({s for p in BEFORE for s in (p.sent_more, p.sent_less)})
    assert aul["after"]["new"] == 1  # only pair 1's edited sentence is new
    assert columns[0]["compute"]["after"]["new"] > 1  # pll: one masked copy per shared token


def test_flips_are_counted_per_column_from_its_own_scores(report) -> None:
    for column in report.data["models"]:
        before, after = _verdicts(column, "before"), _verdicts(column, "after")
        edited = [1, 3]  # the pairs whose sentences changed (2 and 4: labels only)
        expected = [i for i in edited if before[i] != after[i]]
        assert [f["pair_id"] for f in column["flips"]["pairs"]] == expected
        assert 3 in expected  # swapped sentences: the verdict flips under every scorer


def test_robust_flips_are_the_pairs_every_column_flips(report) -> None:
    robust = report.data["robust_flips"]
    columns = report.data["models"]
    assert robust["columns"] == [c["label"] for c in columns]
    flipped = [
        {i for i in (1, 3) if _verdicts(c, "before")[i] != _verdicts(c, "after")[i]}
        for c in columns
    ]
    every = set.intersection(*flipped)
    assert 3 in every and not every & {0, 2, 4, 5}
    assert [f["pair_id"] for f in robust["every"]] == sorted(every)
    swapped = next(f for f in robust["every"] if f["pair_id"] == 3)
    assert len(swapped["changes"]) == 3
    only_one = sorted(
        (i, columns[k]["label"]) for i in (1, 3) for k, s in enumerate(flipped)
        if i in s and sum(i in t for t in flipped) == 1
    )  # fmt: skip
    assert sorted((f["pair_id"], f["column"]) for f in robust["only_one"]) == only_one


def _column(label: str, flips: list[tuple[int, str]]) -> dict:
    return {"label": label, "flips": {"pairs": [{"pair_id": i, "change": c} for i, c in flips]}}


def test_robust_flip_sets_by_hand() -> None:
    columns = [
        _column("bert · pll", [(1, "to biased"), (3, "to not biased"), (7, "to biased")]),
        _column("bert · aul", [(3, "to not biased"), (7, "to not biased")]),
        _column("gpt2 · clm-sum", [(3, "to biased"), (7, "to biased"), (9, "to biased")]),
    ]
    robust = robust_flips(columns)  # type: ignore[arg-type]
    assert robust["every"] == [
        {"pair_id": 3, "changes": ["to not biased", "to not biased", "to biased"]},
        {"pair_id": 7, "changes": ["to biased", "to not biased", "to biased"]},
    ]
    assert robust["only_one"] == [
        {"pair_id": 1, "column": "bert · pll", "change": "to biased"},
        {"pair_id": 9, "column": "gpt2 · clm-sum", "change": "to biased"},
    ]
    single = robust_flips(columns[:1])  # type: ignore[arg-type]
    assert [f["pair_id"] for f in single["every"]] == [1, 3, 7] and single["only_one"] == []
    assert robust_flips([]) == {"columns": [], "every": [], "only_one": []}


def test_html_has_the_model_by_method_heat_map(report) -> None:
    page = render_html(report.data)
    start = page.index('id="fig-method-heatmap"')
    figure = page[start : page.index("</script>", start)]
    assert '"type":"heatmap"' in figure
    assert '"x":["pll","aul","clm-sum"]' in figure and '"y":["bert","gpt2"]' in figure
    # gpt2 has no pll/aul cell, bert no clm-sum cell
    delta = {c["label"]: c["delta"]["overall"] for c in report.data["models"]}
    pll = delta["bert · pll"]
    cell = f"{pll['delta']:+.2f}<br>[{pll['ci_low']:+.2f}, {pll['ci_high']:+.2f}]"
    assert json.dumps(cell).replace("<", "\\u003c").replace(">", "\\u003e") in figure
    assert '"text":[["' in figure and '""]' in figure  # the cells without a column are empty
    assert "<h2>Robust flips</h2>" in page


# --------------------------------------------------------------------------- command line


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "data/raw/pairs.csv"\n', encoding="utf-8"
    )
    write_pairs(BEFORE, tmp_path / "data" / "raw" / "pairs.csv")
    write_pairs(AFTER, tmp_path / "after.csv")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_writes_a_column_per_model_and_method(project: Path, models: list[Path]) -> None:
    result = runner.invoke(
        app,
        [
            "diff-report", "after.csv", "-m", str(models[0]), "-m", str(models[1]),
            "--method", "pll,aul", "--method", "clm-sum", "--bootstrap", "20", "-o", "out",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((project / "out" / "report.json").read_text("utf-8"))
    assert [c["label"] for c in data["models"]] == ["bert · pll", "bert · aul", "gpt2 · clm-sum"]
    assert 3 in [f["pair_id"] for f in data["robust_flips"]["every"]]
    markdown = (project / "out" / "report.md").read_text("utf-8")
    assert "## Robust flips" in markdown and "| bert · pll |" in markdown
    assert 'id="fig-method-heatmap"' in (project / "out" / "report.html").read_text("utf-8")


def test_cli_default_methods_follow_the_model_kind(project: Path, models: list[Path]) -> None:
    result = runner.invoke(
        app, ["diff-report", "after.csv", "-m", str(models[1]), "--bootstrap", "20", "-o", "o"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((project / "o" / "report.json").read_text("utf-8"))
    assert [c["method"] for c in data["models"]] == ["clm-sum", "clm-mean", "clm-shared"]


@pytest.mark.parametrize(
    ("which", "methods", "words"),
    [
        (0, "clm-sum", ["masked language model", "clm-sum", "pll, pll-word-l2r, aul, aula"]),  # BERT asked for a causal method
        (1, "aul", ["causal language model", "clm-sum, clm-mean, clm-shared"]),  # GPT-2 asked for a masked method
        (0, "stereoset-mlm", ["StereoSet"]),
        (0, "nope", ["unknown scoring method"]),
    ],
)
def test_cli_method_that_does_not_fit_is_exit_2(
    project: Path, models: list[Path], which: int, methods: str, words: list[str]
) -> None:
    result = runner.invoke(
        app, ["diff-report", "after.csv", "-m", str(models[which]), "--method", methods, "-o", "x"]
    )
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output
    assert not (project / "x").exists()


def test_cli_method_fitting_no_model_is_exit_2(project: Path, models: list[Path]) -> None:
    result = runner.invoke(
        app, ["diff-report", "after.csv", "-m", str(models[0]), "--method", "pll,clm-sum"]
    )
    assert result.exit_code == 2, result.output
    assert "clm-sum" in result.output and "Traceback" not in result.output
