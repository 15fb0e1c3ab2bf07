"""Lint throughput: 100,000 synthetic CrowS-Pairs-like pairs, and `curate lint` on CrowS-Pairs.

Targets (issue 3): >= 5,000 pairs/s with the default rules on this 2-core machine, and the full
CrowS-Pairs linted in under 2 s wall including start-up.

The synthetic pairs come from templates with group, name, attribute and context slots, so that
nearly every sentence is distinct (tokenisation and alignment caches do not help) and a share of
them carry the defects the rules look for (negation on one side, an extra changed word, a typo,
a missing final period, a lower-case start).

Run: .venv/bin/python benchmarks/bench_lint.py [--pairs N] [--crows PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curate.lint import lint_pairs  # noqa: E402
from curate.pairs import Pair  # noqa: E402

GROUPS = {
    "race-color": [
        ("black", "white"),
        ("Asian", "white"),
        ("Hispanic", "white"),
        ("African-American", "Caucasian"),
    ],
    "gender": [("women", "men"), ("girls", "boys"), ("mothers", "fathers")],
    "nationality": [("Mexican", "American"), ("Chinese", "Canadian"), ("Italian", "Swedish")],
    "religion": [("Muslim", "Christian"), ("Jewish", "Christian"), ("Mormon", "Baptist")],
    "age": [("old", "young"), ("elderly", "teenage")],
    "socioeconomic": [("poor", "rich"), ("homeless", "wealthy")],
    "physical-appearance": [("fat", "thin"), ("ugly", "beautiful")],
    "disability": [("disabled", "able-bodied"), ("blind", "sighted")],
    "sexual-orientation": [("gay", "straight"), ("lesbian", "straight")],
}
NAMES = [
    ("Jamal", "Jake"),
    ("Laquisha", "Emily"),
    ("Tyrone", "Carl"),
    ("Maria", "Megan"),
    ("Ahmed", "Adam"),
]
SUBJECTS = [
    "The {g} people",
    "Most {g} families",
    "Those {g} neighbors",
    "Every {g} worker",
    "The {g} students",
]
VERBS = [
    "are always",
    "were never",
    "seem",
    "would be",
    "tend to be",
    "have always been",
    "are known to be",
]
ATTRIBUTES = [
    "lazy",
    "loud",
    "dishonest",
    "bad at math",
    "good at sports",
    "violent",
    "greedy",
    "stupid",
    "dirty",
    "rude to waiters",
    "late for work",
    "careless with money",
]
CONTEXTS = [
    "in the city",
    "at school",
    "on the bus",
    "after the game",
    "at the office",
    "during the holidays",
    "in our town",
    "at the market",
    "near the park",
    "at night",
]
NAME_VERBS = [
    "stole {p} neighbor's bike",
    "forgot {p} keys again",
    "lost {p} job",
    "yelled at {p} boss",
    "could not pay {p} rent",
    "was late for {p} shift",
]
TYPOS = {"always": "alwyas", "people": "poeple", "because": "becasue", "neighbors": "nieghbors"}


def synthetic_pairs(n: int, seed: int = 13) -> list[Pair]:
    """``n`` CrowS-Pairs-like pairs; about a quarter carry a defect."""
    rng = random.Random(seed)
    pairs: list[Pair] = []
    for pair_id in range(n):
        bias_type = rng.choice(list(GROUPS))
        more_group, less_group = rng.choice(GROUPS[bias_type])
        context = rng.choice(CONTEXTS)
        number = rng.randint(2, 99)
        if rng.random() < 0.3:
            (name_more, name_less), verb = rng.choice(NAMES), rng.choice(NAME_VERBS)
            bias_type = "race-color"
            more = f"{name_more} {verb.format(p='his')} {context} for the {number}th time."
            less = f"{name_less} {verb.format(p='his')} {context} for the {number}th time."
        else:
            subject = rng.choice(SUBJECTS)
            tail = (
                f"{rng.choice(VERBS)} {rng.choice(ATTRIBUTES)} {context}, said {number} witnesses."
            )
            more = f"{subject.format(g=more_group)} {tail}"
            less = f"{subject.format(g=less_group)} {tail}"
        defect = rng.random()
        if defect < 0.05:
            less = less.replace(" are ", " are not ", 1).replace(" were never ", " were ", 1)
        elif defect < 0.10:
            less = less.replace("lazy", "hardworking").replace("loud", "quiet")
        elif defect < 0.15:
            word = rng.choice(list(TYPOS))
            more, less = more.replace(word, TYPOS[word]), less.replace(word, TYPOS[word])
        elif defect < 0.20:
            less = less.rstrip(".")
        elif defect < 0.25:
            more, less = more[0].lower() + more[1:], less[0].lower() + less[1:]
        pairs.append(Pair(pair_id, more, less, "stereo", bias_type))
    return pairs


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bench_throughput(n: int) -> None:
    pairs = synthetic_pairs(n)
    distinct = len({p.sent_more for p in pairs} | {p.sent_less for p in pairs})
    lint_pairs(synthetic_pairs(50, seed=1))  # load spaCy, the dictionary and the lexicon once
    wall0, cpu0 = time.perf_counter(), _cpu_seconds()
    findings = lint_pairs(pairs)
    wall, cpu = time.perf_counter() - wall0, _cpu_seconds() - cpu0
    flagged = len({f.pair_id for f in findings})
    print(
        f"synthetic: {n:,} pairs ({distinct:,} distinct sentences), {len(findings):,} findings "
        f"in {flagged:,} pairs"
    )
    print(
        f"  {wall:.2f} s wall, {n / wall:,.0f} pairs/s (target >= 5,000); "
        f"CPU time / wall = {cpu / wall:.2f} (1 thread; < 0.9 means the machine was busy)"
    )


def _time_cli(crows: Path, runs: int, *extra: str) -> tuple[list[float], str]:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "curate", "lint", str(crows), "--statistics", *extra],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        timings.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"curate lint failed: {proc.stderr}")
    return timings, proc.stdout.strip().splitlines()[-1].strip()


def bench_cli(crows: Path, runs: int = 3) -> None:
    """Wall time of the whole command, start-up included: cold (spaCy loaded, --no-cache) and
    warm (word splits from .curate-cache/, spaCy not loaded)."""
    cold, summary = _time_cli(crows, runs, "--no-cache")
    _time_cli(crows, 1)  # fill the cache
    warm, _ = _time_cli(crows, runs)
    print(f"curate lint {crows.name} --statistics ({summary})")
    for label, timings in (("cold, --no-cache", cold), ("warm cache", warm)):
        print(
            f"  {label}: median {statistics.median(timings):.2f} s wall over {runs} runs "
            f"(min {min(timings):.2f}; target < 2 s, start-up included)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    default_crows = REPO / "data/raw/crows_pairs_anonymized.csv"
    mirror = os.environ.get("CURATE_DATA_MIRROR")
    if not default_crows.exists() and mirror:
        default_crows = Path(mirror) / "crows_pairs_anonymized.csv"
    parser.add_argument("--crows", type=Path, default=default_crows)
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    bench_throughput(args.pairs)
    if args.crows.exists():
        bench_cli(args.crows)
    else:
        print(
            f"skipped the CrowS-Pairs timing: {args.crows} not found (run `curate fetch crows-pairs`)"
        )


if __name__ == "__main__":
    main()
