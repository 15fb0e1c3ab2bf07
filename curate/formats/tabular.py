"""JSON lines and Parquet with pair columns (the CrowS-Pairs family of shapes), text labels or
the Hugging Face layout.

Both containers hold typed values, so both read the same way: the columns are the keys (JSONL:
in order of first appearance) and each record is a row of named cells. A file whose
``stereo_antistereo`` cells are integers is in the Hugging Face ``crows_pairs`` layout (class
labels in the order of its loading script); a file whose list cells are strings stored them as
Python literals (a pandas export of the CSV). The writer reproduces whichever it read. The
columns are the benchmark's, handed in as a :class:`~curate.columns.Schema`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from curate.columns import Schema
from curate.errors import InputError
from curate.formats.dataset import BadRow, Dataset, Shape
from curate.formats.labels import LabelNormaliser
from curate.formats.rows import (
    arrow_type,
    output_columns,
    pairs_from_rows,
    parse_header,
    row_of,
    skipped_warning,
)
from curate.jsonl import dumps_line, loads_document


def _layout(
    rows: Sequence[tuple[int, dict[str, Any]]], forced_hf: bool | None, schema: Schema
) -> tuple[str, str]:
    """(layout, lists) of typed rows: ``hf`` when the first row's labels are class indices."""
    directions = schema.named("direction")
    first = next((r[c] for _, r in rows for c in directions if r.get(c) is not None), None)
    is_int = isinstance(first, int) and not isinstance(first, bool)
    hf = is_int if forced_hf is None else forced_hf
    lists = "native"
    list_columns = schema.named("labels", "strings")
    for _, row in rows:
        for column in list_columns:
            value = row.get(column)
            if isinstance(value, str) and value:
                lists = "literal"
            if value not in (None, ""):
                break
        else:
            continue
        break
    return ("hf" if hf else "columns"), lists


def check_hf(
    rows: Sequence[tuple[int, dict[str, Any]]], source: str, unit: str, hf: bool, schema: Schema
) -> list[BadRow]:
    """In the HF layout every label must be a class index, elsewhere every label a string: the
    rows where one is not (an empty cell is left to the label parser, which names it)."""
    label_columns = schema.named("direction", "label")
    bad: list[BadRow] = []
    for line, row in rows:
        for column in label_columns:
            value = row.get(column)
            if value is None or value == "":
                continue
            is_int = isinstance(value, int) and not isinstance(value, bool)
            if hf and not is_int:
                problem = f"{column} is {value!r}; the Hugging Face layout has integer class labels"
            elif not hf and is_int:
                problem = (
                    f"{column} is the integer {value}, but earlier rows have text labels "
                    "(mixed layouts)"
                )
            else:
                continue
            bad.append(BadRow(line, "bad label", problem))
            break
    return bad


def _dataset(
    rows: list[tuple[int, dict[str, Any]]],
    columns: list[str],
    source: str,
    fmt: str,
    unit: str,
    forced_hf: bool | None,
    schema: Schema,
) -> Dataset:
    where = f"{unit} 1" if unit == "line" else "schema"
    header = parse_header(columns, source, where=where, schema=schema)
    layout, lists = _layout(rows, forced_hf, schema)
    mixed = check_hf(rows, source, unit, layout == "hf", schema)
    labels = LabelNormaliser(source)
    pairs, skipped = pairs_from_rows(rows, header, source, labels, unit=unit, known_bad=mixed)
    warnings = labels.warnings()
    if skipped:
        warnings.append(skipped_warning(skipped, source, unit))
    return Dataset(
        pairs=tuple(pairs),
        shape=Shape(fmt, layout, tuple(columns), header.id_column, lists),
        source=source,
        warnings=tuple(warnings),
        extra_columns=header.extras,
        schema=schema,
        skipped_rows=skipped,
    )


