"""Which pairs a revision kept, edited, dropped or added: two versions aligned by pair id.

Ids never change across versions, so :func:`curate.pairs.match_by_id` (the same matching the
pair diff of ``curate diff`` uses) pairs them up; this module then says which fields of each
shared pair changed and whether a model would score the edited pair differently. Only the
fields both versions have a column for are compared (:func:`curate.formats.shared_fields`): a
five-column revision of the upstream file has unknown, not removed, validator annotations.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from curate.pairs import PAIR_FIELDS, Pair, match_by_id
from curate.report.schema import AlignmentCounts, AlignmentSection, PairEntry, PairText

#: Fields a model's score of the pair depends on (the direction orders the alignment).
SCORED_FIELDS: frozenset[str] = frozenset({"sent_more", "sent_less", "direction"})


@dataclass(frozen=True, slots=True)
class EditedPair:
    """A pair present in both versions with at least one field changed."""

    before: Pair
    after: Pair
    fields: tuple[str, ...]

    @property
    def pair_id(self) -> int:
        return self.before.pair_id

    @property
    def rescored(self) -> bool:
        """Whether the edit touches what a model scores (sentences or direction)."""
        return bool(SCORED_FIELDS.intersection(self.fields))


@dataclass(frozen=True)
class VersionAlignment:
    """The pairs of two versions matched by id, in id order."""

    unchanged: tuple[int, ...]
    edited: tuple[EditedPair, ...]
    dropped: tuple[int, ...]
    added: tuple[int, ...]

    @property
    def shared(self) -> tuple[int, ...]:
        """Ids present in both versions (unchanged and edited), sorted."""
        return tuple(sorted((*self.unchanged, *(e.pair_id for e in self.edited))))

    def counts(self) -> AlignmentCounts:
        return {
            "unchanged": len(self.unchanged),
            "edited": len(self.edited),
            "dropped": len(self.dropped),
            "added": len(self.added),
        }

    def to_dict(
        self, before: Sequence[Pair] = (), after: Sequence[Pair] = ()
    ) -> AlignmentSection:
        """Counts and ids; with the versions' pairs, also their text, so that the report can
        be rendered again from report.json alone."""
        old = {p.pair_id: p for p in before}
        new = {p.pair_id: p for p in after}
        return {
            "counts": self.counts(),
            "edited_rescored": sum(e.rescored for e in self.edited),
            "edited": [
                {
                    "pair_id": e.pair_id,
                    "fields": list(e.fields),
                    "before": pair_text(e.before),
                    "after": pair_text(e.after),
                }
                for e in self.edited
            ],
            "dropped": [_entry(i, old) for i in self.dropped],
            "added": [_entry(i, new) for i in self.added],
        }


def pair_text(pair: Pair) -> PairText:
    """The fields of a pair a reader of the report needs (no annotator metadata)."""
    return {
        "sent_more": pair.sent_more,
        "sent_less": pair.sent_less,
        "direction": pair.direction,
        "bias_type": pair.bias_type,
    }


def _entry(pair_id: int, pairs: dict[int, Pair]) -> PairEntry:
    """A dropped or added pair: its text when the version's pairs were given, else its id."""
    pair = pairs.get(pair_id)
    return {"pair_id": pair_id, **pair_text(pair)} if pair is not None else {"pair_id": pair_id}


def align_versions(
    before: Sequence[Pair], after: Sequence[Pair], fields: Collection[str] = PAIR_FIELDS
) -> VersionAlignment:
    """Classify every pair id as unchanged, edited (which of ``fields``), dropped or added."""
    match = match_by_id(before, after)
    compared = tuple(f for f in PAIR_FIELDS if f in fields)
    unchanged: list[int] = []
    edited: list[EditedPair] = []
    for a, b in match.shared:
        changed = tuple(f for f in compared if getattr(a, f) != getattr(b, f))
        if changed:
            edited.append(EditedPair(a, b, changed))
        else:
            unchanged.append(a.pair_id)
    return VersionAlignment(
        unchanged=tuple(unchanged),
        edited=tuple(edited),
        dropped=tuple(p.pair_id for p in match.dropped),
        added=tuple(p.pair_id for p in match.added),
    )

