"""Ray's cost and gain for ``curate sweep``, measured side by side in one run.

The same plan (``--models`` random BERT-style masked LMs of equal size, ``pll``, one version of
the first ``--pairs`` CrowS-Pairs pairs) runs three times, each into a fresh output and cache:

1. **sequential**: the local engine, one torch thread (what ``curate score`` does);
2. **ray-1**: a local Ray with one CPU, so its tasks run one after another: the difference
   to sequential is Ray's overhead per job (task submission, shipping the pairs, streaming the
   rows back, the driver's writes);
3. **cluster-2**: a ``ray.cluster_utils.Cluster`` of two nodes with one CPU each: the
   speed-up over sequential is what a second machine buys;
4. **local-2**: the local engine in two processes at once, the models split between them,
   forked from this process: what this host's two CPUs give without Ray, the ceiling of
   cluster-2's speed-up here (two busy cores of a shared host are each slower than one), and
   ``two_node_efficiency`` = local-2's wall time / cluster-2's.

Each phase runs ``--repeats`` times, each into a fresh output and cache, and the fastest run
counts (as in ``bench_methods.py``); every run must write the same bytes (checked). Ray's start
(``ray.init``, the cluster's nodes) is timed apart. A sweep's Ray workers are actors, started
for the sweep and ended with it, so every run (not only the first) pays each worker's start: a
new Python importing ray, torch and transformers, which the sequential phase, running in this
process, has already imported. That cost is paid once per worker and sweep, not per job, so
the per-job overhead is measured as a *marginal* cost too: sequential and ray-1 also run the
plan's first model alone, and the overhead per job is the difference of the two engines' extra
time for the other ``--models - 1`` jobs (the once-per-sweep costs cancel out); the
difference of the one-job runs is the once-per-sweep cost. The workers' CPU for the same
scoring varies by several percent between runs on this shared host, so the marginal CPU is
also given *beside the workers* (``marginal_overhead_per_job_cpu_beside_workers``: the driver's
and Ray's daemons' CPU for the extra jobs, over the sequential engine's CPU for them), which
that variation does not move, and *apart from the scoring*
(``marginal_overhead_per_job_cpu_engine``): a batch hook (:class:`ScoringClock`) reads the CPU
clocks of the threads that score (the group's thread and its batch workers) in both engines,
and Ray's own CPU per job is what the extra jobs cost beyond their scoring on Ray less the same
on the sequential engine (the driver's cache and files cancel out; Ray's workers' other
threads, the driver's receiving and the daemons stay).
``marginal_scoring_cpu_ratio`` is the scoring's CPU on Ray over the sequential engine's for the
same jobs: how far it is from 1 is the host's noise (or a cost Ray puts on the scoring itself). Timings on a shared CPU are noisy: each figure
comes with the CPU share, the CPU time of the process tree (driver, and Ray's workers and
daemons) / (wall time x CPUs the phase may use), and where that CPU went by kind of process
(``cpu_by_process``: driver, worker, raylet, gcs, agents); a share well below 1 means other
processes took the CPU.

First (``--only tiny`` for this part alone), the *tiny jobs* of the test project (3 tiny models
x their methods x 2 versions, seconds each), run as a user types them: ``curate sweep`` in a
fresh process with the local engine, with ``--engine ray`` (the sweep starts and stops its own
Ray, on every CPU), with ``--engine ray --num-cpus 1`` (one worker runs every model), and with
``--address HOST:PORT`` on a standing cluster (one node, every CPU, ``ray start --head`` with
token auth, started before the runs: its start is not charged, its processes' CPU during each
run is); the CPU ratio to the local engine is the tiny-job overhead (goal: at most 1.2).

Then (``--only idle`` for this part alone) an *idle* Ray of one CPU is measured for
``--idle-seconds``: the CPU its daemons use per second while no task runs is paid for as long
as a job runs, the floor of the per-job overhead.

CPU time is that of the whole process tree, Ray's daemons, agents and workers included (they
are not this process's children to wait for, so ``/usr/bin/time`` misses them): a thread
samples the tree every 0.1 s and keeps each process's last reading (:class:`TreeMeter`).

Usage: ``python benchmarks/bench_sweep.py [--models 4] [--pairs 260] [--repeats 2]
[--only all|tiny|jobs|idle] [--idle-seconds 60] [--data PATH]`` (260 pairs: about 20 s of CPU per job on this machine, the quiet run of
docs/commands/sweep.md; its earlier run under load used ``--pairs 450``, about 33 s).
(needs the ``ray`` extra: ``pip install -e '.[ray]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import psutil
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from curate.datasets import read_pairs, write_pairs  # noqa: E402
from curate.sweep.plan import load_plan  # noqa: E402
from curate.sweep.run import run_sweep  # noqa: E402
from tests.support.sweep_project import column_files  # noqa: E402
from tests.support.tiny_models import build_tiny_model  # noqa: E402

#: Goals of issue 21.
TARGETS = {"overhead_per_job": 0.05, "two_node_speedup": 1.7, "tiny_cpu_ratio": 1.2}


def build_models(
    directory: Path, count: int, corpus: list[str], hidden: int, layers: int
) -> list[Path]:
    """``count`` BERT-style masked LMs of one size, different seeds (so different cache keys),
    with a WordPiece tokenizer trained on the data's sentences."""
    from transformers import BertConfig, BertForMaskedLM

    paths = []
    for seed in range(count):
        path = build_tiny_model("bert", directory / f"m{seed}", corpus, seed=seed)
        config = BertConfig.from_pretrained(path)
        config.hidden_size, config.num_hidden_layers = hidden, layers
        config.num_attention_heads, config.intermediate_size = max(1, hidden // 64), 4 * hidden
        torch.manual_seed(seed)
        BertForMaskedLM(config).eval().save_pretrained(path)
        paths.append(path)
    return paths


def write_plan(directory: Path, models: list[Path], data: Path) -> Path:
    lines = ['output = "out"\ncache = "cache.sqlite"\nthreads = 1\n']
    for path in models:
        lines.append(f'[[model]]\nname = "{path}"\nlabel = "{path.name}"\nmethods = ["pll"]\n')
    lines.append(f'[[version]]\nlabel = "v1"\ndata = "{data}"\n')
    plan = directory / "plan.toml"
    plan.write_text("\n".join(lines), encoding="utf-8")
    return plan


#: The sampling thread's CPU in a :meth:`TreeMeter.snapshot` (no process has pid -1).
METER_KEY = (-1, 0.0)


class TreeMeter:
    """CPU seconds of this process and every descendant, dead ones included.

    Ray's daemons, agents and workers are not this process's children to wait for (the raylet
    starts the workers, and an actor's process exits when the sweep ends it), so neither
    ``/usr/bin/time`` nor ``RUSAGE_CHILDREN`` sees them. A thread samples the tree every
    ``interval`` seconds and keeps each process's last reading (by pid and start time): a
    process that dies between two samples loses at most one interval of CPU.

    The readings alone make the total: ``RUSAGE_CHILDREN`` is *not* added. A child that this
    process starts and reaps (the ``curate sweep`` of the tiny runs) is in both, and until
    2026-11-28 it was counted twice: the tiny runs' CPU was the sweep's own CPU too high (a
    local run's 15 s read as 30 s), and the Ray-to-local ratios too low (1.94x for 2.9x).

    The sampling thread's own CPU (``meter`` in a breakdown) is left out of the totals: it
    reads every process of the tree ten times a second, so it costs more beside Ray's ten
    processes than beside the local engine's one (1.5 s against 0.6 s in a tiny run), which
    would count the meter as Ray's overhead."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        #: Processes outside the tree to count too (a standing cluster's, see ``outside``).
        self.outside: Callable[[], Iterable[psutil.Process]] = tuple
        self.last: dict[tuple[int, float], float] = {}
        #: What each process is (:func:`process_kind`), to say where the CPU went.
        self.kinds: dict[tuple[int, float], str] = {}
        #: CPU seconds the sampling thread has used (``time.thread_time`` in that thread).
        self.own = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        me = psutil.Process()
        for process in (me, *me.children(recursive=True), *self.outside()):
            try:
                with process.oneshot():
                    times = process.cpu_times()
                    key = (process.pid, process.create_time())
                    kind = process_kind(process, me)
                self.last[key] = times.user + times.system
                self.kinds[key] = settled_kind(self.kinds.get(key), kind)
            except psutil.Error:
                continue

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()
            self.own = time.thread_time()

    def total(self) -> float:
        """CPU seconds so far (every process ever seen, at its last reading), without the
        sampling thread's own."""
        self._sample()
        return sum(self.last.values()) - self.own

    def snapshot(self) -> dict[tuple[int, float], float]:
        """Every process's CPU seconds so far, to subtract in :meth:`breakdown` (the
        sampling thread's under the key ``METER_KEY``)."""
        self._sample()
        return {**self.last, METER_KEY: self.own}

    def breakdown(self, before: dict[tuple[int, float], float]) -> dict[str, float]:
        """CPU seconds since ``before``, by kind of process (driver, worker, raylet...); the
        sampling thread's are ``meter``, not the driver's."""
        self._sample()
        meter = self.own - before.get(METER_KEY, 0.0)
        spent: dict[str, float] = {"meter": meter}
        for key, seconds in self.last.items():
            kind = self.kinds.get(key, "other")
            spent[kind] = spent.get(kind, 0.0) + seconds - before.get(key, 0.0)
        spent["driver"] = spent.get("driver", 0.0) - meter
        ranked = sorted(spent.items(), key=lambda kv: -kv[1])
        return {kind: round(seconds, 2) for kind, seconds in ranked if seconds >= 0.05}

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


#: Ray's processes, by a piece of their command line (setproctitle names workers ``ray::...``).
#: Ray's two native daemons, told by their program's name: the Python agents' command lines
#: name the raylet too (``--raylet-name``), so a needle would count them as the raylet.
_RAY_PROGRAMS = {"gcs_server": "gcs", "raylet": "raylet"}
#: Ray's Python processes, by a needle of their command line (or the title Ray gives them).
_RAY_PROCESSES = (
    ("dashboard/agent.py", "dashboard agent"),
    ("DashboardAgent", "dashboard agent"),
    ("runtime_env/agent", "runtime-env agent"),
    ("log_monitor", "log monitor"),
    ("autoscaler/_private/monitor", "autoscaler monitor"),
    ("dashboard/dashboard.py", "api server"),
    ("ray_client_server", "client server"),
    ("ray::IDLE", "idle worker"),
    ("ray::", "worker"),
    ("default_worker.py", "worker"),
)


def settled_kind(previous: str | None, seen: str) -> str:
    """What a process is counted as, from what it was and what it is now: an idle worker
    (``ray::IDLE``, prestarted) that takes an actor becomes a ``worker`` for good, its past
    CPU included. Until 2026-11-29 the first label stuck, and a sweep's one worker, prestarted
    by Ray, was reported as an "idle worker" with all the scoring's CPU."""
    return previous if previous == "worker" else seen


def process_kind(process: psutil.Process, me: psutil.Process) -> str:
    """``driver`` for this process, Ray's role for Ray's processes, else the program name."""
    if process.pid == me.pid:
        return "driver"
    argv = process.cmdline()
    program = Path(argv[0]).name if argv else process.name()
    if program in _RAY_PROGRAMS:
        return _RAY_PROGRAMS[program]
    # a process whose command line cannot be read (a worker ending) still has its title
    command = " ".join(argv) or process.name()
    for needle, kind in _RAY_PROCESSES:
        if needle in command:
            return kind
    return process.name()


METER: TreeMeter | None = None


def tree_cpu() -> float:
    """CPU seconds of the whole process tree (see :class:`TreeMeter`)."""
    assert METER is not None
    return METER.total()


class ScoringClock:
    """A batch hook (``run_sweep(hook=...)``) that reads the CPU clocks of the threads scoring
    a group after every stored batch, and appends them to ``path``.

    Both engines score a group on a thread of its own (:func:`curate.sweep.jobs.run_group`),
    which computes the batches on worker threads (:func:`curate.score.passes.run_batches`,
    named :data:`~curate.score.passes.BATCH_THREADS`) and calls the hook after storing each:
    in this process for the local engine, in a Ray worker for Ray (the workers run on this
    machine and append to the same file). So a run's CPU splits in two: the *scoring*
    (loading the model and computing the batches, the same code in both engines) and the
    rest (the driver's cache and files, and for Ray its workers' other threads, its daemons,
    the driver's connection). The rest is what an engine costs; the scoring varies by several
    percent from run to run on this shared host whichever engine runs it, and no longer
    blurs the comparison.

    A thread's last reading misses what it does after the last batch (building the job's
    result from the stored rows): the same small part in both engines.
    """

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __call__(self) -> None:
        from curate.score.passes import BATCH_THREADS

        cpu = {t.id: t.user_time + t.system_time for t in psutil.Process().threads()}
        caller = threading.current_thread()
        batches = [t for t in threading.enumerate() if t.name.startswith(BATCH_THREADS)]
        lines = []
        for thread in (caller, *batches):
            seconds = cpu.get(thread.native_id or -1)
            if seconds is not None:
                lines.append(f"{_token(thread)} {seconds:.6f}\n")
        with open(self.path, "a", encoding="utf-8") as out:
            out.writelines(lines)


def _token(thread: threading.Thread) -> str:
    """A name for ``thread`` no other thread gets (ids are reused once a thread ends)."""
    token = getattr(thread, "scoring_clock_token", None)
    if token is None:
        token = f"{os.getpid()}-{thread.native_id}-{time.monotonic_ns()}"
        thread.scoring_clock_token = token  # type: ignore[attr-defined]
    return token


def scoring_cpu(path: Path) -> float:
    """CPU seconds of the scoring threads a :class:`ScoringClock` read: each thread's last
    (largest) reading, summed; 0 when none wrote."""
    last: dict[str, float] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            token, seconds = line.rsplit(" ", 1)
            last[token] = max(last.get(token, 0.0), float(seconds))
    return sum(last.values())


def run_once(name: str, base: Path, plan_text: str, engine: str, cpus: int) -> dict:
    """One sweep of the plan into a fresh folder (output and cache): its figures and files."""
    directory = base / name
    directory.mkdir()
    plan_path = directory / "plan.toml"
    plan_path.write_text(plan_text, encoding="utf-8")
    plan = load_plan(plan_path)
    assert METER is not None
    clock = directory / "scoring-clock.txt"
    before = METER.snapshot()
    cpu0, wall0 = tree_cpu(), time.perf_counter()
    outcome = run_sweep(plan, engine=engine, hook=ScoringClock(clock))
    wall = time.perf_counter() - wall0
    cpu = tree_cpu() - cpu0
    where = METER.breakdown(before)
    assert not outcome.failed, [(s.job, s.reason) for s in outcome.failed]
    jobs = len(outcome.jobs)
    scoring = scoring_cpu(clock)
    return {
        "run": name,
        "jobs": jobs,
        "wall_s": round(wall, 2),
        "per_job_s": round(wall / jobs, 2),
        "cpu_s": round(cpu, 2),
        "scoring_cpu_s": round(scoring, 2),
        "engine_cpu_s": round(cpu - scoring, 2),
        "cpu_share": round(cpu / (wall * cpus), 2),
        "cpu_by_process": where,
        "files": column_files(directory / "out"),
    }


def _sweep_in_child(plan_path: Path) -> None:
    """A forked process's local sweep (:func:`side_by_side`); exit code 1 when a job failed."""
    outcome = run_sweep(load_plan(plan_path), engine="local")
    os._exit(1 if outcome.failed else 0)


def side_by_side(name: str, base: Path, plan_texts: list[str]) -> dict:
    """The local engine in ``len(plan_texts)`` processes at once, one plan each (the models
    split between them), forked from this process (torch already imported, as for the
    sequential phase): what the host's CPUs give without Ray, the ceiling of the two-node
    speed-up here. On a shared host two busy cores are each slower than one (caches, memory
    bandwidth, the neighbours' load); a two-node speed-up is read against this figure."""
    import multiprocessing

    directory = base / name
    plans = []
    for i, text in enumerate(plan_texts):
        (directory / f"part{i}").mkdir(parents=True)
        plans.append(directory / f"part{i}" / "plan.toml")
        plans[-1].write_text(text, encoding="utf-8")
    assert METER is not None
    before = METER.snapshot()
    cpu0, wall0 = tree_cpu(), time.perf_counter()
    processes = [
        multiprocessing.get_context("fork").Process(target=_sweep_in_child, args=(plan,))
        for plan in plans
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    wall = time.perf_counter() - wall0
    cpu = tree_cpu() - cpu0
    where = METER.breakdown(before)
    assert all(p.exitcode == 0 for p in processes), [p.exitcode for p in processes]
    files: dict[str, bytes] = {}
    for plan in plans:
        files.update(column_files(plan.parent / "out"))
    return {
        "run": name,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "cpu_share": round(cpu / (wall * len(plans)), 2),
        "cpu_by_process": where,
        "files": dict(sorted(files.items())),
    }


def phase(
    name: str, base: Path, plan_text: str, engine: str, cpus: int, repeats: int, cold: bool = True
) -> dict:
    """``repeats`` runs (after a cold one for Ray, which also starts Ray's idle workers); the
    fastest counts, as in bench_methods."""
    first = cold and engine == "ray"
    cold_run = run_once(f"{name}-cold", base, plan_text, engine, cpus) if first else None
    runs = [run_once(f"{name}-{i}", base, plan_text, engine, cpus) for i in range(repeats)]
    best = min(runs, key=lambda r: r["wall_s"])
    return {"phase": name, "best": best, "runs": runs, "cold": cold_run}


def tiny_run(
    name: str, base: Path, engine_args: list[str], env: dict[str, str] | None = None
) -> dict:
    """``curate sweep`` of the test project (3 tiny models x their methods x 2 versions) as a
    user types it, in a fresh process, output and cache: wall and CPU of its whole tree (and
    of a standing cluster's processes, when the meter counts them: :func:`tiny`)."""
    import subprocess

    from tests.support.sweep_project import write_project

    directory = base / name
    plan = write_project(directory)
    text = plan.read_text(encoding="utf-8")
    plan.write_text(text.replace("batch-size", "threads = 1\nbatch-size", 1), encoding="utf-8")
    env = {**(env or os.environ), "PYTHONPATH": str(ROOT)}
    assert METER is not None
    before = METER.snapshot()
    cpu0, wall0 = tree_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "curate", "sweep", str(plan), *engine_args, "--format", "json"],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - wall0
    time.sleep(1.0)  # the meter's last sample of processes that ended with the sweep
    cpu = tree_cpu() - cpu0
    where = METER.breakdown(before)
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        "run": name,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "cpu_by_process": where,
        "files": column_files(directory / "out"),
    }


