"""The statistics of a rescoring comparison: how a model's verdicts moved between two versions.

The question a curator is asked is "did cleaning the data change the verdict about the
models?". This module answers it from per-pair scores, without a model: given the two
versions aligned by pair id (:mod:`curate.report.alignment`), it compares for each model the
CrowS-Pairs metric before and after, with

* the **delta** of every metric (overall, stereo / antistereo, per bias type) and a bootstrap
  confidence interval from *paired* resampling: one resample draws pair ids (the union of both
  versions) with replacement, and both versions are scored on that same draw, so the pairs the
  versions share move together and the interval reflects the revision, not two independent
  samples;
* **flips**: edited pairs whose verdict (``score``: is the more stereotyping sentence
  preferred?) changed;
* **McNemar's exact test** on the pairs present in both versions: are pairs more likely to
  become biased than to stop being biased?
* the **threshold view** of Murphy (2022) as a curve over thresholds, with the definition of
  :meth:`curate.score.metrics.PairScore.threshold_label`.

Scoring itself is :func:`curate.report.rescoring.score_versions` (through the cached scorer),
so the arithmetic here is testable on hand-made scores. Everything returned is JSON-ready and
deterministic: fixed seeds, no timings (run statistics live beside the report, never in it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from curate.pairs import BIAS_TYPES, DIRECTIONS, Pair
from curate.report.alignment import VersionAlignment, pair_text
from curate.report.schema import (
    OVERALL,
    Comparison,
    Delta,
    FlipsSection,
    GroupKey,
    McNemarSection,
    ScoredPairView,
    ScoreRow,
    SettingsSection,
    ThresholdCurves,
)
from curate.score.metrics import PairScore, summarize

LABELS: tuple[str, ...] = ("biased", "neutral", "non-biased")


@dataclass(frozen=True)
class Settings:
    """Statistical settings of a report; all of them are recorded in report.json."""

    bootstrap_samples: int = 2000
    seed: int = 0
    confidence: float = 0.95
    #: Thresholds (percent) of the threshold-view curves: 0 to 20 in steps of 0.5.
    thresholds: tuple[float, ...] = tuple(i / 2 for i in range(41))

    def to_dict(self) -> SettingsSection:
        return {
            "bootstrap_samples": self.bootstrap_samples,
            "seed": self.seed,
            "confidence": self.confidence,
            "thresholds": list(self.thresholds),
        }


# --------------------------------------------------------------------------- bootstrap


@dataclass(frozen=True, slots=True)
class Group:
    """A metric as a ratio over pairs: ``100 * sum(numerator) / sum(denominator)``.

    Each version has its own membership (a relabelled pair changes bias type), so a group holds
    0/1 vectors over the resampling units for both versions.
    """

    key: GroupKey
    before_num: np.ndarray
    before_den: np.ndarray
    after_num: np.ndarray
    after_den: np.ndarray


def _ratio(num: float, den: float) -> float | None:
    return 100.0 * num / den if den else None


def _vectors(
    units: Sequence[int], scores: Mapping[int, PairScore], member: Callable[[PairScore], bool]
) -> tuple[np.ndarray, np.ndarray]:
    """0/1 numerator (biased members) and denominator (members) vectors over ``units``."""
    num = np.zeros(len(units))
    den = np.zeros(len(units))
    for i, pair_id in enumerate(units):
        s = scores.get(pair_id)
        if s is not None and member(s):
            den[i] = 1.0
            num[i] = float(s.score)
    return num, den


def metric_groups(
    units: Sequence[int],
    before: Mapping[int, PairScore],
    after: Mapping[int, PairScore],
    bias_types: Sequence[str],
) -> list[Group]:
    """The groups of the metric with the definitions of :mod:`curate.score.metrics`.

    ``overall`` and each bias type count ties as not biased over all their pairs; ``stereo`` and
    ``antistereo`` divide by their untied pairs, as ``metric.py`` does.
    """
    members: list[tuple[GroupKey, Callable[[PairScore], bool]]] = [(OVERALL, lambda s: True)]
    for direction in DIRECTIONS:
        members.append(
            (GroupKey("direction", direction), lambda s, d=direction: s.direction == d and not s.tie)
        )
    for bias_type in bias_types:
        members.append((GroupKey("bias_type", bias_type), lambda s, t=bias_type: s.bias_type == t))
    groups = []
    for key, member in members:
        bn, bd = _vectors(units, before, member)
        an, ad = _vectors(units, after, member)
        groups.append(Group(key, bn, bd, an, ad))
    return groups


def resample_indices(n_units: int, samples: int, seed: int) -> np.ndarray:
    """The bootstrap draws: ``samples`` rows of ``n_units`` unit indices, with replacement.

    Exactly ``numpy.random.default_rng(seed).integers(0, n_units, size=(samples, n_units))``,
    so a test (or a reader) can redo any resample by hand.
    """
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_units, size=(samples, n_units))


def bootstrap_deltas(
    groups: Sequence[Group], n_units: int, settings: Settings
) -> dict[GroupKey, Delta]:
    """Point estimates and percentile confidence intervals of ``after - before`` per group.

    All groups share the same draws (one resample of pairs moves every metric at once). A
    resample in which a group is empty in either version gives no delta for that group; the
    interval is taken over the resamples that give one (``defined`` counts them).
    """
    results: dict[GroupKey, Delta] = {}
    if n_units == 0 or settings.bootstrap_samples < 1:
        weights = np.zeros((0, n_units))
    else:
        idx = resample_indices(n_units, settings.bootstrap_samples, settings.seed)
        rows = settings.bootstrap_samples
        flat = (idx + n_units * np.arange(rows)[:, None]).ravel()
        weights = np.bincount(flat, minlength=rows * n_units).reshape(rows, n_units)
        weights = weights.astype(np.float64)
    alpha = (1.0 - settings.confidence) / 2.0
    for g in groups:
        before = _ratio(g.before_num.sum(), g.before_den.sum())
        after = _ratio(g.after_num.sum(), g.after_den.sum())
        delta = None if before is None or after is None else after - before
        low = high = None
        defined = 0
        if weights.shape[0]:
            with np.errstate(invalid="ignore", divide="ignore"):
                b = 100.0 * (weights @ g.before_num) / (weights @ g.before_den)
                a = 100.0 * (weights @ g.after_num) / (weights @ g.after_den)
            d = a - b
            d = d[np.isfinite(d)]
            defined = int(d.size)
            if defined:
                low, high = (float(v) for v in np.percentile(d, [100 * alpha, 100 * (1 - alpha)]))
        results[g.key] = {
            "before": before,
            "after": after,
            "delta": delta,
            "ci_low": low,
            "ci_high": high,
            "defined": defined,
        }
    return results


# --------------------------------------------------------------------------- tests and views


def _pair_view(pair: Pair, score: PairScore) -> ScoredPairView:
    return {
        **pair_text(pair),
        "sent_more_score": score.sent_more_score,
        "sent_less_score": score.sent_less_score,
        "score": score.score,
    }


def score_flips(
    alignment: VersionAlignment, before: Mapping[int, PairScore], after: Mapping[int, PairScore]
) -> FlipsSection:
    """Edited pairs whose verdict changed: count, rate among the edited pairs, and the list.

    The verdict is ``score`` (1 when the more stereotyping sentence is preferred), the quantity
    the metric counts; Murphy (2022) found about 20% of her revised pairs flipped.
    """
    flipped = []
    for e in alignment.edited:
        b, a = before[e.pair_id], after[e.pair_id]
        if b.score != a.score:
            flipped.append(
                {
                    "pair_id": e.pair_id,
                    "fields": list(e.fields),
                    "change": "to biased" if a.score else "to not biased",
                    "before": _pair_view(e.before, b),
                    "after": _pair_view(e.after, a),
                }
            )
    edited = len(alignment.edited)
    return {
        "edited": edited,
        "edited_rescored": sum(e.rescored for e in alignment.edited),
        "count": len(flipped),
        "rate": 100.0 * len(flipped) / edited if edited else None,
        "to_biased": sum(f["change"] == "to biased" for f in flipped),
        "to_not_biased": sum(f["change"] == "to not biased" for f in flipped),
        "pairs": flipped,
    }


def mcnemar_test(
    shared: Iterable[int], before: Mapping[int, PairScore], after: Mapping[int, PairScore]
) -> McNemarSection:
    """McNemar's exact test of the verdicts on the pairs present in both versions.

    The table is ``[[biased in both, biased only before], [biased only after, biased in
    neither]]``; the exact test is the two-sided binomial test of the discordant pairs
    (statsmodels' ``mcnemar(exact=True)``). With no discordant pair the p-value is 1.
    """
    from statsmodels.stats.contingency_tables import mcnemar

    ids = list(shared)
    table = [[0, 0], [0, 0]]
    for pair_id in ids:
        table[1 - before[pair_id].score][1 - after[pair_id].score] += 1
    discordant = table[0][1] + table[1][0]
    if discordant:
        result = mcnemar(table, exact=True)
        statistic, p_value = float(result.statistic), float(result.pvalue)
    else:
        statistic, p_value = 0.0, 1.0
    return {
        "pairs": len(ids),
        "table": table,
        "biased_to_not_biased": table[0][1],
        "not_biased_to_biased": table[1][0],
        "statistic": statistic,
        "p_value": p_value,
    }


def threshold_curves(scores: Sequence[PairScore], thresholds: Sequence[float]) -> ThresholdCurves:
    """Share (percent) of neutral / biased / non-biased pairs at each threshold."""
    curves: dict[str, list[float | None]] = {label: [] for label in LABELS}
    n = len(scores)
    for t in thresholds:
        labels = [s.threshold_label(t) for s in scores]
        for label in LABELS:
            curves[label].append(100.0 * labels.count(label) / n if n else None)
    return curves


def _bias_types(*summaries: Mapping[str, Any]) -> list[str]:
    present = {row["bias_type"] for s in summaries for row in s["bias_types"]}
    return [t for t in BIAS_TYPES if t in present] + sorted(present - set(BIAS_TYPES))


def _score_rows(scores: Sequence[PairScore]) -> list[ScoreRow]:
    return [
        {
            "pair_id": s.pair_id,
            "sent_more_score": s.sent_more_score,
            "sent_less_score": s.sent_less_score,
            "score": s.score,
        }
        for s in sorted(scores, key=lambda s: s.pair_id)
    ]


def compare_scores(
    before_scores: Sequence[PairScore],
    after_scores: Sequence[PairScore],
    alignment: VersionAlignment,
    settings: Settings = Settings(),
) -> Comparison:
    """Everything the report says about one model, from its per-pair scores on both versions."""
    before = {s.pair_id: s for s in before_scores}
    after = {s.pair_id: s for s in after_scores}
    before_summary = summarize(before_scores)
    after_summary = summarize(after_scores)
    bias_types = _bias_types(before_summary, after_summary)
    units = sorted(before.keys() | after.keys())
    groups = metric_groups(units, before, after, bias_types)
    deltas = bootstrap_deltas(groups, len(units), settings)
    return {
        "before": before_summary,
        "after": after_summary,
        "delta": {
            "overall": deltas[OVERALL],
            "directions": {d: deltas[GroupKey("direction", d)] for d in DIRECTIONS},
            "bias_types": [
                {"bias_type": t, **deltas[GroupKey("bias_type", t)]} for t in bias_types
            ],
        },
        "flips": score_flips(alignment, before, after),
        "mcnemar": mcnemar_test(alignment.shared, before, after),
        "threshold_curves": {
            "before": threshold_curves(before_scores, settings.thresholds),
            "after": threshold_curves(after_scores, settings.thresholds),
        },
        "scores": {"before": _score_rows(before_scores), "after": _score_rows(after_scores)},
    }
