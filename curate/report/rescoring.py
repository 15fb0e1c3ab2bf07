"""Rescoring for a comparison: score two versions with every model and build report.json.

The one part of the diff report that needs a model. Every model scores BEFORE first and AFTER
second through one score cache, so AFTER's unchanged pairs cost nothing; the per-pair scores
then go to :func:`curate.report.statistics.compare_scores`. What a run cost (cache hits,
forward passes) is returned beside the report, never in it, so the report is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curate.modelnames import model_label
from curate.pairs import PAIR_FIELDS, Pair
from curate.report.alignment import VersionAlignment, align_versions
from curate.report.schema import ComputeSection, ModelSection, Report
from curate.report.statistics import Settings, compare_scores

if TYPE_CHECKING:
    from curate.score import MaskedLM, ScoreCache, ScoreStats

#: Identifies the layout of report.json; bump it when a consumer would misread the new one.
REPORT_FORMAT = "curate-diff-report/1"


@dataclass(frozen=True)
class ComparedVersion:
    """One side of the comparison: a label for the report, its pairs, and the fields its file
    has a column for (:attr:`curate.formats.Dataset.fields`; only shared ones are compared)."""

    label: str
    pairs: tuple[Pair, ...]
    fields: frozenset[str] = frozenset(PAIR_FIELDS)


@dataclass(frozen=True)
class RunStats:
    """What scoring one version with one model cost in this run (not part of the report:
    it depends on the cache's state, and the report must not)."""

    model: str
    version: str
    stats: ScoreStats


@dataclass
class RescoringReport:
    """The report (JSON-ready, deterministic) and this run's scoring statistics."""

    data: Report
    runs: list[RunStats] = field(default_factory=list)

    @property
    def computed(self) -> int:
        """Masked copies run through a model in this run (0 on a rerun with a warm cache)."""
        return sum(r.stats.computed for r in self.runs)

    @property
    def cache_hits(self) -> int:
        """Masked copies served by the cache in this run."""
        return sum(r.stats.cache_hits for r in self.runs)


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


def compute_reuse(before: Sequence[Pair], after: Sequence[Pair], lm: MaskedLM) -> ComputeSection:
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
    before: ComparedVersion,
    after: ComparedVersion,
    alignment: VersionAlignment,
    settings: Settings,
    models: Sequence[ModelSection],
) -> Report:
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
ScoringProgress = Callable[[str, str, int, int], None]


def score_versions(
    before: ComparedVersion,
    after: ComparedVersion,
    models: Sequence[str | Path | MaskedLM],
    *,
    cache: ScoreCache | Path | str | None = None,
    batch_size: int | None = None,
    device: str = "auto",
    threads: int | None = None,
    settings: Settings = Settings(),
    progress: ScoringProgress | None = None,
    on_loading: Callable[[str], None] | None = None,
) -> RescoringReport:
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
    alignment = align_versions(before.pairs, after.pairs, before.fields & after.fields)
    store = cache if isinstance(cache, ScoreCache) else ScoreCache(cache)
    runs: list[RunStats] = []
    sections: list[ModelSection] = []
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
    return RescoringReport(data, runs)
