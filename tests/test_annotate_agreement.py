"""Agreement figures on small tables worked out by hand (formulas in the comments)."""

from __future__ import annotations

from curate.annotate.agreement import agreement, alpha, fleiss, percent_agreement
from curate.annotate.export import Answer

# Three pairs rated by three annotators, one pair by two: yyy, yyn, nnn, yn.
UNITS = [["yes", "yes", "yes"], ["yes", "yes", "no"], ["no", "no", "no"], ["yes", "no"]]


def test_percent_agreement() -> None:
    # Per pair: 1, 2/6, 1, 0 -> (7/3)/4 = 7/12.
    assert percent_agreement(UNITS) == round(100 * 7 / 12, 6)
    assert percent_agreement(UNITS[:3]) == round(100 * 7 / 9, 6)
    assert percent_agreement([["yes"]]) is None


def test_fleiss_kappa_uses_the_most_common_number_of_raters() -> None:
    # Pairs with 3 raters: P = (1 + 1/3 + 1)/3 = 7/9; p_yes = 5/9, p_no = 4/9, Pe = 41/81;
    # kappa = (63/81 - 41/81) / (40/81) = 22/40.
    assert fleiss(UNITS, ["yes", "no"]) == {
        "fleiss_kappa": 0.55,
        "fleiss_items": 3,
        "fleiss_raters": 3,
    }
    # Every answer the same: chance agreement 1, kappa undefined.
    assert fleiss([["yes"] * 3] * 2, ["yes", "no"])["fleiss_kappa"] is None
    assert fleiss([["yes"]], ["yes", "no"]) == {
        "fleiss_kappa": None,
        "fleiss_items": 0,
        "fleiss_raters": 0,
    }


def coded(units: list[list[str]]) -> dict:
    return {u: {r: int(v == "no") for r, v in enumerate(vals)} for u, vals in enumerate(units)}


def test_krippendorff_alpha() -> None:
    # n = 9 values (5 yes, 4 no); the only disagreeing pair yyn has (9 - 5)/(3 - 1) = 2;
    # alpha = 1 - (n - 1) * 2 / (2 * 5 * 4) = 1 - 16/40 = 0.6.
    assert alpha(coded(UNITS[:3]), [0, 1, 2], 2) == 0.6
    # With "yn": n = 11 (6 yes, 5 no), disagreement 2 + 2/1 = 4 -> 1 - 10 * 4 / 60 = 1/3.
    assert alpha(coded(UNITS), [0, 1, 2], 2) == round(1 / 3, 6)
    assert alpha(coded([["yes", "yes"], ["yes", "yes"]]), [0, 1], 2) is None
    assert alpha(coded([["yes"], ["no"]]), [0, 1], 2) is None


def test_agreement_report() -> None:
    answers = [
        Answer(pair, pair, 10 * pair + who, who, "demonstrates", "neither", minimal, "gender")
        for pair, values in enumerate(UNITS)
        for who, minimal in enumerate(values)
    ]
    report = agreement(answers)
    assert (report["answers"], report["annotators"], report["pairs"]) == (11, 3, 4)
    minimal = report["questions"]["minimal"]
    assert minimal == {
        "items": 4,
        "percent_agreement": round(100 * 7 / 12, 6),
        "fleiss_kappa": 0.55,
        "fleiss_items": 3,
        "fleiss_raters": 3,
        "krippendorff_alpha": round(1 / 3, 6),
    }
    same = report["questions"]["sent_more"]
    assert same["percent_agreement"] == 100.0
    assert same["fleiss_kappa"] is None and same["krippendorff_alpha"] is None
    # Overall: 16 units, 44 values; codes per question kept apart: 11 D, 11 N, 6 yes, 5 no,
    # 11 gender -> sum n_c^2 = 424; disagreement only in minimal: 4;
    # alpha = 1 - 43 * 4 / (44^2 - 424) = 1 - 172/1512; percent = (12 + 7/3)/16 = 43/48.
    assert report["overall"] == {
        "items": 16,
        "percent_agreement": round(100 * 43 / 48, 6),
        "krippendorff_alpha": round(1 - 172 / 1512, 6),
    }


def test_no_answers() -> None:
    report = agreement([])
    assert report["overall"] == {"items": 0, "percent_agreement": None, "krippendorff_alpha": None}
