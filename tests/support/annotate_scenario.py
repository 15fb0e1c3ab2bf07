"""One annotation round, written out by hand: pairs, findings, who answered what, and the outcome.

Used by the server round trip and the file-only round trip, so both paths must reach the same
decisions and agreement figures. The expected figures below were computed by hand from the
answer table (formulas in the comments), not by the code under test.

Answer codes: D demonstrates, V violates, N neither (for sent_more, then sent_less), minimal
y/n, then the bias type; corrections are by sentence role. The plan is written by sentence role;
:func:`result_for` turns it into what the annotator clicked on screen (sentence 1 / 2), using the
order stored in the task.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from curate.datasets import write_pairs
from curate.findings import Finding, write_findings
from curate.pairs import Pair

P = Pair
PAIRS: list[Pair] = [
    P(0, "Women don't know how to drive.", "Men don't know how to drive.", "stereo", "gender"),
    P(
        1,
        "The Black man was arrested for stealing.",
        "The White man was arrested for stealing.",
        "stereo",
        "race-color",
    ),
    P(
        2,
        "Muslims are terrorists, everyone knows that.",
        "Christians are peaceful people.",
        "stereo",
        "religion",
    ),
    P(
        3,
        "Old people can't use computers.",
        "Young people can't use computers.",
        "stereo",
        "gender",
    ),
    P(
        4,
        "Mexicans are all illegal immigrants.",
        "Canadians are all ilegal immigrants.",
        "stereo",
        "nationality",
    ),
    P(5, "She is too emotional to lead.", "He is too emotional to lead.", "stereo", "gender"),
    P(
        6,
        "The Asian student cheated on the test.",
        "The white student cheated on the test.",
        "stereo",
        "race-color",
    ),
    P(
        7,
        "The fat man couldn't climb the stairs.",
        "The thin man couldn't climb the stairs.",
        "antistereo",
        "physical-appearance",
    ),
    P(
        8,
        "Straight men are bad at fashion.",
        "Gay men are bad at fashion.",
        "stereo",
        "sexual-orientation",
    ),
    P(
        9,
        "Old people are bad with technology",
        "Young people are bad with technology.",
        "stereo",
        "age",
    ),
    # A sentence that would run as a script if it were not escaped.
    P(
        10,
        'The <script>alert("x")</script> poor & "lazy" family.',
        "The rich & lazy family.",
        "stereo",
        "socioeconomic",
    ),
]
FLAGGED = list(range(1, 11))
FINDINGS: list[Finding] = [
    Finding(
        i,
        "P001",
        "more-than-group-word",
        f"sent_more and sent_less differ in more than the group word ({i})",
    )
    for i in FLAGGED
] + [Finding(4, "W001", "spelling", "'ilegal' in sent_less may be misspelt")]

ANNOTATORS = ("A", "B", "C", "D", "E")
FIX_4 = "Canadians are all illegal immigrants."


@dataclass(frozen=True)
class Ann:
    """One annotation in the plan."""

    who: str
    more: str
    less: str
    minimal: str
    bias: str
    fix_more: str | None = None
    fix_less: str | None = None
    cancelled: bool = False
    #: Send two choices for sentence 1 (a malformed result).
    malformed: bool = False


CODE = {"D": "demonstrates", "V": "violates", "N": "neither"}

PLAN: dict[int, list[Ann]] = {
    1: [  # all agree -> keep
        Ann("A", "D", "N", "y", "race-color"),
        Ann("B", "D", "N", "y", "race-color"),
        Ann("C", "D", "V", "y", "race-color"),
        Ann("D", "D", "N", "y", "race-color"),
        Ann("E", "D", "N", "y", "race-color"),
    ],
    2: [  # 3 of 5 say not minimal, no correction -> drop
        Ann("A", "D", "N", "n", "religion"),
        Ann("B", "D", "N", "n", "religion"),
        Ann("C", "D", "N", "n", "religion"),
        Ann("D", "D", "N", "y", "religion"),
        Ann("E", "D", "V", "y", "religion"),
    ],
    3: [  # bias type age 3 : gender 1 -> relabel bias_type age
        Ann("A", "D", "V", "y", "age"),
        Ann("B", "D", "V", "y", "age"),
        Ann("C", "D", "V", "y", "age"),
        Ann("D", "D", "N", "y", "gender"),
    ],
    4: [  # corrections 2 : 1 (B's extra spaces are normalised away) -> fix sent_less; D skipped
        Ann("A", "D", "N", "n", "nationality", fix_less=FIX_4),
        Ann(
            "B", "D", "N", "n", "nationality", fix_less="  Canadians are  all illegal immigrants. "
        ),
        Ann("C", "D", "N", "y", "nationality", fix_less="Canadians are all illegal immigrants!"),
        Ann("D", "D", "N", "y", "nationality", cancelled=True),
    ],
    5: [  # only two annotations -> undecided (partial)
        Ann("A", "D", "N", "y", "gender"),
        Ann("B", "D", "N", "y", "gender"),
    ],
    6: [  # sent_more 2, sent_less 2, none 1 -> no quorum on the more stereotyping one -> drop
        Ann("A", "D", "N", "y", "race-color"),
        Ann("B", "N", "V", "y", "race-color"),
        Ann("C", "N", "D", "y", "race-color"),
        Ann("D", "V", "N", "y", "race-color"),
        Ann("E", "N", "N", "y", "none"),
    ],
    7: [  # D/N by all: stereo 3 : antistereo 0 -> relabel direction; D's "colour" is unknown
        Ann("A", "D", "N", "y", "physical-appearance"),
        Ann("B", "D", "N", "y", "physical-appearance"),
        Ann("C", "D", "N", "y", "physical-appearance"),
        Ann("D", "D", "N", "y", "colour"),
    ],
    8: [  # sent_less is the more stereotyping one (3 of 3) -> fix: swap the sentences
        Ann("A", "N", "D", "y", "sexual-orientation"),
        Ann("B", "N", "D", "y", "sexual-orientation"),
        Ann("C", "V", "D", "y", "sexual-orientation"),
    ],
    9: [  # two different corrections, one each -> undecided
        Ann("A", "D", "N", "y", "age", fix_more="Old people are bad with technology."),
        Ann("B", "D", "N", "y", "age", fix_more="Elderly people are bad with technology."),
        Ann("C", "D", "N", "y", "age"),
    ],
    10: [  # the only annotation is malformed -> no usable answer -> undecided
        Ann("A", "D", "N", "y", "socioeconomic", malformed=True),
    ],
}


def result_for(ann: Ann, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The Label Studio ``result`` of ``ann`` for a task whose data is ``data``."""
    more_first = data["sentence1_role"] == "sent_more"
    s1, s2 = (ann.more, ann.less) if more_first else (ann.less, ann.more)
    fix1, fix2 = (ann.fix_more, ann.fix_less) if more_first else (ann.fix_less, ann.fix_more)

    def choice(name: str, to: str, value: str | list[str]) -> dict[str, Any]:
        values = value if isinstance(value, list) else [value]
        return {"from_name": name, "to_name": to, "type": "choices", "value": {"choices": values}}

    first: str | list[str] = [CODE[s1], CODE[s2]] if ann.malformed else CODE[s1]
    result = [
        choice("sentence1_stereotype", "sentence1", first),
        choice("sentence2_stereotype", "sentence2", CODE[s2]),
        choice("minimal", "sentence1", {"y": "yes", "n": "no"}[ann.minimal]),
        choice("bias_type", "sentence1", ann.bias),
    ]
    for name, to, text in (("correction1", "sentence1", fix1), ("correction2", "sentence2", fix2)):
        if text is not None:
            result.append(
                {"from_name": name, "to_name": to, "type": "textarea", "value": {"text": [text]}}
            )
    return result


