"""The explorer shows an imported score set (``curate score --import``) as a column labelled,
like every other, by the model label and the method its summary.json records."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from curate.report.explore_data import VersionData, build_explore_data, read_score_dir
from curate.report.explore_tokens import token_logprobs
from tests.support.release_project import PAIRS

runner = CliRunner()
LABEL = "models/bert"


def _imported(tmp_path: Path) -> Path:
    """PAIRS, a metric.py output for them, and the import of it under the label ``LABEL``."""
    data = tmp_path / "pairs.csv"
    write_pairs(PAIRS, data)
    published = tmp_path / "metric_output.csv"
    with published.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sent_more", "sent_less", "sent_more_score", "sent_less_score", "score"])
        for i, pair in enumerate(PAIRS):
            more, less = -10.0 - i, -11.0 + (i % 2) * 3
            writer.writerow([pair.sent_more, pair.sent_less, more, less, int(more > less)])
    out = tmp_path / "scores"
    result = runner.invoke(
        app,
        ["score", str(data), "--import", str(published), "-m", LABEL, "--out", str(out),
         "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    return out


def test_an_imported_set_is_a_column_of_its_label_and_method(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _imported(tmp_path)
    # a directory of the label's name where explore runs is not the model: the label stays
    (tmp_path / "models" / "bert").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    sets, warnings = read_score_dir(out)
    assert warnings == []
    (summary,) = out.rglob("summary.json")
    recorded = json.loads(summary.read_text())
    data = build_explore_data([VersionData("raw", PAIRS)], score_sets=sets)
    (column,) = data["models"]
    assert column["name"] == recorded["model"] == LABEL
    assert column["method"] == recorded["method"] == "imported:metric.py"
    assert column["label"] == f"{LABEL} \u00b7 imported:metric.py"
    # its scores fill the column, pair by pair
    assert all(row["s"][0][0] is not None for row in data["rows"])


def test_an_imported_set_loads_no_model_for_token_charts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _imported(tmp_path)
    (tmp_path / "models" / "bert").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cache.sqlite").write_bytes(b"")

    def no_model(*args: object, **kwargs: object) -> None:
        raise AssertionError("an imported score set has no model to load")

    monkeypatch.setattr("curate.score.models.load_model", no_model)
    (scores,) = read_score_dir(out)[0]
    pairs = [(p.sent_more, p.sent_less, p.direction) for p in PAIRS]
    assert token_logprobs(tmp_path / "cache.sqlite", scores.provenance, pairs) is None
