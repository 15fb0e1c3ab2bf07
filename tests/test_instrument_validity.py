"""Convergent validity over five tiny models and two scoring methods."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from scipy.stats import kendalltau, spearmanr
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from tests.support.intervals import assert_intervals_hold
from tests.support.stereoset_data import write_stereoset
from tests.support.tiny_models import single_thread, tiny_model_dir

runner = CliRunner()


def test_rank_correlations_between_methods_match_scipy(crows_pairs_path: Path, tmp_path: Path) -> None:
    dataset = read_dataset(crows_pairs_path)
    data = tmp_path / "pairs.csv"
    write_dataset(dataset.with_pairs(dataset.pairs[:40]), data)
    models = []
    for seed in range(5):  # five random BERTs, each under its own name
        copy = tmp_path / f"bert-seed{seed}"
        shutil.copytree(tiny_model_dir("bert", seed=seed), copy)
        models.append(str(copy))
    with single_thread():
        for method in ("pll", "aul"):
            result = runner.invoke(
                app,
                ["score", str(data), *(a for m in models for a in ("-m", m)), "--method", method,
                 "--out", str(tmp_path / "scores"), "--no-cache", "--format", "json"],
            )
            assert result.exit_code == 0, result.output
        stereoset = write_stereoset(tmp_path / "stereoset.json")
        result = runner.invoke(
            app,
            ["score", str(stereoset), *(a for m in models for a in ("-m", m)),
             "--out", str(tmp_path / "scores"), "--no-cache", "--format", "json"],
        )
        assert result.exit_code == 0, result.output
    result = runner.invoke(
        app,
        ["instrument", "validity", str(data), str(stereoset), "-s", str(tmp_path / "scores"),
         "-o", str(tmp_path / "r")],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert assert_intervals_hold(report)
    ss_name = "stereoset.json · stereoset-mlm SS"
    ss = {  # models by their directory's name: no path of this machine in a report
        Path(d["model"]).name: d["results"]["overall"]["ss"] / 100
        for d in (json.loads(p.read_text()) for p in (tmp_path / "scores").rglob("stereoset.json"))
    }
    assert report["measures"][ss_name] == pytest.approx(ss) and len(ss) == 5
    assert len(report["correlations"]) == 3  # aul, pll, SS: every two
    (row,) = [r for r in report["correlations"] if ss_name not in (r["measure_a"], r["measure_b"])]
    assert len(row["models"]) == 5
    metric = {
        (Path(s["model"]).name, s["method"]): s["summary"]["metric_score"]
        for s in (json.loads(p.read_text()) for p in (tmp_path / "scores").rglob("summary.json"))
    }
    a = [metric[(m, row["measure_a"].split(" · ")[1])] for m in row["models"]]
    b = [metric[(m, row["measure_b"].split(" · ")[1])] for m in row["models"]]
    if row["spearman"]["value"] is not None:
        assert row["spearman"]["value"] == pytest.approx(spearmanr(a, b).statistic)
        assert row["kendall"]["value"] == pytest.approx(kendalltau(a, b).statistic)
    else:  # a measure gave every model the same metric: no rank correlation exists
        assert len(set(a)) == 1 or len(set(b)) == 1
    markdown = (tmp_path / "r" / "report.md").read_text()
    assert "fewer than 5 models" in markdown and str(tmp_path) not in markdown
    assert str(tmp_path) not in (tmp_path / "r" / "report.json").read_text()
    if row["spearman"]["value"] is not None:  # 5 models: an exact permutation p, no bootstrap
        assert row["spearman"]["p"] >= 2 / 120 and "low" not in row["spearman"]
        assert "n too small for an interval" in markdown


def test_one_measure_is_a_usage_error(tmp_path: Path, crows_pairs_path: Path) -> None:
    (tmp_path / "scores").mkdir()
    result = runner.invoke(
        app, ["instrument", "validity", str(crows_pairs_path), "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r")]
    )
    assert result.exit_code == 2 and "needs two or more measures" in result.output
