"""Scoring: the CrowS-Pairs pseudo-log-likelihood metric of masked language models.

``score_pairs(pairs, model)`` gives per-pair sentence scores (:class:`ScoreResult`);
``summarize(result.scores)`` the metric and its breakdowns. See :mod:`curate.score.pll` for the
algorithm, :mod:`curate.score.cache` for the resumable cache and :mod:`curate.score.metrics`
for the definitions.
"""

from __future__ import annotations

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