def tiny(base: Path, repeats: int, settle_s: float = 10.0) -> dict:
    """Local engine vs Ray on tiny jobs: a Ray the sweep starts and stops itself (as a user
    gets it with ``--engine ray``, on every CPU and on one), and a standing cluster of one node
    with every CPU, started beforehand with ``ray start --head`` and token auth, as a lab runs
    one (``--address HOST:PORT``).

    The standing cluster's start is not charged to the sweeps (a cluster serves many), but
    everything its processes use while a sweep runs is: the daemons' timers and polls, the
    worker the sweep's actor gets (its start and imports), the driver's connection.
    """
    from tests.support.ray_cluster import RayCluster

    assert METER is not None
    names = ("local", "ray", "ray-1cpu", "cluster")
    runs: dict[str, list[dict]] = {name: [] for name in names}
    args = {
        "local": [],
        "ray": ["--engine", "ray"],
        "ray-1cpu": ["--engine", "ray", "--num-cpus", "1"],
    }
    cluster = RayCluster(cpus=os.cpu_count() or 1, nodes=1).start()
    try:
        cluster.wait_for_nodes()
        time.sleep(settle_s)  # past its daemons' start-up
        env = {**cluster.env(RAY_AUTH_MODE="token"), "PYTHONPATH": str(ROOT)}
        args["cluster"] = ["--engine", "ray", "--address", cluster.address]
        for i in range(repeats):
            for name in names:
                # the cluster's processes count in its own runs only (the meter's sample at
                # the run's start takes their readings, so their past CPU cancels out)
                METER.outside = cluster.processes if name == "cluster" else tuple
                use = env if name == "cluster" else None
                runs[name].append(tiny_run(f"tiny-{name}-{i}", base, args[name], use))
    finally:
        METER.outside = tuple
        cluster.stop()
    written = [r.pop("files") for rs in runs.values() for r in rs]
    best = {name: min(rs, key=lambda r: r["cpu_s"]) for name, rs in runs.items()}
    return {
        "runs": runs,
        "same_bytes": all(files == written[0] for files in written),
        "cpu_ratio_ray": round(best["ray"]["cpu_s"] / best["local"]["cpu_s"], 3),
        "cpu_ratio_ray_1cpu": round(best["ray-1cpu"]["cpu_s"] / best["local"]["cpu_s"], 3),
        "cpu_ratio_standing_cluster": round(
            best["cluster"]["cpu_s"] / best["local"]["cpu_s"], 3
        ),
        "wall_ratio_ray": round(best["ray"]["wall_s"] / best["local"]["wall_s"], 3),
        "wall_ratio_standing_cluster": round(
            best["cluster"]["wall_s"] / best["local"]["wall_s"], 3
        ),
        "target_cpu_ratio": TARGETS["tiny_cpu_ratio"],
    }


