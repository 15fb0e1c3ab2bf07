"""The upstream CrowS-Pairs CSV as text: parsed by the shared delimited reader, written back
byte for byte.

Reading the upstream ``crows_pairs_anonymized.csv`` and writing it back reproduces the file byte
for byte: minimal quoting, LF line endings and Python-literal lists, as upstream. The cells are
those of the CrowS-Pairs column table (:mod:`curate.benchmarks.crows_pairs.columns`).
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Iterable
from pathlib import Path

from curate.fileio import atomic_writer
from curate.pairs import COLUMNS, FIELD_COLUMNS, Pair

_log = logging.getLogger("curate.formats")


def _format_annotations(value: tuple[tuple[str, ...], ...] | None) -> str:
    return "" if value is None else repr([list(labels) for labels in value])


def _format_annotators(value: tuple[str, ...] | None) -> str:
    return "" if value is None else repr(list(value))


def log_warnings(warnings: Iterable[str]) -> None:
    """Log a reader's warnings on the ``curate.formats`` logger (see :func:`curate.formats.read_pairs`)."""
    for warning in warnings:
        _log.warning("warning: %s", warning)


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
    return tuple(cell(pair, field) for field, _ in FIELD_COLUMNS)


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
