"""``curate sweep --engine ray`` on real Ray (no mocks): a local Ray instance and a two-node
``ray.cluster_utils.Cluster`` on this machine run the plan of three tiny models x their methods
x two versions, and every per-column file is byte-identical to sequential ``curate score``."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli_imports import RUN_MAIN_AND_REPORT_HEAVY
from tests.support.sweep_project import KillOnce, column_files, reference, write_project
from tests.support.tiny_models import tiny_model_dir

ray = pytest.importorskip("ray")

from curate.sweep.plan import load_plan  # noqa: E402
from curate.sweep.run import run_sweep  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["local-ray", "two-node-cluster"])
def ray_cluster(request):
    """A real Ray: one local instance of 2 CPUs, or a head and a worker node of 1 CPU each."""
    if ray.is_initialized():
        ray.shutdown()
    if request.param == "local-ray":
        # a new instance ("local"), never a Ray already running on this machine (another
        # suite's cluster, a user's `ray start`), which num_cpus cannot be given to
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield request.param
        ray.shutdown()
        return
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    yield request.param
    ray.shutdown()
    cluster.shutdown()


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    root = tmp_path_factory.mktemp("reference")
    write_project(root)
    return column_files(reference(root))


def test_ray_sweep_writes_the_bytes_of_sequential_score_and_a_rerun_computes_nothing(
    ray_cluster, tmp_path, expected
):
    plan = load_plan(write_project(tmp_path))
    outcome = run_sweep(plan, engine="ray")
    assert not outcome.failed, [(s.job, s.reason) for s in outcome.failed]
    assert sum(s.computed for s in outcome.jobs) > 0
    assert column_files(tmp_path / "out") == expected
    again = run_sweep(plan, engine="ray")
    assert all(s.status == "cached" and s.computed == 0 for s in again.jobs)
    assert column_files(tmp_path / "out") == expected


def _with_corpus(root: Path) -> Path:
    """The test project of two models with a ``corpus`` key: capability measured per model."""
    from tests.support.sweep_project import MODELS
    from tests.support.tiny_models import training_corpus

    plan = write_project(root, models=MODELS[::2])  # one masked and one causal model
    sentences = [s for s in training_corpus()[:30] if s.strip()][:12]
    (root / "corpus.txt").write_text("\n".join(sentences) + "\n", encoding="utf-8")
    text = plan.read_text(encoding="utf-8")
    plan.write_text('corpus = "corpus.txt"\n' + text, encoding="utf-8")
    return plan


def test_a_plan_with_a_corpus_gives_the_local_engines_bytes(ray_cluster, tmp_path):
    """Capability beside bias (the plan's ``corpus``) through Ray: the perplexities and their
    intervals in summary.json, and every score, equal the local engine's (issue 34)."""
    local = run_sweep(load_plan(_with_corpus(tmp_path / "local")), engine="local")
    assert not local.failed, [(s.job, s.reason) for s in local.failed]
    through_ray = run_sweep(load_plan(_with_corpus(tmp_path / "ray")), engine="ray")
    assert not through_ray.failed, [(s.job, s.reason) for s in through_ray.failed]
    expected = column_files(tmp_path / "local" / "out")
    assert column_files(tmp_path / "ray" / "out") == expected
    summaries = [json.loads(v) for k, v in expected.items() if k.endswith("summary.json")]
    measured = {s["capability"]["measure"] for s in summaries if s["capability"]["value"] > 0}
    assert measured == {"perplexity", "pseudo-perplexity"}
    assert all(s["capability"]["corpus"]["sentences"] == 12 for s in summaries)


def test_a_worker_killed_during_a_job_is_retried_and_gives_the_same_bytes(
    ray_cluster, tmp_path, expected
):
    plan = load_plan(write_project(tmp_path))
    marker = tmp_path / "killed"
    outcome = run_sweep(plan, engine="ray", hook=KillOnce(str(marker)))
    assert marker.is_file(), "the hook did not kill a worker"
    assert not outcome.failed, [(s.job, s.reason) for s in outcome.failed]
    assert column_files(tmp_path / "out") == expected


def test_a_model_that_does_not_load_on_its_worker_fails_alone(ray_cluster, tmp_path, expected):
    broken = tmp_path / "damaged"
    shutil.copytree(tiny_model_dir("bert"), broken)
    weights = broken / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:100])  # the config reads, the weights do not
    extra = f'[[model]]\nname = "{broken}"\nlabel = "damaged"\n'
    plan = load_plan(write_project(tmp_path, extra_models=extra))
    outcome = run_sweep(plan, engine="ray")
    failed = {(s.job.model, s.job.version) for s in outcome.failed}
    assert failed == {("damaged", "v1"), ("damaged", "v2")}
    assert all("model.safetensors" in s.reason for s in outcome.failed)
    written = column_files(tmp_path / "out")
    assert {k: v for k, v in written.items() if k in expected} == expected
    document = json.loads((Path(plan.output) / "sweep.json").read_text(encoding="utf-8"))
    assert document["failed"] == len(outcome.failed)


