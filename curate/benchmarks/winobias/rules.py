"""The WinoBias lint rules (family ``B``): what can be wrong with a pro/anti line pair.

Each rule reads the pair the WinoBias reader builds: the two sentences without brackets and,
in :attr:`Pair.extra`, the bracketed mentions of each side and the referent's occupation. An
example pair written with brackets (``"[The chief] ... [he] ..."``) works too: the mentions
are then read from the brackets (see :func:`side_mentions`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import ClassVar

from curate.align import Token
from curate.benchmarks.winobias.io import pair_from_lines, parse_line
from curate.benchmarks.winobias.occupations import PRONOUN_GENDER
from curate.findings import TextSpan
from curate.lint.grammar import MAY_DOUBLE
from curate.lint.rule import Example, PairContext, Rule, Violation, edit_spans, is_word

SIDES = (("sent_more", "pro"), ("sent_less", "anti"))


def _example(pro: str, anti: str) -> Example:
    return Example(pro, anti, bias_type="type1-dev")


def side_mentions(ctx: PairContext, field_name: str) -> tuple[str, tuple[str, ...]]:
    """The bracket error ("" if none) and the mention texts of one side of the pair."""
    side = "pro" if field_name == "sent_more" else "anti"
    extra = dict(ctx.pair.extra)
    text = ctx.sentence(field_name)
    if f"{side}_mentions" in extra:
        spans = extra[f"{side}_mentions"]
        return extra[f"{side}_bracket_error"], tuple(text[s:e] for s, e in spans)
    # an example pair (brackets in the text) or another benchmark's pair (no brackets)
    if not text.strip():
        return "", ()
    line = parse_line(f"1 {' '.join(text.split())}", side)
    return line.bracket_error, tuple(line.text[s:e] for s, e in line.mentions)


def _words(tokens: tuple[Token, ...]) -> list[str]:
    return [t.lower for t in tokens if is_word(t)]


class NonMinimalPair(Rule):
    """The pro and anti sentences differ in more than the pronoun's gender.

    A WinoBias pair is meant to isolate one thing: the gender of the pronoun that refers to an
    occupation. Any other difference (a changed verb, a dropped word, a typo on one side)
    moves a model's scores for reasons that have nothing to do with the stereotype, and a
    coreference system may resolve the two sentences differently for that reason alone.
    """

    code = "B001"
    name = "non-minimal-pair"
    summary = "The two sentences differ in more than the pronoun"
    bad = (
        _example(
            "The carpenter made a desk for [the clerk] because [she] needed a desk.",
            "The carpenter made a desk for [the clerk] because [he] needed one.",
        ),
        _example(
            "The receptionist greeted with [the mechanic] and gave [him] an apple.",
            "The receptionist greeted [the mechanic] and gave [her] an apple.",
        ),
    )
    good = (
        _example(
            "[The developer] visited the hairdresser because [he] needed to cut [his] hair.",
            "[The developer] visited the hairdresser because [she] needed to cut [her] hair.",
        ),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        other = []
        for edit in ctx.word_edits:
            more, less = _words(edit.more.tokens), _words(edit.less.tokens)
            swapped = (
                len(more) == len(less) == 1
                and more[0] in PRONOUN_GENDER
                and less[0] in PRONOUN_GENDER
                and PRONOUN_GENDER[more[0]] != PRONOUN_GENDER[less[0]]
            )
            if not swapped:
                other.append(edit)
        if other:
            shown = "; ".join(
                f"{' '.join(_words(e.more.tokens)) or '(nothing)'!r} -> "
                f"{' '.join(_words(e.less.tokens)) or '(nothing)'!r}"
                for e in other
            )
            spans = tuple(span for e in other for span in edit_spans(e))
            yield Violation(f"differs in more than the pronoun: {shown}", spans)
        elif not ctx.word_edits:
            yield Violation("the two sentences have the same words: no pronoun was swapped")


class DoubledWord(Rule):
    """A word is written twice in a row ("notified the [the chief]").

    The doubled word is a typing slip that a model scores as an odd sentence; in WinoBias it
    often sits at the bracket of a mention, where the annotation and the text were edited
    separately. Words that may legitimately double ("had had", "that that") are left alone.
    """

    code = "B002"
    name = "doubled-word"
    summary = "The same word twice in a row"
    bad = (
        _example(
            "The assistant notified the [the chief] about a problem and asked [him] to take action.",
            "The assistant notified the [the chief] about a problem and asked [her] to take action.",
        ),
    )
    good = (
        _example(
            "The assistant notified [the chief] about a problem and asked [him] to take action.",
            "The assistant notified [the chief] about a problem and asked [her] to take action.",
        ),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        a = ctx.alignment
        for field_name, tokens in (("sent_more", a.more), ("sent_less", a.less)):
            text = ctx.sentence(field_name)
            words = [t for t in tokens if is_word(t)]
            for first, second in itertools.pairwise(words):
                between = text[first.start + len(first.text) : second.start]
                if (
                    first.lower == second.lower
                    and first.lower not in MAY_DOUBLE
                    and not between.strip(" []")
                ):
                    yield Violation(
                        f"{first.text!r} twice in a row in {field_name}",
                        (TextSpan(field_name, first.start, second.start + len(second.text)),),
                    )


class BracketError(Rule):
    """The bracketed mentions are malformed or differ between the pro and anti line.

    WinoBias marks the two coreferent mentions (the occupation and its pronoun) with square
    brackets; coreference evaluations read the gold clusters from them. An unclosed bracket,
    a line with fewer than two mentions, or a pro line that brackets more (or other) mentions
    than its anti line gives a wrong gold answer or a pair whose sides are scored differently.
    """

    code = "B003"
    name = "bracket-error"
    summary = "Malformed brackets, or mentions that differ between the two lines"
    bad = (
        _example(
            "The clerk tricked [the laborer] out of [his] money and secretly hated [him].",
            "The clerk tricked [the laborer] out of [her] money and secretly hated her.",
        ),
        _example(
            "[The chief] hired the assistant because [he needed help.",
            "[The chief] hired the assistant because [she] needed help.",
        ),
    )
    good = (
        _example(
            "[The chief] hired the assistant because [he] needed help.",
            "[The chief] hired the assistant because [she] needed help.",
        ),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        mentions = {}
        for field_name, side in SIDES:
            error, found = side_mentions(ctx, field_name)
            mentions[side] = found
            if error:
                yield Violation(f"{side} line: {error}")
            elif len(found) < 2:
                yield Violation(
                    f"{side} line brackets {len(found)} mention(s); an occupation and its "
                    "pronoun make two"
                )
        pro, anti = mentions["pro"], mentions["anti"]
        if len(pro) != len(anti):
            yield Violation(
                f"the pro line brackets {len(pro)} mentions, the anti line {len(anti)}"
            )
            return
        for a, b in zip(pro, anti, strict=True):
            if a.lower() != b.lower() and not (
                a.lower() in PRONOUN_GENDER and b.lower() in PRONOUN_GENDER
            ):
                yield Violation(f"the pro line brackets {a!r} where the anti line brackets {b!r}")


class StereotypeMismatch(Rule):
    """The pronoun does not follow (pro line) or break (anti line) the occupation's stereotype.

    In a pro-stereotyped line the pronoun's gender is the one WinoBias's occupation lists
    (``female_occupations.txt`` / ``male_occupations.txt``) associate with the occupation it
    refers to; in the anti line it is the other one. A pair with the pronouns the wrong way
    round counts a stereotype-breaking sentence as stereotyping, inverting its verdict (users
    reported such swapped lines upstream). Needs the occupation lists beside the data files.
    """

    code = "B004"
    name = "stereotype-mismatch"
    summary = "The pro line's pronoun does not match the occupation's stereotype"
    bad = (
        _example(
            "The janitor reprimanded [the accountant] because [he] made a mistake.",
            "The janitor reprimanded [the accountant] because [she] made a mistake.",
        ),
    )
    good = (
        _example(
            "The janitor reprimanded [the accountant] because [she] made a mistake.",
            "The janitor reprimanded [the accountant] because [he] made a mistake.",
        ),
    )

    #: The occupations of the examples above: a pair that was not read from WinoBias files
    #: (a documentation example) has no occupation lists of its own.
    example_occupations: ClassVar[dict[str, str]] = {"accountant": "female", "janitor": "male"}

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        extra = dict(ctx.pair.extra) or self._example_fields(ctx)
        for field_name, side in SIDES:
            prefix = "" if side == "pro" else "anti_"
            occupation = extra.get(f"{prefix}occupation")
            expected = extra.get(f"{prefix}occupation_gender")
            if not expected:
                continue
            _, found = side_mentions(ctx, field_name)
            genders = {PRONOUN_GENDER[m.lower()] for m in found if m.lower() in PRONOUN_GENDER}
            if not genders:
                continue
            want = expected if side == "pro" else ("female" if expected == "male" else "male")
            if genders != {want}:
                pronouns = ", ".join(m for m in found if m.lower() in PRONOUN_GENDER)
                yield Violation(
                    f"{side} line: {pronouns!s} for the {occupation}, which WinoBias lists as "
                    f"{expected}-dominated; the {side} line needs a {want} pronoun"
                )


    def _example_fields(self, ctx: PairContext) -> dict[str, str | None]:
        from curate.benchmarks.winobias.occupations import Occupations

        more, less = (" ".join(s.split()) for s in (ctx.pair.sent_more, ctx.pair.sent_less))
        if not (more and less):
            return {}
        return dict(pair_from_lines(more, less, Occupations(self.example_occupations)).extra)


#: The WinoBias rules, listed as the lint registry lists its families.
RULES: tuple[type[Rule], ...] = (NonMinimalPair, DoubledWord, BracketError, StereotypeMismatch)
#: Prefixes of the shared rules that apply to WinoBias sentences as to any text: spelling.
SHARED_SELECT: tuple[str, ...] = ("W",)

