"""``curate diff-report --sweep`` scores each model as ``curate sweep`` did (issue 31, item 6).

Two models of one plan get different batch sizes and dtypes (and the plan a third, global
batch size that neither uses). The sweep runs first; diff-report then reads its output root.
What was really used is read back from what each wrote: the sweep's summary.json and the
report's provenance name the batch size and dtype of every column, and diff-report computes
nothing (every score comes from the sweep's cache rows, which are keyed by those settings).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()
RAW = SAMPLE_PAIRS[:6]
REVISED = (RAW[0], RAW[1].with_changes(sent_more="The poor are so very ignorant."), *RAW[3:])
#: label -> (plan lines, the (batch size, dtype) the sweep must use, its columns' methods)
MODELS = {
    "small-batches": ('batch-size = 2\nmethods = ["pll"]\n', (2, "float32"), ["pll"]),
    "bf16": ('batch-size = 5\ndtype = "bfloat16"\nmethods = ["pll", "aul"]\n', (5, "bfloat16"),
             ["pll", "aul"]),
}  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "pairs.csv"\noutput-dir = "out"\n', encoding="utf-8"
    )
    write_pairs(RAW, tmp_path / "pairs.csv")
    write_pairs(REVISED, tmp_path / "after.csv")
    models = "".join(
        f'[[model]]\nname = "{tiny_model_dir("bert", seed=seed)}"\nlabel = "{label}"\n{lines}\n'
        for seed, (label, (lines, _, _)) in enumerate(MODELS.items())
    )
    (tmp_path / "plan.toml").write_text(
        'output = "sweep"\nbatch-size = 3\n\n' + models
        + '[[version]]\nlabel = "raw"\ndata = "pairs.csv"\n'
        '[[version]]\nlabel = "after"\ndata = "after.csv"\n',
        encoding="utf-8",
    )  # fmt: skip
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _used(provenance: dict) -> tuple[int, str]:
    return provenance["batch_size"], provenance["dtype"]


@pytest.mark.parametrize("given", ["plan.toml", "sweep"])
def test_each_model_is_scored_with_the_sweeps_own_settings(project: Path, given: str) -> None:
    swept = runner.invoke(app, ["sweep", "plan.toml"])
    assert swept.exit_code == 0, swept.output
    for label, (_, used, methods) in MODELS.items():
        for method in methods:
            column = project / "sweep" / "raw" / label / ("" if method == "pll" else method)
            summary = json.loads((column / "summary.json").read_text(encoding="utf-8"))
            assert _used(summary) == used, (label, method)  # provenance, flattened

    result = runner.invoke(
        app, ["diff-report", "--sweep", given, "--bootstrap", "50", "-o", "report"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((project / "report" / "report.json").read_text(encoding="utf-8"))
    columns = {(m["model_label"], m["method"]): m for m in data["models"]}
    assert list(columns) == [(label, m) for label, (_, _, ms) in MODELS.items() for m in ms]
    for (label, _), column in columns.items():
        assert _used(column["provenance"]) == MODELS[label][1], label
    # keyed by those settings, every score came from the sweep's cache rows
    computed = re.search(r"this run computed (.*)", result.stderr)
    assert computed is not None, result.stderr
    counts = re.findall(r"([\d,]+) \w[\w ]*? and took", computed.group(1))
    assert counts and set(counts) == {"0"}, computed.group(1)


def test_an_option_given_to_diff_report_overrides_the_plans_batch_sizes(project: Path) -> None:
    result = runner.invoke(
        app,
        ["diff-report", "--sweep", "plan.toml", "--batch-size", "4", "--bootstrap", "50",
         "-o", "report"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((project / "report" / "report.json").read_text(encoding="utf-8"))
    assert {(m["model_label"], *_used(m["provenance"])) for m in data["models"]} == {
        ("small-batches", 4, "float32"),
        ("bf16", 4, "bfloat16"),
    }


def test_a_sweep_model_that_does_not_load_is_one_error_before_any_scoring(project: Path) -> None:
    """A plan naming a file that is no model: one ``error:`` line, exit 2, nothing written
    (on a546b29 a ``note:`` with the reason came first and the same error followed)."""
    plan = (project / "plan.toml").read_text(encoding="utf-8")
    (project / "plan.toml").write_text(
        plan.replace("[[version]]", '[[model]]\nname = "pairs.csv"\nlabel = "broken"\n\n[[version]]', 1),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["diff-report", "--sweep", "plan.toml", "-o", "report"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "model broken" in lines[0] and "cannot load language model" in lines[0]
    assert not (project / "report").exists()
