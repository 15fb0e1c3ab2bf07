"""Scoring: bias metrics of masked and causal language models on sentence pairs.

``score_pairs(pairs, model, method)`` gives per-pair sentence scores (:class:`ScoreResult`) of
one model with one method (:mod:`curate.score.methods`: ``pll``, ``pll-word-l2r``, ``aul``,
``aula``, ``clm-sum``, ``clm-mean``, ``clm-shared``, ``clm-mean-prefixed``), each equal to one
peer's code with that peer's tie rule; ``summarize(result.scores)`` the
CrowS-Pairs metric and its breakdowns; ``score_dataset`` scores a dataset with several models
and methods and writes the outputs. Module map: :mod:`~curate.score.models` (loading),
:mod:`~curate.score.plan` (tokenise, align, jobs, batches), :mod:`~curate.score.passes` (the
forward passes), :mod:`~curate.score.engine` (cache lookup, run, reduction),
:mod:`~curate.score.cache`, :mod:`~curate.score.settings`, :mod:`~curate.score.run`,
:mod:`~curate.score.metrics`, :mod:`~curate.score.files`; and, needing no torch,
:mod:`~curate.score.kinds` (a model's kind from its config.json),
:mod:`~curate.score.results` (the scoring records), :mod:`~curate.score.outputs` (summary.json
and provenance) and :mod:`~curate.score.corpusfile` (a corpus's sentences).

The names are imported lazily: ``curate.score.metrics``, ``files``, ``kinds``, ``results``,
``outputs`` and ``corpusfile`` need no torch, so reports that only read scores, ``curate
--help`` and the driver of a Ray sweep (issue 32) do not pay for importing it.

Layer: a stage. It may import the ground floor and :mod:`curate.formats`; never another stage
or a benchmark (a method names the benchmark it scores; a benchmark's routes build on this).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curate.score.cache import ScoreCache, open_cache
    from curate.score.engine import TokenLogprob, score_pairs, token_logprobs
    from curate.score.kinds import ModelError, model_kind
    from curate.score.methods import METHODS, Method
    from curate.score.metrics import DEFAULT_THRESHOLD, PairScore, summarize
    from curate.score.models import CausalLM, LoadedModel, MaskedLM, PrecisionWarning, load_model
    from curate.score.plan import SentenceTooLongError
    from curate.score.pll import METHOD
    from curate.score.results import ScoreResult, ScoreStats
    from curate.score.run import ScoreHooks, ScoreOutput, score_dataset
    from curate.score.settings import DEFAULT_BATCH_SIZE, ScoreSettings, settings_from_table

_WHERE = {
    "ScoreCache": "cache",
    "open_cache": "cache",
    "ScoreResult": "results",
    "ScoreStats": "results",
    "TokenLogprob": "engine",
    "score_pairs": "engine",
    "token_logprobs": "engine",
    "METHODS": "methods",
    "Method": "methods",
    "DEFAULT_THRESHOLD": "metrics",
    "PairScore": "metrics",
    "summarize": "metrics",
    "CausalLM": "models",
    "LoadedModel": "models",
    "MaskedLM": "models",
    "ModelError": "kinds",
    "PrecisionWarning": "models",
    "load_model": "models",
    "model_kind": "kinds",
    "SentenceTooLongError": "plan",
    "METHOD": "pll",
    "ScoreHooks": "run",
    "ScoreOutput": "run",
    "score_dataset": "run",
    "DEFAULT_BATCH_SIZE": "settings",
    "ScoreSettings": "settings",
    "settings_from_table": "settings",
}

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_THRESHOLD",
    "METHOD",
    "METHODS",
    "CausalLM",
    "LoadedModel",
    "MaskedLM",
    "Method",
    "ModelError",
    "PairScore",
    "PrecisionWarning",
    "ScoreCache",
    "ScoreHooks",
    "ScoreOutput",
    "ScoreResult",
    "ScoreSettings",
    "ScoreStats",
    "SentenceTooLongError",
    "TokenLogprob",
    "load_model",
    "model_kind",
    "open_cache",
    "score_dataset",
    "score_pairs",
    "settings_from_table",
    "summarize",
    "token_logprobs",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'curate.score' has no attribute {name!r}")
    return getattr(importlib.import_module(f"curate.score.{module}"), name)
