"""The lint rules, listed explicitly per family (like sqlfluff's ``get_rules()`` per bundle and
ruff's codes table): adding a rule means adding its class here, so the registry is plain data
and ``curate.lint.rule`` never has to import the rule modules. A benchmark's own rules live in
its package and are handed in (``all_rules(own)``): this package imports no benchmark.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from curate.lint.rule import Rule
from curate.lint.rules import (
    agreement,
    design,
    duplicates,
    grammar,
    grammar_checker,
    labels,
    perturbation,
    semantics,
    spelling,
    typography,
)

#: Every rule, by family.
FAMILIES: dict[str, tuple[type[Rule], ...]] = {
    "D": (duplicates.ExactDuplicate, duplicates.NearDuplicate),
    "G": (
        grammar.ArticleMismatch,
        grammar.PronounNotChanged,
        grammar.NumberAgreement,
        agreement.FrenchArticleAgreement,
        agreement.DutchArticleAgreement,
        agreement.DutchAdjectiveInflection,
        agreement.DutchAdjectiveAsNoun,
        grammar_checker.FrenchGrammar,
    ),
    "L": (labels.UnsupportedBiasType, labels.UnknownBiasType, labels.DirectionMismatch),
    "P": (
        design.WordLengthMismatch,
        design.DifferingVocabulary,
        design.EditDistance,
        perturbation.IdenticalSentences,
        perturbation.SentenceContained,
        perturbation.NonMinimalPerturbation,
    ),
    "S": (
        semantics.NegationAsymmetry,
        semantics.PolarityFlip,
        semantics.IncommensurableGroups,
        semantics.GroupOutsideBiasType,
        semantics.GroupSwappedForNonGroup,
        semantics.CounterpartMismatch,
        semantics.ConfoundedNameSwap,
        semantics.NoGroupSwapped,
        semantics.TwoGroupsSwapped,
    ),
    "T": (
        typography.FinalPunctuationMismatch,
        typography.MissingFinalPunctuation,
        typography.DoubledPunctuation,
        typography.WhitespaceDefect,
        typography.LowercaseStart,
        typography.LowercaseProperWord,
        typography.CaseMismatch,
        typography.PunctuationMismatch,
        typography.MisplacedCapital,
        typography.ApostrophePlural,
        typography.LeadingPunctuation,
        typography.FormulaStart,
        typography.LowercaseFrenchDemonym,
    ),
    "W": (
        spelling.MisspelledChangedWord,
        spelling.MisspelledSharedWord,
        spelling.ConfusedWord,
        spelling.SplitCompound,
    ),
}


def _checked(rule: type[Rule], family: str, seen: dict[str, type[Rule]]) -> None:
    """A listed rule must be complete and unique; a mistake here is a programming error."""
    for attribute in ("code", "name", "summary"):
        if not getattr(rule, attribute, None):
            raise TypeError(f"rule {rule.__name__} lacks {attribute}")
    if rule.family() != family:
        raise TypeError(f"rule {rule.code} is listed under family {family}")
    if rule.code in seen:
        raise TypeError(f"duplicate rule code {rule.code}")
    if any(r.name == rule.name for r in seen.values()):
        raise TypeError(f"duplicate rule name {rule.name}")
    if not rule.__doc__:
        raise TypeError(f"rule {rule.code} needs a docstring explaining the defect")


def _families(own: tuple[type[Rule], ...]) -> dict[str, tuple[type[Rule], ...]]:
    """The shared families, then the benchmarks' own rules (each benchmark's lint profile
    lists them; the registry of benchmarks hands them in)."""
    families = {family: list(rules) for family, rules in FAMILIES.items()}
    for rule in own:
        families.setdefault(rule.family(), []).append(rule)
    return {family: tuple(rules) for family, rules in families.items()}


@functools.cache
def _registry(own: tuple[type[Rule], ...]) -> dict[str, type[Rule]]:
    seen: dict[str, type[Rule]] = {}
    for family, rules in _families(own).items():
        for rule in rules:
            _checked(rule, family, seen)
            seen[rule.code] = rule
    return dict(sorted(seen.items()))


def all_rules(own: Iterable[type[Rule]] = ()) -> dict[str, type[Rule]]:
    """Every rule by code, in code order: the shared ones and the benchmarks' own rules given
    (``own``; :func:`curate.benchmarks.all_rules` gives every benchmark's)."""
    return dict(_registry(tuple(own)))
