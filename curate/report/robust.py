"""Robust flips: the cleaning's effect on verdicts that does not depend on the model or metric.

Each column of a report (one model scored with one method) counts its own flips: edited pairs
whose verdict (is the more stereotyping sentence preferred?) differs between the versions. A
pair that flips under *every* column flips whatever the model and the metric, so the edit, not
a quirk of one scorer, moved it; a pair that flips under *only one* column (of several) is the
opposite: its flip is a property of that scorer.
"""

from __future__ import annotations

from collections.abc import Sequence

from curate.report.schema import ModelSection, RobustFlipsSection


def robust_flips(columns: Sequence[ModelSection]) -> RobustFlipsSection:
    """The pairs that flip under every column and those that flip under exactly one.

    With a single column both lists would repeat its flip table, so ``only_one`` is left empty
    (the notion needs something to compare with); ``every`` then lists that column's flips.
    """
    labels = [c["label"] for c in columns]
    changes: dict[int, dict[str, str]] = {}
    for column in columns:
        for flip in column["flips"]["pairs"]:
            changes.setdefault(flip["pair_id"], {})[column["label"]] = flip["change"]
    every = [
        {"pair_id": pair_id, "changes": [by_column[label] for label in labels]}
        for pair_id, by_column in sorted(changes.items())
        if labels and len(by_column) == len(labels)
    ]
    only_one = [
        {"pair_id": pair_id, "column": label, "change": change}
        for pair_id, by_column in sorted(changes.items())
        if len(labels) > 1 and len(by_column) == 1
        for label, change in by_column.items()
    ]
    return {"columns": labels, "every": every, "only_one": only_one}
