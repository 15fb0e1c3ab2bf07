"""CSV and tab-separated files with the CrowS-Pairs columns.

One reader covers the upstream file (eight columns, unnamed id column), the five-column CSV of
published revisions, the tab-separated ``.csv`` files of the multilingual release of Névéol
et al. (2022), whose first column is an index, and the Hugging Face layout exported by pandas
(Martínez & Kremer 2023): integer class labels, an ``id`` column after the unnamed index, list
cells in numpy's notation. That last layout is told from the content (every
``stereo_antistereo`` cell an integer), never from the name. The upstream layout is written back
byte for byte by :func:`curate.formats.upstream.format_pairs`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Any

from curate.errors import InputError
from curate.formats.dataset import Dataset, Shape
from curate.formats.labels import LabelNormaliser
from curate.formats.numpy_repr import is_numpy_repr, parse_annotations, parse_strings
from curate.formats.rows import output_columns, pairs_from_rows, parse_header, row_of
from curate.formats.tabular import check_hf
from curate.formats.upstream import format_pairs, log_warnings
from curate.pairs import COLUMNS, Pair

DELIMITERS = {"csv": ",", "tsv": "\t", "hf-csv": ","}


def _rows(
    reader: Any, width: int, source: str, columns: Sequence[str]
) -> Iterator[tuple[int, dict[str, str]]]:
    line = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(f"{source}: line {line}: malformed CSV ({exc})") from None
        if row:  # blank lines are skipped
            if len(row) != width:
                raise InputError(
                    f"{source}: line {line}: {len(row)} fields, expected {width} "
                    f"({', '.join(repr(c) for c in columns)})"
                )
            yield line, dict(zip(columns, row, strict=True))
        line = reader.line_num + 1


def _is_hf(rows: Sequence[tuple[int, dict[str, str]]]) -> bool:
    """The Hugging Face layout: the first labelled row's ``stereo_antistereo`` is an integer."""
    first = next((r["stereo_antistereo"] for _, r in rows if r.get("stereo_antistereo")), None)
    return first is not None and first.strip().isdigit()


def _hf_row(row: dict[str, str], source: str, line: int) -> dict[str, Any]:
    """The cells of an HF-layout CSV row as the typed values the record parser takes."""
    out: dict[str, Any] = dict(row)
    for column in ("stereo_antistereo", "bias_type"):
        value = row.get(column, "").strip()
        if value.lstrip("-").isdigit():
            out[column] = int(value)
    try:
        for column, parse in (("annotations", parse_annotations), ("anon_annotators", parse_strings)):
            value = row.get(column)
            if value and is_numpy_repr(value):
                out[column] = parse(value)
    except ValueError as exc:
        raise InputError(f"{source}: line {line}: {column}: {exc}") from None
    return out


def parse_delimited(text: str, source: str, fmt: str = "csv") -> Dataset:
    """Parse CSV (``fmt="csv"``; ``hf-csv`` forces the Hugging Face layout) or tab-separated
    text into a dataset."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise InputError(f"{source}: the file is empty; expected a CrowS-Pairs CSV with a header")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITERS[fmt], strict=True)
    try:
        columns = next(reader)
    except csv.Error as exc:
        raise InputError(f"{source}: line 1: malformed CSV header ({exc})") from None
    if any("\ufeff" in column for column in columns):  # found by tests/test_fuzz.py
        raise InputError(
            f"{source}: line 1: a byte-order mark (U+FEFF) inside the header (a file saved "
            "with two of them?); remove it"
        )
    header = parse_header(columns, source)
    rows = list(_rows(reader, len(columns), source, columns))
    hf = fmt == "hf-csv" or (fmt == "csv" and _is_hf(rows))
    lists = "literal"
    typed: Sequence[tuple[int, dict[str, Any]]] = rows
    if hf:
        header = parse_header(columns, source, prefer_id="id")
        typed = [(line, _hf_row(row, source, line)) for line, row in rows]
        check_hf(typed, source, "line", True)
        if any(is_numpy_repr(r.get("annotations") or "") for _, r in rows):
            lists = "numpy"
    labels = LabelNormaliser(source)
    pairs = pairs_from_rows(typed, header, source, labels)
    container = "tsv" if fmt == "tsv" else "csv"
    layout = "hf" if hf else "upstream" if fmt == "csv" and tuple(columns) == COLUMNS else "columns"
    return Dataset(
        pairs=tuple(pairs),
        shape=Shape(container, layout, tuple(columns), header.id_column, lists),
        source=source,
        warnings=tuple(labels.warnings()),
        extra_columns=header.extras,
    )


def parse_pairs(text: str, source: str = "<text>") -> list[Pair]:
    """Parse CrowS-Pairs CSV text into pairs; ``source`` names the input in error messages.

    The one CSV parser is :func:`curate.formats.delimited.parse_delimited` (the upstream
    schema and every column subset of it); this keeps the text-level entry point.
    """
    dataset = parse_delimited(text, source)
    log_warnings(dataset.warnings)
    return list(dataset.pairs)


def format_delimited(dataset: Dataset, fmt: str = "csv", *, upstream: bool = False) -> str:
    """Serialise a dataset as CSV or TSV in the input's columns (``upstream``: the eight
    upstream columns first; ``hf-csv``: Hugging Face class labels and numpy-notation lists).
    Minimal quoting, LF line endings, as upstream."""
    pairs = dataset.pairs
    shape = dataset.shape
    hf = fmt == "hf-csv" or (fmt == "csv" and shape.layout == "hf" and not upstream)
    fmt = "csv" if fmt == "hf-csv" else fmt
    if upstream or (shape.layout == "upstream" and fmt == "csv"):
        base: Sequence[str] = COLUMNS
        id_column: str | None = ""
    elif shape.format in DELIMITERS:
        base, id_column = shape.columns, shape.id_column
    else:  # from JSONL / Parquet / another benchmark's file: the unnamed id column of CSVs
        own_shape = shape.format not in ("jsonl", "parquet")  # ids are item positions
        base = [("" if c == shape.id_column else c) for c in shape.columns]
        id_column = "" if shape.id_column is not None or own_shape else None
        if own_shape:
            base = ["", *base]
    columns, id_column = output_columns(pairs, base, id_column, dataset.extra_columns)
    if fmt == "csv" and tuple(columns) == COLUMNS and id_column == "" and not hf:
        return format_pairs(pairs)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=DELIMITERS[fmt], lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(
        row_of(
            p,
            columns,
            id_column,
            text=True,
            layout="hf" if hf else "columns",
            lists="numpy" if hf else "literal",
        )
        for p in pairs
    )
    return out.getvalue()


def pairs_only(pairs: Sequence[Pair]) -> Dataset:
    """A dataset of bare pairs (no file behind them), written like the upstream CSV."""
    return Dataset(tuple(pairs), Shape("csv", "upstream", COLUMNS, ""), "<pairs>")
