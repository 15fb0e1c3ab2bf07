"""Dutch compounds written as two words ("maffia leden" for *maffialeden*), read with the
Hunspell dictionary's word classes and compounding (OpenTaal's ``hunspell-nl``).

Dutch writes a noun that qualifies another noun as one word with it; writing them apart after
English ("tiener crimineel", "jurk maat") is the commonest spelling error of translated Dutch,
and every word of it is in the dictionary, so W001/W002 cannot see it. Two adjacent words are
read as a split compound when the first is a singular noun and nothing else (no adjective,
verb or function word, no first name, no word for a measure such as "stuk" or "paar"), the
second can be a noun, and the dictionary accepts the two written together. The first word's
class is what keeps a noun phrase apart: "veel geld", "grote kerk", "blanken sigaretten
(gaven)" are two words.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable

from curate.lint import hunspell, morphology

#: Nouns of measure and quantity that stand before a noun without forming a compound ("een
#: stuk brood", "een paar schoenen", "een doos koekjes").
MEASURE_NOUNS = frozenset(
    {
        *("stuk", "doos", "paar", "bord", "kopje", "glas", "fles", "zak", "kilo", "liter"),
        *("stel", "groep", "aantal", "soort", "beetje", "emmer", "blik", "pak", "schaal", "kom"),
        *("krat", "hoop", "rij", "reeks", "serie", "bos", "bundel", "kop", "pot", "mand"),
        *("plak", "snee", "schep", "portie", "deel", "helft", "massa", "menigte", "boel"),
    }
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
#: Parts shorter than this are not read (abbreviations, "de", "ze").
MIN_PART = 3


def _flags(word: str) -> list[list[str]]:
    return [fields.get("flags", []) for _, fields in hunspell.analyses(word, "nl")]


def is_noun_reading(flags: list[str]) -> bool:
    """One reading's OpenTaal flags mark a noun: its plural (Z flags; Zm is an adjective's) or
    its diminutive (Y flags, ``-tje``: "kind", "geld" have no Z flag)."""
    return any((f.startswith("Z") and f != "Zm") or f.startswith("Y") for f in flags)


def _is_other_reading(flags: list[str]) -> bool:
    # A.. adjectives, V.. and P.. verb forms
    return any(f[:1] in ("A", "V", "P") for f in flags)


@functools.lru_cache(maxsize=65536)
def singular_noun_only(word: str) -> bool:
    """Every reading of ``word`` is a noun and nothing else, and the dictionary derives it from
    itself: no plural ("blanken" is "blank" inflected). The dictionary's stems decide, not a
    lemma list's guess ("moslim" is no form of "moslima")."""
    readings = hunspell.analyses(word, "nl")
    flags = [fields.get("flags", []) for _, fields in readings]
    if not readings or not all(_noun_by_compounding(f) and not _is_other_reading(f) for f in flags):
        return False
    return all(stem.lower() == word for stem, _ in readings)


def _noun_by_compounding(flags: list[str]) -> bool:
    """A noun reading, or one that may end a compound and is nothing else ("wiskunde",
    "politie": OpenTaal gives nouns without plural or diminutive only compounding flags)."""
    return is_noun_reading(flags) or "Cc" in flags


@functools.lru_cache(maxsize=65536)
def may_be_noun(word: str) -> bool:
    """Some reading of ``word`` (or of its lemma) is a noun."""
    lemmas = morphology.lemmas(word, "nl")
    return any(is_noun_reading(f) for lemma in lemmas for f in _flags(lemma))


@functools.lru_cache(maxsize=65536)
def may_be_infinitive(word: str) -> bool:
    """``word`` has a reading as an infinitive (OpenTaal's Vi): "taart bakken", "hulp vragen"
    are an object and its verb."""
    return any("Vi" in f for f in _flags(word))


@functools.lru_cache(maxsize=65536)
def may_be_past_tense(word: str) -> bool:
    """``word`` has a reading as a verb in the past and none in the present (OpenTaal's P..
    flags without V..: "streek" of *strijken*), so after a subject it is the verb."""
    return any(
        f and all(flag.startswith("P") for flag in f) for f in _flags(word)
    )


def split_compounds(
    sentence: str,
    function_words: frozenset[str],
    is_name: Callable[[str], bool],
    is_group_word: Callable[[str], bool],
) -> list[tuple[int, int, str]]:
    """(start, end, joined) for each pair of adjacent words of a Dutch sentence that reads as
    a compound written apart; none without the Dutch dictionary. A second word that may be an
    infinitive counts only when it names a group ("homo mannen")."""
    if not hunspell.available("nl"):
        return []
    words = list(_WORD.finditer(sentence))
    found = []
    for index, (first, second) in enumerate(itertools.pairwise(words)):
        if sentence[first.end() : second.start()] != " ":
            continue
        a, b = first.group(), second.group()
        head = a.lower()
        at_start = first.start() == 0 or sentence[: first.start()].rstrip()[-1:] in ".!?"
        if len(a) < MIN_PART or len(b) < MIN_PART or not b.islower():
            continue
        if not (a.islower() or (at_start and a[1:].islower())) or is_name(a):
            continue
        if head in function_words or b in function_words or head in MEASURE_NOUNS:
            continue
        following_word = words[index + 2].group() if index + 2 < len(words) else ""
        if b in LABEL_NOUNS and following_word and not following_word.islower():
            continue  # "een jurk maat XXL", "bus lijn 5": the noun, then its label
        if not singular_noun_only(head) or not may_be_noun(b):
            continue
        if may_be_infinitive(b) and not is_group_word(b):
            continue
        if not is_group_word(b) and (
            not any(is_noun_reading(f) for f in _flags(b))
            or any(f.startswith("A") for flags in _flags(b) for f in flags)
        ):
            continue  # a verb form of a noun's lemma, an adverb: "risico loopt", "tractor rond"
        following = words[index + 2].group().lower() if index + 2 < len(words) else ""
        if following in function_words and may_be_past_tense(b):
            continue  # "De christen streek met zijn hand": a subject and its verb
        if hunspell.knows(head + b, "nl"):
            found.append((first.start(), second.end(), head + b))
    return found


#: Nouns that name a label when a size, number or code follows ("jurk maat XXL", "bus lijn
#: 5"): the first noun stands apart from them.
LABEL_NOUNS = frozenset({"maat", "nummer", "lijn", "type", "model", "formaat", "kamer", "klasse"})


#: Linking sounds Dutch puts between the parts of a compound ("arbeiderSklasse",
#: "vrouwENbeweging", "kinderEN"): stripped from the first part before its look-up.
LINKS = ("s", "en", "e")


@functools.lru_cache(maxsize=65536)
def compound_head(word: str, is_head: Callable[[str], bool]) -> str | None:
    """The last part of a Dutch compound when ``is_head`` accepts it and the dictionary knows
    the first part ("handarbeider" -> "arbeider", "speervrouw" -> "vrouw"), the longest such
    part; None for a word that is no such compound. A Dutch compound is of the kind of its last
    part: a "speervrouw" is a woman, a "handarbeider" a worker."""
    lower = word.lower()
    if not hunspell.available("nl") or not lower.isalpha() or len(lower) > hunspell.MAX_WORD:
        return None
    for cut in range(MIN_PART, len(lower) - MIN_PART + 1):
        first, head = lower[:cut], lower[cut:]
        if not is_head(head):
            continue
        stems = [first] + [first[: -len(link)] for link in LINKS if first.endswith(link)]
        if any(len(stem) >= MIN_PART and hunspell.knows(stem, "nl") for stem in stems):
            return head
    return None
