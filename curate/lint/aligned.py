"""Versions of a benchmark aligned pair by pair (translations, revisions) checked against
each other.

The French and Dutch CrowS-Pairs keep the English pair ids, so a pair of one version is the
same item as the pair of the same id in another: its labels should be the same, and it should
swap groups of the same kind. Where they are not, one of the translators (or the original)
changed the item, and a reviewer should look. The checks give :class:`~curate.findings.Finding`
objects (family ``X``), so ``curate annotations push --findings`` can send them for review.

Which groups a sentence names comes from the group words of each language
(``curate/lint/languages/<code>/groups.toml``; the English lexicon for English): a pair whose
changed words name no known group on one side is not judged on groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from curate.align import align
from curate.findings import Finding
from curate.lint.languages import LANGUAGES
from curate.pairs import Pair


@dataclass(frozen=True, slots=True)
class Check:
    """One kind of cross-version finding."""

    code: str
    name: str
    summary: str


CHECKS: dict[str, Check] = {
    c.code: c
    for c in (
        Check("X001", "direction-differs", "The aligned versions give the pair different directions"),
        Check("X002", "bias-type-differs", "The aligned versions give the pair different bias types"),
        Check(
            "X003",
            "swapped-groups-differ",
            "The versions swap groups of different bias types (the translation changed the item)",
        ),
        Check("X004", "not-aligned", "The pair id is in one version only"),
    )
}


@dataclass(frozen=True)
class Version:
    """One side of the comparison: its pairs, its language and a name for messages."""

    name: str
    pairs: Sequence[Pair]
    language: str | None


def _finding(code: str, pair_id: int, message: str) -> Finding:
    return Finding(pair_id, code, CHECKS[code].name, message)


def _language_name(code: str | None) -> str:
    return LANGUAGES[code].name if code in LANGUAGES else (code or "unknown language")


def swapped_bias_types(pair: Pair, language: str | None) -> frozenset[str]:
    """The bias types the changed words of ``pair`` name, from the group words of
    ``language`` (empty when none is known)."""
    alignment = align(pair.sent_more, pair.sent_less)
    words = [t.text for t in (*alignment.modified_more, *alignment.modified_less)]
    if language in (None, "en"):
        from curate.lint.lexicon import load_lexicon

        lexicon = load_lexicon()
        return frozenset(d for w in words for d in lexicon.dimensions_of(w))
    groups = LANGUAGES[language].groups if language in LANGUAGES else {}
    found = set()
    for word in words:
        lower = word.lower().replace("’", "'").split("'")[-1]
        found |= {bias for bias, members in groups.items() if lower in members}
    return frozenset(found)


def check_aligned(a: Version, b: Version) -> list[Finding]:
    """Findings on the pairs of ``a`` and ``b`` that share an id (and the ids one lacks), in
    id order, then code order."""
    left = {p.pair_id: p for p in a.pairs}
    right = {p.pair_id: p for p in b.pairs}
    names = f"{a.name} ({_language_name(a.language)})", f"{b.name} ({_language_name(b.language)})"
    findings: list[Finding] = []
    for pair_id in sorted(left.keys() | right.keys()):
        one, other = left.get(pair_id), right.get(pair_id)
        if one is None or other is None:
            present = names[0] if one is not None else names[1]
            findings.append(_finding("X004", pair_id, f"pair {pair_id} is only in {present}"))
            continue
        if one.direction != other.direction:
            findings.append(
                _finding(
                    "X001",
                    pair_id,
                    f"direction {one.direction!r} in {names[0]}, {other.direction!r} in {names[1]}",
                )
            )
        if one.bias_type != other.bias_type:
            findings.append(
                _finding(
                    "X002",
                    pair_id,
                    f"bias_type {one.bias_type!r} in {names[0]}, {other.bias_type!r} in {names[1]}",
                )
            )
        mine, theirs = swapped_bias_types(one, a.language), swapped_bias_types(other, b.language)
        if mine and theirs and not mine & theirs:
            findings.append(
                _finding(
                    "X003",
                    pair_id,
                    f"{names[0]} swaps {'/'.join(sorted(mine))} words, {names[1]} swaps "
                    f"{'/'.join(sorted(theirs))} words",
                )
            )
    return findings


def by_kind(findings: Sequence[Finding]) -> dict[str, list[Finding]]:
    """The findings grouped by check code, in code order (every check listed, even empty)."""
    return {code: [f for f in findings if f.code == code] for code in CHECKS}