def parse_jsonl(text: str, source: str, forced_hf: bool | None, schema: Schema) -> Dataset:
    """Parse JSON lines (one object per line, blank lines skipped) into a dataset."""
    if text.startswith("\ufeff"):
        text = text[1:]
    rows: list[tuple[int, dict[str, Any]]] = []
    columns: dict[str, None] = {}
    # split on LF only: str.splitlines() also splits on U+0085, U+2028 ... that JSON strings
    # may hold unescaped (the writer keeps non-ASCII text as it is)
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        try:
            value = loads_document(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{source}: line {number}: not valid JSON ({exc.msg})") from None
        except ValueError as exc:  # nested too deep (a RecursionError otherwise), huge integers
            raise InputError(f"{source}: line {number}: not valid JSON ({exc})") from None
        if not isinstance(value, dict):
            raise InputError(f"{source}: line {number}: expected a JSON object with the pair's columns")
        columns.update(dict.fromkeys(value))
        rows.append((number, value))
    if not rows:
        raise InputError(f"{source}: the file is empty; expected JSON lines with the pair columns")
    return _dataset(rows, list(columns), source, "jsonl", "line", forced_hf, schema)


def read_parquet(path: Path, source: str, forced_hf: bool | None, schema: Schema) -> Dataset:
    """Read a Parquet file with the pair columns into a dataset (rows numbered from 1)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        # pyarrow decodes string cells only here: invalid UTF-8 in a cell is a ValueError too
        rows = list(enumerate(table.to_pylist(), start=1))
    except (OSError, ValueError, pa.ArrowException) as exc:
        # ArrowInvalid is a ValueError; a damaged schema can also raise ArrowNotImplementedError
        # (a NotImplementedError: "Integers with less than 8 bits"), so every Arrow error counts
        raise InputError(f"{source}: not a readable Parquet file ({exc})") from None
    return _dataset(rows, list(table.column_names), source, "parquet", "row", forced_hf, schema)


def _columns(dataset: Dataset, hf: bool, schema: Schema) -> tuple[tuple[str, ...], str | None]:
    shape = dataset.shape
    if shape.format in ("jsonl", "parquet"):
        base: list[str] = list(shape.columns)
        id_column = shape.id_column
    else:  # from CSV/TSV/another benchmark's file: typed containers name the id column ``id``
        base = [("id" if c == shape.id_column else c) for c in shape.columns]
        id_column = "id" if shape.id_column is not None else None
        if shape.format not in ("csv", "tsv"):  # another benchmark's file: ids are positions
            base, id_column = ["id", *base], "id"
    if hf and id_column is None:
        base, id_column = ["id", *base], "id"
    return output_columns(dataset.pairs, base, id_column, dataset.extra_columns, schema)


def _lists(dataset: Dataset, hf: bool) -> str:
    if hf:
        return "native"
    shape = dataset.shape
    return shape.lists if shape.format in ("jsonl", "parquet") else "native"


def format_jsonl(dataset: Dataset, hf: bool, schema: Schema) -> str:
    """Serialise as JSON lines in the input's columns (``hf``: Hugging Face class labels)."""
    columns, id_column = _columns(dataset, hf, schema)
    layout, lists = ("hf" if hf else "columns"), _lists(dataset, hf)
    known = schema.known()
    out = io.StringIO()
    for pair in dataset.pairs:
        cells = row_of(
            pair, columns, id_column, text=False, layout=layout, lists=lists, known=known
        )
        out.write(dumps_line(dict(zip(columns, cells, strict=True))) + "\n")
    return out.getvalue()


def parquet_bytes(dataset: Dataset, hf: bool, schema: Schema) -> bytes:
    """Serialise as Parquet in the input's columns, with explicit types for the known ones."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns, id_column = _columns(dataset, hf, schema)
    layout, lists = ("hf" if hf else "columns"), _lists(dataset, hf)
    known = schema.known()
    rows = [
        row_of(p, columns, id_column, text=False, layout=layout, lists=lists, known=known)
        for p in dataset.pairs
    ]
    arrays = []
    for index, column in enumerate(columns):
        values = [row[index] for row in rows]
        if column == id_column:
            kind = pa.int64()
        elif column in known:
            kind = arrow_type(known[column], hf=hf, native=lists == "native")
        else:
            kind = None
        try:
            arrays.append(pa.array(values, type=kind))
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise InputError(f"column {column!r} cannot be written to Parquet ({exc})") from None
    table = pa.Table.from_arrays(arrays, names=list(columns))
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()
