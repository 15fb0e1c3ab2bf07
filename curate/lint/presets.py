"""Named rule selections (``curate lint --preset NAME``), listed by ``curate rules --presets``.

A preset replaces the default selection, as ``--select`` does, so that a published cleaning
procedure can be rerun by name and compared with the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from curate.errors import UsageError
from curate.lint.settings import LintSettings


@dataclass(frozen=True, slots=True)
class Preset:
    """A named selection of rule codes, with where it comes from."""

    name: str
    select: tuple[str, ...]
    description: str


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "murphy-2022",
            ("P001", "P002", "P003", "T001", "T002"),
            "Murphy's (2022) iterations of the CrowS-Pairs design card: a word-length "
            "difference (P001), more than 2 differing words (P002), missing final punctuation "
            "in one sentence (T001) or both (T002), and a character Levenshtein distance over "
            "13 (P003).",
        ),
    )
}


def preset_settings(name: str, base: LintSettings | None = None) -> LintSettings:
    """``base`` (default settings) with the preset's selection; unknown names are usage errors."""
    preset = PRESETS.get(name)
    if preset is None:
        raise UsageError(
            f"unknown preset {name!r}; `curate rules --presets` lists them ({', '.join(PRESETS)})"
        )
    return (base or LintSettings()).with_overrides(select=preset.select, extend_select=(), ignore=())
