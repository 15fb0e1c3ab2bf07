"""Many models, one view: the explorer built from ONE ``--scores`` root holding two tiny masked
LMs x (``pll``, ``aul``) and two tiny GPT-2s (both directories called ``gpt2``) x ``clm-sum``,
scored on ``raw`` and ``1.0.0-auto``, checked in headless Chromium against the diff-report of
the same models and methods (``report.json``).

Also: no page the project writes (explorer, ``report.html``) makes the browser fetch or open an
``http(s)://`` URL, and an 8-column explorer is screenshotted for a person to look at.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from curate.score.methods import METHODS
from curate.score.metrics import relative_gap
from tests.support import annotate_scenario as sc
from tests.support.browser import (
    MISSING,
    chromium,
    find_browser,
    requested_urls,
    severe_console_messages,
    wait_for,
)
from tests.support.tiny_models import single_thread, tiny_model_dir, training_corpus
from tests.test_explore import build_pipeline, cli, page_data

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
if find_browser() is None:
    pytest.skip(MISSING, allow_module_level=True)

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

pytestmark = pytest.mark.slow
LABELS = ("biased", "neutral", "non-biased")


@dataclass(frozen=True)
class Many:
    root: Path
    report: dict[str, Any]

    @property
    def site(self) -> Path:
        return self.root / "many-site"


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Many]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        root = tmp_path_factory.mktemp("explore-many")
        build_pipeline(root, monkeypatch)
        corpus = training_corpus([s for p in sc.PAIRS for s in (p.sent_more, p.sent_less)])
        bert, roberta = tiny_model_dir("bert", corpus), tiny_model_dir("roberta", corpus)
        gpt2_a = tiny_model_dir("gpt2", corpus)
        gpt2_b = tiny_model_dir("gpt2", corpus, seed=1)
        assert gpt2_a.name == gpt2_b.name == "gpt2" and gpt2_a != gpt2_b
        with single_thread():
            for version in ("raw", "1.0.0-auto"):
                # version names, and one method list fitted to masked and causal models
                result = cli(
                    "score", version, "-m", str(bert), "-m", str(roberta), "-m", str(gpt2_a),
                    "--method", "pll,aul,clm-sum", "-o", f"build/many/{version}/one",
                )  # fmt: skip
                assert "each model gets the requested methods" in " ".join(result.stderr.split())
                cli("score", version, "-m", str(gpt2_b), "--method", "clm-sum",
                    "-o", f"build/many/{version}/two")  # fmt: skip
                # two more columns for the 8-column screenshot
                cli("score", version, "-m", str(gpt2_a), "--method", "clm-mean",
                    "-o", f"build/extra/{version}/one")  # fmt: skip
                cli("score", version, "-m", str(gpt2_b), "--method", "clm-mean",
                    "-o", f"build/extra/{version}/two")  # fmt: skip
            cli(
                "diff-report", "raw", "1.0.0-auto", "-m", str(bert), "-m", str(roberta),
                "-m", str(gpt2_a), "-m", str(gpt2_b), "--method", "pll,aul,clm-sum",
                "--bootstrap", "20", "-o", "build/many-report",
            )  # fmt: skip
            cli("explore", "raw", "1.0.0-auto", "--scores", "build/many", "--out", "many-site")
            cli(
                "explore", "raw", "1.0.0-auto", "--scores", "build/many", "--scores",
                "build/extra", "--out", "eight-site",
            )  # fmt: skip
        report = json.loads((root / "build/many-report/report.json").read_text("utf-8"))
        yield Many(root, report)


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("profile"), network_log=True) as browser:
        yield browser



def load(driver: Any, page: Path) -> None:
    driver.get(page.as_uri())
    wait_for(
        lambda: driver.execute_script("return !!(window.curateExplore && curateExplore.chartsReady)"),
        what="the table and charts",
    )


def visible_ids(driver: Any) -> list[int]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#pair-table tbody tr[data-id]'), tr => +tr.dataset.id)"
    )


def expected_class(row: dict[str, Any], threshold: float, method: str) -> str:
    """Murphy's label of a report.json score row (as curate.score.metrics.PairScore), on the
    scores the method compares (pll's rounded to 3 decimals, as metric.py)."""
    compared = METHODS[method].compared
    a, b = compared(row["sent_more_score"]), compared(row["sent_less_score"])
    if a == b or 100.0 * relative_gap(a, b) <= threshold:
        return "neutral"
    return "biased" if a > b else "non-biased"


def test_six_columns_with_unique_labels_everywhere(driver: Any, many: Many) -> None:
    columns = [m["label"] for m in many.report["models"]]
    assert len(columns) == 6 == len(set(columns))
    assert sorted(columns) == sorted([
        "bert · pll", "bert · aul", "roberta · pll", "roberta · aul",
        "gpt2 (1) · clm-sum", "gpt2 (2) · clm-sum",
    ])  # fmt: skip
    data = page_data(many.site)
    labels = [m["label"] for m in data["models"]]
    assert sorted(labels) == sorted(columns)  # the page and the report name columns alike
    load(driver, many.site / "index.html")
    about = driver.find_element(By.ID, "about").text
    assert all(label in about for label in labels)
    options = [o.text for o in Select(driver.find_element(By.ID, "f-model")).options][1:]
    assert options == labels
    driver.find_element(By.CSS_SELECTOR, "#table-columns-box summary").click()
    picker = [e.text.strip() for e in driver.find_elements(By.CSS_SELECTOR, "#table-columns label")]
    assert picker == labels
    # more than 4 columns: the table starts with 4; tick the others
    for box in driver.find_elements(By.CSS_SELECTOR, "#table-columns input"):
        if not box.is_selected():
            box.click()
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#pair-table th")]
    for label in labels:
        assert f"{label}: verdict" in headers and f"{label}: class at 5%" in headers
    # legends and axes: every column once per version, never merged
    names = driver.execute_script(
        "return document.getElementById('chart-metric').data.map(t => t.name)"
    )
    assert sorted(names) == sorted(f"{c} · {v}" for c in labels for v in ("raw", "1.0.0-auto"))
    radar = driver.execute_script("return document.getElementById('chart-radar').data.map(t => t.name)")
    assert sorted(radar) == sorted(labels)
    shares = driver.execute_script(
        "const d = document.getElementById('chart-threshold').data;"
        "return d[0].y.map((y, i) => [y, d.map(t => t.x[i])]);"
    )
    assert len(shares) == 12 == len({x for x, _ in shares})
    for x, ys in shares:
        assert sum(ys) == pytest.approx(100.0), x  # one column per bar, never two stacked
    assert severe_console_messages(driver) == []


def test_class_filter_lists_the_pairs_the_slider_gives(driver: Any, many: Many) -> None:
    load(driver, many.site / "index.html")
    data = page_data(many.site)
    index = {m["label"]: i for i, m in enumerate(data["models"])}
    from selenium.webdriver.common.keys import Keys

    slider = driver.find_element(By.ID, "threshold")
    slider.send_keys(Keys.HOME)
    for _ in range(6):
        slider.send_keys(Keys.ARROW_RIGHT)  # 3%
    wait_for(lambda: driver.find_element(By.ID, "threshold-value").text == "3%", what="3%")
    checked = 0
    for column in many.report["models"]:
        before = {r["pair_id"]: r for r in column["scores"]["before"]}
        after = {r["pair_id"]: r for r in column["scores"]["after"]}
        last = {**before, **after}  # the page's class is that of the last version scored
        Select(driver.find_element(By.ID, "f-model")).select_by_value(str(index[column["label"]]))
        for label in LABELS:
            Select(driver.find_element(By.ID, "f-class")).select_by_value(label)
            expected = sorted(i for i, row in last.items() if expected_class(row, 3.0, column["method"]) == label)
            assert visible_ids(driver) == expected, (column["label"], label)
            checked += len(expected)
    assert checked == 6 * len({r["pair_id"] for c in many.report["models"][:1] for s in ("before", "after") for r in c["scores"][s]})
    # a class segment of the threshold chart is a link to the same list
    Select(driver.find_element(By.ID, "f-class")).select_by_value("")
    Select(driver.find_element(By.ID, "f-model")).select_by_value("")
    column = many.report["models"][-1]
    m = index[column["label"]]
    driver.execute_script(
        "const c = document.getElementById('chart-threshold');"
        "c.emit('plotly_click', {points: [{curveNumber: 0, customdata: [arguments[0], 1]}]});",
        m,
    )
    assert driver.find_element(By.ID, "f-model").get_attribute("value") == str(m)
    assert driver.find_element(By.ID, "f-class").get_attribute("value") == "biased"
    last = {**{r["pair_id"]: r for r in column["scores"]["before"]},
            **{r["pair_id"]: r for r in column["scores"]["after"]}}  # fmt: skip
    assert visible_ids(driver) == sorted(i for i, r in last.items() if expected_class(r, 3.0, column["method"]) == "biased")
    # the summary measures the classes, so the class filter does not narrow it
    share = driver.find_element(By.ID, f"share-{m}-1-biased").get_attribute("data-value")
    assert float(share) == pytest.approx(column["threshold_curves"]["after"]["biased"][6])
    assert severe_console_messages(driver) == []


NETWORK_CHECK = """
const attrs = [];
for (const node of document.querySelectorAll('[href], [src], [action], [formaction], [data]')) {
  for (const a of ['href', 'src', 'action', 'formaction', 'data']) {
    if (node.hasAttribute(a)) attrs.push(node.getAttribute(a));
  }
}
return {attrs, modebar: document.querySelectorAll('.modebar, .modebar-container a').length};
"""


def web_urls(urls: list[str], found: dict[str, Any]) -> list[str]:
    """The requests and the links, sources and form targets of the page that reach the web."""
    return [u for u in [*urls, *found["attrs"]] if u.lower().startswith(("http:", "https:", "//"))]


def test_no_page_fetches_or_opens_the_web(driver: Any, many: Many) -> None:
    requested_urls(driver)  # forget the earlier tests' requests
    load(driver, many.site / "index.html")
    driver.execute_script("location.hash = '#pair-4'")
    wait_for(lambda: driver.execute_script(
        "return document.getElementById('detail-tokens') && document.getElementById('detail-tokens').dataset.ready"
    ), what="the detail view from #pair-4")
    found = driver.execute_script(NETWORK_CHECK)
    urls = requested_urls(driver)
    assert any(u.endswith("/tokens/0.js") for u in urls)  # the log sees the lazy loads
    assert any(u.endswith("/plotly.min.js") for u in urls)
    assert web_urls(urls, found) == [] and found["modebar"] == 0
    driver.get((many.root / "build/many-report/report.html").as_uri())
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('.js-plotly-plot').length > 3"))
    found = driver.execute_script(NETWORK_CHECK)
    urls = requested_urls(driver)
    assert any(u.endswith("/report.html") for u in urls)
    assert web_urls(urls, found) == [] and found["modebar"] == 0  # no "share chart" control
    # the robust flips show both sentences and link into the explorer built beside the report
    # (build/many-report and many-site are not siblings here: no link expected)
    text = driver.find_element(By.TAG_NAME, "body").text
    assert "clm-sum" in text and "aul" in text
    assert severe_console_messages(driver) == []


def test_eight_columns_screenshot(driver: Any, many: Many, tmp_path: Path) -> None:
    site = many.root / "eight-site"
    assert len(page_data(site)["models"]) == 8
    load(driver, site / "index.html")
    driver.set_window_size(1400, 2200)
    shots = Path(os.environ.get("CURATE_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(shots / "explore-8-columns.png"))
    driver.execute_script("location.hash = '#pair-4'")
    wait_for(lambda: driver.execute_script(
        "return document.getElementById('detail-tokens') && document.getElementById('detail-tokens').dataset.ready"
    ), what="the detail view")
    driver.save_screenshot(str(shots / "explore-8-columns-detail.png"))
    driver.set_window_size(1400, 1000)
    # tick labels are whole (wrapped, not cut with an ellipsis)
    ticks = driver.execute_script(
        "return Array.from(document.querySelectorAll('#chart-threshold .xtick text'), t => t.textContent)"
    )
    assert ticks and not any("…" in t for t in ticks)
    assert severe_console_messages(driver) == []


def test_report_links_its_robust_flips_into_the_explorer_beside_it(
    driver: Any, many: Many, tmp_path: Path
) -> None:
    import shutil

    from curate.report.output import write_report

    shutil.copytree(many.site, many.root / "together/explore")
    write_report(many.report, many.root / "together/diff-report")
    page = many.root / "together/diff-report/report.html"
    driver.get(page.as_uri())
    wait_for(lambda: driver.current_url == page.as_uri(), what=f"{page} (at {driver.current_url})")
    links = wait_for(
        lambda: driver.find_elements(By.CSS_SELECTOR, "a[href*='#pair-']"), what="the links"
    )
    flipped = {f["pair_id"] for f in many.report["robust_flips"]["every"]} | {
        f["pair_id"] for f in many.report["robust_flips"]["only_one"]
    }
    assert flipped and {int(a.get_attribute("href").rsplit("-", 1)[1]) for a in links} == flipped
    first = sorted(flipped)[0]
    row = driver.find_element(By.XPATH, f"//a[@href='../explore/index.html#pair-{first}']/..")
    texts = {p.pair_id: p for p in __import__("curate.datasets", fromlist=["read_pairs"]).read_pairs(
        many.root / "data/clean/1.0.0-auto/dist/crows_pairs_revised.csv")}  # fmt: skip
    if first in texts:
        assert texts[first].sent_more in row.text and texts[first].sent_less in row.text
    shots = Path(os.environ.get("CURATE_SCREENSHOTS", tmp_path))
    driver.execute_script("arguments[0].scrollIntoView()", row)
    driver.save_screenshot(str(shots / "report-robust-flips.png"))
    driver.find_element(By.CSS_SELECTOR, f"a[href='../explore/index.html#pair-{first}']").click()
    wait_for(lambda: driver.execute_script(
        "return !!window.curateExplore && !document.getElementById('detail').hidden"
    ), what="the explorer's detail view")
    assert driver.find_element(By.ID, "detail-title").text == f"Pair {first}"
    assert severe_console_messages(driver) == []
