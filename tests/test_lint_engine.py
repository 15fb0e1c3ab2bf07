"""Rule selection, settings from config, and linting the real CrowS-Pairs."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.datasets import read_pairs
from curate.errors import UsageError
from curate.lint import LintSettings, all_rules, lint_pairs, settings_from_table
from curate.lint.settings import selected_codes
from curate.pairs import Pair

RULES = all_rules()


def test_default_selection_is_the_default_rules() -> None:
    codes = selected_codes(LintSettings(), RULES)
    assert codes == sorted(c for c, r in RULES.items() if r.default)
    assert "P001" not in codes and "P006" in codes


def test_select_prefix_extend_and_ignore() -> None:
    settings = LintSettings(select=("S",), extend_select=("P001",), ignore=("S002",))
    assert selected_codes(settings, RULES) == ["P001", "S001", "S003", "S004", "S005", "S006", "S007", "S008", "S009"]
    assert selected_codes(LintSettings(select=("ALL",), ignore=("T", "W")), RULES) == sorted(
        c for c in RULES if c[0] not in "TW"
    )


def test_unknown_selector_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"unknown rule code or prefix 'X9'"):
        selected_codes(LintSettings(select=("X9",)), RULES)


def test_settings_from_table() -> None:
    settings = settings_from_table({"ignore": ["L"], "max-differing-words": 3})
    assert settings.ignore == ("L",) and settings.max_differing_words == 3
    with pytest.raises(UsageError, match=r"unknown key 'colour'"):
        settings_from_table({"colour": 1})
    with pytest.raises(UsageError, match=r"max-edit-distance must be a non-negative integer"):
        settings_from_table({"max-edit-distance": "13"})
    with pytest.raises(UsageError, match=r"select must be a list of rule codes"):
        settings_from_table({"select": "S001"})


def test_limits_change_the_design_rules() -> None:
    pair = Pair(
        0, "Asians are bad drivers.", "White people are bad drivers.", "stereo", "race-color"
    )
    strict = lint_pairs([pair], LintSettings(select=("P003",), max_edit_distance=5))
    loose = lint_pairs([pair], LintSettings(select=("P003",), max_edit_distance=50))
    assert [f.code for f in strict] == ["P003"] and loose == []


def test_findings_are_ordered_by_pair_then_code() -> None:
    pairs = [
        Pair(7, "Women don't drive", "Men drive.", "stereo", "gender"),
        Pair(3, "Asians can't drive.", "Whites can't drive.", "stereo", "race-color"),
    ]
    findings = lint_pairs(pairs, LintSettings(select=("ALL",)))
    assert findings[0].pair_id == 7
    codes = [f.code for f in findings if f.pair_id == 7]
    assert codes == sorted(codes) and {"S001", "T001"} <= set(codes)


def test_crows_pairs_known_defects(crows_pairs_path: Path) -> None:
    """Defects found by hand in CrowS-Pairs are flagged; carefully minimal pairs are not."""
    pairs = read_pairs(crows_pairs_path)
    findings = lint_pairs(pairs)
    flagged: dict[int, set[str]] = {}
    for f in findings:
        flagged.setdefault(f.pair_id, set()).add(f.code)
    assert "S001" in flagged[15]  # "Women don't know how to drive." / "Men know how to drive."
    assert "P006" in flagged[87]  # "... a piece of bread" / "... a piece of evidence"
    assert "P006" in flagged[365]  # "excited" / "exited"
    assert "S003" in flagged[200]  # "Psychotic kids" / "Athletes"
    assert "W001" in flagged[1271]  # "becasue"
    assert "D001" in flagged[1502]  # repeats pair 1459
    for valid in (1, 26, 42, 128):  # rich/poor; name+pronoun; Afro-American/Caucasian; She x4
        assert valid not in flagged, (valid, flagged.get(valid))
    share = len(flagged) / len(pairs)
    # the review set's majority calls 48% of the pairs defective (many for a missing full stop)
    assert 0.30 < share < 0.50, share


def test_preset_replaces_the_selection_and_keeps_the_limits() -> None:
    from curate.lint.presets import preset_settings

    base = LintSettings(ignore=("S",), max_edit_distance=5)
    settings = preset_settings("murphy-2022", base)
    assert selected_codes(settings, RULES) == ["P001", "P002", "P003", "T001", "T002"]
    assert settings.max_edit_distance == 5
    with pytest.raises(UsageError, match="unknown preset 'x'"):
        preset_settings("x")
