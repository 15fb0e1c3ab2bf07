"""Readers and writers for every shape minimal-pair data circulates in.

One entry point each way: :func:`read_dataset` detects the shape from the content (or takes
``input_format``) and returns a :class:`Dataset` (pairs, shape, extra columns, warnings);
:func:`write_dataset` writes a dataset atomically in its own shape or in ``output_format``.

=============  ==========================================================================
shape          what it is
=============  ==========================================================================
csv            CrowS-Pairs columns, comma-separated: the upstream file (written back byte
               for byte) or the five-column CSV of published revisions
tsv            the same columns tab-separated (Névéol et al. 2022 multilingual release)
jsonl          one JSON object per line with the same columns
parquet        the same columns in Parquet
hf-jsonl/-parquet  the Hugging Face ``crows_pairs`` layout (integer class labels)
stereoset      StereoSet JSON: intrasentence items as pairs, intersentence items kept
upstream       (output only) the eight upstream CSV columns, unknown cells empty
=============  ==========================================================================
"""

from __future__ import annotations

from pathlib import Path

from curate.errors import InputError, UsageError
from curate.fileio import read_input_bytes, write_bytes_atomic
from curate.formats.dataset import (
    INPUT_FORMATS,
    OUTPUT_FORMATS,
    SUFFIXES,
    Dataset,
    Shape,
    StereoSetItem,
    shared_fields,
)
from curate.formats.delimited import format_delimited, pairs_only, parse_delimited
from curate.formats.detect import detect_format
from curate.formats.stereoset import format_stereoset, item_of, pair_of, parse_stereoset
from curate.formats.tabular import format_jsonl, parquet_bytes, parse_jsonl, read_parquet
from curate.pairs import read_text_utf8

__all__ = [
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "SUFFIXES",
    "Dataset",
    "Shape",
    "StereoSetItem",
    "detect_format",
    "format_dataset",
    "item_of",
    "pair_of",
    "pairs_only",
    "read_dataset",
    "shared_fields",
    "write_dataset",
]


def _read_bytes(path: Path) -> bytes:
    try:
        return read_input_bytes(path)  # one reader: loops, devices, name length, input registry
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None


#: What an empty file of these suffixes was meant to be (other suffixes are read as CSV).
_EMPTY_KIND = {
    ".jsonl": "JSON lines, one pair per line",
    ".json": "a JSON document (StereoSet) or JSON lines",
    ".parquet": "a Parquet file",
    ".tsv": "a tab-separated file with a header",
}


def read_dataset(path: Path | str, input_format: str | None = None) -> Dataset:
    """Read a dataset file in any known shape (detected from content unless forced)."""
    path = Path(path)
    source = str(path)
    if input_format is not None and input_format not in INPUT_FORMATS:
        raise UsageError(
            f"unknown input format {input_format!r}; expected one of {', '.join(INPUT_FORMATS)}"
        )
    data = _read_bytes(path)
    if not data.strip() and (kind := _EMPTY_KIND.get(path.suffix.lower())):
        raise InputError(f"{source}: the file is empty; expected {kind}")
    fmt = input_format or detect_format(data)
    if fmt in ("parquet", "hf-parquet"):
        return read_parquet(path, source, forced_hf=True if fmt == "hf-parquet" else None)
    text = read_text_utf8(path)
    if fmt in ("jsonl", "hf-jsonl"):
        return parse_jsonl(text, source, forced_hf=True if fmt == "hf-jsonl" else None)
    if fmt == "stereoset":
        return parse_stereoset(text, source)
    return parse_delimited(text, source, fmt)


def format_dataset(dataset: Dataset, output_format: str | None = None) -> bytes:
    """The bytes of ``dataset`` in ``output_format`` (default: the shape it was read in)."""
    fmt = output_format or dataset.shape.name
    if fmt not in OUTPUT_FORMATS:
        raise UsageError(
            f"unknown output format {fmt!r}; expected one of {', '.join(OUTPUT_FORMATS)}"
        )
    if fmt == "upstream":
        return format_delimited(dataset, "csv", upstream=True).encode("utf-8")
    if fmt in ("csv", "tsv"):
        return format_delimited(dataset, fmt).encode("utf-8")
    if fmt in ("jsonl", "hf-jsonl"):
        hf = fmt == "hf-jsonl"
        return format_jsonl(dataset, hf=hf).encode("utf-8")
    if fmt in ("parquet", "hf-parquet"):
        return parquet_bytes(dataset, hf=fmt == "hf-parquet")
    return format_stereoset(dataset).encode("utf-8")


def write_dataset(dataset: Dataset, path: Path | str, output_format: str | None = None) -> None:
    """Write ``dataset`` atomically to ``path`` in ``output_format`` (default: its own shape).

    Upstream CrowS-Pairs input is written back losslessly; every input column is kept (unknown
    ones from :attr:`Pair.extra`). Nothing is written when a pair cannot be expressed in the
    target shape (e.g. a bias type without a Hugging Face class label).
    """
    data = format_dataset(dataset, output_format)
    write_bytes_atomic(Path(path), data)



