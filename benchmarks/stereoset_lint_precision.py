"""Precision of `curate lint` on StereoSet dev: a seeded sample of the flagged items, judged
against benchmarks/stereoset_lint_guidelines.md (judgments in stereoset_lint_judgments.toml).

    python benchmarks/stereoset_lint_precision.py [STEREOSET_JSON]

Default input: stereoset_dev.json in $CURATE_DATA_MIRROR. Prints the number of flagged items,
the sample, and the item-level precision with a Wilson 95% interval (statsmodels). Refuses when
the judged ids are not the sample the seed draws (the rules or the data changed: judge again).
"""

from __future__ import annotations

import os
import random
import sys
import tomllib
from pathlib import Path

from statsmodels.stats.proportion import proportion_confint

from curate.benchmarks import benchmark_of, lint_target
from curate.datasets import read_dataset
from curate.lint import LintSettings, lint_pairs
from curate.lint.inputs import skip_unavailable
from curate.lint.profiles import apply_profile

HERE = Path(__file__).parent


def flagged_items(path: Path) -> tuple[int, list[int]]:
    """(items, ids of the flagged items) with the default rules and the file's profile."""
    dataset = read_dataset(path)
    benchmark = benchmark_of(dataset, by_columns=True)
    target = lint_target(benchmark)
    settings, _ = apply_profile(LintSettings(), target)
    settings, _ = skip_unavailable(settings, dataset.fields, rules=target.rules())
    items = benchmark.lint.items(dataset) if benchmark.lint.items else None
    findings = lint_pairs(list(dataset.pairs), settings, items=items, target=target)
    return len(dataset.pairs), sorted({f.pair_id for f in findings})


def main() -> int:
    default = Path(os.environ.get("CURATE_DATA_MIRROR", "data/raw")) / "stereoset_dev.json"
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    judged = tomllib.loads((HERE / "stereoset_lint_judgments.toml").read_text(encoding="utf-8"))
    seed, size = judged["sample"]["seed"], judged["sample"]["size"]
    total, flagged = flagged_items(path)
    sample = sorted(random.Random(seed).sample(flagged, size))
    verdicts = {int(k): v[0] for k, v in judged["judgments"].items()}
    if sorted(verdicts) != sample:
        print(f"the judged ids are not the sample of seed {seed}: judge {sample} again")
        return 1
    real = sum(verdicts.values())
    low, high = proportion_confint(real, size, alpha=0.05, method="wilson")
    print(f"{path.name}: {len(flagged)} of {total} items flagged ({100 * len(flagged) / total:.1f}%)")
    print(
        f"precision (item level, seed {seed}, n={size}): {real}/{size} = {100 * real / size:.1f}% "
        f"(Wilson 95% CI {100 * low:.1f}-{100 * high:.1f}%)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
