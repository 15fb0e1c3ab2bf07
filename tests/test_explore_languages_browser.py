"""French and Dutch CrowS-Pairs side by side in the explorer with the five published models
(issue 47): CamemBERT and FlauBERT on the French file, BERTje, mBERT and RobBERT on the Dutch
one, imported with ``curate score --import`` from Strazda & Spanakis' per-pair outputs.

Each language's models are charted on their own file only (no empty chart row for a model on
the other language's file), labels are short (a version is named by its language, not by its
file's path), and nothing flips across languages: a verdict is one language's, by its name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from curate import sources
from curate.cli import app
from tests.support.browser import MISSING, find_browser, severe_console_messages, wait_for
from tests.support.chart_boxes import SCREEN, assert_charts_fit, screenshot_charts
from tests.test_explore import page_data

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(find_browser() is None, reason=MISSING)

#: The published models per language, as the results files name them.
MODELS = {"french": ("camembert", "flaubert"), "dutch": ("bertje", "mbert", "robbert")}
NAMES = {"french": "French", "dutch": "Dutch"}
#: The longest label a chart may show. A label is "model · method · language": the longest
#: here is "camembert · imported:metric.py · French" (39 characters, 41 with a heat-map glyph);
#: 50 leaves room for a longer model name while every file path of these versions (60 and more
#: characters, which made the 90-character labels) is over it.
MAX_LABEL = 50


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get(sources.MIRROR_ENV) or "/nonexistent") / "crows_pairs_multilingual"
    if not folder.is_dir():
        pytest.skip(f"no crows_pairs_multilingual/ in ${sources.MIRROR_ENV}")
    root = tmp_path_factory.mktemp("languages")
    (root / "pyproject.toml").write_text("[tool.curate]\n", encoding="utf-8")
    runner = CliRunner()
    here = Path.cwd()
    os.chdir(root)  # the commands find their project (and any cache) in the temporary one
    try:
        _score_and_explore(runner, folder, root)
    finally:
        os.chdir(here)
    return root / "site"


def _score_and_explore(runner: CliRunner, folder: Path, root: Path) -> None:
    for language, models in MODELS.items():
        for model in models:
            result = runner.invoke(app, [
                "score", str(folder / f"crows_{language}.csv"), "--import",
                str(folder / "results" / language / f"results_{model}.csv"), "-m", model,
                "--out", str(root / "scores" / model), "--format", "json",
            ])  # fmt: skip
            assert result.exit_code == 0, result.output
    result = runner.invoke(app, [
        "explore", str(folder / "crows_french.csv"), str(folder / "crows_dutch.csv"),
        "--scores", str(root / "scores"), "-o", str(root / "site"),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory):
    from tests.support.browser import chromium

    with chromium(tmp_path_factory.mktemp("profile")) as d:
        d.set_window_size(*SCREEN)
        yield d


def _language_of(label: str) -> str:
    return next(lang for lang, models in MODELS.items() if label.split(" ")[0] in models)


def test_each_language_on_its_own_file_with_short_labels_and_no_flip_across(
    driver: Any, site: Path, tmp_path: Path
) -> None:
    data = page_data(site)
    assert data["languages"] == ["fr", "nl"]
    labels = [m["label"] for m in data["models"]]
    assert sorted(m["name"] for m in data["models"]) == sorted(n for ms in MODELS.values() for n in ms)
    driver.get((site / "index.html").as_uri())
    wait_for(lambda: driver.execute_script("return window.curateExplore && window.curateExplore.chartsReady"),
             60, "the charts")  # fmt: skip
    shots = Path(os.environ.get("CURATE_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    assert {p.stem for p in screenshot_charts(driver, shots, "languages")} >= {
        f"languages-chart-{c}" for c in ("metric", "heat", "threshold", "curves")}
    assert_charts_fit(driver)
    expected = sorted(f"{label} \u00b7 {NAMES[_language_of(label)]}" for label in labels)
    # one row per model, on its own language only: no empty row in any chart or the numbers
    metric = driver.execute_script("return document.getElementById('chart-metric').data.map(t => t.y[0])")
    assert sorted(metric) == expected
    bars = driver.execute_script("return document.getElementById('chart-threshold').data[0].y")
    assert sorted(bars) == expected
    heat = driver.execute_script("return document.getElementById('chart-heat').data[0].y")
    assert sorted(y.split(" ", 1)[1] for y in heat) == expected
    assert all(None not in row for row in driver.execute_script(
        "return document.getElementById('chart-heat').data[0].z.map(r => r.slice(0, 1))"))
    curves = driver.execute_script(
        "return document.getElementById('chart-curves').data.filter(t => t.showlegend).map(t => t.name)")
    assert sorted(curves) == expected
    numbers = driver.execute_script(
        "return Array.from(document.querySelectorAll('#shares tr'), r => Array.from(r.cells, c => c.textContent))")
    assert len(numbers) == 1 + len(labels)
    assert all(int(row[2]) > 1400 for row in numbers[1:])  # every row scored on its 1,463 pairs
    assert sorted(f"{row[0]} \u00b7 {row[1]}" for row in numbers[1:]) == expected
    # short labels: every text of every chart within the bound, never a path
    texts = driver.execute_script(
        "return Array.from(document.querySelectorAll('.js-plotly-plot .ytick text, .js-plotly-plot .legendtext'),"
        " t => t.textContent)")
    assert texts and max(len(t) for t in texts) <= MAX_LABEL, max(texts, key=len)
    assert not any("/" in t or ".csv" in t for t in texts)
    # flips only within a language: no flip column, count or filter across the two languages
    assert "flips" not in numbers[0]
    assert not driver.find_element("id", "f-flip-label").is_displayed()
    headers = driver.execute_script(
        "return Array.from(document.querySelectorAll('#pair-table th'), th => th.textContent)")
    assert not [h for h in headers if h.endswith(": flip")]
    assert any(h.endswith(": verdict") for h in headers)
    verdicts = driver.execute_script(
        "const ths = Array.from(document.querySelectorAll('#pair-table th'), th => th.textContent);"
        "return Array.from(document.querySelectorAll('#pair-table tbody tr[data-id]')).flatMap(tr =>"
        " ths.map((h, i) => [h, tr.cells[i].textContent]).filter(([h]) => h.endsWith(': verdict')))")
    assert verdicts
    for header, text in verdicts:
        language = NAMES[_language_of(header)]
        assert re.fullmatch(f"{language}: (biased|not biased)", text), (header, text)
    assert severe_console_messages(driver) == []
