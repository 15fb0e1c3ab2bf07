"""Findings and decisions JSON lines: round trips and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.decisions import Decision, read_decisions, write_decisions
from curate.errors import InputError
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
