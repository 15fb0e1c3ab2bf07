"""Report formats and statistics."""

from __future__ import annotations

import csv
import io
import json

from curate.findings import Finding, TextSpan
from curate.lint import report

FINDINGS = [
    Finding(
        15,
        "S001",
        "negation-asymmetry",
        '"n\'t" only in sent_more',
        (TextSpan("sent_more", 9, 12),),
    ),
    Finding(
        15, "T001", "final-punctuation-mismatch", "sent_less lacks '.'", fix={"sent_less": "A."}
    ),
    Finding(20, "S001", "negation-asymmetry", '=HYPERLINK("x") only in sent_less'),
]


def test_text_is_ruff_like() -> None:
    lines = report.format_text(FINDINGS).splitlines()
    assert lines[0] == 'pair 15    S001 negation-asymmetry  "n\'t" only in sent_more'
    assert lines[1].endswith("[*]")
    assert report.format_text([]) == ""


def test_json_and_jsonl_round_trip() -> None:
    assert [Finding.from_dict(d) for d in json.loads(report.format_json(FINDINGS))] == FINDINGS
    lines = report.format_jsonl(FINDINGS).splitlines()
    assert [Finding.from_dict(json.loads(line)) for line in lines] == FINDINGS


def test_csv_neutralises_formulas() -> None:
    rows = list(csv.DictReader(io.StringIO(report.format_csv(FINDINGS))))
    assert rows[2]["message"].startswith("'=HYPERLINK")
    assert rows[1]["fixable"] == "True" and rows[0]["fixable"] == "False"


def test_statistics() -> None:
    rows = report.statistics(FINDINGS)
    assert rows[0] == {
        "code": "S001",
        "rule": "negation-asymmetry",
        "findings": 2,
        "pairs": 2,
        "fixable": 0,
    }
    text = report.format_statistics(FINDINGS, 100)
    assert text.splitlines()[-1].strip() == "3  findings in 2 of 100 pairs (2.0%)"