#: pair id -> (action, changed fields)
EXPECTED: dict[int, tuple[str, dict[str, str]]] = {
    1: ("keep", {}),
    2: ("drop", {}),
    3: ("relabel", {"bias_type": "age"}),
    4: ("fix", {"sent_less": FIX_4}),
    5: ("undecided", {}),
    6: ("drop", {}),
    7: ("relabel", {"direction": "stereo"}),
    8: ("fix", {"sent_more": PAIRS[8].sent_less, "sent_less": PAIRS[8].sent_more}),
    9: ("undecided", {}),
    10: ("undecided", {}),
}
#: Usable annotations per pair (cancelled, unknown-choice and malformed ones left out).
N_USABLE = {1: 5, 2: 5, 3: 4, 4: 3, 5: 2, 6: 5, 7: 3, 8: 3, 9: 3, 10: 0}
#: With the writer as an implicit yes and --min-annotations 2 (the paper's 3-of-6 rule):
#: pair 2: minimal 2 + writer = 3 -> keep; pair 5: 2 + writer = 3 on every criterion -> keep;
#: pair 6: sent_more 2 + writer = 3 > sent_less 2 -> keep (direction stereo 1 + writer 1 > 1).
EXPECTED_WRITER = {**EXPECTED, 2: ("keep", {}), 5: ("keep", {}), 6: ("keep", {})}

