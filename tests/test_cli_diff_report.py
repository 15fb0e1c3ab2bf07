"""``curate diff-report`` from the command line: defaults, versions, reruns and errors.

Each test works in its own project directory (a pyproject.toml with ``[tool.curate]`` whose raw
file is a small CSV), so the default BEFORE, output directory and cache are exercised as a user
meets them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()
RAW = SAMPLE_PAIRS[:6]
REVISED = (
    RAW[0],
    RAW[1].with_changes(sent_more="The poor are <script>alert(1)</script> ignorant."),
    RAW[2].with_changes(bias_type="nationality"),
    RAW[4],
    RAW[5],
    SAMPLE_PAIRS[7].with_changes(pair_id=20),
)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def model() -> str:
    return str(tiny_model_dir("bert"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose raw data is RAW, with REVISED in after.csv and as release 1.0.0-test."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "data/raw/pairs.csv"\n', encoding="utf-8"
    )
    write_pairs(RAW, tmp_path / "data" / "raw" / "pairs.csv")
    write_pairs(REVISED, tmp_path / "after.csv")
    release = tmp_path / "data" / "clean" / "1.0.0-test"
    (release / "recipe.toml").parent.mkdir(parents=True)
    (release / "recipe.toml").write_text("# test release\n", encoding="utf-8")
    write_pairs(REVISED, release / "dist" / "crows_pairs_revised.csv")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(*args: str):
    return runner.invoke(app, ["diff-report", *args])


def test_one_version_compares_against_raw_with_the_defaults(project: Path, model: str) -> None:
    result = _run("after.csv", "--model", model, "--bootstrap", "200")
    assert result.exit_code == 0, result.output
    out = project / "build" / "diff-report"
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    assert (project / ".curate-cache" / "scores.sqlite").is_file()
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["before"] == {"label": "raw", "pairs": 6}
    assert data["after"] == {"label": "after.csv", "pairs": 6}
    assert data["alignment"]["counts"] == {"unchanged": 3, "edited": 2, "dropped": 1, "added": 1}
    assert data["settings"]["bootstrap_samples"] == 200
    assert [m["label"] for m in data["models"]] == ["bert · pll"]
    assert "raw -> after.csv: 3 unchanged, 2 edited, 1 dropped, 1 added" in result.stdout
    assert "bert · pll on after.csv" in result.stderr
    # the line of each finished run says what it counted (issue 47: "1,554 jobs to compute" on
    # 30 pairs): masked copies for pll, computed in this run
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("bert · pll on raw: done")]
    data_raw = data["models"][0]["compute"]["before"]["unique_masked"]
    assert f"done, computed {data_raw:,} masked copies" in line, result.stderr
    assert "jobs" not in result.stderr
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (out / "report.html").read_text("utf-8")


def test_release_version_and_rerun_without_forward_passes(project: Path, model: str) -> None:
    args = ("raw", "1.0.0-test", "-m", model, "-o", "out", "--bootstrap", "200")
    first = _run(*args)
    assert first.exit_code == 0, first.output
    assert "this run computed 0 masked copies" not in first.stderr
    files = {p.name: p.read_bytes() for p in (project / "out").iterdir()}
    second = _run(*args)
    assert second.exit_code == 0, second.output
    assert "this run computed 0 masked copies" in second.stderr
    assert {p.name: p.read_bytes() for p in (project / "out").iterdir()} == files
    data = json.loads(files["report.json"])
    assert data["after"]["label"] == "1.0.0-test"
    saved = data["models"][0]["compute"]["forward_passes_saved"]
    assert saved > 0 and f"{saved:,}" in first.stdout


def test_two_models_give_a_column_each(project: Path, model: str) -> None:
    other = str(tiny_model_dir("roberta"))
    result = _run("after.csv", "-m", model, "-m", other, "--bootstrap", "100", "--no-cache")
    assert result.exit_code == 0, result.output
    markdown = (project / "build" / "diff-report" / "report.md").read_text(encoding="utf-8")
    # one method for every column: the columns are named by model, the method said once
    assert "|  | bert | roberta |" in markdown
    assert "- models (every column scored with pll): bert (`" in markdown
    assert "every column scored with pll" in result.stdout
    assert "roberta · pll" not in result.stdout
    assert not (project / ".curate-cache").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("9.9.9", "after.csv"), "no release 9.9.9"),
        (("raw", "missing.csv"), "missing.csv: no such file"),
        (("raw", "after.csv", "extra.csv"), "give at most two versions"),
    ],
)
def test_bad_versions_are_one_sentence_and_exit_2(
    project: Path, model: str, args: tuple[str, ...], message: str
) -> None:
    result = _run(*args, "-m", model)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert not (project / "build").exists()


def test_missing_model_directory_is_one_sentence_and_exit_2(project: Path) -> None:
    result = _run("after.csv", "-m", str(project / "no-such-model"))
    assert result.exit_code == 2
    assert "no-such-model: no such model directory" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (project / "build").exists()


def test_missing_model_option_is_a_usage_error(project: Path) -> None:
    result = _run("after.csv")
    assert result.exit_code == 2
    assert "--model" in result.output
