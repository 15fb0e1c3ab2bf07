"""Make the Ray that a sweep starts die with its driver, even under ``kill -9``.

``ray.init()`` starts Ray's daemons (GCS, raylet, and the raylet's dashboard and runtime-env
agents) and a "reaper" that kills its process group when the driver's pipe closes; but the
agents leave that group, so after ``kill -9`` of the driver two agents lived on (60 s later,
still there). Ctrl-C and a normal end call ``ray.shutdown()``, which stops them all.

This watchdog is a small process the driver starts beside the Ray it owns. It reads the
driver's pipe on one thread and, every ``INTERVAL_S``, records the driver's Ray descendants
(by pid and start time, so a reused pid is never hit). When the pipe closes without the word
``done`` (the driver died before it shut Ray down), it sends TERM, then KILL after a grace
period, to every recorded process still alive; after ``done`` it exits and touches nothing.
A process started by Ray in the last ``INTERVAL_S`` before the kill can be missed; the
raylet's own death then ends it (its workers and agents watch their raylet).

Run as ``python -m curate.sweep.ray_watchdog DRIVER_PID`` with the driver's pipe on stdin.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import psutil

INTERVAL_S = 1.0
GRACE_S = 3.0
DONE = b"done\n"


def _is_ray(process: psutil.Process) -> bool:
    """A process of Ray's: its daemons, agents and workers (not any child of the driver)."""
    marker = f"{os.sep}ray{os.sep}"
    with contextlib.suppress(psutil.Error):
        if process.pid == os.getpid():
            return False
        name = process.name()
        if name in ("gcs_server", "raylet") or name.startswith("ray::"):
            return True
        return any(marker in part for part in process.cmdline()[:3])
    return False


def _snapshot(driver: psutil.Process, seen: dict[int, float]) -> None:
    with contextlib.suppress(psutil.Error):
        for child in driver.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if child.pid not in seen and _is_ray(child):
                    seen[child.pid] = child.create_time()


def _reap(seen: dict[int, float]) -> None:
    alive = []
    for pid, started in seen.items():
        with contextlib.suppress(psutil.Error):
            process = psutil.Process(pid)
            if process.create_time() == started:
                alive.append(process)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.terminate()
    _, left = psutil.wait_procs(alive, timeout=GRACE_S)
    for process in left:
        with contextlib.suppress(psutil.Error):
            process.kill()


def watch(driver_pid: int, pipe: IO[bytes]) -> None:
    """Record the driver's Ray processes until the pipe closes; reap them unless ``done``."""
    seen: dict[int, float] = {}
    message: list[bytes] = []
    reader = threading.Thread(target=lambda: message.append(pipe.read()), daemon=True)
    reader.start()
    try:
        driver = psutil.Process(driver_pid)
    except psutil.Error:
        return
    while reader.is_alive():
        _snapshot(driver, seen)
        reader.join(INTERVAL_S)
    if message and message[0].endswith(DONE):
        return
    _reap(seen)


def code_path() -> str:
    """``PYTHONPATH`` for the workers: the folder holding the ``curate`` package first."""
    import curate

    root = str(Path(curate.__file__).resolve().parent.parent)
    existing = os.environ.get("PYTHONPATH", "")
    parts = [root, *(p for p in existing.split(os.pathsep) if p and p != root)]
    return os.pathsep.join(parts)


class Watchdog:
    """The driver's side: start the watchdog, and tell it ``done`` after ``ray.shutdown()``."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "curate.sweep.ray_watchdog", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": code_path()},
            start_new_session=True,  # a Ctrl-C of the driver's terminal must not reach it
        )

    def done(self) -> None:
        """Ray was shut down: the watchdog leaves without touching anything."""
        stdin = self._process.stdin
        with contextlib.suppress(OSError, ValueError):
            if stdin is not None:
                stdin.write(DONE)
                stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.stdin.buffer)
