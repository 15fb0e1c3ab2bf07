"""Cost of ``curate score --corpus`` per 1,000 sentences, beside a plain scoring run.

For a causal and a masked model (random weights of a chosen size, a tokenizer trained here on
the sentences), in one process on a fixed number of threads:

* **plain**: ``score_pairs`` on the first ``--pairs`` CrowS-Pairs pairs with the kind's default
  method (``pll`` for the masked model, ``clm-sum`` for the causal one), no cache;
* **corpus**: ``score_corpus`` on the first ``--sentences`` sentences of the named corpus
  ``stereoset-unrelated`` (StereoSet dev's unrelated options), no cache;
* **corpus, cached**: the same again from a filled cache (what a rerun of a sweep costs).

Printed per 1,000 sentences (corpus) and per 1,000 pairs (plain), with their ratio, and with
the process CPU time / (wall x threads): a share well below 1 means other processes took the
CPU and both figures are low (compare ratios within one run only). The fastest of
``--repeats`` runs counts, the same for every measurement.

Usage: ``python benchmarks/bench_corpus.py [--pairs 100] [--sentences 200] [--threads 2]
[--layers 4] [--width 256] [--json]`` with ``$CURATE_DATA_MIRROR`` (or the fetched
``data/raw``) holding crows_pairs_anonymized.csv and stereoset_dev.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from curate.datasets import named_corpus, read_pairs  # noqa: E402
from curate.score import load_model, score_pairs  # noqa: E402
from curate.score.corpus import score_corpus  # noqa: E402
from curate.score.corpusfile import Corpus  # noqa: E402
from curate.score.settings import ScoreSettings  # noqa: E402
from tests.support.tiny_models import _wrap, train_tokenizer  # noqa: E402


def _data(name: str) -> Path:
    mirror = os.environ.get("CURATE_DATA_MIRROR")
    for base in ([Path(mirror)] if mirror else []) + [ROOT / "data" / "raw"]:
        if (base / name).is_file():
            return base / name
    raise SystemExit(f"{name}: not found; set CURATE_DATA_MIRROR or run curate fetch")


def build(family: str, directory: Path, corpus: list[str], layers: int, width: int) -> Path:
    """A random model of ``family`` with ``layers`` layers of ``width``, its tokenizer trained
    on ``corpus`` (8,000 tokens)."""
    from transformers import BertConfig, BertForMaskedLM, GPT2Config, GPT2LMHeadModel

    tok = train_tokenizer(family, corpus, 8000)
    wrapped = _wrap(family, tok, 256)
    torch.manual_seed(0)
    heads = max(1, width // 64)
    if family == "gpt2":
        end = tok.token_to_id("<|endoftext|>")
        model = GPT2LMHeadModel(
            GPT2Config(
                vocab_size=tok.get_vocab_size(), n_positions=256, n_embd=width, n_layer=layers,
                n_head=heads, bos_token_id=end, eos_token_id=end,
            )
        )
    else:
        model = BertForMaskedLM(
            BertConfig(
                vocab_size=tok.get_vocab_size(), hidden_size=width, num_hidden_layers=layers,
                num_attention_heads=heads, intermediate_size=4 * width,
                max_position_embeddings=256, pad_token_id=tok.token_to_id("[PAD]"),
            )
        )
    wrapped.save_pretrained(directory)
    model.eval().save_pretrained(directory)
    return directory


def best(func: Callable[[], object], repeats: int) -> tuple[float, float]:
    """The fastest (wall, cpu) of ``repeats`` runs."""
    runs = []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        func()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--sentences", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    pairs = read_pairs(_data("crows_pairs_anonymized.csv"))[: args.pairs]
    sentences = named_corpus("stereoset-unrelated", _data("stereoset_dev.json"))
    corpus = Corpus("stereoset-unrelated", sentences[: args.sentences])
    text = [s for p in pairs for s in (p.sent_more, p.sent_less)] + list(corpus.sentences)
    settings = ScoreSettings(threads=args.threads)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family, method in (("gpt2", "clm-sum"), ("bert", "pll")):
            lm = load_model(str(build(family, Path(tmp) / family, text, args.layers, args.width)))
            plain = best(lambda lm=lm, method=method: score_pairs(pairs, lm, method, settings=settings), args.repeats)
            fresh = best(
                lambda lm=lm: score_corpus(corpus, lm, cache=None, settings=settings), args.repeats
            )
            cache = Path(tmp) / f"{family}.sqlite"
            score_corpus(corpus, lm, cache=cache, settings=settings)
            cached = best(
                lambda lm=lm, cache=cache: score_corpus(corpus, lm, cache=cache, settings=settings), args.repeats
            )
            per_pair = 1000 / len(pairs)
            per_sentence = 1000 / len(corpus.sentences)
            rows.append(
                {
                    "model": f"{family} ({args.layers} layers x {args.width}, random)",
                    "plain_method": method,
                    "plain_s_per_1000_pairs": plain[0] * per_pair,
                    "corpus_s_per_1000_sentences": fresh[0] * per_sentence,
                    "corpus_cached_s_per_1000_sentences": cached[0] * per_sentence,
                    "ratio_corpus_sentence_to_plain_pair": (fresh[0] * per_sentence)
                    / (plain[0] * per_pair),
                    "cpu_share_plain": plain[1] / (plain[0] * args.threads),
                    "cpu_share_corpus": fresh[1] / (fresh[0] * args.threads),
                }
            )
    if args.json:
        print(json.dumps({"pairs": len(pairs), "sentences": len(corpus.sentences),
                          "threads": args.threads, "rows": rows}, indent=2))
        return
    print(
        f"{len(pairs)} CrowS-Pairs pairs (plain) vs {len(corpus.sentences)} corpus sentences, "
        f"{args.threads} threads, fastest of {args.repeats}"
    )
    print(
        f"{'model':32} {'plain s/1k pairs':>17} {'corpus s/1k sent':>17} {'cached':>8} "
        f"{'ratio':>6} {'cpu share':>10}"
    )
    for r in rows:
        print(
            f"{r['model']:32} {r['plain_s_per_1000_pairs']:17.2f} "
            f"{r['corpus_s_per_1000_sentences']:17.2f} "
            f"{r['corpus_cached_s_per_1000_sentences']:8.3f} "
            f"{r['ratio_corpus_sentence_to_plain_pair']:6.2f} "
            f"{r['cpu_share_plain']:.2f}/{r['cpu_share_corpus']:.2f}"
        )


if __name__ == "__main__":
    main()
