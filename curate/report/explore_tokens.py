"""Per-token log-probabilities of scored pairs, read back from the score cache.

This is the explorer's ONE dependency on :mod:`curate.score`, and it goes through the score
library's own reader (:func:`curate.score.engine.token_logprobs`) and planner
(:func:`curate.score.plan.plan_pairs`): the cache keys (model, method pass, sentence) and the
positions a method scores are the scorer's business, so a new method or key layout needs no
change here.

A sentence's cached numbers are not all part of its pair's score: for ``pll`` (and every method
that counts the *unmodified* tokens) only the tokens the sentence shares with its partner count,
so the pair's scored positions come from the same plan the scorer used, and the other positions
come back as ``None``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from curate.errors import CurateError

#: One sentence: ``[[token, logprob or None], ...]`` in token order, special tokens included.
SentenceTokens = list[list[Any]]


def _load_scoring_model(provenance: Mapping[str, Any]) -> Any | None:
    """The model ``provenance`` names, loaded as it was scored, or None when it is not available
    locally or is no longer the model that was scored (other weights or tokenizer)."""
    from curate.score.models import load_model

    model = str(provenance.get("model", ""))
    if not model or not Path(model).is_dir():
        return None
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lm = load_model(
                model,
                device="cpu",
                dtype=str(provenance.get("dtype", "float32")),
                lowercase=bool(provenance.get("lowercase")),
            )
    except (CurateError, OSError, ValueError):
        return None
    expected = (provenance.get("model_fingerprint"), provenance.get("tokenizer_fingerprint"))
    if expected != (lm.model_fingerprint, lm.tokenizer_fingerprint):
        return None
    return lm


def token_logprobs(
    cache_path: Path,
    provenance: Mapping[str, Any],
    pairs: Sequence[tuple[str, str, str]],
) -> list[dict[str, SentenceTokens]] | None:
    """For each ``(sent_more, sent_less, direction)``: both sentences' tokens and the cached
    log-probability of every token that counts in the pair's score under the scored method
    (``None`` for the tokens the pair does not score or the cache does not hold).

    ``provenance`` is a ``summary.json`` of ``curate score`` (model path, fingerprints, public
    method name, dtype, lowercase). Returns ``None`` when the cache file or the model is not
    available, so the page can say why it has no token chart.
    """
    from curate.score.methods import METHODS

    method = METHODS.get(str(provenance.get("method", "")))
    if method is None or method.dataset != "crows-pairs":  # e.g. imported: no model to load
        return None
    if not Path(cache_path).is_file():
        return None
    lm = _load_scoring_model(provenance)
    if lm is None or method.kind != lm.kind:
        return None
    from curate.pairs import Pair
    from curate.score.cache import open_cache
    from curate.score.engine import token_logprobs as cached_token_logprobs
    from curate.score.plan import plan_pairs

    plans = plan_pairs(
        (
            Pair(pair_id=i, sent_more=more, sent_less=less, direction=direction, bias_type="")
            for i, (more, less, direction) in enumerate(pairs)
        ),
        lm,
        method,
    )
    results: list[dict[str, SentenceTokens]] = []
    with open_cache(cache_path) as store:
        for plan, (more, less, _) in zip(plans, pairs, strict=True):
            entry: dict[str, SentenceTokens] = {}
            for name, text, sentence in (("more", more, plan.more), ("less", less, plan.less)):
                scored = set(sentence.positions)
                entry[name] = [
                    [t.token, t.logprob if t.position in scored else None]
                    for t in cached_token_logprobs(text, lm, method, store)
                ]
            results.append(entry)
    return results
