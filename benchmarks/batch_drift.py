"""How far scores move with the batch size (issue 14 item 11): same pairs, batch 1/8/32/64.

Run: ``python benchmarks/batch_drift.py`` (tiny random models from tests/support, no hub).
Prints the max absolute difference of each batch size's scores against batch size 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from curate.score.engine import score_pairs
from curate.score.models import load_model
from tests.support.tiny_models import single_thread, tiny_model_dir


def main() -> None:
    from curate.pairs import Pair

    words = ["the", "nurse", "said", "that", "he", "was", "tired", "of", "the", "long", "shift", "at", "the", "old", "hospital"]
    pairs = [
        Pair(pair_id=i, sent_more=" ".join(words[: 4 + i % 10]) + " today",
             sent_less=" ".join(words[: 4 + i % 10]) + " yesterday",
             direction="stereo", bias_type="gender")
        for i in range(64)
    ]
    for family in ("bert", "gpt2"):
        lm = load_model(tiny_model_dir(family))
        with single_thread():
            runs = {b: score_pairs(pairs, lm, batch_size=b) for b in (1, 8, 32, 64)}
        base = runs[1]
        for b, res in runs.items():
            diff = max(
                max(abs(a.sent_more_score - c.sent_more_score),
                    abs(a.sent_less_score - c.sent_less_score))
                for a, c in zip(base.scores, res.scores, strict=True)
            )
            print(f"{family} batch {b}: max abs diff vs batch 1 = {diff:.2e}")


if __name__ == "__main__":
    main()
