"""diff-report rendering: JSON, Markdown and HTML are deterministic and escape dataset text;
the HTML renders its plotly charts offline in headless Chromium without running any script
that a sentence carries.

The report here is built from hand-made scores (no model), so every chart and table has
content: the sentence with ``<script>alert(1)</script>`` is edited and flips its verdict.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from curate.pairs import Pair
from curate.report.diff import Settings, Version, align_versions, compare_scores, report_data
from curate.report.render import (
    FILES,
    md,
    render_html,
    render_json,
    render_markdown,
    sentence_diff_html,
    write_report,
)
from curate.score.metrics import PairScore

SCRIPT = "<script>alert(1)</script>"
#: Would rename the page if any markup from the data ran.
IMG = "<img src=x onerror=\"document.title='pwned'\">"
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

BEFORE = (
    Pair(0, "Women don't know how to drive.", "Men don't know how to drive.", "stereo", "gender"),
    Pair(1, "The poor are ignorant.", "The rich are ignorant.", "stereo", "socioeconomic"),
    Pair(
        2, "Old people | can't *use* phones.", "Young people | can't *use* phones.", "stereo", "age"
    ),
    Pair(3, "Muslims are violent.", "Christians are violent.", "stereo", "religion"),
    Pair(4, "Gay men are dramatic.", "Straight men are dramatic.", "stereo", "sexual-orientation"),
    Pair(5, "He was a thug.", "She was a thug.", "antistereo", "gender"),
)
AFTER = (
    BEFORE[0],
    BEFORE[1].with_changes(sent_more=f"The poor are {SCRIPT} ignorant."),
    BEFORE[2],
    BEFORE[3].with_changes(sent_less=f"Christians are {IMG} violent.", bias_type="religion"),
    BEFORE[5].with_changes(bias_type="<i>custom</i>"),
    Pair(9, "Tall girls are clumsy.", "Short girls are clumsy.", "stereo", "physical-appearance"),
)
#: (sent_more_score, sent_less_score) per pair id and version.
SCORES = {
    "before": {0: (-10.0, -11.0), 1: (-20.0, -21.0), 2: (-9.0, -8.0), 3: (-15.0, -16.0)}
    | {4: (-7.0, -7.0), 5: (-12.0, -12.5)},
    "after": {0: (-10.0, -11.0), 1: (-25.0, -21.0), 2: (-9.0, -8.0), 3: (-15.0, -14.0)}
    | {5: (-12.0, -12.5), 9: (-6.0, -6.5)},
}


def _scores(pairs: tuple[Pair, ...], version: str) -> list[PairScore]:
    return [
        PairScore(
            p.pair_id,
            p.sent_more,
            p.sent_less,
            *SCORES[version][p.pair_id],
            p.direction,
            p.bias_type,
        )
        for p in pairs
    ]


def build_data() -> dict[str, Any]:
    """A complete report document for two models, as score_versions would build it."""
    alignment = align_versions(BEFORE, AFTER)
    settings = Settings(bootstrap_samples=200, seed=1)
    sections = []
    for label in ("tiny-bert", "tiny<b>roberta</b>"):
        section = compare_scores(
            _scores(BEFORE, "before"), _scores(AFTER, "after"), alignment, settings
        )
        compute = {
            "before": {"metric_py_passes": 60, "unique_masked": 50},
            "after": {
                "metric_py_passes": 60,
                "unique_masked": 52,
                "reused_from_before": 40,
                "new": 12,
            },
            "forward_passes_saved": 40,
        }
        sections.append(
            {"model": f"models/{label}", "label": label, "provenance": {}, "compute": compute}
            | section
        )
    return report_data(
        Version("raw", BEFORE), Version("1.0.0-test", AFTER), alignment, settings, sections
    )


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return build_data()


def test_the_fixture_flips_the_script_pair(data) -> None:
    flips = data["models"][0]["flips"]
    assert [f["pair_id"] for f in flips["pairs"]] == [1, 3]
    assert flips["pairs"][0]["after"]["sent_more"] == f"The poor are {SCRIPT} ignorant."


def test_json_holds_every_number_and_round_trips(data) -> None:
    text = render_json(data)
    assert json.loads(text) == data
    assert text.endswith("\n") and "NaN" not in text


def test_outputs_are_deterministic(data, tmp_path: Path) -> None:
    first = write_report(data, tmp_path / "a")
    second = write_report(build_data(), tmp_path / "b")
    assert [p.name for p in first] == list(FILES)
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(FILES)  # no temp files


def test_markdown_escapes_dataset_text(data) -> None:
    text = render_markdown(data)
    assert SCRIPT not in text and "<img" not in text and "<i>" not in text
    assert "&lt;script&gt;alert\\(1\\)&lt;/script&gt;" in text
    assert "tiny&lt;b&gt;roberta&lt;/b&gt;" in text
    assert md("a | b *c*") == "a \\| b \\*c\\*"
    assert md("two\nlines") == "two lines"
    # Every table row keeps its column count although a sentence holds a pipe.
    for block in text.split("\n\n"):
        rows = [line for line in block.splitlines() if line.startswith("|")]
        widths = {line.replace("\\|", "").count("|") for line in rows}
        assert len(widths) <= 1, block


def test_markdown_has_a_column_per_model(data) -> None:
    text = render_markdown(data)
    assert "|  | tiny-bert | tiny&lt;b&gt;roberta&lt;/b&gt; |" in text
    assert "| metric before | 66.67 | 66.67 |" in text
    assert "| metric after | 50.00 | 50.00 |" in text
    assert "score flips (of edited pairs) | 2 of 3 (66.67%)" in text


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
    # One script with plotly.js and one per chart: 3 across models + 3 per model.
    assert page.count("<script") == 1 + 3 + 3 * 2
    assert page.count('class="plotly-graph-div"') == 9
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
    assert dom.count('class="main-svg"') >= 9
    assert dom.count('class="plot-container plotly"') == 9
    assert "scatterlayer" in dom and "barlayer" in dom and "polarlayer" in dom
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