def idle(seconds: float, settle_s: float = 10.0) -> dict:
    """What a Ray of one CPU, started as the ray-1 phase starts it, costs while nothing runs:
    the CPU its daemons, agents and idle worker use per second once started (their timers,
    polls and reports). A job on Ray pays it for as long as it runs, so it is the floor of the
    per-job overhead, whatever Ray's work for the job itself costs."""
    import ray

    assert METER is not None
    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        time.sleep(settle_s)  # past the start-up (the imports of every daemon and agent)
        before, wall0 = METER.snapshot(), time.perf_counter()
        time.sleep(seconds)
        wall = time.perf_counter() - wall0
        where = METER.breakdown(before)
    finally:
        ray.shutdown()
    cpu = sum(v for k, v in where.items() if k != "meter")
    return {
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 2),
        "cpu_share": round(cpu / wall, 4),
        "cpu_by_process": where,
    }


def _extra_jobs(run: dict, one: dict, measure: Callable[[dict], float]) -> float:
    """What the plan's jobs after the first cost, by ``measure``: the full run less the
    one-job run (the once-per-sweep costs cancel out)."""
    return measure(run) - measure(one)


def _sequential_extra(seq: dict, seq_one: dict, key: str) -> float | None:
    """The sequential engine's ``key`` for the extra jobs; None for a one-model plan, or
    noise larger than the jobs (every marginal figure divides by it)."""
    extra = _extra_jobs(seq, seq_one, lambda run: run[key])
    return extra if extra > 0 else None


