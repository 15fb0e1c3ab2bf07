"""report.html escapes dataset text; the page renders its plotly charts offline in headless Chromium without running any script
that a sentence carries.

The report here is built from hand-made scores (no model), so every chart and table has
content: the sentence with ``<script>alert(1)</script>`` is edited and flips its verdict.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from curate.report.html_page import render_html, sentence_diff_html
from curate.report.output import write_report
from curate.report.schema import Report
from tests.support.report_data import SCRIPT, build_data

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--hide-scrollbars",
    "--virtual-time-budget=15000",
)

@pytest.fixture(scope="module")
def data() -> Report:
    return build_data()


def test_sentence_diff_marks_the_edit_and_escapes() -> None:
    old, new = sentence_diff_html("The poor are ignorant.", f"The poor are {SCRIPT} ignorant.")
    assert old == "The poor are ignorant."
    assert new == "The poor are <mark>&lt;script&gt;alert(1)&lt;/script&gt;</mark> ignorant."
    assert sentence_diff_html("a  b", "a b") == ("<mark>a  b</mark>", "<mark>a b</mark>")


def test_html_is_self_contained_and_escaped(data) -> None:
    page = render_html(data)
    assert SCRIPT not in page and "<img" not in page and "<i>custom" not in page
    assert "tiny<b>roberta" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # plotly.js is inline: no script, stylesheet or image is fetched from anywhere.
    assert re.search(r"<(script|link|img)\b[^>]*\b(src|href)=", page) is None
    # One script with plotly.js and one per chart: 4 across columns (the model x method heat
    # map among them) + 3 per column.
    assert page.count("<script") == 1 + 4 + 3 * 2
    assert page.count('class="plotly-graph-div"') == 10
    assert 'id="fig-method-heatmap"' in page and '"type":"heatmap"' in page
    # Chart labels are escaped before plotly sees them (it renders a subset of HTML).
    assert '"&lt;i&gt;custom&lt;' in page


# --------------------------------------------------------------------------- headless Chromium


def chromium() -> str:
    """The Chromium binary, or skip saying how to get it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(
        "headless Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it"
    )


def run_chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(profile)}
    return subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def page(data, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    write_report(data, out)
    return out / "report.html"


def test_chromium_renders_the_charts_and_shows_the_script_as_text(
    page: Path, tmp_path: Path
) -> None:
    result = run_chromium(page, tmp_path / "profile", "--dump-dom")
    dom = result.stdout
    assert result.returncode == 0 and "</html>" in dom, result.stderr[-2000:]
    # plotly drew every chart: each graph div gets its SVG layers.
    assert dom.count('class="main-svg"') >= 10
    assert dom.count('class="plot-container plotly"') == 10
    assert "scatterlayer" in dom and "barlayer" in dom and "polarlayer" in dom
    assert "heatmaplayer" in dom or 'class="hm"' in dom
    # The sentence is text, not markup: no such element, nothing ran.
    assert "The poor are <mark>&lt;script&gt;alert(1)&lt;/script&gt;</mark> ignorant." in dom
    assert "<script>alert(1)</script>" not in dom
    assert "<img src=" not in dom and "pwned" not in dom.split("</title>")[0]
    # An escaped bias type is drawn as literal text by plotly, not as italics.
    assert "&lt;i&gt;custom&lt;/i&gt;" in dom and "<i>custom</i>" not in dom


def test_chromium_screenshot(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    result = run_chromium(
        page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,4000"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    # A page with charts compresses far worse than a blank one (~10 KB at this size).
    assert len(data) > 100_000, len(data)
    keep = os.environ.get("CURATE_KEEP_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)
