"""Rows of named cells <-> pairs: the part every column-based shape (CSV, TSV, JSONL, Parquet)
shares.

A reader hands over the header and one ``{column: value}`` row per record with its line (or
row) number; values are strings (CSV), JSON values or Arrow values. This module finds the id
column, checks the required columns, parses each cell whatever its container made of it
(Python-literal string or native list; text label or Hugging Face class index) and keeps the
unknown columns on the pair. The writer side turns pairs back into rows for a target shape.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from curate.errors import InputError
from curate.formats.labels import HF_DIRECTIONS, LabelError, LabelNormaliser, hf_bias_index
from curate.pairs import (
    FIELD_COLUMNS,
    STEREOSET_FIELD_COLUMNS,
    Pair,
    _parse_literal_list,
    _RowError,
    sentence_control_characters,
)
from curate.records import MAX_ID

#: Columns every shape must have.
REQUIRED_COLUMNS: tuple[str, ...] = ("sent_more", "sent_less", "stereo_antistereo", "bias_type")
#: Names an id column goes by: upstream's unnamed column, pandas' and Hugging Face's names.
ID_COLUMNS: tuple[str, ...] = ("", "id", "Unnamed: 0", "index", "pair_id")
#: Every column the schema knows (other than the id), and the Pair field it holds.
KNOWN_FIELDS: dict[str, str] = {
    **{column: f for f, column in FIELD_COLUMNS[1:]},
    **{column: f for f, column in STEREOSET_FIELD_COLUMNS},
}


@dataclass(frozen=True)
class Header:
    """The columns of a file: which one is the id, which are known, which are extra."""

    columns: tuple[str, ...]
    id_column: str | None
    extras: tuple[str, ...]


def parse_header(columns: Sequence[str], source: str, where: str = "line 1") -> Header:
    """Check a header: required columns present, no duplicates; find the id column."""
    columns = tuple(columns)
    duplicates = sorted({c for c in columns if columns.count(c) > 1})
    if duplicates:
        raise InputError(
            f"{source}: {where}: bad header (duplicate {', '.join(repr(c) for c in duplicates)})"
        )
    id_column = next((c for c in columns if c in ID_COLUMNS), None)
    if id_column is not None and columns.index(id_column) != 0 and id_column not in ("id", "pair_id"):
        id_column = None  # an unnamed or pandas index column only counts in first position
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    extras = tuple(c for c in columns if c != id_column and c not in KNOWN_FIELDS)
    if missing:
        details = ["missing " + ", ".join(repr(c) for c in missing)]
        if extras:
            details.append("unexpected " + ", ".join(repr(c) for c in extras))
        expected = ", ".join(repr(c) for c in ("", *REQUIRED_COLUMNS))
        optional = ", ".join(repr(c) for _, c in FIELD_COLUMNS[5:])
        raise InputError(
            f"{source}: {where}: bad header ({'; '.join(details)}); expected {expected} "
            f"(the id column may be unnamed or 'id'; optional: {optional}; others are kept)"
        )
    return Header(columns, id_column, extras)


def _string(value: Any, column: str, *, required: bool) -> str | None:
    if value is None or value == "":
        if required:
            raise _RowError(f"{column} is empty")
        return None
    if not isinstance(value, str):
        raise _RowError(f"{column} must be text, got {type(value).__name__} {value!r:.60}")
    if required and not value.strip():
        raise _RowError(f"{column} is empty")
    if required and (found := sentence_control_characters(value)):
        raise _RowError(f"{column} holds the control character(s) {', '.join(found)}")
    return value


def _annotations(value: Any) -> tuple[tuple[str, ...], ...] | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return _parse_literal_list(value, "annotations", True)
    if not isinstance(value, list | tuple):
        raise _RowError(f"annotations must be a list of lists, got {type(value).__name__}")
    out = []
    for labels in value:
        if not isinstance(labels, list | tuple):
            raise _RowError(f"annotations must be a list of lists: {value!r:.60}")
        row = []
        for label in labels:
            if isinstance(label, int) and not isinstance(label, bool):
                try:
                    row.append(LabelNormaliser("").bias_type(label, 0))
                except LabelError as exc:
                    raise _RowError(f"annotations: {exc}") from None
            elif isinstance(label, str):
                row.append(label)
            else:
                raise _RowError(f"annotations must hold labels, got {label!r:.60}")
        out.append(tuple(row))
    return tuple(out)


def _annotators(value: Any) -> tuple[str, ...] | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return _parse_literal_list(value, "anon_annotators", False)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _RowError(f"anon_annotators must be a list of strings: {value!r:.60}")


def _pair_id(value: Any) -> int:
    if isinstance(value, bool):
        raise _RowError(f"pair id {value!r} is not an integer")
    if isinstance(value, int):
        pair_id = value
    elif isinstance(value, float) and value.is_integer():
        pair_id = int(value)
    elif isinstance(value, str):
        try:
            pair_id = int(value)
        except ValueError:
            raise _RowError(f"pair id {value!r} is not an integer") from None
        if str(pair_id) != value:
            raise _RowError(f"pair id {value!r} is not a non-negative integer in plain form")
    else:
        raise _RowError(f"pair id {value!r} is not an integer")
    if pair_id < 0:
        raise _RowError(f"pair id {value!r} is not a non-negative integer")
    if pair_id > MAX_ID:
        raise _RowError(f"pair id {str(value)[:30]}... is larger than {MAX_ID:,} (2^63-1)")
    return pair_id


def pair_from_row(
    row: dict[str, Any], header: Header, position: int, labels: LabelNormaliser, line: int
) -> Pair:
    """One pair from a row of named cells (``position``: the id when there is no id column)."""
    pair_id = _pair_id(row.get(header.id_column)) if header.id_column is not None else position
    try:
        texts = {c: _string(row.get(c), c, required=True) for c in ("sent_more", "sent_less")}
    except _RowError as exc:
        raise _RowError(f"{exc} (pair {pair_id})") from None
    try:
        direction = labels.direction(row.get("stereo_antistereo"), line)
        bias_type = labels.bias_type(row.get("bias_type"), line)
    except LabelError as exc:
        raise _RowError(exc.for_pair(pair_id)) from None
    optional = {
        f: _string(row.get(c), c, required=False) for f, c in STEREOSET_FIELD_COLUMNS if c in row
    }
    return Pair(
        pair_id=pair_id,
        sent_more=texts["sent_more"] or "",
        sent_less=texts["sent_less"] or "",
        direction=direction,
        bias_type=bias_type,
        annotations=_annotations(row.get("annotations")),
        writer=_string(row.get("anon_writer"), "anon_writer", required=False) or "",
        annotators=_annotators(row.get("anon_annotators")),
        extra=tuple((c, row.get(c)) for c in header.extras),
        **optional,  # type: ignore[arg-type]
    )


def pairs_from_rows(
    rows: Iterable[tuple[int, dict[str, Any]]],
    header: Header,
    source: str,
    labels: LabelNormaliser,
    unit: str = "line",
) -> list[Pair]:
    """Pairs from numbered rows; the first problem is one :class:`InputError`."""
    pairs: list[Pair] = []
    first: dict[int, int] = {}
    for position, (line, row) in enumerate(rows):
        try:
            pair = pair_from_row(row, header, position, labels, line)
        except _RowError as exc:
            raise InputError(f"{source}: {unit} {line}: {exc}") from None
        if pair.pair_id in first:
            raise InputError(
                f"{source}: {unit} {line}: duplicate pair id {pair.pair_id} "
                f"(first on {unit} {first[pair.pair_id]})"
            )
        first[pair.pair_id] = line
        pairs.append(pair)
    return pairs


def output_columns(
    pairs: Sequence[Pair], columns: Sequence[str], id_column: str | None, extras: Sequence[str]
) -> tuple[tuple[str, ...], str | None]:
    """The columns to write: the input's, then any known field or extra the pairs carry that
    the input did not have (a written file never loses what the pairs hold)."""
    out = list(columns)
    for f, column in (*FIELD_COLUMNS[1:], *STEREOSET_FIELD_COLUMNS):
        if column in out:
            continue
        if column in REQUIRED_COLUMNS or any(getattr(p, f) not in (None, "") for p in pairs):
            out.append(column)
    present = set(out)
    for name in (*extras, *(k for p in pairs for k, _ in p.extra)):
        if name not in present:
            out.append(name)
            present.add(name)
    # ids that are not row positions need a column to survive
    renumbered = any(p.pair_id != i for i, p in enumerate(pairs))
    if id_column is None and renumbered and not any(c in ID_COLUMNS for c in out[:1]):
        out.insert(0, "id")
        id_column = "id"
    return tuple(out), id_column


def row_of(
    pair: Pair, columns: Sequence[str], id_column: str | None, *, text: bool, layout: str, lists: str
) -> list[Any]:
    """The cells of ``pair`` for ``columns``.

    ``text``: every cell a string (CSV); ``layout`` ``hf`` writes class indices; ``lists``
    ``literal`` writes list cells as Python literals, ``native`` as lists.
    """
    extra = dict(pair.extra)
    cells: list[Any] = []
    for column in columns:
        if column == id_column:
            value: Any = str(pair.pair_id) if text else pair.pair_id
        elif column in KNOWN_FIELDS:
            f = KNOWN_FIELDS[column]
            value = getattr(pair, f)
            if layout == "hf" and f == "direction":
                value = HF_DIRECTIONS.index(value)
            elif layout == "hf" and f == "bias_type":
                try:
                    value = hf_bias_index(value)
                except ValueError as exc:
                    raise InputError(f"pair {pair.pair_id}: {exc}") from None
            elif f in ("annotations", "annotators") and value is not None:
                if layout == "hf" and f == "annotations":
                    try:
                        value = [[hf_bias_index(x) for x in labels] for labels in value]
                    except ValueError as exc:
                        raise InputError(f"pair {pair.pair_id}: annotations: {exc}") from None
                elif f == "annotations":
                    value = [list(labels) for labels in value]
                else:
                    value = list(value)
                if text or lists == "literal":
                    value = repr(value)
            if text and value is None:
                value = ""
        else:
            value = extra.get(column)
            if text:
                value = "" if value is None else value if isinstance(value, str) else json.dumps(value)
        cells.append(value)
    return cells
