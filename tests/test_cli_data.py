"""CLI: help, version, fetch and stats, and exit code 2 without a traceback on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import __version__
from curate.cli import app
from tests.conftest import HEADER, REPO

runner = CliRunner()


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "fetch" in result.output and "stats" in result.output


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"curate {__version__}"


def test_stats_json(crows_pairs_path: Path) -> None:
    result = runner.invoke(app, ["stats", str(crows_pairs_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["pairs"] == 1508


def test_stats_text(crows_pairs_path: Path) -> None:
    result = runner.invoke(app, ["stats", str(crows_pairs_path)])
    assert result.exit_code == 0
    assert "1508 pairs (1290 stereo, 218 antistereo)" in result.output
    assert "race-color" in result.output and "34.2" in result.output


def test_bad_input_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "0,a.,b.,sideways,gender,,a0,\n")
    result = runner.invoke(app, ["stats", str(bad)])
    assert result.exit_code == 2
    assert "line 2: stereo_antistereo is 'sideways'" in result.output
    assert "Traceback" not in result.output


def test_console_script_subprocess(tmp_path: Path) -> None:
    """The installed entry point maps errors to exit 2 and prints one line to stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "curate", "stats", str(tmp_path / "missing.csv")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 2
    assert "missing.csv: no such file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_fetch_from_mirror_into_project(tmp_path: Path, crows_pairs_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "data" / "raw").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.curate]\n")
    (project / "data/raw/sources.toml").write_text((REPO / "data/raw/sources.toml").read_text())
    env = {**os.environ, "CURATE_DATA_MIRROR": str(crows_pairs_path.parent)}
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "curate", *args],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        check=False,
    )
    listed = run("fetch", "--list")
    assert listed.returncode == 0 and "missing" in listed.stdout
    fetched = run("fetch", "crows-pairs")
    assert fetched.returncode == 0, fetched.stderr
    assert "sha256 verified" in fetched.stderr
    assert (
        project / "data/raw/crows_pairs_anonymized.csv"
    ).stat().st_size == crows_pairs_path.stat().st_size
    assert "verified" in run("fetch", "--list").stdout
    stats = run("stats")
    assert stats.returncode == 0 and "1508 pairs" in stats.stdout
    unknown = run("fetch", "nope")
    assert unknown.returncode == 2 and "unknown source 'nope'" in unknown.stderr


def test_stats_default_path_missing_says_fetch(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "curate", "stats"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 2
    assert "run `curate fetch crows-pairs` first" in proc.stderr


@pytest.mark.parametrize("args", [["fetch"], ["fetch", "crows-pairs", "--list"]])
def test_fetch_usage_errors(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
