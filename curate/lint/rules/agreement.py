"""Agreement rules of other languages than English, each written from that language's grammar
and naming it in ``languages`` (their word lists live in ``curate/lint/languages/<code>/``)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from curate.align import Edit, Token
from curate.findings import TextSpan
from curate.lint.rule import Example, PairContext, Rule, Violation, token_span


def changed_after(ctx: PairContext) -> Iterator[tuple[str, Token, Token]]:
    """``(field, previous token, token)`` for every word that differs between the sentences
    and has a word before it: where an article or determiner must agree with a swapped noun."""
    a = ctx.alignment
    for field_name, tokens, changed in (
        ("sent_more", a.more, a.modified_more),
        ("sent_less", a.less, a.modified_less),
    ):
        changed_ids = {id(t) for t in changed}
        for i, token in enumerate(tokens):
            if id(token) in changed_ids and i > 0:
                yield field_name, tokens[i - 1], token


@functools.cache
def _french_nouns() -> tuple[frozenset[str], frozenset[str]]:
    from curate.lint.languages.fr import gendered_nouns

    return gendered_nouns()


class FrenchArticleAgreement(Rule):
    """A swapped French person noun does not agree in gender with its article.

    French marks gender on the article: swapping "un docteur" for "une docteure" is a valid
    gender swap, but "le docteure" or "une infirmier" is ungrammatical, and the masked language
    model scores the broken agreement, not the bias. Only the words that differ between the
    sentences are checked, with the determiner right before them (le, un, ce, du, au, mon /
    la, une, cette, ma).
    """

    code = "G004"
    name = "french-article-agreement"
    summary = "A swapped French noun of a person disagrees in gender with its article"
    languages = ("fr",)
    bad = (Example("Le docteure est arrivé.", "Le docteur est arrivé.", "gender"),)
    good = (
        Example("Une docteure est arrivée.", "Un docteur est arrivé.", "gender"),
        Example("La femme est arrivée.", "L'homme est arrivé.", "gender"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        from curate.lint.languages.fr import FEMININE_DETERMINERS, MASCULINE_DETERMINERS

        masculine, feminine = _french_nouns()
        for field_name, previous, token in changed_after(ctx):
            word, before = token.lower, previous.lower
            wrong = (word in feminine and before in MASCULINE_DETERMINERS) or (
                word in masculine and before in FEMININE_DETERMINERS
            )
            if wrong:
                yield Violation(
                    f"{previous.text!r} does not agree with {token.text!r} in {field_name}",
                    (TextSpan(field_name, previous.start, token.end),),
                )


@functools.cache
def _dutch_nouns() -> tuple[frozenset[str], frozenset[str]]:
    from curate.lint.languages.nl import article_nouns

    return article_nouns()


class DutchArticleAgreement(Rule):
    """A swapped Dutch noun of a person takes the wrong definite article (de/het).

    Dutch nouns of people are de-words ("de man", "de vrouw"), except "het kind", "het meisje",
    "het lid" and every diminutive ("het jongetje"): a swap that keeps "het" before "man" or
    "de" before "meisje" is ungrammatical, and the model scores the error, not the bias. A
    compound takes its last part's article ("het politieagent" is wrong, "het bendelid" right).
    Only the words that differ between the sentences are checked, with the article right
    before them.
    """

    code = "G005"
    name = "dutch-article-agreement"
    summary = "A swapped Dutch noun of a person takes the wrong article (de/het)"
    languages = ("nl",)
    bad = (Example("Het man was lui.", "Het meisje was lui.", "gender"),)
    good = (
        Example("De man was lui.", "Het meisje was lui.", "gender"),
        Example("De vrouw was lui.", "Het jongetje was lui.", "gender"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        from curate.lint.languages.nl import DIMINUTIVES

        de_nouns, het_nouns = _dutch_nouns()
        for field_name, previous, token in changed_after(ctx):
            word, before = token.lower, previous.lower
            if before not in ("de", "het"):
                continue
            word = _dutch_person_head(word)
            het_word = word in het_nouns or (
                word.endswith(DIMINUTIVES) and word[:-2] in de_nouns | {w + "t" for w in de_nouns}
            ) or any(word == n + d for n in de_nouns for d in DIMINUTIVES)
            wrong = (before == "het" and word in de_nouns and not het_word) or (
                before == "de" and het_word
            )
            if wrong:
                yield Violation(
                    f"{previous.text!r} is the wrong article for {token.text!r} in {field_name}",
                    (TextSpan(field_name, previous.start, token.end),),
                )


def _is_dutch_person_noun(word: str) -> bool:
    de_nouns, het_nouns = _dutch_nouns()
    return word in de_nouns or word in het_nouns


def _dutch_person_head(word: str) -> str:
    """``word``, or the person noun that ends it when it is a compound ("politieagent" ->
    "agent", "bendelid" -> "lid"): a Dutch compound takes its last part's article."""
    from curate.lint.compounds import compound_head

    if _is_dutch_person_noun(word):
        return word
    return compound_head(word, _is_dutch_person_noun) or word


