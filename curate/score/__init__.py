"""Scoring: the CrowS-Pairs pseudo-log-likelihood metric of masked language models.

``score_pairs(pairs, model)`` gives per-pair sentence scores (:class:`ScoreResult`);
``summarize(result.scores)`` the metric and its breakdowns. See :mod:`curate.score.pll` for the
algorithm, :mod:`curate.score.cache` for the resumable cache and :mod:`curate.score.metrics`
for the definitions.

The names are imported lazily: ``curate.score.metrics`` and ``curate.score.files`` need no
torch, so reports that only read scores (and ``curate --help``) do not pay for importing it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curate.score.cache import ScoreCache
    from curate.score.metrics import DEFAULT_THRESHOLD, PairScore, summarize
    from curate.score.pll import (
        DEFAULT_BATCH_SIZE,
        METHOD,
        MaskedLM,
        ModelError,
        PrecisionWarning,
        ScoreResult,
        ScoreStats,
        SentenceTooLongError,
        load_model,
        score_pairs,
    )

_WHERE = {
    "ScoreCache": "cache",
    "DEFAULT_THRESHOLD": "metrics",
    "PairScore": "metrics",
    "summarize": "metrics",
    "DEFAULT_BATCH_SIZE": "pll",
    "METHOD": "pll",
    "MaskedLM": "pll",
    "ModelError": "pll",
    "PrecisionWarning": "pll",
    "ScoreResult": "pll",
    "ScoreStats": "pll",
    "SentenceTooLongError": "pll",
    "load_model": "pll",
    "score_pairs": "pll",
}

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_THRESHOLD",
    "METHOD",
    "MaskedLM",
    "ModelError",
    "PairScore",
    "PrecisionWarning",
    "ScoreCache",
    "ScoreResult",
    "ScoreStats",
    "SentenceTooLongError",
    "load_model",
    "score_pairs",
    "summarize",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'curate.score' has no attribute {name!r}")
    return getattr(importlib.import_module(f"curate.score.{module}"), name)
