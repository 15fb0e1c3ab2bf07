"""How far do PLL scores move with the batch size (and the worker threads)? (issue 14, item 11)

Scores the sample pairs of ``tests/support/tiny_models.py`` with ``pll`` at batch sizes
1/8/32/64 (and with 1 vs 2 worker threads at batch size 32) on a tiny random BERT (hidden 32)
and on a random BERT-base-sized one (hidden 768, 12 layers), without a cache, and prints the
largest absolute difference of a sentence score from the batch-size-1 run. The answer decides
what goes into the score cache key (see docs/commands/score.md, Cache).

Run: ``python benchmarks/score_batch_drift.py`` (about a minute on 2 CPU cores).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from curate.score.engine import score_pairs
from curate.score.models import load_model
from tests.support.tiny_models import SAMPLE_PAIRS, build_tiny_model

BATCH_SIZES = (1, 8, 32, 64)


def bert_base_sized(directory: Path) -> Path:
    """The tiny BERT's tokenizer with a random model of BERT-base's width and depth."""
    from transformers import BertConfig, BertForMaskedLM

    build_tiny_model("bert", directory)
    tiny = BertConfig.from_pretrained(directory)
    torch.manual_seed(0)
    model = BertForMaskedLM(
        BertConfig(
            vocab_size=tiny.vocab_size,
            pad_token_id=tiny.pad_token_id,
            hidden_size=768,
            num_hidden_layers=12,
            num_attention_heads=12,
            intermediate_size=3072,
            max_position_embeddings=128,
        )
    )
    model.save_pretrained(directory)
    return directory


def sentence_scores(lm, batch_size: int, threads: int | None = None) -> list[float]:
    result = score_pairs(SAMPLE_PAIRS, lm, "pll", batch_size=batch_size, threads=threads)
    return [v for s in result.scores for v in (s.sent_more_score, s.sent_less_score)]


def drift(name: str, directory: Path) -> None:
    lm = load_model(directory, device="cpu")
    reference = sentence_scores(lm, 1)
    for batch_size in BATCH_SIZES[1:]:
        scores = sentence_scores(lm, batch_size)
        worst = max(abs(a - b) for a, b in zip(reference, scores, strict=True))
        print(f"{name}: batch {batch_size:>2} vs 1: max |score difference| = {worst:.3g}")
    one, two = sentence_scores(lm, 32, threads=1), sentence_scores(lm, 32, threads=2)
    worst = max(abs(a - b) for a, b in zip(one, two, strict=True))
    print(f"{name}: batch 32, 2 threads vs 1: max |score difference| = {worst:.3g}")
    again = sentence_scores(lm, 32)
    same = max(abs(a - b) for a, b in zip(sentence_scores(lm, 32), again, strict=True))
    print(f"{name}: batch 32 twice: max |score difference| = {same:.3g}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        drift("tiny BERT (hidden 32)", build_tiny_model("bert", Path(tmp) / "tiny"))
        drift("BERT-base-sized (hidden 768)", bert_base_sized(Path(tmp) / "base"))


if __name__ == "__main__":
    main()
