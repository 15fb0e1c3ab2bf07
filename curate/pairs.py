"""The sentence-pair record, THE pair schema, and the upstream CrowS-Pairs CSV text format.

Reading the upstream ``crows_pairs_anonymized.csv`` and writing it back reproduces the file byte
for byte: the schema uses minimal quoting, LF line endings and Python-literal lists, and the
writer emits exactly that. Every way a file can break the schema is reported as one
:class:`~curate.errors.InputError` naming the file, the line and what is wrong.

The other shapes in circulation (five-column CSV, TSV, JSON lines, Parquet, the Hugging Face
layout, StereoSet JSON) are read and written by :mod:`curate.formats`; :func:`read_pairs`
detects the shape from the content, so every command that reads pairs accepts all of them.
"""

from __future__ import annotations

import ast
import csv
import functools
import io
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from curate.fileio import atomic_writer
from curate.records import control_characters

#: THE pair schema: the upstream CSV columns, in order, and the :class:`Pair` field each holds.
#: Every other module derives its columns, field lists and rows from this table (see
#: :func:`pair_row`), so a new column or input shape is added here once.
FIELD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("pair_id", ""),  # the upstream file leaves the id column unnamed
    ("sent_more", "sent_more"),
    ("sent_less", "sent_less"),
    ("direction", "stereo_antistereo"),
    ("bias_type", "bias_type"),
    ("annotations", "annotations"),
    ("writer", "anon_writer"),
    ("annotators", "anon_annotators"),
)
#: Optional columns of StereoSet-derived pairs (intrasentence items): the :class:`Pair` field and
#: the column name used when such pairs are written to a column-based shape (CSV, JSONL, Parquet).
STEREOSET_FIELD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("item_id", "stereoset_id"),
    ("target", "target"),
    ("context", "context"),
    ("unrelated", "unrelated"),
)
#: Header of the upstream file; the first column (the pair id) has no name.
COLUMNS: tuple[str, ...] = tuple(column for _, column in FIELD_COLUMNS)
#: Column of each :class:`Pair` field, and field of each column.
COLUMN_OF: dict[str, str] = dict(FIELD_COLUMNS)
FIELD_OF: dict[str, str] = {column: field for field, column in FIELD_COLUMNS}
#: The data fields of a pair (everything but its id), in column order.
PAIR_FIELDS: tuple[str, ...] = tuple(field for field, _ in FIELD_COLUMNS[1:])
#: The two sentences: changing one is an edit, changing another field a relabelling.
TEXT_FIELDS: tuple[str, ...] = ("sent_more", "sent_less")
#: The fields a curation decision may set (the validators' metadata is never edited).
EDITABLE_FIELDS: tuple[str, ...] = ("sent_more", "sent_less", "direction", "bias_type")
DIRECTIONS: tuple[str, ...] = ("stereo", "antistereo")
#: The four StereoSet domains (its ``bias_type`` values).
STEREOSET_DOMAINS: tuple[str, ...] = ("gender", "profession", "race", "religion")
#: The nine CrowS-Pairs bias types, in the order of Table 2 of Nangia et al. (2020).
BIAS_TYPES: tuple[str, ...] = (
    "race-color",
    "gender",
    "sexual-orientation",
    "religion",
    "age",
    "nationality",
    "disability",
    "physical-appearance",
    "socioeconomic",
)


