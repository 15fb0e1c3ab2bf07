"""StereoSet with a masked LM's pseudo-log-likelihood (the seed paper's Table 7 routes).

* Intrasentence: the candidate sentence (the context with its ``BLANK`` filled by the
  candidate's word) is tokenised; the tokens of the filled word are never masked; every other
  token but the special ones is masked alone and the log-probability of the original token is
  added. The filled word's characters are those the context's ``BLANK`` stands for: the
  sentence's word at the ``BLANK`` word's index, minus the context word's text before and after
  ``BLANK`` (``"BLANK."`` leaves the ``.`` to the context); a context with two ``BLANK``s
  keeps both filled words unmasked. Unlike CrowS-Pairs' ``pll`` there is no alignment between
  sentences: the three candidates of an item share the context by construction.
* Intersentence: the PLL of the context sentence's tokens, masked one at a time, with the
  candidate present and unmasked after it in the same input (``[CLS] context [SEP] candidate
  [SEP]``, the tokenizer's sentence-pair layout): how well the candidate explains the context.

Both need a fast tokenizer (character offsets, sequence ids). Copies are batched with padding
and an attention mask; a sentence score is the sum over its masked copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from curate.benchmarks.stereoset.items import StereoSetItem
from curate.benchmarks.stereoset.score_lm import GOLD_FIELDS

Job = tuple[tuple[str, str], list[int], list[int], int]  # key, ids, token types, position


def filled_spans(context: str, sentence: str) -> list[tuple[int, int]]:
    """Character spans of ``sentence`` that fill the context's ``BLANK`` words."""
    context_words = context.split(" ")
    words = sentence.split(" ")
    starts = [0]
    for word in words[:-1]:
        starts.append(starts[-1] + len(word) + 1)
    spans = []
    for index, context_word in enumerate(context_words):
        if "BLANK" not in context_word or index >= len(words):
            continue
        before, after = context_word.split("BLANK", 1)[0], context_word.rsplit("BLANK", 1)[1]
        word, start = words[index], starts[index]
        if word.startswith(before) and word.endswith(after) and len(word) > len(before) + len(after):
            spans.append((start + len(before), start + len(word) - len(after)))
        else:
            spans.append((start, start + len(word)))
    if not spans:
        raise ValueError(f"sentence {sentence!r} has no word where the context {context!r} has BLANK")
    return spans


def _encode(tokenizer: Any, text: str, pair: str | None = None) -> Any:
    if not getattr(tokenizer, "is_fast", False):
        raise ValueError("the stereoset-pll routes need a fast tokenizer (character offsets)")
    return tokenizer(text, pair, return_offsets_mapping=True, return_special_tokens_mask=True)


def intrasentence_jobs(items: Sequence[StereoSetItem], tokenizer: Any) -> list[Job]:
    """One masked copy per context token of every candidate sentence."""
    jobs: list[Job] = []
    for item in items:
        for gold, field in GOLD_FIELDS:
            sentence = getattr(item, field)
            spans = filled_spans(item.context, sentence)
            encoded = _encode(tokenizer, sentence)
            ids = encoded["input_ids"]
            types = encoded.get("token_type_ids") or [0] * len(ids)
            for position, (special, (start, end)) in enumerate(
                zip(encoded["special_tokens_mask"], encoded["offset_mapping"], strict=True)
            ):
                if special or any(start < b and end > a for a, b in spans):
                    continue
                jobs.append(((item.item_id, gold), ids, types, position))
    return jobs


def intersentence_jobs(items: Sequence[StereoSetItem], tokenizer: Any) -> list[Job]:
    """One masked copy per context token of every (context, candidate) pair."""
    jobs: list[Job] = []
    for item in items:
        for gold, field in GOLD_FIELDS:
            encoded = _encode(tokenizer, item.context, getattr(item, field))
            ids = encoded["input_ids"]
            types = encoded.get("token_type_ids") or [0] * len(ids)
            for position, (sequence, special) in enumerate(
                zip(encoded.sequence_ids(), encoded["special_tokens_mask"], strict=True)
            ):
                if sequence == 0 and not special:
                    jobs.append(((item.item_id, gold), ids, types, position))
    return jobs


@torch.inference_mode()
def run_jobs(
    jobs: Sequence[Job], model: Any, tokenizer: Any, keys: Sequence[tuple[str, str]], *, batch_size: int = 32
) -> dict[tuple[str, str], float]:
    """Sum of log P(original token | the copy) per key (0.0 for a key without jobs)."""
    device = next(model.parameters()).device
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    mask = tokenizer.mask_token_id
    scores = dict.fromkeys(keys, 0.0)
    for start in range(0, len(jobs), batch_size):
        batch = jobs[start : start + batch_size]
        width = max(len(ids) for _, ids, _, _ in batch)
        ids = torch.full((len(batch), width), pad, dtype=torch.long)
        types = torch.zeros((len(batch), width), dtype=torch.long)
        attention = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (_, sequence, token_types, position) in enumerate(batch):
            ids[row, : len(sequence)] = torch.tensor(sequence)
            types[row, : len(sequence)] = torch.tensor(token_types)
            attention[row, : len(sequence)] = 1
            ids[row, position] = mask
        inputs = {"input_ids": ids.to(device), "attention_mask": attention.to(device)}
        if "token_type_ids" in getattr(tokenizer, "model_input_names", ()):
            inputs["token_type_ids"] = types.to(device)
        logits = model(**inputs).logits
        rows = torch.arange(len(batch), device=logits.device)
        positions = torch.tensor([p for *_, p in batch], device=logits.device)
        originals = torch.tensor([s[p] for _, s, _, p in batch], device=logits.device)
        logprobs = logits[rows, positions].float().log_softmax(dim=-1)[rows, originals].tolist()
        for (key, *_), value in zip(batch, logprobs, strict=True):
            scores[key] += value
    return scores


def pll_scores(
    items: Sequence[StereoSetItem], model: Any, tokenizer: Any, *, batch_size: int = 32
) -> dict[tuple[str, str], float]:
    """The PLL route of each item's kind: ``{(item_id, gold): sum of log-probabilities}``."""
    intra = [i for i in items if i.kind == "intrasentence"]
    inter = [i for i in items if i.kind == "intersentence"]
    jobs = intrasentence_jobs(intra, tokenizer) + intersentence_jobs(inter, tokenizer)
    keys = [(item.item_id, gold) for item in items for gold, _ in GOLD_FIELDS]
    return run_jobs(jobs, model, tokenizer, keys, batch_size=batch_size)
