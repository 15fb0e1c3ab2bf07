"""One view of several models across benchmarks: metrics, ranks, agreement, a combined score.

Model rankings agree across bias benchmarks at a mean Kendall tau of only 0.32 ("Are Bias
Evaluation Methods Biased?", 2025), so a combined score is only given with its definition and
the agreement of the rankings it combines beside it. The input is a list of
:class:`AcrossColumn` (one benchmark's headline metric, or a model's capability on a corpus,
over the models), which the command builds from sweep outputs through the benchmark registry;
this module knows no benchmark.

* **rank**: per column, 1 = best: for a bias score the smallest distance to its ideal (50 for a
  preference rate), else the highest (LMS, ICAT) or lowest (perplexity) value; ties share the
  average rank (scipy ``rankdata``);
* **agreement**: Kendall's tau-b between two columns' rankings over the models both have
  (:func:`curate.instrument.stats.kendall`: permutation p, bootstrap interval over models, "n
  too small" under :data:`~curate.intervals.MIN_BOOTSTRAP` models);
* **combined**: :data:`COMBINED_DEFINITION`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from curate.instrument.stats import kendall

COMBINED_DEFINITION = (
    "the mean over benchmarks of the model's mean rank among that benchmark's bias columns "
    "(1 = least biased, i.e. closest to the ideal score; each benchmark weighs the same "
    "whatever its number of methods or metrics); capability columns (perplexity, StereoSet's "
    "LMS) and mixed ones (ICAT) are not combined; lower is better. A model missing from a "
    "benchmark is ranked on the others. A column counts only where 2 or more models have a "
    "value; a model that shares no bias column with another has no combined score, and "
    "models that share no column with each other are ranked within their own group."
)


@dataclass(frozen=True)
class AcrossColumn:
    """One metric over the models: ``values`` maps a model to its headline record (``value``,
    ``n``, ``low``/``high`` or ``no_interval``)."""

    key: str
    benchmark: str
    title: str
    metric: str
    kind: str  # bias | capability | mixed
    better: str  # closer | higher | lower
    ideal: float | None
    values: dict[str, dict[str, Any]] = field(default_factory=dict)

    def badness(self, model: str) -> float | None:
        """What is ranked (smaller is better)."""
        value = self.values.get(model, {}).get("value")
        if value is None or not math.isfinite(value):
            return None
        if self.better == "closer":
            return abs(value - (self.ideal if self.ideal is not None else 0.0))
        return -value if self.better == "higher" else value


def ranks(column: AcrossColumn, models: Sequence[str]) -> dict[str, float]:
    """Rank of each model that has a value (1 = best; ties share the average rank); none when
    fewer than 2 models have one (a rank among one model says nothing)."""
    from scipy.stats import rankdata

    have = [(m, column.badness(m)) for m in models]
    have = [(m, b) for m, b in have if b is not None]
    if len(have) < 2:
        return {}
    ranked = rankdata([b for _, b in have], method="average")
    return {m: float(r) for (m, _), r in zip(have, ranked, strict=True)}


def agreement(a: AcrossColumn, b: AcrossColumn, models: Sequence[str]) -> dict[str, Any]:
    """Kendall's tau-b between two columns' rankings over their common models."""
    common = [m for m in models if a.badness(m) is not None and b.badness(m) is not None]
    x = [a.badness(m) for m in common]
    y = [b.badness(m) for m in common]
    estimate = kendall(x, y)  # type: ignore[arg-type]
    record = {"a": a.key, "b": b.key, "models": common, **estimate.to_dict()}
    if estimate.value is None:
        record["no_value"] = (
            "fewer than 3 common models" if len(common) < 3 else "a ranking is all ties"
        )
    return record


#: Why a model has no combined score, in words (report.json ``combined.no_score``).
NO_BIAS_VALUE = "has no value in any bias column"
NOTHING_SHARED = "shares no bias column with another model, so nothing ranks it against them"


def across_report(columns: Sequence[AcrossColumn], models: Sequence[str]) -> dict[str, Any]:
    """The report.json document: columns with values and ranks, the pairwise agreement, and
    the combined score with its definition and the agreement of what it combines.

    A model is combined only from bias columns it shares with another model (its rank in a
    column of its own says nothing); a model that shares none has no combined score, and
    models that share no column across groups (BERT only on CrowS-Pairs, GPT-2 only on
    StereoSet) are ranked within their own group, never against each other."""
    column_ranks = {c.key: ranks(c, models) for c in columns}
    pairs = [agreement(a, b, models) for a, b in itertools.combinations(columns, 2)]
    by_benchmark: dict[str, list[AcrossColumn]] = {}
    for c in columns:
        if c.kind == "bias" and len(column_ranks[c.key]) >= 2:
            by_benchmark.setdefault(c.benchmark, []).append(c)
    combined: dict[str, float] = {}
    no_score: dict[str, str] = {}
    for model in models:
        means = []
        for benchmark_columns in by_benchmark.values():
            mine = [column_ranks[c.key][model] for c in benchmark_columns if model in column_ranks[c.key]]
            if mine:
                means.append(float(np.mean(mine)))
        if means:
            combined[model] = float(np.mean(means))
        else:
            has_bias = any(c.kind == "bias" and c.badness(model) is not None for c in columns)
            no_score[model] = NOTHING_SHARED if has_bias else NO_BIAS_VALUE
    combined_keys = {c.key for cs in by_benchmark.values() for c in cs}
    groups = _groups(list(combined), [c for cs in by_benchmark.values() for c in cs], column_ranks)
    combined_ranks: dict[str, float] = {}
    for group in groups:
        combined_ranks.update(_rank_dict({m: combined[m] for m in group}))
    between = [
        p
        for p in pairs
        if p["a"] in combined_keys
        and p["b"] in combined_keys
        and _benchmark(columns, p["a"]) != _benchmark(columns, p["b"])
    ]
    taus = [p["value"] for p in between if p["value"] is not None]
    common = [len(p["models"]) for p in between if p["value"] is not None]
    bias_vs_capability = [
        p
        for p in pairs
        if {_kind(columns, p["a"]), _kind(columns, p["b"])} == {"bias", "capability"}
    ]
    return {
        "models": list(models),
        "columns": [
            {
                "key": c.key,
                "benchmark": c.benchmark,
                "title": c.title,
                "metric": c.metric,
                "kind": c.kind,
                "better": c.better,
                **({"ideal": c.ideal} if c.ideal is not None else {}),
                "in_combined": c.key in combined_keys,
                "values": {m: c.values[m] for m in models if m in c.values},
                "ranks": column_ranks[c.key],
            }
            for c in columns
        ],
        "agreement": pairs,
        "combined": {
            "definition": COMBINED_DEFINITION,
            "scores": combined,
            "ranks": combined_ranks,
            # models with no combined score, and why (in words)
            "no_score": no_score,
            # sets of models that share bias columns; ranks compare a model with its own only
            "groups": groups,
            "benchmarks": sorted(by_benchmark),
            "agreement_between_benchmarks": {
                "definition": "Kendall's tau-b between the rankings of every two combined "
                "columns of different benchmarks",
                "pairs": len(taus),
                # pairs of such columns with no tau (fewer than 3 common models, or all ties)
                "pairs_without_tau": len(between) - len(taus),
                "min_models": min(common) if common else None,
                "max_models": max(common) if common else None,
                "mean_tau": float(np.mean(taus)) if taus else None,
                "min_tau": float(min(taus)) if taus else None,
                "max_tau": float(max(taus)) if taus else None,
            },
        },
        "bias_vs_capability": bias_vs_capability,
    }


def _groups(
    models: Sequence[str], columns: Sequence[AcrossColumn], column_ranks: dict[str, dict[str, float]]
) -> list[list[str]]:
    """The models joined by the columns they share (connected components), in first-seen
    order: a ranking across two groups would compare models no column compares."""
    parent = {m: m for m in models}

    def root(m: str) -> str:
        while parent[m] != m:
            parent[m] = parent[parent[m]]
            m = parent[m]
        return m

    for c in columns:
        ranked = [m for m in models if m in column_ranks[c.key]]
        for other in ranked[1:]:
            a, b = root(ranked[0]), root(other)
            if a != b:
                parent[b] = a
    out: dict[str, list[str]] = {}
    for m in models:
        out.setdefault(root(m), []).append(m)
    return list(out.values())


def _rank_dict(scores: dict[str, float]) -> dict[str, float]:
    from scipy.stats import rankdata

    if not scores:
        return {}
    names = list(scores)
    ranked = rankdata([scores[n] for n in names], method="average")
    return {n: float(r) for n, r in zip(names, ranked, strict=True)}


def _benchmark(columns: Sequence[AcrossColumn], key: str) -> str:
    return next(c.benchmark for c in columns if c.key == key)


def _kind(columns: Sequence[AcrossColumn], key: str) -> str:
    return next(c.kind for c in columns if c.key == key)
