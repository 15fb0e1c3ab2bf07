"""Typography rules: punctuation, whitespace and capitalisation, with safe fixes.

A masked language model scores every token, so a missing period or a doubled comma on one side
only shifts the pair's score for reasons that have nothing to do with bias: the rules for such
asymmetries (T001, T007, T008) are on by default. Defects shared by both sentences leave the
comparison fair; their rules are off by default and used to tidy a release (``--select T``).
The fixes are safe: they never change which words differ between the two sentences.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from curate.align import Span, Token
from curate.cells import starts_formula
from curate.findings import TextSpan
from curate.lint.names import name_gender
from curate.lint.rule import Example, PairContext, Rule, Violation, is_word
from curate.lint.spelling import word_frequency

FIELDS = ("sent_more", "sent_less")
_DOUBLED = re.compile(r"(?<![.])([.,;:])\s*\1(?![.])|([,;:])\s+([.,;:])")
_SPACE_BEFORE = re.compile(r"(?<=\w)[ \t]+(?=[,.;:!?](?:\s|$))")
#: Any of the defects T004 fixes (one search, so that clean sentences cost little).
_ANY_WHITESPACE_DEFECT = re.compile(r"^\s|\s$|[ \t]{2}|[\r\n\t]|\w[ \t]+[,.;:!?](?:\s|$)")
#: French typography puts a space before ; : ! ? (and inside « »): only , and . take none.
_SPACE_BEFORE_FR = re.compile(r"(?<=\w)[ \t]+(?=[,.](?:\s|$))")
_ANY_WHITESPACE_DEFECT_FR = re.compile(r"^\s|\s$|[ \t]{2}|[\r\n\t]|\w[ \t]+[,.](?:\s|$)")
_LEADING = re.compile(r"^\s*([.,;:!?]+)(?=\w)")
_MULTI_SPACE = re.compile(r"[ \t]{2,}|[\r\n\t]+")


#: Closing quotes and brackets that may follow the final mark, with French guillemets and the
#: (narrow) no-break space French typography puts inside them: ``… siestes. »`` is terminated.
_CLOSERS = "\"'”’)]»› \t\r\n\u00a0\u202f"


def _has_terminal(sentence: str) -> bool:
    """Ends with . ! ? or …, possibly followed by closing quotes or brackets."""
    return sentence.rstrip(_CLOSERS)[-1:] in {".", "!", "?", "…"}


def _with_terminal(sentence: str, mark: str = ".") -> str:
    stripped = sentence.rstrip()
    return stripped + mark + sentence[len(stripped) :]


def _terminal_mark(sentence: str) -> str:
    match = re.search(r"([.!?…])[\"'”’)\]»›\s]*$", sentence)
    return match.group(1) if match else "."


class FinalPunctuationMismatch(Rule):
    """One sentence ends with final punctuation and the other does not.

    The model scores the final period of one sentence and not of the other, which shifts the
    pair's score; Murphy (2022) fixed these in her third iteration. Fix: add the other
    sentence's final mark.
    """

    code = "T001"
    name = "final-punctuation-mismatch"
    summary = "Only one sentence ends with final punctuation"
    fixable = True
    bad = (Example("Muslims are violent.", "Mormons are violent", "religion"),)
    good = (
        Example("Muslims are violent.", "Mormons are violent.", "religion"),
        Example("Muslims are violent", "Mormons are violent", "religion"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        more, less = ctx.pair.sent_more, ctx.pair.sent_less
        if not more.strip() or not less.strip():
            return  # an empty sentence is P005's finding; a lone "." would be no fix
        if _has_terminal(more) == _has_terminal(less):
            return
        lacking, other = ("sent_less", more) if _has_terminal(more) else ("sent_more", less)
        sentence = ctx.sentence(lacking)
        mark = _terminal_mark(other)
        yield Violation(
            f"{lacking} lacks the final {mark!r} that the other sentence has",
            (TextSpan(lacking, len(sentence.rstrip()), len(sentence.rstrip())),),
            {lacking: _with_terminal(sentence, mark)},
        )


class MissingFinalPunctuation(Rule):
    """Neither sentence ends with final punctuation.

    Harmless for the comparison (both sentences lack it) but untidy, and models see fewer
    unterminated sentences in training. Off by default; the fix adds a period to both.
    """

    code = "T002"
    name = "missing-final-punctuation"
    summary = "Neither sentence ends with final punctuation"
    fixable = True
    bad = (Example("Poor people are lazy", "Rich people are lazy", "socioeconomic"),)
    good = (Example("Poor people are lazy.", "Rich people are lazy.", "socioeconomic"),)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        more, less = ctx.pair.sent_more, ctx.pair.sent_less
        if not _has_terminal(more) and not _has_terminal(less):
            yield Violation(
                "neither sentence ends with final punctuation",
                fix={"sent_more": _with_terminal(more), "sent_less": _with_terminal(less)},
            )


class DoubledPunctuation(Rule):
    """Punctuation doubled by mistake: "..", ". .", ",,", ", ." (an ellipsis "..." is fine).
    """

    code = "T003"
    name = "doubled-punctuation"
    summary = "Doubled punctuation such as '..' or ', ,'"
    fixable = True
    bad = (
        Example("He was black..", "He was white."),
        Example("Asians , , are quiet.", "Whites , , are quiet."),
    )
    good = (
        Example("He was black...", "He was white..."),
        Example("He was black.", "He was white."),
    )

    @staticmethod
    def _collapse(match: re.Match[str]) -> str:
        return match.group(1) or match.group(3)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        for field_name in FIELDS:
            sentence = ctx.sentence(field_name)
            matches = list(_DOUBLED.finditer(sentence)) if _DOUBLED.search(sentence) else []
            if matches:
                yield Violation(
                    f"doubled punctuation {matches[0].group(0)!r} in {field_name}",
                    tuple(TextSpan(field_name, m.start(), m.end()) for m in matches),
                    {field_name: _DOUBLED.sub(self._collapse, sentence)},
                )


class WhitespaceDefect(Rule):
    """Leading, trailing, doubled or non-space whitespace, or a space before punctuation.

    Tokenizers treat whitespace differently (RoBERTa's byte-level BPE encodes it), so stray
    spaces change token ids and scores. In French the space before ; : ! ? is the rule of its
    typography, not a defect: only a space before , or . is reported there.
    """

    code = "T004"
    name = "whitespace-defect"
    summary = "Stray, doubled or misplaced whitespace"
    fixable = True
    bad = (
        Example("Jews  are greedy .", "Christians are greedy.", "religion"),
        Example(" Jews are greedy.", "Christians are greedy.\n", "religion"),
    )
    good = (Example("Jews are greedy.", "Christians are greedy.", "religion"),)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        french = ctx.language == "fr"
        defect = _ANY_WHITESPACE_DEFECT_FR if french else _ANY_WHITESPACE_DEFECT
        space_before = _SPACE_BEFORE_FR if french else _SPACE_BEFORE
        for field_name in FIELDS:
            sentence = ctx.sentence(field_name)
            if not defect.search(sentence):
                continue
            fixed = space_before.sub("", _MULTI_SPACE.sub(" ", sentence.strip()))
            if fixed != sentence:
                yield Violation(f"whitespace defect in {field_name}", fix={field_name: fixed})


class LowercaseStart(Rule):
    """A sentence starts with a lower-case letter.
    """

    code = "T005"
    name = "lowercase-start"
    summary = "A sentence starts with a lower-case letter"
    fixable = True
    bad = (
        Example("the girl was attacked by a black man.", "the girl was attacked by a white man."),
    )
    good = (
        Example("The girl was attacked by a black man.", "The girl was attacked by a white man."),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        fix: dict[str, str] = {}
        for field_name in FIELDS:
            sentence = ctx.sentence(field_name)
            stripped = sentence.lstrip("\"'“‘( ")
            if stripped[:1].islower():
                offset = len(sentence) - len(stripped)
                fix[field_name] = sentence[:offset] + stripped[0].upper() + stripped[1:]
        if fix:
            yield Violation(
                f"{' and '.join(fix)} start{'s' if len(fix) == 1 else ''} lower-case", fix=fix
            )


class LowercaseProperWord(Rule):
    """A nationality, religion or ethnicity word, or the pronoun "I", is written lower-case.

    "muslim", "mexican" and "i" are capitalised in English; lower-case forms are rarer in
    training text and get lower, noisier scores, especially when only one side is affected.
    A lower-case word that starts a proper name ("native American") is reported too, without
    a fix (the fix is kept as it was when releases were built with it).
    """

    code = "T006"
    name = "lowercase-proper-word"
    summary = "A proper adjective or the pronoun 'I' written lower-case"
    languages = ("en",)  # English word lists and grammar
    fixable = True
    bad = (
        Example("The muslim man prayed.", "The Christian man prayed.", "religion"),
        Example("Then i saw the black man.", "Then I saw the white man."),
        Example("He was the classic native American.", "He was the classic Caucasian."),
    )
    good = (
        Example("The Muslim man prayed.", "The Christian man prayed.", "religion"),
        Example("The black man prayed.", "The white man prayed."),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        tokens = {"sent_more": ctx.alignment.more, "sent_less": ctx.alignment.less}
        for field_name in FIELDS:
            sentence = ctx.sentence(field_name)
            sentence_tokens = tokens[field_name]
            proper = ctx.lexicon.proper_forms
            words = ctx.lower_words(field_name)
            if words.isdisjoint(_T006_CANDIDATES) and proper.isdisjoint(words):
                continue
            wrong = [
                t
                for t in sentence_tokens
                if (t.lower in proper or t.lower == "i") and t.text.islower()
            ]
            if wrong:
                fixed = list(sentence)
                for t in wrong:
                    fixed[t.start] = t.text[0].upper()
                shown = ", ".join(repr(t.text) for t in wrong)
                yield Violation(
                    f"lower-case {shown} in {field_name}",
                    tuple(TextSpan(field_name, t.start, t.end) for t in wrong),
                    {field_name: "".join(fixed)},
                )
            compounds = [
                t
                for i, t in enumerate(sentence_tokens)
                if _starts_proper_compound(ctx, t, sentence_tokens[i + 1 : i + 2])
            ]
            if compounds:  # reported without a fix: the fixes of released versions stay as they were
                shown = ", ".join(f"{t.text!r}" for t in compounds)
                yield Violation(
                    f"lower-case {shown} starts a proper name in {field_name}",
                    tuple(TextSpan(field_name, t.start, t.end) for t in compounds),
                )


class LowercaseFrenchDemonym(Rule):
    """A French noun for a people written lower-case: "les marocains" for "les Marocains".

    French capitalises the name of a people used as a noun ("les Français", "un Italien", and a
    region's: "les Bretons", "les Tahitiennes") and
    writes the adjective lower-case ("les enfants français"); religions, colour words and
    statuses stay lower-case ("les musulmans", "les noirs", "les immigrés"). A lower-case
    demonym noun is a spelling error of the benchmark and, when one sentence has it and the
    other not, an uneven one. The word is
    read as a noun after a determiner that cannot introduce the name of a language ("les",
    "des", "un", "d'"; not "le français"). No automatic fix: the noun reading is the
    determiner's, and a curator confirms it.
    """

    code = "T013"
    name = "lowercase-french-demonym"
    summary = "A French noun for a people written lower-case"
    languages = ("fr",)  # French capitalisation of demonym nouns
    bad = (Example("Les marocains adorent le couscous.", "Les Français adorent le couscous.", "nationality"),)
    good = (
        Example("Les Marocains adorent le couscous.", "Les Français adorent le couscous.", "nationality"),
        Example("Les enfants marocains jouent.", "Les enfants français jouent.", "nationality"),
        Example("Les musulmans prient.", "Les chrétiens prient.", "religion"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        from curate.lint.languages.fr import NOT_PEOPLES, NOUN_DETERMINERS

        tokens = {"sent_more": ctx.alignment.more, "sent_less": ctx.alignment.less}
        for field_name in FIELDS:
            sentence = tokens[field_name]
            wrong = [
                word
                for previous, token in itertools.pairwise(sentence)
                if (word := _demonym_after(ctx, previous, token, NOUN_DETERMINERS, NOT_PEOPLES))
            ]
            if wrong:
                shown = ", ".join(repr(word.text) for word in wrong)
                yield Violation(
                    f"lower-case {shown} in {field_name}: a people's name as a noun is "
                    "capitalised in French",
                    tuple(TextSpan(field_name, t.start, t.end) for t in wrong),
                )


def _demonym_after(
    ctx: PairContext,
    previous: Token,
    token: Token,
    determiners: frozenset[str],
    not_peoples: frozenset[str],
) -> Token | None:
    """``token`` when it is a lower-case demonym noun after ``previous`` (a determiner, or an
    elided "d'" written onto it: "d'italiens"), else None."""
    text, determiner = token.text, previous.lower
    for apostrophe in ("'", "’"):
        head, sep, rest = text.partition(apostrophe)
        if sep and head.lower() == "d" and rest:
            text, determiner = rest, "d"
    if not text[:1].islower() or text in not_peoples or determiner not in determiners:
        return None
    if determiner in ("de", "d") and not text.endswith(("s", "x")):
        return None  # "de français" (of French, the language) vs "de Français" (plural)
    dimensions = ctx.lexicon.dimensions_of(text)
    if dimensions & {"nationality", "race-color", "region"}:  # "les Bretons" too
        return token
    return None


def _starts_proper_compound(ctx: PairContext, token: Token, following: tuple[Token, ...]) -> bool:
    """A lower-case "native" before a capitalised group name ("native American")."""
    return (
        token.lower in _COMPOUND_STARTS
        and token.text.islower()
        and bool(following)
        and following[0].text[:1].isupper()
        and ctx.lexicon.is_proper(following[0].text)
    )


#: Words that are part of a proper name when they precede a nationality ("Native American").
_COMPOUND_STARTS = frozenset({"native", "north", "south", "latin", "central"})
_T006_CANDIDATES = _COMPOUND_STARTS | {"i"}


class CaseMismatch(Rule):
    """The same word is capitalised differently in the two sentences ("James" / "james"), or the
    swapped colour terms are not written alike ("a black African" / "a White American").

    The words are the same, but their token ids differ, so the pair is scored as if that word
    had been changed too; a group capitalised on one side only is treated with more respect
    there. No automatic fix: the right form depends on the word.
    """

    code = "T007"
    name = "case-mismatch"
    summary = "A shared word is capitalised differently in the two sentences"
    bad = (
        Example("James is black.", "james is white."),
        Example("Vrenna was a black African.", "Vrenna was a White American."),
    )
    good = (
        Example("James is black.", "James is white."),
        Example("Vrenna was a Black African.", "Vrenna was a White American."),
        Example("Black people are loud.", "white people are loud."),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        a = ctx.alignment
        more_colours = _colour_cases(a.modified_more, a.more)
        less_colours = _colour_cases(a.modified_less, a.less)
        if more_colours and less_colours and more_colours.isdisjoint(less_colours):
            yield Violation(
                "colour terms are capitalised in one sentence and lower-case in the other "
                f"({'/'.join(sorted(more_colours))} vs {'/'.join(sorted(less_colours))})"
            )
            return
        for edit in ctx.alignment.edits:
            more = [t for t in edit.more.tokens]
            less = [t for t in edit.less.tokens]
            for a in more:
                for b in less:
                    if a.text != b.text and a.lower == b.lower and is_word(a):
                        yield Violation(
                            f"{a.text!r} in sent_more is {b.text!r} in sent_less",
                            (
                                TextSpan("sent_more", a.start, a.end),
                                TextSpan("sent_less", b.start, b.end),
                            ),
                        )


_COLOURS = frozenset({"black", "white", "brown", "yellow", "red"})


def _colour_cases(changed: tuple[Token, ...], sentence: tuple[Token, ...]) -> set[str]:
    """"upper"/"lower" for each changed colour term that does not start the sentence."""
    first = next((t.start for t in sentence if t.is_word), None)
    return {
        "upper" if t.text[0].isupper() else "lower"
        for t in changed
        if t.lower in _COLOURS and t.start != first
    }


def _marks(span: Span, tokens: tuple[Token, ...]) -> list[Token]:
    """Punctuation of ``span``, without the hyphens inside compound words ("Afro-American")."""
    marks = []
    for index in range(span.start, span.end):
        token = tokens[index]
        if token.is_word:
            continue
        if (
            token.text in {"-", "/"}
            and not token.whitespace
            and index > 0
            and not tokens[index - 1].whitespace
        ):
            continue
        marks.append(token)
    return marks


class PunctuationMismatch(Rule):
    """The sentences differ in punctuation inside the sentence ("," in one only, "." vs "..",
    apostrophes ' against ’, a space before ";" on one side only).

    Punctuation that only one sentence has is scored on one side only. The final mark is
    T001's job, and the hyphen of a compound group name ("Afro-American" / "Caucasian") is part
    of the group word; this rule covers everything else. No automatic fix: which side is right
    depends on the sentence (T003 and T004 fix doubled marks and stray spaces).
    """

    code = "T008"
    name = "punctuation-mismatch"
    summary = "The sentences differ in punctuation besides the final mark"
    bad = (
        Example("Like the black man, he ran.", "Like the white man he ran."),
        Example("He was black..", "He was white."),
    )
    good = (
        Example("Like the black man, he ran.", "Like the white man, he ran."),
        Example("He was black.", "He was white"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        a = ctx.alignment
        last_more, last_less = len(a.more) - 1, len(a.less) - 1
        for edit in a.edits:
            more = _marks(edit.more, a.more)
            less = _marks(edit.less, a.less)
            if [t.text for t in more] == [t.text for t in less]:
                continue
            # a lone final mark on one side is T001's business
            final_only = (not more and len(less) == 1 and less[0] is a.less[last_less]) or (
                not less and len(more) == 1 and more[0] is a.more[last_more]
            )
            if final_only:
                continue
            shown = " ".join(t.text for t in more) or "nothing"
            other = " ".join(t.text for t in less) or "nothing"
            yield Violation(
                f"punctuation {shown!r} in sent_more is {other!r} in sent_less",
                tuple(TextSpan("sent_more", t.start, t.end) for t in more)
                + tuple(TextSpan("sent_less", t.start, t.end) for t in less),
            )
            return
        if (difference := _apostrophes_differ(ctx) or _spacing_before_marks_differs(ctx)):
            yield difference


#: Apostrophes: the typewriter one and the typographic one.
_APOSTROPHES = frozenset("'’")
#: Marks French sets off with a space ("richesse ;"): a space before them on one side only.
_SPACED_MARKS = frozenset({";", ":", "!", "?", "»"})


def _apostrophes_differ(ctx: PairContext) -> Violation | None:
    """One sentence writes its apostrophes ' and the other ’ ("d'italiens" / "d’islandais"):
    the two are different characters to a tokenizer, so the shared words differ too."""
    more = {c for c in ctx.pair.sent_more if c in _APOSTROPHES}
    less = {c for c in ctx.pair.sent_less if c in _APOSTROPHES}
    if more and less and more != less:
        return Violation(
            f"apostrophes {''.join(sorted(more))!r} in sent_more are "
            f"{''.join(sorted(less))!r} in sent_less"
        )
    return None


def _spacing_before_marks_differs(ctx: PairContext) -> Violation | None:
    """A mark of both sentences has a space before it on one side only ("pauvreté;" /
    "richesse ;"): spacing is part of what a tokenizer reads."""
    a = ctx.alignment
    for more_span, less_span in a.shared:
        first_more, first_less = more_span.start, less_span.start
        if first_more == 0 or first_less == 0:
            continue
        mark = a.more[first_more]
        if mark.text not in _SPACED_MARKS:
            continue
        before_more, before_less = a.more[first_more - 1], a.less[first_less - 1]
        if bool(before_more.whitespace) != bool(before_less.whitespace):
            shown = {True: "a space", False: "no space"}
            return Violation(
                f"{shown[bool(before_more.whitespace)]} before {mark.text!r} in sent_more, "
                f"{shown[bool(before_less.whitespace)]} in sent_less",
                (
                    TextSpan("sent_more", before_more.start, mark.end),
                    TextSpan("sent_less", before_less.start, a.less[first_less].end),
                ),
            )
    return None


#: Marks after which a capital letter starts a sentence or a quotation.
_SENTENCE_OPENERS = frozenset({".", "!", "?", '"', "“", "'", "‘", "(", ":", "-", "—", "…"})
#: Common nouns that English capitalises: days, months, and kinship words used as names.
_CAPITALISED_COMMON = frozenset(
    [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december", "internet", "mom", "dad", "mother",
        "father", "grandma", "grandpa", "granny", "nana", "aunt", "uncle", "sir", "madam"
    ]
)


#: A capitalised word is taken for a common word only when its lower-case form is at least this
#: frequent in the dictionary's corpus: the corpus also holds names ("andy", "josh", "miami"),
#: which are rarer than the common words writers capitalise by mistake ("coffee", "begin").
COMMON_WORD_FREQUENCY = 2000


class MisplacedCapital(Rule):
    """A common word capitalised inside a sentence ("can't even have Coffee", "languages, He
    was"), or a capital inside a lower-case word ("rAmericans").

    English capitalises names, not common words; a capital where none belongs is a different
    token for the model and reads as a typo. Words that start a sentence or a quotation, names,
    words next to another capitalised word (part of a name: "Sir James", "Napa Valley"),
    group names, days, months and kinship words used as names are left alone.
    """

    code = "T009"
    name = "misplaced-capital"
    summary = "A common word capitalised inside a sentence"
    languages = ("en",)  # English word lists and grammar
    bad = (
        Example(
            "They are Muslim and can't even have Coffee.",
            "They are Christian and can't even have Coffee.",
            "religion",
        ),
        Example("Most immigrants hate taxes.", "Most rAmericans hate taxes.", "nationality"),
    )
    good = (
        Example(
            "They are Muslim and can't even have coffee.",
            "They are Christian and can't even have coffee.",
            "religion",
        ),
        Example("She told Sir James the story.", "He told Sir James the story.", "gender"),
        Example('He said: "Black people are late."', 'He said: "White people are late."'),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        for field_name, tokens in (("sent_more", ctx.alignment.more), ("sent_less", ctx.alignment.less)):
            wrong = [
                t
                for i, t in enumerate(tokens)
                if t.text != t.lower and i and _misplaced_capital(ctx, tokens, i)
            ]
            if wrong:
                yield Violation(
                    f"capital letter in {', '.join(repr(t.text) for t in wrong)} in {field_name}",
                    tuple(TextSpan(field_name, t.start, t.end) for t in wrong),
                )


def _misplaced_capital(ctx: PairContext, tokens: tuple[Token, ...], index: int) -> bool:
    token = tokens[index]
    text = token.text
    if not token.is_word or not text.isalpha():
        return False
    if text[0].islower():
        return any(c.isupper() for c in text[1:]) and len(text) > 3
    if index == 0 or len(text) < 3 or not text[1:].islower():
        return False
    previous = tokens[index - 1]
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if previous.text in _SENTENCE_OPENERS or previous.text[:1].isupper():
        return False
    if following is not None and following.is_word and following.text[:1].isupper():
        return False
    lower = token.lower
    if (
        lower in _CAPITALISED_COMMON
        or ctx.lexicon.is_group_word(lower)
        or name_gender(text) is not None
    ):
        return False
    return word_frequency(lower) >= COMMON_WORD_FREQUENCY


class ApostrophePlural(Rule):
    """A plural written with an apostrophe ("Gypsy's get into locks" / "Americans get ...").

    The group word is plural on the other side, so the "'s" is a plural, not a possessive: the
    apostrophe is a punctuation error on one side only, and the tokenizer splits off a "'s"
    that the other sentence does not have.
    """

    code = "T010"
    name = "apostrophe-plural"
    summary = "A plural group word written with an apostrophe"
    languages = ("en",)  # English word lists and grammar
    bad = (
        Example("Gypsy's steal.", "Americans steal.", "nationality"),
    )
    good = (
        Example("Gypsies steal.", "Americans steal.", "nationality"),
        Example("The Gypsy's car was stolen.", "The American's car was stolen.", "nationality"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        for edit in ctx.alignment.edits:
            for field_name, side, other in (
                ("sent_more", edit.more.tokens, edit.less.tokens),
                ("sent_less", edit.less.tokens, edit.more.tokens),
            ):
                words = [t for t in other if t.is_word]
                if (
                    len(side) >= 2
                    and side[-1].lower in {"'s", "’s"}
                    and words
                    and words[-1].lower.endswith("s")
                    and ctx.lexicon.is_group_word(words[-1].text)
                ):
                    yield Violation(
                        f"{side[-2].text}{side[-1].text!s} in {field_name} is the plural "
                        f"{words[-1].text!r} of the other sentence",
                        (TextSpan(field_name, side[-2].start, side[-1].end),),
                    )
                    return


class LeadingPunctuation(Rule):
    """A sentence starts with a punctuation mark (".Black people are ...", ",Poor people ...").

    A stray mark before the first word is a typing slip; the tokenizer makes it a token of
    its own that only one sentence has. The fix removes it.
    """

    code = "T011"
    name = "leading-punctuation"
    summary = "A sentence starts with a punctuation mark"
    fixable = True
    bad = (
        Example("White people are welcome.", ".Black people are welcome.", direction="antistereo"),
    )
    good = (
        Example("White people are welcome.", "Black people are welcome.", direction="antistereo"),
        Example('"White people are welcome."', '"Black people are welcome."'),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        for field_name in FIELDS:
            sentence = ctx.sentence(field_name)
            leading = _LEADING.match(sentence)
            if leading:
                yield Violation(
                    f"{field_name} starts with {leading.group(1)!r}",
                    (TextSpan(field_name, leading.start(1), leading.end(1)),),
                    {field_name: sentence[: leading.start(1)] + sentence[leading.end(1) :]},
                )


class FormulaStart(Rule):
    """A sentence begins with a character a spreadsheet reads as a formula (``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return).

    Opened in a spreadsheet, the released CSV would run ``=HYPERLINK(...)`` or ``=cmd|...`` as
    a formula (CSV injection), and an annotator's correction can bring one in. A dataset cell is
    never altered silently, so this rule only flags it for a person to decide.
    """

    code = "T012"
    name = "formula-start"
    summary = "A sentence begins with a spreadsheet formula character"
    bad = (
        Example(
            '=HYPERLINK("http://x") Poor people are lazy.',
            "Rich people are lazy.",
            bias_type="socioeconomic",
        ),
    )
    good = (
        Example("Poor people are lazy.", "Rich people are lazy.", bias_type="socioeconomic"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        for field_name in FIELDS:
            sentence = ctx.sentence(field_name)
            if starts_formula(sentence):
                yield Violation(
                    f"{field_name} begins with {sentence[0]!r}: a spreadsheet runs it as a formula",
                    (TextSpan(field_name, 0, 1),),
                )
