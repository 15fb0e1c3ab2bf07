"""Lint settings: rule selection and limits, from ``[tool.curate.lint]`` and CLI options.

Selection works like ruff's: the default set is every rule whose ``default`` is on; ``select``
replaces it (codes, family prefixes such as ``S`` or ``P00``, or ``ALL``), ``extend-select`` adds
to it, ``ignore`` removes from it. Ignoring wins over selecting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from curate.errors import UsageError


@dataclass(frozen=True)
class LintSettings:
    """Options every rule can read; defaults follow Murphy (2022) and the CrowS-Pairs form."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: Murphy (2022): a pair may differ in at most 2 words per side.
    max_differing_words: int = 2
    #: The CrowS-Pairs crowdsourcing form warned above a character Levenshtein distance of 13.
    max_edit_distance: int = 13
    #: Near-duplicate threshold on rapidfuzz's normalised similarity (0-100).
    near_duplicate_score: float = 95.0
    #: A bias_type is unsupported when fewer validators than this share listed it (with the
    #: usual 5 validators: at most 1 listed it).
    min_label_support: float = 0.4
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The known ``bias_type`` labels of the input's benchmark, set by its lint profile
    #: (:func:`curate.lint.profiles.apply_profile`); ``None``: the nine CrowS-Pairs types.
    labels: tuple[str, ...] | None = None
    #: The language of the pairs (``en``, ``fr``, ``nl``), set from the lint target: the
    #: dictionary the spelling rules use (:mod:`curate.lint.languages`).
    language: str = "en"

    def with_overrides(self, **values: Any) -> LintSettings:
        """A copy with the non-None values replaced."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})


_KEYS = {f.name.replace("_", "-"): f.name for f in fields(LintSettings) if f.name not in ("extra", "labels", "language")}


def settings_from_table(
    table: Mapping[str, Any], source: str = "[tool.curate.lint]"
) -> LintSettings:
    """Build settings from a config table; unknown keys and wrong types are usage errors."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise UsageError(
                f"{source}: unknown key {key!r}; known keys: {', '.join(sorted(_KEYS))}"
            )
        name = _KEYS[key]
        if name in {"select", "extend_select", "ignore"}:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise UsageError(f"{source}: {key} must be a list of rule codes")
            values[name] = tuple(value)
        elif name in {"max_differing_words", "max_edit_distance"}:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise UsageError(f"{source}: {key} must be a non-negative integer")
            values[name] = value
        else:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise UsageError(f"{source}: {key} must be a number")
            values[name] = float(value)
    return LintSettings(**values)


def _matches(code: str, selectors: Iterable[str]) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def selected_codes(settings: LintSettings, rules: Mapping[str, Any]) -> list[str]:
    """The codes the settings enable, validating every selector against the known codes."""
    for selector in (*(settings.select or ()), *settings.extend_select, *settings.ignore):
        if selector != "ALL" and not any(code.startswith(selector) for code in rules):
            raise UsageError(
                f"unknown rule code or prefix {selector!r}; see `curate rules` for the codes"
            )
    if settings.select is None:
        chosen = [code for code, rule in rules.items() if rule.default]
    else:
        chosen = [code for code in rules if _matches(code, settings.select)]
    chosen += [c for c in rules if _matches(c, settings.extend_select) and c not in chosen]
    return sorted(c for c in chosen if not _matches(c, settings.ignore))
