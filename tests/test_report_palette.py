"""Column styles (curate/report/palette.py): one definition for the explorer and report.html."""

from __future__ import annotations

from curate.report.palette import PALETTE, column_colour, column_styles, column_symbol


def test_44_columns_get_44_colours_and_44_colour_and_marker_pairs_per_version() -> None:
    styles = column_styles(44)
    assert len({s["color"] for s in styles}) == 44
    pairs = {(s["color"], s["symbol"] + suffix) for s in styles for suffix in ("", "-open")}
    assert len(pairs) == 88
    assert all(s["color"].startswith("#") and len(s["color"]) == 7 for s in styles)


def test_up_to_ten_columns_take_the_tableau_colours_and_markers_cycle() -> None:
    assert [column_colour(i, 10) for i in range(10)] == list(PALETTE)
    assert column_colour(0, 11) != PALETTE[0]  # more than ten: the golden-angle hues
    assert column_symbol(10) == column_symbol(0) and column_symbol(3, hollow=True).endswith("-open")


def test_the_explorers_data_carries_each_columns_style() -> None:
    from curate.report.explore_data import build_explore_data
    from tests.support import many_columns

    versions, sets = many_columns.score_sets()
    data = build_explore_data(versions, score_sets=sets)
    styles = column_styles(len(data["models"]))
    assert [{k: m[k] for k in ("color", "symbol", "glyph")} for m in data["models"]] == styles