def marginal(seq: dict, seq_one: dict, ray1: dict, ray1_one: dict, key: str) -> float | None:
    """Ray's overhead per job without the costs a sweep pays once (its workers' start): the
    time Ray took for the jobs after the first, over the time the sequential engine took."""
    sequential = _sequential_extra(seq, seq_one, key)
    if sequential is None:
        return None
    return round(_extra_jobs(ray1, ray1_one, lambda run: run[key]) / sequential - 1, 4)


def beside_workers(run: dict) -> float:
    """CPU seconds of a run spent outside Ray's workers: the driver (receiving the rows,
    writing the cache and the files) and Ray's daemons and agents."""
    workers = sum(v for k, v in run["cpu_by_process"].items() if k in ("worker", "idle worker"))
    return run["cpu_s"] - workers


def marginal_beside_workers(seq: dict, seq_one: dict, ray1: dict, ray1_one: dict) -> float | None:
    """The part of the marginal CPU overhead per job that is not the worker's scoring: what
    the extra jobs cost the driver and Ray's daemons, over the sequential engine's CPU for
    them. The workers' own CPU for the same scoring varies by several percent from run to run
    on this shared host (caches, the neighbours' load); this part does not depend on it. It
    charges Ray with all of the driver's work, the cache and files the sequential engine
    writes too (:func:`marginal_engine` does not)."""
    sequential = _sequential_extra(seq, seq_one, "cpu_s")
    if sequential is None:
        return None
    return round(_extra_jobs(ray1, ray1_one, beside_workers) / sequential, 4)


