"""Speed of the scoring methods: causal scoring vs minicons, AUL vs the PLL, in one run.

Both comparisons score the same first N CrowS-Pairs pairs, side by side in one process on a
fixed number of threads. Timings on a shared CPU are noisy, so only ratios within one run are
compared, and every figure comes with the process CPU time / (wall time x threads): a share
well below 1 means other processes took the CPU and the figures are low. Each scorer is timed
``--repeats`` times after a warm-up and the fastest run counts, the same for every scorer.

* **causal**: a randomly initialised GPT-2 small (``GPT2Config()`` defaults: 12 layers, 768
  wide, the 50,257-token vocabulary, so GPT-2 small's compute) with a byte-level BPE tokenizer
  trained here on the CrowS-Pairs sentences (its ids fit the vocabulary; the real GPT-2 merges
  are not shipped by any package). **minicons** is ``IncrementalLMScorer.sequence_score``
  with ``bos_token=True`` and a sum reduction (the harness's log-likelihood after
  ``<|endoftext|>``), timed at several batch sizes (``--minicons-batches``), the best of which
  is compared; **curate** is
  ``score_pairs(..., "clm-sum")`` (the pass that ``clm-shared`` and ``clm-mean-prefixed``
  share), which packs the two sentences of a pair into one row computing their common prefix
  once; it is also timed with the packing off (``packing.PACK_PAIRS = False``: one row per
  sentence), to show what the sharing gains, and ``clm-mean`` (bias-bench's conditioning, its
  own pass) for information. The scores must agree per sentence with minicons and with the
  unshared run; the largest differences are printed.
* **masked**: the random BERT-base of ``bench_pll.py`` (``BertConfig()``, bert-base-uncased
  vocabulary): ``score_pairs(..., "aul")`` vs ``score_pairs(..., "pll")``, in pairs/s.
  ``aula`` and ``pll-word-l2r`` are timed too, for information.

Usage: ``python benchmarks/bench_methods.py [--pairs 40] [--threads 2] [--data PATH]
[--only causal|masked]``
(needs the ``bench`` extra: ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pll import Timing, build_model, matmul_peak, timed

from curate.config import load_config
from curate.datasets import read_pairs
from curate.pairs import Pair
from curate.score import load_model, score_pairs

TARGETS = {"causal_vs_minicons": 1.5, "aul_vs_pll": 8.0}


def causal_flops(lengths: Sequence[int], config) -> float:
    """FLOPs of the causal pass: every row (a pair packed with its common prefix once)
    through the layers, the vocabulary projection at every position but the last of each row
    (an approximation: a packed row projects the first differing position twice)."""
    h, layers, vocab = config.n_embd, config.n_layer, config.vocab_size
    inner = config.n_inner or 4 * h
    total = 0.0
    for n in lengths:
        per_row = 2 * (4 * h * h + 2 * h * inner) + 2 * 2 * n * h
        total += layers * n * per_row + (n - 1) * 2 * h * vocab
    return total


def build_gpt2(directory: Path, corpus: Sequence[str], seed: int = 0) -> None:
    """Save a random GPT-2 small and a byte-level BPE tokenizer trained on ``corpus``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Tokenizer

    end = "<|endoftext|>"
    tok = Tokenizer(models.BPE(continuing_subword_prefix="", end_of_word_suffix=""))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=8000,
        special_tokens=[end],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(corpus, trainer)
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    tokenizer = GPT2Tokenizer(
        tokenizer_object=tok, bos_token=end, eos_token=end, unk_token=end, model_max_length=1024
    )
    config = GPT2Config(bos_token_id=tok.token_to_id(end), eos_token_id=tok.token_to_id(end))
    if tok.get_vocab_size() > config.vocab_size:
        raise SystemExit(f"tokenizer has {tok.get_vocab_size()} ids, more than the model's")
    torch.manual_seed(seed)
    model = GPT2LMHeadModel(config)
    tokenizer.save_pretrained(directory)
    model.save_pretrained(directory)


