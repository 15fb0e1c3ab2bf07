"""In which order a push offers the flagged pairs, and how many it offers.

``id`` (the default) orders the tasks by pair id. ``precision`` puts first the pairs whose rules
were most precise in earlier rounds (see :mod:`curate.annotate.precision`), so that a limited
annotation budget goes where defects are likeliest:

- a rule's rank is the lower bound of the Wilson interval of its precision, then the precision
  itself (a rule right 40 times in 45 outranks one right once in once: (0.77, 0.89) against
  (0.21, 1.0));
- a rule no earlier round measured (no decided pair) ranks (0, 0), last: its interval is [0, 1];
- a pair's priority is the highest rank among its rule codes; ties go by ascending pair id.

Label Studio hands out tasks in import order under its default (sequential) sampling, and a push
imports its new tasks in this order, as does a manual import of tasks.json, which is written in
this order too. ``limit`` keeps the first N pairs of the order; the rest are not pushed.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from curate.errors import UsageError

if TYPE_CHECKING:
    from curate.annotate.precision import RulePrecision


class PushOrder(StrEnum):
    """The orders a push can offer pairs in."""

    id = "id"
    precision = "precision"


def task_codes(data: dict[str, Any]) -> list[str]:
    """The rule codes a task records (``finding_codes``, space-separated)."""
    value = data.get("finding_codes")
    return value.split() if isinstance(value, str) else []


def priority(data: dict[str, Any], measured: RulePrecision) -> tuple[float, float]:
    """A task's priority: the highest rank among its rule codes; (0, 0) without a known code."""
    return max((measured.rank(code) for code in task_codes(data)), default=(0.0, 0.0))


def order_tasks(
    tasks: Sequence[dict[str, Any]], measured: RulePrecision | None
) -> list[dict[str, Any]]:
    """``tasks`` by pair id, or by descending priority then pair id when ``measured`` is given."""
    from curate.annotate.tasks import (
        task_pair_id,  # not at the top: --order's enum is read by --help
    )

    def key(task: dict[str, Any]) -> tuple[float, float, int]:
        pair_id = task_pair_id(task["data"])
        pair = pair_id if pair_id is not None else -1
        if measured is None:
            return (0.0, 0.0, pair)
        low, share = priority(task["data"], measured)
        return (-low, -share, pair)

    return sorted(tasks, key=key)


def select(
    tasks: Sequence[dict[str, Any]], measured: RulePrecision | None, limit: int | None
) -> list[dict[str, Any]]:
    """The first ``limit`` tasks (all without a limit) in the push order."""
    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be at least 1, got {limit}")
    ordered = order_tasks(tasks, measured)
    return ordered if limit is None else ordered[:limit]