def test_a_model_asking_more_cpus_than_any_node_has_fails_alone(ray_cluster, tmp_path, expected):
    extra = f'[[model]]\nname = "{tiny_model_dir("bert")}"\nlabel = "greedy"\nnum-cpus = 64\n'
    plan = load_plan(write_project(tmp_path, extra_models=extra))
    outcome = run_sweep(plan, engine="ray")
    assert {s.job.model for s in outcome.failed} == {"greedy"}
    assert all("64 CPUs" in s.reason for s in outcome.failed)
    written = column_files(tmp_path / "out")
    assert {k: v for k, v in written.items() if k in expected} == expected


_INTERRUPTED = """
import os, sys
from curate.sweep import run as sweep_run
from tests.support.sweep_project import InterruptDriver
original = sweep_run.run_sweep
marker = sys.argv[2]

def patched(plan, **options):
    hook = InterruptDriver(os.getpid(), marker, cache=str(plan.cache))
    return original(plan, hook=hook, **options)

sweep_run.run_sweep = patched
from curate.cli import main
sys.argv = ["curate", "sweep", sys.argv[1], "--engine", "ray", "--num-cpus", "1"]
main()
"""


def test_ctrl_c_of_the_driver_keeps_the_cache_consistent_and_a_rerun_resumes(tmp_path, expected):
    """The driver starts its own Ray; Ctrl-C stops it, keeps every stored batch, exits 130."""
    plan = write_project(tmp_path)
    marker = tmp_path / "interrupted"
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED, str(plan), str(marker)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert marker.is_file(), done.stderr
    assert done.returncode == 130, done.stderr
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = db.execute("SELECT COUNT(*) FROM logprobs").fetchone()[0]
    assert stored > 0
    resumed = run_sweep(load_plan(plan), engine="local")
    assert not resumed.failed
    assert column_files(tmp_path / "out") == expected
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        assert stored < db.execute("SELECT COUNT(*) FROM logprobs").fetchone()[0]


_DRIVER = """
import json, sys
sys.argv = ["curate", "sweep", sys.argv[1], "--engine", "ray", "--num-cpus", "1"]
""" + RUN_MAIN_AND_REPORT_HEAVY


def test_the_driver_imports_neither_torch_nor_transformers(tmp_path):
    """Issue 32: ``curate sweep --engine ray`` (a masked and a causal model, a corpus) plans,
    dispatches and writes every file without importing torch or transformers (4 s and 3 s of
    the driver's CPU before): the workers score, and they alone need them."""
    plan = _with_corpus(tmp_path)
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER, str(plan)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
    document = json.loads((tmp_path / "out" / "sweep.json").read_text(encoding="utf-8"))
    assert document["failed"] == 0 and document["columns"]
    assert set(document["capability"]) == {"bert", "gpt2"}


def _ray_descendants(pid: int) -> list:
    """The Ray processes below ``pid`` (daemons, agents, workers), as psutil processes."""
    import psutil

    found = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            name, cmdline = child.name(), " ".join(child.cmdline()[:3])
        except psutil.Error:
            continue
        if name in ("gcs_server", "raylet") or name.startswith("ray::") or "/ray/" in cmdline:
            found.append(child)
    return found


def test_kill_9_of_the_driver_ends_the_ray_it_started(tmp_path):
    """Issue 36, item 13: after kill -9 of a driver with --engine ray, nothing of the Ray it
    started is left (Ray's reaper missed the raylet's agents: two lived on for minutes)."""
    import psutil

    plan = write_project(tmp_path)
    root = Path(__file__).resolve().parent.parent
    driver = subprocess.Popen(
        [sys.executable, "-m", "curate", "sweep", str(plan), "--engine", "ray", "--num-cpus", "1"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    ray_processes: list = []
    try:
        deadline = time.monotonic() + 300
        # wait until the worker runs a group: every daemon and agent has started by then
        while time.monotonic() < deadline and driver.poll() is None:
            ray_processes = _ray_descendants(driver.pid)
            names = {p.name() for p in ray_processes if p.is_running()}
            working = [n for n in names if n.startswith("ray::") and "Agent" not in n]
            if any(n != "ray::IDLE" for n in working) and any("Agent" in n for n in names):
                break
            time.sleep(0.5)
        assert driver.poll() is None, "the sweep ended before it could be killed"
        time.sleep(2.5)  # the watchdog records every second
        ray_processes = _ray_descendants(driver.pid)
        assert len(ray_processes) >= 4, ray_processes
        driver.kill()
        driver.wait(timeout=30)
        _, alive = psutil.wait_procs(ray_processes, timeout=30)
        assert not alive, [(p.pid, p.name()) for p in alive]
    finally:
        if driver.poll() is None:
            driver.kill()
        for process in _leftovers(ray_processes):
            process.kill()


def _leftovers(processes: list) -> list:
    import psutil

    out = []
    for process in processes:
        try:
            if process.is_running():
                out.append(process)
        except psutil.Error:
            continue
    return out
