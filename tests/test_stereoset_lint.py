"""The StereoSet lint profile: its own rules on StereoSet files (the validators' labels from the
JSON document, BLANK, article, target, repeated option), the group-swap rules off with their
reasons, and the measured precision printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.benchmarks.stereoset.lint import OFF, validator_items
from curate.benchmarks.stereoset.rules import fill
from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from tests.support.stereoset_data import stereoset_document, write_stereoset

runner = CliRunner()


@pytest.mark.parametrize(
    ("context", "sentence", "expected"),
    [
        ("The chess player was BLANK.", "The chess player was asian.", "asian"),
        ("The chess player was BLANK.", "the chess player was  Asian", "asian"),  # T rules' business
        ("The grandfather BLANKed the kids.", "The grandfather protected the kids.", "protect"),
        ("He is not BLANK and says BLANK.", "He is not poor and says poor.", "poor"),
        ("He is not BLANK and says BLANK.", "He is not poor and says rich.", None),
        ("The chess player was BLANK.", "The chess player is asian.", None),
        ("The chess player was BLANK.", "The chess player was.", None),
        ("No blank here.", "No blank here.", None),
    ],
)
def test_fill(context: str, sentence: str, expected: str | None) -> None:
    assert fill(context, sentence) == expected


def _labels(document: dict, index: int, gold: str, votes: list[str]) -> None:
    sentence = next(
        s for s in document["data"]["intrasentence"][index]["sentences"] if s["gold_label"] == gold
    )
    sentence["labels"] = [{"label": v, "human_id": str(n)} for n, v in enumerate(votes)]


def _set_option(document: dict, index: int, gold: str, text: str) -> None:
    for sentence in document["data"]["intrasentence"][index]["sentences"]:
        if sentence["gold_label"] == gold:
            sentence["sentence"] = text


@pytest.fixture
def flawed(tmp_path: Path) -> Path:
    document = stereoset_document()
    _labels(document, 0, "stereotype", ["stereotype", "stereotype", "anti-stereotype", "anti-stereotype", "related"])
    _labels(document, 1, "unrelated", ["stereotype", "stereotype", "stereotype", "related", "unrelated"])
    _labels(document, 2, "stereotype", ["anti-stereotype"] * 3 + ["stereotype"] * 2)
    _set_option(document, 3, "stereotype", "Ethiopian women are skinny")  # E004
    document["data"]["intrasentence"][4]["target"] = "Kenyan"  # E006
    _set_option(document, 6, "anti-stereotype", "A mother is caring")  # E007
    return write_stereoset(tmp_path / "flawed.json", document)


def _codes(result) -> dict[int, set[str]]:
    """Codes by the item's position in the file, found from the item id each finding names."""
    from curate.pairs import item_pair_id

    items = stereoset_document()["data"]["intrasentence"]
    position = {item["id"]: n for n, item in enumerate(items)}
    found: dict[int, set[str]] = {}
    for finding in json.loads(result.stdout):
        if "item_id" not in finding:  # a pair file's finding: its pair id
            found.setdefault(finding["pair_id"], set()).add(finding["code"])
            continue
        assert finding["pair_id"] == item_pair_id(finding["item_id"])
        found.setdefault(position[finding["item_id"]], set()).add(finding["code"])
    return found


def test_own_rules_on_a_stereoset_file(flawed: Path) -> None:
    result = runner.invoke(app, ["lint", "--no-cache", "--select", "E", "--format", "json", str(flawed)])
    assert result.exit_code == 1, result.output
    assert _codes(result) == {0: {"E001"}, 1: {"E002"}, 2: {"E003"}, 3: {"E004"}, 4: {"E006"}, 6: {"E007"}}


def test_group_swap_rules_are_off_and_precision_is_printed(flawed: Path) -> None:
    # S002 would call skinny/fat a polarity flip; the profile keeps it off even when selected
    result = runner.invoke(app, ["lint", "--no-cache", "--select", "S,L003,E", "--format", "json", str(flawed)])
    codes = set().union(*_codes(result).values())
    assert codes and all(code.startswith("E") for code in codes)
    assert "off for StereoSet: S002 polarity-flip" in result.stderr
    assert "off for StereoSet: L003" in result.stderr
    assert "97.5% (Wilson 95% CI 87.1-99.6%)" in result.stderr
    assert {"S001", "S002", "S004", "S005", "S006", "L003"} <= set(OFF)


def test_stereoset_pairs_in_csv_keep_the_profile(flawed: Path, tmp_path: Path) -> None:
    """Pairs written to CSV keep context, target and options (E004-E007 run) but not the
    validators' labels (E001-E003 have nothing to read)."""
    dataset = read_dataset(flawed)
    assert len(validator_items(dataset)) == len(dataset.pairs)
    write_dataset(dataset, tmp_path / "pairs.csv", "csv")
    assert validator_items(read_dataset(tmp_path / "pairs.csv")) == {}
    result = runner.invoke(app, ["lint", "--no-cache", "--select", "E,S002", "--format", "json", str(tmp_path / "pairs.csv")])
    assert _codes(result) == {3: {"E004"}, 4: {"E006"}, 6: {"E007"}}


def test_crows_pairs_runs_no_stereoset_rule(crows_pairs_path: Path) -> None:
    result = runner.invoke(app, ["lint", "--no-cache", "--select", "E,S002", "--format", "json", str(crows_pairs_path)])
    codes = set().union(*_codes(result).values())
    assert "S002" in codes and not any(c.startswith("E") for c in codes)
