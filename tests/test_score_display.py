"""Every sentence score is shown in a form its method makes readable (issue 31, item 3):
clm-mean's geometric-mean probabilities (about 1e-4) in scientific notation, log-probabilities
with 3 decimals unless that rounds them to zero."""

from __future__ import annotations

from curate.report.html_page import flip_table
from curate.score.methods import METHODS, format_score, score_unit


def test_each_method_has_its_unit() -> None:
    assert score_unit("clm-mean") == "probability"
    for name in ("pll", "aul", "clm-sum", "clm-shared", "clm-mean-prefixed"):
        assert score_unit(name) == "log-probability", name
    assert {score_unit(m) for m in METHODS} == {"probability", "log-probability"}


def test_no_score_rounds_to_zero() -> None:
    assert format_score(1.234e-4, "clm-mean") == "1.234e-04"
    assert format_score(2.5e-4, "clm-mean") != format_score(1.5e-4, "clm-mean")
    assert format_score(-35.12345, "pll") == "-35.123"
    assert format_score(-0.0002, "aul") == "-2.000e-04"
    assert format_score(0.0, "pll") == "0.000"
    assert format_score(None, "pll") == "-"


def test_the_report_flip_table_shows_clm_mean_scores_apart() -> None:
    pair = {
        "pair_id": 3, "bias_type": "race-color", "sent_more": "A b.", "sent_less": "A c.",
        "score": 1,
    }  # fmt: skip
    before = {**pair, "sent_more_score": 2.1e-4, "sent_less_score": 1.9e-4}
    after = {**pair, "sent_more_score": 1.7e-4, "sent_less_score": 1.8e-4, "score": 0}
    model = {
        "method": "clm-mean",
        "flips": {"pairs": [{"pair_id": 3, "change": "edited", "fields": ["sent_more"],
                             "before": before, "after": after}]},
    }  # fmt: skip
    html = flip_table(model)  # type: ignore[arg-type]
    assert "0.000" not in html
    assert "2.100e-04" in html and "1.900e-04" in html
