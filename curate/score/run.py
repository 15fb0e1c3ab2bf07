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
import hashlib
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate import __version__
from curate.fileio import staged_output_dir
from curate.pairs import Pair
from curate.score.cache import ScoreCache, open_cache
from curate.score.engine import ProgressCallback, ScoreResult, score_pairs
from curate.score.files import write_scores_csv, write_summary_json
from curate.score.methods import Method, methods_for_model
from curate.score.metrics import summarize
from curate.score.models import LoadedModel, load_model, model_kind
from curate.score.settings import ScoreSettings

#: The method whose outputs keep the original layout, ``<out>/<model>/``.
LEGACY_LAYOUT_METHOD = "pll"


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


def output_directory(out_dir: Path, slug: str, method: str) -> Path:
    """Where the outputs of (model, method) go (``pll`` keeps the pre-methods layout)."""
    target = Path(out_dir) / slug
    return target if method == LEGACY_LAYOUT_METHOD else target / method


def plan_models(models: Mapping[str, str], methods: Sequence[str]) -> list[ModelPlan]:
    """Each model's kind (from its config) and methods; a requested method that does not fit
    a model is a usage error naming the methods that do, before any weights are loaded."""
    plans = []
    for slug, name in models.items():
        kind = model_kind(name)
        plans.append(ModelPlan(slug, name, kind, methods_for_model(methods, kind, name)))
    return plans


def data_info(path: Path) -> dict[str, str]:
    """The data file's name and SHA-256, for the provenance of every output."""
    return {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def score_summary(result: ScoreResult, data: Mapping[str, str], threshold: float) -> dict[str, Any]:
    """The summary.json document of one (model, method) result."""
    return {
        "tool": f"curate {__version__}",
        "data": dict(data),
        **result.provenance(),
        "summary": summarize(result.scores, threshold=threshold),
    }


def score_dataset(
    pairs: Sequence[Pair],
    models: Mapping[str, str],
    settings: ScoreSettings,
    *,
    data: Mapping[str, str],
    out_dir: Path,
    cache: ScoreCache | Path | str | None = None,
    hooks: ScoreHooks | None = None,
) -> list[ScoreOutput]:
    """Score ``pairs`` with every model (``{output name: model name or path}``) and each of
    its methods (``settings.methods``, else the model kind's defaults), writing
    ``scores.csv`` and ``summary.json`` per (model, method) under ``out_dir``."""
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
            for method in plan.methods:
                outputs.append(
                    _score_one(pairs, plan.slug, lm, method, settings, data, out_dir, store, hooks)
                )
            del lm
    return outputs


def _score_one(
    pairs: Sequence[Pair],
    slug: str,
    lm: LoadedModel,
    method: Method,
    settings: ScoreSettings,
    data: Mapping[str, str],
    out_dir: Path,
    store: ScoreCache,
    hooks: ScoreHooks,
) -> ScoreOutput:
    unit = "sentences" if method.one_pass else "masked tokens"
    progress = hooks.start(slug, method.name, unit) if hooks.start else None
    result = score_pairs(pairs, lm, method, cache=store, settings=settings, progress=progress)
    summary = score_summary(result, data, settings.threshold)
    target = output_directory(out_dir, slug, method.name)
    with staged_output_dir(target, ("scores.csv", "summary.json")) as staged:  # as one set
        write_scores_csv(result.scores, staged / "scores.csv")
        write_summary_json(summary, staged / "summary.json")
    output = ScoreOutput(slug, result, summary, target, lm.device.type)
    if hooks.scored:
        hooks.scored(output)
    return output
