"""The language of a dataset's text, told from its commonest function words.

A pair set has a language (``en``, ``fr``, ``nl``): the lint runs the rules written for it and
the scorer warns about casing in its models. It is declared (``--language``, or the fetch
source) or detected here: articles, pronouns and prepositions are the most frequent words of
every language and differ between these three, so counting them over a few hundred sentences
decides reliably; a text too short or too mixed to decide gives ``None`` (then English, the
original benchmark's language, is assumed by the caller, and says so).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: The languages curate knows, with their names (for messages).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "French", "nl": "Dutch"}

_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(["the", "a", "an", "and", "of", "to", "is", "are", "was", "were", "he", "she", "they", "his", "her", "it", "in", "on", "with", "not"]),
    "fr": frozenset(["le", "la", "les", "un", "une", "des", "et", "est", "sont", "il", "elle", "ils", "elles", "du", "au", "aux", "pas", "avec", "dans", "sur"]),
    "nl": frozenset(["de", "het", "een", "en", "is", "zijn", "was", "hij", "zij", "ze", "niet", "van", "met", "op", "voor", "dat", "die", "naar"]),
}
#: Languages told apart only to say that curate does not support them (a German file was
#: linted as Dutch with no word: its "die" is Dutch too). Their words are in no set above.
UNSUPPORTED: dict[str, str] = {"de": "German"}
_OTHER_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset(["der", "das", "und", "ist", "nicht", "ein", "eine", "sind", "sie", "mit", "dem", "den", "zu", "von", "auf", "für", "sich", "es", "auch", "wird"]),
}
_WORD = re.compile(r"[^\W\d_]+")
#: The least number of function words, and share of them for the winner, to decide.
MIN_WORDS = 5
MIN_SHARE = 0.6


def _counts(text: str, tables: dict[str, frozenset[str]]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for word in _WORD.findall(text[:200_000].lower()):
        for code, words in tables.items():
            if word in words:
                counts[code] += 1
    return counts


def _winner(counts: Counter[str]) -> str | None:
    total = sum(counts.values())
    if total < MIN_WORDS:
        return None
    code, n = counts.most_common(1)[0]
    return code if n / total >= MIN_SHARE else None


def detect_language(text: str) -> str | None:
    """``en``, ``fr`` or ``nl`` when the function words of ``text`` point to one clearly."""
    return _winner(_counts(text, _FUNCTION_WORDS))


#: Returned by :func:`detect_any_language` when there are function words enough to decide but
#: no language has the share to.
MIXED = "mixed"


def detect_any_language(text: str) -> str | None:
    """As :func:`detect_language`, but also a language curate does not support
    (:data:`UNSUPPORTED`) when its function words hold :data:`MIN_SHARE` of all counted, and
    :data:`MIXED` when there are words enough but no clear winner; None for too few words.

    The supported languages are decided exactly as by :func:`detect_language` whenever no
    unsupported language wins, so no French or Dutch file changes language."""
    other = _winner(_counts(text, {**_FUNCTION_WORDS, **_OTHER_FUNCTION_WORDS}))
    if other in _OTHER_FUNCTION_WORDS:
        return other
    counts = _counts(text, _FUNCTION_WORDS)
    found = _winner(counts)
    if found is None and sum(counts.values()) >= MIN_WORDS:
        return MIXED
    return found


#: Returned by :func:`too_few_words` when a text too short to decide leans to a language that
#: is not English (a one-pair French file was linted as English with no word).
TOO_FEW = "too-few"


def too_few_words(text: str) -> str | None:
    """:data:`TOO_FEW` when ``text`` has too few function words to decide and another
    language has at least two different ones, more than English has; None otherwise (a short
    English text stays silent, since English is what is assumed: "Women die young" holds one
    Dutch word, twice)."""
    words = set(_WORD.findall(text[:200_000].lower()))
    kinds = {
        code: len(words & table)
        for code, table in {**_FUNCTION_WORDS, **_OTHER_FUNCTION_WORDS}.items()
    }
    english = kinds.pop("en")
    return TOO_FEW if max(kinds.values()) >= 2 and max(kinds.values()) > english else None


def language_note(code: str | None, source: str) -> str | None:
    """The reader's note when the detected language is not one curate lints (``code`` from
    :func:`detect_any_language`), or could not be told: English rules are used, said."""
    known = ", ".join(LANGUAGES)
    if code in UNSUPPORTED:
        return (
            f"{source}: language: {UNSUPPORTED[code]} detected (not supported; curate knows "
            f"{known}); its pairs are treated as English: pass --language if that is wrong"
        )
    if code == MIXED:
        return (
            f"{source}: language: not told from its sentences (their function words are of "
            f"several languages); its pairs are treated as English: pass --language ({known}) "
            "if that is wrong"
        )
    if code == TOO_FEW:
        return (
            f"{source}: language: not told (too few sentences; their function words lean away "
            f"from English); its pairs are treated as English: pass --language ({known}) if "
            "that is wrong"
        )
    return None


def check_language(code: str) -> str:
    """``code`` when curate knows the language; a usage error naming the known ones."""
    from curate.errors import UsageError

    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise UsageError(f"unknown language {code!r}; curate knows {known}")
    return code


_declared: ContextVar[str | None] = ContextVar("curate_language", default=None)


@contextmanager
def declared(language: str | None) -> Iterator[None]:
    """Within the block, readers give datasets ``language`` (``--language``) instead of
    detecting it; ``None`` changes nothing."""
    if language is not None:
        check_language(language)
    token = _declared.set(language)
    try:
        yield
    finally:
        _declared.reset(token)


def declared_language() -> str | None:
    """The language declared for the datasets being read (``--language``), if any."""
    return _declared.get()
