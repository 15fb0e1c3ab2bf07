"""StereoSet intersentence items with a masked LM's pretrained next-sentence-prediction head.

The official route for masked LMs (``eval_discriminative_models.py``, ``evaluate_intersentence``
with ``BertNextSentence`` = ``BertForNextSentencePrediction``, ``intersentence_loader.py``):
each candidate is put after the context as a sentence pair, ``[CLS] context [SEP] candidate
[SEP]`` with token type 0 up to the first ``[SEP]`` and 1 after it, and its score is the softmax
probability of the head's index 0, "IsNext" (the official code reads index 0 for ``bert*``
models, whose head is Google's pretrained one).

Only a checkpoint whose weights hold the head can be scored this way: BERT-family checkpoints
saved as ``BertForPreTraining`` or ``BertForNextSentencePrediction`` do (``bert-base-uncased``
on the hub does), a model fine-tuned as ``BertForMaskedLM`` or a RoBERTa (trained without
NSP) does not. :func:`nsp_head` loads the head and refuses any checkpoint for which transformers
would initialise a weight at random, so no score ever comes from an untrained head.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from curate.benchmarks.stereoset.items import StereoSetItem
from curate.benchmarks.stereoset.score_lm import GOLD_FIELDS
from curate.score.kinds import model_source
from curate.score.models import DTYPES, LoadedModel, model_fingerprint


@dataclass(frozen=True)
class NSPHead:
    """A loaded next-sentence-prediction model, or why there is none."""

    model: Any = None
    fingerprint: str = ""
    missing: str = ""


_HEADS: weakref.WeakKeyDictionary[LoadedModel, NSPHead] = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """transformers prints a load report of missing weights; the missing head is our message."""
    from transformers.utils import logging as hf_logging

    before = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        yield
    finally:
        hf_logging.set_verbosity(before)


def nsp_head(lm: LoadedModel) -> NSPHead:
    """The model's pretrained NSP head (loaded once per loaded model), or the reason it has none."""
    if lm not in _HEADS:
        _HEADS[lm] = _load_head(lm)
    return _HEADS[lm]


def _load_head(lm: LoadedModel) -> NSPHead:
    from transformers import AutoModelForNextSentencePrediction
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_NEXT_SENTENCE_PREDICTION_MAPPING_NAMES,
    )

    model_type = str(getattr(lm.model.config, "model_type", ""))
    if model_type not in MODEL_FOR_NEXT_SENTENCE_PREDICTION_MAPPING_NAMES:
        return NSPHead(missing=f"{model_type or 'such'} models have no next-sentence-prediction head")
    try:
        with _quiet():
            model, info = AutoModelForNextSentencePrediction.from_pretrained(
                model_source(lm.name), dtype=torch.float32, output_loading_info=True
            )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return NSPHead(missing=f"its next-sentence-prediction model cannot be loaded: {reason}")
    missing = sorted(info.get("missing_keys") or (), key=lambda k: ("seq_relationship" not in k, k))
    if missing:
        more = " ..." if len(missing) > 2 else ""
        return NSPHead(missing=f"its weights lack {', '.join(missing[:2])}{more}")
    model.eval()
    fingerprint = model_fingerprint(model)
    model.to(device=lm.device, dtype=DTYPES[lm.dtype])
    return NSPHead(model, fingerprint)


@torch.inference_mode()
def nsp_scores(
    items: Sequence[StereoSetItem], model: Any, tokenizer: Any, *, batch_size: int = 32
) -> dict[tuple[str, str], float]:
    """p(IsNext | context, candidate) of every intersentence candidate: ``{(item_id, gold): p}``."""
    jobs = [
        ((item.item_id, gold), item.context, getattr(item, field))
        for item in items
        for gold, field in GOLD_FIELDS
    ]
    device = next(model.parameters()).device
    scores: dict[tuple[str, str], float] = {}
    for start in range(0, len(jobs), batch_size):
        batch = jobs[start : start + batch_size]
        encoded = tokenizer(
            [context for _, context, _ in batch],
            [sentence for _, _, sentence in batch],
            padding=True,
            return_tensors="pt",
        )
        encoded = {k: v.to(device) for k, v in encoded.items()}
        probabilities = model(**encoded).logits.float().softmax(dim=-1)[:, 0].tolist()
        for (key, _, _), p in zip(batch, probabilities, strict=True):
            scores[key] = p
    return scores
