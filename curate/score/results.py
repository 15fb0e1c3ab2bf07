"""What scoring pairs gives back: per-pair scores with their provenance, and the work done.

Apart from the engine (:mod:`curate.score.engine`, which imports torch) because the records
travel: a sweep's worker sends each :class:`ScoreResult` to the driver, which writes the files
from it and must not import torch to read it (issue 32).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from curate.score.methods import CLM_BIAS_BENCH_PASS, METHODS, Method
from curate.score.metrics import PairScore

#: ``progress(done, total)``: jobs computed so far and to compute in this run.
ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ScoreStats:
    """How much work a scoring run did and how much the cache saved.

    ``masked_tokens`` is the number of scored tokens of every sentence (for ``pll``, the
    forward passes the original ``metric.py`` would run); ``unique_jobs`` the distinct jobs
    (masked copies, or whole sentences for the one-pass methods: ``unit``); ``cache_hits``
    those read from the cache and ``computed`` those run through the model, in ``batches``
    batched forward passes.
    """

    pairs: int
    masked_tokens: int
    unique_jobs: int
    cache_hits: int
    computed: int
    batches: int
    seconds: float
    unit: str = "masked copies"

    @property
    def forward_passes_saved(self) -> int:
        """Jobs the cache served instead of the model."""
        return self.cache_hits


@dataclass(frozen=True)
class ScoreResult:
    """Per-pair scores of one model with one method on one dataset, with provenance."""

    model: str
    model_fingerprint: str
    tokenizer_fingerprint: str
    method: str
    dtype: str
    lowercase: bool
    head_mode: str
    scores: tuple[PairScore, ...]
    stats: ScoreStats
    model_kind: str = "masked"
    #: Part of the cache key (see LoadedModel.context); None when not recorded.
    batch_size: int | None = None

    def by_id(self) -> dict[int, PairScore]:
        """The scores keyed by pair id."""
        return {s.pair_id: s for s in self.scores}

    def provenance(self) -> dict[str, Any]:
        """What produced these numbers (deterministic: no timings, no cache counts)."""
        method = METHODS[self.method]
        return {
            "model": self.model,
            "model_kind": self.model_kind,
            "model_fingerprint": self.model_fingerprint,
            "tokenizer_fingerprint": self.tokenizer_fingerprint,
            "method": method.name,
            "method_pass": method.pass_id,
            "tokens": method.tokens,
            "reduction": method.reduction,
            "counted": counted_tokens(method),
            "equals": method.peer,
            "tie_rule": method.tie_rule,
            "rounded_to_decimals": method.decimals,
            "other_peers": method.others,
            "dtype": self.dtype,
            "lowercase": self.lowercase,
            **({} if self.batch_size is None else {"batch_size": self.batch_size}),
        }


def counted_tokens(method: Method) -> str:
    """Which tokens a method's sentence score counts, in words (for every output)."""
    if method.pass_id == CLM_BIAS_BENCH_PASS:
        return (
            "every token of the sentence: the first given the prefix token alone, each later "
            "one given the sentence's tokens before it without the prefix token (bias-bench)"
        )
    if method.kind == "causal":
        scope = (
            "the sentence's tokens shared with the other sentence"
            if method.tokens == "unmodified"
            else "every token of the sentence"
        )
        return f"{scope}, each conditioned on the prefix token and the tokens before it"
    if method.tokens == "unmodified":
        return "the tokens shared with the other sentence, special tokens excluded"
    return "every token of the sentence, special tokens excluded"
