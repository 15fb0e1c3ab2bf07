"""The CrowS-Pairs pseudo-log-likelihood of a masked LM (``pll``): exact, batched and cached.

The numbers are those of the original ``metric.py`` (Nangia et al. 2020): lower-case both
sentences for an uncased model, tokenise them, align the two token-id sequences with difflib's
``SequenceMatcher`` (stereotypical sentence first, as ``metric.py`` does), and for each token in
an ``equal`` span except the first and the last (the special tokens around the sentence) mask it
alone and add ``log P(original token)``; the sum is the sentence score ``log P(U|M)``.

``metric.py`` runs one forward pass per masked token, computing full-vocabulary logits at every
position. Here the same numbers come much faster: every masked copy is a job, identical jobs run
once and cached ones not at all (:mod:`curate.score.plan`); jobs are batched by length and the
LM head runs only at the masked position (:func:`curate.score.passes.masked_copies`); on a CPU
each thread runs whole batches single-threaded (:func:`curate.score.passes.run_batches`); each
finished batch is committed to the cache (:func:`curate.score.engine.score_pairs`).

The PLL is one of several methods (:mod:`curate.score.methods`); this module keeps the names
that code written for the PLL alone imports.
"""

from __future__ import annotations

from curate.score.engine import score_pairs
from curate.score.kinds import ModelError
from curate.score.methods import PLL_PASS
from curate.score.models import (
    BF16_WARNING,
    DEVICES,
    DTYPES,
    MaskedLM,
    PrecisionWarning,
    load_model,
    model_fingerprint,
    resolve_device,
    tokenizer_fingerprint,
)
from curate.score.passes import masked_copies, run_batches
from curate.score.plan import (
    MAX_PADDING,
    Job,
    PairPlan,
    SentenceTooLongError,
    batch_jobs,
    plan_jobs,
    plan_pairs,
    unmodified_positions,
)
from curate.score.results import ProgressCallback, ScoreResult, ScoreStats
from curate.score.settings import DEFAULT_BATCH_SIZE

#: The cache pass of the PLL (unchanged, so existing caches keep serving it).
METHOD = PLL_PASS

__all__ = [
    "BF16_WARNING",
    "DEFAULT_BATCH_SIZE",
    "DEVICES",
    "DTYPES",
    "MAX_PADDING",
    "METHOD",
    "Job",
    "MaskedLM",
    "ModelError",
    "PairPlan",
    "PrecisionWarning",
    "ProgressCallback",
    "ScoreResult",
    "ScoreStats",
    "SentenceTooLongError",
    "batch_jobs",
    "load_model",
    "masked_copies",
    "model_fingerprint",
    "plan_jobs",
    "plan_pairs",
    "resolve_device",
    "run_batches",
    "score_pairs",
    "tokenizer_fingerprint",
    "unmodified_positions",
]
