"""Generic readers and writers of the shapes minimal-pair data circulates in.

A benchmark's reader builds on these (its column table handed in as a
:class:`~curate.columns.Schema`); the one entry point each way for any benchmark's file is
:mod:`curate.datasets` (``read_dataset``, ``write_dataset``), which asks the registry of
benchmarks. This package imports no benchmark.

=============  ==========================================================================
shape          what it is
=============  ==========================================================================
csv            pair columns, comma-separated: the upstream CrowS-Pairs file (written back
               byte for byte) or the five-column CSV of published revisions
tsv            the same columns tab-separated (Névéol et al. 2022 multilingual release)
jsonl          one JSON object per line with the same columns
parquet        the same columns in Parquet
hf-csv/-jsonl/-parquet  the Hugging Face ``crows_pairs`` layout (integer class labels; the CSV
               is pandas' export: unnamed index, ``id``, numpy-repr list cells)
=============  ==========================================================================

Layer: just above the ground floor. It may import only the ground floor (``pairs``, ``columns``,
``records``, ``fileio``, ``errors``, ...): no stage, no benchmark, no registry.
"""

from __future__ import annotations

from curate.formats.dataset import Dataset, Shape, log_warnings, shared_fields

__all__ = ["Dataset", "Shape", "log_warnings", "shared_fields"]
