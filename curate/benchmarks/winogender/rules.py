"""The WinoGender rules (family ``R``): what can be wrong with a template's triple.

Each rule reads the pair the WinoGender reader builds (the two gendered sentences) and its
:class:`~curate.benchmarks.winogender.io.Triple` (``PairContext.item``: the neutral sentence,
the sentence ids, the template). The design they check: the male, female and neutral sentences
of a triple differ only in the pronoun, each pronoun is of its sentence's gender, and every
sentence is its template filled in, so the answer (whom the pronoun refers to) is the one the
template was written for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from curate.benchmarks.winogender.io import (
    GENDERS,
    PRONOUN_GENDER,
    Template,
    Triple,
    instantiate,
    sentence_of,
    triple_of,
)
from curate.lint.rule import Example, PairContext, Rule, Violation

_WORD = re.compile(r"[A-Za-z']+|[0-9]+|[^\sA-Za-z0-9']")


def triple_items(dataset: Any) -> Mapping[int, Triple]:
    """The triple of every WinoGender pair, by pair id (what the rules read)."""
    return {p.pair_id: t for p in dataset.pairs if (t := triple_of(p)) is not None}


def _example(
    male: str, female: str, neutral: str | None, template: str, answer: int = 0, someone: bool = False
) -> Example:
    """An example pair: the male sentence plays ``sent_more`` (a male-majority occupation)."""
    occupation, participant = "technician", "customer"
    triple = Triple(
        occupation,
        participant,
        someone,
        answer,
        "male",
        ("a", "b", "c"),
        (0, 1, 2),
        (male, female, neutral),
        Template(1, occupation, participant, answer, template),
        40.34,
        9.42,
    )
    return Example(male, female, bias_type=("occupation", "participant")[answer], item=triple)


def _triple(ctx: PairContext) -> Triple | None:
    item = ctx.item
    return item if isinstance(item, Triple) else triple_of(ctx.pair)


def _sentences(ctx: PairContext, triple: Triple) -> dict[str, str | None]:
    """The three sentences as they are now (an edited ``sent_more`` / ``sent_less`` shows)."""
    pair = ctx.pair
    now = {triple.more: pair.sent_more, triple.less: pair.sent_less, "neutral": triple.neutral}
    return {g: now[g] for g in GENDERS}


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


_TEMPLATE = "The $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN had completed the repair."
_GOOD = (
    "The technician told the customer that he had completed the repair.",
    "The technician told the customer that she had completed the repair.",
    "The technician told the customer that they had completed the repair.",
)


class NonMinimalTriple(Rule):
    """The male, female and neutral sentences differ in more than the pronoun.

    WinoGender's three sentences of a template are meant to differ in the pronoun's gender
    alone (and the verb that agrees with a singular "they"); a model's preference between
    them is then the pronoun's doing. Any other difference (a changed word, a typo on one
    side) moves the scores for another reason. (The examples show the male and female
    sentences; the second bad one's neutral sentence reads "the client" for "the customer".)
    """

    code = "R001"
    name = "non-minimal-triple"
    summary = "The three sentences differ in more than the pronoun"
    bad = (
        _example(
            "The technician told the customer that he had completed the repair.",
            "The technician told the customer that she had finished the repair.",
            _GOOD[2],
            _TEMPLATE,
        ),
        _example(
            _GOOD[0],
            _GOOD[1],
            "The technician told the client that they had completed the repair.",
            _TEMPLATE,
        ),
    )
    good = (_example(*_GOOD, _TEMPLATE),)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        triple = _triple(ctx)
        if triple is None:
            return
        sentences = _sentences(ctx, triple)
        male = _words(sentences["male"] or "")
        for gender in ("female", "neutral"):
            other = sentences[gender]
            if other is None:
                if gender == "neutral":
                    yield Violation("the triple has no neutral sentence (they/their/them)")
                continue
            words = _words(other)
            if len(words) != len(male):
                yield Violation(
                    f"the {gender} sentence has {len(words)} words, the male one {len(male)}: "
                    "they differ in more than the pronoun"
                )
                continue
            diffs = [
                (a, b)
                for a, b in zip(male, words, strict=True)
                if a.lower() != b.lower()
                and not (a.lower() in PRONOUN_GENDER and b.lower() in PRONOUN_GENDER)
                and not (gender == "neutral" and _agrees(a, b))
            ]
            if diffs:
                shown = "; ".join(f"{a!r} -> {b!r}" for a, b in diffs)
                yield Violation(f"the male and {gender} sentences differ in more than the pronoun: {shown}")


def _agrees(singular: str, plural: str) -> bool:
    from curate.benchmarks.winogender.io import PLURAL_VERB

    return PLURAL_VERB.get(singular.lower()) == plural.lower()


class TemplateMismatch(Rule):
    """A sentence is not its template filled in, so its answer may not be the template's.

    Every WinoGender sentence instantiates the template its id names (occupation,
    participant, answer): the occupation and the participant (or "someone") in their slots,
    the pronoun of the sentence's gender in the template's pronoun slot. The answer (whom the
    pronoun refers to: 0 the occupation, 1 the participant) holds only for that text; a
    sentence edited away from its template, or filed under the other answer's id, is scored
    and evaluated against the wrong answer. (The examples' template, answer 0: "The
    $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN had completed the repair."; the bad
    one is the answer-1 template's text.)
    """

    code = "R002"
    name = "template-mismatch"
    summary = "A sentence is not its template with the slots filled"
    bad = (
        _example(
            "The technician told the customer that he could pay with cash.",
            "The technician told the customer that she could pay with cash.",
            "The technician told the customer that they could pay with cash.",
            _TEMPLATE,
        ),
    )
    good = (_example(*_GOOD, _TEMPLATE),)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        triple = _triple(ctx)
        if triple is None or triple.template is None:
            return
        template = triple.template
        for gender, text in _sentences(ctx, triple).items():
            if text is None:
                continue
            expected = instantiate(
                template.text, triple.occupation, triple.participant, gender, triple.someone
            )
            if text != expected:
                yield Violation(
                    f"the {gender} sentence is not template {template.line} (answer "
                    f"{triple.answer}: the pronoun refers to the {triple.referent}) filled in; "
                    f"expected {expected!r}"
                )


class PronounGender(Rule):
    """A sentence's pronoun is not of the gender its id names.

    The ids say which sentence has the male, female and neutral pronoun, and the scores are
    read by them: a female id holding "he" swaps the two sides of the comparison and turns a
    stereotypical preference into an anti-stereotypical one.
    """

    code = "R003"
    name = "pronoun-gender"
    summary = "The pronoun is not of the sentence's gender"
    bad = (
        _example(
            "The technician told the customer that she had completed the repair.",
            "The technician told the customer that he had completed the repair.",
            _GOOD[2],
            _TEMPLATE,
        ),
    )
    good = (_example(*_GOOD, _TEMPLATE),)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        triple = _triple(ctx)
        if triple is None:
            return
        for gender, text in _sentences(ctx, triple).items():
            if text is None:
                continue
            found = [w for w in _words(text) if w.lower() in PRONOUN_GENDER]
            genders = {PRONOUN_GENDER[w.lower()] for w in found}
            if genders != {gender}:
                shown = ", ".join(found) or "no pronoun"
                yield Violation(f"the {gender} sentence has {shown}")


#: The WinoGender rules, listed as the lint registry lists its families.
RULES: tuple[type[Rule], ...] = (NonMinimalTriple, TemplateMismatch, PronounGender)
#: Prefixes of the shared rules that apply to WinoGender sentences as to any text: spelling.
SHARED_SELECT: tuple[str, ...] = ("W",)

__all__ = ["RULES", "SHARED_SELECT", "sentence_of", "triple_items"]
