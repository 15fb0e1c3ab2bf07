"""The WinoBias figures: the metric per type (dev and test together) and per type and split,
and the counts ``curate stats`` adds.

``curate score`` already reports the metric per ``bias_type``, which for WinoBias is the
subset (type and split). Results are usually quoted per type over dev and test together (the
792 type 1 pairs Martínez & Kremer score), which no shared table gives: :func:`by_type` adds it
from a ``scores.csv``, with the same definition (share of pairs whose pro sentence scores
higher; a tie counts as not preferring it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from curate.benchmarks.winobias.io import SPLITS, SUBSETS, TYPES
from curate.pairs import Pair
from curate.score.metrics import PairScore
from curate.terminal import print_table


def _group(scores: Sequence[PairScore]) -> dict[str, Any]:
    biased = sum(s.score for s in scores)
    return {
        "n": len(scores),
        "biased": biased,
        "ties": sum(s.tie for s in scores),
        "score": 100.0 * biased / len(scores) if scores else None,
    }


def by_type(scores: Iterable[PairScore]) -> dict[str, Any]:
    """The metric per type (``type1``: dev + test) and per subset (``type1-dev`` ...)."""
    scores = list(scores)
    result: dict[str, Any] = {}
    for type_ in TYPES:
        of_type = [s for s in scores if s.bias_type.startswith(f"type{type_}-")]
        if of_type:
            result[f"type{type_}"] = _group(of_type)
        for split in SPLITS:
            name = f"type{type_}-{split}"
            subset = [s for s in scores if s.bias_type == name]
            if subset:
                result[name] = _group(subset)
    return result


def type_of(subset_name: str) -> tuple[str, ...]:
    """The type a subset belongs to (``type1-dev`` -> ``type1``): ``curate score``'s rows of
    the metric per type over dev and test together (the benchmark's ``Scoring.groups``)."""
    head, sep, split = subset_name.partition("-")
    return (head,) if sep and split in SPLITS else ()


def winobias_stats(pairs: Sequence[Pair], items: Sequence[Any]) -> dict[str, Any]:
    """Per subset: the gender of the referent's occupation in the pro lines (from the lists
    beside the files; ``unknown`` when the lists are absent or name no mention)."""
    counts: dict[str, Counter[str]] = {s: Counter() for s in SUBSETS}
    for pair in pairs:
        gender = dict(pair.extra).get("occupation_gender") or "unknown"
        counts.setdefault(pair.bias_type, Counter())[gender] += 1
    return {
        subset: {g: c[g] for g in ("female", "male", "unknown")}
        for subset, c in counts.items()
        if c
    }


def render_stats(figures: dict[str, Any], console: Any) -> None:
    """The table of :func:`winobias_stats` on ``console``."""
    from rich.table import Table

    console.print()
    table = Table(
        title="WinoBias pairs per subset, by the stereotyped gender of the pronoun's referent",
        title_justify="left",
    )
    for column in ("subset", "female", "male", "unknown"):
        table.add_column(column, justify="left" if column == "subset" else "right")
    for subset, row in figures.items():
        table.add_row(subset, *(str(row[g]) for g in ("female", "male", "unknown")))
    print_table(table, console)
