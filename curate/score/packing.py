"""Causal forward passes over packed rows: the two sentences of a pair in one row, their common
prefix computed once.

Pure tensor mechanics on a loaded causal model (duck-typed: ``pad_token_id``, ``device``,
``model``, and ``base``/``head`` when the head runs only where needed): below both the model
loader (:mod:`curate.score.models`, which probes at load whether packing gives each sentence its
own numbers) and the passes (:mod:`curate.score.passes`), so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch


def common_prefix(first: Sequence[int], second: Sequence[int]) -> int:
    """The number of leading tokens two id sequences share."""
    n = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        n += 1
    return n


def token_logprobs(
    lm: Any,
    hidden: torch.Tensor | None,
    logits: torch.Tensor | None,
    rows: torch.Tensor,
    at: torch.Tensor,
    targets: torch.Tensor,
) -> list[float]:
    """``log softmax(logits)[target]`` at the given (row, position)s, the head run only there."""
    if hidden is not None:
        selected = lm.head(hidden[rows, at]).float()  # type: ignore[attr-defined]
    else:
        assert logits is not None
        selected = logits[rows, at].float()
    chosen = selected.gather(1, targets[:, None])[:, 0] - torch.logsumexp(selected, dim=-1)
    return chosen.cpu().tolist()


#: Pack the two sentences of a pair into one row (False only to measure what packing saves:
#: benchmarks/bench_methods.py).
PACK_PAIRS = True


@dataclass
class _Packed:
    """One forward-pass row holding one or two sequences (``a``, then ``b`` after their common
    prefix), with the row index where each token of each sequence sits."""

    tokens: list[int]
    positions: list[int]
    #: per sequence: the row index of each of its tokens
    where: list[list[int]]
    shared: int


def _pack(first: Sequence[int], second: Sequence[int] | None) -> _Packed:
    if second is None:
        return _Packed(list(first), list(range(len(first))), [list(range(len(first)))], 0)
    k = common_prefix(first, second)
    tail = list(second[k:])
    b_where = list(range(k)) + list(range(len(first), len(first) + len(tail)))
    return _Packed(
        [*first, *tail],
        [*range(len(first)), *range(k, len(second))],
        [list(range(len(first))), b_where],
        k,
    )


def _packed_mask(rows: Sequence[_Packed], width: int, dtype: torch.dtype) -> torch.Tensor:
    """The additive 4D attention mask of packed rows: every token sees the tokens before it in
    its own sequence (the common prefix is in both), padding sees only itself."""
    allowed = torch.zeros((len(rows), width, width), dtype=torch.bool)
    for r, row in enumerate(rows):
        for where in row.where:
            index = torch.tensor(where, dtype=torch.long)
            allowed[r, index[:, None], index[None, :]] = torch.tril(
                torch.ones(len(where), len(where), dtype=torch.bool)
            )
        for pad in range(len(row.tokens), width):
            allowed[r, pad, pad] = True
    mask = torch.zeros(allowed.shape, dtype=dtype)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return mask[:, None]


def next_token_logprobs(
    lm: Any, sequences: Sequence[Sequence[int]], pack: bool | None = None
) -> list[list[float]]:
    """``log P(s_i | s_<i)`` for ``i = 1..len(s)-1`` of every sequence, in one forward pass.

    Sequences that follow each other in the list and share leading tokens (the two sentences of
    a pair, sorted side by side by the plan) are packed into one row: ``a``, then ``b``'s tokens
    after the common prefix, with position ids restarting where ``b`` leaves ``a`` and a 4D
    mask so that ``b``'s tokens see the prefix and ``b``'s own tokens only. Causal attention
    makes the prefix's hidden states the same in both sentences, so they are computed once (the
    numbers equal one row per sentence to float rounding, tested to 1e-5); the head runs once
    per distinct (row, index), and a shared prefix's log-probabilities are read for both.
    ``pack`` defaults to :data:`PACK_PAIRS` for a model whose packing was checked at load
    (``CausalLM.packs_pairs``).
    """
    if pack is None:
        pack = PACK_PAIRS and lm.packs_pairs
    rows: list[_Packed] = []
    owner: list[tuple[int, int]] = []  # per sequence: (row, which)
    i = 0
    while i < len(sequences):
        first = sequences[i]
        if pack and i + 1 < len(sequences) and common_prefix(first, sequences[i + 1]) > 0:
            rows.append(_pack(first, sequences[i + 1]))
            owner += [(len(rows) - 1, 0), (len(rows) - 1, 1)]
            i += 2
        else:
            rows.append(_pack(first, None))
            owner.append((len(rows) - 1, 0))
            i += 1
    width = max(len(row.tokens) for row in rows)
    input_ids = torch.full((len(rows), width), lm.pad_token_id, dtype=torch.long)
    position_ids = torch.zeros((len(rows), width), dtype=torch.long)
    for r, row in enumerate(rows):
        input_ids[r, : len(row.tokens)] = torch.tensor(row.tokens, dtype=torch.long)
        position_ids[r, : len(row.positions)] = torch.tensor(row.positions, dtype=torch.long)
    # unpacked rows need no mask: right padding cannot reach a causal model's real tokens
    single = all(len(row.where) == 1 for row in rows)
    # (row, index) -> targets wanted there; a shared prefix index is asked once per target
    slots: dict[tuple[int, int, int], int] = {}
    lookups: list[list[int]] = []
    for (r, which), sequence in zip(owner, sequences, strict=True):
        where = rows[r].where[which]
        mine = []
        for t in range(1, len(sequence)):
            slot = (r, where[t - 1], sequence[t])
            if slot not in slots:
                slots[slot] = len(slots)
            mine.append(slots[slot])
        lookups.append(mine)
    kwargs: dict[str, torch.Tensor] = {
        "input_ids": input_ids.to(lm.device),
        "position_ids": position_ids.to(lm.device),
    }
    if not single:  # plain full-length rows need no mask (causal by default)
        dtype = next(lm.model.parameters()).dtype
        kwargs["attention_mask"] = _packed_mask(rows, width, dtype).to(lm.device)
    order = list(slots)
    values: list[float] = []
    if order:
        with torch.inference_mode():
            if lm.head is not None:
                hidden, logits = lm.base(**kwargs)[0], None
            else:
                hidden, logits = None, lm.model(**kwargs).logits
            values = token_logprobs(
                lm,
                hidden,
                logits,
                torch.tensor([r for r, _, _ in order], device=lm.device),
                torch.tensor([x for _, x, _ in order], device=lm.device),
                torch.tensor([t for _, _, t in order], device=lm.device),
            )
    return [[values[k] for k in mine] for mine in lookups]


