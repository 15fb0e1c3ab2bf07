"""Geometry checks of the explorer's charts in a browser (issue 47): each chart's height, and
every text plotly drew for it (axis titles, tick labels, legend entries, annotations such as
class names and panel titles) inside the chart's own box, so no label is cut at its edge."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

#: Two screens of the 1440x900 viewport the study-scale tests use.
SCREEN = (1440, 900)
MAX_CHART_PX = 2 * SCREEN[1]

#: For every drawn plotly chart: its id, height, and the texts whose box leaves the chart's
#: box (by more than a pixel), or that a scrolling legend clips.
_CHARTS = """
const out = [];
for (const plot of document.querySelectorAll('.js-plotly-plot')) {
  if (!plot.offsetParent) continue;  // hidden (the radar at many columns)
  const box = plot.getBoundingClientRect();
  const cut = [];
  for (const t of plot.querySelectorAll('svg text')) {
    const text = t.textContent.trim();
    if (!text) continue;
    const b = t.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    if (b.left < box.left - 1 || b.right > box.right + 1 || b.top < box.top - 1 || b.bottom > box.bottom + 1)
      cut.push([text, Math.round(b.left - box.left), Math.round(b.right - box.right),
                Math.round(b.top - box.top), Math.round(b.bottom - box.bottom)]);
  }
  // the legend meets neither the title nor an annotation (class names, panel names)
  const legend = plot.querySelector('.legend');
  const meets = [];
  if (legend) {
    const l = legend.getBoundingClientRect();
    for (const other of plot.querySelectorAll('.gtitle, .annotation-text')) {
      const o = other.getBoundingClientRect();
      if (l.left < o.right - 1 && o.left < l.right - 1 && l.top < o.bottom - 1 && o.top < l.bottom - 1)
        meets.push(other.textContent);
    }
  }
  const scrolled = Array.from(plot.querySelectorAll('.legend .scrollbar'))
    .some((s) => s.getBoundingClientRect().height > 0);
  out.push({id: plot.id, height: box.height, width: box.width, cut: cut, legendScrolls: scrolled, legendMeets: meets,
            texts: plot.querySelectorAll('svg text').length});
}
return out;
"""


def chart_boxes(driver: Any) -> list[dict[str, Any]]:
    """The drawn charts of the page and what :data:`_CHARTS` finds wrong in each."""
    return list(driver.execute_script(_CHARTS))


def screenshot_charts(driver: Any, folder: Path, prefix: str) -> list[Path]:
    """A screenshot of every drawn chart, whole, one PNG each, named by the chart's id (the
    window is made as tall as the chart for its shot, since a shot holds only what the window
    shows, then set back)."""
    from selenium.webdriver.common.by import By

    width, height = driver.execute_script("return [window.outerWidth, window.outerHeight]")
    shots = []
    try:
        for plot in driver.find_elements(By.CSS_SELECTOR, ".js-plotly-plot"):
            if not plot.is_displayed():
                continue
            tall = int(plot.rect["height"]) + 200
            driver.set_window_size(width, max(height, tall))
            driver.execute_script("arguments[0].scrollIntoView()", plot)
            time.sleep(0.3)
            path = folder / f"{prefix}-{plot.get_attribute('id')}.png"
            plot.screenshot(str(path))
            shots.append(path)
    finally:
        driver.set_window_size(width, height)
    return shots


def assert_charts_fit(driver: Any) -> list[dict[str, Any]]:
    """Every drawn chart at most two screens tall, with no text outside its box and no legend
    that needs scrolling; returns the charts measured."""
    charts = chart_boxes(driver)
    assert charts, "no chart drawn"
    for chart in charts:
        assert chart["height"] <= MAX_CHART_PX, (chart["id"], chart["height"])
        assert chart["cut"] == [], (chart["id"], chart["cut"][:5])
        assert not chart["legendScrolls"], chart["id"]
        assert chart["legendMeets"] == [], (chart["id"], chart["legendMeets"])
    return charts
