"""Rows of named cells <-> pairs: the part every column-based shape (CSV, TSV, JSONL, Parquet)
shares.

A reader hands over the header and one ``{column: value}`` row per record with its line (or
row) number; values are strings (CSV), JSON values or Arrow values. This module finds the id
column, checks the required columns, parses each cell whatever its container made of it
(Python-literal string or native list; text label or Hugging Face class index) and keeps the
unknown columns on the pair. The writer side turns pairs back into rows for a target shape.

Which columns exist, which are required and how each cell is parsed is the benchmark's column
table, handed in as a :class:`~curate.columns.Schema` (the cell parser is chosen by the
column's ``kind``): nothing here names a benchmark's column.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import functools
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from curate.columns import Column, Schema
from curate.errors import InputError
from curate.formats.dataset import BadRow
from curate.formats.labels import HF_DIRECTIONS, LabelError, LabelNormaliser, hf_bias_index
from curate.formats.numpy_repr import format_annotations, format_strings
from curate.pairs import Pair, item_pair_id, sentence_control_characters
from curate.records import MAX_ID


class _RowError(ValueError):
    """A problem with one cell; the reader adds file and line. ``kind`` names the damage in
    the count of bad rows (:class:`~curate.formats.dataset.BadRow`)."""

    def __init__(self, message: str, kind: str = "bad cell") -> None:
        super().__init__(message)
        self.kind = kind


#: ``--skip-bad-rows``: read the rows that can be read and record the others.
_skip_bad_rows: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "curate_skip_bad_rows", default=False
)


@contextlib.contextmanager
def skipping_bad_rows(skip: bool = True) -> Iterator[None]:
    """Within the block, the column-based readers leave out the rows they cannot read and
    record them (:attr:`Dataset.skipped_rows`, a warning) instead of refusing the file."""
    token = _skip_bad_rows.set(skip)
    try:
        yield
    finally:
        _skip_bad_rows.reset(token)


@functools.lru_cache(maxsize=4096)
def _parse_literal_list(text: str, column: str, nested: bool) -> tuple:
    """Parse a Python-literal list of strings (or of lists of strings) without ``eval``."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise _RowError(f"{column} is not a Python-literal list: {text[:60]!r}") from exc
    if not isinstance(value, list):
        raise _RowError(f"{column} must be a list, got {type(value).__name__}: {text[:60]!r}")
    if nested:
        if not all(isinstance(v, list) and all(isinstance(s, str) for s in v) for v in value):
            raise _RowError(f"{column} must be a list of lists of strings: {text[:60]!r}")
        return tuple(tuple(v) for v in value)
    if not all(isinstance(s, str) for s in value):
        raise _RowError(f"{column} must be a list of strings: {text[:60]!r}")
    return tuple(value)


#: Names an id column goes by: upstream's unnamed column, pandas' and Hugging Face's names.
ID_COLUMNS: tuple[str, ...] = ("", "id", "Unnamed: 0", "index", "pair_id")


def arrow_type(column: Column, *, hf: bool, native: bool) -> Any:
    """The Arrow type of a column in Parquet: labels are class indices in the HF layout, list
    cells native lists or Python-literal strings."""
    import pyarrow as pa

    label = pa.int64() if hf else pa.string()
    if column.arrow == "label":
        return label
    if column.arrow == "labels":
        return pa.list_(pa.list_(label)) if native else pa.string()
    if column.arrow == "strings":
        return pa.list_(pa.string()) if native else pa.string()
    return pa.int64() if column.arrow == "int64" else pa.string()


@dataclass(frozen=True)
class Header:
    """The columns of a file: which one is the id, which are known, which are extra."""

    columns: tuple[str, ...]
    id_column: str | None
    extras: tuple[str, ...]
    #: Every column the schema knows (the id aside), by name: what each cell is parsed as.
    known: dict[str, Column] = field(default_factory=dict, compare=False, repr=False)


