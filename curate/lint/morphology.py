"""Lemmas and word classes for the French and Dutch group rules, from the field's own tools.

In a gendered language a group swap moves agreement with it: "Il était respecté" / "Elle
était respectée", "mijn vrienden" / "mijn vriendinnen". Comparing surface words took the
agreed form for the swapped group (S005 said "respectée names no group") or for an extra
change (P006). Two words that share a lemma are one word in two inflections; the lemmas come
from Hunspell's analysis (the stem its affix rules derive the word from: both forms of
"respecter") and from simplemma's lemma lists (fr, nl), since each misses forms the other has.

Whether a word the group lexicon lacks may name people is read from the French Hunspell
dictionary's morphology (Dicollecte writes ``po:`` word classes and ``is:`` genders): an
adjective, an epicene noun ("propriétaire", "scandinave", "clown") or a noun inflected for both
genders ("balayeur"/"balayeuse", "citadin"/"citadine"), and a past participle ("fauchée"), can
describe or name a person; a noun of one fixed gender ("chariot", "manoir", "ville") names a
thing. The Dutch dictionary (OpenTaal) has no such fields: its adjective flags (``A..``) mark
adjectives, and Dutch person nouns are told by their suffixes.
"""

from __future__ import annotations

import functools

from curate.lint import hunspell

#: Dutch endings of nouns for people (agents "loodgieter", "kassier", "werknemer"; women
#: "vriendin"; compounds of "man", "vrouw", "baas"), with their plurals. "-er" also ends some
#: things ("computer", "kamer"): such a word is then taken as possibly naming people, so the
#: rule stays silent rather than wrong.
DUTCH_PERSON_SUFFIXES = (
    "er", "ers", "aar", "aars", "ier", "iers", "ist", "isten", "iaan", "ianen", "ling",
    "lingen", "ant", "anten", "ent", "enten", "in", "innen", "ster", "sters", "man", "mannen",
    "lui", "lieden", "vrouw", "vrouwen", "baas", "bazen", "genoot", "genoten",
)
_MIN_STEM = 3


def without_elision(word: str, language: str) -> str:
    """``word`` without an elided clitic in front ("d’islandais" -> "islandais", French)."""
    from curate.lint.languages import LANGUAGES

    if language not in LANGUAGES:
        return word
    head, apostrophe, tail = word.replace("’", "'").partition("'")
    return tail if apostrophe and tail and head in LANGUAGES[language].elisions else word


def _simplemma_lemma(word: str, language: str) -> str:
    import simplemma

    try:
        return simplemma.lemmatize(word, lang=language)
    except (ValueError, KeyError):  # a language simplemma lacks: the word is its own lemma
        return word


@functools.lru_cache(maxsize=65536)
def lemmas(word: str, language: str) -> frozenset[str]:
    """The lower-case word, its simplemma lemma (and that lemma's), and Hunspell's stems."""
    lower = word.lower()
    first = _simplemma_lemma(lower, language)
    found = {lower, first, _simplemma_lemma(first, language)}
    found.update(stem.lower() for stem, _ in hunspell.analyses(lower, language))
    return frozenset(found)


def agree(a: str, b: str, language: str) -> bool:
    """Whether ``a`` and ``b`` are inflections of one word (they share a lemma)."""
    return a.lower() == b.lower() or bool(lemmas(a, language) & lemmas(b, language))


_PARTICIPLE_ENDINGS = (
    "é", "ée", "és", "ées", "i", "ie", "is", "ies", "u", "ue", "us", "ues",
)


def _french_agreeing_class(word: str) -> bool:
    """A French word that agrees in gender and number: an adjective or noun reading, or a
    verb form with a participle's ending ("respectée"); a finite verb ("sortit", "courrait")
    does not, so a tense changed beside the swap stays a change."""
    for _, data in hunspell.analyses(word, "fr"):
        classes = data.get("po", [])
        if "adj" in classes or "nom" in classes:
            return True
        if any(c.startswith("v") for c in classes) and word.endswith(_PARTICIPLE_ENDINGS):
            return True
    return False


def _dutch_agreeing_class(word: str) -> bool:
    """A Dutch adjective (OpenTaal's ``A..`` flags), the only class that agrees ("grote")."""
    lemma = _simplemma_lemma(word, "nl")
    return any(
        any(flag.startswith("A") for flag in fields.get("flags", []))
        for candidate in {word, lemma}
        for _, fields in hunspell.analyses(candidate, "nl")
    )


#: Dutch suffixes that make a woman's noun from a man's ("vriend" / "vriendin",
#: "medewerker" / "medewerkster"): the pair is one word swapped with the gender.
_DUTCH_FEMININE = (("", "in"), ("", "e"), ("er", "ster"), ("", "es"))


def agreement(a: str, b: str, language: str) -> bool:
    """Whether ``a`` and ``b`` differ only by the agreement a gender or number swap moves:
    one lemma, and a word class that agrees (French adjectives, nouns and participles; Dutch
    adjectives), or (Dutch) a woman's noun formed from the man's. Unlike :func:`agree`, a verb
    in another tense is not agreement."""
    a, b = a.lower(), b.lower()
    if a == b:
        return True
    if language == "fr":
        return agree(a, b, "fr") and _french_agreeing_class(a) and _french_agreeing_class(b)
    if language == "nl":
        la, lb = lemmas(a, "nl"), lemmas(b, "nl")
        for x, y in ((la, lb), (lb, la)):
            if any(w[: len(w) - len(m)] + f in y for w in x for m, f in _DUTCH_FEMININE
                   if w.endswith(m)):
                return True
        return bool(la & lb) and _dutch_agreeing_class(a) and _dutch_agreeing_class(b)
    return False


def _french_may_name_people(word: str) -> bool | None:
    readings = hunspell.analyses(word, "fr")
    if not readings:
        return None
    for _, data in readings:
        classes = data.get("po", [])
        genders = data.get("is", [])
        if "nb" in classes:
            continue  # a number ("cinq") is epicene, yet no person
        if "adj" in classes or "epi" in genders:
            return True
        if "nom" in classes and not ({"mas", "fem"} & set(genders)):
            return True  # a noun inflected for both genders: a person's
        if any(c.startswith("v") for c in classes) and word.endswith(_PARTICIPLE_ENDINGS):
            return True  # a past participle, as an adjective of a person ("fauchée")
    return False


def _dutch_may_name_people(word: str) -> bool | None:
    if any(
        word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM
        for suffix in DUTCH_PERSON_SUFFIXES
    ):
        return True
    readings = hunspell.analyses(word, "nl")
    if not readings:
        lemma = _simplemma_lemma(word, "nl")  # an inflected adjective ("kreupele")
        readings = hunspell.analyses(lemma, "nl") if lemma != word else ()
    if not readings:
        return None
    return any(
        any(flag.startswith("A") for flag in fields.get("flags", [])) for _, fields in readings
    )


@functools.lru_cache(maxsize=65536)
def may_name_people(word: str, language: str) -> bool | None:
    """Whether ``word`` (lower-case) can name or describe a person in ``language``, by its
    dictionary word class; None when the dictionary does not know it or the language has no
    reading here (the caller keeps its own verdict)."""
    if language == "fr":
        return _french_may_name_people(word)
    if language == "nl":
        return _dutch_may_name_people(word)
    return None
