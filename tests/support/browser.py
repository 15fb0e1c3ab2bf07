"""Headless Chromium for the browser tests, driven through Selenium and Debian's chromedriver.

The system browser (Debian packages ``chromium`` and ``chromium-driver``) is used as installed:
no browser download. Each session gets a fresh profile directory and a download directory, and
the flags keep Chromium off the network (no background updates, sync or QUIC).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
DRIVER_NAMES = ("chromedriver", "chromium-driver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)


def find_browser() -> tuple[str, str] | None:
    """Paths of Chromium and its chromedriver, or None when either is missing."""
    browser = next((p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    driver = next((p for p in map(shutil.which, DRIVER_NAMES) if p), None)
    return (browser, driver) if browser and driver else None


MISSING = (
    "headless Chromium with chromedriver is not installed "
    "(Debian: apt-get install chromium chromium-driver); .ci/run installs them"
)


@contextmanager
def chromium(
    profile: Path, downloads: Path | None = None, network_log: bool = False
) -> Iterator[object]:
    """A Selenium WebDriver on headless Chromium with a fresh profile; quits on exit.
    ``network_log``: record the DevTools network events (read with :func:`requested_urls`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_browser()
    if found is None:
        raise RuntimeError(MISSING)
    browser, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    prefs = {"browser": "ALL", **({"performance": "ALL"} if network_log else {})}
    options.set_capability("goog:loggingPrefs", prefs)
    if downloads is not None:
        options.add_experimental_option(
            "prefs",
            {
                "download.default_directory": str(downloads),
                "download.prompt_for_download": False,
            },
        )
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        if downloads is not None:
            driver.execute_cdp_cmd(
                "Browser.setDownloadBehavior",
                {"behavior": "allow", "downloadPath": str(downloads)},
            )
        yield driver
    finally:
        driver.quit()


def severe_console_messages(driver) -> list[str]:
    """Errors the page logged to the console (uncaught exceptions, failed loads)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def requested_urls(driver) -> list[str]:
    """Every URL the browser requested since the last call (needs ``network_log=True``)."""
    import json

    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def wait_for(condition, timeout: float = 20.0, what: str = "the page") -> Any:
    """Poll ``condition`` until it returns something truthy (returned), or fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def data_values(driver, ids) -> list[float | None]:
    """The ``data-value`` of the elements ``ids``, read in one script, as numbers (None for an
    element not there, or without the attribute).

    The page redraws its cells on every slider input, replacing the elements: reading them one
    WebDriver call at a time raced that redraw (a found element was gone by the next call:
    ``StaleElementReferenceException``, once in a CI run). One script reads them all in one
    turn of the page's event loop."""
    values = driver.execute_script(
        "return arguments[0].map(id => { const e = document.getElementById(id);"
        " return e ? e.getAttribute('data-value') : null; });",
        list(ids),
    )
    return [None if v is None else float(v) for v in values]


_CROSSING = """
const boxes = (sel) => Array.from(document.querySelectorAll(sel), (t) => [t.textContent, t.getBoundingClientRect()])
  .filter(([, b]) => b.width > 0 && b.height > 0);
const hits = [];
for (const [ta, a] of boxes(arguments[0])) for (const [tb, b] of boxes(arguments[1]))
  if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) hits.push([ta, tb]);
return hits;
"""


def crossing_texts(driver, first: str, second: str) -> list[list[str]]:
    """The texts of elements matching ``first`` whose boxes overlap one matching ``second``."""
    return driver.execute_script(_CROSSING, first, second)


def assert_curve_labels_apart(driver) -> None:
    """The threshold curves' legend sits below the panels' axis titles (a legend at -0.15 once
    covered "threshold (%)"), and the panels' class names below the chart's title."""
    from selenium.webdriver.common.by import By

    # every panel's x-axis title (three class panels, or a panel per column at many series)
    titles = "#chart-curves g[class^='g-x'][class$='title'] text"
    assert driver.find_elements(By.CSS_SELECTOR, titles)
    assert crossing_texts(driver, "#chart-curves .legendtext", titles) == []
    assert driver.find_elements(By.CSS_SELECTOR, "#chart-curves .annotation-text")
    assert crossing_texts(driver, "#chart-curves .annotation-text", "#chart-curves .gtitle") == []


def screenshot_folder(tmp_path: Path) -> Path:
    """Where a browser test saves its screenshots: ``$CURATE_SCREENSHOTS`` when set (to look at
    them after the run), else the test's temporary folder."""
    shots = Path(os.environ.get("CURATE_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    return shots