def parse_header(
    columns: Sequence[str],
    source: str,
    where: str = "line 1",
    prefer_id: str | None = None,
    *,
    schema: Schema,
) -> Header:
    """Check a header against ``schema``: required columns present, no duplicates; find the
    id column.

    ``prefer_id``: the id column when the file has it (a Hugging Face export keeps pandas'
    unnamed index first and the pair id in ``id``)."""
    columns = tuple(columns)
    duplicates = sorted({c for c in columns if columns.count(c) > 1})
    if duplicates:
        raise InputError(
            f"{source}: {where}: bad header (duplicate {_names(duplicates)}){_binary(columns)}"
        )
    id_column = prefer_id if prefer_id in columns else None
    id_column = id_column or next((c for c in columns if c in ID_COLUMNS), None)
    if id_column is not None and columns.index(id_column) != 0 and id_column not in ("id", "pair_id"):
        id_column = None  # an unnamed or pandas index column only counts in first position
    required = schema.required
    missing = [c for c in required if c not in columns]
    known = schema.known()
    extras = tuple(c for c in columns if c != id_column and c not in known)
    if missing:
        details = ["missing " + ", ".join(repr(c) for c in missing)]
        if extras:
            details.append("unexpected " + _names(extras))
        expected = ", ".join(repr(c) for c in ("", *required))
        optional = ", ".join(repr(c) for c in schema.optional)
        raise InputError(
            f"{source}: {where}: bad header ({'; '.join(details)}); expected {expected} "
            f"(the id column may be unnamed or 'id'; optional: {optional}; others are kept)"
            f"{_binary(columns)}"
        )
    return Header(columns, id_column, extras, known)


#: The most characters of a column name an error quotes, and the most names it lists: a
#: one-line binary file of 20 KB is one "column", and was echoed whole.
QUOTED_CHARS = 80
QUOTED_NAMES = 10


def _quote(name: str) -> str:
    """``name`` quoted in at most :data:`QUOTED_CHARS` characters, with an ellipsis and its
    length when cut."""
    quoted = repr(name)
    if len(quoted) <= QUOTED_CHARS:
        return quoted
    return f"{quoted[:QUOTED_CHARS]}… ({len(name):,} characters)"


def _names(names: Sequence[str]) -> str:
    """The first :data:`QUOTED_NAMES` of ``names``, each quoted short, and how many more."""
    shown = ", ".join(_quote(n) for n in names[:QUOTED_NAMES])
    more = len(names) - QUOTED_NAMES
    return f"{shown} and {more:,} more" if more > 0 else shown


def _binary(columns: Sequence[str]) -> str:
    """A note that the header line looks binary (control characters no header holds), so the
    error says what the file is rather than only what its first line lacks."""
    text = "".join(columns)
    if any(sentence_control_characters(name) for name in columns) or "\ufffd" in text:
        return "; the file looks binary, not a text table"
    return ""


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


def _labels(value: Any, column: str) -> tuple[tuple[str, ...], ...] | None:
    """A ``labels`` cell: a list of lists of bias-type labels (text or HF class indices)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return _parse_literal_list(value, column, True)
    if not isinstance(value, list | tuple):
        raise _RowError(f"{column} must be a list of lists, got {type(value).__name__}")
    out = []
    for labels in value:
        if not isinstance(labels, list | tuple):
            raise _RowError(f"{column} must be a list of lists: {value!r:.60}")
        row = []
        for label in labels:
            if isinstance(label, int) and not isinstance(label, bool):
                try:
                    row.append(LabelNormaliser("").bias_type(label, 0))
                except LabelError as exc:
                    raise _RowError(f"{column}: {exc}") from None
            elif isinstance(label, str):
                row.append(label)
            else:
                raise _RowError(f"{column} must hold labels, got {label!r:.60}")
        out.append(tuple(row))
    return tuple(out)


def _strings(value: Any, column: str) -> tuple[str, ...] | None:
    """A ``strings`` cell: a list of strings."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return _parse_literal_list(value, column, False)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _RowError(f"{column} must be a list of strings: {value!r:.60}")


def _pair_id(value: Any) -> int:
    if isinstance(value, bool):
        raise _RowError(f"pair id {value!r} is not an integer", "bad pair id")
    if isinstance(value, int):
        pair_id = value
    elif isinstance(value, float) and value.is_integer():
        pair_id = int(value)
    elif isinstance(value, str):
        try:
            pair_id = int(value)
        except ValueError:
            raise _RowError(f"pair id {value!r} is not an integer", "bad pair id") from None
        if str(pair_id) != value:
            raise _RowError(f"pair id {value!r} is not a non-negative integer in plain form", "bad pair id")
    else:
        raise _RowError(f"pair id {value!r} is not an integer", "bad pair id")
    if pair_id < 0:
        raise _RowError(f"pair id {value!r} is not a non-negative integer", "bad pair id")
    if pair_id > MAX_ID:
        raise _RowError(f"pair id {str(value)[:30]}... is larger than {MAX_ID:,} (2^63-1)", "bad pair id")
    return pair_id


