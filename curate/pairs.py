"""The sentence-pair record and the field lists every stage shares.

This is the ground floor: it names the :class:`Pair` fields, never a file's columns. Which
column holds which field is a benchmark's column table (``curate/benchmarks/<name>/columns.py``,
plain data, imported by nothing below the benchmarks); the readers and writers of
:mod:`curate.formats` receive that table as an argument. This module imports no reader and no
benchmark.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from curate.records import control_characters

#: The data fields of a pair (everything but its id), in the order pair files hold them.
PAIR_FIELDS: tuple[str, ...] = (
    "sent_more",
    "sent_less",
    "direction",
    "bias_type",
    "annotations",
    "writer",
    "annotators",
)
#: The two sentences: changing one is an edit, changing another field a relabelling.
TEXT_FIELDS: tuple[str, ...] = ("sent_more", "sent_less")
#: The fields a curation decision may set (the validators' metadata is never edited).
EDITABLE_FIELDS: tuple[str, ...] = ("sent_more", "sent_less", "direction", "bias_type")
DIRECTIONS: tuple[str, ...] = ("stereo", "antistereo")
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


#: Bits of an item's numeric id: below 2**53, so JavaScript (the explorer, Label Studio) and
#: float64 columns hold it exactly, and wide enough that two of a benchmark's few thousand
#: item ids share a number with probability ~1e-9 (readers refuse a file where two do).
ITEM_ID_BITS = 52


def item_pair_id(item_id: str) -> int:
    """The pair id of an item that has its own string id (StereoSet's ``id``).

    Derived from the id alone (the first 52 bits of its MD5 digest), never from the item's
    position: the same item has the same number in every version of the file, in every copy
    of it and in every tool that computes it, with no table to carry or lose. The string id
    stays the item's name for people (findings, diffs, the explorer print it beside the
    number); the number is what columns typed int64 and the joins between versions use.
    """
    digest = hashlib.md5(item_id.encode("utf-8"), usedforsecurity=False).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - ITEM_ID_BITS)


def check_item_id(pair_id: int, item_id: str | None) -> None:
    """A ValueError when a record names an item whose pair id is not ``pair_id``: a finding or
    decision of a version that numbered items by position (before issue 35), or a mistake."""
    if item_id is not None and item_pair_id(item_id) != pair_id:
        raise ValueError(
            f"pair_id {pair_id} is not the pair id of item {item_id} ({item_pair_id(item_id)}): "
            "pair ids of items with their own id (StereoSet) derive from that id, no longer from "
            "the item's position; a record keyed by position is of an older curate, rerun the "
            "step that wrote it"
        )


#: Why a record keyed by a small pair id misses every item that has its own id (said where
#: findings, decisions or scores name pair ids the data does not hold).
BY_POSITION_NOTE = (
    "its items have their own ids and their pair ids derive from them, no longer from their "
    "positions (issue 35): records keyed by an item's position are of an older curate; rerun "
    "the step that wrote them, or name the items by \"item_id\""
)


def pair_label(pair_id: int, item_id: str | None = None) -> str:
    """How messages name a pair: ``pair 12``, or ``item 2c81... (pair 1234...)`` when it is an
    item with its own id (people know StereoSet items by theirs)."""
    return f"item {item_id} (pair {pair_id})" if item_id else f"pair {pair_id}"


@dataclass(frozen=True, slots=True)
class Pair:
    """One minimal pair.

    ``sent_more`` is the more stereotyping sentence. ``direction`` says whether it demonstrates a
    stereotype about a historically disadvantaged group (``stereo``) or violates one
    (``antistereo``). ``annotations`` holds each validator's bias-type labels (``None`` when the
    cell is empty), ``annotators`` their anonymised ids. ``item_id`` is the item's own id where
    the benchmark gives one (StereoSet); then ``pair_id`` is :func:`item_pair_id` of it.
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


def sentence_control_characters(text: str) -> list[str]:
    """The control characters no sentence may hold, as ``\\xNN`` (empty when it is clean).

    A NUL or a terminal escape in a sentence is a damaged file, not data: it would reach
    tokenizers, terminals and HTML. Tab, LF and CR are kept (upstream pair 1293 has a newline
    inside a sentence), and so is NEL (U+0085), which Unicode counts as a line break.
    """
    return [c for c in control_characters(text, allow_whitespace=True) if c != "\\x85"]
