"""Grammalecte, the French grammar checker of LibreOffice and Firefox, as the French lint's
reader of grammar: agreement, conjugation, elision, hyphens and confusions.

French CrowS-Pairs sentences were written by translators, and their defects are the ones a
grammar checker knows: "Benoît était fière" (an agreement left behind by the swap), "Chaque
jours", "si il", "ces gens là", "l'homme d'affaire". No hand list covers them; Grammalecte's
rules (GPL-3, by Olivier R.) do. It is read from Debian's ``python3-grammalecte`` (``make
install`` installs it), offline, from ``$CURATE_GRAMMALECTE_PATH`` (the folder holding the
``grammalecte`` package) when it is set, else from Debian's place; without it G006 is silent
and the lint says so in one line (:func:`missing_note`).

Only the grammar options are on: typography (apostrophes, spaces, capitals, commas), the
colloquial register ("bs") and style (pleonasms, repetitions) are this lint's own rules or no
defect of a pair.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The environment variable naming the folder that holds the ``grammalecte`` package (set
#: empty: no grammar checker).
PATH_ENV = "CURATE_GRAMMALECTE_PATH"
#: Where Debian's python3-grammalecte installs the package.
STANDARD_FOLDERS = ("/usr/lib/python3/dist-packages",)
#: The Debian package (for the missing note).
PACKAGE = "python3-grammalecte"
#: Grammalecte's options that read grammar: noun-group and verb agreement, conjugation,
#: infinitive, imperative and interrogative forms, past participles, verb moods, elision,
#: hyphens and welded words, homophone confusions, set phrases.
GRAMMAR_OPTIONS = frozenset(
    {"gn", "conj", "infi", "imp", "inte", "ppas", "vmode", "eleu", "tu", "conf", "loc"}
)
#: Rules left out, by the start of their id: "y'a" / "y'en" written as spoken (the register,
#: which the guidelines do not call a defect), and "fort" read as an adverb where it is the
#: adjective of a comparison ("plus forts que").
IGNORED_RULES = ("g2__tu_y_attaché", "g3__gn_adverbe_fort")
#: Sentences longer than this are not checked (no CrowS-Pairs sentence comes near; the rules'
#: regular expressions grow with the length of hostile input).
MAX_SENTENCE = 2000


@dataclass(frozen=True)
class GrammarError:
    """One error Grammalecte reports: the character span, its rule and message."""

    start: int
    end: int
    rule: str
    kind: str
    message: str


def _folders() -> list[Path]:
    if PATH_ENV in os.environ:
        return [Path(p) for p in os.environ[PATH_ENV].split(os.pathsep) if p]
    return [Path(p) for p in STANDARD_FOLDERS]


def package_path() -> Path | None:
    """The folder of the ``grammalecte`` package with its French rules, or None."""
    for folder in _folders():
        package = folder / "grammalecte"
        if (package / "__init__.py").is_file() and (package / "fr" / "gc_engine.py").is_file():
            return package
    return None


@functools.cache
def _checker() -> tuple[Any, dict[str, bool]] | None:
    """Grammalecte's French checker and the options G006 reads it with, or None when it is not
    installed or does not load.

    The package imports itself as ``grammalecte``, so it is loaded under that name from its
    folder alone (not by putting the system's site-packages on ``sys.path``, which would shadow
    this environment's libraries)."""
    package = package_path()
    if package is None:
        return None
    module = sys.modules.get("grammalecte")
    try:
        if module is None:
            spec = importlib.util.spec_from_file_location(
                "grammalecte", package / "__init__.py", submodule_search_locations=[str(package)]
            )
            if spec is None or spec.loader is None:
                return None
            module = importlib.util.module_from_spec(spec)
            sys.modules["grammalecte"] = module
            spec.loader.exec_module(module)
        checker = module.GrammarChecker("fr")
        defaults = checker.getGCEngine().getDefaultOptions()
    except Exception:  # a broken install (any error of its import) reads as a missing one
        sys.modules.pop("grammalecte", None)
        return None
    return checker, {key: key in GRAMMAR_OPTIONS for key in defaults}


def available() -> bool:
    """Whether Grammalecte's French checker loads here."""
    return _checker() is not None


@functools.lru_cache(maxsize=16384)
def grammar_errors(sentence: str) -> tuple[GrammarError, ...]:
    """Grammalecte's grammar errors in a French sentence; () without Grammalecte."""
    loaded = _checker()
    if loaded is None or len(sentence) > MAX_SENTENCE:
        return ()
    checker, options = loaded
    try:
        found, _ = checker.getParagraphErrors(sentence, dOptions=options)
    except (ValueError, KeyError, IndexError, TypeError, RecursionError):  # odd input
        return ()
    errors = []
    for error in found:
        start, end = int(error["nStart"]), int(error["nEnd"])
        if 0 <= start < end <= len(sentence):
            rule, kind = str(error["sRuleId"]), str(error["sType"])
            if rule.startswith(IGNORED_RULES):
                continue
            errors.append(GrammarError(start, end, rule, kind, str(error["sMessage"])))
    return tuple(errors)


def missing_note() -> str | None:
    """One line when Grammalecte is not installed here; None when it is."""
    if available():
        return None
    return (
        f"no Grammalecte found (install {PACKAGE}, or set {PATH_ENV}): G006 french-grammar "
        "is skipped"
    )
