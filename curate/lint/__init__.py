"""``curate lint``: rules that find invalid minimal pairs, with codes, explanations and safe fixes.

Public API: :func:`lint_pairs`, :func:`fix_pairs`, :class:`LintSettings`, :func:`all_rules`.

Layer: a stage. It may import the ground floor and :mod:`curate.formats`; never another stage
or a benchmark: a benchmark's profile and own rules arrive as a
:class:`~curate.lint.profiles.LintTarget`.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the module that defines it. Imported when first asked for (PEP 562), so that
#: importing one light module of the package (``curate.lint.profiles``, which a benchmark's
#: declaration names) does not load the rules, the lexicon and spaCy.
_PUBLIC = {
    "AppliedFix": "curate.lint.fix",
    "FixResult": "curate.lint.fix",
    "LintSettings": "curate.lint.settings",
    "Rule": "curate.lint.rule",
    "all_rules": "curate.lint.rules",
    "fix_pairs": "curate.lint.fix",
    "lint_pairs": "curate.lint.engine",
    "selected_rules": "curate.lint.engine",
    "settings_from_table": "curate.lint.settings",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        return getattr(importlib.import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
