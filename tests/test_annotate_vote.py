"""The CrowS-Pairs acceptance rule, decision by decision, without a server."""

from __future__ import annotations

import pytest

from curate.annotate.export import Answer, Snapshot, TaskInfo
from curate.annotate.vote import VoteRule, decide, direction_support, orientation, summary, tally
from curate.errors import UsageError

TASK = TaskInfo(1, 10, "Women can't drive.", "Men can't drive.", "gender", "stereo")
L = {"D": "demonstrates", "V": "violates", "N": "neither"}


def ans(
    i: int,
    code: str,
    minimal: str = "yes",
    bias: str = "gender",
    more: str | None = None,
    less: str | None = None,
) -> Answer:
    """An answer from annotator ``i``; ``code`` is the sent_more and sent_less label, e.g. "DN"."""
    return Answer(1, 10, 100 + i, i, L[code[0]], L[code[1]], minimal, bias, more, less)


def run(answers: list[Answer], **rule: object):
    return decide(TASK, answers, VoteRule(**rule), "r1")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("DN", "sent_more"), ("DV", "sent_more"), ("NV", "sent_more"),
        ("ND", "sent_less"), ("VD", "sent_less"), ("VN", "sent_less"),
        ("NN", "none"), ("DD", "none"), ("VV", "none"),
    ],
)  # fmt: skip
def test_orientation(code: str, expected: str) -> None:
    assert orientation(L[code[0]], L[code[1]]) == expected


def test_direction_support() -> None:
    assert direction_support("demonstrates", "neither") == {"stereo"}
    assert direction_support("neither", "violates") == {"antistereo"}
    assert direction_support("demonstrates", "violates") == {"stereo", "antistereo"}
    # Flipped: sent_less becomes sent_more.
    assert direction_support("neither", "demonstrates", flipped=True) == {"stereo"}


def test_keep() -> None:
    d = run([ans(1, "DN"), ans(2, "DN"), ans(3, "DV")])
    assert (d.action, d.n_annotators, d.round) == ("keep", 3, "r1")
    assert d.votes["stereotype"] == {"yes": 3, "no": 0}
    assert d.votes["more_stereotyping"] == {"sent_more": 3, "sent_less": 0, "none": 0}
    assert d.votes["direction"] == {"stereo": 3, "antistereo": 1}


def test_too_few_annotations_is_undecided() -> None:
    assert run([ans(1, "DN"), ans(2, "DN")]).action == "undecided"
    assert run([ans(1, "DN"), ans(2, "DN")], quorum=2).action == "keep"
    assert run([ans(1, "DN"), ans(2, "DN"), ans(3, "DN")], min_annotations=4).action == "undecided"
    assert run([]).reason == "0 usable annotation(s); at least 3 needed"


def test_drop_when_no_stereotype() -> None:
    d = run([ans(1, "NN"), ans(2, "NN"), ans(3, "DN"), ans(4, "DN")])
    assert d.action == "drop" and "2 of quorum 3 say a stereotype" in (d.reason or "")


def test_drop_when_no_agreement_on_the_more_stereotyping_sentence() -> None:
    d = run([ans(1, "DN"), ans(2, "DN"), ans(3, "ND"), ans(4, "DD")])
    assert d.action == "drop" and "sent_more 2, sent_less 1" in (d.reason or "")


def test_drop_when_not_minimal_without_correction() -> None:
    d = run([ans(1, "DN", "no"), ans(2, "DN", "no"), ans(3, "DN")])
    assert d.action == "drop" and "1 of quorum 3 say the sentences differ only" in (d.reason or "")


def test_fix_takes_the_correction_most_annotators_gave() -> None:
    fixed = "Men can't drive well."
    d = run(
        [
            ans(1, "DN", "no", less=fixed),
            ans(2, "DN", "no", less=fixed),
            ans(3, "DN", "no", less="Men drive."),
        ]
    )
    assert (d.action, d.sent_less, d.sent_more) == ("fix", fixed, None)
    assert d.votes["corrections"] == 3


def test_a_correction_equal_to_the_original_is_no_correction() -> None:
    d = run([ans(1, "DN", less="Men  can't drive. "), ans(2, "DN"), ans(3, "DN")])
    assert d.action == "keep" and d.votes["corrections"] == 0


def test_tied_corrections_are_undecided() -> None:
    d = run(
        [
            ans(1, "DN", more="Girls can't drive."),
            ans(2, "DN", more="Ladies can't drive."),
            ans(3, "DN"),
        ]
    )
    assert d.action == "undecided" and "tied" in (d.reason or "")


def test_swap_when_sent_less_is_more_stereotyping() -> None:
    d = run([ans(1, "ND"), ans(2, "VD"), ans(3, "ND")])
    assert (d.action, d.sent_more, d.sent_less) == ("fix", TASK.sent_less, TASK.sent_more)
    assert d.direction is None  # still stereo: the new sent_more demonstrates


def test_swap_with_correction_and_relabel() -> None:
    d = run(
        [
            ans(1, "VN", bias="age"),
            ans(2, "VN", bias="age", less="Boys can't drive."),
            ans(3, "VN", bias="age"),
        ]
    )
    # All three: sent_less more stereotyping. VN -> the new sent_less (old sent_more) violates.
    assert d.action == "fix"
    assert (d.sent_more, d.sent_less) == ("Boys can't drive.", TASK.sent_more)
    assert (d.bias_type, d.direction) == ("age", "antistereo")


def test_relabel_bias_type_and_direction() -> None:
    d = run([ans(1, "NV", bias="age"), ans(2, "NV", bias="age"), ans(3, "DV", bias="gender")])
    assert (d.action, d.bias_type, d.direction) == ("relabel", "age", "antistereo")
    assert d.votes["bias_type"] == {"age": 2, "gender": 1}
    assert d.reason == "bias_type gender -> age and direction stereo -> antistereo"


def test_bias_type_tie_or_none_is_undecided() -> None:
    assert (
        run(
            [
                ans(1, "DN", bias="age"),
                ans(2, "DN", bias="race-color"),
                ans(3, "DN", bias="gender"),
                ans(4, "DN", bias="age"),
                ans(5, "DN", bias="gender"),
            ]
        ).action
        == "undecided"
    )
    d = run([ans(1, "DN", bias="none"), ans(2, "DN", bias="none"), ans(3, "DN")])
    assert d.action == "undecided" and "none of the bias types" in (d.reason or "")


def test_writer_counts_as_an_implicit_yes() -> None:
    answers = [ans(1, "DN"), ans(2, "DN", "no"), ans(3, "ND")]
    assert run(answers).action == "drop"
    d = run(answers, writer_votes=True, quorum=2)
    assert d.action == "keep" and d.votes["writer"]["bias_type"] == "gender"
    # The paper's 3-of-6: two validators + the writer.
    assert run([ans(1, "DN"), ans(2, "DN")], writer_votes=True, min_annotations=2).action == "keep"


def test_bad_rule() -> None:
    with pytest.raises(UsageError, match="--quorum must be at least 1"):
        VoteRule(quorum=0)


def test_tally_decides_every_task() -> None:
    other = TaskInfo(2, 11, "A b.", "C b.", "age", "stereo")
    snap = Snapshot("r1", "e", [TASK, other], [ans(1, "DN"), ans(2, "DN"), ans(3, "DN")])
    decisions = tally(snap, VoteRule())
    assert [(d.pair_id, d.action) for d in decisions] == [(1, "keep"), (2, "undecided")]
    assert summary(decisions) == {"keep": 1, "fix": 0, "relabel": 0, "drop": 0, "undecided": 1}
