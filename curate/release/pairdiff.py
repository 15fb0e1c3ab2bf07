"""Pair-level diff between two versions of a dataset: added, dropped and edited pairs.

Pairs are matched by id (ids never change across versions; a StereoSet item's pair id derives
from its own id, which every record of it also names as ``item_id``). An edited pair lists each changed
field; sentences get a word-level diff. The word diff splits text into words, punctuation and
whitespace runs and keeps every character, unlike :mod:`curate.align` (whose spaCy tokens drop
whitespace): a typographic fix may change nothing but a doubled space, and the diff must show it.

Only the fields both versions have a column for are compared (see
:func:`curate.formats.shared_fields`): a five-column copy of the upstream file has no
``annotations``, and that is unknown, not an edit.

Text output follows ``git diff --word-diff=plain``: ``[-removed-]{+inserted+}``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from curate.benchmarks.crows_pairs.upstream import COLUMN_OF, cell
from curate.pairs import PAIR_FIELDS, TEXT_FIELDS, Pair, match_by_id, pair_label

_PIECES = re.compile(r"\s+|[\w'’]+|[^\w\s]", re.UNICODE)
#: Compared columns, in upstream order: every column but the id (the id is the match key).
COMPARED_COLUMNS: tuple[str, ...] = tuple(COLUMN_OF[field] for field in PAIR_FIELDS)
#: The sentence columns, which get a word diff.
_SENTENCE_COLUMNS = frozenset(COLUMN_OF[field] for field in TEXT_FIELDS)


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text that both versions share (``equal``) or only one has."""

    op: Literal["equal", "delete", "insert"]
    text: str


def word_diff(old: str, new: str) -> tuple[Segment, ...]:
    """Segments that turn ``old`` into ``new``; joining equal+delete gives old, equal+insert new."""
    a, b = _PIECES.findall(old), _PIECES.findall(new)
    segments: list[Segment] = []

    def add(op: Literal["equal", "delete", "insert"], pieces: list[str]) -> None:
        if not pieces:
            return
        text = "".join(pieces)
        if segments and segments[-1].op == op:
            segments[-1] = Segment(op, segments[-1].text + text)
        else:
            segments.append(Segment(op, text))

    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            add("equal", a[i1:i2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return tuple(segments)


def render_word_diff(segments: Sequence[Segment]) -> str:
    """``[-old-]{+new+}`` markup of a word diff."""
    parts = []
    for s in segments:
        if s.op == "equal":
            parts.append(s.text)
        elif s.op == "delete":
            parts.append(f"[-{s.text}-]")
        else:
            parts.append(f"{{+{s.text}+}}")
    return "".join(parts)


@dataclass(frozen=True)
class FieldChange:
    """One field of one pair that differs; sentences carry a word diff."""

    column: str
    old: str
    new: str

    @property
    def segments(self) -> tuple[Segment, ...]:
        return word_diff(self.old, self.new) if self.column in _SENTENCE_COLUMNS else ()

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"field": self.column, "old": self.old, "new": self.new}
        if self.column in _SENTENCE_COLUMNS:
            record["diff"] = [{"op": s.op, "text": s.text} for s in self.segments]
        return record


@dataclass(frozen=True)
class PairEdit:
    """A pair present in both versions whose fields differ."""

    pair_id: int
    fields: tuple[FieldChange, ...]
    #: The item's own id (StereoSet); None for pairs without one.
    item_id: str | None = None

    @property
    def label(self) -> str:
        return pair_label(self.pair_id, self.item_id)

    def to_dict(self) -> dict[str, Any]:
        return {**_ids(self.pair_id, self.item_id), "fields": [f.to_dict() for f in self.fields]}


def _ids(pair_id: int, item_id: str | None) -> dict[str, Any]:
    """The id keys of a record: ``pair_id``, and ``item_id`` for an item with its own id."""
    return {"pair_id": pair_id, **({"item_id": item_id} if item_id is not None else {})}


def _cells(pair: Pair, fields: Collection[str] = PAIR_FIELDS) -> dict[str, str]:
    """The cells of ``pair`` by column, as the upstream CSV writes them."""
    return {COLUMN_OF[field]: cell(pair, field) for field in PAIR_FIELDS if field in fields}


@dataclass(frozen=True)
class PairDiff:
    """What the ``after`` version added, dropped and edited relative to the ``before`` version.

    The JSON form (:meth:`summary`, :meth:`to_dict`) keeps the keys ``a`` and ``b`` of the
    ``curate diff A B`` arguments, which published manifests record.
    """

    #: How reports name the two versions, e.g. ``version 1.0.0`` or a file path.
    before_label: str
    after_label: str
    #: Pairs in each version.
    before_pairs: int
    after_pairs: int
    added: tuple[Pair, ...]
    dropped: tuple[Pair, ...]
    edited: tuple[PairEdit, ...]
    #: Columns not compared because one version has no such column (e.g. ``annotations`` of a
    #: five-column revision); empty when both have every column.
    not_compared: tuple[str, ...] = ()

    @property
    def identical(self) -> bool:
        return not (self.added or self.dropped or self.edited)

    def summary(self) -> dict[str, Any]:
        return {
            "a": self.before_label,
            "b": self.after_label,
            "pairs": {"a": self.before_pairs, "b": self.after_pairs},
            "added": len(self.added),
            "dropped": len(self.dropped),
            "edited": len(self.edited),
            "edited_fields": self.edited_fields(),
            **({"not_compared": list(self.not_compared)} if self.not_compared else {}),
        }

    def edited_fields(self) -> dict[str, int]:
        """How many edited pairs changed each field."""
        counts = {c: 0 for c in COMPARED_COLUMNS}
        for e in self.edited:
            for f in e.fields:
                counts[f.column] += 1
        return {c: n for c, n in counts.items() if n}

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary(),
            "added": [{**_ids(p.pair_id, p.item_id), **_cells(p)} for p in self.added],
            "dropped": [{**_ids(p.pair_id, p.item_id), **_cells(p)} for p in self.dropped],
            "edited": [e.to_dict() for e in self.edited],
        }


