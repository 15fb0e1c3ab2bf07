"""Precision of what the U.S. census first names add to `curate lint` on the English CrowS-Pairs
(issue 45): every finding they add on the upstream file, judged by two blind judges against
../shared/data/crows_pairs_review_guidelines.md (judgments in
crows_pairs_english_lint_judgments.toml).

    python benchmarks/crows_pairs_english_lint_precision.py [--show]

Reads crows_pairs_anonymized.csv in $CURATE_DATA_MIRROR (else data/raw). The judged findings are
the findings of the default rules that the same lint without the census table
(``curate.lint.names``) does not make (L003's direction read from names, S007, T009's names),
plus the extra pairs the judgments file lists under ``also`` (P006's lone article, a change
made with them). Prints each judge's pair-level precision, their agreement (Cohen's kappa) and
the precision counting a pair only when both judges call it a real defect, with Wilson 95%
intervals. ``--show`` prints the pairs to judge. Refuses when the judged pairs are not the pairs
today's rules add (the rules or the data changed: judge again).
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from judged_precision import print_two_judges  # this folder's (a script's sys.path[0])

from curate.benchmarks import benchmark_of, lint_target
from curate.datasets import read_dataset
from curate.lint import LintSettings, lint_pairs, names
from curate.lint.profiles import apply_profile

HERE = Path(__file__).parent
JUDGMENTS = HERE / "crows_pairs_english_lint_judgments.toml"


def _lint(path: Path, census: bool):
    """(dataset, findings) of the default rules, with or without the census first names."""
    dataset = read_dataset(path)
    target = lint_target(benchmark_of(dataset, by_columns=True), "en")
    settings, _ = apply_profile(LintSettings(), target)
    table = names._census_first_names
    if not census:  # the lint as it was before the table: names.py reads it through this name
        names._census_first_names = dict  # type: ignore[assignment]
    try:
        return dataset, lint_pairs(list(dataset.pairs), settings, target=target)
    finally:
        names._census_first_names = table


def census_findings(path: Path):
    """(dataset, {pair id: findings}) of the findings the census first names add."""
    dataset, with_census = _lint(path, census=True)
    _, without = _lint(path, census=False)
    before = {(f.pair_id, f.code) for f in without}
    added: dict[int, list] = {}
    for f in with_census:
        if (f.pair_id, f.code) not in before:
            added.setdefault(f.pair_id, []).append(f)
    return dataset, with_census, added


def main(argv: list[str]) -> int:
    mirror = Path(os.environ.get("CURATE_DATA_MIRROR", "data/raw"))
    judged = tomllib.loads(JUDGMENTS.read_text(encoding="utf-8"))["en"]
    dataset, findings, added = census_findings(mirror / "crows_pairs_anonymized.csv")
    census = len(added)
    also = [int(k) for k in judged.get("also", {})]
    for pair_id, code in judged.get("also", {}).items():
        added.setdefault(int(pair_id), []).extend(
            f for f in findings if f.pair_id == int(pair_id) and f.code == code
        )
    pairs = {p.pair_id: p for p in dataset.pairs}
    sample = sorted(added)
    print(
        f"en: {census} pairs gain findings from the census first names; with {also} "
        f"({len(also)} more), {len(sample)} pairs judged"
    )
    if "--show" in argv:
        for pair_id in sample:
            pair = pairs[pair_id]
            print(f"\n[{pair_id}] {pair.sent_more!r}\n      {pair.sent_less!r}")
            print(f"      {pair.direction} {pair.bias_type}")
            for f in added[pair_id]:
                print(f"   {f.code} {f.message}")
        return 0
    first = {int(k): v[0] for k, v in judged["judgments"].items()}
    second = {int(k): v[0] for k, v in judged["second_judgments"].items()}
    if sorted(first) != sample or sorted(second) != sample:
        print(f"the judged pairs are not the pairs today's rules add: judge {sample} again")
        return 1
    print_two_judges(first, second, sample, "every added pair")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
