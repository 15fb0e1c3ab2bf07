"""The explorer and report.html at Murphy's scale (issue 31): 22 models x 2 versions.

Built from hand-made score sets (tests/support/many_columns.py; no model runs) and opened in
headless Chromium at 1400x900, with screenshots of the window and of the full page
(``CURATE_SCREENSHOTS=DIR`` keeps them). Checks what makes 44 series readable: every label
unique in the picker, the table, the legends and the hovers; no two series with the same colour
and marker; no two tick labels of an axis overlapping; the pair table inside the window; an
empty filter result that says so; clm-mean's probabilities shown in scientific notation.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from curate.report.explore_data import build_explore_data
from curate.report.explore_page import write_site
from curate.report.output import write_report
from tests.support import many_columns
from tests.support.browser import (
    MISSING,
    assert_curve_labels_apart,
    find_browser,
    screenshot_folder,
    severe_console_messages,
    wait_for,
)

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(find_browser() is None, reason=MISSING)

from selenium.webdriver.common.by import By  # noqa: E402

N_MODELS = 22
SERIES = 2 * N_MODELS

OVERLAPS = """
const boxes = Array.from(document.querySelectorAll(arguments[0]), (t) => t.getBoundingClientRect())
  .filter((b) => b.width > 0 && b.height > 0);
const hits = [];
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  const a = boxes[i], b = boxes[j];
  if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) hits.push([i, j]);
}
return [boxes.length, hits];
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("many")
    versions, sets = many_columns.score_sets()
    data = build_explore_data(versions, score_sets=sets)
    write_site(data, {}, root / "explore")
    report = many_columns.report()
    write_report(report, root / "diff-report")
    return {"root": root, "data": data, "report": report}


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory):
    from tests.support.browser import chromium

    with chromium(tmp_path_factory.mktemp("profile")) as d:
        yield d


def _full_page(driver: Any, path: Path) -> None:
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1400, min(height, 16000))
    time.sleep(1)
    driver.save_screenshot(str(path))
    driver.set_window_size(1400, 900)


def test_the_explorer_with_22_models_is_readable(driver: Any, built: dict[str, Any], tmp_path: Path) -> None:
    labels = [m["label"] for m in built["data"]["models"]]
    assert len(labels) == N_MODELS == len(set(labels))
    series = sorted(f"{label} · {v}" for label in labels for v in many_columns.VERSIONS)
    driver.set_window_size(1400, 900)
    driver.get((built["root"] / "explore" / "index.html").as_uri())
    wait_for(lambda: driver.execute_script("return window.curateExplore && window.curateExplore.chartsReady"), 60, "the charts")
    shots = screenshot_folder(tmp_path)
    driver.save_screenshot(str(shots / "explore-22-window.png"))
    _full_page(driver, shots / "explore-22-full.png")

    # the count says columns and models
    assert f"{N_MODELS} score columns from {N_MODELS} models" in driver.find_element(By.ID, "about").text
    # the pickers: every column once
    picker = driver.execute_script("return Array.from(document.querySelectorAll('#chart-columns .pick-name'), b => b.textContent)")
    assert picker == labels
    table_picker = driver.execute_script("return Array.from(document.querySelectorAll('#table-columns label'), l => l.textContent.trim())")
    assert table_picker == labels
    # every chart names all 44 series once, in its legend or on its axis, and in its hovers
    dots = driver.execute_script("return document.getElementById('chart-metric').data.map(t => [t.name, t.hovertemplate, t.marker.color, t.marker.symbol])")
    assert sorted(d[0] for d in dots) == series
    assert all(hover.startswith(name + "<br>") for name, hover, _, _ in dots)
    assert len({(color, symbol) for _, _, color, symbol in dots}) == SERIES  # never colour alone
    assert len({color for _, _, color, _ in dots}) == N_MODELS  # a colour per column
    heat = driver.execute_script("return document.getElementById('chart-heat').data[0].y")
    assert sorted(y.split(" ", 1)[1] for y in heat) == series
    bars = driver.execute_script("return document.getElementById('chart-threshold').data[0].y")
    assert sorted(bars) == series
    # the curves at 44 series: a panel per column (issue 47), each series named in its hovers
    hovers = driver.execute_script("return document.getElementById('chart-curves').data.map(t => t.hovertemplate)")
    assert sorted({h.split("<br>")[0] for h in hovers}) == series
    panels = driver.execute_script("return Array.from(document.querySelectorAll('#chart-curves .annotation-text'), t => t.textContent)")
    assert [p.split(" ", 1)[1] for p in panels] == labels
    assert driver.find_element(By.ID, "chart-radar").get_attribute("hidden")  # 22 lines: the heat map instead
    # no two tick labels of an axis overlap
    for chart in ("chart-metric", "chart-heat", "chart-threshold", "chart-curves"):
        for axis in ("xtick", "ytick"):
            count, hits = driver.execute_script(OVERLAPS, f"#{chart} .{axis} text")
            if chart == "chart-curves":  # a panel per column: their ticks sit side by side
                continue
            assert count and hits == [], (chart, axis, hits[:3])
    assert_curve_labels_apart(driver)
    # the pair table fits the window
    width, box, window = driver.execute_script(
        "const t = document.getElementById('pair-table');"
        "return [t.getBoundingClientRect().right, t.parentElement.clientWidth, window.innerWidth]")
    assert width <= window
    assert driver.execute_script("return document.getElementById('pair-table').scrollWidth") <= box
    assert "score columns" in driver.find_element(By.ID, "table-note").text
    # all 44 score headers, unique, once the picker ticks every column
    for box_ in driver.find_elements(By.CSS_SELECTOR, "#table-columns-box summary"):
        box_.click()
    for tick in driver.find_elements(By.CSS_SELECTOR, "#table-columns input"):
        if not tick.is_selected():
            tick.click()
    headers = [th.text.replace("\n", " ") for th in driver.find_elements(By.CSS_SELECTOR, "#pair-table th")]
    scores = [h for h in headers if "more / less (" in h]
    assert len(scores) == SERIES == len(set(scores))
    # clm-mean's probabilities in scientific notation, never 0.000
    cells = driver.execute_script("return Array.from(document.querySelectorAll('#pair-table td.num'), td => td.textContent)")
    assert any("e-" in c for c in cells) and not any("0.000 / 0.000" in c for c in cells)
    # hiding a column in the picker hides it in every chart
    driver.find_element(By.CSS_SELECTOR, "#chart-columns input[data-col='0']").click()
    wait_for(lambda: len(driver.execute_script("return document.getElementById('chart-metric').data")) == SERIES - 2, what="the picker")
    # an empty filter result says so
    search = driver.find_element(By.ID, "search")
    search.send_keys("no pair says this")
    wait_for(lambda: "No pair matches" in driver.find_element(By.ID, "pair-table").text, what="the empty result")
    # the family boxes name their family
    families = driver.execute_script("return Array.from(document.querySelectorAll('#report-families label'), l => l.textContent.trim())")
    assert all(len(f.split(" ", 1)) == 2 and f.split(" ", 1)[0] != f.split(" ", 1)[1] for f in families)
    assert severe_console_messages(driver) == []


