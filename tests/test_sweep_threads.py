"""``curate sweep --threads N``: the CPU worker threads of each model job, as ``curate score
--threads`` and ``curate diff-report --threads`` (issue 46: the sweep refused the option).

The sweep runs as a user types it (``python -m curate sweep`` in a subprocess) on one tiny
model; a profile function that ``threading.setprofile`` gives every new thread records the
names of the threads that ran, so the test sees the scoring's own batch workers
(``curate-batch_<i>``, :data:`curate.score.passes.BATCH_THREADS`), not a setting. The numbers do
not depend on the number of workers (every batch runs on single-threaded kernels), so the
files of ``--threads 3`` are those of ``--threads 1``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from curate.score.passes import BATCH_THREADS
from curate.sweep.plan import load_plan
from curate.sweep.run import _read_versions, plan_groups
from tests.support.sweep_project import column_files, write_project

ROOT = Path(__file__).resolve().parents[1]

#: Run before the CLI: record the name of every thread started from now on, and write them
#: to the file named by the first argument when the process ends.
_RECORD_THREADS = """
import atexit, json, sys, threading
_names, _out = set(), sys.argv.pop(1)
def _seen(frame, event, arg):
    _names.add(threading.current_thread().name)
    sys.setprofile(None)
threading.setprofile(_seen)
atexit.register(lambda: open(_out, "w").write(json.dumps(sorted(_names))))
"""


def _sweep(root: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    plan = write_project(root, models=(("bert", "bert"),))
    names = root / "threads.json"
    code = (
        f"{_RECORD_THREADS}\nfrom curate.cli import main\n"
        "sys.argv = ['curate', *sys.argv[1:]]\nmain()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(names), "sweep", str(plan), *args],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    seen = json.loads(names.read_text(encoding="utf-8")) if names.exists() else []
    return done, [name for name in seen if name.startswith(BATCH_THREADS)]


def test_threads_sets_the_batch_workers_of_each_job(tmp_path: Path) -> None:
    three, workers = _sweep(tmp_path / "three", "--threads", "3")
    assert three.returncode == 0, three.stderr[-3000:]
    assert "Traceback" not in three.stderr
    assert workers == [f"{BATCH_THREADS}_{i}" for i in range(3)]
    one, workers = _sweep(tmp_path / "one", "--threads", "1")
    assert one.returncode == 0, one.stderr[-3000:]
    assert workers == [f"{BATCH_THREADS}_0"]
    assert column_files(tmp_path / "three" / "out") == column_files(tmp_path / "one" / "out")
    assert column_files(tmp_path / "one" / "out")


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_threads_is_checked_as_score_checks_it(tmp_path: Path, value: str) -> None:
    """The same refusal as ``curate score --threads`` (Click's ``min=1``): exit 2, no run."""
    done, _ = _sweep(tmp_path, "--threads", value)
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert "Invalid value for '--threads'" in done.stderr
    assert not (tmp_path / "out").exists()
    score = subprocess.run(
        [sys.executable, "-m", "curate", "score", "v1.csv", "--threads", value],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert score.returncode == 2
    said = [line for line in done.stderr.splitlines() if "--threads" in line]
    assert said and said == [line for line in score.stderr.splitlines() if "--threads" in line]


@pytest.mark.parametrize("engine", ["local", "ray"])
def test_threads_is_over_the_plan_and_the_ray_default(tmp_path: Path, engine: str) -> None:
    """The jobs' settings: ``--threads`` over the plan's ``threads`` (local) and over the
    model's ``num-cpus`` (Ray); without it, each engine's own default as before."""
    plan_file = write_project(tmp_path, models=(("bert", "bert"),))
    plan_file.write_text("threads = 2\n" + plan_file.read_text(encoding="utf-8"), "utf-8")
    plan = load_plan(plan_file)
    versions = [v for v, _, _ in _read_versions(plan)[0]]
    given, _, _ = plan_groups(plan, versions, engine, None, 3)
    assert [g.settings.threads for g in given] == [3]
    default, _, _ = plan_groups(plan, versions, engine)
    assert [g.settings.threads for g in default] == [2 if engine == "local" else 1]
