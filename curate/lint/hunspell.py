"""Hunspell dictionaries with their affix rules, the second opinion of the French and Dutch
spelling rules (read with spylls, a pure-Python port of Hunspell's lookup).

pyspellchecker's French and Dutch word lists are frequency lists of surface forms: they lack
most inflections and colloquial words in standard use ("couilles", "allocs", "radin", "manif",
"colocs"), which W001/W002 reported as typos. A Hunspell dictionary (Debian's hunspell-fr, the
Dicollecte one, and hunspell-nl, OpenTaal's) derives every inflection from its affix rules and
lists the familiar register, so a word is reported only when Hunspell rejects it too. The
dictionaries are system files, read offline: from ``$CURATE_HUNSPELL_PATH`` (folders separated
by ``:``) when it is set, else from the standard places; without one the rules fall back to the word list, and
the lint says so in one line (:func:`missing_note`).
"""

from __future__ import annotations

import functools
import os
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spylls.hunspell import Dictionary

#: Words longer than this are not looked up (no word of these languages is; spylls' affix and
#: compound search grows with the length of hostile input).
MAX_WORD = 64
#: The environment variable naming extra folders to look for ``<name>.aff``/``<name>.dic`` in.
PATH_ENV = "CURATE_HUNSPELL_PATH"
#: Where Debian, Ubuntu and Fedora install Hunspell dictionaries.
STANDARD_FOLDERS = ("/usr/share/hunspell", "/usr/share/myspell/dicts", "/usr/share/myspell")
#: The dictionary names tried for each language, in order.
NAMES = {"fr": ("fr_FR", "fr"), "nl": ("nl_NL", "nl"), "en": ("en_US",)}
#: The Debian package that installs each language's dictionary (for the missing note).
PACKAGES = {"fr": "hunspell-fr", "nl": "hunspell-nl", "en": "hunspell-en-us"}


def _folders() -> list[Path]:
    """``$CURATE_HUNSPELL_PATH``'s folders when it is set (set empty: no dictionary, the
    word-list behaviour), else the standard places."""
    if PATH_ENV in os.environ:
        return [Path(p) for p in os.environ[PATH_ENV].split(os.pathsep) if p]
    return [Path(p) for p in STANDARD_FOLDERS]


def dictionary_path(language: str) -> Path | None:
    """The path (without extension) of ``language``'s Hunspell dictionary, or None."""
    for folder in _folders():
        for name in NAMES.get(language, ()):
            base = folder / name
            if base.with_suffix(".aff").is_file() and base.with_suffix(".dic").is_file():
                return base
    return None


@functools.cache
def _dictionary(language: str) -> Dictionary | None:
    base = dictionary_path(language)
    if base is None:
        return None
    from spylls.hunspell import Dictionary

    try:
        return Dictionary.from_files(str(base))
    except (OSError, UnicodeError, ValueError):  # an unreadable file: as if absent
        return None


def available(language: str) -> bool:
    """Whether ``language`` has a readable Hunspell dictionary here."""
    return _dictionary(language) is not None


@functools.lru_cache(maxsize=262144)
def knows(word: str, language: str) -> bool | None:
    """Whether Hunspell accepts ``word`` in ``language`` (any inflection its affix rules
    derive, as typed: a lower-case word is not accepted for a name); None without a
    dictionary, so the caller keeps its own verdict."""
    found = _dictionary(language)
    if found is None or len(word) > MAX_WORD:
        return None
    try:
        return bool(found.lookup(word))
    except (IndexError, KeyError, ValueError, RecursionError):  # spylls on odd input
        return None


@functools.lru_cache(maxsize=65536)
def analyses(word: str, language: str) -> tuple[tuple[str, dict[str, list[str]]], ...]:
    """Each way Hunspell derives ``word``: (the dictionary stem, its morphological fields,
    such as ``po`` word classes and ``is`` genders in the French dictionary). For a dictionary
    without fields (Dutch) the fields hold ``flags``. Empty without a dictionary or reading."""
    found = _dictionary(language)
    if found is None or len(word) > MAX_WORD:
        return ()
    try:
        forms = list(found.lookuper.good_forms(word))
    except (IndexError, KeyError, ValueError, RecursionError):
        return ()
    readings = []
    for form in forms:
        if hasattr(form, "parts"):  # a compound ("dwerggroei"): its head, the last part
            form = form.parts[-1] if form.parts else form
        entry = getattr(form, "in_dictionary", None)
        if entry is None:
            continue
        fields = {key: list(values) for key, values in (entry.data or {}).items()}
        fields.setdefault("flags", sorted(entry.flags))
        readings.append((entry.stem, fields))
    return tuple(readings)


@functools.cache
def proper_nouns_by_folding(language: str) -> dict[str, tuple[str, ...]]:
    """The dictionary's capitalised stems (names, places) by their lower-case, accent-free
    spelling ("jerome" -> ("Jérôme",)): how a name written with wrong accents is recognised.
    Empty without a dictionary."""
    found = _dictionary(language)
    if found is None:
        return {}
    index: dict[str, set[str]] = {}
    for word in found.dic.words:
        stem = word.stem
        if stem[:1].isupper() and not stem.isupper():
            index.setdefault(fold_accents(stem).lower(), set()).add(stem)
    return {key: tuple(sorted(stems)) for key, stems in index.items()}


def fold_accents(text: str) -> str:
    """``text`` without its accents ("Jérôme" -> "Jerome")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def missing_note(language: str, language_name: str) -> str | None:
    """One line when ``language`` has no Hunspell dictionary here; None when it has one."""
    if language not in NAMES or dictionary_path(language) is not None:
        return None
    return (
        f"no Hunspell dictionary for {language_name} found (install {PACKAGES[language]}, or "
        f"set {PATH_ENV}): W001/W002 use pyspellchecker's word list alone, which lacks many "
        "inflections and colloquial words"
    )
