"""WinoBias (Zhao et al. 2018) as a curate benchmark: reader and writer, lint profile, fetch.

* :mod:`.reader` pairs line i of a pro file with line i of its anti file (the pro sentence is
  ``sent_more``; ``bias_type`` is the subset, ``type1-dev`` ..., so every per-bias-type
  breakdown is per type and split);
* :mod:`.rules` the WinoBias rules (``WB``), and :func:`lint_registry` the profile: those rules
  plus the shared spelling rules; the CrowS-Pairs rules about group swaps do not apply;
* the files are pinned in ``data/raw/sources.toml`` under the group ``winobias``.
"""

from __future__ import annotations

import functools

from curate.benchmarks.winobias.reader import (
    FORMAT,
    SUBSETS,
    looks_like_winobias,
    pair_from_lines,
    read_winobias,
    write_winobias,
)
from curate.lint.rule import Rule

__all__ = [
    "FORMAT",
    "SOURCE_GROUP",
    "SUBSETS",
    "lint_registry",
    "looks_like_winobias",
    "pair_from_lines",
    "read_winobias",
    "write_winobias",
]

#: The sources of ``data/raw/sources.toml`` that ``curate fetch winobias`` fetches.
SOURCE_GROUP = "winobias"


@functools.cache
def _registry() -> dict[str, type[Rule]]:
    from curate.benchmarks.winobias.rules import RULES, SHARED_CODES
    from curate.lint.rules import all_rules

    shared = all_rules()
    table = {code: shared[code] for code in SHARED_CODES}
    table.update({rule.code: rule for rule in RULES})
    return dict(sorted(table.items()))


def lint_registry() -> dict[str, type[Rule]]:
    """The rules ``curate lint`` runs on WinoBias, by code (its lint profile)."""
    return dict(_registry())
