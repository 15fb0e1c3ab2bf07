"""Per-token log-probabilities of scored pairs, read back from the score cache.

This is the explorer's ONE dependency on :mod:`curate.score`: the cache layout (how a
context and a sentence are keyed) and the pair's masked positions are the scorer's business,
so everything that knows about them lives in :func:`token_logprobs`. When the scorer changes
its keys (e.g. a new method becomes part of the context), only this function moves.

The cache holds one log-probability per masked copy of a sentence; which copies a pair uses
depends on its partner sentence (only the tokens both sentences share are masked, as in
``metric.py``), so the positions are recomputed here with the same difflib alignment of token
ids, and positions the pair does not mask come back as ``None``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: One sentence: ``[[token, logprob or None], ...]`` in token order, special tokens included.
SentenceTokens = list[list[Any]]


def _shared_positions(first: Sequence[int], second: Sequence[int]) -> tuple[list[int], list[int]]:
    """Positions of the tokens both id sequences share, minus the special tokens at the ends."""
    matcher = difflib.SequenceMatcher(None, [str(i) for i in first], [str(i) for i in second])
    a: list[int] = []
    b: list[int] = []
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            a.extend(range(a1, a2))
            b.extend(range(b1, b2))
    return a[1:-1], b[1:-1]


def token_logprobs(
    cache_path: Path,
    provenance: Mapping[str, Any],
    pairs: Sequence[tuple[str, str, str]],
) -> list[dict[str, SentenceTokens]] | None:
    """For each ``(sent_more, sent_less, direction)``: both sentences' tokens and the cached
    log-probability of every masked token (``None`` for the tokens the pair does not mask or
    the cache does not hold).

    ``provenance`` is a ``summary.json`` of ``curate score`` (model path, fingerprints, method,
    dtype, lowercase). Returns ``None`` when the cache file or the model's tokenizer is not
    available, so the page can say why it has no token chart.
    """
    from curate.score.cache import ScoreCache, context_key, sentence_key

    model = str(provenance.get("model", ""))
    if not Path(cache_path).is_file() or not Path(model).is_dir():
        return None
    from transformers import AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    try:
        tokenizer = AutoTokenizer.from_pretrained(model)
    except (OSError, ValueError):
        return None
    context = context_key(
        {
            "method": provenance["method"],
            "model": provenance["model_fingerprint"],
            "tokenizer": provenance["tokenizer_fingerprint"],
            "dtype": provenance["dtype"],
        }
    )
    lowercase = bool(provenance.get("lowercase"))

    def encode(text: str) -> tuple[int, ...]:
        return tuple(tokenizer.encode(text.lower() if lowercase else text))

    encoded = [(encode(more), encode(less), direction) for more, less, direction in pairs]
    keys = {ids: sentence_key(ids) for more, less, _ in encoded for ids in (more, less)}
    with ScoreCache(cache_path) as cache:
        values = cache.lookup(context, keys.values())
    results: list[dict[str, SentenceTokens]] = []
    for more, less, direction in encoded:
        if direction == "stereo":
            more_pos, less_pos = _shared_positions(more, less)
        else:
            less_pos, more_pos = _shared_positions(less, more)
        entry: dict[str, SentenceTokens] = {}
        for name, ids, positions in (("more", more, more_pos), ("less", less, less_pos)):
            masked = set(positions)
            tokens = tokenizer.convert_ids_to_tokens(list(ids))
            entry[name] = [
                [token, values.get((keys[ids], i)) if i in masked else None]
                for i, token in enumerate(tokens)
            ]
        results.append(entry)
    return results
