"""``annotations pull`` (the scenario of tests/support/annotate_scenario.py) refuses exports that do not belong to the round, and never replaces a
snapshot by a worse one without ``--force`` (issue 14, item 3). File-only workflow."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from tests.test_annotate_cli import root, run, ui_export  # noqa: F401 - the fixture

ROUND_DIR = Path("annotations") / "rounds" / "r1"


def _pushed(root: Path) -> list[dict]:  # noqa: F811
    assert run("push", "--round", "r1", "--to-file").exit_code == 0
    return json.loads((root / ROUND_DIR / "tasks.json").read_text())


def _pull(root: Path, export: list[dict], *extra: str):  # noqa: F811
    (root / "export.json").write_text(json.dumps(export), encoding="utf-8")
    return run("pull", "--round", "r1", "--from", "export.json", *extra)


def test_export_of_another_round_with_other_sentences_is_refused(root: Path) -> None:  # noqa: F811
    tasks = _pushed(root)
    other = copy.deepcopy(tasks)
    for task in other:  # same pair ids, another round's sentences
        task["data"]["round"] = "r0"
        task["data"]["sentence1"] = "Another round's sentence."
    result = _pull(root, ui_export(other))
    assert result.exit_code == 2, result.output
    assert "error: file export.json: task 100" in result.output
    assert "belongs to round 'r0'" in result.output
    assert not (root / ROUND_DIR / "annotations.json").exists()


def test_same_round_name_but_other_sentences_is_refused(root: Path) -> None:  # noqa: F811
    tasks = _pushed(root)
    other = copy.deepcopy(tasks)
    other[3]["data"]["sentence2"] = "A sentence this round never showed."
    result = _pull(root, ui_export(other))
    assert result.exit_code == 2, result.output
    assert "task 103" in result.output and "other sentences" in result.output


def test_a_worse_snapshot_needs_force(root: Path) -> None:  # noqa: F811
    tasks = _pushed(root)
    assert _pull(root, ui_export(tasks)).exit_code == 1  # the scenario has 2 problems
    snapshot = root / ROUND_DIR / "annotations.json"
    good = snapshot.read_bytes()

    for worse in ([], ui_export(tasks[:3])):  # another project's empty export; a partial one
        result = _pull(root, worse)
        assert result.exit_code == 2, result.output
        assert "annotations.json" in result.output and "--force" in result.output
        assert snapshot.read_bytes() == good

    result = _pull(root, [], "--force")
    assert result.exit_code == 0, result.output
    assert json.loads(snapshot.read_text())["answers"] == []


def test_the_same_or_a_better_export_replaces_the_snapshot(root: Path) -> None:  # noqa: F811
    tasks = _pushed(root)
    assert _pull(root, ui_export(tasks[:3])).exit_code in (0, 1)
    fewer = len(json.loads((root / ROUND_DIR / "annotations.json").read_text())["answers"])
    assert _pull(root, ui_export(tasks)).exit_code == 1
    more = len(json.loads((root / ROUND_DIR / "annotations.json").read_text())["answers"])
    assert more == 33 > fewer
    assert _pull(root, ui_export(tasks)).exit_code == 1  # a rerun is not "worse"


def test_a_round_never_pushed_is_refused(root: Path) -> None:  # noqa: F811
    result = _pull(root, [])
    assert result.exit_code == 2
    assert "round r1 was never pushed" in result.output
