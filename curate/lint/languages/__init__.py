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

from dataclasses import dataclass


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


def _languages() -> dict[str, Language]:
    from curate.lint.languages import en, fr, nl

    return {lang.LANGUAGE.code: lang.LANGUAGE for lang in (en, fr, nl)}


LANGUAGES: dict[str, Language] = _languages()


def language(code: str) -> Language:
    """The language ``code``; English when the lint knows no package for it."""
    return LANGUAGES.get(code, LANGUAGES["en"])