def _cell(column: Column, value: Any, labels: LabelNormaliser, line: int) -> Any:
    """One cell parsed by the parser of its column's kind (``None``: empty or absent)."""
    if column.kind == "direction":
        return labels.direction(value, line)
    if column.kind == "label":
        return labels.bias_type(value, line)
    if column.kind == "labels":
        return _labels(value, column.name)
    if column.kind == "strings":
        return _strings(value, column.name)
    return _string(value, column.name, required=column.required)


def pair_from_row(
    row: dict[str, Any], header: Header, position: int, labels: LabelNormaliser, line: int
) -> Pair:
    """One pair from a row of named cells (``position``: the id when there is no id column).

    Every known column the row has is parsed by its kind's parser (the schema the header was
    checked against); the required ones are parsed whether present or not.
    """
    pair_id = _pair_id(row.get(header.id_column)) if header.id_column is not None else position
    values: dict[str, Any] = {}
    for name, column in header.known.items():
        if name not in row and not column.required:
            continue
        cell = row.get(name)
        if column.kind == "str" and column.required and isinstance(cell, str) and not cell.strip():
            labels.empty_sentence(name, pair_id, line)  # kept, with a warning: lint flags it
            values[column.field] = cell
            continue
        try:
            value = _cell(column, row.get(name), labels, line)
        except _RowError as exc:
            message = f"{exc} (pair {pair_id})" if column.required else str(exc)
            raise _RowError(message, exc.kind) from None
        except LabelError as exc:
            raise _RowError(exc.for_pair(pair_id), "bad label") from None
        if value is not None:
            values[column.field] = value
    if isinstance(values.get("item_id"), str):
        # an item with its own id (StereoSet) is numbered from it, never by a row or position
        derived = item_pair_id(values["item_id"])
        if derived != pair_id:
            if header.id_column is not None:
                labels.renumbered(line, pair_id, derived)
            pair_id = derived
    return Pair(
        pair_id=pair_id,
        extra=tuple((c, row.get(c)) for c in header.extras),
        **values,
    )


def pairs_from_rows(
    rows: Iterable[tuple[int, dict[str, Any]]],
    header: Header,
    source: str,
    labels: LabelNormaliser,
    unit: str = "line",
    known_bad: Sequence[BadRow] = (),
) -> tuple[list[Pair], tuple[BadRow, ...]]:
    """Pairs from numbered rows, and the bad rows left out under :func:`skipping_bad_rows`.

    Every row is tried: the bad ones (``known_bad``: those an earlier step of the reader found,
    e.g. a row with too few cells) are described together in one :class:`InputError` (how
    many, of which kind, on which lines), so a damaged file is described whole, not by its
    first bad row. Under :func:`skipping_bad_rows` they are returned instead of refused.
    """
    bad: dict[int, BadRow] = {b.line: b for b in known_bad}
    pairs: list[Pair] = []
    first: dict[int, int] = {}
    total = 0
    for position, (line, row) in enumerate(rows):
        total += 1
        if line in bad:
            continue
        try:
            pair = pair_from_row(row, header, position, labels, line)
        except _RowError as exc:
            kind = "empty row" if _is_empty(row, header) else exc.kind
            bad[line] = BadRow(line, kind, str(exc))
            continue
        if pair.pair_id in first:
            bad[line] = BadRow(
                line,
                "duplicate pair id",
                f"duplicate pair id {pair.pair_id} (first on {unit} {first[pair.pair_id]})",
            )
            continue
        first[pair.pair_id] = line
        pairs.append(pair)
    found = tuple(sorted(bad.values(), key=lambda b: b.line))
    if found and (not _skip_bad_rows.get() or not pairs):  # skipping every row leaves nothing
        raise InputError(describe_bad_rows(found, source, unit, total))
    return pairs, found


def _is_empty(row: dict[str, Any], header: Header) -> bool:
    """A row whose every cell but its index and id is empty (a blank line of a spreadsheet or
    a pandas export, which keeps its index)."""
    return all(v in (None, "") for c, v in row.items() if c not in ID_COLUMNS)


