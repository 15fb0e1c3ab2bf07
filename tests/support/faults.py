"""Kill a real ``curate`` process in the write window of its output phase, then check the outputs.

The test side only (no hook in curate): the child process gets a ``sitecustomize`` that slows
every ``fsync`` a little and, at the first one, touches a marker file (it also gives SIGINT its
default Python handler, which a background job's children would not have). The parent waits
for the marker (the output phase has begun), sleeps a random part of the write window and
sends ``SIGKILL`` or ``SIGINT``. Then:

- the output is *all old or all new*: the bytes of every file of the set equal those of an
  uninterrupted run of the old command or of the new one (the outputs are deterministic);
- after a rerun of the new command, the set is the new one and nothing is left beside it
  (no hidden staging folder, no temporary file).

Used by tests/test_faults.py (a few trials per command) and benchmarks/fault_trials.py (20).
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: Slows the child's fsync calls and marks the start of its output phase.
SITECUSTOMIZE = '''
import os, signal, time
# Ctrl-C raises KeyboardInterrupt as in a terminal, also when the trials run as a background
# job (whose children inherit SIGINT ignored, so a SIGINT trial would test nothing)
signal.signal(signal.SIGINT, signal.default_int_handler)
_marker = os.environ.get("CURATE_FAULT_MARKER")
_delay = float(os.environ.get("CURATE_FAULT_FSYNC_DELAY", "0.05"))
_fsync = os.fsync
def _slow_fsync(fd):
    if _marker and not os.path.exists(_marker):
        open(_marker, "w").close()
    time.sleep(_delay)
    return _fsync(fd)
os.fsync = _slow_fsync
'''


@dataclass(frozen=True)
class FaultCommand:
    """A command whose output set is checked: old and new argument lists, the output path."""

    name: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    #: The output (a folder or a file), relative to the project.
    output: str
    #: Prepares the project (inputs); called once.
    setup: Callable[[Path], None] | None = None


def state(path: Path) -> dict[str, str] | None:
    """The output as ``{relative name: sha256}`` (a file: one entry ``""``); None if absent."""
    if not os.path.lexists(path):
        return None
    if path.is_file():
        return {"": hashlib.sha256(path.read_bytes()).hexdigest()}
    found = {}
    for item in sorted(path.rglob("*")):
        if item.is_file() and not any(_hidden_work(part) for part in item.relative_to(path).parts):
            found[str(item.relative_to(path))] = hashlib.sha256(item.read_bytes()).hexdigest()
    return found


def _hidden_work(name: str) -> bool:
    """A writer's hidden staging or temporary name (invisible to a reader of the outputs)."""
    return name.startswith(".") and name.endswith((".staging", ".tmp", ".new", ".old"))


def leftovers(path: Path) -> list[str]:
    """Hidden entries beside ``path`` or inside it that a writer of ``path`` made."""
    name = path.name
    found = [p.name for p in path.parent.glob(f".{name}*")]
    if path.is_dir():
        found += [str(p.relative_to(path)) for p in path.rglob(".*") if _hidden_work(p.name)]
    return sorted(found)


def _env(project: Path, marker: Path | None, delay: float) -> dict[str, str]:
    site = project.parent / "faults-site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CURATE_DATA_MIRROR"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(REPO)])
    env["CURATE_FAULT_FSYNC_DELAY"] = str(delay)
    env["HF_HUB_OFFLINE"] = "1"
    if marker is not None:
        env["CURATE_FAULT_MARKER"] = str(marker)
    else:
        env.pop("CURATE_FAULT_MARKER", None)
    return env


def run(project: Path, args: tuple[str, ...], delay: float = 0.0) -> subprocess.CompletedProcess:
    """Run ``curate args`` to completion in ``project``."""
    return subprocess.run(
        [sys.executable, "-m", "curate", *args],
        cwd=project,
        env=_env(project, None, delay),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@dataclass
class Trial:
    command: str
    signal: str
    outcome: str  # "old", "new", "killed before the output phase", or a failure
    ok: bool


def reference_states(project: Path, command: FaultCommand) -> tuple[dict, dict]:
    """The output of an uninterrupted old run and of a new one (kept in ``project``: new)."""
    out = project / command.output
    _remove(out)
    result = run(project, command.new)
    assert result.returncode in (0, 1), (command.new, result.stderr)
    new = state(out)
    _remove(out)
    if command.old:
        result = run(project, command.old)
        assert result.returncode in (0, 1), (command.old, result.stderr)
    old = state(out)
    assert old != new, f"{command.name}: the old and new runs must write different outputs"
    return old, new


def _remove(out: Path) -> None:
    if out.is_dir() and not out.is_symlink():
        shutil.rmtree(out)
    elif os.path.lexists(out):
        out.unlink()


def trial(
    project: Path,
    command: FaultCommand,
    old: dict,
    new: dict,
    rng: random.Random,
    sig: signal.Signals,
    delay: float = 0.05,
) -> Trial:
    """One kill of the new command over the old output, then the checks and a rerun."""
    out = project / command.output
    if state(out) != old:  # start from the old set
        _remove(out)
        if command.old:
            run(project, command.old)
    assert state(out) == old
    marker = project.parent / "faults-marker"
    marker.unlink(missing_ok=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "curate", *command.new],
        cwd=project,
        env=_env(project, marker, delay),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    # a random moment of the write window (a few slowed fsyncs long)
    time.sleep(rng.uniform(0, delay * 6))
    if proc.poll() is None:
        proc.send_signal(sig)
    proc.wait(timeout=300)
    after = state(out)
    outcome = "old" if after == old else "new" if after == new else f"MIXED {after}"
    ok = outcome in ("old", "new")
    rerun = run(project, command.new)
    if rerun.returncode not in (0, 1) or state(out) != new:
        outcome += f"; rerun failed ({rerun.returncode}: {rerun.stderr.strip()[-200:]})"
        ok = False
    left = leftovers(out)
    if left:
        outcome += f"; left after the rerun: {left}"
        ok = False
    return Trial(command.name, sig.name, outcome, ok)
