"""Dataset statistics a curator looks at first.

Counts per bias type and direction (Table 2 of Nangia et al. 2020), sentence lengths, and how
well the validators' own bias-type labels (the ``annotations`` column) support the ``bias_type``
label of each pair. For StereoSet data the bias types are its four domains, and the items of
both tasks (intrasentence, read as pairs; intersentence, kept as items) are counted per domain
and target term.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from curate.pairs import BIAS_TYPES, DIRECTIONS, STEREOSET_DOMAINS, Pair

if TYPE_CHECKING:
    from curate.formats import StereoSetItem


@dataclass(frozen=True)
class LengthStats:
    """Summary of a list of word counts."""

    mean: float
    median: float
    minimum: int
    maximum: int

    @classmethod
    def of(cls, values: Sequence[int]) -> LengthStats:
        return cls(
            mean=round(statistics.fmean(values), 2),
            median=float(statistics.median(values)),
            minimum=min(values),
            maximum=max(values),
        )


def word_count(sentence: str) -> int:
    """Whitespace-separated words, as counted by the crowdsourcing form."""
    return len(sentence.split())


def label_support(pair: Pair) -> int | None:
    """How many validators listed the pair's ``bias_type``; ``None`` without annotations."""
    if pair.annotations is None:
        return None
    return sum(pair.bias_type in labels for labels in pair.annotations)


def is_stereoset(pairs: Sequence[Pair]) -> bool:
    """Pairs made from StereoSet items (they carry the item's target and context)."""
    return bool(pairs) and all(p.item_id is not None for p in pairs)


def _stereoset_counts(items: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Items and distinct target terms per domain, from (domain, target) tuples."""
    domains = [d for d in STEREOSET_DOMAINS if any(x == d for x, _ in items)]
    domains += sorted({d for d, _ in items} - set(STEREOSET_DOMAINS))
    return {
        "items": len(items),
        "targets": len({t for _, t in items}),
        "by_domain": {
            d: {
                "items": sum(x == d for x, _ in items),
                "targets": len({t for x, t in items if x == d}),
            }
            for d in domains
        },
    }


def compute_stats(
    pairs: Sequence[Pair],
    intersentence: Sequence[StereoSetItem] = (),
    known: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Every figure of ``curate stats`` as plain data (JSON-serialisable).

    ``intersentence``: a StereoSet file's intersentence items, counted next to the pairs.
    """
    total = len(pairs)
    stereoset = is_stereoset(pairs) or bool(intersentence)
    if known is None:  # a benchmark may name its own groups (WinoBias: its subsets)
        known = STEREOSET_DOMAINS if stereoset else BIAS_TYPES
    by_type: Counter[tuple[str, str]] = Counter((p.bias_type, p.direction) for p in pairs)
    types = [t for t in known if any(k[0] == t for k in by_type)]
    types += sorted({t for t, _ in by_type} - set(known))
    rows = []
    for bias_type in types:
        counts = {d: by_type[(bias_type, d)] for d in DIRECTIONS}
        n = sum(counts.values())
        rows.append(
            {
                "bias_type": bias_type,
                "known": bias_type in known,
                "n": n,
                "percent": round(100 * n / total, 1) if total else 0.0,
                **counts,
            }
        )
    rows.sort(key=lambda r: (-r["n"], r["bias_type"]))
    directions = Counter(p.direction for p in pairs)

    more = [word_count(p.sent_more) for p in pairs]
    less = [word_count(p.sent_less) for p in pairs]
    diffs = [abs(a - b) for a, b in zip(more, less, strict=True)]

    supports = [s for s in (label_support(p) for p in pairs) if s is not None]
    sizes = [len(p.annotations) for p in pairs if p.annotations is not None]
    support_hist = Counter(supports)
    majority = sum(
        1
        for p in pairs
        if p.annotations is not None and 2 * (label_support(p) or 0) > len(p.annotations)
    )
    result: dict[str, Any] = {
        "pairs": total,
        "directions": {d: directions[d] for d in DIRECTIONS},
        "bias_types": rows,
        "lengths": {
            "sent_more": vars(LengthStats.of(more)) if more else None,
            "sent_less": vars(LengthStats.of(less)) if less else None,
            "same_word_count": sum(d == 0 for d in diffs),
            "word_count_difference": dict(sorted(Counter(diffs).items())),
        },
        "validator_agreement": {
            "pairs_with_annotations": len(supports),
            "validators_per_pair": dict(sorted(Counter(sizes).items())),
            "label_supported_by": dict(sorted(support_hist.items())),
            "majority_supports_label": majority,
            "majority_supports_label_percent": (
                round(100 * majority / len(supports), 1) if supports else 0.0
            ),
            "mean_support_share": (
                round(
                    statistics.fmean(s / n for s, n in zip(supports, sizes, strict=True) if n),
                    3,
                )
                if supports
                else 0.0
            ),
        },
    }
    if stereoset:
        result["stereoset"] = {
            "intrasentence": _stereoset_counts([(p.bias_type, p.target or "") for p in pairs]),
            "intersentence": _stereoset_counts([(i.bias_type, i.target) for i in intersentence]),
        }
    return result
