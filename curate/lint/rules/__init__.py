"""The lint rules, listed explicitly per family (like sqlfluff's ``get_rules()`` per bundle and
ruff's codes table): adding a rule means adding its class here, so the registry is plain data
and ``curate.lint.rule`` never has to import the rule modules.
"""

from __future__ import annotations

import functools

from curate.lint.rule import Rule
from curate.lint.rules import (
    design,
    duplicates,
    grammar,
    labels,
    perturbation,
    semantics,
    spelling,
    typography,
)

#: Every rule, by family.
FAMILIES: dict[str, tuple[type[Rule], ...]] = {
    "D": (duplicates.ExactDuplicate, duplicates.NearDuplicate),
    "G": (grammar.ArticleMismatch, grammar.PronounNotChanged, grammar.NumberAgreement),
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
    ),
    "W": (spelling.MisspelledChangedWord, spelling.MisspelledSharedWord, spelling.ConfusedWord),
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


def _families() -> dict[str, tuple[type[Rule], ...]]:
    """The shared families, then each benchmark's own rules (listed by its lint profile)."""
    from curate.benchmarks import all_benchmarks

    families = {family: list(rules) for family, rules in FAMILIES.items()}
    for benchmark in all_benchmarks().values():
        for rule in benchmark.lint.rules:
            families.setdefault(rule.family(), []).append(rule)
    return {family: tuple(rules) for family, rules in families.items()}


@functools.cache
def _registry(benchmarks: tuple[str, ...] = ()) -> dict[str, type[Rule]]:
    seen: dict[str, type[Rule]] = {}
    for family, rules in _families().items():
        for rule in rules:
            _checked(rule, family, seen)
            seen[rule.code] = rule
    return dict(sorted(seen.items()))


def all_rules() -> dict[str, type[Rule]]:
    """Every rule by code, in code order: the shared ones and every benchmark's own."""
    from curate.benchmarks import BENCHMARKS

    return dict(_registry(tuple(BENCHMARKS)))
