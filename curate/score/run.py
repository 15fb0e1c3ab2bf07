"""Scoring a dataset with several models and methods, and writing one output per pair of them.

:func:`score_dataset` is what ``curate score`` runs: it checks every (model, method)
combination before loading anything (a method that does not fit a model is an error at once),
loads each model once, scores it with each of its methods through one cache
(:func:`curate.score.engine.score_pairs`), and writes ``scores.csv`` and ``summary.json`` per
combination. Output directories: ``<out>/<model>/`` for ``pll`` (the layout from before there
were several methods) and ``<out>/<model>/<method>/`` for every other method.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.pairs import Pair
from curate.score.cache import ScoreCache, open_cache
from curate.score.corpus import score_corpus
from curate.score.corpusfile import Corpus
from curate.score.engine import score_pairs
from curate.score.files import write_score_column
from curate.score.kinds import model_kind
from curate.score.methods import METHODS, Method, methods_for_model
from curate.score.models import LoadedModel, load_model
from curate.score.outputs import output_directory, score_summary
from curate.score.results import ProgressCallback, ScoreResult
from curate.score.settings import ScoreSettings


@dataclass(frozen=True)
class ModelPlan:
    """A model to score (its name or path and its output directory name) and its methods."""

    slug: str
    name: str
    kind: str
    methods: tuple[Method, ...]


@dataclass(frozen=True)
class ScoreOutput:
    """One (model, method) result, the summary.json written for it and where."""

    slug: str
    result: ScoreResult
    summary: dict[str, Any]
    directory: Path
    device: str


@dataclass
class ScoreHooks:
    """What a front end is told while a dataset is scored (all optional).

    ``loading(name)`` wraps the loading of a model (e.g. a spinner); ``start(slug, method,
    unit)`` returns the progress callback of one (model, method) run; ``scored(output)`` is
    called after its files are written.
    """

    loading: Callable[[str], AbstractContextManager[Any]] | None = None
    start: Callable[[str, str, str], ProgressCallback | None] | None = None
    scored: Callable[[ScoreOutput], None] | None = None


def fit_methods(
    names: Sequence[str], kinds: Sequence[str], methods: Sequence[str]
) -> list[tuple[Method, ...]]:
    """Per model, the requested methods that fit its kind, or its kind's defaults when none
    were requested: several models of both kinds share one ``--method`` list (``curate score``
    and ``curate diff-report`` alike).

    A model that no requested method fits, or a requested method that fits no model, is a usage
    error naming the methods that do fit (:func:`~curate.score.methods.methods_for_model`).
    """

    unused = [
        m for m in methods if METHODS[m].kind not in kinds or METHODS[m].dataset != "crows-pairs"
    ]
    chosen = []
    for name, kind in zip(names, kinds, strict=True):
        fitting = [m for m in methods if METHODS[m].kind == kind]
        # methods_for_model raises the one-sentence error naming the methods that fit
        chosen.append(methods_for_model(fitting or [*methods], kind, name))
    if unused:
        methods_for_model(unused, kinds[0], names[0])
    return chosen


def plan_models(models: Mapping[str, str], methods: Sequence[str]) -> list[ModelPlan]:
    """Each model's kind (from its config) and methods (:func:`fit_methods`), checked before
    any weights are loaded."""
    kinds = [model_kind(name) for name in models.values()]
    chosen = fit_methods(list(models.values()), kinds, methods)
    return [
        ModelPlan(slug, name, kind, fitted)
        for (slug, name), kind, fitted in zip(models.items(), kinds, chosen, strict=True)
    ]


def score_dataset(
    pairs: Sequence[Pair],
    models: Mapping[str, str],
    settings: ScoreSettings,
    *,
    data: Mapping[str, Any],
    out_dir: Path,
    cache: ScoreCache | Path | str | None = None,
    hooks: ScoreHooks | None = None,
    groups: Callable[[str], tuple[str, ...]] | None = None,
    corpus: Corpus | None = None,
) -> list[ScoreOutput]:
    """Score ``pairs`` with every model (``{output name: model name or path}``) and each of
    its methods (``settings.methods``, else the model kind's defaults), writing
    ``scores.csv`` and ``summary.json`` per (model, method) under ``out_dir`` (``groups``: the
    benchmark's larger groups of bias types, summed up as more rows of the summary;
    ``corpus``: also measure each model's (pseudo-)perplexity on it, written into every
    summary.json of the model as ``capability``)."""
    hooks = hooks or ScoreHooks()
    plans = plan_models(models, settings.methods)
    outputs: list[ScoreOutput] = []
    with open_cache(cache) as store:
        for plan in plans:
            loading = hooks.loading(plan.name) if hooks.loading else contextlib.nullcontext()
            with loading:
                lm = load_model(
                    plan.name,
                    device=settings.device,
                    dtype=settings.dtype,
                    lowercase=settings.lowercase,
                )
            ability = (
                measure_corpus(corpus, plan.slug, lm, store, settings, hooks)
                if corpus is not None
                else None
            )
            for method in plan.methods:
                outputs.append(
                    _score_one(
                        pairs, plan.slug, lm, method, settings, data, out_dir, store, hooks,
                        groups, ability,
                    )
                )
            del lm
    return outputs


def measure_corpus(
    corpus: Corpus,
    slug: str,
    lm: LoadedModel,
    store: ScoreCache,
    settings: ScoreSettings,
    hooks: ScoreHooks | None = None,
) -> dict[str, Any]:
    """The model's capability record on ``corpus`` (through the cache, with progress)."""
    start = hooks.start if hooks is not None else None
    unit = "sentences" if lm.kind == "causal" else "masked tokens"
    progress = start(slug, f"corpus {corpus.name}", unit) if start else None
    return score_corpus(corpus, lm, cache=store, settings=settings, progress=progress).document()


def _score_one(
    pairs: Sequence[Pair],
    slug: str,
    lm: LoadedModel,
    method: Method,
    settings: ScoreSettings,
    data: Mapping[str, Any],
    out_dir: Path,
    store: ScoreCache,
    hooks: ScoreHooks,
    groups: Callable[[str], tuple[str, ...]] | None = None,
    capability: Mapping[str, Any] | None = None,
) -> ScoreOutput:
    unit = "sentences" if method.one_pass else "masked tokens"
    progress = hooks.start(slug, method.name, unit) if hooks.start else None
    result = score_pairs(pairs, lm, method, cache=store, settings=settings, progress=progress)
    summary = score_summary(result, data, settings.threshold, groups, capability)
    target = output_directory(out_dir, slug, method.name)
    write_score_column(result.scores, summary, target)
    output = ScoreOutput(slug, result, summary, target, lm.device.type)
    if hooks.scored:
        hooks.scored(output)
    return output
