"""CSV and tab-separated files with the CrowS-Pairs columns.

One reader covers the upstream file (eight columns, unnamed id column), the five-column CSV of
published revisions, and the tab-separated ``.csv`` files of the multilingual release of Névéol
et al. (2022), whose first column is an index. The upstream layout is written back byte for
byte by :func:`curate.pairs.format_pairs`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Any

from curate.errors import InputError
from curate.formats.dataset import Dataset, Shape
from curate.formats.labels import LabelNormaliser
from curate.formats.records import output_columns, pairs_from_rows, parse_header, row_of
from curate.pairs import COLUMNS, Pair, format_pairs

DELIMITERS = {"csv": ",", "tsv": "\t"}


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


def parse_delimited(text: str, source: str, fmt: str = "csv") -> Dataset:
    """Parse CSV (``fmt="csv"``) or tab-separated text into a dataset."""
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
    labels = LabelNormaliser(source)
    pairs = pairs_from_rows(_rows(reader, len(columns), source, columns), header, source, labels)
    layout = "upstream" if fmt == "csv" and tuple(columns) == COLUMNS else "columns"
    return Dataset(
        pairs=tuple(pairs),
        shape=Shape(fmt, layout, tuple(columns), header.id_column, "literal"),
        source=source,
        warnings=tuple(labels.warnings()),
        extra_columns=header.extras,
    )


def format_delimited(dataset: Dataset, fmt: str = "csv", *, upstream: bool = False) -> str:
    """Serialise a dataset as CSV or TSV in the input's columns (``upstream``: the eight
    upstream columns first). Minimal quoting, LF line endings, as upstream."""
    pairs = dataset.pairs
    shape = dataset.shape
    if upstream or (shape.layout == "upstream" and fmt == "csv"):
        base: Sequence[str] = COLUMNS
        id_column: str | None = ""
    elif shape.format in DELIMITERS:
        base, id_column = shape.columns, shape.id_column
    else:  # from JSONL / Parquet / StereoSet: the unnamed id column of CrowS-Pairs CSVs
        base = [("" if c == shape.id_column else c) for c in shape.columns]
        id_column = "" if shape.id_column is not None or shape.format == "stereoset" else None
        if shape.format == "stereoset":
            base = ["", *base]
    columns, id_column = output_columns(pairs, base, id_column, dataset.extra_columns)
    if fmt == "csv" and tuple(columns) == COLUMNS and id_column == "":
        return format_pairs(pairs)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=DELIMITERS[fmt], lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(
        row_of(p, columns, id_column, text=True, layout="columns", lists="literal") for p in pairs
    )
    return out.getvalue()


def pairs_only(pairs: Sequence[Pair]) -> Dataset:
    """A dataset of bare pairs (no file behind them), written like the upstream CSV."""
    return Dataset(tuple(pairs), Shape("csv", "upstream", COLUMNS, ""), "<pairs>")
