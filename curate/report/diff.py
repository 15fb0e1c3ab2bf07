"""What a revision changed about the models' verdicts: two versions, scored, compared.

The question a curator is asked is "did cleaning the data change the verdict about the
models?". This module answers it from per-pair scores, without a model: it aligns the two
versions by pair id (ids never change across versions), and for each model compares the
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

Scoring itself is :func:`score_versions` (through the cached scorer), so the arithmetic here
is testable on hand-made scores. Everything returned is JSON-ready and deterministic: fixed
seeds, no timings (run statistics live beside the report, never in it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from curate.pairs import BIAS_TYPES, DIRECTIONS, Pair, match_by_id
from curate.score.metrics import PairScore, summarize

if TYPE_CHECKING:
    from curate.score import MaskedLM, ScoreCache, ScoreStats

#: Identifies the layout of report.json; bump it when a consumer would misread the new one.
REPORT_FORMAT = "curate-diff-report/1"
#: Fields compared to tell an unchanged pair from an edited one (all of a Pair but the id).
PAIR_FIELDS: tuple[str, ...] = (
    "sent_more",
    "sent_less",
    "direction",
    "bias_type",
    "annotations",
    "writer",
    "annotators",
)
#: Fields a model's score of the pair depends on (the direction orders the alignment).
SCORED_FIELDS: frozenset[str] = frozenset({"sent_more", "sent_less", "direction"})
LABELS: tuple[str, ...] = ("biased", "neutral", "non-biased")


@dataclass(frozen=True)
class Settings:
    """Statistical settings of a report; all of them are recorded in report.json."""

    bootstrap_samples: int = 2000
    seed: int = 0
    confidence: float = 0.95
    #: Thresholds (percent) of the threshold-view curves: 0 to 20 in steps of 0.5.
    thresholds: tuple[float, ...] = tuple(i / 2 for i in range(41))

    def to_dict(self) -> dict[str, Any]:
        return {
            "bootstrap_samples": self.bootstrap_samples,
            "seed": self.seed,
            "confidence": self.confidence,
            "thresholds": list(self.thresholds),
        }


# --------------------------------------------------------------------------- alignment


@dataclass(frozen=True, slots=True)
class EditedPair:
    """A pair present in both versions with at least one field changed."""

    before: Pair
    after: Pair
    fields: tuple[str, ...]

    @property
    def pair_id(self) -> int:
        return self.before.pair_id

    @property
    def rescored(self) -> bool:
        """Whether the edit touches what a model scores (sentences or direction)."""
        return bool(SCORED_FIELDS.intersection(self.fields))


@dataclass(frozen=True)
class VersionAlignment:
    """The pairs of two versions matched by id, in id order."""

    unchanged: tuple[int, ...]
    edited: tuple[EditedPair, ...]
    dropped: tuple[int, ...]
    added: tuple[int, ...]

    @property
    def shared(self) -> tuple[int, ...]:
        """Ids present in both versions (unchanged and edited), sorted."""
        return tuple(sorted((*self.unchanged, *(e.pair_id for e in self.edited))))

    def counts(self) -> dict[str, int]:
        return {
            "unchanged": len(self.unchanged),
            "edited": len(self.edited),
            "dropped": len(self.dropped),
            "added": len(self.added),
        }

    def to_dict(self, before: Sequence[Pair] = (), after: Sequence[Pair] = ()) -> dict[str, Any]:
        """Counts and ids; with the versions' pairs, also their text, so that the report can
        be rendered again from report.json alone."""
        old = {p.pair_id: p for p in before}
        new = {p.pair_id: p for p in after}
        return {
            "counts": self.counts(),
            "edited_rescored": sum(e.rescored for e in self.edited),
            "edited": [
                {
                    "pair_id": e.pair_id,
                    "fields": list(e.fields),
                    "before": pair_text(e.before),
                    "after": pair_text(e.after),
                }
                for e in self.edited
            ],
            "dropped": [
                {"pair_id": i, **pair_text(old[i])} if i in old else {"pair_id": i}
                for i in self.dropped
            ],
            "added": [
                {"pair_id": i, **pair_text(new[i])} if i in new else {"pair_id": i}
                for i in self.added
            ],
        }


def pair_text(pair: Pair) -> dict[str, str]:
    """The fields of a pair a reader of the report needs (no annotator metadata)."""
    return {
        "sent_more": pair.sent_more,
        "sent_less": pair.sent_less,
        "direction": pair.direction,
        "bias_type": pair.bias_type,
    }


def align_versions(before: Sequence[Pair], after: Sequence[Pair]) -> VersionAlignment:
    """Classify every pair id as unchanged, edited (which fields), dropped or added."""
    match = match_by_id(before, after)
    unchanged: list[int] = []
    edited: list[EditedPair] = []
    for a, b in match.shared:
        fields = tuple(f for f in PAIR_FIELDS if getattr(a, f) != getattr(b, f))
        if fields:
            edited.append(EditedPair(a, b, fields))
        else:
            unchanged.append(a.pair_id)
    return VersionAlignment(
        unchanged=tuple(unchanged),
        edited=tuple(edited),
        dropped=tuple(p.pair_id for p in match.dropped),
        added=tuple(p.pair_id for p in match.added),
    )


# --------------------------------------------------------------------------- bootstrap


@dataclass(frozen=True, slots=True)
class Group:
    """A metric as a ratio over pairs: ``100 * sum(numerator) / sum(denominator)``.

    Each version has its own membership (a relabelled pair changes bias type), so a group holds
    0/1 vectors over the resampling units for both versions.
    """

    name: str
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
    members: list[tuple[str, Callable[[PairScore], bool]]] = [("overall", lambda s: True)]
    for direction in DIRECTIONS:
        members.append((direction, lambda s, d=direction: s.direction == d and not s.tie))
    for bias_type in bias_types:
        members.append((f"bias_type:{bias_type}", lambda s, t=bias_type: s.bias_type == t))
    groups = []
    for name, member in members:
        bn, bd = _vectors(units, before, member)
        an, ad = _vectors(units, after, member)
        groups.append(Group(name, bn, bd, an, ad))
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
) -> dict[str, dict[str, Any]]:
    """Point estimates and percentile confidence intervals of ``after - before`` per group.

    All groups share the same draws (one resample of pairs moves every metric at once). A
    resample in which a group is empty in either version gives no delta for that group; the
    interval is taken over the resamples that give one (``defined`` counts them).
    """
    results: dict[str, dict[str, Any]] = {}
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
        results[g.name] = {
            "before": before,
            "after": after,
            "delta": delta,
            "ci_low": low,
            "ci_high": high,
            "defined": defined,
        }
    return results


# --------------------------------------------------------------------------- tests and views


def _pair_view(pair: Pair, score: PairScore) -> dict[str, Any]:
    return {
        **pair_text(pair),
        "sent_more_score": score.sent_more_score,
        "sent_less_score": score.sent_less_score,
        "score": score.score,
    }


def score_flips(
    alignment: VersionAlignment, before: Mapping[int, PairScore], after: Mapping[int, PairScore]
) -> dict[str, Any]:
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
) -> dict[str, Any]:
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


def threshold_curves(scores: Sequence[PairScore], thresholds: Sequence[float]) -> dict[str, Any]:
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


def _score_rows(scores: Sequence[PairScore]) -> list[dict[str, Any]]:
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
) -> dict[str, Any]:
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
            "overall": deltas["overall"],
            "directions": {d: deltas[d] for d in DIRECTIONS},
            "bias_types": [{"bias_type": t, **deltas[f"bias_type:{t}"]} for t in bias_types],
        },
        "flips": score_flips(alignment, before, after),
        "mcnemar": mcnemar_test(alignment.shared, before, after),
        "threshold_curves": {
            "before": threshold_curves(before_scores, settings.thresholds),
            "after": threshold_curves(after_scores, settings.thresholds),
        },
        "scores": {"before": _score_rows(before_scores), "after": _score_rows(after_scores)},
    }


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Version:
    """One side of the comparison: a label for the report and its pairs."""

    label: str
    pairs: tuple[Pair, ...]


@dataclass(frozen=True)
class RunStats:
    """What scoring one version with one model cost in this run (not part of the report:
    it depends on the cache's state, and the report must not)."""

    model: str
    version: str
    stats: ScoreStats


@dataclass
class DiffReport:
    """The report (JSON-ready, deterministic) and this run's scoring statistics."""

    data: dict[str, Any]
    runs: list[RunStats] = field(default_factory=list)

    @property
    def computed(self) -> int:
        """Masked copies run through a model in this run (0 on a rerun with a warm cache)."""
        return sum(r.stats.computed for r in self.runs)

    @property
    def cache_hits(self) -> int:
        """Masked copies served by the cache in this run."""
        return sum(r.stats.cache_hits for r in self.runs)


def model_label(name: str) -> str:
    """A short label for charts and tables: a local directory's name, else the hub name."""
    path = Path(name).expanduser()
    return path.resolve().name if path.exists() else name


def unique_labels(names: Sequence[str]) -> list[str]:
    """:func:`model_label` of each name, numbered when two would read the same."""
    labels = [model_label(n) for n in names]
    seen: dict[str, int] = {}
    result = []
    for label in labels:
        if labels.count(label) > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} ({seen[label]})"
        result.append(label)
    return result