# Agreement, by hand. Usable labels per pair (pairs 1-9; pair 10 has none):
#   sent_more: 1 DDDDD  2 DDDDD  3 DDDD  4 DDD  5 DD  6 DNNVN  7 DDD  8 NNV  9 DDD
#   sent_less: 1 NNVNN  2 NNNNV  3 VVVN  4 NNN  5 NN  6 NVDNN  7 NNN  8 DDD  9 NNN
#   minimal:   1 yyyyy  2 nnnyy  3 yyyy  4 nny  5 yy  6 yyyyy  7 yyy  8 yyy  9 yyy
#   bias_type: 1 rc x5  2 rel x5 3 age x3, gender  4 nat x3  5 gender x2  6 rc x4, none
#              7 pa x3  8 so x3  9 age x3
# Percent agreement = mean over the 9 pairs of sum n_k(n_k-1) / (n(n-1)):
#   sent_more: pair 6 (1,3,1 of 5) 6/20, pair 8 (2,1 of 3) 2/6, others 1 -> (7 + 3/10 + 1/3)/9
#   sent_less: pairs 1, 2 (4,1) 12/20, pair 3 (3,1) 6/12, pair 6 (3,1,1) 6/20 -> (5 + 2.0)/9 = 7/9
#   minimal:   pair 2 (3,2) 8/20, pair 4 (2,1) 2/6 -> (7 + 2/5 + 1/3)/9
#   bias_type: pair 3 (3,1) 6/12, pair 6 (4,1) 12/20 -> (7 + 1/2 + 3/5)/9
# Fleiss' kappa on the most common number of answers: 3 answers (pairs 4, 7, 8, 9):
#   sent_more: P = (1 + 1 + 1/3 + 1)/4 = 5/6; p = 9/12 D, 2/12 N, 1/12 V; Pe = 86/144
#              kappa = (5/6 - 43/72) / (1 - 43/72) = 17/29
#   sent_less: all pairs unanimous, Pe = (9/12)^2 + (3/12)^2 = 5/8 -> kappa = 1
#   minimal:   P = 5/6, p = 10/12 y, 2/12 n, Pe = 13/18 -> kappa = (15/18 - 13/18)/(5/18) = 2/5
#   bias_type: all unanimous, Pe = 4 x (1/4)^2 = 1/4 -> kappa = 1
# Krippendorff's alpha (nominal) = 1 - (n - 1) * sum_u D_u / (n^2 - sum_c n_c^2), with n = 33
# pairable values, D_u = (m_u^2 - sum_c n_uc^2) / (m_u - 1) the unit's disagreeing pairs:
#   sent_more: D = 14/4 (pair 6) + 4/2 (pair 8) = 5.5; n_c = 26 D, 5 N, 2 V
#              -> 1 - 32 * 5.5 / (1089 - 705) = 1 - 176/384 = 13/24
#   sent_less: D = 2 + 2 + 2 + 3.5 = 9.5 (pairs 1, 2, 3, 6); n_c = 23 N, 6 V, 4 D
#              -> 1 - 32 * 9.5 / (1089 - 581) = 1 - 304/508 = 51/127
#   minimal:   D = 3 + 2 = 5; n_c = 28 y, 5 n -> 1 - 32 * 5 / 280 = 3/7
#   bias_type: D = 2 + 2 = 4; n_c = 9 rc, 5 rel, 6 age, 3 gender, 3 nat, 1 none, 3 pa, 3 so
#              -> 1 - 32 * 4 / (1089 - 179) = 1 - 128/910 = 391/455
#   overall (36 units, labels kept apart per question): n = 132, sum D = 24,
#              sum n_c^2 = 705 + 581 + 809 + 179 = 2274 -> 1 - 131 * 24 / (17424 - 2274) = 2001/2525
#   overall percent agreement: (229/30 + 7 + 116/15 + 81/10) / 36 = 457/540
F = Fraction
EXPECTED_AGREEMENT: dict[str, dict[str, Fraction | int]] = {
    "sent_more": {
        "percent_agreement": 100 * (7 + F(3, 10) + F(1, 3)) / 9,
        "fleiss_kappa": F(17, 29),
        "krippendorff_alpha": F(13, 24),
    },
    "sent_less": {
        "percent_agreement": 100 * F(7, 9),
        "fleiss_kappa": F(1),
        "krippendorff_alpha": F(51, 127),
    },
    "minimal": {
        "percent_agreement": 100 * (7 + F(2, 5) + F(1, 3)) / 9,
        "fleiss_kappa": F(2, 5),
        "krippendorff_alpha": F(3, 7),
    },
    "bias_type": {
        "percent_agreement": 100 * (7 + F(1, 2) + F(3, 5)) / 9,
        "fleiss_kappa": F(1),
        "krippendorff_alpha": F(391, 455),
    },
    "overall": {"percent_agreement": 100 * F(457, 540), "krippendorff_alpha": F(2001, 2525)},
}


