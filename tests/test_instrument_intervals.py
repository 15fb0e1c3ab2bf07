"""Intervals that mean what they say at every n (issue: statistics a researcher can publish).

The four degenerate cases a researcher met with a handful of models or checkpoints, each
checked against a hand computation (every ordering enumerated) or the library called directly,
and a property test: whatever the data, an interval an instrument statistic gives contains its
estimate, and a p-value is never 0.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import spearmanr

from curate.instrument import stats


def _exact_spearman_p(x: list[float], y: list[float], alternative: str) -> float:
    """Every ordering of y enumerated by hand: the share at least as extreme as the observed."""
    observed = spearmanr(x, y).statistic
    values = [spearmanr(x, list(p)).statistic for p in itertools.permutations(y)]
    greater = np.mean([v >= observed - 1e-12 for v in values])
    less = np.mean([v <= observed + 1e-12 for v in values])
    if alternative == "greater":
        return float(greater)
    return float(min(1.0, 2 * min(greater, less)))


def _contains(e: stats.Estimate) -> bool:
    return e.low is None or (e.low - 1e-9 <= e.value <= e.high + 1e-9 and e.high > e.low)


def test_validity_with_four_models_is_not_printed_as_certain() -> None:
    """Case 1: `validity` printed `1.00 [1.00, 1.00] p=0 n=4`."""
    x, y = [0.51, 0.55, 0.58, 0.61], [0.40, 0.47, 0.52, 0.66]
    estimate = stats.spearman(x, y)
    assert estimate.value == pytest.approx(1.0)
    assert estimate.low is None and estimate.high is None
    assert estimate.p == pytest.approx(_exact_spearman_p(x, y, "two-sided")) == pytest.approx(2 / 24)
    text = estimate.text(2)
    assert "n too small for an interval" in text and "[1.00, 1.00]" not in text and "p=0 " not in text


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_order_test_over_few_checkpoints_has_an_exact_p_and_no_bootstrap(n: int) -> None:
    """Cases 2 and 3: `sensitivity` printed `0.65 [0.66, 0.97]` over 6 checkpoints and
    `[1.00, 1.00]` for a perfect order."""
    rng = np.random.default_rng(n)
    for scores in ([0.5 + 0.02 * k for k in range(n)], list(rng.random(n))):
        estimate = stats.order_test(list(range(n)), scores)
        if n < 3:
            assert estimate.value is None and "- n=" in estimate.text()
            continue
        assert estimate.value == pytest.approx(spearmanr(range(n), scores).statistic)
        assert estimate.p == pytest.approx(_exact_spearman_p(list(range(n)), scores, "greater"))
        assert estimate.low is None and "n too small for an interval" in estimate.text()


def test_the_six_checkpoint_series_that_excluded_its_estimate() -> None:
    """The series behind `0.65 [0.66, 0.97]`: wherever an interval is given it holds the estimate."""
    for scores in itertools.permutations([0.50, 0.52, 0.53, 0.57, 0.58, 0.61]):
        estimate = stats.order_test(range(6), list(scores))
        assert _contains(estimate), (scores, estimate)


def test_a_two_item_group_has_no_interval_of_zero_width() -> None:
    """Case 4: `consistency` printed `1.00 [1.00, 1.00]` for a 2-item group, and called the
    spread of random split-halves a CI."""
    latent = np.array([[1], [0], [1], [1], [0], [0]], dtype=float)
    two = np.repeat(latent, 2, axis=1)
    half = stats.split_half(two, splits=50)
    assert half.value == pytest.approx(1.0)
    assert half.low is None and "[1.00, 1.00]" not in half.text(2)
    alpha = stats.cronbach_alpha(two)
    assert alpha.value == pytest.approx(1.0) and _contains(alpha)
    assert "[1.00, 1.00]" not in alpha.text(2)
    # a split-half over many items gives the spread of its splits, never called an interval
    wide = stats.split_half(np.repeat(latent, 8, axis=1) * 1.0, splits=50)
    assert wide.low is None and "CI" not in wide.text(2).split("no CI")[0]


def test_p_values_are_never_printed_as_zero() -> None:
    x = list(range(40))
    estimate = stats.spearman(x, [v * 2.0 for v in x])
    assert estimate.p is not None and estimate.p > 0
    # no random ordering as extreme: the least p 9999 permutations can give, (0 + 1) / (9999 + 1),
    # twice that two-sided; the text is that fraction (it printed p<2/9999 for p = 2/10000)
    assert estimate.p == pytest.approx(2 / 10000)
    assert "p≤2/10000" in estimate.text(2) and "p=0 " not in estimate.text(2)
    assert "9999" not in estimate.text(2)
    assert "p≤1/10000" in stats.order_test(x, [v * 2.0 for v in x]).text(2)
    # kappa of perfect agreement: no zero-width interval
    perfect = stats.kappa([1, 0, 1, 1, 0, 0, 1, 0], [1, 0, 1, 1, 0, 0, 1, 0])
    assert perfect.value == pytest.approx(1.0) and perfect.low is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=2, max_value=14).flatmap(
        lambda n: st.tuples(
            st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=n, max_size=n),
            st.lists(st.sampled_from([0.1, 0.2, 0.3, 0.4, 0.9]), min_size=n, max_size=n),
            st.lists(st.integers(0, 1), min_size=n, max_size=n),
            st.lists(st.integers(0, 1), min_size=n, max_size=n),
        )
    )
)
def test_every_interval_contains_its_estimate(data: tuple[list[float], list[float], list[int], list[int]]) -> None:
    x, y, a, b = data
    matrix = np.array([a, b, [1 - v for v in a], a], dtype=float).T  # n subjects x 4 items
    estimates = [
        stats.spearman(x, y), stats.kendall(x, y), stats.order_test(range(len(y)), y),
        stats.kappa(a, b), stats.mean_difference(a, b), stats.proportion(sum(a), len(a)),
        stats.paired_difference(a, b),
        stats.cronbach_alpha(matrix), stats.split_half(matrix, splits=20),
    ]
    for estimate in estimates:
        if estimate.value is None:
            continue
        assert math.isfinite(estimate.value)
        assert _contains(estimate), estimate
        if estimate.low is not None and not estimate.method.startswith(("cronbach", "split-half")):
            assert estimate.low >= -1 - 1e-12 and estimate.high <= 1 + 1e-12, estimate  # in range
        assert estimate.p is None or 0 < estimate.p <= 1, estimate
        assert "p=0 " not in estimate.text(2)
