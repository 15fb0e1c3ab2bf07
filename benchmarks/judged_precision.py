"""The figures of two blind judges' verdicts on the same pairs, printed the same way by every
judged-precision script (crows_pairs_{english,multilingual}_lint_precision.py): each judge's
precision, their agreement (Cohen's kappa, statsmodels) and the precision counting a pair only
when both call it a real defect, with Wilson 95% intervals."""

from __future__ import annotations

from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.proportion import proportion_confint


def wilson(real: int, n: int) -> str:
    low, high = proportion_confint(real, n, alpha=0.05, method="wilson")
    return f"(Wilson 95% CI {100 * low:.1f}-{100 * high:.1f}%)"


def print_two_judges(
    first: dict[int, bool], second: dict[int, bool], sample: list[int], drawn: str
) -> None:
    """Print the two judges' figures on ``sample``; ``drawn`` says how it was drawn."""
    n = len(sample)
    for name, verdicts in (("first judge", first), ("second judge", second)):
        real = sum(verdicts[pair_id] for pair_id in sample)
        print(f"  {name}: {real}/{n} = {100 * real / n:.1f}% {wilson(real, n)}")
    table = [[0, 0], [0, 0]]
    for pair_id in sample:
        table[int(first[pair_id])][int(second[pair_id])] += 1
    agreed = table[0][0] + table[1][1]
    if n in (table[0][0], table[1][1]):  # one verdict throughout: chance agreement is 1
        kappa = "undefined (the judges agree on every pair with one verdict)"
    else:
        kappa = f"{cohens_kappa(table).kappa:.2f}"
    print(f"  agreement: {agreed}/{n} pairs, Cohen's kappa {kappa}")
    both = table[1][1]
    print(
        f"precision (pair level, {drawn}, n={n}, a real defect for both judges): "
        f"{both}/{n} = {100 * both / n:.1f}% {wilson(both, n)}"
    )
