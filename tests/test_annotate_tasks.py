"""Tasks for the validation form: escaped HTML, stable sentence order, and the labeling config."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from curate.annotate.form import CHOICES, FORM_FIELDS, TEXTAREAS
from curate.annotate.tasks import (
    build_task,
    build_tasks,
    findings_html,
    sentence1_role,
    task_pair_id,
)
from curate.errors import InputError
from curate.findings import Finding
from curate.pairs import BIAS_TYPES, Pair

XML = Path(__file__).resolve().parents[1] / "annotations" / "crows_validation.xml"
HOSTILE = Pair(
    7,
    'The <b onmouseover="x()">poor</b> & "lazy" <script>steal()</script> family.',
    "The rich family.",
    "stereo",
    "socioeconomic",
)


def test_sentence_order_is_stable_and_balanced() -> None:
    roles = [sentence1_role(i) for i in range(200)]
    assert roles == [sentence1_role(i) for i in range(200)]
    assert 70 < roles.count("sent_more") < 130
    assert {sentence1_role(i, shuffle=False) for i in range(20)} == {"sent_more"}


@pytest.mark.parametrize("shuffle", [True, False])
def test_task_data_maps_screen_order_to_roles(shuffle: bool) -> None:
    pair = Pair(12, "Women can't drive.", "Men can't drive.", "stereo", "gender")
    data = build_task(pair, [], "r1", shuffle)["data"]
    first, second = (
        (pair.sent_more, pair.sent_less)
        if data["sentence1_role"] == "sent_more"
        else (pair.sent_less, pair.sent_more)
    )
    assert (data["sentence1"], data["sentence2"]) == (first, second)
    assert data["pair_id"] == 12 and data["round"] == "r1"
    assert (data["bias_type"], data["direction"]) == ("gender", "stereo")
    assert set(FORM_FIELDS) <= set(data)
    assert "<mark>Women</mark>" in data["diff_html"] and "<mark>Men</mark>" in data["diff_html"]


def test_untrusted_sentences_are_escaped_before_marking() -> None:
    finding = Finding(7, "X001", "odd-markup", 'sent_more has "<script>" & more')
    data = build_task(HOSTILE, [finding], "r1")["data"]
    html = data["diff_html"] + data["findings_html"]
    # Only our own tags survive: p, b, mark, ul, li.
    assert set(re.findall(r"<\s*/?\s*([a-zA-Z]+)", html)) <= {"p", "b", "mark", "ul", "li"}
    assert "&lt;script&gt;steal()&lt;/script&gt;" in data["diff_html"]
    assert "&lt;b onmouseover=&quot;x()&quot;&gt;" in data["diff_html"]
    assert "&amp;" in data["diff_html"]
    assert "&lt;script&gt;" in data["findings_html"]
    # Plain-text fields stay plain (Label Studio's Text tag does not render HTML).
    assert data["sentence1"] in (HOSTILE.sent_more, HOSTILE.sent_less)


def test_findings_name_sentences_by_screen_position() -> None:
    finding = Finding(1, "P001", "extra-words", "sent_more has 2 more words than sent_less")
    assert "sentence 1 has 2 more words than sentence 2" in findings_html([finding], "sent_more")
    assert "sentence 2 has 2 more words than sentence 1" in findings_html([finding], "sent_less")
    assert "chosen by hand" in findings_html([], "sent_more")


def test_build_tasks_one_per_flagged_pair() -> None:
    pairs = [Pair(i, f"A{i} b.", f"C{i} b.", "stereo", "gender") for i in range(5)]
    findings = [Finding(3, "T1", "t", "m"), Finding(1, "T1", "t", "m"), Finding(3, "T2", "u", "n")]
    tasks = build_tasks(pairs, findings, "r1")
    assert [t["data"]["pair_id"] for t in tasks] == [1, 3]
    assert tasks[1]["data"]["finding_codes"] == "T1 T2"
    with pytest.raises(InputError, match=r"1 finding\(s\) name pair ids not in pairs.csv \(42\)"):
        build_tasks(pairs, [Finding(42, "T1", "t", "m")], "r1", source="pairs.csv")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"pair_id": 4}, 4),
        ({"pair_id": "4"}, 4),
        ({"pair_id": True}, None),
        ({"pair_id": -1}, None),
        ({}, None),
        ([], None),
    ],
)
def test_task_pair_id(data: object, expected: int | None) -> None:
    assert task_pair_id(data) == expected


def test_labeling_config_matches_the_code() -> None:
    """Control names and aliases in the XML are exactly the ones the export parser accepts."""
    root = ET.parse(XML).getroot()
    choices = {
        c.get("name"): tuple(ch.get("alias") for ch in c.iter("Choice"))
        for c in root.iter("Choices")
    }
    assert choices == CHOICES
    for control in root.iter("Choices"):
        assert control.get("choice", "").startswith("single") and control.get("required") == "true"
    assert tuple(t.get("name") for t in root.iter("TextArea")) == TEXTAREAS
    assert choices["bias_type"][:-1] == BIAS_TYPES and choices["bias_type"][-1] == "none"
    fields = {el.get("value")[1:] for el in root.iter() if (el.get("value") or "").startswith("$")}
    assert fields == set(FORM_FIELDS)
    assert {el.tag for el in root.iter() if el.get("value") == "$diff_html"} == {"HyperText"}
    names = {el.get("name") for el in root.iter() if el.get("name")}
    assert all(el.get("toName") in names for el in root.iter() if el.get("toName"))
