"""The decision record: what the curators decided for one pair, and on what evidence.

JSON lines: ``{"pair_id", "item_id"?, "action", "sent_more"?, "sent_less"?, "bias_type"?, "direction"?,
"votes", "n_annotators", "round", "reason"?}``. ``action`` is ``keep``, ``fix`` (new sentences),
``drop``, ``relabel`` (new bias_type and/or direction) or ``undecided``. Decisions come from an
annotation round's tally or are written by hand (then ``reason`` says why).

Reading validates every record against :class:`DecisionRecord` (see :mod:`curate.records`):
strict types, no unknown fields, new sentences that are one line of text without control
characters, votes at most two levels deep.

An item with its own id (StereoSet) may be named by ``item_id`` alone: its pair id derives from
it (:func:`curate.pairs.item_pair_id`); a record naming both must name a matching pair (a
decision keyed by an item's old position is refused, never applied to another item).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import model_validator

from curate.jsonl import read_jsonl, write_jsonl
from curate.pairs import BIAS_TYPES, DIRECTIONS, check_item_id, item_pair_id, pair_label
from curate.records import (
    Count,
    ItemId,
    Label,
    Name,
    PairId,
    Record,
    Scalar,
    Sentence,
    Text,
    validate,
)

ACTIONS = ("keep", "fix", "drop", "relabel", "undecided")
_OPTIONAL = ("sent_more", "sent_less", "bias_type", "direction", "reason")


class DecisionRecord(Record):
    """The JSON schema of one decision line (the meaning is checked by :class:`Decision`)."""

    pair_id: PairId | None = None
    item_id: ItemId | None = None
    action: Literal["keep", "fix", "drop", "relabel", "undecided"]
    votes: dict[Name, Scalar | dict[Name, Scalar]] | None = None
    n_annotators: Count = 0
    round: Label = ""
    sent_more: Sentence | None = None
    sent_less: Sentence | None = None
    bias_type: Name | None = None
    direction: Name | None = None
    reason: Text | None = None

    @model_validator(mode="after")
    def _names_a_pair(self) -> DecisionRecord:
        if self.pair_id is None and self.item_id is None:
            raise ValueError("decision lacks pair_id (or item_id)")
        if self.pair_id is not None:
            check_item_id(self.pair_id, self.item_id)
        return self


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome for one pair."""

    pair_id: int
    action: str
    votes: dict[str, Any] = field(default_factory=dict)
    n_annotators: int = 0
    round: str = ""
    sent_more: str | None = None
    sent_less: str | None = None
    bias_type: str | None = None
    direction: str | None = None
    reason: str | None = None
    #: The item's own id, for a pair that has one (StereoSet).
    item_id: str | None = None

    @property
    def label(self) -> str:
        """How messages name the decision's pair (``pair 3``, ``item <id> (pair N)``)."""
        return pair_label(self.pair_id, self.item_id)

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"action {self.action!r} is not one of {', '.join(ACTIONS)}")
        if self.action == "fix" and self.sent_more is None and self.sent_less is None:
            raise ValueError(f"pair {self.pair_id}: a fix decision needs sent_more or sent_less")
        if self.action == "relabel" and self.bias_type is None and self.direction is None:
            raise ValueError(
                f"pair {self.pair_id}: a relabel decision needs bias_type or direction"
            )
        if self.bias_type is not None and self.bias_type not in BIAS_TYPES:
            raise ValueError(f"pair {self.pair_id}: unknown bias_type {self.bias_type!r}")
        if self.direction is not None and self.direction not in DIRECTIONS:
            raise ValueError(f"pair {self.pair_id}: unknown direction {self.direction!r}")

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"pair_id": self.pair_id}
        if self.item_id is not None:
            record["item_id"] = self.item_id
        record["action"] = self.action
        for key in _OPTIONAL:
            value = getattr(self, key)
            if value is not None:
                record[key] = value
        record.update(votes=self.votes, n_annotators=self.n_annotators, round=self.round)
        return record

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Decision:
        """A decision from its JSON object; a ValueError naming the field if it is malformed."""
        valid: DecisionRecord = validate(DecisionRecord, record, "decision")
        pair_id = valid.pair_id if valid.pair_id is not None else item_pair_id(str(valid.item_id))
        return cls(
            pair_id=pair_id,
            item_id=valid.item_id,
            action=valid.action,
            votes=dict(valid.votes or {}),
            n_annotators=valid.n_annotators,
            round=valid.round,
            **{k: getattr(valid, k) for k in _OPTIONAL if getattr(valid, k) is not None},
        )


def write_decisions(path: Path, decisions: Iterable[Decision]) -> None:
    """Write decisions as JSON lines, atomically, sorted by pair id."""
    write_jsonl(path, (d.to_dict() for d in sorted(decisions, key=lambda d: d.pair_id)))


def read_decisions(path: Path) -> list[Decision]:
    """Read a decisions JSON-lines file."""
    return read_jsonl(path, Decision.from_dict)
