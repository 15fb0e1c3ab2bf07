"""Read and write a dataset of any benchmark: the one entry point each way.

:func:`read_dataset` asks the registry of benchmarks (:mod:`curate.benchmarks`) which benchmark
and shape a file is (from its content, or ``input_format``) and hands it to that benchmark's
reader; :func:`write_dataset` writes a dataset atomically in its own shape or in
``output_format``. This module sits above the benchmarks (it asks their registry) and below the
workflows and commands that read data; the stages below receive a :class:`Dataset` or pairs.

=============  ==========================================================================
shape          what it is
=============  ==========================================================================
csv            pair columns, comma-separated: the upstream CrowS-Pairs file (written back
               byte for byte) or the five-column CSV of published revisions
tsv            the same columns tab-separated (Névéol et al. 2022 multilingual release)
jsonl          one JSON object per line with the same columns
parquet        the same columns in Parquet
hf-csv/-jsonl/-parquet  the Hugging Face ``crows_pairs`` layout (integer class labels)
stereoset      StereoSet JSON (read by :mod:`curate.benchmarks.stereoset`)
winobias       the WinoBias folder of text files (:mod:`curate.benchmarks.winobias`)
upstream       (output only) the eight upstream CSV columns, unknown cells empty
=============  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from curate import benchmarks
from curate.benchmarks.crows_pairs.upstream import format_pairs, write_pairs
from curate.errors import InputError, UsageError
from curate.fileio import read_input_file, write_bytes_atomic, write_file_set
from curate.formats.dataset import Dataset, Shape, log_warnings, shared_fields
from curate.formats.delimited import pairs_only as _pairs_only
from curate.formats.delimited import parse_delimited
from curate.formats.encoding import sniffable
from curate.pairs import Pair

__all__ = [
    "Dataset",
    "Shape",
    "dataset_files",
    "detect_format",
    "format_dataset",
    "format_pairs",
    "input_formats",
    "log_warnings",
    "output_formats",
    "pairs_only",
    "parse_pairs",
    "read_dataset",
    "read_pairs",
    "shared_fields",
    "suffixes",
    "write_dataset",
    "write_pairs",
]

input_formats = benchmarks.input_formats
output_formats = benchmarks.output_formats
suffixes = benchmarks.suffixes


def detect_format(data: bytes) -> str:
    """The input format of a file's bytes, asked of every benchmark (see
    :func:`curate.benchmarks.detect`)."""
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
        benchmark, fmt = benchmarks.detect(sniffable(data), path)
    else:
        benchmark, fmt = benchmarks.for_format(input_format), input_format
    if folder and benchmark.fallback:
        raise InputError(f"{path}: is a directory, expected a file")
    return benchmarks.read_with(benchmark, path, str(path), fmt)


def format_dataset(dataset: Dataset, output_format: str | None = None) -> bytes:
    """The bytes of ``dataset`` in ``output_format`` (default: the shape it was read in).

    A benchmark's own formats are written by its writer; any other benchmark's pairs can also
    be written to the shared column-based shapes (CSV, JSONL, Parquet) by the fallback's writer.
    """
    fmt = output_format or dataset.shape.name
    formats = benchmarks.output_formats()
    if fmt not in formats:
        raise UsageError(f"unknown output format {fmt!r}; expected one of {', '.join(formats)}")
    own = benchmarks.benchmark_of(dataset)
    if fmt in (*own.formats, *own.output_formats):
        return benchmarks.write_with(own, dataset, fmt)
    writer = next(
        (b for b in benchmarks.all_benchmarks().values() if fmt in (*b.formats, *b.output_formats)),
    )
    return benchmarks.write_with(writer, dataset, fmt)


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
    return {stem + benchmarks.suffixes().get(fmt, ""): format_dataset(dataset, fmt)}


def _folder_files(dataset: Dataset, fmt: str) -> dict[str, bytes] | None:
    """The files of ``dataset`` when ``fmt`` is its benchmark's folder-of-files shape
    (WinoBias); None for a one-file shape."""
    own = benchmarks.benchmark_of(dataset)
    if own.write_files is not None and fmt in own.formats:
        return own.write_files(dataset, fmt)
    return None


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
        if Path(path).suffix in set(benchmarks.suffixes().values()) - {""}:  # `-o x.csv`
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
    """Read the pairs of a dataset file in any shape (detected unless ``input_format`` forces
    one).

    Label normalisations and unknown labels are logged as warnings on the ``curate.formats``
    logger (printed on stderr when nothing else handles them): they are never silent.
    """
    dataset = read_dataset(Path(path), input_format)
    log_warnings(dataset.warnings)
    return list(dataset.pairs)


def parse_pairs(text: str, source: str = "<text>") -> list[Pair]:
    """Parse pair-file CSV text (the upstream columns or any subset of them) into pairs;
    ``source`` names the input in error messages."""
    dataset = parse_delimited(text, source, "csv", benchmarks.shared_schema())
    log_warnings(dataset.warnings)
    return list(dataset.pairs)


def pairs_only(pairs: Sequence[Pair]) -> Dataset:
    """A dataset of bare pairs (no file behind them), written like the upstream CSV."""
    return _pairs_only(pairs, benchmarks.shared_schema())


def __getattr__(name: str) -> object:
    """``INPUT_FORMATS``, ``OUTPUT_FORMATS`` and ``SUFFIXES``: the format lists, asked of the
    registry when first used (so that a benchmark added to it brings its formats)."""
    if name == "INPUT_FORMATS":
        return benchmarks.input_formats()
    if name == "OUTPUT_FORMATS":
        return benchmarks.output_formats()
    if name == "SUFFIXES":
        return benchmarks.suffixes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Corpora that ship offline, for ``curate score --corpus NAME``: name -> (the data source it
#: is drawn from, what it is). Each is drawn from a benchmark's own file by
#: :func:`named_corpus`, so no text is stored in the project.
NAMED_CORPORA: dict[str, tuple[str, str]] = {
    "stereoset-unrelated": (
        "stereoset-dev",
        "the unrelated options of StereoSet's dev set (intrasentence and intersentence), the "
        "sentences its language-modelling score (LMS) ranks below the meaningful ones",
    ),
}


def named_corpus(name: str, path: Path) -> tuple[str, ...]:
    """The sentences of the named corpus ``name`` (:data:`NAMED_CORPORA`), read from ``path``
    (its source's fetched file): every distinct ``unrelated`` option of the items, in file
    order."""
    if name not in NAMED_CORPORA:
        raise UsageError(
            f"unknown corpus {name!r}: give a text file (one sentence a line) or one of "
            f"{', '.join(NAMED_CORPORA)}"
        )
    dataset = read_dataset(path)
    found = [p.unrelated for p in dataset.pairs if p.unrelated]
    found += [getattr(i, "unrelated", None) for i in dataset.intersentence]
    sentences = tuple(dict.fromkeys(s.strip() for s in found if s and s.strip()))
    if not sentences:
        raise InputError(f"{path}: has no unrelated options to draw corpus {name!r} from")
    return sentences
