"""The test harness itself: every test runs in a temporary project (tests/conftest.py).

Commands find their project from the working directory; a test that ran in the repository
would read what ``make demo`` left there (its score and token caches, build/, fetched data).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from curate.config import load_config
from tests.conftest import REPO


def test_each_test_runs_in_its_own_temporary_project(tmp_path: Path) -> None:
    cwd = Path.cwd().resolve()
    assert not cwd.is_relative_to(REPO)
    assert cwd != tmp_path.resolve()  # the test's own tmp_path stays empty for it
    assert list(tmp_path.iterdir()) == []
    cfg = load_config()
    assert cfg.root.resolve() == cwd
    assert cfg.output_dir.resolve().is_relative_to(cwd)
    assert cfg.data.resolve().is_relative_to(cwd)
    assert (cwd / "data" / "raw" / "sources.toml").read_bytes() == (
        REPO / "data" / "raw" / "sources.toml"
    ).read_bytes()


def test_two_tests_never_share_a_project(_temporary_project: Path) -> None:
    assert not (_temporary_project / "marker").exists()
    (_temporary_project / "marker").write_text("one test only", encoding="utf-8")


def test_two_tests_never_share_a_project_either(_temporary_project: Path) -> None:
    assert not (_temporary_project / "marker").exists()


def test_a_subprocess_starts_in_the_temporary_project() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getcwd())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(out).resolve() == Path.cwd().resolve()
