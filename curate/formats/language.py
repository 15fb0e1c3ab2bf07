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
_WORD = re.compile(r"[^\W\d_]+")
#: The least number of function words, and share of them for the winner, to decide.
MIN_WORDS = 5
MIN_SHARE = 0.6


def detect_language(text: str) -> str | None:
    """``en``, ``fr`` or ``nl`` when the function words of ``text`` point to one clearly."""
    counts: Counter[str] = Counter()
    for word in _WORD.findall(text[:200_000].lower()):
        for code, words in _FUNCTION_WORDS.items():
            if word in words:
                counts[code] += 1
    total = sum(counts.values())
    if total < MIN_WORDS:
        return None
    code, n = counts.most_common(1)[0]
    return code if n / total >= MIN_SHARE else None


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
