"""The statistics of the instrument reports, each a thin call into scipy, statsmodels or pingouin.

Every function returns an :class:`Estimate`: the value, the number of units it rests on and an
interval, or, where the sample cannot give an honest one, no interval and the reason printed in
its place ("n too small for an interval"). The rules that keep the numbers publishable at the
n these commands meet (4 models, 6 checkpoints, a 2-pair bias type):

* a bootstrap needs :data:`MIN_BOOTSTRAP` units; below that there is no resampling interval
  (with 4 models a bootstrap draws from 4 values and returns ``[1.00, 1.00]``);
* an interval that does not contain its estimate, or has zero width, is never shown
  (:class:`Estimate` drops it itself, so no caller can print one);
* p-values of correlations come from permutation tests (scipy): exact over every ordering up to
  7 units, else :data:`PERMUTATIONS` random ones, so a p is never 0: when no permutation is as
  extreme it prints as ``p<1/N``.

Only the Spearman-Brown step-up (``2r / (1 + r)``, a definition) is written out here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from curate.intervals import (
    LEVEL,
    MIN_BOOTSTRAP,
    RESAMPLES,
    SEED,
    TOO_SMALL,
    Estimate,
    _finite,
    bootstrap,
    proportion,
)

#: Random permutations of a permutation test when the orderings are too many to enumerate.
PERMUTATIONS = 9999

__all__ = ["LEVEL", "MIN_BOOTSTRAP", "PERMUTATIONS", "RESAMPLES", "SEED", "TOO_SMALL", "Estimate", "bootstrap", "proportion"]


def mean_difference(after: Sequence[float], before: Sequence[float]) -> Estimate:
    """The paired mean difference ``after - before`` with a bootstrap interval."""
    a, b = np.asarray(after, dtype=float), np.asarray(before, dtype=float)
    if len(a) == 0:
        return Estimate(None, 0, method="paired bootstrap")
    low, high = bootstrap(
        (a, b), lambda x, y, axis=-1: np.mean(x, axis=axis) - np.mean(y, axis=axis), vectorized=True
    )
    return Estimate(float(np.mean(a) - np.mean(b)), len(a), low, high, method="paired bootstrap (BCa)")


def _pearson(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Pearson's r along ``axis`` (NaN where a side is constant), vectorized for resampling."""
    x = x - np.mean(x, axis=axis, keepdims=True)
    y = y - np.mean(y, axis=axis, keepdims=True)
    with np.errstate(all="ignore"):
        return np.sum(x * y, axis=axis) / np.sqrt(np.sum(x * x, axis=axis) * np.sum(y * y, axis=axis))


