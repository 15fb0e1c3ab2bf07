"""A fourth benchmark plugs in by its own package and one line in the registry: detection,
reading, writing, ``curate stats`` and ``curate lint`` (its profile and own rule) work for it,
and its rule never runs on another benchmark's file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import benchmarks
from curate.cli import app
from curate.datasets import read_dataset, write_dataset

FAKE = "tests.support.fake_benchmark.benchmark"
TEXT = "#fakebench\nRed things are loud|Blue things are loud|colour\nAre squares sharp?|Are circles sharp?|shape\n"

runner = CliRunner()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(benchmarks, "BENCHMARKS", [*benchmarks.BENCHMARKS, FAKE])
    path = tmp_path / "fake.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_detected_read_and_written(fake: Path, tmp_path: Path) -> None:
    assert benchmarks.detect(fake.read_bytes())[0].name == "fakebench"
    dataset = read_dataset(fake)
    assert dataset.benchmark == "fakebench"
    assert [p.bias_type for p in dataset.pairs] == ["colour", "shape"]
    write_dataset(dataset, tmp_path / "copy.txt")
    assert (tmp_path / "copy.txt").read_text(encoding="utf-8") == TEXT
    write_dataset(dataset, tmp_path / "copy.csv", "csv")  # the shared shapes take its pairs too
    assert [p.sent_more for p in read_dataset(tmp_path / "copy.csv").pairs] == [
        p.sent_more for p in dataset.pairs
    ]
    assert "fakebench" in benchmarks.input_formats()


def test_stats_uses_its_labels_and_figures(fake: Path) -> None:
    result = runner.invoke(app, ["stats", "--format", "json", str(fake)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pairs"] == 2
    assert {r["bias_type"]: r["known"] for r in data["bias_types"]} == {"colour": True, "shape": True}
    assert data["fakebench"] == {"questions": 1}
    text = runner.invoke(app, ["stats", str(fake)])
    assert "fake questions: 1" in text.stdout


def test_lint_runs_its_profile(fake: Path, crows_pairs_path: Path) -> None:
    result = runner.invoke(app, ["lint", "--no-cache", "--format", "json", str(fake)])
    assert result.exit_code == 1, result.output
    codes = {f["code"] for f in json.loads(result.stdout)}
    assert "Z001" in codes  # its own rule
    assert "T002" not in codes  # off in its profile (both pairs lack final punctuation)
    assert "L002" not in codes  # its labels are known labels
    assert "off for FakeBench: T002" in result.stderr
    # its own rule is documented with the others, and never runs on CrowS-Pairs
    assert runner.invoke(app, ["rules", "Z001"]).exit_code == 0
    crows = runner.invoke(
        app, ["lint", "--no-cache", "--select", "Z001,T002", "--format", "json", str(crows_pairs_path)]
    )
    assert crows.exit_code == 1, crows.output
    crows_codes = {f["code"] for f in json.loads(crows.stdout)}
    assert "Z001" not in crows_codes and "T002" in crows_codes


def test_every_method_names_the_benchmark_that_lists_it() -> None:
    """A method declares the benchmark it scores (the score stage imports no benchmark); a
    benchmark with its own methods lists the same ones in its Scoring."""
    from curate.benchmarks import all_benchmarks
    from curate.score.methods import METHODS

    for benchmark in all_benchmarks().values():
        for name in benchmark.scoring.methods:
            assert METHODS[name].dataset == benchmark.name
            assert METHODS[name].dataset_title == benchmark.title
    listed = {n for b in all_benchmarks().values() for n in b.scoring.methods}
    for name, method in METHODS.items():
        assert (method.dataset != "crows-pairs") == (name in listed)
