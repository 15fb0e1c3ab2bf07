"""A benchmark's lint profile applied to a run: the rules that fit its design, and why the
others are off.

A benchmark *declares* a :class:`LintProfile` (this stage defines what one is, so the lint
stage never imports a benchmark); a run is told which benchmark's pairs it checks by a
:class:`LintTarget`, which the registry of benchmarks builds (:func:`curate.benchmarks.lint_target`).
The run then ignores what the profile leaves out: the shared rules it does not select or turns off
(each with the reason, printed once when the selection would have run it) and the other
benchmarks' own rules. Ignoring wins over selecting, so ``--select S002`` on StereoSet still does
not run a rule StereoSet's design breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curate.lint.settings import LintSettings, _matches, selected_codes
from curate.pairs import BIAS_TYPES

if TYPE_CHECKING:
    from curate.formats.dataset import Dataset
    from curate.lint.rule import Rule


@dataclass(frozen=True, slots=True)
class LintProfile:
    """Which lint rules fit a benchmark's design.

    ``select``: codes or prefixes of the shared rules (:mod:`curate.lint.rules`) that apply
    (``("ALL",)``: every one); ``off``: those whose premise the design breaks (each with the
    reason, shown by ``curate lint``); ``rules``: the benchmark's own rule classes, registered
    beside the shared ones (their codes must not collide; a family letter of their own).
    ``precision``: the measured precision of the profile on the benchmark's data, printed by
    ``curate lint`` (``None``: not measured).
    """

    select: tuple[str, ...] = ("ALL",)
    off: dict[str, str] = field(default_factory=dict)
    rules: tuple[type[Rule], ...] = ()
    precision: str | None = None
    #: What its own rules read beside each pair (``PairContext.item``), by pair id, from the
    #: dataset (e.g. StereoSet's validators' labels from the JSON document); ``None``: nothing.
    items: Callable[[Dataset], Mapping[int, Any]] | None = None
    #: The measured precision on the benchmark's versions in other languages, by language
    #: code (``precision`` is the English one's); printed by ``curate lint`` like it.
    language_precision: Mapping[str, str] = field(default_factory=dict)

    def precision_of(self, language: str) -> str | None:
        """The measured precision note for pairs in ``language`` (``None``: not measured)."""
        if language == "en":
            return self.precision
        return self.language_precision.get(language)


@dataclass(frozen=True)
class LintTarget:
    """The benchmark whose pairs a run checks: its name and title (for notes), its known
    ``bias_type`` labels, its profile, and the other benchmarks' own rules (``others``: known,
    so a selection may name them, but never run on these pairs)."""

    name: str
    title: str
    labels: tuple[str, ...]
    profile: LintProfile
    others: tuple[type[Rule], ...] = ()
    #: The language of the pairs: rules written for other languages are skipped.
    language: str = "en"

    def own_and_others(self) -> tuple[type[Rule], ...]:
        """Every benchmark's own rules: its own, then the others'."""
        return (*self.profile.rules, *self.others)

    def rules(self) -> dict[str, type[Rule]]:
        """Every rule the run knows, by code: the shared ones, its own and the others'."""
        from curate.lint.rules import all_rules  # the rule modules load only when asked

        return all_rules(self.own_and_others())


#: The target of a run that names none: pair files, with every shared rule.
PAIRS = LintTarget("crows-pairs", "CrowS-Pairs", BIAS_TYPES, LintProfile())


def in_profile(code: str, target: LintTarget) -> bool:
    """Whether rule ``code`` may run on ``target``'s data."""
    if any(rule.code == code for rule in target.profile.rules):
        return True
    if any(rule.code == code for rule in target.others):
        return False
    profile = target.profile
    return _matches(code, profile.select) and code not in profile.off


def apply_profile(settings: LintSettings, target: LintTarget) -> tuple[LintSettings, list[str]]:
    """The settings with every rule outside ``target``'s profile ignored and its labels as
    the known ones, and one note per selected rule that the profile turns off (naming why)."""
    rules = target.rules()
    chosen = selected_codes(settings, rules)
    outside = tuple(code for code in rules if not in_profile(code, target))
    off = target.profile.off
    notes = [
        f"off for {target.title}: {code} {rules[code].name}: {off[code]}"
        for code in chosen
        if code in off
    ]
    other_language = tuple(
        code
        for code, rule in rules.items()
        if rule.languages is not None and target.language not in rule.languages
    )
    # a rule written for English with no version for this language is named; a rule written
    # only for another language (G004 French articles on English pairs) is not this run's
    missing = [c for c in chosen if c in other_language and c not in outside]
    if skipped := [c for c in missing if "en" in (rules[c].languages or ())]:
        name = language_name(target.language)
        notes.append(
            f"skipped for {name} ({target.language}): no {name} version of "
            + ", ".join(f"{c} {rules[c].name}" for c in skipped)
        )
    spelling = [c for c in chosen if c in ("W001", "W002") and c not in outside]
    if spelling and target.language in ("fr", "nl"):
        from curate.lint.hunspell import missing_note

        if note := missing_note(target.language, language_name(target.language)):
            notes.append(note)
    if target.language == "fr" and "G006" in chosen and "G006" not in outside:
        from curate.lint import grammalecte

        if note := grammalecte.missing_note():
            notes.append(note)
    return (
        settings.with_overrides(
            ignore=settings.ignore + outside + other_language,
            labels=target.labels,
            language=target.language,
        ),
        notes,
    )


def language_name(code: str) -> str:
    """The name of a language code for notes (the code itself when unknown)."""
    from curate.lint.languages import LANGUAGES

    return LANGUAGES[code].name if code in LANGUAGES else code
