"""The upstream CrowS-Pairs CSV as text: bare pairs written in its eight columns, and the text
of one upstream cell.

The shared delimited writer (:func:`curate.formats.delimited.format_delimited`) writes the same
bytes for a dataset read from the upstream file; this is the entry point for pairs with no file
behind them (tests, revisions, fixtures). Minimal quoting, LF line endings and Python-literal
lists, as upstream. The cells are those of the CrowS-Pairs column table
(:mod:`curate.benchmarks.crows_pairs.columns`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

from curate.benchmarks.crows_pairs.columns import COLUMNS as TABLE
from curate.fileio import atomic_writer
from curate.pairs import Pair

#: The upstream header (its first column, the pair id, has no name).
COLUMNS: tuple[str, ...] = tuple(c.name for c in TABLE)
#: The upstream column of each :class:`Pair` field (change records and pair diffs name these).
COLUMN_OF: dict[str, str] = {c.field: c.name for c in TABLE}


def _format_annotations(value: tuple[tuple[str, ...], ...] | None) -> str:
    return "" if value is None else repr([list(labels) for labels in value])


def _format_annotators(value: tuple[str, ...] | None) -> str:
    return "" if value is None else repr(list(value))


_CELL_FORMATS = {
    "pair_id": str,
    "annotations": _format_annotations,
    "annotators": _format_annotators,
}


def cell(pair: Pair, field: str) -> str:
    """The upstream CSV cell of one field of ``pair`` (lists as Python literals, '' for None)."""
    value = getattr(pair, field)
    return _CELL_FORMATS.get(field, str)(value)


def pair_row(pair: Pair) -> tuple[str, ...]:
    """The row of ``pair`` in the upstream schema, one string per column of :data:`COLUMNS`."""
    return tuple(cell(pair, column.field) for column in TABLE)


def format_pairs(pairs: Iterable[Pair]) -> str:
    """Serialise pairs in the upstream schema (minimal quoting, LF line endings)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(pair_row(p) for p in pairs)
    return out.getvalue()


def write_pairs(pairs: Iterable[Pair], path: Path | str) -> None:
    """Write pairs to ``path`` atomically in the upstream schema."""
    text = format_pairs(pairs)
    with atomic_writer(Path(path)) as handle:
        handle.write(text)