@dataclass(frozen=True, slots=True)
class Pair:
    """One minimal pair.

    ``sent_more`` is the more stereotyping sentence. ``direction`` says whether it demonstrates a
    stereotype about a historically disadvantaged group (``stereo``) or violates one
    (``antistereo``). ``annotations`` holds each validator's bias-type labels (``None`` when the
    cell is empty), ``annotators`` their anonymised ids.
    """

    pair_id: int
    sent_more: str
    sent_less: str
    direction: str
    bias_type: str
    annotations: tuple[tuple[str, ...], ...] | None = None
    writer: str = ""
    annotators: tuple[str, ...] | None = None
    item_id: str | None = None
    target: str | None = None
    context: str | None = None
    unrelated: str | None = None
    extra: tuple[tuple[str, Any], ...] = field(default=(), hash=False)

    def with_changes(self, **changes: object) -> Pair:
        """A copy of this pair with some fields replaced."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def disadvantaged_sentence(self) -> str:
        """The sentence about the historically disadvantaged group (``sent1`` of metric.py).

        In a stereo pair ``sent_more`` demonstrates a stereotype about that group; in an
        antistereo pair ``sent_less`` violates one (CrowS-Pairs README). Either way
        ``sent_more`` is the more stereotyping sentence.
        """
        return self.sent_more if self.direction == "stereo" else self.sent_less

    @property
    def advantaged_sentence(self) -> str:
        """The sentence about the contrasting, advantaged group (``sent2`` of metric.py)."""
        return self.sent_less if self.direction == "stereo" else self.sent_more


@dataclass(frozen=True)
class PairMatch:
    """Two versions of a dataset matched by pair id (ids never change across versions)."""

    #: (before, after) for every id in both versions, in id order.
    shared: tuple[tuple[Pair, Pair], ...]
    #: Pairs only in the first version, and only in the second, in id order.
    dropped: tuple[Pair, ...]
    added: tuple[Pair, ...]


def match_by_id(before: Sequence[Pair], after: Sequence[Pair]) -> PairMatch:
    """Match the pairs of two versions by id."""
    old = {p.pair_id: p for p in before}
    new = {p.pair_id: p for p in after}
    return PairMatch(
        shared=tuple((old[i], new[i]) for i in sorted(old.keys() & new.keys())),
        dropped=tuple(old[i] for i in sorted(old.keys() - new.keys())),
        added=tuple(new[i] for i in sorted(new.keys() - old.keys())),
    )


class _RowError(ValueError):
    """A problem with one cell; the reader adds file and line."""


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


def _format_annotations(value: tuple[tuple[str, ...], ...] | None) -> str:
    return "" if value is None else repr([list(labels) for labels in value])


def _format_annotators(value: tuple[str, ...] | None) -> str:
    return "" if value is None else repr(list(value))


def sentence_control_characters(text: str) -> list[str]:
    """The control characters no sentence may hold, as ``\\xNN`` (empty when it is clean).

    A NUL or a terminal escape in a sentence is a damaged file, not data: it would reach
    tokenizers, terminals and HTML. Tab, LF and CR are kept (upstream pair 1293 has a newline
    inside a sentence), and so is NEL (U+0085), which Unicode counts as a line break.
    """
    return [c for c in control_characters(text, allow_whitespace=True) if c != "\\x85"]


def parse_pairs(text: str, source: str = "<text>") -> list[Pair]:
    """Parse CrowS-Pairs CSV text into pairs; ``source`` names the input in error messages.

    The one CSV parser is :func:`curate.formats.delimited.parse_delimited` (the upstream
    schema and every column subset of it); this keeps the text-level entry point.
    """
    from curate.formats.delimited import parse_delimited  # formats builds on this module

    dataset = parse_delimited(text, source)
    log_warnings(dataset.warnings)
    return list(dataset.pairs)


_log = logging.getLogger("curate.formats")


def read_pairs(path: Path | str, input_format: str | None = None) -> list[Pair]:
    """Read the pairs of a dataset file in any shape :mod:`curate.formats` knows (detected
    unless ``input_format`` forces one).

    Label normalisations and unknown labels are logged as warnings on the ``curate.formats``
    logger (printed on stderr when nothing else handles them): they are never silent.
    """
    from curate.formats import read_dataset  # the formats package builds on this module

    dataset = read_dataset(Path(path), input_format)
    log_warnings(dataset.warnings)
    return list(dataset.pairs)


def log_warnings(warnings: Iterable[str]) -> None:
    """Log a reader's warnings on the ``curate.formats`` logger (see :func:`read_pairs`)."""
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
