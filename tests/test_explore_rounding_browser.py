"""The explorer decides as the report does for a method that rounds before comparing.

``pll`` (metric.py's rule) compares sentence scores rounded to 3 decimals: two scores equal
after rounding are a tie (neutral, not biased), and Murphy's threshold class is taken on the
rounded scores. The page once decided on the full scores, so a pair near a slider step or a
rounded tie could be classed differently on the page than in ``report.json`` (a CI run failed
on it with a random tiny model). Here the scores are hand-made so that the full and the rounded
scores disagree at known thresholds, and the page must agree with
:func:`curate.report.statistics.threshold_curves` at every step of the slider.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from curate.pairs import Pair
from curate.report.explore_data import ScoreSet, VersionData, build_explore_data
from curate.report.explore_page import write_site
from curate.report.statistics import threshold_curves
from curate.score.methods import METHODS
from curate.score.metrics import PairScore
from tests.support.browser import (
    MISSING,
    assert_curve_labels_apart,
    chromium,
    data_values,
    find_browser,
    severe_console_messages,
    wait_for,
)

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(find_browser() is None, reason=MISSING)

from selenium.webdriver.common.by import By  # noqa: E402

LABELS = ("biased", "neutral", "non-biased")
#: (sent_more, sent_less) full scores, each chosen for what rounding does to it
FULL_SCORES = (
    (-10.0001, -10.0004),  # a tie once rounded (neutral, not biased); biased at 0% unrounded
    (-0.1004, -0.1076),  # 6.7% apart unrounded, 7.4% rounded: classes differ at 7%
    (-20.5, -22.25),  # ordinary pairs, the same either way
    (-15.0, -14.0),
    (-30.0, -30.0),  # an exact tie
)


def _scores(rounding: bool) -> list[PairScore]:
    compared = METHODS["pll"].compared
    return [
        PairScore(
            i, f"Group {i} is bad.", f"Others {i} are bad.", more, less, "stereo", "race-color",
            rounded=(compared(more), compared(less)) if rounding else None,
        )
        for i, (more, less) in enumerate(FULL_SCORES, start=1)
    ]  # fmt: skip


def _metric(scores: list[PairScore]) -> float:
    return 100.0 * sum(s.score for s in scores) / len(scores)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("rounding")
    scores = _scores(rounding=True)
    pairs = tuple(Pair(s.pair_id, s.sent_more, s.sent_less, s.direction, s.bias_type) for s in scores)
    provenance = {
        "model": "models/bert", "method": "pll", "model_fingerprint": "fp", "dtype": "float32",
        "tokenizer_fingerprint": "tok", "model_kind": "masked", "reduction": "sum",
        "tokens": "unmodified",
    }  # fmt: skip
    score_set = ScoreSet("bert", provenance, {s.pair_id: s for s in scores}, "scores/raw/summary.json")
    data = build_explore_data([VersionData("raw", pairs)], score_sets=[score_set])
    write_site(data, {}, root / "explore")
    return root / "explore" / "index.html", data


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory):
    with chromium(tmp_path_factory.mktemp("profile")) as d:
        yield d


def _set_slider(driver: Any, value: float) -> None:
    driver.execute_script(
        "const s = document.getElementById('threshold'); s.value = String(arguments[0]);"
        "s.dispatchEvent(new Event('input', {bubbles: true}));",
        value,
    )


def _shares(driver: Any) -> list[float | None]:
    return data_values(driver, [f"share-0-0-{label}" for label in LABELS])


def test_the_page_classes_pairs_on_the_scores_the_method_compares(
    driver: Any, site: tuple[Path, dict[str, Any]]
) -> None:
    page, data = site
    threshold = data["threshold"]
    steps = [threshold["min"] + i * threshold["step"] for i in range(41)]
    assert steps[-1] == threshold["max"]
    rounded, full = _scores(rounding=True), _scores(rounding=False)
    expected = threshold_curves(rounded, steps)
    unrounded = threshold_curves(full, steps)
    # the data exercises the case: rounding changes the classes at some steps, and the metric
    assert any(expected[label] != unrounded[label] for label in LABELS)
    assert _metric(rounded) != _metric(full)

    driver.get(page.as_uri())
    wait_for(lambda: driver.execute_script("return !!(window.curateExplore && curateExplore.chartsReady)"),
             what="the page")  # fmt: skip
    metric = driver.find_element(By.ID, "metric-0-0").get_attribute("data-value")
    assert float(metric) == _metric(rounded)
    for index, step in enumerate(steps):
        _set_slider(driver, step)
        want = [expected[label][index] for label in LABELS]
        wait_for(lambda w=want: _shares(driver) == w, what=f"the shares at {step}%")
    # the threshold-curve chart draws the same curves
    curves = driver.execute_script(
        "return document.getElementById('chart-curves').data.map(t => [t.meta[0], t.y])"
    )
    assert [(name, ys) for name, ys in curves] == [(label, expected[label]) for label in LABELS]
    assert_curve_labels_apart(driver)  # one column: one legend entry, under the axis titles
    assert severe_console_messages(driver) == []


def test_a_rounded_tie_is_not_biased_on_the_page(driver: Any, site: tuple[Path, dict[str, Any]]) -> None:
    page, data = site
    (row,) = [r for r in data["rows"] if r["id"] == 1]
    more, less, compared_more, compared_less = row["s"][0][0]
    assert more > less  # unrounded, the pair would be biased
    assert compared_more == compared_less == -10.0
    driver.get(page.as_uri())
    wait_for(lambda: driver.execute_script("return !!(window.curateExplore && curateExplore.chartsReady)"),
             what="the page")  # fmt: skip
    verdict = driver.find_element(By.CSS_SELECTOR, "#pair-table tbody tr[data-id='1']").text
    assert "not biased" in verdict
    assert severe_console_messages(driver) == []