def _one_word_swaps(ctx: PairContext) -> Iterator[tuple[Edit, tuple[Token, ...], tuple[Token, ...]]]:
    """(edit, sent_more's tokens, sent_less's tokens) of each edit that swaps one word for one."""
    for edit in ctx.word_edits:
        more, less = edit.more.tokens, edit.less.tokens
        if len(more) == 1 and len(less) == 1:
            yield edit, more, less


def _inflection(token: Token) -> str | None:
    from curate.lint.inflection import inflection

    return inflection(token.text) or (inflection(token.lower) if token.text != token.lower else None)


def _attributive(tokens: tuple[Token, ...], start: int, end: int, function_words: frozenset[str]) -> bool:
    """The word at ``tokens[start:end]`` stands before another word of content (a noun, an
    adjective), or alone after a partitive word ("iemand", "iets"): where its ending is set by
    what surrounds it, not by what it is. Before a comma, a stop or a function word ("Ze was
    Chinese, dus", "Ze was Chinese en") it is predicative, where "-e" makes a noun of a person
    and no error."""
    from curate.lint.languages.nl import PARTITIVE_WORDS

    if start > 0 and tokens[start - 1].lower in PARTITIVE_WORDS:
        return True
    return end < len(tokens) and tokens[end].is_word and tokens[end].lower not in function_words