def minicons_incremental(model, directory: Path):
    """A minicons IncrementalLMScorer on the same model; restores ``batch_encode_plus``."""
    from minicons import scorer
    from transformers import GPT2Tokenizer

    class Tokenizer(GPT2Tokenizer):
        # minicons 0.3.39 calls batch_encode_plus, which transformers 5 removed.
        def batch_encode_plus(self, batch, **kwargs):
            return self(list(batch), **kwargs)

    return scorer.IncrementalLMScorer(
        model, device="cpu", tokenizer=Tokenizer.from_pretrained(directory)
    )


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40, help="first N CrowS-Pairs pairs")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--data", type=Path, default=None, help="CrowS-Pairs CSV")
    parser.add_argument(
        "--minicons-batches",
        default="2,8,32",
        help="sentences per minicons call, comma list: each is timed, the best is compared",
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="timings per scorer; the fastest one counts"
    )
    parser.add_argument(
        "--only",
        choices=("causal", "masked"),
        default=None,
        help="run one of the two comparisons (default: both)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    import warnings

    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    warnings.filterwarnings("ignore", message="tokenizer is changed")
    torch.set_num_threads(args.threads)
    threads = torch.get_num_threads()
    all_pairs = read_pairs(args.data or load_config().data)
    pairs: list[Pair] = all_pairs[: args.pairs]
    bench = Bench(pairs, threads, args.repeats)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-methods-") as tmp:
        if args.only != "masked":
            corpus = [s for p in all_pairs for s in (p.sent_more, p.sent_less)]
            batches = [int(x) for x in args.minicons_batches.split(",")]
            figures |= run_causal(bench, Path(tmp), corpus, batches)
        if args.only != "causal":
            run_masked(bench, Path(tmp))
    report(bench, figures, args.json)


class Bench:
    """The pairs, the timing rule (best of ``repeats``) and the rows of figures."""

    def __init__(self, pairs: list[Pair], threads: int, repeats: int) -> None:
        self.pairs = pairs
        self.threads = threads
        self.repeats = repeats
        self.rows: dict[str, dict[str, float]] = {}

    def best_of(self, func):
        """The result and the fastest of ``repeats`` timings (all scorers alike)."""
        runs = [timed(func) for _ in range(self.repeats)]
        return runs[0][0], min((t for _, t in runs), key=lambda t: t.wall)

    def record(self, name: str, timing: Timing, tokens: int | None = None) -> None:
        self.rows[name] = {
            "seconds": timing.wall,
            "pairs_per_s": len(self.pairs) / timing.wall,
            "cpu_share": timing.share(self.threads),
            **({"tokens_per_s": tokens / timing.wall} if tokens else {}),
        }


def run_causal(bench: Bench, tmp: Path, corpus: list[str], batches: list[int]) -> dict[str, float]:
    """curate clm-sum (prefix shared, and not) and clm-mean vs minicons IncrementalLMScorer."""
    from curate.score import packing
    from curate.score.plan import plan_jobs, plan_pairs, row_length

    pairs = bench.pairs
    sentences = [s for p in pairs for s in (p.sent_more, p.sent_less)]
    gpt2_dir = tmp / "gpt2-random"
    build_gpt2(gpt2_dir, corpus)
    clm = load_model(gpt2_dir, device="cpu", partial_vocabulary=True)
    mc = minicons_incremental(clm.model, gpt2_dir)

    def run_minicons(size: int) -> list[float]:
        scores: list[float] = []
        for i in range(0, len(sentences), size):
            scores += mc.sequence_score(
                sentences[i : i + size], bos_token=True, reduction=lambda x: x.sum(0).item()
            )
        return scores

    # warm-up (first passes page the weights in and size the allocator), then timings
    score_pairs(pairs[:2], clm, "clm-sum")
    mc.sequence_score(sentences[:2], bos_token=True)
    causal, t_clm = bench.best_of(lambda: score_pairs(pairs, clm, "clm-sum"))
    tokens = causal.stats.masked_tokens
    packing.PACK_PAIRS = False
    try:
        unshared, t_unshared = bench.best_of(lambda: score_pairs(pairs, clm, "clm-sum"))
    finally:
        packing.PACK_PAIRS = True
    best = None
    for size in batches:
        reference, t_mc = bench.best_of(lambda size=size: run_minicons(size))
        bench.record(f"minicons clm (batch {size})", t_mc, tokens)
        if best is None or t_mc.wall < best[2].wall:
            best = (size, reference, t_mc)
    assert best is not None
    bench.rows["minicons clm (best)"] = {**bench.rows[f"minicons clm (batch {best[0]})"]}
    bench.record("curate clm-sum", t_clm, tokens)
    bench.record("curate clm-sum unshared", t_unshared, tokens)
    _, t_mean = bench.best_of(lambda: score_pairs(pairs, clm, "clm-mean"))
    bench.record("curate clm-mean", t_mean, tokens)

    jobs = plan_jobs(plan_pairs(pairs, clm, "clm-sum"), "clm-sum")
    packed = {(min(j.ids, j.partner or j.ids), row_length(j)) for j in jobs}
    work = causal_flops([length for _, length in packed], clm.model.config)
    ours = [x for s in causal.scores for x in (s.sent_more_score, s.sent_less_score)]
    alone = [x for s in unshared.scores for x in (s.sent_more_score, s.sent_less_score)]
    peak = matmul_peak()
    return {
        "clm_max_abs_diff_vs_minicons": max(
            abs(a - b) for a, b in zip(best[1], ours, strict=True)
        ),
        "clm_max_abs_diff_shared_vs_unshared": max(
            abs(a - b) for a, b in zip(alone, ours, strict=True)
        ),
        "clm_rows_saved_by_packing": 1
        - sum(length for _, length in packed) / sum(len(j.ids) for j in jobs),
        "clm_gflops": work / t_clm.wall / 1e9,
        "peak_gflops": peak,
    }


def run_masked(bench: Bench, tmp: Path) -> None:
    """AUL (and AULA, PLL within-word l2r) vs the PLL on the random BERT-base."""
    bert_dir = tmp / "bert-base-random"
    build_model(bert_dir)
    bert = load_model(bert_dir, device="cpu")
    score_pairs(bench.pairs[:2], bert, "aul")
    for method in ("pll", "aul", "aula", "pll-word-l2r"):
        result, timing = bench.best_of(lambda m=method: score_pairs(bench.pairs, bert, m))
        bench.record(f"curate {method}", timing, result.stats.masked_tokens)


def report(bench: Bench, figures: dict[str, float], json_path: Path | None) -> None:
    """Print the table, the checks and the ratios against their targets."""
    rows = bench.rows
    print(
        f"Scoring methods, first {len(bench.pairs)} CrowS-Pairs pairs, {bench.threads} threads, "
        f"torch {torch.__version__}; random GPT2Config() and BertConfig() models"
    )
    header = f"{'scorer':<26} {'pairs/s':>9} {'tokens/s':>9} {'seconds':>8} {'CPU share':>9}"
    print(header)
    print("-" * len(header))
    for name, row in rows.items():
        print(
            f"{name:<26} {row['pairs_per_s']:9.2f} {row.get('tokens_per_s', 0):9.1f} "
            f"{row['seconds']:8.2f} {row['cpu_share']:9.2f}"
        )
    ratios: dict[str, float] = {}
    if figures:
        print(
            "clm-sum vs minicons: max |sentence score difference| = "
            f"{figures['clm_max_abs_diff_vs_minicons']:.2e}"
        )
        gain = rows["curate clm-sum"]["pairs_per_s"] / rows["curate clm-sum unshared"]["pairs_per_s"]
        figures["prefix_sharing_speedup"] = gain
        print(
            "clm-sum with the pair's prefix shared vs one row per sentence: max |sentence score "
            f"difference| = {figures['clm_max_abs_diff_shared_vs_unshared']:.2e}; "
            f"{figures['clm_rows_saved_by_packing']:.0%} fewer rows, {gain:.2f}x faster"
        )
        gflops, peak = figures["clm_gflops"], figures["peak_gflops"]
        print(
            f"curate clm-sum: {gflops:.0f} GFLOP/s of work done = {gflops / peak:.0%} of the "
            f"fp32 GEMM peak ({peak:.0f} GFLOP/s, best 2048^3 matmul in this run)"
        )
        ratios["causal_vs_minicons"] = (
            rows["curate clm-sum"]["pairs_per_s"] / rows["minicons clm (best)"]["pairs_per_s"]
        )
    if "curate aul" in rows:
        ratios["aul_vs_pll"] = rows["curate aul"]["pairs_per_s"] / rows["curate pll"]["pairs_per_s"]
    for key, value in ratios.items():
        ok = value >= TARGETS[key]
        print(f"{key:<20} {value:7.2f}x  (target >= {TARGETS[key]}x) {'ok' if ok else 'MISSED'}")
    shares = [row["cpu_share"] for row in rows.values()]
    if min(shares) < 0.9:
        print(
            f"note: CPU share down to {min(shares):.2f} (median {statistics.median(shares):.2f}): "
            "other processes competed for the CPU; rerun on a quiet machine for clean figures"
        )
    if json_path:
        document = {
            "pairs": len(bench.pairs),
            "threads": bench.threads,
            "scorers": rows,
            "ratios": ratios,
            **figures,
        }
        json_path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
