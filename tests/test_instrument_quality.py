"""The "instrument quality" section of `curate diff-report`: internal consistency of both
versions, the report's columns as subjects."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pingouin
import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from tests.support.tiny_models import single_thread, tiny_model_dir

runner = CliRunner()


def test_diff_report_with_three_models_reports_both_versions(
    crows_pairs_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.curate]\ndata = "raw.csv"\n')
    dataset = read_dataset(crows_pairs_path)
    write_dataset(dataset.with_pairs(dataset.pairs[:36]), tmp_path / "raw.csv")
    write_dataset(dataset.with_pairs(dataset.pairs[:30]), tmp_path / "revised.csv")
    models = [str(tiny_model_dir(f)) for f in ("bert", "roberta", "albert")]
    with single_thread():
        result = runner.invoke(
            app,
            ["diff-report", "raw.csv", "revised.csv", *(a for m in models for a in ("-m", m)),
             "--bootstrap", "100", "--no-cache"],
        )
    assert result.exit_code == 0, result.output
    out = tmp_path / "build" / "diff-report"
    data = json.loads((out / "report.json").read_text())
    section = data["instrument"]
    assert len(section["subjects"]) == 3
    for side, n in (("before", 36), ("after", 30)):
        matrix = pd.DataFrame(
            [{r["pair_id"]: r["score"] for r in m["scores"][side]} for m in data["models"]]
        )
        overall = next(g for g in section[side]["groups"] if g["group"] == "all")
        assert overall["items"] == n
        assert overall["alpha"]["value"] == pytest.approx(pingouin.cronbach_alpha(data=matrix)[0])
    assert "## Instrument quality" in (out / "report.md").read_text()
    assert "<h2>Instrument quality</h2>" in (out / "report.html").read_text()


def test_fewer_than_three_columns_leave_the_section_out() -> None:
    from tests.support.report_data import build_data

    assert "instrument" not in build_data()  # two columns: the golden layout is unchanged
