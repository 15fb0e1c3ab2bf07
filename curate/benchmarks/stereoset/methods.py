"""StereoSet's own scoring methods, as plain data: the names its benchmark declares
(:class:`~curate.benchmarks.spec.Scoring`), its runner accepts and its routes implement
(:data:`curate.benchmarks.stereoset.routes.METHOD_ROUTES`), each kind's official one first.

A module of its own, below the runner and the benchmark definition, so that both can name the
list without either importing the other.
"""

from __future__ import annotations

OWN_METHODS: tuple[str, ...] = (
    "stereoset-mlm",
    "stereoset-mlm-biasbench",
    "stereoset-pll",
    "stereoset-clm",
    "stereoset-clm-context-ratio",
    "stereoset-clm-conditional",
)
