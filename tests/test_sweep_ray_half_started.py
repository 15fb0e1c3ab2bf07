"""``curate sweep --engine ray --address HOST:PORT`` against a half-started cluster (issue 46).

A real head started as a user starts one (``ray start --head``, one CPU, ports and a temp dir
of its own: ``tests/support/ray_cluster.py``) whose raylet is then killed with ``kill -9``:
its GCS still answers, and lists the node as alive until its health checks fail. ``ray.init``
then waited in silence for Ray's 60-s request timeout and said only "Failed to connect"; the
sweep now says at once what it waits for and ends at ``--connect-timeout`` with one sentence
(exit 2). A healthy head is joined without a word. Each test starts its own head and stops
it, by the process groups it started (never ``ray stop``), also when the test fails.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.sweep_project import write_project

ray = pytest.importorskip("ray")
psutil = pytest.importorskip("psutil")

from tests.support.ray_cluster import RayCluster  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 6.0


@pytest.fixture
def head() -> Iterator[RayCluster]:
    cluster = RayCluster(cpus=1, nodes=1)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def _kill_raylet(cluster: RayCluster) -> None:
    raylets = [p for p in cluster.processes() if p.name() == "raylet"]
    assert len(raylets) == 1, raylets
    raylets[0].kill()
    psutil.wait_procs(raylets, timeout=10)
    assert cluster.processes() and not [
        p for p in cluster.processes() if p.name() == "raylet"
    ], "the GCS must live on without the raylet"


def test_a_healthy_head_is_joined_without_a_wait(head, monkeypatch):
    from curate.sweep.ray_connect import probe

    monkeypatch.setenv("HOME", str(head.home))
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    told: list[str] = []
    start = time.monotonic()
    probe(head.address, TIMEOUT_S, told.append)
    assert told == []
    assert time.monotonic() - start < TIMEOUT_S


def test_a_head_whose_raylet_died_is_named_within_the_connect_timeout(head, tmp_path):
    _kill_raylet(head)
    plan = write_project(tmp_path, models=(("bert", "bert"),))
    env = {**head.env(RAY_AUTH_MODE="token"), "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-m", "curate", "sweep", str(plan), "--engine", "ray",
        "--address", head.address, "--connect-timeout", str(TIMEOUT_S),
    ]  # fmt: skip
    start = time.monotonic()
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:  # a hung driver must not outlive the test
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait()
    elapsed = time.monotonic() - start
    assert process.returncode == 2, (process.returncode, stderr[-3000:])
    assert "Traceback" not in stderr + stdout
    flat = " ".join(stderr.split())
    assert f"waiting for the Ray cluster at {head.address} (GCS up, no node alive)" in flat
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    assert "no node alive" in flat and "--connect-timeout" in flat
    # it waited for the node until the timeout, and no longer (start-up costs aside)
    assert TIMEOUT_S <= elapsed < TIMEOUT_S + 20, elapsed
    assert not (tmp_path / "out" / "sweep.json").exists()