def marginal_engine(seq: dict, seq_one: dict, ray1: dict, ray1_one: dict) -> float | None:
    """Ray's own CPU per job: what the extra jobs cost apart from their scoring
    (:class:`ScoringClock`) on Ray, less the same on the sequential engine, over the
    sequential engine's CPU for them. Ray's part counts its workers' other threads (the
    polls, pickling the rows), the driver's receiving, and the daemons; the driver's cache and
    files cancel out, and so does the scoring, whose CPU varies from run to run on this host
    whichever engine runs it (:func:`scoring_ratio` says by how much)."""
    sequential = _sequential_extra(seq, seq_one, "cpu_s")
    if sequential is None:
        return None
    ray_own = _extra_jobs(ray1, ray1_one, lambda run: run["engine_cpu_s"])
    sequential_own = _extra_jobs(seq, seq_one, lambda run: run["engine_cpu_s"])
    return round((ray_own - sequential_own) / sequential, 4)


def scoring_ratio(seq: dict, seq_one: dict, ray1: dict, ray1_one: dict) -> float | None:
    """The scoring threads' CPU for the extra jobs on Ray over the sequential engine's: the
    same code on the same inputs, so how far it is from 1 is this host's run-to-run noise (or
    a cost Ray puts on the scoring thread itself)."""
    sequential = _sequential_extra(seq, seq_one, "scoring_cpu_s")
    if sequential is None:
        return None
    return round(_extra_jobs(ray1, ray1_one, lambda run: run["scoring_cpu_s"]) / sequential, 4)