def _spearman_stat(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Spearman's rho along ``axis``: Pearson's r of the average ranks (scipy's definition)."""
    from scipy.stats import rankdata

    return _pearson(rankdata(x, axis=axis), rankdata(y, axis=axis), axis=axis)


def _kendall_stat(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Kendall's tau-b along the last axis from the signs of all pairwise differences."""
    x, y = np.moveaxis(np.asarray(x, float), axis, -1), np.moveaxis(np.asarray(y, float), axis, -1)
    sx = np.sign(x[..., :, None] - x[..., None, :])
    sy = np.sign(y[..., :, None] - y[..., None, :])
    with np.errstate(all="ignore"):
        return np.sum(sx * sy, axis=(-2, -1)) / np.sqrt(
            np.sum(sx * sx, axis=(-2, -1)) * np.sum(sy * sy, axis=(-2, -1))
        )


def permutation_p(
    x: Sequence[float], y: Sequence[float], statistic: Callable[..., Any], alternative: str = "two-sided"
) -> tuple[float, int | None]:
    """The permutation p-value of ``statistic(x, y)`` (scipy ``permutation_test``, y's pairings
    permuted): exact over every ordering when there are at most :data:`PERMUTATIONS`, else that
    many random ones. Returns ``(p, N)`` with N ``None`` for an exact test."""
    from scipy.stats import permutation_test

    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    with np.errstate(all="ignore"):
        result = permutation_test(
            (b,),
            lambda v, axis=-1: statistic(np.broadcast_to(a, v.shape), v, axis=-1),
            permutation_type="pairings",
            vectorized=True,
            n_resamples=PERMUTATIONS,
            batch=500,
            alternative=alternative,
            rng=np.random.default_rng(SEED),
        )
    exact = math.factorial(len(b)) <= PERMUTATIONS
    return float(result.pvalue), None if exact else PERMUTATIONS


def _correlation(
    x: Sequence[float], y: Sequence[float], statistic: Callable[..., Any], name: str,
    alternative: str = "two-sided",
) -> Estimate:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return Estimate(None, len(a), method=name)
    value = float(statistic(a, b))
    p, permutations = permutation_p(a, b, statistic, alternative)
    low, high = bootstrap((a, b), statistic, vectorized=True)
    kind = "exact" if permutations is None else f"{permutations} random"
    sided = "one-sided" if alternative != "two-sided" else "two-sided"
    floor = None if permutations is None else (1 if alternative != "two-sided" else 2) / (permutations + 1)
    return Estimate(
        value, len(a), low, high, p, f"{name}, {sided} permutation p ({kind} orderings), bootstrap CI",
        permutations=permutations, p_floor=floor,
    )


def spearman(x: Sequence[float], y: Sequence[float]) -> Estimate:
    """Spearman's rank correlation with a two-sided permutation p (exact up to 7 units) and a
    bootstrap interval from :data:`MIN_BOOTSTRAP` units."""
    return _correlation(x, y, _spearman_stat, "spearman")


def kendall(x: Sequence[float], y: Sequence[float]) -> Estimate:
    """Kendall's tau-b with a two-sided permutation p and a bootstrap interval (as
    :func:`spearman`)."""
    return _correlation(x, y, _kendall_stat, "kendall tau-b")


def kappa(first: Sequence[int], second: Sequence[int]) -> Estimate:
    """Cohen's kappa of two binary verdict vectors with its asymptotic interval (statsmodels);
    no interval where its standard error is 0 (perfect agreement)."""
    from statsmodels.stats.inter_rater import cohens_kappa

    a, b = np.asarray(first, dtype=int), np.asarray(second, dtype=int)
    if len(a) == 0:
        return Estimate(None, 0, method="cohen kappa")
    table = np.array([[np.sum((a == i) & (b == j)) for j in (0, 1)] for i in (0, 1)])
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        result = cohens_kappa(table)  # 95% interval (its alpha is fixed at 0.05)
    value = _finite(result.kappa)
    return Estimate(value, len(a), _finite(result.kappa_low), _finite(result.kappa_upp), method="cohen kappa")


def mcnemar_p(first: Sequence[int], second: Sequence[int]) -> float | None:
    """The exact McNemar p-value of paired binary verdicts (statsmodels)."""
    from statsmodels.stats.contingency_tables import mcnemar

    a, b = np.asarray(first, dtype=int), np.asarray(second, dtype=int)
    if len(a) == 0:
        return None
    table = np.array([[np.sum((a == i) & (b == j)) for j in (0, 1)] for i in (0, 1)])
    return float(mcnemar(table, exact=True).pvalue)


def cronbach_alpha(matrix: np.ndarray) -> Estimate:
    """Cronbach's alpha (= KR-20 for 0/1 items) of a subjects x items matrix, with pingouin's
    F-based interval. Needs two subjects and two items."""
    import pandas as pd
    import pingouin

    subjects, items = matrix.shape
    if subjects < 2 or items < 2 or np.var(matrix.sum(axis=1)) == 0:
        return Estimate(None, subjects, method="cronbach alpha")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        alpha, interval = pingouin.cronbach_alpha(data=pd.DataFrame(matrix), ci=LEVEL)
    return Estimate(_finite(alpha), subjects, _finite(interval[0]), _finite(interval[1]), method="cronbach alpha (pingouin)")


def spearman_brown(r: float) -> float:
    """The reliability of the full test from the correlation of its two halves."""
    return 2 * r / (1 + r)


def split_half(matrix: np.ndarray, splits: int = 1000, seed: int = SEED) -> Estimate:
    """Split-half reliability over ``splits`` random halvings of the items: the mean
    Spearman-Brown-corrected Pearson correlation of the half scores across subjects. The spread
    of the splits (2.5-97.5 percentiles) is said in words, never given as an interval: it
    describes how the halving matters, not the uncertainty of the estimate. Splits whose halves
    are constant are skipped (``n`` counts subjects; the usable splits are in ``method``)."""
    from scipy.stats import pearsonr

    subjects, items = matrix.shape
    if subjects < 3 or items < 2:
        return Estimate(None, subjects, method="split-half")
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(splits):
        order = rng.permutation(items)
        a = matrix[:, order[: items // 2]].sum(axis=1)
        b = matrix[:, order[items // 2 :]].sum(axis=1)
        if np.ptp(a) == 0 or np.ptp(b) == 0:
            continue
        r = float(pearsonr(a, b).statistic)
        if r > -1:
            values.append(spearman_brown(r))
    if not values:
        return Estimate(None, subjects, method="split-half")
    low, high = np.percentile(values, [2.5, 97.5])
    spread = (
        f"no CI; random splits {low:.2f} to {high:.2f}" if high - low > 1e-12
        else "no CI; every split gives this value"
    )
    return Estimate(
        float(np.mean(values)), subjects, no_interval=spread,
        method=f"split-half, Spearman-Brown, {len(values)} of {splits} random splits",
    )


#: Correlations closer to 0 than this are 0: their sign is rounding.
ZERO_CORRELATION = 1e-12


def item_rest(matrix: np.ndarray) -> list[float | None]:
    """Each item's correlation with the sum of the other items across subjects (point-biserial
    = Pearson, scipy); ``None`` where the item or the rest does not vary.

    With a few subjects and 0/1 verdicts, an item is often exactly uncorrelated with the rest;
    the computed value is then +-1e-17, its sign set by rounding (numpy's and scipy's disagree on a
    quarter of such items), and a threshold of 0 flagged the pair or not by that sign. A
    correlation within :data:`ZERO_CORRELATION` of 0 is 0, so it is at the threshold."""
    from scipy.stats import pearsonr

    totals = matrix.sum(axis=1)
    out: list[float | None] = []
    for j in range(matrix.shape[1]):
        item, rest = matrix[:, j], totals - matrix[:, j]
        if matrix.shape[0] < 3 or np.ptp(item) == 0 or np.ptp(rest) == 0:
            out.append(None)
        else:
            r = float(pearsonr(item, rest).statistic)
            out.append(0.0 if abs(r) < ZERO_CORRELATION else r)
    return out


def order_test(order: Sequence[float], scores: Sequence[float]) -> Estimate:
    """Does the score rise with the expected order? Spearman's rho with a one-sided permutation
    p-value (scipy ``permutation_test``: every ordering of up to 7 units, so with 6 checkpoints
    the least p is 1/720) and a bootstrap interval from :data:`MIN_BOOTSTRAP` units."""
    x, y = np.asarray(order, dtype=float), np.asarray(scores, dtype=float)
    if len(x) < 3 or np.ptp(y) == 0:
        return Estimate(None, len(x), method="spearman, permutation")
    estimate = _correlation(x, y, _spearman_stat, "spearman", alternative="greater")
    return estimate
