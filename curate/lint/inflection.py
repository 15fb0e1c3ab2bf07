"""Dutch adjective inflection, read from the Dutch Hunspell dictionary (OpenTaal, ``hunspell-nl``).

A Dutch adjective before a noun takes ``-e`` ("de grote man", "een Frans gezin" but "het Franse
gezin"): whether it does is set by the noun's gender, its number and the determiner, never by
the adjective. Two adjectives swapped in the same place of two sentences that differ nowhere
else must therefore carry the same ending; "het lange nieuwe meisje" / "het kort nieuwe meisje"
has broken it in one sentence. An adjective is a word with OpenTaal's adjective flags (``A..``)
or its language-name flag (``Ll``: "Nederlands", "Koreaans" are the adjectives of nationality
too); its ``-e`` form follows Dutch spelling (a doubled consonant "dik"/"dikke", a single vowel
"groot"/"grote", f/v and s/z "braaf"/"brave", "boos"/"boze").
"""

from __future__ import annotations

import functools
from typing import Literal

from curate.lint import compounds, hunspell, morphology

#: Flags of an adjective in OpenTaal: adjective classes, and the language names that are
#: also the adjectives of a nationality.
_ADJECTIVE_FLAG_PREFIX = "A"
_LANGUAGE_NAME_FLAG = "Ll"
_LONG_VOWELS = "aeou"
_VOICED = {"f": "v", "s": "z"}

Inflection = Literal["inflected", "bare"]


@functools.lru_cache(maxsize=65536)
def is_adjective(word: str) -> bool:
    """The dictionary reads ``word`` itself (not as an inflection) as an adjective."""
    return any(
        stem == word
        and any(f.startswith(_ADJECTIVE_FLAG_PREFIX) or f == _LANGUAGE_NAME_FLAG for f in fields.get("flags", []))
        for stem, fields in hunspell.analyses(word, "nl")
    )


@functools.lru_cache(maxsize=65536)
def is_people_adjective(word: str) -> bool:
    """``word`` is the adjective of a people and the name of its language ("Noors",
    "Chinees"), whose plural noun of people is a word of its own ("Noren", "Chinezen")."""
    return any(
        stem == word and _LANGUAGE_NAME_FLAG in fields.get("flags", [])
        for stem, fields in hunspell.analyses(word, "nl")
    )


def e_forms(word: str) -> frozenset[str]:
    """The spellings the ``-e`` form of a bare adjective can take."""
    forms = {word + "e", word + word[-1:] + "e"}
    long_vowel = len(word) > 2 and word[-2] == word[-3] and word[-2] in _LONG_VOWELS
    if long_vowel:  # groot -> grote
        forms.add(word[:-2] + word[-1] + "e")
    if word[-1:] in _VOICED:  # braaf -> brave, boos -> boze, vies -> vieze
        voiced = _VOICED[word[-1]] + "e"
        forms.add(word[:-1] + voiced)
        if long_vowel:
            forms.add(word[:-2] + voiced)
    return frozenset(forms)


@functools.lru_cache(maxsize=65536)
def inflection(word: str) -> Inflection | None:
    """``"inflected"`` for the ``-e`` form of an adjective ("lange", "Nederlandse"), ``"bare"``
    for an adjective without it that has one ("kort", "Chinees"), None otherwise (no
    adjective, or one that never inflects: "gouden", "oranje", "gay")."""
    if word.endswith("e"):
        candidates = {word[:-1], *morphology.lemmas(word, "nl")}
        if len(word) > 3 and word[-2] == word[-3]:
            candidates.add(word[:-2])
        for base in candidates:
            if base and not base.endswith("e") and word in e_forms(base) and is_adjective(base):
                return "inflected"
        return None
    if word.endswith("en") or not is_adjective(word):
        return None
    if any(hunspell.knows(form, "nl") for form in e_forms(word)):
        return "bare"
    return None


@functools.lru_cache(maxsize=65536)
def noun_of_adjective(word: str) -> str | None:
    """The plural noun of people the dictionary makes of an adjective ("volwassen" ->
    "volwassenen", "ziek" -> "zieken": its ``-e`` form listed as a noun, "de volwassene"), or
    None for a word that is no adjective or has no such noun."""
    if not is_adjective(word):
        return None
    for e_form in sorted(e_forms(word)):
        readings = hunspell.analyses(e_form, "nl")
        inflects = any(stem == word for stem, _ in readings)  # "grootte" is no form of "groot"
        listed_as_noun = any(
            stem == e_form and compounds.is_noun_reading(fields.get("flags", []))
            for stem, fields in readings
        )
        if inflects and listed_as_noun and hunspell.knows(e_form + "n", "nl"):
            return e_form + "n"
    return None
