"""StereoSet's headline metrics for the cross-benchmark view: SS, LMS and ICAT overall.

Each is computed from the target terms (the official code averages per-term figures), so its
interval is a bootstrap over target terms (:func:`curate.intervals.bootstrap`: BCa, none under
its minimum number of units); ICAT's resamples recompute ICAT from the resampled means.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from curate.benchmarks.spec import headline
from curate.intervals import TOO_SMALL, Estimate, bootstrap

_INTERVAL = "bootstrap over target terms (BCa)"


def _icat(lms: Any, ss: Any) -> Any:
    return lms * np.minimum(ss, 100.0 - ss) / 50.0


def stereoset_headline(document: dict[str, Any]) -> list[dict[str, Any]]:
    """SS (ideal 50; a bias score), LMS (higher is better; a capability) and ICAT (higher is
    better; both mixed) of stereoset.json, each named ``<method> SS`` etc., with intervals over
    target terms."""
    overall = (document.get("results") or {}).get("overall")
    if not overall:
        return []
    method = str(document.get("method", "stereoset"))
    terms = overall.get("terms") or []
    ss = np.array([t["ss"] for t in terms], dtype=float)
    lms = np.array([t["lms"] for t in terms], dtype=float)
    records = []
    figures = (
        ("SS", overall["ss"], (ss,), lambda a, axis=-1: np.mean(a, axis=axis), "closer", 50.0, "bias"),
        ("LMS", overall["lms"], (lms,), lambda a, axis=-1: np.mean(a, axis=axis), "higher", 100.0, "capability"),
        (
            "ICAT",
            overall["icat"],
            (lms, ss),
            lambda a, b, axis=-1: _icat(np.mean(a, axis=axis), np.mean(b, axis=axis)),
            "higher",
            100.0,
            "mixed",
        ),
    )
    for name, value, samples, statistic, better, ideal, kind in figures:
        low, high = bootstrap(samples, statistic, vectorized=True) if terms else (None, None)
        estimate = Estimate(value, len(terms), low, high)
        records.append(
            headline(
                f"{method} {name}",
                value,
                len(terms),
                low=estimate.low,
                high=estimate.high,
                no_interval=estimate.no_interval or ("" if estimate.low is not None else TOO_SMALL),
                interval=_INTERVAL,
                ideal=ideal,
                better=better,
                kind=kind,
            )
        )
    return records
