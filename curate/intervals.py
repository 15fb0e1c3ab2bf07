"""Intervals by the project's conventions, on the ground floor so every stage can give them.

:class:`Estimate` (a value, its n and an interval, or the reason there is none) and
:func:`bootstrap` (scipy's BCa bootstrap, percentile when BCa is degenerate) moved here from
:mod:`curate.instrument.stats`, which re-exports them: the scoring stage (a corpus's
perplexity, :mod:`curate.score.corpus`) and the cross-benchmark view need the same rules
as the instrument reports, and sit beside or above it, not below. The rules:

* a bootstrap needs :data:`MIN_BOOTSTRAP` units; below that there is no resampling interval,
  and ``n too small for an interval`` is said in its place;
* an interval that does not contain its estimate, or has zero width, is never shown;
* a value that needs words beside it (a negative alpha, a kappa from a handful of pairs) carries
  them in ``note``, printed after the number.
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
#: Fewer units than this and no bootstrap interval is given (it would resample a handful of
#: values: degenerate, or excluding its own estimate).
MIN_BOOTSTRAP = 10
#: Printed in place of an interval the sample cannot give.
TOO_SMALL = "n too small for an interval"


@dataclass(frozen=True)
class Estimate:
    """A number with its sample size and interval (``low``/``high``), and a p-value if tested.

    ``no_interval`` says why there is no interval; ``permutations`` is the N of a Monte Carlo
    permutation p (so ``p<1/N`` is printed when no permutation was as extreme). An interval
    that excludes the value or has zero width is dropped on construction."""

    value: float | None
    n: int
    low: float | None = None
    high: float | None = None
    p: float | None = None
    method: str = ""
    no_interval: str = ""
    permutations: int | None = None
    #: the p a Monte Carlo permutation test reports when no permutation is as extreme
    p_floor: float | None = None
    #: words printed after the number (what an out-of-the-ordinary value means)
    note: str = ""

    def __post_init__(self) -> None:
        if self.low is None and self.high is None:
            if self.value is not None and not self.no_interval:
                object.__setattr__(self, "no_interval", TOO_SMALL)
            return
        why = ""
        if self.value is None or self.low is None or self.high is None:
            why = TOO_SMALL
        elif not (self.high - self.low > 1e-12):
            why = "no interval: it would have zero width"
        elif not (self.low - 1e-9 <= self.value <= self.high + 1e-9):
            why = "no interval: the resamples exclude the estimate, so none is given"
        if why:
            object.__setattr__(self, "low", None)
            object.__setattr__(self, "high", None)
            object.__setattr__(self, "no_interval", why if self.value is not None else "")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: value and n always, the rest when defined."""
        return {
            k: v for k, v in asdict(self).items() if k in ("value", "n") or (v is not None and v != "")
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Estimate:
        keys = (
            "value", "n", "low", "high", "p", "method", "no_interval", "permutations", "p_floor", "note",
        )
        return cls(**{k: record[k] for k in keys if k in record})

    def p_text(self) -> str:
        """``p=0.0083``; ``p≤1/10000`` when none of 9999 permutations was as extreme; never
        ``p=0``."""
        if self.p is None:
            return ""
        if self.permutations and self.p_floor and self.p <= self.p_floor * (1 + 1e-9):
            # no random permutation as extreme: scipy reports (0 + 1) / (N + 1) (twice that
            # two-sided), the least p N permutations can give, and a valid p itself; the text
            # is that fraction exactly (2/10000 for 9999 permutations, two-sided), never 2/9999
            return f"p≤{round(self.p_floor * (self.permutations + 1))}/{self.permutations + 1}"
        if self.p <= 0:
            return "p<1e-300"
        return f"p={self.p:.3g}" if self.p >= 1e-4 else f"p={self.p:.1e}"

    def text(self, digits: int = 2, scale: float = 1.0) -> str:
        """``60.48 [55.10, 65.80] n=120`` (``-`` when undefined; the reason when no interval)."""
        if self.value is None:
            return f"- ({self.no_interval}) n={self.n}" if self.no_interval else f"- n={self.n}"
        out = f"{self.value * scale:.{digits}f}"
        if self.low is not None and self.high is not None:
            out += f" [{self.low * scale:.{digits}f}, {self.high * scale:.{digits}f}]"
        elif self.no_interval:
            out += f" ({self.no_interval})"
        if self.note:
            out += f" ({self.note})"
        if self.p is not None:
            out += f" {self.p_text()}"
        return out + f" n={self.n}"


def _finite(x: float | None) -> float | None:
    return None if x is None or not np.isfinite(x) else float(x)


def proportion(successes: int, n: int) -> Estimate:
    """A share with its Wilson interval (statsmodels); exact at every n, so always given."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return Estimate(None, 0, method="wilson")
    low, high = proportion_confint(successes, n, alpha=1 - LEVEL, method="wilson")
    return Estimate(successes / n, n, float(low), float(high), method="wilson")


def bootstrap(
    samples: Sequence[Sequence[float]],
    statistic: Callable[..., Any],
    *,
    paired: bool = True,
    vectorized: bool = False,
    methods: Sequence[str] = ("BCa", "percentile"),
) -> tuple[float | None, float | None]:
    """A BCa bootstrap interval of ``statistic`` (scipy), falling back to percentile when BCa
    is degenerate; ``(None, None)`` under :data:`MIN_BOOTSTRAP` units or when the statistic is
    undefined on most resamples. (:class:`Estimate` then drops an interval that excludes its
    estimate or has zero width.) ``methods=("percentile",)`` keeps the interval inside the
    range of the resampled values, so inside the statistic's own range (a kappa's [-1, 1])."""
    from scipy.stats import bootstrap as scipy_bootstrap

    data = tuple(np.asarray(s, dtype=float) for s in samples)
    if len(data[0]) < MIN_BOOTSTRAP:
        return None, None
    result = None
    for method in methods:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                result = scipy_bootstrap(
                    data,
                    statistic,
                    paired=paired,
                    vectorized=vectorized,
                    n_resamples=RESAMPLES,
                    batch=200,
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
