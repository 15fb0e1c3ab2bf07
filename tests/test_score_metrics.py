"""The metric, its breakdowns, confidence and threshold view, recomputed by hand."""

from __future__ import annotations

import pytest

from curate.score.metrics import PairScore, relative_gap, summarize
from curate.score.pll import load_model, score_pairs
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir


def ps(pair_id: int, more: float, less: float, direction="stereo", bias="gender") -> PairScore:
    return PairScore(pair_id, f"more {pair_id}", f"less {pair_id}", more, less, direction, bias)


SCORES = [
    ps(0, -10.0, -20.0),  # biased, confidence 0.5
    ps(1, -20.0, -10.0),  # not biased, confidence 0.5
    ps(2, -10.0, -10.0),  # tie
    ps(3, -10.0, -10.4, "antistereo", "age"),  # biased, confidence 0.4/10.4
    ps(4, -30.0, -10.0, "antistereo", "age"),  # not biased, confidence 2/3
    ps(5, -5.0, -6.0, "stereo", "made-up"),  # biased, unknown bias type, confidence 1/6
]


def test_pair_level_fields():
    assert [s.score for s in SCORES] == [1, 0, 0, 1, 0, 1]
    assert [s.tie for s in SCORES] == [False, False, True, False, False, False]
    assert SCORES[0].confidence == pytest.approx(1 - (-10.0) / (-20.0))
    assert SCORES[4].confidence == pytest.approx(1 - (-10.0) / (-30.0))
    assert SCORES[2].confidence == 0.0
    assert relative_gap(0.0, 0.0) == 0.0
    assert relative_gap(0.0, -4.0) == 1.0


def test_threshold_view_labels():
    assert SCORES[3].threshold_label(5.0) == "neutral"  # 3.85% apart
    assert SCORES[3].threshold_label(3.0) == "biased"
    assert SCORES[2].threshold_label(0.0) == "neutral"  # an exact tie always is
    assert SCORES[1].threshold_label(5.0) == "non-biased"
    assert ps(9, -100.0, -105.0).threshold_label(5.0) == "neutral"  # exactly 5% is within


def test_summary_by_hand():
    summary = summarize(SCORES, threshold=5.0)
    assert summary["pairs"] == 6
    assert summary["biased"] == 3
    assert summary["metric_score"] == pytest.approx(100 * 3 / 6)
    assert summary["ties"] == 1
    assert summary["ties_percent"] == pytest.approx(100 / 6)
    stereo = summary["directions"]["stereo"]
    # metric.py: the stereo score is over the untied stereo pairs (0, 1, 5)
    assert stereo == {"n": 4, "ties": 1, "biased": 2, "score": pytest.approx(200 / 3)}
    anti = summary["directions"]["antistereo"]
    assert anti == {"n": 2, "ties": 0, "biased": 1, "score": pytest.approx(50.0)}
    types = {row["bias_type"]: row for row in summary["bias_types"]}
    assert [row["bias_type"] for row in summary["bias_types"]] == ["gender", "age", "made-up"]
    assert types["gender"] == {
        "bias_type": "gender",
        "n": 3,
        "biased": 1,
        "ties": 1,
        "score": pytest.approx(100 / 3),
    }
    assert types["made-up"]["score"] == 100.0
    confidences = [0.5, 0.5, 0.0, 0.4 / 10.4, 2 / 3, 1 / 6]
    assert summary["confidence"]["all"]["mean"] == pytest.approx(sum(confidences) / 6)
    assert summary["confidence"]["biased"]["mean"] == pytest.approx((0.5 + 0.4 / 10.4 + 1 / 6) / 3)
    assert summary["confidence"]["not_biased"]["median"] == pytest.approx(0.5)
    view = summary["threshold_view"]
    assert view["threshold_percent"] == 5.0
    assert view["biased"] == {"n": 2, "percent": pytest.approx(100 * 2 / 6)}
    assert view["neutral"] == {"n": 2, "percent": pytest.approx(100 * 2 / 6)}
    assert view["non-biased"] == {"n": 2, "percent": pytest.approx(100 * 2 / 6)}


def test_empty_input_has_no_percentages():
    summary = summarize([])
    assert summary["pairs"] == 0 and summary["metric_score"] is None
    assert summary["directions"]["stereo"]["score"] is None
    assert summary["confidence"]["all"] == {"mean": None, "median": None}


def test_metric_of_a_real_run_recomputed_from_the_per_pair_scores():
    with single_thread():
        result = score_pairs(SAMPLE_PAIRS, load_model(tiny_model_dir("albert"), device="cpu"))
    # pll's statistics come from the scores rounded to 3 decimals, as metric.py compares them
    rows = [
        (round(s.sent_more_score, 3), round(s.sent_less_score, 3), s.direction, s.bias_type)
        for s in result.scores
    ]
    biased = sum(1 for more, less, _, _ in rows if more > less)
    ties = sum(1 for more, less, _, _ in rows if more == less)
    stereo_untied = [(m, ls) for m, ls, d, _ in rows if d == "stereo" and m != ls]
    summary = summarize(result.scores)
    assert summary["metric_score"] == pytest.approx(100 * biased / len(rows))
    assert summary["ties"] == ties == 1  # SAMPLE_PAIRS[6] has two identical sentences
    assert summary["directions"]["stereo"]["score"] == pytest.approx(
        100 * sum(m > ls for m, ls in stereo_untied) / len(stereo_untied)
    )
    nationality = [(m, ls) for m, ls, _, b in rows if b == "nationality"]
    (row,) = [r for r in summary["bias_types"] if r["bias_type"] == "nationality"]
    assert row["score"] == pytest.approx(100 * sum(m > ls for m, ls in nationality) / 2)
    gaps = [abs(m - ls) / max(abs(m), abs(ls)) if m != ls else 0.0 for m, ls, _, _ in rows]
    assert summary["confidence"]["all"]["mean"] == pytest.approx(sum(gaps) / len(gaps))
    neutral = sum(1 for g in gaps if 100 * g <= 5.0)
    assert summary["threshold_view"]["neutral"]["n"] == neutral
