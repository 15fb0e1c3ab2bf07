"""``curate lint``: rules that find invalid minimal pairs, with codes, explanations and safe fixes.

Public API: :func:`lint_pairs`, :func:`fix_pairs`, :class:`LintSettings`, :func:`all_rules`.

Layer: a stage. It may import the ground floor and :mod:`curate.formats`; never another stage
or a benchmark: a benchmark's profile and own rules arrive as a
:class:`~curate.lint.profiles.LintTarget`.
"""

from curate.lint.engine import lint_pairs, selected_rules
from curate.lint.fix import AppliedFix, FixResult, fix_pairs
from curate.lint.rule import Rule
from curate.lint.rules import all_rules
from curate.lint.settings import LintSettings, settings_from_table

__all__ = [
    "AppliedFix",
    "FixResult",
    "LintSettings",
    "Rule",
    "all_rules",
    "fix_pairs",
    "lint_pairs",
    "selected_rules",
    "settings_from_table",
]
