"""Reading a Label Studio JSON export: usable answers, cancelled ones, and every problem named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from curate.annotate.export import Snapshot, parse_export
from curate.errors import InputError


def task(
    task_id: int, pair_id: Any = 1, role: str = "sent_more", annotations: list | None = None
) -> dict:
    data = {
        "pair_id": pair_id,
        "sentence1": "More sentence." if role == "sent_more" else "Less sentence.",
        "sentence2": "Less sentence." if role == "sent_more" else "More sentence.",
        "sentence1_role": role,
        "bias_type": "gender",
        "direction": "stereo",
        "diff_html": "",
        "findings_html": "",
    }
    return {"id": task_id, "data": data, "annotations": annotations or []}


def choice(name: str, *values: str) -> dict:
    return {
        "from_name": name,
        "to_name": "sentence1",
        "type": "choices",
        "value": {"choices": list(values)},
    }


def text(name: str, *lines: str) -> dict:
    return {
        "from_name": name,
        "to_name": "sentence1",
        "type": "textarea",
        "value": {"text": list(lines)},
    }


def answer(
    annotation_id: int,
    who: Any,
    s1: str = "demonstrates",
    s2: str = "neither",
    extra: list | None = None,
    **kw: Any,
) -> dict:
    result = [
        choice("sentence1_stereotype", s1),
        choice("sentence2_stereotype", s2),
        choice("minimal", "yes"),
    ]
    result.append(choice("bias_type", "gender"))
    return {"id": annotation_id, "completed_by": who, "result": result + (extra or []), **kw}


def test_answers_are_mapped_to_sentence_roles() -> None:
    export = [
        task(
            10,
            1,
            "sent_more",
            [answer(1, 5, "demonstrates", "violates", [text("correction2", " Fixed  less. ")])],
        ),
        task(
            11,
            2,
            "sent_less",
            [answer(2, 5, "demonstrates", "violates", [text("correction2", "Fixed more.")])],
        ),
    ]
    snap = parse_export(export, "r1", "file e.json", pushed=[task(0, 1), task(0, 2)])
    first, second = snap.answers
    assert (first.sent_more, first.sent_less, first.corrected_less) == (
        "demonstrates",
        "violates",
        "Fixed less.",
    )
    assert (second.sent_more, second.sent_less, second.corrected_more) == (
        "violates",
        "demonstrates",
        "Fixed more.",
    )
    assert second.corrected_less is None
    assert [(t.pair_id, t.sent_more, t.sent_less) for t in snap.tasks] == [
        (1, "More sentence.", "Less sentence."),
        (2, "More sentence.", "Less sentence."),
    ]
    assert snap.problems == [] and snap.cancelled == 0 and snap.not_exported == []
    assert Snapshot.from_dict(snap.to_dict()) == snap


def test_cancelled_ignored_and_problems_reported() -> None:
    bad_choice = answer(3, 7)
    bad_choice["result"][3] = choice("bias_type", "colour")
    export = [
        task(
            10,
            1,
            annotations=[
                answer(1, 5, was_cancelled=True),
                answer(2, {"id": 6, "email": "x@example.com"}),
                bad_choice,
                answer(4, 8, extra=[choice("sentence1_stereotype", "neither")]),  # answered twice
                {"id": 5, "completed_by": 9, "result": [choice("minimal", "yes")]},  # partial
                answer(
                    6,
                    10,
                    extra=[{"from_name": "mood", "type": "choices", "value": {"choices": ["x"]}}],
                ),
                {"id": 7, "completed_by": 11, "result": "oops"},
                answer(8, None),
                answer(9, 6),  # annotator 6 again: the later annotation counts
            ],
        ),
        task(11, None),
        task(12, 42),
        {"id": 13, "data": {**task(13, 3)["data"], "sentence1_role": "first"}},
        "junk",
    ]
    snap = parse_export(export, "r1", "export.json", pushed=[task(0, 1), task(0, 3)])
    assert snap.cancelled == 1
    assert [(a.annotation_id, a.annotator) for a in snap.answers] == [(9, 6)]
    kinds = {(p.kind, p.annotation_id or p.task_id) for p in snap.problems}
    assert kinds == {
        ("unknown-choice", 3),
        ("malformed-result", 4),
        ("incomplete", 5),
        ("malformed-result", 6),
        ("malformed-result", 7),
        ("malformed-result", 8),
        ("duplicate-annotator", 2),
        ("unknown-task", 11),
        ("unknown-task", 12),
        ("malformed-task", 13),
        ("malformed-task", None),
    }
    assert snap.not_exported == [3]  # its exported task is malformed: decided from tasks.json
    messages = " | ".join(p.message for p in snap.problems)
    assert "bias_type has the unknown value 'colour' (allowed: race-color," in messages
    assert "no answer to sentence1_stereotype, sentence2_stereotype, bias_type" in messages
    assert "unknown question 'mood'" in messages
    assert "task 12 is about pair 42, which is not in round r1" in messages
    assert "annotator 6 answered twice (annotations 2 and 9)" in messages


def test_pushed_pairs_missing_from_the_export_are_kept() -> None:
    """The UI exports annotated tasks only: unannotated pairs must still reach the tally."""
    pushed = [{"data": task(0, pair)["data"]} for pair in (1, 2, 3)]
    snap = parse_export([task(7, 2, annotations=[answer(1, 5)])], "r1", "e", pushed=pushed)
    assert [(t.pair_id, t.task_id) for t in snap.tasks] == [(1, None), (2, 7), (3, None)]
    assert snap.not_exported == [1, 3] and snap.problems == []
    assert Snapshot.from_dict(snap.to_dict()) == snap


def test_multiple_choices_are_malformed() -> None:
    ann = answer(1, 5)
    ann["result"][0] = choice("sentence1_stereotype", "demonstrates", "violates")
    snap = parse_export([task(1, 1, annotations=[ann])], "r1", "e")
    assert [p.message for p in snap.problems] == [
        "task 1 (pair 1), annotation 1: sentence1_stereotype has 2 choices, expected exactly one"
    ]


def test_duplicate_tasks_are_pooled_and_reported() -> None:
    snap = parse_export(
        [task(1, 1, annotations=[answer(1, 5)]), task(2, 1, annotations=[answer(2, 6)])], "r1", "e"
    )
    assert len(snap.tasks) == 1 and len(snap.answers) == 2
    assert [p.kind for p in snap.problems] == ["duplicate-task"]


@pytest.mark.parametrize(
    ("export", "message"),
    [
        ({"a": 1}, "not a Label Studio JSON export"),
        ([{"id": 1, "sentence1": "x", "bias_type": "gender"}], "JSON-MIN or CSV-style export"),
    ],
)
def test_not_an_export(export: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_export(export, "r1", "x.json")


def test_snapshot_from_bad_dict() -> None:
    with pytest.raises(InputError, match="not an annotations snapshot"):
        Snapshot.from_dict([], "a.json")
    with pytest.raises(InputError, match="malformed annotations snapshot"):
        Snapshot.from_dict({"round": "r", "tasks": [{"pair_id": 1}], "answers": []}, "a.json")


def test_rule_codes_are_kept_in_the_snapshot() -> None:
    flagged = task(1, pair_id=1)
    flagged["data"]["finding_codes"] = "W001 P001 P001"
    broken = task(2, pair_id=2)
    broken["data"]["finding_codes"] = ["P001"]
    snapshot = parse_export([flagged, broken, task(3, pair_id=3)], "r1", "export")
    assert [(t.pair_id, t.finding_codes) for t in snapshot.tasks] == [
        (1, ("P001", "W001")),
        (3, ()),
    ]
    assert [(p.kind, p.pair_id) for p in snapshot.problems] == [("malformed-task", 2)]
    stored = Snapshot.from_dict(json.loads(json.dumps(snapshot.to_dict())))
    assert stored.tasks == snapshot.tasks
    # A snapshot written before the codes were kept reads as tasks without codes.
    old = snapshot.to_dict()
    for t in old["tasks"]:
        del t["finding_codes"]
    assert [t.finding_codes for t in Snapshot.from_dict(old).tasks] == [(), ()]
