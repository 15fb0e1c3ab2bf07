"""CSV and tab-separated files of pair columns (the CrowS-Pairs family of shapes).

One reader covers the upstream file (eight columns, unnamed id column), the five-column CSV of
published revisions, the tab-separated ``.csv`` files of the multilingual release of Névéol
et al. (2022), whose first column is an index, and the Hugging Face layout exported by pandas
(Martínez & Kremer 2023): integer class labels, an ``id`` column after the unnamed index, list
cells in numpy's notation. That last layout is told from the content (every
``stereo_antistereo`` cell an integer), never from the name. The upstream layout is written back
byte for byte. The columns are the benchmark's, handed in as a :class:`~curate.columns.Schema`
(the cell kinds say which cells are labels and which are lists).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Any

from curate.columns import Schema
from curate.errors import InputError
from curate.formats.dataset import BadRow, Dataset, Shape
from curate.formats.labels import LabelNormaliser
from curate.formats.numpy_repr import is_numpy_repr, parse_annotations, parse_strings
from curate.formats.rows import (
    output_columns,
    pairs_from_rows,
    parse_header,
    row_of,
    skipped_warning,
)
from curate.formats.tabular import check_hf
from curate.pairs import Pair

DELIMITERS = {"csv": ",", "tsv": "\t", "hf-csv": ","}


def _rows(
    reader: Any, width: int, source: str, columns: Sequence[str], bad: list[BadRow]
) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV reader as ``(line, {column: cell})``; a row with the wrong number
    of cells is added to ``bad`` (and yielded with no cells, so it still counts as a row)."""
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
                problem = (
                    f"{len(row)} fields, expected {width} "
                    f"({', '.join(repr(c) for c in columns)})"
                )
                bad.append(BadRow(line, "wrong number of cells", problem))
                yield line, {}
            else:
                yield line, dict(zip(columns, row, strict=True))
        line = reader.line_num + 1


def _is_hf(rows: Sequence[tuple[int, dict[str, str]]], schema: Schema) -> bool:
    """The Hugging Face layout: the first labelled row's direction cell is an integer."""
    directions = schema.named("direction")
    first = next((r[c] for _, r in rows for c in directions if r.get(c)), None)
    return first is not None and first.strip().isdigit()


def _hf_row(
    row: dict[str, str], source: str, line: int, schema: Schema, bad: list[BadRow]
) -> dict[str, Any]:
    """The cells of an HF-layout CSV row as the typed values the record parser takes (a list
    cell that is not numpy's notation makes the row bad: added to ``bad``)."""
    out: dict[str, Any] = dict(row)
    for column in schema.named("direction", "label"):
        value = row.get(column, "").strip()
        if value.lstrip("-").isdigit():
            out[column] = int(value)
    lists = [(c, parse_annotations) for c in schema.named("labels")]
    lists += [(c, parse_strings) for c in schema.named("strings")]
    try:
        for column, parse in lists:
            value = row.get(column)
            if value and is_numpy_repr(value):
                out[column] = parse(value)
    except ValueError as exc:
        bad.append(BadRow(line, "bad cell", f"{column}: {exc}"))
    return out


def parse_delimited(text: str, source: str, fmt: str, schema: Schema) -> Dataset:
    """Parse CSV (``fmt="csv"``; ``hf-csv`` forces the Hugging Face layout) or tab-separated
    text with the columns of ``schema`` into a dataset."""
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
    header = parse_header(columns, source, schema=schema)
    bad: list[BadRow] = []
    rows = list(_rows(reader, len(columns), source, columns, bad))
    hf = fmt == "hf-csv" or (fmt == "csv" and _is_hf(rows, schema))
    lists = "literal"
    typed: Sequence[tuple[int, dict[str, Any]]] = rows
    if hf:
        header = parse_header(columns, source, prefer_id="id", schema=schema)
        typed = [(line, _hf_row(row, source, line, schema, bad)) for line, row in rows]
        bad += check_hf(typed, source, "line", True, schema)
        nested = schema.named("labels")
        if any(is_numpy_repr(r.get(c) or "") for _, r in rows for c in nested):
            lists = "numpy"
    labels = LabelNormaliser(source)
    pairs, skipped = pairs_from_rows(typed, header, source, labels, known_bad=bad)
    warnings = labels.warnings()
    if skipped:
        warnings.append(skipped_warning(skipped, source))
    container = "tsv" if fmt == "tsv" else "csv"
    upstream = fmt == "csv" and tuple(columns) == schema.header
    layout = "hf" if hf else "upstream" if upstream else "columns"
    return Dataset(
        pairs=tuple(pairs),
        shape=Shape(container, layout, tuple(columns), header.id_column, lists),
        source=source,
        warnings=tuple(warnings),
        extra_columns=header.extras,
        schema=schema,
        skipped_rows=skipped,
    )


def format_delimited(
    dataset: Dataset, fmt: str, schema: Schema, *, upstream: bool = False
) -> str:
    """Serialise a dataset as CSV or TSV in the input's columns (``upstream``: the schema's own
    columns first; ``hf-csv``: Hugging Face class labels and numpy-notation lists).
    Minimal quoting, LF line endings, as upstream."""
    pairs = dataset.pairs
    shape = dataset.shape
    hf = fmt == "hf-csv" or (fmt == "csv" and shape.layout == "hf" and not upstream)
    fmt = "csv" if fmt == "hf-csv" else fmt
    if upstream or (shape.layout == "upstream" and fmt == "csv"):
        base: Sequence[str] = schema.header
        id_column: str | None = ""
    elif shape.format in DELIMITERS:
        base, id_column = shape.columns, shape.id_column
    else:  # from JSONL / Parquet / another benchmark's file: the unnamed id column of CSVs
        own_shape = shape.format not in ("jsonl", "parquet")  # ids are item positions
        base = [("" if c == shape.id_column else c) for c in shape.columns]
        id_column = "" if shape.id_column is not None or own_shape else None
        if own_shape:
            base = ["", *base]
    columns, id_column = output_columns(pairs, base, id_column, dataset.extra_columns, schema)
    known = schema.known()
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
            known=known,
        )
        for p in pairs
    )
    return out.getvalue()


def pairs_only(pairs: Sequence[Pair], schema: Schema) -> Dataset:
    """A dataset of bare pairs (no file behind them), written like the upstream CSV of
    ``schema``."""
    return Dataset(
        tuple(pairs), Shape("csv", "upstream", schema.header, ""), "<pairs>", schema=schema
    )
