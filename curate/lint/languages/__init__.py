"""The languages the lint speaks, each a package of its word lists beside its rules.

A pair set has a language (:attr:`curate.formats.dataset.Dataset.language`); a rule declares
the languages it is written for (:attr:`curate.lint.rule.Rule.languages`, ``None`` for the
language-neutral ones); the word lists a rule of a language reads live in
``curate/lint/languages/<code>/``, never inside the rule. What a new language needs is a
package here (its :class:`Language`: the pyspellchecker dictionary, the elided articles and
pronouns a word may carry in front) and, for each word-reading rule it wants, a version of the
rule that names it; until then those rules are skipped on its pairs, with a note.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class Language:
    """What the language-aware rules of one language read.

    ``dictionary``: the pyspellchecker language code of its word list; ``elisions``: the
    clitics written in front of a word with an apostrophe ("l'", "qu'"), checked apart from it;
    ``suffixes``: what may follow an apostrophe (Dutch plural "auto's"); ``min_suggestion``: how
    frequent in the dictionary's corpus a near word must be for an unknown word to be reported
    (each word list counts on its own scale: measured on each language's CrowS-Pairs).
    """

    code: str
    name: str
    dictionary: str
    elisions: frozenset[str] = frozenset()
    suffixes: frozenset[str] = frozenset()
    min_suggestion: int = 1000
    #: Endings of inflected forms the word list may lack (plural, feminine, diminutive): a word
    #: whose stem without one is a dictionary word is spelled right ("boulots", "docteure").
    inflections: tuple[str, ...] = ()
    #: Whether the language writes compounds as one word (Dutch "privéschool"): a word made of
    #: two dictionary words of at least :data:`MIN_PART` letters is spelled right.
    compounds: bool = False
    #: Verb forms the word list may lack, as (ending, ending of the infinitive): a word whose
    #: infinitive is a dictionary word is spelled right (French "sirotant" -> "siroter").
    verb_forms: tuple[tuple[str, str], ...] = ()
    #: Languages whose words are borrowed as they are (English "coach", "feeling" in French
    #: and Dutch text): a word of their dictionaries is a loanword, not a typo.
    loans_from: tuple[str, ...] = ()
    #: Whether a word its dictionary knows only with other or more accents is misspelled: a
    #: name ("Jerôme" for "Jérôme") or a word ("enervait"). French names and words carry
    #: accents and its dictionary lists them; Dutch names rarely do, and its dictionary lacks
    #: accented names and demonyms in use ("Andréa", "Saoedi-Arabiër").
    checks_accents: bool = False

    @property
    def groups(self) -> dict[str, frozenset[str]]:
        """The group words of the language by bias type (``groups.toml`` of its package;
        empty when it has none), lower-cased."""
        return _groups(self.code)

    def is_group_word(self, word: str) -> bool:
        """Whether ``word`` names a group in this language (any bias type)."""
        lower = word.lower()
        return any(lower in words for words in self.groups.values())


#: The shortest part of a compound the spelling rules accept (shorter "parts" are noise).
MIN_PART = 4


@functools.cache
def _groups(code: str) -> dict[str, frozenset[str]]:
    path = resources.files(__name__).joinpath(code, "groups.toml")
    if not path.is_file():
        return {}
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    return {bias: frozenset(w.lower() for w in entry["words"]) for bias, entry in table.items()}


def _languages() -> dict[str, Language]:
    from curate.lint.languages import en, fr, nl

    return {lang.LANGUAGE.code: lang.LANGUAGE for lang in (en, fr, nl)}


LANGUAGES: dict[str, Language] = _languages()


def language(code: str) -> Language:
    """The language ``code``; English when the lint knows no package for it."""
    return LANGUAGES.get(code, LANGUAGES["en"])
