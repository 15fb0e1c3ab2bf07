"""The cross-benchmark report on hand-made sweep outputs: ranks, Kendall's tau against scipy,
the interval rules, the combined score, and a benchmark read through the registry alone."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau, rankdata
from typer.testing import CliRunner

from curate import benchmarks
from curate.cli import app
from curate.commands.across import collect
from curate.instrument.across import AcrossColumn, across_report, ranks
from curate.intervals import TOO_SMALL

runner = CliRunner()
FAKE = "tests.support.fake_benchmark.benchmark"


def _column(key: str, benchmark: str, values: dict[str, float], better: str = "closer",
            kind: str = "bias", ideal: float | None = 50.0) -> AcrossColumn:
    return AcrossColumn(
        key, benchmark, benchmark, key, kind, better, ideal,
        {m: {"value": v, "n": 100} for m, v in values.items()},
    )


def _badness(column: AcrossColumn, model: str) -> float:
    value = column.values[model]["value"]
    if column.better == "closer":
        return abs(value - (column.ideal or 0.0))
    return -value if column.better == "higher" else value


@pytest.mark.parametrize("n_models", [4, 12])
def test_tau_equals_scipy_with_intervals_only_from_10_models(n_models):
    rng = np.random.default_rng(n_models)
    models = [f"m{i}" for i in range(n_models)]
    columns = [
        _column("crows", "crows-pairs", dict(zip(models, rng.uniform(40, 70, n_models), strict=True))),
        _column("wino", "winobias", dict(zip(models, rng.uniform(40, 70, n_models), strict=True))),
        _column("ppl", "capability", dict(zip(models, rng.uniform(10, 90, n_models), strict=True)),
                better="lower", kind="capability", ideal=None),
        _column("lms", "stereoset", dict(zip(models, rng.uniform(60, 95, n_models), strict=True)),
                better="higher", kind="capability", ideal=100.0),
    ]
    report = across_report(columns, models)
    by_key = {c.key: c for c in columns}
    assert len(report["agreement"]) == 6
    for pair in report["agreement"]:
        a, b = by_key[pair["a"]], by_key[pair["b"]]
        expected = kendalltau([_badness(a, m) for m in models], [_badness(b, m) for m in models])
        assert pair["value"] == pytest.approx(expected.statistic, abs=1e-12)
        if n_models < 10:
            assert "low" not in pair and pair["no_interval"] == TOO_SMALL
        else:
            assert pair["low"] <= pair["value"] <= pair["high"]
        assert 0 < pair["p"] <= 1
    agree = report["combined"]["agreement_between_benchmarks"]
    crows_wino = next(p for p in report["agreement"] if {p["a"], p["b"]} == {"crows", "wino"})
    assert agree["pairs"] == 1 and agree["mean_tau"] == pytest.approx(crows_wino["value"])


def test_ranks_follow_what_better_means_and_ties_share():
    models = ["a", "b", "c", "d"]
    closer = _column("x", "crows-pairs", {"a": 50.0, "b": 55.0, "c": 45.0, "d": 70.0})
    assert ranks(closer, models) == {"a": 1.0, "b": 2.5, "c": 2.5, "d": 4.0}
    higher = _column("y", "s", {"a": 1.0, "b": 3.0, "c": 2.0, "d": 0.0}, better="higher")
    assert ranks(higher, models) == {"a": 3.0, "b": 1.0, "c": 2.0, "d": 4.0}
    lower = _column("z", "s", {"a": 1.0, "b": 3.0, "c": 2.0}, better="lower", ideal=None)
    assert ranks(lower, models) == {"a": 1.0, "b": 3.0, "c": 2.0}  # d has no value


def test_combined_weighs_each_benchmark_once_and_leaves_capability_out():
    models = ["a", "b", "c"]
    columns = [
        _column("pll", "crows-pairs", {"a": 50, "b": 60, "c": 70}),
        _column("aul", "crows-pairs", {"a": 70, "b": 60, "c": 50}),
        _column("wb", "winobias", {"a": 51, "b": 52, "c": 53}),
        _column("ppl", "capability", {"a": 90, "b": 10, "c": 50}, better="lower",
                kind="capability", ideal=None),
    ]
    report = across_report(columns, models)
    crows = {m: (rankdata([0, 10, 20])[i] + rankdata([20, 10, 0])[i]) / 2 for i, m in enumerate(models)}
    expected = {m: (crows[m] + [1, 2, 3][i]) / 2 for i, m in enumerate(models)}
    assert report["combined"]["scores"] == pytest.approx(expected)
    assert report["combined"]["benchmarks"] == ["crows-pairs", "winobias"]
    assert [c["in_combined"] for c in report["columns"]] == [True, True, True, False]
    assert "capability columns" in report["combined"]["definition"]
    # 3 models: tau is defined, the interval is not
    assert all(p["no_interval"] == TOO_SMALL for p in report["agreement"] if p["value"] is not None)


def _sweep(root: Path) -> Path:
    """A sweep output by hand: a fake benchmark's pair column, a CrowS-Pairs column, a column
    of an unregistered benchmark, a failed one, and capabilities."""
    columns = []
    for model, (fake_score, crows_score) in {"m1": (40.0, 55.0), "m2": (60.0, 65.0), "m3": (80.0, 50.0)}.items():
        for version, benchmark, score in (("f", "fakebench", fake_score), ("c", "crows-pairs", crows_score)):
            path = root / version / model
            path.mkdir(parents=True)
            biased = int(score)
            (path / "summary.json").write_text(json.dumps({
                "method": "pll",
                "summary": {"pairs": 100, "biased": biased, "metric_score": float(biased), "ties": 0},
            }), encoding="utf-8")
            columns.append({"version": version, "model": model, "method": "pll", "status": "ok",
                            "benchmark": benchmark, "path": f"{version}/{model}", "file": "summary.json"})
    columns.append({"version": "g", "model": "m1", "method": "x", "status": "ok",
                    "benchmark": "nobench", "path": "g/m1", "file": "summary.json"})
    columns.append({"version": "c", "model": "m4", "method": "pll", "status": "failed", "reason": "no"})
    capability = {m: {"measure": "perplexity", "value": v, "n": 5, "no_interval": TOO_SMALL,
                      "corpus": {"name": "c.txt"}} for m, v in {"m1": 10.0, "m2": 20.0, "m3": 30.0}.items()}
    (root / "sweep.json").write_text(json.dumps({"columns": columns, "capability": capability}),
                                     encoding="utf-8")
    return root


def test_a_registered_benchmark_joins_through_the_registry_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(benchmarks, "BENCHMARKS", [*benchmarks.BENCHMARKS, FAKE])
    columns, models, notes = collect([_sweep(tmp_path / "sweep")])
    assert models == ["m1", "m2", "m3"]
    keys = {c.key: c for c in columns}
    assert set(keys) == {"fakebench/f/pll", "crows-pairs/c/pll", "capability/c.txt/perplexity"}
    fake = keys["fakebench/f/pll"]
    assert fake.title == "FakeBench"  # its own title, from the registry
    assert fake.values["m2"]["value"] == 60.0
    assert fake.values["m2"]["low"] < 60.0 < fake.values["m2"]["high"]  # Wilson over pairs
    assert any("nobench is not registered" in n for n in notes)


def test_cli_writes_report_and_page_and_refuses_a_missing_sweep(tmp_path, monkeypatch):
    monkeypatch.setattr(benchmarks, "BENCHMARKS", [*benchmarks.BENCHMARKS, FAKE])
    root = _sweep(tmp_path / "sweep")
    result = runner.invoke(app, ["across", str(root), "--out", str(tmp_path / "page")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "page/report.json").read_text(encoding="utf-8"))
    assert report["models"] == ["m1", "m2", "m3"]
    page = (tmp_path / "page/index.html").read_text(encoding="utf-8")
    assert "Definition." in page and "combined-agreement" in page
    assert (tmp_path / "page/plotly.min.js").is_file()
    assert "mean Kendall tau" in result.output
    missing = runner.invoke(app, ["across", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "no such file" in missing.output
    assert "Traceback" not in missing.output


def test_user_text_is_escaped_on_the_page():
    from curate.instrument.across_page import render_page

    nasty = "<img src=x onerror=alert(1)>"
    models = [nasty, "b", "c"]
    columns = [
        _column("x", "crows-pairs", {nasty: 50.0, "b": 60.0, "c": 70.0}),
        _column("p", "capability", {nasty: 5.0, "b": 6.0, "c": 7.0}, better="lower",
                kind="capability", ideal=None),
    ]
    page = render_page(across_report(columns, models))
    assert nasty not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
