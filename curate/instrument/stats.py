"""The statistics of the instrument reports, each a thin call into scipy, statsmodels or pingouin.

Every function returns an :class:`Estimate`: the value, the number of units it rests on and an
interval (``None`` where the sample cannot give one), so a report never shows a bare number.
Only the Spearman-Brown step-up (``2r / (1 + r)``, a definition) is written out here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

#: Bootstrap resamples and the seed of every interval (deterministic reports).
RESAMPLES = 2000
SEED = 20230
LEVEL = 0.95


@dataclass(frozen=True)
class Estimate:
    """A number with its sample size and interval (``low``/``high``), and a p-value if tested."""

    value: float | None
    n: int
    low: float | None = None
    high: float | None = None
    p: float | None = None
    method: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: value and n always, the rest when defined."""
        return {
            k: v for k, v in asdict(self).items() if k in ("value", "n") or (v is not None and v != "")
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Estimate:
        return cls(**{k: record[k] for k in ("value", "n", "low", "high", "p", "method") if k in record})

    def text(self, digits: int = 2, scale: float = 1.0) -> str:
        """``60.48 [55.10, 65.80] n=120`` (``-`` when undefined)."""
        if self.value is None:
            return f"- n={self.n}"
        out = f"{self.value * scale:.{digits}f}"
        if self.low is not None and self.high is not None:
            out += f" [{self.low * scale:.{digits}f}, {self.high * scale:.{digits}f}]"
        if self.p is not None:
            out += f" p={self.p:.3g}"
        return out + f" n={self.n}"


def _finite(x: float | None) -> float | None:
    return None if x is None or not np.isfinite(x) else float(x)


def proportion(successes: int, n: int) -> Estimate:
    """A share with its Wilson interval (statsmodels)."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return Estimate(None, 0, method="wilson")
    low, high = proportion_confint(successes, n, alpha=1 - LEVEL, method="wilson")
    return Estimate(successes / n, n, float(low), float(high), method="wilson")


def bootstrap(
    samples: Sequence[Sequence[float]], statistic: Callable[..., float], *, paired: bool = True
) -> tuple[float | None, float | None]:
    """A BCa bootstrap interval of ``statistic`` (scipy), falling back to percentile when BCa
    is degenerate; ``(None, None)`` when the sample is too small or constant."""
    from scipy.stats import bootstrap as scipy_bootstrap

    data = tuple(np.asarray(s, dtype=float) for s in samples)
    if len(data[0]) < 3:
        return None, None
    result = None
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result = scipy_bootstrap(
                    data,
                    statistic,
                    paired=paired,
                    vectorized=False,
                    n_resamples=RESAMPLES,
                    confidence_level=LEVEL,
                    method=method,
                    rng=np.random.default_rng(SEED),
                )
            except ValueError:
                continue
        low, high = _finite(result.confidence_interval.low), _finite(result.confidence_interval.high)
        if low is not None and high is not None:
            return low, high
    # a statistic undefined on some resamples (a rank correlation of a resample whose values
    # are all equal): the percentiles of the resamples where it is defined, if most are
    if result is None:
        return None, None
    distribution = np.asarray(result.bootstrap_distribution, dtype=float)
    finite = distribution[np.isfinite(distribution)]
    if finite.size >= 0.5 * distribution.size:
        low, high = np.percentile(finite, [100 * (1 - LEVEL) / 2, 100 * (1 + LEVEL) / 2])
        return float(low), float(high)
    return None, None


def mean_difference(after: Sequence[float], before: Sequence[float]) -> Estimate:
    """The paired mean difference ``after - before`` with a bootstrap interval."""
    a, b = np.asarray(after, dtype=float), np.asarray(before, dtype=float)
    if len(a) == 0:
        return Estimate(None, 0, method="paired bootstrap")
    low, high = bootstrap((a, b), lambda x, y: float(np.mean(x) - np.mean(y)))
    return Estimate(float(np.mean(a) - np.mean(b)), len(a), low, high, method="paired bootstrap (BCa)")


def spearman(x: Sequence[float], y: Sequence[float]) -> Estimate:
    """Spearman's rank correlation (scipy) with its p-value and a bootstrap interval."""
    from scipy.stats import spearmanr

    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return Estimate(None, len(a), method="spearman")
    result = spearmanr(a, b)
    low, high = bootstrap((a, b), lambda u, v: float(spearmanr(u, v).statistic))
    return Estimate(float(result.statistic), len(a), low, high, float(result.pvalue), "spearman, bootstrap CI")


def kappa(first: Sequence[int], second: Sequence[int]) -> Estimate:
    """Cohen's kappa of two binary verdict vectors with its asymptotic interval (statsmodels)."""
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
    Spearman-Brown-corrected Pearson correlation of the half scores across subjects, with the
    2.5-97.5 percentiles of the splits as interval. Splits whose halves are constant are
    skipped (``n`` counts subjects; the number of usable splits is in ``method``)."""
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
    return Estimate(
        float(np.mean(values)), subjects, float(low), float(high),
        method=f"split-half, Spearman-Brown, {len(values)} of {splits} random splits",
    )


def item_rest(matrix: np.ndarray) -> list[float | None]:
    """Each item's correlation with the sum of the other items across subjects (point-biserial
    = Pearson, scipy); ``None`` where the item or the rest does not vary."""
    from scipy.stats import pearsonr

    totals = matrix.sum(axis=1)
    out: list[float | None] = []
    for j in range(matrix.shape[1]):
        item, rest = matrix[:, j], totals - matrix[:, j]
        if matrix.shape[0] < 3 or np.ptp(item) == 0 or np.ptp(rest) == 0:
            out.append(None)
        else:
            out.append(float(pearsonr(item, rest).statistic))
    return out


def order_test(order: Sequence[float], scores: Sequence[float]) -> Estimate:
    """Does the score rise with the expected order? Spearman's rho with a one-sided exact
    permutation p-value (scipy ``permutation_test`` over all pairings for up to 8 units)."""
    from scipy.stats import permutation_test, spearmanr

    x, y = np.asarray(order, dtype=float), np.asarray(scores, dtype=float)
    if len(x) < 3 or np.ptp(y) == 0:
        return Estimate(None, len(x), method="spearman, permutation")
    rho = float(spearmanr(x, y).statistic)
    result = permutation_test(  # one sample permuted: all n! orderings when n! <= resamples
        (y,),
        lambda b: spearmanr(x, b).statistic,
        permutation_type="pairings",
        vectorized=False,
        n_resamples=9999,
        alternative="greater",
        rng=np.random.default_rng(SEED),
    )
    low, high = bootstrap((x, y), lambda a, b: float(spearmanr(a, b).statistic))
    return Estimate(rho, len(x), low, high, float(result.pvalue), "spearman, one-sided permutation p")
