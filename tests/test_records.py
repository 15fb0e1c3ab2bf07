"""Findings and decisions JSON lines: round trips and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curate.decisions import Decision, read_decisions, write_decisions
from curate.errors import InputError, user_text
from curate.findings import Finding, TextSpan, read_findings, write_findings


def test_findings_round_trip(tmp_path: Path) -> None:
    findings = [
        Finding(
            3,
            "S001",
            "negation-asymmetry",
            '"n\'t" only in sent_more',
            (TextSpan("sent_more", 6, 9),),
        ),
        Finding(
            4, "T001", "missing-final-punctuation", "no final period", fix={"sent_less": "A b."}
        ),
    ]
    path = tmp_path / "f.jsonl"
    write_findings(path, findings)
    assert read_findings(path) == findings
    assert path.read_text().splitlines()[1] == (
        '{"pair_id": 4, "code": "T001", "rule": "missing-final-punctuation", '
        '"message": "no final period", "fix": {"sent_less": "A b."}}'
    )


def test_decisions_round_trip(tmp_path: Path) -> None:
    decisions = [
        Decision(9, "relabel", {"bias_type": {"age": 3}}, 4, "r1", bias_type="age"),
        Decision(2, "fix", {"fix": 2}, 3, "r1", sent_less="Fixed."),
        Decision(5, "drop", reason="unrelated groups", round="manual"),
    ]
    path = tmp_path / "d.jsonl"
    write_decisions(path, decisions)
    assert [d.pair_id for d in read_decisions(path)] == [2, 5, 9]
    assert read_decisions(path)[0] == decisions[1]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"line 1: not valid JSON"),
        ("[1]", r"line 1: expected a JSON object"),
        ('{"pair_id": 1, "action": "burn"}', r"line 1: action 'burn' is not one of"),
        ('{"pair_id": 1, "action": "fix"}', r"needs sent_more or sent_less"),
        (
            '{"pair_id": 1, "action": "relabel", "bias_type": "colour"}',
            r"unknown bias_type 'colour'",
        ),
        ('{"pair_id": "1", "action": "keep"}', r"pair_id must be an integer"),
        ('{"pair_id": 1, "action": "keep", "colour": 1}', r"unknown decision fields: colour"),
    ],
)
def test_bad_decisions(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(InputError, match=message):
        read_decisions(path)


def test_bad_finding(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text('{"pair_id": 1, "code": "X"}\n\n')
    with pytest.raises(InputError, match=r"line 1: finding lacks rule, message"):
        read_findings(path)


FINDING = '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m"'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            FINDING + ', "spans": [{"field": "sent_more", "start": "0", "end": 2}]}',
            r"line 1: spans\[0\].start must be an integer, got a string \"0\"",
        ),
        (
            FINDING + ', "spans": [{"field": "sent_more", "start": 4, "end": 2}]}',
            r"start 4 is after end 2",
        ),
        (FINDING + ', "fix": {"sent_less": ["x"]}}', r"fix.sent_less must be a string, got a list"),
        (FINDING + ', "fix": {"bias_type": "age"}}', r"fix.bias_type"),
        (
            FINDING.replace('"T001"', '"[/x]"') + "}",
            r"code is a string \"\[/x\]\", which is not valid",
        ),
        (FINDING.replace('"m"', '["m"]') + "}", r"message must be a string, got a list"),
        (FINDING.replace("1", "1" + "0" * 25, 1) + "}", r"pair_id is 1\d+; it must be at most"),
        (FINDING.replace("1", "9" * 5000, 1) + "}", r"not valid JSON \(Exceeds the limit"),
        (FINDING.replace("1", "NaN", 1) + "}", r"NaN is not a JSON number"),
        ('{"a": ' + "[" * 10_000 + "]" * 10_000 + "}", r"nested deeper than 32 levels"),
    ],
)
def test_bad_findings_name_line_and_field(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(InputError, match=message):
        read_findings(path)


def test_findings_ignore_unknown_keys_and_keep_line_separators(tmp_path: Path) -> None:
    """Findings of a newer lint still read; U+2028 inside a JSON string is not a line break."""
    path = tmp_path / "f.jsonl"
    path.write_text(
        FINDING.replace('"m"', '"a\u2028b"') + ', "severity": "high"}\n', encoding="utf-8"
    )
    assert read_findings(path)[0].message == "a\u2028b"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            {"pair_id": 1, "action": "fix", "sent_more": "a\x00b."},
            r"sent_more holds the control character\(s\) \\x00",
        ),
        (
            {"pair_id": 1, "action": "fix", "sent_more": "two\nlines."},
            r"sent_more holds the control character\(s\) \\x0a",
        ),
        ({"pair_id": 1, "action": "fix", "sent_more": "   "}, r"sent_more is empty"),
        (
            {"pair_id": 1, "action": "fix", "sent_more": "a" * 10_001},
            r"sent_more is 10001 characters long; at most 10000",
        ),
        (
            {"pair_id": 1, "action": "keep", "reason": "tab\tand\nnewline ok, NUL \x00 not"},
            r"reason holds",
        ),
        ({"pair_id": 1, "action": "keep", "votes": {"a": {"b": {"c": 1}}}}, r"votes.a"),
        ({"pair_id": 1, "action": "keep", "votes": ["a"]}, r"votes must be an object"),
        ({"pair_id": 1, "action": "keep", "n_annotators": -1}, r"n_annotators is -1"),
        ({"pair_id": 1, "action": "keep", "n_annotators": "3"}, r"n_annotators must be an integer"),
        ({"pair_id": 1, "action": "keep", "round": None}, r"round must be a string, got null"),
        ({"pair_id": 1}, r"decision lacks action"),
    ],
)
def test_decision_schema(tmp_path: Path, record: dict, message: str) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(InputError, match=r"d.jsonl: line 1: " + message):
        read_decisions(path)


def test_tally_votes_round_trip(tmp_path: Path) -> None:
    votes = {
        "stereotype": {"yes": 3, "no": 0},
        "bias_type": {"age": 2, "gender": 1},
        "corrections": 0,
        "writer": {"stereotype": "yes", "bias_type": "age"},
    }
    decision = Decision(7, "keep", votes, 3, "r1", reason="quorum met")
    path = tmp_path / "d.jsonl"
    write_decisions(path, [decision])
    assert read_decisions(path) == [decision]


def test_user_text_escapes_markup_and_control_characters() -> None:
    from rich.console import Console

    text = user_text("[release] [/x] [] \x1b[31m")
    console = Console(record=True, width=200)
    console.print(text)
    assert console.export_text().strip() == "[release] [/x] [] \\x1b[31m"
