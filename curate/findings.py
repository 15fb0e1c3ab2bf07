"""The finding record: one defect a lint rule found in one pair.

JSON lines: ``{"pair_id", "item_id"?, "code", "rule", "message", "spans"?, "fix"?}``.
``item_id`` is the item's own id where it has one (StereoSet: ``pair_id`` is derived from it,
see :func:`curate.pairs.item_pair_id`); a finding naming both must name a matching pair. ``spans`` locate the
defect as ``{"field": "sent_more"|"sent_less", "start", "end"}`` character offsets; ``fix`` is a
safe automatic fix as the new text of the fields it changes, e.g. ``{"sent_less": "..."}``.

Reading validates every record against :class:`FindingRecord` (see :mod:`curate.records`):
strict types, a rule code like ``S001``, offsets within bounds, fix texts that are sentences.
Unknown keys are ignored, so the findings of a newer ``curate lint`` still read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator

from curate.jsonl import read_jsonl, write_jsonl
from curate.pairs import check_item_id
from curate.records import (
    MAX_SENTENCE_CHARS,
    ItemId,
    Name,
    PairId,
    Record,
    Sentence,
    Text,
    validate,
)

SENTENCE_FIELDS = ("sent_more", "sent_less")

SentenceField = Literal["sent_more", "sent_less"]
Offset = Annotated[int, Field(ge=0, le=MAX_SENTENCE_CHARS)]
#: Rule codes: a family letter and digits (``S001``); never markup or free text.
Code = Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9]{0,15}$")]


class SpanRecord(Record):
    """The JSON schema of one span."""

    field: SentenceField
    start: Offset
    end: Offset

    @model_validator(mode="after")
    def _ordered(self) -> SpanRecord:
        if self.start > self.end:
            raise ValueError(f"start {self.start} is after end {self.end}")
        return self


class FindingRecord(Record):
    """The JSON schema of one finding line."""

    model_config = ConfigDict(extra="ignore")

    pair_id: PairId
    item_id: ItemId | None = None
    code: Code
    rule: Name
    message: Text
    spans: list[SpanRecord] = Field(default_factory=list)
    fix: dict[SentenceField, Sentence] | None = None

    @model_validator(mode="after")
    def _same_item(self) -> FindingRecord:
        check_item_id(self.pair_id, self.item_id)
        return self


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
    #: The item's own id, for a pair that has one (StereoSet); None for other pairs.
    item_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"pair_id": self.pair_id}
        if self.item_id is not None:
            record["item_id"] = self.item_id
        record |= {
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
        """A finding from its JSON object; a ValueError naming the field if it is malformed."""
        valid: FindingRecord = validate(FindingRecord, record, "finding")
        return cls(
            pair_id=valid.pair_id,
            code=valid.code,
            rule=valid.rule,
            message=valid.message,
            spans=tuple(TextSpan(s.field, s.start, s.end) for s in valid.spans),
            fix=dict(valid.fix) if valid.fix is not None else None,
            item_id=valid.item_id,
        )


def write_findings(path: Path, findings: Iterable[Finding]) -> None:
    """Write findings as JSON lines, atomically."""
    write_jsonl(path, (f.to_dict() for f in findings))


def read_findings(path: Path) -> list[Finding]:
    """Read a findings JSON-lines file (as written by ``curate lint --format jsonl``)."""
    return read_jsonl(path, Finding.from_dict)
