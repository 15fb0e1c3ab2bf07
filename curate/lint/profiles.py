"""A benchmark's lint profile applied to a run: the rules that fit its design, and why the
others are off.

Every rule is in one registry (:func:`curate.lint.all_rules`: the shared families and every
benchmark's own rules), so ``curate rules`` documents them all and a selection names any code.
A run on one benchmark's file then ignores what its :class:`~curate.benchmarks.LintProfile`
leaves out: the shared rules it does not select or turns off (each with the reason, printed once
when the selection would have run it) and the other benchmarks' own rules. Ignoring wins over
selecting, so ``--select S002`` on StereoSet still does not run a rule StereoSet's design breaks.
"""

from __future__ import annotations

from curate.benchmarks import Benchmark, all_benchmarks
from curate.lint.rules import all_rules
from curate.lint.settings import LintSettings, _matches, selected_codes


def own_codes() -> dict[str, str]:
    """The code of every benchmark's own rule -> the benchmark's name."""
    return {
        rule.code: benchmark.name
        for benchmark in all_benchmarks().values()
        for rule in benchmark.lint.rules
    }


def in_profile(code: str, benchmark: Benchmark) -> bool:
    """Whether rule ``code`` may run on ``benchmark``'s data."""
    owner = own_codes().get(code)
    if owner is not None:
        return owner == benchmark.name
    profile = benchmark.lint
    return _matches(code, profile.select) and code not in profile.off


def apply_profile(settings: LintSettings, benchmark: Benchmark) -> tuple[LintSettings, list[str]]:
    """The settings with every rule outside ``benchmark``'s profile ignored and its labels as
    the known ones, and one note per selected rule that the profile turns off (naming why)."""
    rules = all_rules()
    chosen = selected_codes(settings, rules)
    outside = tuple(code for code in rules if not in_profile(code, benchmark))
    notes = [
        f"off for {benchmark.title}: {code} {rules[code].name}: {benchmark.lint.off[code]}"
        for code in chosen
        if code in benchmark.lint.off
    ]
    return settings.with_overrides(ignore=settings.ignore + outside, labels=benchmark.labels), notes
