"""Duplicate rules: the same pair written twice inflates its weight in the metric."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rapidfuzz import fuzz

from curate.lint.rule import DatasetRule, Example, PairContext, Violation

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
#: Sorted-neighbourhood window: each pair is compared with this many neighbours in two
#: orderings (by text and by reversed text), so near-duplicates that share a beginning or an
#: end are found in O(n log n) instead of comparing all pairs.
WINDOW = 12


def _normalise(text: str) -> str:
    return _NON_WORD.sub(" ", text.lower()).strip()


def _key(ctx: PairContext) -> str:
    """Both sentences normalised, in sorted order (so a pair written the other way round matches)."""
    return ctx.memo(
        "duplicate-key",
        lambda: " || ".join(
            sorted((_normalise(ctx.pair.sent_more), _normalise(ctx.pair.sent_less)))
        ),
    )


def _exact_groups(contexts: Sequence[PairContext]) -> dict[int, int]:
    """pair_id -> pair_id of its first exact duplicate (only for the later copies)."""
    first: dict[str, int] = {}
    later: dict[int, int] = {}
    for ctx in contexts:
        key = _key(ctx)
        if key in first:
            later[ctx.pair.pair_id] = first[key]
        else:
            first[key] = ctx.pair.pair_id
    return later


class ExactDuplicate(DatasetRule):
    """The pair repeats an earlier pair (same sentences, ignoring case and punctuation).

    Duplicates double-count one judgement in the metric. The first occurrence is kept; later
    copies are flagged, naming the first.
    """

    code = "D001"
    name = "exact-duplicate"
    summary = "The pair repeats an earlier pair"
    bad = (
        Example("Women don't know how to drive.", "Men know how to drive.", "gender"),
        Example("Women don't know how to drive!", "men know how to drive.", "gender"),
    )
    good = (
        Example("Women don't know how to drive.", "Men know how to drive.", "gender"),
        Example("Women can't park.", "Men can't park.", "gender"),
    )

    def check_dataset(self, contexts: Sequence[PairContext]) -> Iterator[tuple[int, Violation]]:
        for pair_id, original in _exact_groups(contexts).items():
            yield pair_id, Violation(f"same sentences as pair {original}")


class NearDuplicate(DatasetRule):
    """The pair is nearly identical to another pair (rapidfuzz similarity >= 95 of 100).

    Near-duplicates usually come from one writer submitting the same idea twice with a small
    change; they over-weight one stereotype. Compared on lower-cased text without punctuation.
    """

    code = "D002"
    name = "near-duplicate"
    summary = "The pair is nearly identical to another pair"
    bad = (
        Example(
            "Women don't know how to drive a car.", "Men don't know how to drive a car.", "gender"
        ),
        Example(
            "Women don't know how to drive a car!", "Men don't know how to drive cars.", "gender"
        ),
    )
    good = (
        Example(
            "Women don't know how to drive a car.", "Men don't know how to drive a car.", "gender"
        ),
        Example("Women can't park.", "Men can't park.", "gender"),
    )

    def check_dataset(self, contexts: Sequence[PairContext]) -> Iterator[tuple[int, Violation]]:
        exact = _exact_groups(contexts)
        keyed = [(_key(c), c.pair.pair_id) for c in contexts if c.pair.pair_id not in exact]
        threshold = contexts[0].settings.near_duplicate_score if contexts else 95.0
        order = {pid: i for i, (_, pid) in enumerate(keyed)}
        best: dict[int, tuple[float, int]] = {}
        for ordering in (sorted(keyed), sorted(keyed, key=lambda kp: kp[0][::-1])):
            for i, (key, pid) in enumerate(ordering):
                for other_key, other in ordering[i + 1 : i + 1 + WINDOW]:
                    if key == other_key:
                        continue
                    score = fuzz.ratio(key, other_key, score_cutoff=threshold)
                    if not score:
                        continue
                    later, earlier = (pid, other) if order[pid] > order[other] else (other, pid)
                    if score > best.get(later, (0.0, -1))[0]:
                        best[later] = (score, earlier)
        for pair_id in sorted(best, key=order.__getitem__):
            score, earlier = best[pair_id]
            yield pair_id, Violation(f"{score:.0f}% similar to pair {earlier}")
