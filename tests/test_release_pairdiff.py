"""Pair-level diff: matching by id, added/dropped/edited, lossless word-level highlighting."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from curate.release.pairdiff import diff_pairs, format_text, render_word_diff, word_diff
from tests.support.release_project import PAIRS


def join(segments, keep: str) -> str:
    return "".join(s.text for s in segments if s.op in ("equal", keep))


def test_word_diff_marks_changed_words() -> None:
    segments = word_diff("the girl was home", "The girl was at home.")
    assert render_word_diff(segments) == "[-the-]{+The+} girl was {+at +}home{+.+}"


def test_whitespace_only_change_is_visible() -> None:
    # spaCy tokens drop whitespace; the diff must still show a T004 fix
    assert render_word_diff(word_diff("Old  people.", "Old people.")) == "Old[-  -]{+ +}people."


def test_identical_text_is_one_equal_segment() -> None:
    assert [(s.op, s.text) for s in word_diff("Same text.", "Same text.")] == [
        ("equal", "Same text.")
    ]


@given(st.text(max_size=40), st.text(max_size=40))
def test_word_diff_is_lossless(old: str, new: str) -> None:
    segments = word_diff(old, new)
    assert join(segments, "delete") == old
    assert join(segments, "insert") == new


def test_diff_pairs_added_dropped_edited() -> None:
    a = list(PAIRS[:4])
    b = [
        PAIRS[0],
        PAIRS[1].with_changes(sent_more="Poor people are lazy."),
        PAIRS[3].with_changes(bias_type="race-color"),
        PAIRS[4],
    ]
    diff = diff_pairs(a, b, "old", "new")
    assert [p.pair_id for p in diff.added] == [5]
    assert [p.pair_id for p in diff.dropped] == [2]
    assert [(e.pair_id, [f.column for f in e.fields]) for e in diff.edited] == [
        (1, ["sent_more"]),
        (3, ["bias_type"]),
    ]
    assert diff.summary() == {
        "a": "old",
        "b": "new",
        "pairs": {"a": 4, "b": 4},
        "added": 1,
        "dropped": 1,
        "edited": 2,
        "edited_fields": {"sent_more": 1, "bias_type": 1},
    }
    assert not diff.identical


def test_diff_of_equal_versions_is_empty() -> None:
    diff = diff_pairs(list(PAIRS), list(reversed(PAIRS)))
    assert diff.identical
    assert "0 added, 0 dropped, 0 edited" in format_text(diff)


def test_list_fields_are_compared_as_upstream_cells() -> None:
    diff = diff_pairs([PAIRS[0]], [PAIRS[0].with_changes(annotations=None)])
    (edit,) = diff.edited
    (field,) = edit.fields
    assert field.column == "annotations"
    assert field.new == ""
    assert field.old.startswith("[['gender']")
    assert field.segments == ()


def test_json_has_word_segments_and_round_trips() -> None:
    b = [PAIRS[1].with_changes(sent_less="Rich people are lazy.")]
    data = diff_pairs([PAIRS[1]], b).to_dict()
    text = json.dumps(data)
    assert json.loads(text) == data
    (field,) = data["edited"][0]["fields"]
    assert field["field"] == "sent_less"
    assert field["diff"] == [
        {"op": "delete", "text": "rich"},
        {"op": "insert", "text": "Rich"},
        {"op": "equal", "text": " people are lazy"},
        {"op": "insert", "text": "."},
    ]


def test_text_output_lists_each_kind() -> None:
    diff = diff_pairs(
        list(PAIRS[:2]), [PAIRS[1].with_changes(direction="antistereo"), PAIRS[4]], "v1", "v2"
    )
    text = format_text(diff)
    assert text.startswith("--- v1\n+++ v2\n")
    assert "dropped pair 0 (gender, stereo)\n  - sent_more: Women don't know how to drive." in text
    assert "added pair 5 (sexual-orientation, antistereo)" in text
    assert "edited pair 1\n  stereo_antistereo: [-stereo-]{+antistereo+}" in text


def test_diff_compares_only_the_given_fields() -> None:
    before = [PAIRS[0], PAIRS[1]]
    after = [PAIRS[0].with_changes(annotations=None), PAIRS[1].with_changes(bias_type="age")]
    everything = diff_pairs(before, after)
    assert [e.pair_id for e in everything.edited] == [PAIRS[0].pair_id, PAIRS[1].pair_id]
    shared = diff_pairs(before, after, fields=("sent_more", "sent_less", "direction", "bias_type"))
    assert [(e.pair_id, [f.column for f in e.fields]) for e in shared.edited] == [
        (PAIRS[1].pair_id, ["bias_type"])
    ]
    assert shared.not_compared == ("annotations", "anon_writer", "anon_annotators")
    assert shared.summary()["not_compared"] == ["annotations", "anon_writer", "anon_annotators"]
    assert "not compared (a version has no such column): annotations" in format_text(shared)
    assert "not_compared" not in everything.summary()
