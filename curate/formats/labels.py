"""Label normalisation with a record of every change, and the Hugging Face class-label orders.

Published revisions spell labels inconsistently (``Race-color``, ``sexual orientation``); the
readers map such spellings to the CrowS-Pairs label and say so in a warning, never silently. A
``bias_type`` that is no CrowS-Pairs type is kept as it is and reported (lint's L002 flags it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from curate.pairs import BIAS_TYPES, DIRECTIONS

#: Class-label order of the Hugging Face ``crows_pairs`` loading script.
HF_BIAS_TYPES: tuple[str, ...] = (
    "race-color",
    "socioeconomic",
    "gender",
    "disability",
    "nationality",
    "sexual-orientation",
    "physical-appearance",
    "religion",
    "age",
)
HF_DIRECTIONS: tuple[str, ...] = ("stereo", "antistereo")


class LabelError(ValueError):
    """A label that cannot be read; the reader adds file, line and pair.

    ``what`` is the problem, ``expected`` what would have been right (may be empty).
    """

    def __init__(self, what: str, expected: str = "") -> None:
        super().__init__(f"{what}; {expected}" if expected else what)
        self.what = what
        self.expected = expected

    def for_pair(self, pair_id: int) -> str:
        """The message with the pair named before what was expected."""
        tail = f"; {self.expected}" if self.expected else ""
        return f"{self.what} (pair {pair_id}){tail}"


def _canonical(value: str) -> str:
    return "-".join(value.strip().lower().replace("_", " ").replace("-", " ").split())


@dataclass
class LabelNormaliser:
    """Normalises direction and bias-type labels of one file and remembers what it changed.

    ``known`` is the label set the file is expected to use: the CrowS-Pairs types, or the
    StereoSet domains for StereoSet files.
    """

    source: str
    known: tuple[str, ...] = BIAS_TYPES
    #: What one of ``known`` is called in warnings.
    kind: str = "CrowS-Pairs bias type"
    _changed: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    _first_line: dict[tuple[str, str, str], int] = field(default_factory=dict)
    _unknown: Counter[str] = field(default_factory=Counter)
    _unknown_line: dict[str, int] = field(default_factory=dict)
    #: Rows whose id column disagreed with their item's own id (see :meth:`renumbered`).
    _renumbered: list[tuple[int, int, int]] = field(default_factory=list)
    _empty: list[tuple[str, int, int]] = field(default_factory=list)

    def _note(self, column: str, before: str, after: str, line: int) -> None:
        key = (column, before, after)
        self._changed[key] += 1
        self._first_line.setdefault(key, line)

    def direction(self, value: object, line: int) -> str:
        """The direction label of a cell: a string, or a Hugging Face class index."""
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < len(HF_DIRECTIONS):
                return HF_DIRECTIONS[value]
            raise LabelError(f"stereo_antistereo class {value} is not 0 (stereo) or 1 (antistereo)")
        if not isinstance(value, str):
            raise LabelError(f"stereo_antistereo is {value!r}", "expected 'stereo' or 'antistereo'")
        if value in DIRECTIONS:
            return value
        canonical = _canonical(value).replace("anti-stereo", "antistereo")
        if canonical in DIRECTIONS:
            self._note("stereo_antistereo", value, canonical, line)
            return canonical
        raise LabelError(f"stereo_antistereo is {value!r}", "expected 'stereo' or 'antistereo'")

    def bias_type(self, value: object, line: int) -> str:
        """The bias type of a cell: a string (normalised if it is a known type's spelling) or a
        Hugging Face class index."""
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < len(HF_BIAS_TYPES):
                return HF_BIAS_TYPES[value]
            raise LabelError(f"bias_type class {value} is outside 0..{len(HF_BIAS_TYPES) - 1}")
        if not isinstance(value, str) or not value.strip():
            raise LabelError("bias_type is empty")
        if value in self.known:
            return value
        canonical = _canonical(value)
        if canonical in self.known:
            self._note("bias_type", value, canonical, line)
            return canonical
        self._unknown[value] += 1
        self._unknown_line.setdefault(value, line)
        return value

    def renumbered(self, line: int, written: int, derived: int) -> None:
        """Note a row whose id cell (``written``) is not the pair id its item id derives
        (``derived``): a copy written before pair ids of items with their own id (StereoSet's
        ``stereoset_id``) were derived from it (issue 35), when they were positions."""
        self._renumbered.append((line, written, derived))
    def empty_sentence(self, column: str, pair_id: int, line: int) -> None:
        """Note a sentence cell that is empty: the pair is kept (a published translation
        has one, French CrowS-Pairs pair 129) so that it can be read, linted and fixed."""
        self._empty.append((column, pair_id, line))

    def warnings(self) -> list[str]:
        """One sentence per kind of change or unknown label, with counts and the first line."""
        out = [
            f"{self.source}: {column} {before!r} normalised to {after!r} in {n} row(s) "
            f"(first on line {self._first_line[(column, before, after)]})"
            for (column, before, after), n in sorted(self._changed.items())
        ]
        kind = self.kind
        out += [
            f"{self.source}: bias_type {label!r} is not a {kind}; kept as is in {n} row(s) "
            f"(first on line {self._unknown_line[label]})"
            for label, n in sorted(self._unknown.items())
        ]
        if self._renumbered:
            line, written, derived = self._renumbered[0]
            out.append(
                f"{self.source}: the id of {len(self._renumbered)} row(s) is not the pair id of "
                f"its item id (first on line {line}: {written}, not {derived}); pair ids of "
                "items with their own id derive from that id, no longer from positions, so "
                "they are read from the item ids (findings, decisions and scores keyed by the "
                "old ids do not match them)"
            )
        out += [
            f"{self.source}: line {line}: {column} is empty (pair {pair_id}); kept, and "
            "`curate lint` flags it"
            for column, pair_id, line in self._empty
        ]
        return out


def hf_bias_index(label: str) -> int:
    """The Hugging Face class index of a bias type (ValueError if it has none)."""
    try:
        return HF_BIAS_TYPES.index(label)
    except ValueError:
        raise ValueError(f"bias_type {label!r} has no Hugging Face class label") from None