def _machine(load0: float, load1: float) -> str:
    return f"{os.cpu_count()} CPUs, load average {load0:.1f} before, {load1:.1f} after"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=260)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--only",
        choices=("all", "tiny", "jobs", "idle"),
        default="all",
        help="tiny: the tiny-job comparison only; jobs: the 20-s jobs only; idle: an idle "
        "Ray's CPU only",
    )
    parser.add_argument(
        "--idle-seconds", type=float, default=60.0, help="how long the idle Ray is measured"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(os.environ.get("CURATE_DATA_MIRROR", ROOT / "data" / "raw"))
        / "crows_pairs_anonymized.csv",
    )
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    global METER
    METER = TreeMeter()
    torch.set_num_threads(1)
    base = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    try:
        load0 = os.getloadavg()[0]
        quiet = idle(args.idle_seconds) if args.only in ("all", "idle") else None
        if args.only == "idle":
            load1 = os.getloadavg()[0]
            print(json.dumps({"machine": _machine(load0, load1), "idle_ray": quiet}, indent=2))
            return
        small = tiny(base, args.repeats) if args.only in ("all", "tiny") else None
        if args.only == "tiny":
            load1 = os.getloadavg()[0]
            print(json.dumps({"machine": _machine(load0, load1), "tiny": small}, indent=2))
            return
        pairs = read_pairs(args.data)[: args.pairs]
        data = base / "pairs.csv"
        write_pairs(pairs, data)
        corpus = [s for p in pairs for s in (p.sent_more, p.sent_less)]
        models = build_models(base / "models", args.models, corpus, args.hidden, args.layers)
        plan_text = write_plan(base, models, data).read_text(encoding="utf-8")
        (base / "one").mkdir()
        one_text = write_plan(base / "one", models[:1], data).read_text(encoding="utf-8")
        seq = phase("sequential", base, plan_text, "local", 1, args.repeats)
        seq_one = phase("sequential-1job", base, one_text, "local", 1, args.repeats)
        half = (len(models) + 1) // 2
        halves = []
        for i, part in enumerate((models[:half], models[half:])):
            (base / f"half{i}").mkdir()
            halves.append(write_plan(base / f"half{i}", part, data).read_text(encoding="utf-8"))
        local2_runs = [side_by_side(f"local-2-{i}", base, halves) for i in range(args.repeats)]
        local2 = {"phase": "local-2", "runs": local2_runs, "cold": None,
                  "best": min(local2_runs, key=lambda r: r["wall_s"])}  # fmt: skip

        start = time.perf_counter()
        ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
        ray_start = time.perf_counter() - start
        ray1 = phase("ray-1", base, plan_text, "ray", 1, args.repeats)
        ray1_one = phase("ray-1-1job", base, one_text, "ray", 1, args.repeats, cold=False)
        ray.shutdown()

        start = time.perf_counter()
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        cluster_start = time.perf_counter() - start
        two = phase("cluster-2", base, plan_text, "ray", 2, args.repeats)
        ray.shutdown()
        cluster.shutdown()
        load1 = os.getloadavg()[0]

        every = [r for p in (seq, ray1, two, local2) for r in (*p["runs"], p["cold"]) if r]
        written = [r.pop("files") for r in every]
        same = all(files == written[0] for files in written)
        ones = [r.pop("files") for p in (seq_one, ray1_one) for r in p["runs"]]
        same = same and all(files == ones[0] for files in ones)
        s, r1, c2 = seq["best"], ray1["best"], two["best"]
        s1, o1 = seq_one["best"], ray1_one["best"]
        report = {
            "models": args.models,
            "pairs": args.pairs,
            "model_size": f"hidden {args.hidden}, {args.layers} layers",
            "machine": _machine(load0, load1),
            "phases": [seq, seq_one, local2, ray1, ray1_one, two],
            "ray_start_s": round(ray_start, 2),
            "cluster_start_s": round(cluster_start, 2),
            "worker_start_s": {
                "ray-1": round(ray1["cold"]["wall_s"] - r1["wall_s"], 2),
                "cluster-2": round(two["cold"]["wall_s"] - c2["wall_s"], 2),
            },
            "sequential_per_job_s": s["per_job_s"],
            "overhead_per_job": round((r1["wall_s"] - s["wall_s"]) / s["wall_s"], 4),
            "overhead_per_job_s": round((r1["wall_s"] - s["wall_s"]) / s["jobs"], 2),
            "overhead_per_job_cpu": round((r1["cpu_s"] - s["cpu_s"]) / s["cpu_s"], 4),
            # the once-per-sweep costs cancel out: (ray's extra jobs) / (sequential's) - 1
            "marginal_overhead_per_job": marginal(s, s1, r1, o1, "wall_s"),
            "marginal_overhead_per_job_cpu": marginal(s, s1, r1, o1, "cpu_s"),
            "marginal_overhead_per_job_cpu_beside_workers": marginal_beside_workers(
                s, s1, r1, o1
            ),
            # Ray's own CPU per job, the scoring threads' CPU set apart in both engines
            "marginal_overhead_per_job_cpu_engine": marginal_engine(s, s1, r1, o1),
            "marginal_scoring_cpu_ratio": scoring_ratio(s, s1, r1, o1),
            "once_per_sweep_s": round(o1["wall_s"] - s1["wall_s"], 2),
            "once_per_sweep_cpu_s": round(o1["cpu_s"] - s1["cpu_s"], 2),
            "two_node_speedup": round(s["wall_s"] / c2["wall_s"], 3),
            # the same split without Ray: two local processes at once on this host's CPUs
            "two_process_speedup_without_ray": round(s["wall_s"] / local2["best"]["wall_s"], 3),
            "two_node_efficiency": round(local2["best"]["wall_s"] / c2["wall_s"], 3),
            "same_bytes": same,
            "targets": TARGETS,
            "tiny": small,
            "idle_ray": quiet,
        }
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
