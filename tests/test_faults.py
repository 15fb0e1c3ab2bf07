"""Issue 25: kill -9 and Ctrl-C in the write window of every command that writes outputs.

A few trials per command here (``make test``); benchmarks/fault_trials.py runs 20 each and
prints the figures. See tests/support/faults.py for how the window is hit.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from tests.support.faults import FaultCommand, reference_states, trial

VERSION = "1.0.0-test"
TINY = "{tiny}"


def fault_commands(model: str) -> list[FaultCommand]:
    """The commands with two runs that write different outputs to the same place."""
    score = ("-m", model, "--no-cache")
    return [
        FaultCommand(
            "lint",
            ("lint", "pairs.csv", "--format", "jsonl", "-o", "out.jsonl"),
            ("lint", "pairs.csv", "--format", "jsonl", "-o", "out.jsonl", "--select", "T"),
            "out.jsonl",
        ),
        FaultCommand(
            "explore",
            ("explore", "pairs.csv", "--out", "site", "--no-tokens"),
            ("explore", "pairs2.csv", "--out", "site", "--no-tokens"),
            "site",
        ),
        FaultCommand(
            "score",
            ("score", "pairs.csv", *score, "-o", "sc"),
            ("score", "pairs2.csv", *score, "-o", "sc"),
            "sc",
        ),
        FaultCommand(
            "diff-report",
            ("diff-report", "pairs.csv", "pairs2.csv", "-m", model, "-o", "rep",
             "--bootstrap", "100"),
            ("diff-report", "pairs.csv", "pairs2.csv", "-m", model, "-o", "rep",
             "--bootstrap", "200"),
            "rep",
        ),
        FaultCommand("publish", (), ("publish", VERSION), f"data/clean/{VERSION}/dist"),
        FaultCommand(
            "revise",
            ("revise", "--fix", "T001", "-o", "rev"),
            ("revise", "--fix", "T001,T002,T004,T005", "-o", "rev"),
            "rev",
        ),
    ]


def fault_project(root: Path) -> None:
    """The hostile corpus's project plus a second pairs file (one pair dropped, one edited)."""
    from dataclasses import replace

    from curate.datasets import write_pairs
    from tests.support.release_project import PAIRS
    from tests.test_bad_input import build_project

    build_project(root)
    second = [replace(PAIRS[0], sent_more="Women can't drive at all."), *PAIRS[1:3]]
    write_pairs(second, root / "pairs2.csv")


@pytest.fixture(scope="module")
def model() -> str:
    from tests.support.tiny_models import tiny_model_dir

    return str(tiny_model_dir("bert"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lint", "explore", "score", "diff-report", "publish", "revise"])
def test_kill_in_the_write_window(name: str, model: str, tmp_path: Path) -> None:
    project = tmp_path / "project"
    fault_project(project)
    command = next(c for c in fault_commands(model) if c.name == name)
    old, new = reference_states(project, command)
    rng = random.Random(name)
    trials = [
        trial(project, command, old, new, rng, sig)
        for sig in (signal.SIGKILL, signal.SIGINT)
    ]
    failed = [t for t in trials if not t.ok]
    assert not failed, failed