def diff_pairs(
    before: Sequence[Pair],
    after: Sequence[Pair],
    before_label: str = "a",
    after_label: str = "b",
    fields: Collection[str] = PAIR_FIELDS,
) -> PairDiff:
    """Match pairs by id and report what ``after`` added, dropped and edited against ``before``,
    comparing only ``fields`` (default: all; :func:`curate.formats.shared_fields` of two
    datasets gives the ones both have)."""
    match = match_by_id(before, after)
    columns = tuple(COLUMN_OF[f] for f in PAIR_FIELDS if f in fields)
    edited: list[PairEdit] = []
    for old, new in match.shared:
        old_cells, new_cells = _cells(old, fields), _cells(new, fields)
        changes = tuple(
            FieldChange(c, old_cells[c], new_cells[c])
            for c in columns
            if old_cells[c] != new_cells[c]
        )
        if changes:
            edited.append(PairEdit(old.pair_id, changes, old.item_id or new.item_id))
    return PairDiff(
        before_label=before_label,
        after_label=after_label,
        before_pairs=len(match.shared) + len(match.dropped),
        after_pairs=len(match.shared) + len(match.added),
        added=match.added,
        dropped=match.dropped,
        edited=tuple(edited),
        not_compared=tuple(c for c in COMPARED_COLUMNS if c not in columns),
    )


def format_summary(diff: PairDiff) -> str:
    """One line: pair counts and added/dropped/edited."""
    return (
        f"{diff.before_label} -> {diff.after_label}: "
        f"{diff.before_pairs} -> {diff.after_pairs} pairs; "
        f"{len(diff.added)} added, {len(diff.dropped)} dropped, {len(diff.edited)} edited"
    )


def not_compared_note(diff: PairDiff) -> str:
    """Which columns were left out because one version lacks them."""
    return f"not compared (a version has no such column): {', '.join(diff.not_compared)}"


def format_text(diff: PairDiff) -> str:
    """A readable diff: summary line, then each dropped, added and edited pair."""
    lines = [f"--- {diff.before_label}", f"+++ {diff.after_label}", format_summary(diff)]
    if diff.not_compared:
        lines.append(not_compared_note(diff))
    for p in diff.dropped:
        lines += ["", f"dropped {pair_label(p.pair_id, p.item_id)} ({p.bias_type}, {p.direction})"]
        lines += [f"  - sent_more: {p.sent_more}", f"  - sent_less: {p.sent_less}"]
    for p in diff.added:
        lines += ["", f"added {pair_label(p.pair_id, p.item_id)} ({p.bias_type}, {p.direction})"]
        lines += [f"  + sent_more: {p.sent_more}", f"  + sent_less: {p.sent_less}"]
    for e in diff.edited:
        lines += ["", f"edited {e.label}"]
        for f in e.fields:
            if f.column in _SENTENCE_COLUMNS:
                lines.append(f"  {f.column}: {render_word_diff(f.segments)}")
            else:
                lines.append(f"  {f.column}: [-{f.old}-]{{+{f.new}+}}")
    return "\n".join(lines) + "\n"
