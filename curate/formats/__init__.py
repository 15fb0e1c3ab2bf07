"""Generic readers and writers of the shapes minimal-pair data circulates in.

A benchmark's reader builds on these (its column table handed in as a
:class:`~curate.columns.Schema`); the one entry point each way for any benchmark's file is
:mod:`curate.datasets` (``read_dataset``, ``write_dataset``), which asks the registry of
benchmarks. This package imports no benchmark.

The shapes they read and write are listed in :mod:`curate.datasets`.

Layer: just above the ground floor. It may import only the ground floor (``pairs``, ``columns``,
``records``, ``fileio``, ``errors``, ...): no stage, no benchmark, no registry.
"""

from __future__ import annotations

from curate.formats.dataset import Dataset, Shape, log_warnings, shared_fields

__all__ = ["Dataset", "Shape", "log_warnings", "shared_fields"]
