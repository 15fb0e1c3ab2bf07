"""The push order: by pair id, or by the precision of the pairs' rules in earlier rounds."""

from __future__ import annotations

from curate.annotate.order import order_tasks, priority, select
from curate.annotate.precision import PairOutcome, measure


def task(pair_id: int, codes: str) -> dict:
    return {"data": {"pair_id": pair_id, "finding_codes": codes}}


def outcomes(code: str, changed: int, kept: int, start: int) -> list[PairOutcome]:
    actions = ["fix"] * changed + ["keep"] * kept
    return [PairOutcome(start + i, "r1", (code,), a) for i, a in enumerate(actions)]


# A: 40 of 45 -> (0.765009, 0.888889); B: 1 of 1 -> (0.206549, 1.0): the lower bound decides.
# Wilson lower bound of 40/45, z^2 = 3.841459: (0.888889 + 0.042683 - 1.959964
# sqrt(0.002195 + 0.000474)) / 1.085366 = (0.931572 - 0.101257) / 1.085366 = 0.765009.
MEASURED = measure(outcomes("A", 40, 5, 0) + outcomes("B", 1, 0, 100), ["r1"])


def test_priority_is_the_best_rule_of_the_pair() -> None:
    assert priority(task(1, "B A")["data"], MEASURED) == (
        MEASURED.rules["A"].low,
        MEASURED.rules["A"].precision,
    )
    assert round(MEASURED.rules["A"].low, 6) == 0.765009
    assert priority(task(1, "NEW")["data"], MEASURED) == (0.0, 0.0)
    assert priority({"pair_id": 1}, MEASURED) == (0.0, 0.0)


def test_order_by_precision_then_pair_id() -> None:
    tasks = [task(5, "NEW"), task(4, "B"), task(3, "A"), task(2, "B NEW"), task(1, "A B")]
    assert [t["data"]["pair_id"] for t in order_tasks(tasks, MEASURED)] == [1, 3, 2, 4, 5]
    assert [t["data"]["pair_id"] for t in order_tasks(tasks, None)] == [1, 2, 3, 4, 5]
    assert [t["data"]["pair_id"] for t in select(tasks, MEASURED, 2)] == [1, 3]
    assert len(select(tasks, None, None)) == 5
