"""The explorer's document at Murphy's scale (issue 31): counts, families, identical sets."""

from __future__ import annotations

from dataclasses import replace

from curate.report.explore_data import (
    _families,
    build_explore_data,
    column_count_text,
    identical_sets,
)
from tests.support import many_columns


def test_columns_and_models_are_counted_apart() -> None:
    versions, sets = many_columns.score_sets()
    data = build_explore_data(versions, score_sets=sets)
    assert column_count_text(data["models"]) == "22 columns from 22 models"
    two_methods = [{"name": "bert", "label": "bert · pll"}, {"name": "bert", "label": "bert · aul"}]
    assert column_count_text(two_methods) == "2 columns from 1 model"


def test_identical_score_sets_are_found_and_named() -> None:
    _, sets = many_columns.score_sets()
    copy = replace(sets[0], source="elsewhere/summary.json")
    found = identical_sets([*sets, copy])
    assert [[s.source for s in group] for group in found] == [[sets[0].source, "elsewhere/summary.json"]]
    assert identical_sets(sets) == []  # two versions of one model are not the same set


def test_every_rule_family_has_a_name_of_its_own() -> None:
    families = _families(["B001", "E005", "I001", "X001"])
    assert all(f["name"] != f["code"] for f in families)
    names = {f["code"]: f["name"] for f in families}
    assert names["B"] == "WinoBias pairs" and names["E"] == "StereoSet gold labels"
    assert names["X"] == "other X rules"
