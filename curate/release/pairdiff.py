"""Pair-level diff between two versions of a dataset: added, dropped and edited pairs.

Pairs are matched by id (ids never change across versions). An edited pair lists each changed
field; sentences get a word-level diff. The word diff splits text into words, punctuation and
whitespace runs and keeps every character, unlike :mod:`curate.align` (whose spaCy tokens drop
whitespace): a typographic fix may change nothing but a doubled space, and the diff must show it.

Text output follows ``git diff --word-diff=plain``: ``[-removed-]{+inserted+}``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from curate.pairs import Pair, match_by_id
from curate.release.versions import pair_cells

_PIECES = re.compile(r"\s+|[\w'’]+|[^\w\s]", re.UNICODE)
#: Compared fields, by upstream column name (the id column is the match key).
COLUMNS: tuple[str, ...] = (
    "sent_more",
    "sent_less",
    "stereo_antistereo",
    "bias_type",
    "annotations",
    "anon_writer",
    "anon_annotators",
)
_SENTENCES = {"sent_more", "sent_less"}


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
        return word_diff(self.old, self.new) if self.column in _SENTENCES else ()

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"field": self.column, "old": self.old, "new": self.new}
        if self.column in _SENTENCES:
            record["diff"] = [{"op": s.op, "text": s.text} for s in self.segments]
        return record


@dataclass(frozen=True)
class PairEdit:
    """A pair present in both versions whose fields differ."""

    pair_id: int
    fields: tuple[FieldChange, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"pair_id": self.pair_id, "fields": [f.to_dict() for f in self.fields]}


def _cells(pair: Pair) -> dict[str, str]:
    return dict(zip(COLUMNS, (str(c) for c in pair_cells(pair)[1:]), strict=True))


@dataclass(frozen=True)
class PairDiff:
    """The difference between versions ``a`` and ``b``."""

    a: str
    b: str
    a_pairs: int
    b_pairs: int
    added: tuple[Pair, ...]
    dropped: tuple[Pair, ...]
    edited: tuple[PairEdit, ...]

    @property
    def identical(self) -> bool:
        return not (self.added or self.dropped or self.edited)

    def summary(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "pairs": {"a": self.a_pairs, "b": self.b_pairs},
            "added": len(self.added),
            "dropped": len(self.dropped),
            "edited": len(self.edited),
            "edited_fields": self.edited_fields(),
        }

    def edited_fields(self) -> dict[str, int]:
        """How many edited pairs changed each field."""
        counts = {c: 0 for c in COLUMNS}
        for e in self.edited:
            for f in e.fields:
                counts[f.column] += 1
        return {c: n for c, n in counts.items() if n}

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary(),
            "added": [{"pair_id": p.pair_id, **_cells(p)} for p in self.added],
            "dropped": [{"pair_id": p.pair_id, **_cells(p)} for p in self.dropped],
            "edited": [e.to_dict() for e in self.edited],
        }


def diff_pairs(
    a: Sequence[Pair], b: Sequence[Pair], a_label: str = "a", b_label: str = "b"
) -> PairDiff:
    """Match pairs by id and report what ``b`` added, dropped and edited relative to ``a``."""
    match = match_by_id(a, b)
    edited: list[PairEdit] = []
    for old, new in match.shared:
        before, after = _cells(old), _cells(new)
        fields = tuple(
            FieldChange(c, before[c], after[c]) for c in COLUMNS if before[c] != after[c]
        )
        if fields:
            edited.append(PairEdit(old.pair_id, fields))
    return PairDiff(
        a=a_label,
        b=b_label,
        a_pairs=len(match.shared) + len(match.dropped),
        b_pairs=len(match.shared) + len(match.added),
        added=match.added,
        dropped=match.dropped,
        edited=tuple(edited),
    )


def format_summary(diff: PairDiff) -> str:
    """One line: pair counts and added/dropped/edited."""
    return (
        f"{diff.a} -> {diff.b}: {diff.a_pairs} -> {diff.b_pairs} pairs; "
        f"{len(diff.added)} added, {len(diff.dropped)} dropped, {len(diff.edited)} edited"
    )


def format_text(diff: PairDiff) -> str:
    """A readable diff: summary line, then each dropped, added and edited pair."""
    lines = [f"--- {diff.a}", f"+++ {diff.b}", format_summary(diff)]
    for p in diff.dropped:
        lines += ["", f"dropped pair {p.pair_id} ({p.bias_type}, {p.direction})"]
        lines += [f"  - sent_more: {p.sent_more}", f"  - sent_less: {p.sent_less}"]
    for p in diff.added:
        lines += ["", f"added pair {p.pair_id} ({p.bias_type}, {p.direction})"]
        lines += [f"  + sent_more: {p.sent_more}", f"  + sent_less: {p.sent_less}"]
    for e in diff.edited:
        lines += ["", f"edited pair {e.pair_id}"]
        for f in e.fields:
            if f.column in _SENTENCES:
                lines.append(f"  {f.column}: {render_word_diff(f.segments)}")
            else:
                lines.append(f"  {f.column}: [-{f.old}-]{{+{f.new}+}}")
    return "\n".join(lines) + "\n"
