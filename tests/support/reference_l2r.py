"""``pll-word-l2r`` as minicons 0.3.39 computes it (Kauf & Ivanova 2023), on the CrowS positions.

minicons' ``MaskedLMScorer`` with ``PLL_metric="within_word_l2r"`` gives, for every token of a
sentence but the special ones, ``log P(token)`` with the token and the tokens of the same word
to its right masked (word membership from the fast tokenizer's ``word_ids()``). The CrowS-Pairs
variant adds these over the unmodified tokens that ``metric.py`` masks (``get_span`` of
:mod:`tests.support.reference_pll`, the first and last dropped). minicons calls
``tokenizer.batch_encode_plus``, which transformers 5 removed: a subclass restores it.
"""

from __future__ import annotations

from pathlib import Path

import torch

from curate.pairs import Pair
from tests.support.reference_pll import get_span


def minicons_scorer(path: Path):
    """A minicons ``MaskedLMScorer`` on the saved model, its tokenizer patched for minicons."""
    from minicons import scorer
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    loaded = AutoTokenizer.from_pretrained(path)

    def batch_encode_plus(self, batch, **kwargs):
        return self(list(batch), **kwargs)

    patched = type(type(loaded).__name__, (type(loaded),), {"batch_encode_plus": batch_encode_plus})
    tokenizer = patched.from_pretrained(path)
    model = AutoModelForMaskedLM.from_pretrained(path, dtype=torch.float32)
    model.eval()
    return scorer.MaskedLMScorer(model, device="cpu", tokenizer=tokenizer)


def token_logprobs(mc, sentence: str) -> tuple[list[int], dict[int, float]]:
    """The sentence's ids and minicons' within_word_l2r log-probability per scored position."""
    encoded = mc.tokenizer([sentence], return_tensors="pt", padding=True)
    (batch,) = list(mc.prepare_text(encoded, PLL_metric="within_word_l2r"))
    (scores,) = mc.compute_stats([batch])
    positions = batch[3].tolist()
    return encoded["input_ids"][0].tolist(), dict(zip(positions, scores, strict=True))


def reference_pair_scores(mc, pair: Pair, uncased: bool) -> tuple[float, float]:
    """``(sent_more_score, sent_less_score)``: minicons' numbers summed over metric.py's span."""
    stereo, anti = pair.disadvantaged_sentence, pair.advantaged_sentence
    if uncased:
        stereo, anti = stereo.lower(), anti.lower()
    ids1, lp1 = token_logprobs(mc, stereo)
    ids2, lp2 = token_logprobs(mc, anti)
    template1, template2 = get_span(torch.tensor(ids1), torch.tensor(ids2))
    s1 = sum(lp1[p] for p in template1[1:-1])
    s2 = sum(lp2[p] for p in template2[1:-1])
    return (s1, s2) if pair.direction == "stereo" else (s2, s1)
