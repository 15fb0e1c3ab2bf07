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
from typing import TYPE_CHECKING, Any, Protocol

from curate.modelnames import model_label
from curate.pairs import PAIR_FIELDS, Pair
from curate.report.alignment import VersionAlignment, align_versions
from curate.report.robust import robust_flips
from curate.report.schema import ComputeSection, ModelSection, Report
from curate.report.statistics import Settings, compare_scores

if TYPE_CHECKING:
    from curate.score.cache import ScoreCache
    from curate.score.corpusfile import Corpus
    from curate.score.methods import Method
    from curate.score.models import LoadedModel
    from curate.score.results import ScoreStats
    from curate.score.settings import ScoreSettings

#: Identifies the layout of report.json; bump it when a consumer would misread the new one
#: (/2: a section per (model, method) column, not per model; robust_flips added).
REPORT_FORMAT = "curate-diff-report/2"


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


def unique_labels(names: Sequence[str], given: Sequence[str | None] | None = None) -> list[str]:
    """The label of each model (``given`` when set, else :func:`model_label` of its name),
    numbered when two would read the same."""
    given = list(given) if given is not None else [None] * len(names)
    return numbered([g or model_label(n) for n, g in zip(names, given, strict=True)])


def numbered(labels: Sequence[str]) -> list[str]:
    """``labels`` with ``(1)``, ``(2)``, ... after each one that occurs more than once, so that
    every column of a report reads differently."""
    seen: dict[str, int] = {}
    result = []
    for label in labels:
        if labels.count(label) > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} ({seen[label]})"
        result.append(label)
    return result


def compute_reuse(
    before: Sequence[Pair], after: Sequence[Pair], lm: LoadedModel, method: str | Method = "pll"
) -> ComputeSection:
    """The jobs each version needs under ``method`` and how many of AFTER's BEFORE already ran.

    Counted from the score library's plans (:mod:`curate.score.plan`), not from this run's
    cache hits, so the number is the same on every run: it is what the cache saves when AFTER
    is scored after BEFORE. A job is a masked copy (``pll``, ``pll-word-l2r``) or a whole
    sentence (the one-pass methods); ``metric_py_passes`` counts the scored tokens.
    """
    from curate.score.plan import plan_jobs, plan_pairs

    before_plans = plan_pairs(before, lm, method)
    after_plans = plan_pairs(after, lm, method)
    before_jobs = set(plan_jobs(before_plans, method))
    after_jobs = set(plan_jobs(after_plans, method))
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
    """The report.json document: versions, alignment, settings and one section per model.

    Sections built on the report by later stages (the "instrument quality" of
    :mod:`curate.instrument.quality`) are added by the command that asks for them; each carries
    its own table (:func:`curate.report.tables.table_section`), so this package renders them
    without importing the stage that made them."""
    report: Report = {
        "format": REPORT_FORMAT,
        "before": {"label": before.label, "pairs": len(before.pairs)},
        "after": {"label": after.label, "pairs": len(after.pairs)},
        "alignment": alignment.to_dict(before.pairs, after.pairs),
        "settings": settings.to_dict(),
        "models": list(models),
        "robust_flips": robust_flips(models),
    }
    return report


class ScoringProgress(Protocol):
    """``progress(column_label, version_label, done, total, unit)`` while a version is being
    scored: ``done`` of the ``total`` jobs the cache does not hold, counted in ``unit`` (masked
    copies for pll and pll-word-l2r, sentences for the one-pass methods)."""

    def __call__(self, column: str, version: str, done: int, total: int, unit: str, /) -> None:
        ...


def job_unit(method: str) -> str:
    """What one job of ``method`` is, in words: a masked copy, or a whole sentence."""
    from curate.score.methods import METHODS

    chosen = METHODS.get(method)
    return "sentences" if chosen is not None and chosen.one_pass else "masked copies"


@dataclass(frozen=True)
class Column:
    """One column of the report: a model scored with one method."""

    model: str
    model_label: str
    method: str
    label: str


def plan_columns(
    names: Sequence[str],
    kinds: Sequence[str],
    methods: Sequence[str],
    *,
    labels: Sequence[str | None] | None = None,
    model_methods: Sequence[Sequence[str]] | None = None,
) -> list[list[Column]]:
    """Per model, its columns: the requested methods that fit its kind, or its kind's defaults
    when none were requested (as ``curate score``).

    With masked and causal models in one report, each method goes to the models it fits; a
    model that no requested method fits, or a method that fits no model, is a usage error that
    names the methods that do fit. A column's label is "model · method" (the model's label
    numbered when two models share a name), as in ``curate explore``, even with one method.

    ``labels`` names the models (``-m path=label``, a sweep plan's label); ``model_methods``
    gives each model its own methods (a sweep's columns), overriding ``methods`` for the
    models whose list is not empty.
    """
    from curate.score.run import fit_methods

    if model_methods is None:
        chosen = fit_methods(names, kinds, methods)
    else:
        chosen = [
            fit_methods([n], [k], own or methods)[0]
            for n, k, own in zip(names, kinds, model_methods, strict=True)
        ]
    model_labels = unique_labels(names, labels)
    return [
        [Column(name, label, m.name, f"{label} · {m.name}") for m in ms]
        for name, label, ms in zip(names, model_labels, chosen, strict=True)
    ]