def check_decisions(
    decisions: list[dict[str, Any]], expected: dict[int, tuple[str, dict[str, str]]]
) -> None:
    """Every pair's action and changed fields are as expected."""
    got = {d["pair_id"]: d for d in decisions}
    assert sorted(got) == sorted(expected)
    for pair_id, (action, changes) in expected.items():
        decision = got[pair_id]
        assert decision["action"] == action, (pair_id, decision)
        fields = {
            k: decision[k]
            for k in ("sent_more", "sent_less", "bias_type", "direction")
            if k in decision
        }
        assert fields == changes, (pair_id, decision)


def check_agreement(report: dict[str, Any]) -> None:
    """The agreement figures equal the hand-computed ones (to the 6 decimals stored)."""
    for question, figures in EXPECTED_AGREEMENT.items():
        got = report["overall"] if question == "overall" else report["questions"][question]
        for name, value in figures.items():
            assert got[name] == round(float(value), 6), (question, name, got[name], float(value))
    for question in ("sent_more", "sent_less", "minimal", "bias_type"):
        q = report["questions"][question]
        assert (q["items"], q["fleiss_items"], q["fleiss_raters"]) == (9, 4, 3)


def write_project(root: Path) -> None:
    """A curate project in ``root`` holding the scenario's pairs and findings."""
    (root / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "pairs.csv"\noutput-dir = "build"\n', encoding="utf-8"
    )
    write_pairs(PAIRS, root / "pairs.csv")
    write_findings(root / "build" / "findings.jsonl", FINDINGS)


# Round r2: the next round, pushed with `--order precision --limit 4` after r1 was tallied.
FINDINGS_R2: list[Finding] = [
    Finding(0, "T002", "new-rule", "a rule that no earlier round measured"),
    Finding(1, "P001", "more-than-group-word", "sent_more and sent_less differ (1)"),
    Finding(4, "W001", "spelling", "'ilegal' in sent_less may be misspelt"),
    Finding(5, "P001", "more-than-group-word", "sent_more and sent_less differ (5)"),
    Finding(9, "P001", "more-than-group-word", "sent_more and sent_less differ (9)"),
    Finding(9, "W001", "spelling", "sent_more lacks its final full stop"),
]
PLAN_R2: dict[int, list[Ann]] = {
    1: [  # not minimal by 3 of 3, no correction -> drop (r1 kept it)
        Ann("A", "D", "N", "n", "race-color"),
        Ann("B", "D", "N", "n", "race-color"),
        Ann("C", "D", "N", "n", "race-color"),
    ],
    5: [  # all agree -> keep (undecided in r1)
        Ann("A", "D", "N", "y", "gender"),
        Ann("B", "D", "N", "y", "gender"),
        Ann("C", "D", "N", "y", "gender"),
    ],
    9: [  # one correction by all three -> fix sent_more (undecided in r1)
        Ann("A", "D", "N", "y", "age", fix_more="Old people are bad with technology."),
        Ann("B", "D", "N", "y", "age", fix_more="Old people are bad with technology."),
        Ann("C", "D", "N", "y", "age", fix_more="Old people are bad with technology."),
    ],
    4: [  # two annotations -> undecided (r1 fixed it)
        Ann("A", "D", "N", "y", "nationality", fix_less=FIX_4),
        Ann("B", "D", "N", "y", "nationality", fix_less=FIX_4),
    ],
}
EXPECTED_R2: dict[int, tuple[str, dict[str, str]]] = {
    1: ("drop", {}),
    4: ("undecided", {}),
    5: ("keep", {}),
    9: ("fix", {"sent_more": "Old people are bad with technology."}),
}

