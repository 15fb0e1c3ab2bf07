"""Rule precision from tallied rounds: which decisions count, how rounds pool, the intervals."""

from __future__ import annotations

import pytest

from curate.annotate.precision import PairOutcome, measure, pool, precision_of
from curate.errors import UsageError


def outcome(pair_id: int, action: str, *codes: str, round_name: str = "r1") -> PairOutcome:
    return PairOutcome(pair_id, round_name, codes, action)


def test_undecided_pairs_are_flagged_but_not_decided() -> None:
    # keep, fix, undecided, drop: decided 3, changed 2 -> 2/3. Wilson, z^2 = 3.841459, n = 3:
    # (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
    # = (2/3 + 0.640243 -+ 1.959964 sqrt(2/27 + 0.106707)) / (1 + 1.280486)
    # = (1.306910 -+ 0.833345) / 2.280486 = [0.207660, 0.938508]
    got = precision_of(
        [outcome(1, "keep"), outcome(2, "fix"), outcome(3, "undecided"), outcome(4, "drop")]
    )
    assert (got.flagged, got.decided, got.defective) == (4, 3, 2)
    assert got.precision == pytest.approx(0.666667, abs=1e-6)
    assert got.low == pytest.approx(0.207660, abs=1.5e-6)
    assert got.high == pytest.approx(0.938508, abs=1.5e-6)
    assert got.actions == {"keep": 1, "fix": 1, "drop": 1, "relabel": 0, "undecided": 1}


def test_nothing_decided_has_no_figure_and_ranks_last() -> None:
    got = precision_of([outcome(1, "undecided")])
    assert (got.decided, got.precision, got.low, got.high) == (0, None, None, None)
    assert got.rank == (0.0, 0.0)


def test_a_later_decision_replaces_an_earlier_one_but_undecided_does_not() -> None:
    r1 = [outcome(1, "keep", "A"), outcome(2, "fix", "A"), outcome(3, "undecided", "A")]
    r2 = [
        outcome(1, "drop", "B", round_name="r2"),
        outcome(2, "undecided", "B", round_name="r2"),
        outcome(3, "undecided", "B", round_name="r2"),
    ]
    pooled = pool([r1, r2])
    assert [(o.pair_id, o.round, o.action, o.codes) for o in pooled] == [
        (1, "r2", "drop", ("B",)),
        (2, "r1", "fix", ("A",)),
        (3, "r2", "undecided", ("B",)),
    ]


def test_measure_per_code_and_any_rule() -> None:
    measured = measure(
        [outcome(1, "keep", "B", "A"), outcome(2, "relabel", "A"), outcome(3, "keep")], ["r1"]
    )
    assert list(measured.rules) == ["A", "B"]
    assert (measured.rules["A"].decided, measured.rules["A"].defective) == (2, 1)
    assert (measured.rules["B"].decided, measured.rules["B"].defective) == (1, 0)
    # A pair without rule codes (chosen by hand) is no rule's flag.
    assert (measured.any_rule.flagged, measured.any_rule.defective) == (2, 1)
    assert measured.rank("Z") == (0.0, 0.0)
    with pytest.raises(UsageError):
        measure([], ["r1"], confidence=1.0)