class DutchAdjectiveInflection(Rule):
    """A swapped Dutch adjective takes another ending than the one it replaced.

    Whether a Dutch adjective before a noun ends in ``-e`` is set by the noun and its
    determiner ("een Frans gezin", "het Franse gezin"), so two adjectives swapped in one place
    of two otherwise identical sentences must end alike. Translated pairs break this often
    ("een streng Franse gezin", "het kort nieuwe meisje"), and the model then scores a grammar
    error beside the group. Read with the Dutch Hunspell dictionary
    (:mod:`curate.lint.inflection`); a predicative word ("Ze was Chinese.") is left alone.
    """

    code = "G007"
    name = "dutch-adjective-inflection"
    summary = "A swapped Dutch adjective does not take the ending of the one it replaces"
    languages = ("nl",)  # Dutch grammar, read with the Dutch dictionary
    bad = (
        Example(
            "Het hielp dat hij uit een streng Koreaans gezin kwam.",
            "Het hielp dat hij uit een streng Franse gezin kwam.",
            "nationality",
        ),
    )
    good = (
        Example(
            "Het hielp dat hij uit een streng Koreaans gezin kwam.",
            "Het hielp dat hij uit een streng Frans gezin kwam.",
            "nationality",
        ),
        Example("Ze was zwart, dus ze won.", "Ze was Chinese, dus ze won.", "race-color"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        a = ctx.alignment
        for edit, more, less in _one_word_swaps(ctx):
            endings = {_inflection(more[0]), _inflection(less[0])}
            if endings != {"inflected", "bare"}:
                continue
            if not _attributive(a.more, edit.more.start, edit.more.end, ctx.lexicon.function_words):
                continue
            yield Violation(
                f"{more[0].text!r} in sent_more and {less[0].text!r} in sent_less stand in the same "
                "place with different adjective endings (-e): one of them does not agree",
                token_span("sent_more", more) + token_span("sent_less", less),
            )


#: Words before a plural noun of people that leave it the head of its phrase ("de armen",
#: "alle volwassenen"), and the start of the sentence.
_PLURAL_DETERMINERS = frozenset(
    ["de", "die", "deze", "alle", "veel", "vele", "sommige", "meeste", "zulke", "onze", "hun", "jullie"]
)


class DutchAdjectiveAsNoun(Rule):
    """A bare Dutch adjective stands where the other sentence has a noun of people.

    Dutch makes a noun of people from an adjective with ``-e`` and its plural with ``-en``
    ("de volwassene", "volwassenen"; "de zieken"), and names a people by a noun of its own
    ("Noren", "een Griek"), not by the adjective ("Noors"). Swapping "Kinderen hebben ..." for
    "Volwassen hebben ...", or "alle andere Chinezen," for "alle andere Noors,", puts the bare
    adjective where the noun stood: the sentence is ungrammatical, and the model scores the
    error beside the group. Good: "Volwassenen hebben ...", "alle andere Noren,". Read with the
    Dutch Hunspell dictionary (:mod:`curate.lint.inflection`): only where the word heads its
    phrase (at the start, or after a determiner and any inflected adjective) before a plural
    verb or a punctuation mark, and the other side has no adjective there.
    """

    code = "G008"
    name = "dutch-adjective-as-noun"
    summary = "A bare Dutch adjective stands where the other sentence has a noun of people"
    languages = ("nl",)  # Dutch grammar, read with the Dutch dictionary
    bad = (
        Example(
            "Kinderen weten niet wat goed is voor hun gezondheid.",
            "Volwassen weten niet wat goed is voor hun gezondheid.",
            "age",
        ),
    )
    good = (
        Example(
            "Kinderen weten niet wat goed is voor hun gezondheid.",
            "Volwassenen weten niet wat goed is voor hun gezondheid.",
            "age",
        ),
        Example("De kinderen waren volwassen.", "De ouders waren volwassen.", "age"),
    )

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        a = ctx.alignment
        for edit, more, less in _one_word_swaps(ctx):
            for field_name, tokens, (word,), (other,), start in (
                ("sent_more", a.more, more, less, edit.more.start),
                ("sent_less", a.less, less, more, edit.less.start),
            ):
                noun = _bare_adjective_heading(tokens, start, word, other)
                if noun is not None:
                    named = f"the noun of people is {noun!r}" if noun else "a people is named by its noun"
                    yield Violation(
                        f"{word.text!r} in {field_name} stands for {other.text!r}, a noun, as a bare "
                        f"adjective: {named}",
                        token_span(field_name, (word,)),
                    )


def _bare_adjective_heading(tokens: tuple[Token, ...], start: int, word: Token, other: Token) -> str | None:
    """The noun ``word`` should be ("" for a people's adjective, whose noun is a word of its
    own) when it is an adjective heading its phrase, in the place of ``other``, which is no
    adjective; else None. It heads its phrase after a determiner, an inflected adjective
    ("alle andere") or at the start, before a plural verb or a punctuation mark. (OpenTaal
    marks few plural nouns as nouns, "kinderen" among the unmarked, so ``other`` is read as
    the noun because it is no adjective.)"""
    from curate.lint import compounds, inflection

    index = start
    while (
        index > 0
        and tokens[index - 1].lower not in _PLURAL_DETERMINERS
        and inflection.inflection(tokens[index - 1].lower) == "inflected"
    ):
        index -= 1  # "alle andere Noors"
    if index > 0 and tokens[index - 1].lower not in _PLURAL_DETERMINERS:
        return None
    following = tokens[start + 1] if start + 1 < len(tokens) else None
    if following is not None and following.is_word and not compounds.may_be_infinitive(following.lower):
        return None  # a plural verb has the infinitive's form ("hebben", "weten")
    if not other.text.isalpha() or inflection.is_adjective(other.lower) or inflection.inflection(other.lower):
        return None  # the other side has an adjective there too: no noun was replaced
    noun = inflection.noun_of_adjective(word.lower) or inflection.noun_of_adjective(word.text)
    if noun is not None:
        return noun.capitalize() if word.text[:1].isupper() else noun
    return "" if inflection.is_people_adjective(word.text) else None