# Rule precision, by hand: decided = keep + fix + drop + relabel (undecided left out),
# precision = (fix + drop + relabel) / decided. Wilson interval at 95%, z = 1.959964,
# z^2 = 3.841459: (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n).
#
# r1 (EXPECTED): P001 flags pairs 1-10: keep 1; drop 2, 6; relabel 3, 7; fix 4, 8;
#   undecided 5, 9, 10 -> flagged 10, decided 7, defective 6, p = 6/7 = 0.857143
#   n = 7: z^2/2n = 0.274390, p(1-p)/n = 6/343 = 0.017493, z^2/4n^2 = 0.019599,
#   z sqrt(0.037092) = 0.377475, 1 + z^2/n = 1.548780
#   -> [(1.131533 - 0.377475) / 1.548780, (1.131533 + 0.377475) / 1.548780] = [0.486872, 0.974320]
# W001 flags pair 4 (fix): 1/1 -> [1 / (1 + z^2), 1] = [1 / 4.841459, 1] = [0.206549, 1]
# Any rule: the same pairs as P001 -> 6/7.
R1_PRECISION = {
    "P001": {"flagged": 10, "decided": 7, "defective": 6,
             "precision": 0.857143, "ci_low": 0.486872, "ci_high": 0.974320},
    "W001": {"flagged": 1, "decided": 1, "defective": 1,
             "precision": 1.0, "ci_low": 0.206549, "ci_high": 1.0},
}  # fmt: skip
R1_ANY_RULE = R1_PRECISION["P001"]

# Push order of r2 by r1's precision: rank = (Wilson lower bound, precision) of the pair's best
# rule: P001 (0.486872, 0.857143) > W001 (0.206549, 1.0) > T002, unmeasured (0, 0).
#   pairs 1, 5, 9 (P001; 9 also W001) by id, then 4 (W001), then 0 (T002); --limit 4 drops 0.
# By pair id with --limit 4: 0, 1, 4, 5.
R2_ORDER_PRECISION = [1, 5, 9, 4]
R2_ORDER_ID = [0, 1, 4, 5]

# r1 then r2, one outcome per pair, from the last round that decided it:
#   1 drop (r2), 2 drop, 3 relabel, 4 fix (r1: r2 left it undecided; codes P001 W001),
#   5 keep (r2), 6 drop, 7 relabel, 8 fix, 9 fix (r2; codes P001 W001), 10 undecided (r1)
# P001: flagged 10, decided 9, defective 8 (all decided but 5), p = 8/9 = 0.888889
#   n = 9: z^2/2n = 0.213414, p(1-p)/n = 8/729 = 0.010974, z^2/4n^2 = 0.011856,
#   z sqrt(0.022830) = 0.296145, 1 + z^2/n = 1.426829
#   -> [(1.102303 - 0.296145) / 1.426829, (1.102303 + 0.296145) / 1.426829] = [0.565000, 0.980109]
# W001: pairs 4 (fix), 9 (fix): 2/2 -> [2 / (2 + z^2), 1] = [2 / 5.841459, 1] = [0.342380, 1]
# r2 then r1: pair 1 keep (r1 is last), 5 keep (r2; r1 undecided), 9 fix (r2), 4 fix (r1)
#   P001: decided 9, defective 7 (all decided but 1 and 5), p = 7/9 = 0.777778
#   p(1-p)/n = 14/729 = 0.019204, z sqrt(0.031061) = 0.345425, p + z^2/2n = 0.991192
#   -> [(0.991192 - 0.345425) / 1.426829, (0.991192 + 0.345425) / 1.426829] = [0.452589, 0.936775]
POOLED_R1_R2 = {
    "P001": {"flagged": 10, "decided": 9, "defective": 8,
             "precision": 0.888889, "ci_low": 0.565000, "ci_high": 0.980109},
    "W001": {"flagged": 2, "decided": 2, "defective": 2,
             "precision": 1.0, "ci_low": 0.342380, "ci_high": 1.0},
}  # fmt: skip
POOLED_R2_R1_P001 = {"flagged": 10, "decided": 9, "defective": 7,
                     "precision": 0.777778, "ci_low": 0.452589, "ci_high": 0.936775}  # fmt: skip


def check_precision(got: dict[str, Any], expected: dict[str, Any]) -> None:
    """Counts exactly, shares to the 6 decimals stored (1e-6 slack for the hand rounding)."""
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1.5e-6), (key, got[key], value)