def test_report_html_with_22_columns(driver: Any, built: dict[str, Any], tmp_path: Path) -> None:
    driver.set_window_size(1400, 900)
    page = built["root"] / "diff-report" / "report.html"
    driver.get(page.as_uri())
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('.js-plotly-plot').length > 1"), 60, "the charts")
    time.sleep(1)
    shots = screenshot_folder(tmp_path)
    driver.save_screenshot(str(shots / "report-22-window.png"))
    _full_page(driver, shots / "report-22-full.png")
    labels = [m["label"] for m in built["report"]["models"]]
    assert len(set(labels)) == N_MODELS
    body = driver.find_element(By.TAG_NAME, "body").text
    assert all(label in body for label in labels)
    # the page does not run off the window: wide tables scroll inside their own box
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 1400
    # one compact table for the columns, not a section (and three figures) each
    headings = driver.execute_script("return Array.from(document.querySelectorAll('h2'), h => h.textContent)")
    assert not set(labels) & set(headings)
    rows = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.columns tbody tr'), r => r.cells[0].textContent)")
    assert [r.split(" ", 1)[1] for r in rows] == labels
    assert len(driver.find_elements(By.CSS_SELECTOR, ".js-plotly-plot")) <= 6
    # each column in the explorer's colour and marker; before and after differ by fill, not colour
    explorer = {m["label"]: (m["color"], m["symbol"]) for m in built["data"]["models"]}
    assert len(set(explorer.values())) == N_MODELS
    points = driver.execute_script(
        "return document.getElementById('fig-overview').data.filter(t => t.customdata)"
        ".map(t => [t.name, t.customdata, t.marker.color, t.marker.symbol])")
    assert [p[0] for p in points] == [f"before ({many_columns.VERSIONS[0]})", f"after ({many_columns.VERSIONS[1]})"]
    shown: set[tuple[str, str]] = set()
    for name, columns, colours, symbols in points:
        hollow = name.startswith("before")
        for label, colour, symbol in zip(columns, colours, symbols, strict=True):
            assert (colour, symbol) == (explorer[label][0], explorer[label][1] + ("-open" if hollow else "")), label
            shown.add((colour, symbol))
    assert len(shown) == SERIES  # 44 distinct colour-and-marker pairs
    ticks = driver.execute_script("return Array.from(document.querySelectorAll('#fig-overview .ytick text'), t => t.textContent)")
    assert sorted(t.split(" ", 1)[1] for t in ticks) == sorted(labels)
    legend = driver.execute_script("return Array.from(document.querySelectorAll('#fig-overview .legendtext'), t => t.textContent)")
    assert legend == [f"before ({many_columns.VERSIONS[0]})", f"after ({many_columns.VERSIONS[1]})"]
    delta = driver.execute_script("return document.getElementById('fig-delta').data[0]")
    assert {(c, s) for c, s in zip(delta["marker"]["color"], delta["marker"]["symbol"], strict=True)} == {
        explorer[label] for label in delta["customdata"]}
    scoped = OVERLAPS.replace("document.querySelectorAll", "arguments[1].querySelectorAll")
    for plot in driver.find_elements(By.CSS_SELECTOR, ".js-plotly-plot"):
        for axis in (".xtick text", ".ytick text"):
            _count, hits = driver.execute_script(scoped, axis, plot)
            assert hits == [], (plot.get_attribute("id"), axis, hits[:3])
    assert severe_console_messages(driver) == []