def compute_reuse(before: Sequence[Pair], after: Sequence[Pair], lm: MaskedLM) -> dict[str, Any]:
    """Forward passes each version needs and how many of AFTER's BEFORE already computed.

    Counted from the token-level plans, not from this run's cache hits, so the number is the
    same on every run: it is what the cache saves when AFTER is scored after BEFORE.
    """
    from curate.score.pll import plan_jobs, plan_pairs

    before_plans = plan_pairs(before, lm)
    after_plans = plan_pairs(after, lm)
    before_jobs = set(plan_jobs(before_plans))
    after_jobs = set(plan_jobs(after_plans))
    shared = len(after_jobs & before_jobs)

    def passes(plans: Iterable[Any]) -> int:
        return sum(len(p.more_positions) + len(p.less_positions) for p in plans)

    return {
        "before": {"metric_py_passes": passes(before_plans), "unique_masked": len(before_jobs)},
        "after": {
            "metric_py_passes": passes(after_plans),
            "unique_masked": len(after_jobs),
            "reused_from_before": shared,
            "new": len(after_jobs) - shared,
        },
        "forward_passes_saved": shared,
    }


def report_data(
    before: Version,
    after: Version,
    alignment: VersionAlignment,
    settings: Settings,
    models: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """The report.json document: versions, alignment, settings and one section per model."""
    return {
        "format": REPORT_FORMAT,
        "before": {"label": before.label, "pairs": len(before.pairs)},
        "after": {"label": after.label, "pairs": len(after.pairs)},
        "alignment": alignment.to_dict(before.pairs, after.pairs),
        "settings": settings.to_dict(),
        "models": list(models),
    }


#: ``progress(model_label, version_label, done, total)`` while a version is being scored.
Progress = Callable[[str, str, int, int], None]


def score_versions(
    before: Version,
    after: Version,
    models: Sequence[str | Path | MaskedLM],
    *,
    cache: ScoreCache | Path | str | None = None,
    batch_size: int | None = None,
    device: str = "auto",
    threads: int | None = None,
    settings: Settings = Settings(),
    progress: Progress | None = None,
    on_loading: Callable[[str], None] | None = None,
) -> DiffReport:
    """Score both versions with every model through one cache and build the report.

    Every model is loaded before anything is scored, so a bad model name fails at once. BEFORE
    is scored first, so AFTER's unchanged pairs (and the unchanged sentences of its edited
    pairs) come from the cache.
    """
    from curate.score import DEFAULT_BATCH_SIZE, ScoreCache, load_model, score_pairs

    names = [m.name if not isinstance(m, str | Path) else str(m) for m in models]
    labels = unique_labels(names)
    loaded = []
    for model, label in zip(models, labels, strict=True):
        if isinstance(model, str | Path):
            if on_loading is not None:
                on_loading(label)
            model = load_model(model, device=device)
        loaded.append(model)
    alignment = align_versions(before.pairs, after.pairs)
    store = cache if isinstance(cache, ScoreCache) else ScoreCache(cache)
    runs: list[RunStats] = []
    sections = []
    try:
        for name, label, lm in zip(names, labels, loaded, strict=True):
            results = []
            for version in (before, after):

                def report(done: int, total: int, v: str = version.label, m: str = label) -> None:
                    if progress is not None:
                        progress(m, v, done, total)

                result = score_pairs(
                    version.pairs,
                    lm,
                    cache=store,
                    batch_size=batch_size or DEFAULT_BATCH_SIZE,
                    progress=report,
                    threads=threads,
                )
                runs.append(RunStats(label, version.label, result.stats))
                results.append(result)
            before_result, after_result = results
            sections.append(
                {
                    "model": name,
                    "label": label,
                    "provenance": {**before_result.provenance(), "head_mode": lm.head_mode},
                    "compute": compute_reuse(before.pairs, after.pairs, lm),
                    **compare_scores(
                        before_result.scores, after_result.scores, alignment, settings
                    ),
                }
            )
    finally:
        if store is not cache:
            store.close()
    data = report_data(before, after, alignment, settings, sections)
    return DiffReport(data, runs)
