"""Precision of `curate lint` on the French and Dutch CrowS-Pairs: a seeded sample of the flagged
pairs of each language, judged against benchmarks/crows_pairs_multilingual_lint_guidelines.md
(judgments in crows_pairs_multilingual_lint_judgments.toml: two judges, the second blind to the
first).

    python benchmarks/crows_pairs_multilingual_lint_precision.py [--show | --show-unflagged]
        [--seed=N] [LANGUAGE ...]

Reads crows_pairs_multilingual/crows_{french,dutch}.csv in $CURATE_DATA_MIRROR. Prints, per
language, the flagged pairs, each judge's pair-level precision, their agreement (Cohen's kappa)
and the precision counting a pair only when both judges call it a real defect, with Wilson 95%
intervals (statsmodels). ``--show`` prints the sample to judge (each pair and its findings). Refuses when
the judged ids are not the sample the seed draws (the rules or the data changed: judge again).

Recall side: ``--show-unflagged`` prints a seeded sample of the pairs lint did not flag (30 per
language unless ``[LANG.unflagged]`` says otherwise), with the seed of ``[LANG.unflagged]`` or
``--seed=N``. When the judgments file has ``[LANG.unflagged]`` (seed, size) and ``[LANG.misses]``
/ ``[LANG.second_misses]`` (pair id = [true when the pair has a clear defect lint missed,
"reason"]), the miss rate of each judge is printed with its Wilson interval; the same refusal
holds when the judged ids are not the drawn sample.
"""

from __future__ import annotations

import os
import random
import sys
import tomllib
from pathlib import Path

from judged_precision import print_two_judges, wilson  # this folder's (a script's sys.path[0])

from curate.benchmarks import benchmark_of, lint_target
from curate.datasets import read_dataset
from curate.lint import LintSettings, lint_pairs
from curate.lint.inputs import skip_unavailable
from curate.lint.profiles import apply_profile

HERE = Path(__file__).parent
FILES = {"fr": "crows_french.csv", "nl": "crows_dutch.csv"}


def flagged_pairs(path: Path):
    """(dataset, findings) with the default rules, in the file's language."""
    dataset = read_dataset(path)
    target = lint_target(benchmark_of(dataset, by_columns=True), dataset.language)
    settings, _ = apply_profile(LintSettings(), target)
    settings, _ = skip_unavailable(settings, dataset.fields, rules=target.rules())
    return dataset, lint_pairs(list(dataset.pairs), settings, target=target)


UNFLAGGED_SIZE = 30


def _seed_option(argv: list[str]) -> int | None:
    for arg in argv:
        if arg.startswith("--seed="):
            return int(arg.removeprefix("--seed="))
    return None


def _unflagged(
    language: str, table: dict, dataset, flagged: list[int], argv: list[str]
) -> int:
    """Print (``--show-unflagged``) or score the seeded sample of unflagged pairs; 1 on refusal."""
    spec = table.get("unflagged", {})
    seed = _seed_option(argv)
    seed = spec.get("seed") if seed is None else seed
    if seed is None:
        print(f"{language}: no seed for the unflagged sample: add [{language}.unflagged] or --seed=N")
        return 1
    size = spec.get("size", UNFLAGGED_SIZE)
    unflagged = sorted(set(p.pair_id for p in dataset.pairs) - set(flagged))
    sample = sorted(random.Random(seed).sample(unflagged, min(size, len(unflagged))))
    if "--show-unflagged" in argv:
        pairs = {p.pair_id: p for p in dataset.pairs}
        print(f"{language}: unflagged sample, seed {seed}, {len(sample)} of {len(unflagged)}")
        for pair_id in sample:
            pair = pairs[pair_id]
            print(f"\n[{pair_id}] {pair.sent_more!r}\n      {pair.sent_less!r}")
            print(f"      {pair.direction} {pair.bias_type}")
        return 0
    if "misses" not in table and "second_misses" not in table:
        return 0
    status = 0
    n = len(sample)
    for name, key in (("first judge", "misses"), ("second judge", "second_misses")):
        verdicts = {int(k): v[0] for k, v in table.get(key, {}).items()}
        if sorted(verdicts) != sample:
            print(f"  the {key} ids are not the unflagged sample of seed {seed}: judge {sample} again")
            status = 1
            continue
        missed = sum(verdicts.values())
        print(
            f"  {name}: clear misses on unflagged pairs (seed {seed}): {missed}/{n} = "
            f"{100 * missed / n:.1f}% {wilson(missed, n)}"
        )
    return status


def main(argv: list[str]) -> int:
    show = "--show" in argv
    show_unflagged = "--show-unflagged" in argv
    languages = [a for a in argv if not a.startswith("--")] or list(FILES)
    mirror = Path(os.environ.get("CURATE_DATA_MIRROR", "data/raw"))
    judged = tomllib.loads(
        (HERE / "crows_pairs_multilingual_lint_judgments.toml").read_text(encoding="utf-8")
    )
    status = 0
    for language in languages:
        table = judged[language]
        seed, size = table["sample"]["seed"], table["sample"]["size"]
        dataset, findings = flagged_pairs(mirror / "crows_pairs_multilingual" / FILES[language])
        flagged = sorted({f.pair_id for f in findings})
        sample = sorted(random.Random(seed).sample(flagged, min(size, len(flagged))))
        total = len(dataset.pairs)
        print(f"{language}: {len(flagged)} of {total} pairs flagged ({100 * len(flagged) / total:.1f}%)")
        if show_unflagged:
            status |= _unflagged(language, table, dataset, flagged, argv)
            continue
        status |= _unflagged(language, table, dataset, flagged, argv) if "unflagged" in table else 0
        if show:
            pairs = {p.pair_id: p for p in dataset.pairs}
            for pair_id in sample:
                pair = pairs[pair_id]
                print(f"\n[{pair_id}] {pair.sent_more!r}\n      {pair.sent_less!r}")
                print(f"      {pair.direction} {pair.bias_type}")
                for f in findings:
                    if f.pair_id == pair_id:
                        print(f"   {f.code} {f.message}")
            continue
        first = {int(k): v[0] for k, v in table.get("judgments", {}).items()}
        second = {int(k): v[0] for k, v in table.get("second_judgments", {}).items()}
        if sorted(first) != sample or sorted(second) != sample:
            print(f"the judged ids are not the sample of seed {seed}: judge {sample} again")
            status = 1
            continue
        print_two_judges(first, second, sample, f"seed {seed}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