def _lines(rows: Sequence[BadRow], unit: str, shown: int = 5) -> str:
    numbers = ", ".join(str(b.line) for b in rows[:shown])
    more = f" and {len(rows) - shown} more" if len(rows) > shown else ""
    return f"{unit}{'s' if len(rows) > 1 else ''} {numbers}{more}"


def count_bad_rows(rows: Sequence[BadRow], unit: str = "line") -> str:
    """``70 empty rows (lines 3, 6, ...), 2 bad labels (line 40)``: the bad rows by kind."""
    kinds = Counter(b.kind for b in rows)
    parts = []
    for kind, n in kinds.most_common():
        of_kind = [b for b in rows if b.kind == kind]
        parts.append(f"{n} {kind}{'s' if n > 1 else ''} ({_lines(of_kind, unit)})")
    return ", ".join(parts)


def describe_bad_rows(rows: Sequence[BadRow], source: str, unit: str, total: int) -> str:
    """One message for every bad row of a file: the first in full (where and what), then how
    many there are of each kind, and how to go on without them."""
    first = rows[0]
    message = f"{source}: {unit} {first.line}: {first.problem}"
    if len(rows) > 1:
        message += f"; {len(rows)} of {total} rows cannot be read: {count_bad_rows(rows, unit)}"
    good = total - len(rows)
    if good:
        message += (
            f"; --skip-bad-rows reads the other {good} and records the "
            f"{'rows' if len(rows) > 1 else 'row'} left out"
        )
    return message


def skipped_warning(rows: Sequence[BadRow], source: str, unit: str = "line") -> str:
    """The reader's warning when ``--skip-bad-rows`` left rows out."""
    return (
        f"{source}: --skip-bad-rows left out {len(rows)} row{'s' if len(rows) > 1 else ''} "
        f"that cannot be read: {count_bad_rows(rows, unit)}"
    )


def output_columns(
    pairs: Sequence[Pair],
    columns: Sequence[str],
    id_column: str | None,
    extras: Sequence[str],
    schema: Schema,
) -> tuple[tuple[str, ...], str | None]:
    """The columns to write: the input's, then any known field or extra the pairs carry that
    the input did not have (a written file never loses what the pairs hold)."""
    out = list(columns)
    for column, spec in schema.known().items():
        if column in out:
            continue
        if spec.required or any(getattr(p, spec.field) not in (None, "") for p in pairs):
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
    pair: Pair,
    columns: Sequence[str],
    id_column: str | None,
    *,
    text: bool,
    layout: str,
    lists: str,
    known: dict[str, Column],
) -> list[Any]:
    """The cells of ``pair`` for ``columns``.

    ``text``: every cell a string (CSV); ``layout`` ``hf`` writes class indices; ``lists``
    ``literal`` writes list cells as Python literals, ``native`` as lists, ``numpy`` in numpy's
    notation (a pandas export of a Hugging Face dataset). ``known``: the schema's columns by
    name (:meth:`curate.columns.Schema.known`).
    """
    extra = dict(pair.extra)
    cells: list[Any] = []
    for column in columns:
        if column == id_column:
            value: Any = str(pair.pair_id) if text else pair.pair_id
        elif column in known:
            kind = known[column].kind
            value = getattr(pair, known[column].field)
            if layout == "hf" and kind == "direction":
                value = HF_DIRECTIONS.index(value)
            elif layout == "hf" and kind == "label":
                try:
                    value = hf_bias_index(value)
                except ValueError as exc:
                    raise InputError(f"pair {pair.pair_id}: {exc}") from None
            elif kind in ("labels", "strings") and value is not None:
                if layout == "hf" and kind == "labels":
                    try:
                        value = [[hf_bias_index(x) for x in labels] for labels in value]
                    except ValueError as exc:
                        raise InputError(f"pair {pair.pair_id}: {column}: {exc}") from None
                elif kind == "labels":
                    value = [list(labels) for labels in value]
                else:
                    value = list(value)
                if lists == "numpy":
                    value = format_annotations(value) if kind == "labels" else format_strings(value)
                elif text or lists == "literal":
                    value = repr(value)
            if text and value is None:
                value = ""
        else:
            value = extra.get(column)
            if text:
                value = "" if value is None else value if isinstance(value, str) else json.dumps(value)
        cells.append(value)
    return cells
