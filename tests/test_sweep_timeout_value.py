"""A non-finite --connect-timeout is one sentence (exit 2), not a ValueError from settimeout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_non_finite_connect_timeout_is_refused(tmp_path: Path, value: str) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text("", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "curate",
            "sweep",
            str(plan),
            "--engine",
            "ray",
            "--address",
            "127.0.0.1:1",
            "--connect-timeout",
            value,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert "--connect-timeout must be a finite number" in done.stderr + done.stdout
