"""Dataset statistics a curator looks at first.

Counts per bias type and direction (Table 2 of Nangia et al. 2020), sentence lengths, and how
well the validators' own bias-type labels (the ``annotations`` column) support the ``bias_type``
label of each pair. The known bias types are the benchmark's (handed in by the command, which
asks the registry of benchmarks), and a benchmark with figures of its own (StereoSet: items per
domain) adds them under its name.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from curate.pairs import BIAS_TYPES, DIRECTIONS, Pair


class FigureSource(Protocol):
    """What the statistics need of a benchmark (:class:`curate.benchmarks.spec.Benchmark`)."""

    @property
    def name(self) -> str: ...
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def stats(self) -> Callable[[Sequence[Pair], Sequence[Any]], dict[str, Any]] | None: ...


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


def compute_stats(
    pairs: Sequence[Pair], items: Sequence[Any] = (), benchmark: FigureSource | None = None
) -> dict[str, Any]:
    """Every figure of ``curate stats`` as plain data (JSON-serialisable).

    ``items``: the items a benchmark keeps beside its pairs (StereoSet's intersentence items);
    ``benchmark``: whose labels and figures (default: pair files, the nine CrowS-Pairs types
    and no figures of their own).
    """
    total = len(pairs)
    known = benchmark.labels if benchmark is not None else BIAS_TYPES
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
    if benchmark is not None and benchmark.stats is not None:
        result[benchmark.name] = benchmark.stats(pairs, items)
    return result