def score_versions(
    before: ComparedVersion,
    after: ComparedVersion,
    models: Sequence[str | Path | LoadedModel],
    *,
    methods: Sequence[str] = (),
    cache: ScoreCache | Path | str | None = None,
    score_settings: ScoreSettings | None = None,
    batch_size: int | None = None,
    device: str | None = None,
    threads: int | None = None,
    settings: Settings = Settings(),
    progress: ScoringProgress | None = None,
    on_loading: Callable[[str], None] | None = None,
    labels: Sequence[str | None] | None = None,
    model_methods: Sequence[Sequence[str]] | None = None,
    model_settings: Sequence[ScoreSettings | None] | None = None,
    corpus: Corpus | None = None,
) -> RescoringReport:
    """Score both versions with every (model, method) through one cache and build the report.

    ``methods`` are public method names (default: each model's kind's defaults, as ``curate
    score``); a method that does not fit a model fails before any weights are loaded. BEFORE is
    scored first with each column, so AFTER's unchanged pairs (and the unchanged sentences of
    its edited pairs) come from the cache. ``score_settings`` (batch size, threads, device,
    dtype, casing) goes to :func:`curate.score.score_pairs`; the keyword arguments override it.
    ``labels`` and ``model_methods`` are :func:`plan_columns`'s. ``model_settings`` gives
    each model its own settings (a sweep plan's batch size, dtype, device, casing) in place of
    ``score_settings``, for the models whose entry is not None; the keyword arguments override
    them too. With a ``corpus``, each model's capability on it (:func:`curate.score.corpus.
    score_corpus`, through the same cache) is measured while the model is loaded for its
    columns, and added to each of its sections as ``capability``.
    """
    from curate.score import load_model, score_pairs
    from curate.score.cache import open_cache
    from curate.score.corpus import score_corpus
    from curate.score.kinds import model_kind
    from curate.score.settings import ScoreSettings

    scoring = (score_settings or ScoreSettings()).with_overrides(
        batch_size=batch_size, device=device, threads=threads
    )
    names = [str(m) if isinstance(m, str | Path) else m.name for m in models]
    kinds = [model_kind(m) if isinstance(m, str | Path) else m.kind for m in models]
    columns = plan_columns(
        names, kinds, methods, labels=labels, model_methods=model_methods
    )
    alignment = align_versions(before.pairs, after.pairs, before.fields & after.fields)
    runs: list[RunStats] = []
    sections: list[ModelSection] = []
    own = list(model_settings) if model_settings is not None else [None] * len(models)
    if len(own) != len(models):
        raise ValueError(f"{len(own)} model settings for {len(models)} models")
    per_model = [
        scoring
        if settings_of is None
        else settings_of.with_overrides(batch_size=batch_size, device=device, threads=threads)
        for settings_of in own
    ]
    with open_cache(cache) as store:
        for model, model_columns, model_scoring in zip(models, columns, per_model, strict=True):
            lm = model
            if isinstance(model, str | Path):
                if on_loading is not None:
                    on_loading(model_columns[0].model_label)
                lm = load_model(
                    model,
                    device=model_scoring.device,
                    dtype=model_scoring.dtype,
                    lowercase=model_scoring.lowercase,
                )
            first_section = len(sections)
            for column in model_columns:
                results = []
                for version in (before, after):

                    def report(
                        done: int,
                        total: int,
                        v: str = version.label,
                        c: str = column.label,
                        unit: str = job_unit(column.method),
                    ) -> None:
                        if progress is not None:
                            progress(c, v, done, total, unit)

                    result = score_pairs(
                        version.pairs,
                        lm,
                        column.method,
                        cache=store,
                        settings=model_scoring,
                        progress=report,
                    )
                    runs.append(RunStats(column.label, version.label, result.stats))
                    results.append(result)
                before_result, after_result = results
                sections.append(
                    {
                        "model": column.model,
                        "label": column.label,
                        "model_label": column.model_label,
                        "method": column.method,
                        "provenance": {
                            **before_result.provenance(),
                            "head_mode": before_result.head_mode,
                        },
                        "compute": compute_reuse(before.pairs, after.pairs, lm, column.method),
                        **compare_scores(
                            before_result.scores, after_result.scores, alignment, settings
                        ),
                    }
                )
            if corpus is not None:
                measured = score_corpus(corpus, lm, cache=store, settings=model_scoring)
                capability = measured.document()
                for section in sections[first_section:]:
                    section["capability"] = capability
    data = report_data(before, after, alignment, settings, sections)
    return RescoringReport(data, runs)
