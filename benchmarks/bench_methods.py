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
  once; it is also timed with the packing off (``passes.PACK_PAIRS = False``: one row per
  sentence), to show what the sharing gains, and ``clm-mean`` (bias-bench's conditioning, its
  own pass) for information. The scores must agree per sentence with minicons and with the
  unshared run; the largest differences are printed.
* **masked**: the random BERT-base of ``bench_pll.py`` (``BertConfig()``, bert-base-uncased
  vocabulary): ``score_pairs(..., "aul")`` vs ``score_pairs(..., "pll")``, in pairs/s.
  ``aula`` and ``pll-word-l2r`` are timed too, for information.

Usage: ``python benchmarks/bench_methods.py [--pairs 40] [--threads 2] [--data PATH]``
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
from curate.pairs import Pair, read_pairs
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
    sentences = [s for p in pairs for s in (p.sent_more, p.sent_less)]
    rows: dict[str, dict[str, float]] = {}

    def best_of(func):
        """The result and the fastest of ``--repeats`` timings (all scorers alike)."""
        runs = [timed(func) for _ in range(args.repeats)]
        return runs[0][0], min((t for _, t in runs), key=lambda t: t.wall)

    def record(name: str, timing: Timing, tokens: int | None = None) -> None:
        rows[name] = {
            "seconds": timing.wall,
            "pairs_per_s": len(pairs) / timing.wall,
            "cpu_share": timing.share(threads),
            **({"tokens_per_s": tokens / timing.wall} if tokens else {}),
        }

    with tempfile.TemporaryDirectory(prefix="bench-methods-") as tmp:
        # ---- causal: curate clm-sum vs minicons IncrementalLMScorer
        gpt2_dir = Path(tmp) / "gpt2-random"
        build_gpt2(gpt2_dir, [s for p in all_pairs for s in (p.sent_more, p.sent_less)])
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
        run_minicons_warm = mc.sequence_score(sentences[:2], bos_token=True)
        del run_minicons_warm
        causal, t_clm = best_of(lambda: score_pairs(pairs, clm, "clm-sum"))
        clm_tokens = causal.stats.masked_tokens
        from curate.score import passes

        passes.PACK_PAIRS = False
        try:
            unshared, t_unshared = best_of(lambda: score_pairs(pairs, clm, "clm-sum"))
        finally:
            passes.PACK_PAIRS = True
        record("curate clm-sum unshared", t_unshared, clm_tokens)
        _, t_mean = best_of(lambda: score_pairs(pairs, clm, "clm-mean"))
        record("curate clm-mean", t_mean, clm_tokens)
        best = None
        for size in (int(x) for x in args.minicons_batches.split(",")):
            reference, t_mc = best_of(lambda size=size: run_minicons(size))
            record(f"minicons clm (batch {size})", t_mc, clm_tokens)
            if best is None or t_mc.wall < best[1].wall:
                best = (size, t_mc)
        assert best is not None
        rows["minicons clm (best)"] = {**rows[f"minicons clm (batch {best[0]})"]}
        record("curate clm-sum", t_clm, clm_tokens)
        from curate.score.plan import plan_jobs, plan_pairs, row_length

        jobs = plan_jobs(plan_pairs(pairs, clm, "clm-sum"), "clm-sum")
        packed = {(min(j.ids, j.partner or j.ids), row_length(j)) for j in jobs}
        useful = causal_flops([length for _, length in packed], clm.model.config)
        peak = matmul_peak()
        ours = [x for s in causal.scores for x in (s.sent_more_score, s.sent_less_score)]
        clm_diff = max(abs(a - b) for a, b in zip(reference, ours, strict=True))
        alone = [x for s in unshared.scores for x in (s.sent_more_score, s.sent_less_score)]
        share_diff = max(abs(a - b) for a, b in zip(alone, ours, strict=True))
        rows_saved = 1 - sum(length for _, length in packed) / sum(len(j.ids) for j in jobs)

        # ---- masked: AUL vs PLL on the random BERT-base
        bert_dir = Path(tmp) / "bert-base-random"
        build_model(bert_dir)
        bert = load_model(bert_dir, device="cpu")
        score_pairs(pairs[:2], bert, "aul")
        for method in ("pll", "aul", "aula", "pll-word-l2r"):
            result, timing = best_of(lambda m=method: score_pairs(pairs, bert, m))
            record(f"curate {method}", timing, result.stats.masked_tokens)

    print(
        f"Scoring methods, first {len(pairs)} CrowS-Pairs pairs, {threads} threads, "
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
    print(f"clm-sum vs minicons: max |sentence score difference| = {clm_diff:.2e}")
    print(
        f"clm-sum shared vs unshared prefix: max |sentence score difference| = {share_diff:.2e}; "
        f"packing saves {rows_saved:.0%} of the rows; speed-up "
        f"{rows['curate clm-sum']['pairs_per_s'] / rows['curate clm-sum unshared']['pairs_per_s']:.2f}x"
    )
    gflops = useful / rows["curate clm-sum"]["seconds"] / 1e9
    print(
        f"curate clm-sum: {gflops:.0f} GFLOP/s of work done = {gflops / peak:.0%} of the fp32 "
        f"GEMM peak ({peak:.0f} GFLOP/s, best 2048^3 matmul in this run)"
    )
    ratios = {
        "causal_vs_minicons": rows["curate clm-sum"]["pairs_per_s"]
        / rows["minicons clm (best)"]["pairs_per_s"],
        "aul_vs_pll": rows["curate aul"]["pairs_per_s"] / rows["curate pll"]["pairs_per_s"],
    }
    for key, value in ratios.items():
        ok = value >= TARGETS[key]
        print(f"{key:<20} {value:7.2f}x  (target >= {TARGETS[key]}x) {'ok' if ok else 'MISSED'}")
    shares = [row["cpu_share"] for row in rows.values()]
    if min(shares) < 0.9:
        print(
            f"note: CPU share down to {min(shares):.2f} (median {statistics.median(shares):.2f}): "
            "other processes competed for the CPU; rerun on a quiet machine for clean figures"
        )
    if args.json:
        figures = {"pairs": len(pairs), "threads": threads, "scorers": rows, "ratios": ratios}
        figures["clm_max_abs_diff_vs_minicons"] = clm_diff
        figures["clm_max_abs_diff_shared_vs_unshared"] = share_diff
        figures["clm_rows_saved_by_packing"] = rows_saved
        figures["clm_gflops"], figures["peak_gflops"] = gflops, peak
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
