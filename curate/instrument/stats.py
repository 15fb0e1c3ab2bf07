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

__all__ = [
    "LEVEL", "MIN_BOOTSTRAP", "PERMUTATIONS", "RESAMPLES", "SEED", "TOO_SMALL", "Estimate", "bootstrap",
    "proportion",
]


def mean_difference(after: Sequence[float], before: Sequence[float]) -> Estimate:
    """The paired mean difference ``after - before`` of continuous values with a bootstrap
    interval (0/1 verdicts take :func:`paired_difference`: a bootstrap of them is discrete)."""
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


def _kappa_stat(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    """Cohen's kappa of 0/1 verdicts along ``axis`` (NaN where chance agreement is 1: both sides
    give every pair one verdict), vectorized for resampling."""
    po = np.mean(a == b, axis=axis)
    pa, pb = np.mean(a, axis=axis), np.mean(b, axis=axis)
    pe = pa * pb + (1 - pa) * (1 - pb)
    with np.errstate(all="ignore"):
        return np.where(pe < 1 - 1e-12, (po - pe) / (1 - pe), np.nan)


#: How a kappa's interval is made, named on every page and in report.json.
KAPPA_METHOD = "cohen kappa, bootstrap percentile CI over pairs"


def kappa(first: Sequence[int], second: Sequence[int]) -> Estimate:
    """Cohen's kappa of two binary verdict vectors (statsmodels) with a percentile bootstrap
    interval over pairs from :data:`MIN_BOOTSTRAP` pairs.

    The asymptotic interval statsmodels gives runs past 1 at small n (``0.55 [-0.16, 1.26]
    n=5``); every resampled kappa lies in [-1, 1], so their percentiles do too. Resamples
    where kappa is undefined (every pair given one verdict on both sides) are left out, as
    :func:`curate.intervals.bootstrap` does. No interval at perfect agreement (every resample
    gives 1), under :data:`MIN_BOOTSTRAP` pairs, nor where kappa itself is undefined; each
    is said in words."""
    from statsmodels.stats.inter_rater import cohens_kappa

    a, b = np.asarray(first, dtype=int), np.asarray(second, dtype=int)
    if len(a) == 0:
        return Estimate(None, 0, method=KAPPA_METHOD)
    table = np.array([[np.sum((a == i) & (b == j)) for j in (0, 1)] for i in (0, 1)])
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        value = _finite(cohens_kappa(table).kappa)
    if value is None:
        return Estimate(
            None, len(a), method=KAPPA_METHOD,
            no_interval="kappa undefined: both sides give every pair the same verdict",
        )
    low, high = bootstrap((a, b), _kappa_stat, vectorized=True, methods=("percentile",))
    if low is not None and high is not None and high - low <= 1e-12:
        return Estimate(value, len(a), method=KAPPA_METHOD,
                        no_interval="no interval: every resample of the pairs gives this kappa")
    return Estimate(value, len(a), low, high, method=KAPPA_METHOD)


#: How a paired difference of two shares is given an interval.
PAIRED_DIFFERENCE_METHOD = "paired difference of proportions, Tango score CI"


def paired_difference(after: Sequence[int], before: Sequence[int]) -> Estimate:
    """The difference of two shares of 1s measured on the same pairs (``after - before``) with
    Tango's score interval (Tango 1998, Stat Med 17:891): the values of the difference that a
    score test on the discordant pairs does not reject at the 95% level.

    A paired bootstrap of 0/1 verdicts is discrete at small n: with one discordant pair its
    interval ended exactly at the estimate or at 0 (``-9.1 [-45.5, 0.0]`` beside McNemar's
    p = 1). Tango's interval is valid down to a single pair, stays inside [-1, 1] and has
    width even when no pair is discordant. statsmodels has no paired interval, so the score
    statistic is written out: with ``b`` pairs 1 after and 0 before, ``c`` the reverse,
    ``Z(d) = (b - c - n d) / sqrt(n (2 q + d (1 - d)))``, ``q`` the restricted maximum
    likelihood estimate of the share of ``c`` pairs given the difference ``d`` (the root of
    ``2n q^2 + W q - c d (1 - d) = 0``, ``W = (2n - b + c) d - b - c``); the limits are the
    roots of ``Z(d) = +-1.96`` (scipy's brentq)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    x, y = np.asarray(after, dtype=int), np.asarray(before, dtype=int)
    n = len(x)
    if n == 0:
        return Estimate(None, 0, method=PAIRED_DIFFERENCE_METHOD)
    b, c = int(np.sum((x == 1) & (y == 0))), int(np.sum((x == 0) & (y == 1)))
    estimate = (b - c) / n
    z = float(norm.ppf(0.5 + LEVEL / 2))

    def score(d: float) -> float:
        w = (2 * n - b + c) * d - b - c
        q = (-w + math.sqrt(max(w * w + 8 * n * c * d * (1 - d), 0.0))) / (4 * n)
        variance = n * (2 * q + d * (1 - d))
        if variance <= 0:
            return 0.0 if abs(b - c - n * d) < 1e-12 else math.copysign(math.inf, b - c - n * d)
        return (b - c - n * d) / math.sqrt(variance)

    edge = 1e-12
    low = -1.0 if estimate <= -1 + edge or score(-1 + edge) <= z else brentq(
        lambda d: score(d) - z, -1 + edge, estimate, xtol=1e-12)
    high = 1.0 if estimate >= 1 - edge or score(1 - edge) >= -z else brentq(
        lambda d: score(d) + z, estimate, 1 - edge, xtol=1e-12)
    return Estimate(estimate, n, float(low), float(high), method=PAIRED_DIFFERENCE_METHOD)


def mcnemar_p(first: Sequence[int], second: Sequence[int]) -> float | None:
    """The exact McNemar p-value of paired binary verdicts (statsmodels)."""
    from statsmodels.stats.contingency_tables import mcnemar

    a, b = np.asarray(first, dtype=int), np.asarray(second, dtype=int)
    if len(a) == 0:
        return None
    table = np.array([[np.sum((a == i) & (b == j)) for j in (0, 1)] for i in (0, 1)])
    return float(mcnemar(table, exact=True).pvalue)


#: Said beside a negative alpha or split-half (the value is out of a reliability's [0, 1]).
NEGATIVE_RELIABILITY = (
    "below 0: the pairs do not measure one thing across these models, or the models are too few "
    "or too alike to tell"
)


def cronbach_alpha(matrix: np.ndarray) -> Estimate:
    """Cronbach's alpha (= KR-20 for 0/1 items) of a subjects x items matrix, with pingouin's
    F-based interval. Needs two subjects and two items. A negative alpha (items whose
    covariances are negative on average: possible with few subjects, -4 to -6.7 was met at 3
    models) carries :data:`NEGATIVE_RELIABILITY` beside it; its interval is kept only where it
    holds it (every interval is checked by :class:`Estimate`)."""
    import pandas as pd
    import pingouin

    subjects, items = matrix.shape
    method = "cronbach alpha (pingouin), F-based CI"
    if subjects < 2 or items < 2 or np.var(matrix.sum(axis=1)) == 0:
        why = ("needs 2 or more models and 2 or more pairs" if subjects < 2 or items < 2
               else "undefined: every model has the same total")
        return Estimate(None, subjects, method=method, no_interval=why)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        alpha, interval = pingouin.cronbach_alpha(data=pd.DataFrame(matrix), ci=LEVEL)
    value = _finite(alpha)
    note = NEGATIVE_RELIABILITY if value is not None and value < 0 else ""
    return Estimate(value, subjects, _finite(interval[0]), _finite(interval[1]), method=method, note=note)


def spearman_brown(r: float) -> float:
    """The reliability of the full test from the correlation of its two halves."""
    return 2 * r / (1 + r)


#: Fewer subjects (models) than this and no split-half is computed: the correlation of two
#: half-scores over 3 or 4 points takes a handful of values, often +-1, and the Spearman-Brown
#: step-up of a correlation near -1 runs to minus infinity (-8.9e14 was printed at 3 models).
MIN_SPLIT_HALF_SUBJECTS = 5
#: A half correlation within this of -1 is -1 (rounding gave -0.9999999999999998).
MINUS_ONE_TOLERANCE = 1e-9


def split_half(matrix: np.ndarray, splits: int = 1000, seed: int = SEED) -> Estimate:
    """Split-half reliability over ``splits`` random halvings of the items: the mean
    Spearman-Brown-corrected Pearson correlation of the half scores across subjects. The spread
    of the splits (2.5-97.5 percentiles) is said in words, never given as an interval: it
    describes how the halving matters, not the uncertainty of the estimate. Splits whose halves
    are constant, or whose halves correlate at -1 (within :data:`MINUS_ONE_TOLERANCE`, where
    the step-up is minus infinity), are skipped (``n`` counts subjects; the usable splits are
    in ``method``). Under :data:`MIN_SPLIT_HALF_SUBJECTS` subjects no value is given, and why
    is said; a negative value carries :data:`NEGATIVE_RELIABILITY`."""
    from scipy.stats import pearsonr

    subjects, items = matrix.shape
    if subjects < MIN_SPLIT_HALF_SUBJECTS or items < 2:
        why = (
            f"split-half needs {MIN_SPLIT_HALF_SUBJECTS} or more models: over {subjects} the "
            "correlation of two half-scores takes a few values only, and the Spearman-Brown "
            "step-up runs to minus infinity near r = -1"
            if subjects < MIN_SPLIT_HALF_SUBJECTS else "split-half needs 2 or more pairs"
        )
        return Estimate(None, subjects, method="split-half", no_interval=why)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(splits):
        order = rng.permutation(items)
        a = matrix[:, order[: items // 2]].sum(axis=1)
        b = matrix[:, order[items // 2 :]].sum(axis=1)
        if np.ptp(a) == 0 or np.ptp(b) == 0:
            continue
        r = float(pearsonr(a, b).statistic)
        if r > -1 + MINUS_ONE_TOLERANCE:
            values.append(spearman_brown(min(r, 1.0)))
    if not values:
        return Estimate(
            None, subjects, method="split-half",
            no_interval="undefined: in every split one half is constant or the halves correlate at -1",
        )
    low, high = np.percentile(values, [2.5, 97.5])
    spread = (
        f"no CI; random splits {low:.2f} to {high:.2f}" if high - low > 1e-12
        else "no CI; every split gives this value"
    )
    value = float(np.mean(values))
    return Estimate(
        value, subjects, no_interval=spread,
        method=f"split-half, Spearman-Brown, {len(values)} of {splits} random splits",
        note=NEGATIVE_RELIABILITY if value < 0 else "",
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


def _item_rest_many(matrices: np.ndarray) -> np.ndarray:
    """:func:`item_rest` of a stack of subjects x items matrices (``[..., subjects, items]``) at
    once, NaN where undefined; vectorized for the chance baseline's simulations."""
    totals = matrices.sum(axis=-1, keepdims=True)
    rest = totals - matrices
    x = matrices - matrices.mean(axis=-2, keepdims=True)
    y = rest - rest.mean(axis=-2, keepdims=True)
    with np.errstate(all="ignore"):
        r = np.sum(x * y, axis=-2) / np.sqrt(np.sum(x * x, axis=-2) * np.sum(y * y, axis=-2))
    varying = (np.ptp(matrices, axis=-2) > 0) & (np.ptp(rest, axis=-2) > 0)
    r = np.where(varying & np.isfinite(r), r, np.nan)
    return np.where(np.abs(r) < ZERO_CORRELATION, 0.0, r)


#: Simulated verdict matrices of the item-rest chance baseline.
CHANCE_SIMULATIONS = 999


def item_rest_chance(
    matrix: np.ndarray, threshold: float, simulations: int = CHANCE_SIMULATIONS, seed: int = SEED
) -> dict[str, Any]:
    """How many items would have an item-rest correlation at or below ``threshold`` if every
    subject gave its verdicts as independent noise at its own rate (its share of 1s here):
    ``simulations`` such matrices (seeded), their mean count, and the Monte Carlo p of a count
    at least the observed one (``(1 + #as many) / (1 + simulations)``, one-sided).

    With 3-6 models, pure noise flags as many pairs as the real verdicts do (34/32/28/21 on
    average where 23/27/15/15 were flagged): a flagged pair is evidence only where the count
    beats this baseline (as I002's flips must beat theirs)."""
    observed = int(sum(r is not None and r <= threshold for r in item_rest(matrix)))
    subjects, items = matrix.shape
    rates = matrix.mean(axis=1) if items else np.zeros(subjects)
    rng = np.random.default_rng(seed)
    counts: list[int] = []
    batch = max(1, min(simulations, 2_000_000 // max(1, subjects * items)))
    while len(counts) < simulations:
        size = min(batch, simulations - len(counts))
        fake = (rng.random((size, subjects, items)) < rates[None, :, None]).astype(float)
        r = _item_rest_many(fake)
        counts += [int(c) for c in np.sum(r <= threshold, axis=-1)]
    expected = float(np.mean(counts)) if counts else 0.0
    p = (1 + sum(c >= observed for c in counts)) / (1 + len(counts))
    return {
        "observed": observed, "expected": expected, "p": p, "simulations": len(counts),
        "beats_chance": observed > expected and p < 1 - LEVEL,
        "method": "independent verdicts at each model's own rate, "
        f"{len(counts)} seeded simulations, one-sided Monte Carlo p",
    }


def order_test(order: Sequence[float], scores: Sequence[float]) -> Estimate:
    """Does the score rise with the expected order? Spearman's rho with a one-sided permutation
    p-value (scipy ``permutation_test``: every ordering of up to 7 units, so with 6 checkpoints
    the least p is 1/720) and a bootstrap interval from :data:`MIN_BOOTSTRAP` units."""
    x, y = np.asarray(order, dtype=float), np.asarray(scores, dtype=float)
    if len(x) < 3 or np.ptp(y) == 0:
        return Estimate(None, len(x), method="spearman, permutation")
    estimate = _correlation(x, y, _spearman_stat, "spearman", alternative="greater")
    return estimate
