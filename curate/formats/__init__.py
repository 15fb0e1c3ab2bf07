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
hf-csv/-jsonl/-parquet  the Hugging Face ``crows_pairs`` layout (integer class labels; the CSV
               is pandas' export: unnamed index, ``id``, numpy-repr list cells)
stereoset      StereoSet JSON (read by :mod:`curate.benchmarks.stereoset`)
upstream       (output only) the eight upstream CSV columns, unknown cells empty
=============  ==========================================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from curate.errors import InputError, UsageError
from curate.fileio import read_input_file, write_bytes_atomic, write_file_set
from curate.formats.dataset import Dataset, Shape, shared_fields
from curate.formats.delimited import pairs_only, parse_pairs
from curate.formats.upstream import format_pairs, log_warnings, write_pairs
from curate.pairs import Pair

__all__ = [
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "SUFFIXES",
    "Dataset",
    "Shape",
    "StereoSetItem",
    "dataset_files",
    "detect_format",
    "format_dataset",
    "format_pairs",
    "item_of",
    "log_warnings",
    "pair_of",
    "pairs_only",
    "parse_pairs",
    "read_dataset",
    "read_pairs",
    "shared_fields",
    "write_dataset",
    "write_pairs",
]


def __getattr__(name: str) -> Any:
    """The format lists, asked of the benchmark registry when first used (so that a benchmark
    added to :data:`curate.benchmarks.BENCHMARKS` brings its formats), and the StereoSet item
    conversions (re-exported from :mod:`curate.benchmarks.stereoset.io` for their callers)."""
    from curate import benchmarks

    if name == "INPUT_FORMATS":
        return benchmarks.input_formats()
    if name == "OUTPUT_FORMATS":
        return benchmarks.output_formats()
    if name == "SUFFIXES":
        return {f: s for b in benchmarks.all_benchmarks().values() for f, s in b.suffixes.items()}
    if name == "StereoSetItem":
        from curate.benchmarks.stereoset.items import StereoSetItem

        return StereoSetItem
    if name in ("item_of", "pair_of"):
        from curate.benchmarks.stereoset import io

        return getattr(io, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def detect_format(data: bytes) -> str:
    """The input format of a file's bytes, asked of every benchmark (see
    :func:`curate.benchmarks.detect`)."""
    from curate import benchmarks

    return benchmarks.detect(data)[1]



#: What an empty file of these suffixes was meant to be (other suffixes are read as CSV).
_EMPTY_KIND = {
    ".jsonl": "JSON lines, one pair per line",
    ".json": "a JSON document (StereoSet) or JSON lines",
    ".parquet": "a Parquet file",
    ".tsv": "a tab-separated file with a header",
}


def read_dataset(path: Path | str, input_format: str | None = None) -> Dataset:
    """Read a dataset file of any benchmark in any of its shapes (detected from content unless
    forced)."""
    from curate import benchmarks

    path = Path(path)
    formats = benchmarks.input_formats()
    if input_format is not None and input_format not in formats:
        raise UsageError(
            f"unknown input format {input_format!r}; expected one of {', '.join(formats)}"
        )
    try:
        folder = path.is_dir()  # a benchmark may read a folder of files (WinoBias)
    except OSError:
        folder = False  # the file reader names what is wrong with the path
    data = b"" if folder else read_input_file(path)
    if not folder and not data.strip() and (kind := _EMPTY_KIND.get(path.suffix.lower())):
        raise InputError(f"{path}: the file is empty; expected {kind}")
    if input_format is None:
        benchmark, fmt = benchmarks.detect(data, path)
    else:
        benchmark, fmt = benchmarks.for_format(input_format), input_format
    if folder and benchmark.fallback:
        raise InputError(f"{path}: is a directory, expected a file")
    return benchmark.read(path, str(path), fmt)


def format_dataset(dataset: Dataset, output_format: str | None = None) -> bytes:
    """The bytes of ``dataset`` in ``output_format`` (default: the shape it was read in).

    A benchmark's own formats are written by its writer; any other benchmark's pairs can also
    be written to the shared column-based shapes (CSV, JSONL, Parquet) by the fallback's writer.
    """
    from curate import benchmarks

    fmt = output_format or dataset.shape.name
    formats = benchmarks.output_formats()
    if fmt not in formats:
        raise UsageError(f"unknown output format {fmt!r}; expected one of {', '.join(formats)}")
    own = benchmarks.benchmark_of(dataset)
    if fmt in (*own.formats, *own.output_formats):
        return own.write(dataset, fmt)
    writer = next(
        (b for b in benchmarks.all_benchmarks().values() if fmt in (*b.formats, *b.output_formats)),
    )
    return writer.write(dataset, fmt)


def dataset_files(
    dataset: Dataset, stem: str, output_format: str | None = None
) -> dict[str, bytes]:
    """The files of ``dataset`` in ``output_format`` (default: its own shape), by relative name.

    One file ``stem + suffix`` for a one-file format; for a benchmark whose format is a folder
    of files (its ``write_files``), those files under ``stem/``, named as the benchmark names
    them, so a release or a revision can hold a WinoBias folder as it holds a CSV.
    """
    fmt = output_format or dataset.shape.name
    files = _folder_files(dataset, fmt)
    if files is not None:
        return {f"{stem}/{name}": data for name, data in sorted(files.items())}
    return {stem + _suffixes().get(fmt, ""): format_dataset(dataset, fmt)}


def _folder_files(dataset: Dataset, fmt: str) -> dict[str, bytes] | None:
    """The files of ``dataset`` when ``fmt`` is its benchmark's folder-of-files shape
    (WinoBias); None for a one-file shape."""
    from curate import benchmarks

    own = benchmarks.benchmark_of(dataset)
    if own.write_files is not None and fmt in own.formats:
        return own.write_files(dataset, fmt)
    return None


def _suffixes() -> dict[str, str]:
    """The file suffix of every one-file shape any benchmark writes, by format name."""
    from curate import benchmarks

    return {f: s for b in benchmarks.all_benchmarks().values() for f, s in b.suffixes.items()}


def write_dataset(dataset: Dataset, path: Path | str, output_format: str | None = None) -> None:
    """Write ``dataset`` atomically to ``path`` in ``output_format`` (default: its own shape).

    Upstream CrowS-Pairs input is written back losslessly; every input column is kept (unknown
    ones from :attr:`Pair.extra`). Nothing is written when a pair cannot be expressed in the
    target shape (e.g. a bias type without a Hugging Face class label). A benchmark whose shape
    is a folder of files (WinoBias) is written into the folder ``path`` as one set
    (:func:`curate.fileio.write_file_set`).
    """
    files = _folder_files(dataset, output_format or dataset.shape.name)
    if files is not None:
        if Path(path).suffix in set(_suffixes().values()) - {""}:  # `-o x.csv` meant a CSV
            from curate import benchmarks

            title = benchmarks.benchmark_of(dataset).title
            raise UsageError(
                f"{path}: a {title} dataset is written as a folder of its text files; give a "
                "folder, or a one-file shape with --output-format (csv, jsonl, parquet)"
            )
        write_file_set(Path(path), files)
        return
    data = format_dataset(dataset, output_format)
    write_bytes_atomic(Path(path), data)


def read_pairs(path: Path | str, input_format: str | None = None) -> list[Pair]:
    """Read the pairs of a dataset file in any shape :mod:`curate.formats` knows (detected
    unless ``input_format`` forces one).

    Label normalisations and unknown labels are logged as warnings on the ``curate.formats``
    logger (printed on stderr when nothing else handles them): they are never silent.
    """
    dataset = read_dataset(Path(path), input_format)
    log_warnings(dataset.warnings)
    return list(dataset.pairs)
