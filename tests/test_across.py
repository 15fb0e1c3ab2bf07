"""``curate across``: a sweep of 4 tiny models over CrowS-Pairs, StereoSet dev and WinoBias with
a corpus, then the cross-benchmark page: headline metrics with intervals, ranks, Kendall's tau
(equal to scipy's), a combined score with its definition beside the agreement, checked in a
headless Chromium with a screenshot.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import kendalltau
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset, write_pairs
from curate.instrument.across_page import p_text
from curate.intervals import TOO_SMALL
from tests.support.tiny_models import single_thread, tiny_model_dir, training_corpus

pytestmark = pytest.mark.slow
runner = CliRunner()
MODELS = 4


def _mirror() -> Path:
    mirror = os.environ.get("CURATE_DATA_MIRROR")
    if not mirror or not (Path(mirror) / "stereoset_dev.json").is_file():
        pytest.skip("no data mirror with stereoset_dev.json, winobias/ and winogender/")
    return Path(mirror)


def _subsets(mirror: Path, target: Path) -> dict[str, Path]:
    """Slices of the shared datasets (WinoGender whole), so that 4 models score them in
    seconds."""
    crows = read_dataset(mirror / "crows_pairs_anonymized.csv")
    write_pairs(list(crows.pairs)[:60], target / "crows.csv")
    document = json.loads((mirror / "stereoset_dev.json").read_text(encoding="utf-8"))
    for kind in ("intrasentence", "intersentence"):
        document["data"][kind] = document["data"][kind][:40]
    (target / "stereoset.json").write_text(json.dumps(document), encoding="utf-8")
    winobias = target / "winobias"
    winobias.mkdir()
    for path in sorted((mirror / "winobias").iterdir()):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        keep = lines if "occupations" in path.name or path.name == "LICENSE" else lines[:30]
        (winobias / path.name).write_text("".join(keep), encoding="utf-8")
    winogender = target / "winogender"  # whole: 240 pairs, seconds for a tiny model
    shutil.copytree(mirror / "winogender", winogender)
    return {
        "crows": target / "crows.csv",
        "stereoset": target / "stereoset.json",
        "winobias": winobias,
        "winogender": winogender,
    }


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    mirror = _mirror()
    root = tmp_path_factory.mktemp("across")
    data = _subsets(mirror, root)
    (root / "pyproject.toml").write_text(
        '[tool.curate]\noutput-dir = "build"\n', encoding="utf-8"
    )
    corpus = [s for s in training_corpus()[:40] if s.strip()][:24]
    (root / "corpus.txt").write_text("\n".join(corpus) + "\n", encoding="utf-8")
    models = "".join(
        f'[[model]]\nname = "{tiny_model_dir("gpt2", seed=seed)}"\nlabel = "gpt2-seed{seed}"\n'
        'methods = ["clm-sum"]\n\n'
        for seed in range(MODELS)
    )
    versions = "".join(
        f'[[version]]\nlabel = "{label}"\ndata = "{path.name}"\n\n' for label, path in data.items()
    )
    (root / "plan.toml").write_text(
        f'output = "sweep"\ncache = "scores.sqlite"\ncorpus = "corpus.txt"\n\n{models}{versions}',
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as monkeypatch, single_thread():
        monkeypatch.chdir(root)
        result = runner.invoke(app, ["sweep", "plan.toml"])
        assert result.exit_code == 0, result.output
        across = runner.invoke(app, ["across", "sweep", "--out", "page"])
        assert across.exit_code == 0, across.output
        report = json.loads((root / "page" / "report.json").read_text(encoding="utf-8"))
        yield {"root": root, "report": report, "output": across.output, "sweep": result.output}


def test_the_sweep_scores_every_benchmark_and_the_corpus(swept):
    document = json.loads((swept["root"] / "sweep" / "sweep.json").read_text(encoding="utf-8"))
    benchmarks = {c["benchmark"] for c in document["columns"]}
    assert benchmarks == {"crows-pairs", "stereoset", "winobias", "winogender"}
    assert document["failed"] == 0
    assert set(document["capability"]) == {f"gpt2-seed{s}" for s in range(MODELS)}
    summary = json.loads(
        (swept["root"] / "sweep/crows/gpt2-seed0/clm-sum/summary.json").read_text(encoding="utf-8")
    )
    assert summary["capability"] == document["capability"]["gpt2-seed0"]
    own = json.loads(
        (swept["root"] / "sweep/stereoset/gpt2-seed0/stereoset-clm/stereoset.json").read_text(
            encoding="utf-8"
        )
    )
    assert own["capability"]["value"] == pytest.approx(summary["capability"]["value"])
    # the sweep's table shows it beside each column's metric
    assert "capability" in swept["sweep"] and "perplexity" in swept["sweep"]


def test_every_benchmark_has_its_headline_with_an_interval_that_contains_it(swept):
    report = swept["report"]
    titles = {(c["benchmark"], c["metric"]) for c in report["columns"]}
    assert ("crows-pairs", "clm-sum") in titles and ("winobias", "clm-sum") in titles
    assert ("winogender", "clm-sum") in titles
    assert {("stereoset", f"stereoset-clm {m}") for m in ("SS", "LMS", "ICAT")} <= titles
    assert ("capability", "perplexity") in titles
    assert len(report["models"]) == MODELS
    for column in report["columns"]:
        assert set(column["values"]) == set(report["models"])
        assert sorted(column["ranks"].values()) == pytest.approx(
            sorted(_average_ranks(column))
        )
        for record in column["values"].values():
            if "low" in record:
                assert record["low"] <= record["value"] <= record["high"]
            else:
                assert record["no_interval"]


def _average_ranks(column: dict[str, Any]) -> list[float]:
    from scipy.stats import rankdata

    values = [column["values"][m]["value"] for m in column["values"]]
    if column["better"] == "closer":
        keys = [abs(v - column["ideal"]) for v in values]
    else:
        keys = [-v if column["better"] == "higher" else v for v in values]
    return list(rankdata(keys))


def test_tau_equals_scipy_and_says_n_too_small_at_4_models(swept):
    report = swept["report"]
    columns = {c["key"]: c for c in report["columns"]}
    checked = 0
    for pair in report["agreement"]:
        a, b = columns[pair["a"]], columns[pair["b"]]
        models = pair["models"]
        x = [_badness(a, m) for m in models]
        y = [_badness(b, m) for m in models]
        expected = kendalltau(x, y).statistic
        if expected != expected:  # NaN: a ranking with all ties
            assert pair["value"] is None
            continue
        assert pair["value"] == pytest.approx(expected, abs=1e-12)
        assert "low" not in pair and pair["no_interval"] == TOO_SMALL
        checked += 1
    assert checked >= 10
    combined = report["combined"]
    assert "mean over benchmarks" in combined["definition"]
    taus = [
        p["value"]
        for p in report["agreement"]
        if columns[p["a"]]["in_combined"]
        and columns[p["b"]]["in_combined"]
        and columns[p["a"]]["benchmark"] != columns[p["b"]]["benchmark"]
        and p["value"] is not None
    ]
    assert combined["agreement_between_benchmarks"]["mean_tau"] == pytest.approx(
        sum(taus) / len(taus)
    )
    assert set(combined["benchmarks"]) == {"crows-pairs", "stereoset", "winobias", "winogender"}


def _badness(column: dict[str, Any], model: str) -> float:
    value = column["values"][model]["value"]
    if column["better"] == "closer":
        return abs(value - column["ideal"])
    return -value if column["better"] == "higher" else value


def test_combined_score_is_the_mean_of_benchmark_mean_ranks(swept):
    report = swept["report"]
    bias = [c for c in report["columns"] if c["in_combined"]]
    assert {c["kind"] for c in bias} == {"bias"}
    for model in report["models"]:
        per_benchmark: dict[str, list[float]] = {}
        for c in bias:
            per_benchmark.setdefault(c["benchmark"], []).append(c["ranks"][model])
        expected = sum(sum(r) / len(r) for r in per_benchmark.values()) / len(per_benchmark)
        assert report["combined"]["scores"][model] == pytest.approx(expected)


def test_the_page_in_a_headless_browser(swept, tmp_path_factory):
    from tests.support.browser import (
        MISSING,
        chromium,
        find_browser,
        severe_console_messages,
        wait_for,
    )

    if find_browser() is None:
        pytest.skip(MISSING)
    page = swept["root"] / "page" / "index.html"
    shots = Path(os.environ.get("CURATE_SCREENSHOTS", str(tmp_path_factory.mktemp("shots"))))
    with chromium(tmp_path_factory.mktemp("profile"), tmp_path_factory.mktemp("dl")) as driver:
        driver.set_window_size(1300, 2600)
        driver.get(page.as_uri())
        wait_for(
            lambda: driver.execute_script(
                "return document.querySelectorAll('.js-plotly-plot .main-svg').length >= 2"
            ),
            what="the heat map and the scatter",
        )
        assert not severe_console_messages(driver)
        text = driver.execute_script("return document.body.innerText")
        assert "Definition." in text and "Agreement of what it combines." in text
        for model in swept["report"]["models"]:
            assert model in driver.execute_script(
                "return document.getElementById('combined-table').innerText"
            )
        rows = driver.execute_script(
            "return document.querySelectorAll('#tau-table tr').length"
        )
        # only the pairs with a tau get a row; the others are counted in one sentence
        defined = [p for p in swept["report"]["agreement"] if p["value"] is not None]
        assert rows == len(defined) + 1
        for pair in defined:
            if pair.get("p") is not None:
                assert p_text(pair) in driver.execute_script(
                    "return document.getElementById('tau-table').innerText"
                )
        points = driver.execute_script(
            "return document.querySelectorAll('[id^=scatter-] .scatterlayer .point').length"
        )
        non_capability = [c for c in swept["report"]["columns"] if c["kind"] != "capability"]
        assert points == MODELS * len(non_capability)
        driver.save_screenshot(str(shots / "across.png"))
    assert (shots / "across.png").stat().st_size > 10_000
    shutil.copyfile(shots / "across.png", swept["root"] / "across.png")
