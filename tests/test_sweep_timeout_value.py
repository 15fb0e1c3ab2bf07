"""``--connect-timeout`` is refused, in one sentence (exit 2), wherever it cannot apply: a
non-finite value (nan or inf passed Click's ``min=0.1`` and reached ``socket.settimeout``, a
ValueError), the local engine (which has no cluster to wait for: it was ignored with no word,
while ``--address`` without ``--engine ray`` was refused), and ``--engine ray`` without
``--address`` (the Ray started for the run).

Each case runs ``python -m curate sweep`` on a real plan (the sweep project's three tiny models
and two versions), so the refusal is the one a user gets, not a plan that failed to load; the
last test checks that the default of the option refuses nothing (the sweep runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sweep_project import write_project

ROOT = Path(__file__).resolve().parents[1]


def _sweep(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    plan = write_project(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "curate", "sweep", str(plan), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _refusal(done: subprocess.CompletedProcess) -> str:
    """The one error line of a refused sweep, checked: exit 2, no traceback, nothing run."""
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_non_finite_connect_timeout_is_refused(tmp_path: Path, value: str) -> None:
    done = _sweep(
        tmp_path, "--engine", "ray", "--address", "127.0.0.1:1", "--connect-timeout", value
    )
    assert "--connect-timeout must be a finite number" in _refusal(done)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("engine", [[], ["--engine", "local"]])
def test_the_local_engine_refuses_a_connect_timeout_as_it_refuses_an_address(
    tmp_path: Path, engine: list[str]
) -> None:
    done = _sweep(tmp_path, *engine, "--connect-timeout", "5")
    assert _refusal(done) == "error: --connect-timeout needs --engine ray"
    assert not (tmp_path / "out").exists()
    address = _sweep(tmp_path, *engine, "--address", "127.0.0.1:1")
    assert _refusal(address) == "error: --address needs --engine ray"


def test_a_connect_timeout_without_an_address_is_refused(tmp_path: Path) -> None:
    """``--engine ray`` alone starts a Ray for the run: there is no cluster to wait for."""
    done = _sweep(tmp_path, "--engine", "ray", "--connect-timeout", "5")
    assert "--connect-timeout needs --address" in _refusal(done)
    assert not (tmp_path / "out").exists()


def test_the_default_timeout_refuses_nothing(tmp_path: Path) -> None:
    done = _sweep(tmp_path, "--format", "json", timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "out" / "sweep.json").is_file()
