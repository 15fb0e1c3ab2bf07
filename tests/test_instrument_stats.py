"""Golden tests of the instrument statistics against hand formulas and the libraries called directly."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from curate.instrument import stats

# 5 subjects (models) x 6 items (pairs), verdicts 0/1
MATRIX = np.array(
    [
        [1, 1, 1, 0, 1, 1],
        [1, 0, 1, 0, 1, 0],
        [0, 0, 1, 0, 0, 0],
        [1, 1, 1, 1, 1, 1],
        [0, 0, 0, 0, 1, 0],
    ],
    dtype=float,
)


def test_alpha_is_kr20_by_hand() -> None:
    k = MATRIX.shape[1]
    item_var = MATRIX.var(axis=0, ddof=1).sum()
    total_var = MATRIX.sum(axis=1).var(ddof=1)
    by_hand = k / (k - 1) * (1 - item_var / total_var)
    # KR-20 with p*q item variances on the same (n-1) footing
    n = MATRIX.shape[0]
    p = MATRIX.mean(axis=0)
    kr20 = k / (k - 1) * (1 - (p * (1 - p)).sum() * n / (n - 1) / total_var)
    estimate = stats.cronbach_alpha(MATRIX)
    assert estimate.value == pytest.approx(by_hand) == pytest.approx(kr20)
    assert estimate.n == 5 and estimate.low < estimate.value < estimate.high


def test_kappa_matches_sklearn_and_agreement() -> None:
    a = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0]
    b = [1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0]
    estimate = stats.kappa(a, b)
    assert estimate.value == pytest.approx(cohen_kappa_score(a, b))
    assert estimate.low < estimate.value < estimate.high


def test_wilson_interval_by_hand() -> None:
    successes, n, z = 40, 60, 1.959963984540054
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    estimate = stats.proportion(successes, n)
    assert (estimate.low, estimate.high) == pytest.approx((centre - half, centre + half))


def test_spearman_brown_and_split_half() -> None:
    assert stats.spearman_brown(0.5) == pytest.approx(2 / 3)
    # items that are exact copies of one another: every split correlates perfectly
    latent = np.array([[1], [0], [1], [1], [0], [0]], dtype=float)
    copies = np.repeat(latent, 8, axis=1)
    estimate = stats.split_half(copies, splits=50)
    assert estimate.value == pytest.approx(1.0) and estimate.n == 6
    # the spread of the random splits is said in words, never given as a confidence interval
    half = stats.split_half(MATRIX, splits=200)
    assert half.low is None and -1 <= half.value <= 1 and "no CI; random splits" in half.text()


def test_item_rest_by_hand() -> None:
    values = stats.item_rest(MATRIX)
    totals = MATRIX.sum(axis=1)
    for j, value in enumerate(values):
        item, rest = MATRIX[:, j], totals - MATRIX[:, j]
        if np.ptp(item) == 0:
            assert value is None
        else:
            assert value == pytest.approx(np.corrcoef(item, rest)[0, 1])


def test_order_test_exact_permutation_p() -> None:
    rising = stats.order_test([0, 1, 2, 3, 4], [0.50, 0.55, 0.61, 0.70, 0.72])
    assert rising.value == pytest.approx(1.0)
    assert rising.p == pytest.approx(1 / 120)  # the one ordering of 5 as extreme, one-sided
    falling = stats.order_test([0, 1, 2, 3, 4], [0.72, 0.70, 0.61, 0.55, 0.50])
    assert falling.value == pytest.approx(-1.0) and falling.p == pytest.approx(1.0)


def test_paired_difference_and_mcnemar() -> None:
    before = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    after = [1, 0, 0, 0, 0, 0, 1, 0, 0, 1]
    estimate = stats.mean_difference(after, before)
    assert estimate.value == pytest.approx(np.mean(after) - np.mean(before))
    assert estimate.low <= estimate.value <= estimate.high
    # 3 discordant pairs, all one way: exact binomial two-sided p = 2 * 0.5**3
    assert stats.mcnemar_p(before, after) == pytest.approx(0.25)


def test_undefined_is_said_not_invented() -> None:
    assert stats.spearman([1, 2], [2, 1]).value is None
    assert stats.cronbach_alpha(np.ones((4, 3))).value is None
    assert stats.proportion(0, 0).text() == "- n=0"


def test_an_exactly_uncorrelated_item_is_at_zero_not_at_the_sign_of_rounding() -> None:
    """Four subjects' 0/1 verdicts: items exactly uncorrelated with the rest come out of
    Pearson as +-1e-17, and ``--item-rest-threshold 0`` flagged them or not by that sign."""
    from scipy.stats import pearsonr

    rng = np.random.default_rng(0)
    tiny_nonzero = 0
    for _ in range(50):
        matrix = rng.integers(0, 2, size=(4, 48)).astype(float)
        values = stats.item_rest(matrix)
        for j, value in enumerate(values):
            if value is None:
                continue
            rest = matrix.sum(axis=1) - matrix[:, j]
            raw = float(pearsonr(matrix[:, j], rest).statistic)
            if abs(raw) < 1e-12:
                tiny_nonzero += raw != 0.0
                assert value == 0.0
            else:
                assert value == raw
    assert tiny_nonzero > 0, "the case must occur: rounding gave a sign to a zero correlation"
