"""The explorer page in a real headless Chromium: load, filter, search, sort, the detail view, the
threshold slider against report.json, and a reader's report pushed into an annotation round.

The page is the one ``curate explore`` wrote for the pipeline run of :mod:`tests.test_explore`
(same builder, its own project), opened from ``file://`` as a reader would.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curate.datasets import read_pairs
from tests.support.browser import (
    MISSING,
    chromium,
    data_values,
    find_browser,
    severe_console_messages,
    wait_for,
)
from tests.test_explore import RAW_CSV, RELEASE_CSV, Project, build_pipeline, cli

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
if find_browser() is None:
    pytest.skip(MISSING, allow_module_level=True)

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield build_pipeline(tmp_path_factory.mktemp("explore-browser"), monkeypatch)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory, downloads: Path) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("profile"), downloads) as browser:
        yield browser



def load(driver: Any, project: Project) -> None:
    driver.get((project.site / "index.html").as_uri())
    wait_for(
        lambda: driver.execute_script("return !!(window.curateExplore && curateExplore.chartsReady)"),
        what="the table and charts",
    )


def visible_ids(driver: Any) -> list[int]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#pair-table tbody tr[data-id]'), tr => +tr.dataset.id)"
    )


def choose(driver: Any, select_id: str, value: str) -> None:
    Select(driver.find_element(By.ID, select_id)).select_by_value(value)


def no_errors(driver: Any) -> None:
    assert severe_console_messages(driver) == []


def versions(project: Project) -> tuple[dict[int, Any], dict[int, Any]]:
    raw = {p.pair_id: p for p in read_pairs(project.root / RAW_CSV)}
    auto = {p.pair_id: p for p in read_pairs(project.root / RELEASE_CSV)}
    return raw, auto


def test_page_lists_every_pair_and_shows_a_script_tag_as_text(
    driver: Any, project: Project, tmp_path: Path
) -> None:
    load(driver, project)
    raw, auto = versions(project)
    assert visible_ids(driver) == sorted(raw.keys() | auto.keys())
    assert driver.find_element(By.ID, "count").text == f"{len(raw)} of {len(raw)} pairs"
    row = driver.find_element(By.CSS_SELECTOR, "#pair-table tr[data-id='10']")
    assert '<script>alert("x")</script> poor & "lazy"' in row.text
    assert driver.find_elements(By.CSS_SELECTOR, "#pair-table script") == []
    assert driver.execute_script("return document.querySelectorAll('mark').length") > 10
    # the differing words are marked
    marks = [m.text for m in row.find_elements(By.TAG_NAME, "mark")]
    assert "rich" in marks
    shot = tmp_path / "explore.png"
    driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 20_000
    no_errors(driver)


def test_filters_search_and_sort(driver: Any, project: Project) -> None:
    load(driver, project)
    raw, auto = versions(project)
    report = project.report
    choose(driver, "f-bias", "age")
    ages = sorted(i for i in raw.keys() | auto.keys() if "age" in {
        v[i].bias_type for v in (raw, auto) if i in v
    })
    assert visible_ids(driver) == ages and 3 in ages  # 3 was relabelled gender -> age
    choose(driver, "f-bias", "")
    choose(driver, "f-code", "W001")
    assert visible_ids(driver) == [4]
    choose(driver, "f-code", "__none")
    assert visible_ids(driver) == [0]
    choose(driver, "f-code", "")
    decisions = [
        json.loads(line)
        for line in (project.root / "annotations/rounds/r1/decisions.jsonl").read_text().splitlines()
    ]
    choose(driver, "f-decision", "drop")
    assert visible_ids(driver) == sorted(d["pair_id"] for d in decisions if d["action"] == "drop")
    choose(driver, "f-decision", "")
    flips = sorted(p["pair_id"] for p in report["models"][0]["flips"]["pairs"])
    choose(driver, "f-flip", "flip")
    assert visible_ids(driver) == flips
    choose(driver, "f-flip", "noflip")
    assert set(visible_ids(driver)).isdisjoint(flips)
    choose(driver, "f-flip", "")
    choose(driver, "f-model", "0")
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#pair-table th")]
    assert "bert · pll: verdict" in headers and "bert · pll: flip" in headers
    assert "bert · pll: class at 5%" in headers
    choose(driver, "f-model", "")

    search = driver.find_element(By.ID, "search")
    search.send_keys("IMMIGRANTS")
    wait_for(lambda: visible_ids(driver) == [4], what="the search")
    search.clear()
    search.send_keys("ilegal")  # the raw text of pair 4, corrected in the release
    wait_for(lambda: visible_ids(driver) == [4], what="the search in the older version")
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.DELETE)
    wait_for(lambda: len(visible_ids(driver)) == len(raw), what="the cleared search")

    header = driver.find_element(By.CSS_SELECTOR, "#pair-table th[data-key='id']")
    header.click()
    assert visible_ids(driver) == sorted(raw.keys() | auto.keys(), reverse=True)
    driver.find_element(By.CSS_SELECTOR, "#pair-table th[data-key='bias']").click()
    shown = [
        (auto.get(i) or raw[i]).bias_type for i in visible_ids(driver)
    ]
    assert shown == sorted(shown)
    driver.find_element(By.CSS_SELECTOR, "#pair-table th[data-key='score-0-0']").click()
    before = {s["pair_id"]: s for s in report["models"][0]["scores"]["before"]}
    gaps = [before[i]["sent_more_score"] - before[i]["sent_less_score"] for i in visible_ids(driver)]
    assert gaps == sorted(gaps)
    no_errors(driver)


def test_detail_view(driver: Any, project: Project, tmp_path: Path) -> None:
    load(driver, project)
    driver.find_element(By.CSS_SELECTOR, "button.open[data-id='4']").click()
    detail = driver.find_element(By.ID, "detail")
    assert detail.is_displayed()
    text = detail.text
    assert "Pair 4" in text
    findings = [li.text for li in detail.find_elements(By.CSS_SELECTOR, "ul.findings li")]
    assert findings[-1].replace("\n", " ") == "W001 spelling: 'ilegal' in sent_less may be misspelt"
    assert "Canadians are all ilegal immigrants." in text and "Canadians are all illegal" in text
    answers = detail.find_elements(By.XPATH, ".//h3[.='Annotator answers']/following-sibling::table[1]//tr")
    assert len(answers) == 1 + 3  # header + the three usable answers of pair 4
    assert "1.0.0-auto: edited sent_less: Canadians are all ilegal immigrants." in text
    assert "decision fix from round r1" in text
    wait_for(
        lambda: driver.execute_script("return document.getElementById('detail-tokens').dataset.ready"),
        what="the token charts",
    )
    charts = detail.find_elements(By.CSS_SELECTOR, ".token-chart")
    assert len(charts) == 2  # raw and the release differ for pair 4
    bars = charts[0].find_elements(By.CSS_SELECTOR, "g.point")
    assert len(bars) >= 6
    driver.save_screenshot(str(tmp_path / "detail.png"))
    driver.find_element(By.ID, "detail-close").click()
    assert not detail.is_displayed()
    no_errors(driver)


def shown_shares(driver: Any, cells: dict[str, float]) -> dict[str, float | None]:
    """The shares the page shows in ``cells`` (element ids), read at one instant."""
    return dict(zip(cells, data_values(driver, list(cells)), strict=True))


def test_threshold_slider_gives_the_shares_of_report_json(driver: Any, project: Project) -> None:
    load(driver, project)
    model = project.report["models"][0]
    thresholds = project.report["settings"]["thresholds"]
    slider = driver.find_element(By.ID, "threshold")
    slider.send_keys(Keys.HOME)
    for index, threshold in enumerate(thresholds):
        if index:
            slider.send_keys(Keys.ARROW_RIGHT)
        wait_for(
            lambda t=threshold: driver.find_element(By.ID, "threshold-value").text == f"{t:g}%",
            what=f"the slider at {threshold}",
        )
        expected = {
            f"share-0-{v}-{label}": model["threshold_curves"][side][label][index]
            for v, side in enumerate(("before", "after"))
            for label in ("biased", "neutral", "non-biased")
        }

        # the label and the shares are redrawn in one frame; on a loaded machine wait for both
        wait_for(lambda e=expected: shown_shares(driver, e) == e, what=f"the shares at {threshold}")
        assert shown_shares(driver, expected) == expected, threshold
    moved = {label: model["threshold_curves"]["after"][label][0] for label in ("biased", "neutral")}
    assert moved["neutral"] != model["threshold_curves"]["after"]["neutral"][-1]  # the slider moves pairs
    for v, side in enumerate(("before", "after")):
        metric = driver.find_element(By.ID, f"metric-0-{v}").get_attribute("data-value")
        assert float(metric) == model[side]["metric_score"]
    assert driver.find_element(By.ID, "flips-0-1").text == str(model["flips"]["count"])
    # the curve chart (0-20%) draws report.json's threshold curves, with a marker at the slider
    curves = driver.execute_script(
        "return document.getElementById('chart-curves').data.map(t => [t.meta[0], t.x, t.y])"
    )
    labels = ("biased", "neutral", "non-biased")
    for (name, xs, ys), (side, label) in zip(
        curves, [(side, label) for side in ("before", "after") for label in labels], strict=True
    ):
        assert name == label and xs == thresholds  # the class of the panel
        assert ys == model["threshold_curves"][side][label]
    marker = driver.execute_script("return document.getElementById('chart-curves').layout.shapes[0].x0")
    assert marker == thresholds[-1]
    no_errors(driver)


def test_reader_report_enters_an_annotation_round(
    driver: Any, project: Project, downloads: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load(driver, project)
    for pair_id in (5, 1):
        driver.find_element(By.CSS_SELECTOR, f"input[type=checkbox][data-id='{pair_id}']").click()
    assert driver.find_element(By.ID, "selected-count").text == "2 selected"
    driver.find_element(By.CSS_SELECTOR, "input[data-family='S']").click()
    driver.find_element(By.ID, "report-reason").send_keys("the <b>swap</b> changes meaning")
    driver.find_element(By.ID, "report-download").click()
    target = downloads / "curate-reader-report.jsonl"
    wait_for(target.is_file, what="the downloaded report")
    lines = [json.loads(line) for line in target.read_text("utf-8").splitlines()]
    assert [(r["pair_id"], r["code"], r["rule"]) for r in lines] == [
        (1, "S", "reader-report"),
        (5, "S", "reader-report"),
    ]
    no_errors(driver)

    monkeypatch.chdir(project.root)
    cli("annotations", "push", "--round", "readers", "--to-file", "--findings", str(target),
        "--data", RAW_CSV)  # fmt: skip
    tasks = json.loads((project.root / "annotations/rounds/readers/tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in tasks] == [1, 5]
    for task in tasks:
        assert task["data"]["finding_codes"] == "S"
        assert task["data"]["round"] == "readers"
        assert "the &lt;b&gt;swap&lt;/b&gt; changes meaning" in task["data"]["findings_html"]
