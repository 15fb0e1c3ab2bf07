"""The finding record: one defect a lint rule found in one pair.

JSON lines: ``{"pair_id", "code", "rule", "message", "spans"?, "fix"?}``. ``spans`` locate the
defect as ``{"field": "sent_more"|"sent_less", "start", "end"}`` character offsets; ``fix`` is a
safe automatic fix as the new text of the fields it changes, e.g. ``{"sent_less": "..."}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.jsonl import read_jsonl, write_jsonl

SENTENCE_FIELDS = ("sent_more", "sent_less")


@dataclass(frozen=True, slots=True)
class TextSpan:
    """Characters ``[start, end)`` of one sentence field."""

    field: str
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule's verdict on one pair."""

    pair_id: int
    code: str
    rule: str
    message: str
    spans: tuple[TextSpan, ...] = ()
    fix: dict[str, str] | None = field(default=None, hash=False, compare=True)

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "pair_id": self.pair_id,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }
        if self.spans:
            record["spans"] = [s.to_dict() for s in self.spans]
        if self.fix is not None:
            record["fix"] = dict(self.fix)
        return record

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Finding:
        missing = [k for k in ("pair_id", "code", "rule", "message") if k not in record]
        if missing:
            raise ValueError(f"finding lacks {', '.join(missing)}")
        if not isinstance(record["pair_id"], int) or isinstance(record["pair_id"], bool):
            raise ValueError(f"pair_id must be an integer, got {record['pair_id']!r}")
        spans = tuple(
            TextSpan(str(s["field"]), int(s["start"]), int(s["end"]))
            for s in record.get("spans", ())
        )
        fix = record.get("fix")
        if fix is not None and (
            not isinstance(fix, dict)
            or not set(fix) <= set(SENTENCE_FIELDS)
            or not all(isinstance(v, str) for v in fix.values())
        ):
            raise ValueError(f"fix must map sent_more/sent_less to new text, got {fix!r}")
        return cls(
            pair_id=record["pair_id"],
            code=str(record["code"]),
            rule=str(record["rule"]),
            message=str(record["message"]),
            spans=spans,
            fix=fix,
        )


def write_findings(path: Path, findings: Iterable[Finding]) -> None:
    """Write findings as JSON lines, atomically."""
    write_jsonl(path, (f.to_dict() for f in findings))


def read_findings(path: Path) -> list[Finding]:
    """Read a findings JSON-lines file (as written by ``curate lint --format jsonl``)."""
    return read_jsonl(path, Finding.from_dict)
