"""The explorer's charts at a study's scale (issue 47): 22 models x 2 versions, 44 series.

Opened in headless Chromium at a 1440x900 viewport, every chart (the threshold curves too) is
screenshotted (``CURATE_SCREENSHOTS=DIR`` keeps them) and measured: none taller than two
screens, no text of a chart (axis titles, tick labels, legend, class names, panel titles) outside
its box. The threshold curves, 44 overlapping lines in three panels before, are small multiples:
one panel per column, the three classes in their colours, the versions dotted and solid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from curate.report.explore_data import build_explore_data
from curate.report.explore_page import write_site
from tests.support import many_columns
from tests.support.browser import (
    MISSING,
    find_browser,
    screenshot_folder,
    severe_console_messages,
    wait_for,
)
from tests.support.chart_boxes import SCREEN, assert_charts_fit, screenshot_charts

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(find_browser() is None, reason=MISSING)

N_MODELS = len(many_columns.MODELS)
CHARTS = {"chart-metric", "chart-heat", "chart-threshold", "chart-curves"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("study")
    versions, sets = many_columns.score_sets()
    data = build_explore_data(versions, score_sets=sets)
    write_site(data, {}, root / "explore")
    return {"page": root / "explore" / "index.html", "data": data}


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory):
    from tests.support.browser import chromium

    with chromium(tmp_path_factory.mktemp("profile")) as d:
        d.set_window_size(*SCREEN)
        yield d


def _open(driver: Any, page: Path) -> None:
    driver.get(page.as_uri())
    wait_for(lambda: driver.execute_script("return window.curateExplore && window.curateExplore.chartsReady"),
             60, "the charts")  # fmt: skip


def test_every_chart_at_44_series_fits_two_screens_and_cuts_no_label(
    driver: Any, site: dict[str, Any], tmp_path: Path
) -> None:
    assert N_MODELS == 22 and len(site["data"]["models"]) == N_MODELS
    _open(driver, site["page"])
    assert driver.execute_script("return window.innerWidth") == SCREEN[0]
    shots = screenshot_charts(driver, screenshot_folder(tmp_path), "study-44")
    charts = assert_charts_fit(driver)
    assert {c["id"] for c in charts} == CHARTS
    assert {p.stem.removeprefix("study-44-") for p in shots} == CHARTS
    assert all(p.stat().st_size > 10_000 for p in shots)  # drawn, not blank
    # the curves: a panel per column, titled with its label, each with 3 classes x 2 versions
    panels = driver.execute_script(
        "return Array.from(document.querySelectorAll('#chart-curves .annotation-text'), t => t.textContent)")
    labels = [m["label"] for m in site["data"]["models"]]
    assert [p.split(" ", 1)[1] for p in panels] == labels
    traces = driver.execute_script(
        "return document.getElementById('chart-curves').data.map(t => [t.meta[0], t.meta[1], t.meta[2], t.hovertemplate])")
    assert len(traces) == N_MODELS * 2 * 3
    assert {(m, v) for _, m, v, _ in traces} == {(m, v) for m in range(N_MODELS) for v in (0, 1)}
    series = {f"{label} \u00b7 {v}" for label in labels for v in many_columns.VERSIONS}
    assert {hover.split("<br>")[0] for *_, hover in traces} == series  # the hover names it
    legend = driver.execute_script(
        "return Array.from(document.querySelectorAll('#chart-curves .legendtext'), t => t.textContent)")
    assert sorted(legend) == sorted(f"{c} \u00b7 {v}" for c in ("biased", "neutral", "non-biased")
                                    for v in many_columns.VERSIONS)  # fmt: skip
    # the slider moves the marker line of every panel
    shapes = driver.execute_script("return document.getElementById('chart-curves').layout.shapes.map(s => s.x0)")
    assert len(shapes) == N_MODELS and len(set(shapes)) == 1
    assert severe_console_messages(driver) == []


def test_the_picker_narrows_the_curves_and_they_still_fit(
    driver: Any, site: dict[str, Any], tmp_path: Path
) -> None:
    _open(driver, site["page"])
    # four columns (8 series): the three class panels come back, one line per series
    driver.find_element("id", "cols-none").click()
    for m in range(4):
        driver.find_element("css selector", f"#chart-columns input[data-col='{m}']").click()
    wait_for(lambda: len(driver.execute_script("return document.getElementById('chart-curves').data")) == 4 * 2 * 3,
             what="the picker")  # fmt: skip
    classes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#chart-curves .annotation-text'), t => t.textContent)")
    assert classes == ["biased", "neutral", "non-biased"]
    screenshot_charts(driver, screenshot_folder(tmp_path), "study-8")
    assert_charts_fit(driver)
