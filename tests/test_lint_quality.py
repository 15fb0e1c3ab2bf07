"""Lint quality against a review set: figures hand-computed on a tiny synthetic review file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from curate.errors import InputError
from curate.findings import Finding
from curate.lint.quality import format_quality, measure, read_reviews, with_upstream
from curate.pairs import Pair


def _record(pair_id: int, verdicts: list[str], labels: list[str], **extra: object) -> dict:
    votes = sum(v != "ok" for v in verdicts)
    return {
        "id": pair_id,
        "reviews": len(verdicts),
        "votes_defective": votes,
        "defective": None if 2 * votes == len(verdicts) else 2 * votes > len(verdicts),
        "labels": labels,
        "verdicts": verdicts,
        "reviewer_labels": [labels if v != "ok" else [] for v in verdicts],
        "sent_more": f"Black people number {pair_id} are lazy.",
        "sent_less": f"White people number {pair_id} are lazy.",
        "bias_type": "race-color",
        "stereo_antistereo": "stereo",
        **extra,
    }


def _write(tmp_path: Path, records: list[dict]) -> Path:
    path = tmp_path / "review.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


RECORDS = [
    _record(0, ["fix", "fix", "fix"], ["non_minimal"]),  # defective, flagged by P006
    _record(2, ["fix", "drop", "ok"], ["spelling", "wrong_label"]),  # defective, missed
    _record(4, ["ok", "ok", "fix"], []),  # ok, flagged by P006 and T001: a false alarm
    _record(6, ["ok", "ok", "ok"], []),  # ok, not flagged
    _record(8, ["fix", "ok", "fix", "ok"], ["punctuation"]),  # tie of four: left out
    _record(10, ["fix", "fix", "ok", "drop", "ok"], ["punctuation"]),  # 3 of 5: defective
]


def _finding(pair_id: int, code: str) -> Finding:
    return Finding(pair_id, code, code.lower(), f"message {pair_id}")


FINDINGS = [
    _finding(0, "P006"),
    _finding(4, "P006"),
    _finding(4, "T001"),
    _finding(8, "T001"),  # on a tie: ignored
    _finding(10, "T001"),
]


def test_pair_level_figures_against_the_majority(tmp_path: Path) -> None:
    reviews = read_reviews(_write(tmp_path, RECORDS))
    quality = measure(reviews, FINDINGS)
    assert (quality.judged, quality.ties) == (5, 1)
    assert (quality.precision.hits, quality.precision.total) == (2, 3)  # 0 and 10 of 0, 4, 10
    assert (quality.recall.hits, quality.recall.total) == (2, 3)  # 0 and 10 of 0, 2, 10
    assert quality.f1 == pytest.approx(2 / 3)
    assert quality.reviewers == {3: 4, 4: 1, 5: 1}
    groups = {g: (r.hits, r.total) for g, r in quality.group_recall.items()}
    assert groups == {"perturbation": (1, 1), "surface": (1, 2), "labels": (0, 1)}
    rules = {r.code: (r.flagged, r.defective, r.disagreements, r.only_rule) for r in quality.rules}
    assert rules == {"P006": (2, 1, (4,), 1), "T001": (2, 1, (4,), 1)}
    assert quality.missed == (2,) and quality.false_alarms == (4,)
    assert quality.last_line() == "recall=0.67 precision=0.67 f1=0.67 flagged=3"


def test_report_lists_disagreements_and_ends_with_the_summary_line(tmp_path: Path) -> None:
    reviews = read_reviews(_write(tmp_path, RECORDS))
    text = format_quality(measure(reviews, FINDINGS), reviews, FINDINGS, top=1, show_missed=1)
    lines = text.splitlines()
    assert lines[-1] == "recall=0.67 precision=0.67 f1=0.67 flagged=3"
    assert "P006: flagged, majority says ok (1):" in text
    assert "  pair 4 [race-color, stereo; 1/3 defective; -] message 4" in text
    assert "missed: defective, not flagged (1):" in text and "pair 2 [" in text
    assert "4 pairs by 3, 1 pairs by 4, 1 pairs by 5" in text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"defective": True}, "defective is True but 0 of 3"),
        ({"votes_defective": 4}, "votes_defective 4 does not fit 3 reviews"),
        ({"labels": ["typo"]}, "unknown labels ['typo']"),
        ({"verdicts": ["ok", "ok", "maybe"]}, "do not match"),
    ],
)
def test_inconsistent_records_are_input_errors(tmp_path: Path, change: dict, message: str) -> None:
    records = [RECORDS[0], {**RECORDS[3], **change}]
    with pytest.raises(InputError, match=r"review.jsonl: line 2: .*" + re.escape(message)):
        read_reviews(_write(tmp_path, records))


def test_missing_field_names_the_line(tmp_path: Path) -> None:
    record = dict(RECORDS[0])
    del record["sent_less"]
    with pytest.raises(InputError, match=r"line 1: missing field 'sent_less'"):
        read_reviews(_write(tmp_path, [record]))


def test_upstream_pairs_replace_the_quoted_ones(tmp_path: Path) -> None:
    reviews = read_reviews(_write(tmp_path, RECORDS[:1]))
    labels = (("race-color",),) * 5
    upstream = [Pair(0, reviews[0].pair.sent_more, reviews[0].pair.sent_less, "stereo", "race-color", labels)]
    assert with_upstream(reviews, upstream)[0].pair.annotations == labels
    changed = [Pair(0, "Something else.", "Other.", "stereo", "race-color")]
    with pytest.raises(ValueError, match="pair 0 differs"):
        with_upstream(reviews, changed)
