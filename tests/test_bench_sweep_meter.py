"""benchmarks/bench_sweep.py's breakdown of CPU by kind of process (issue 32's figures).

Ray's Python agents carry ``--raylet-name`` on their command lines: a needle search counted the
dashboard agent's 2.2 s of CPU as the raylet's. The native daemons are now told by their
program's name.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("psutil")
ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_sweep", ROOT / "benchmarks" / "bench_sweep.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_sweep", module)
    spec.loader.exec_module(module)
    return module


@dataclass
class FakeProcess:
    """What process_kind reads of a psutil.Process."""

    pid: int
    argv: list[str] = field(default_factory=list)
    program: str = "python"

    def cmdline(self) -> list[str]:
        return self.argv

    def name(self) -> str:
        return self.program


@pytest.mark.parametrize(
    ("argv", "kind", "program"),
    [
        (["/venv/lib/ray/core/src/ray/raylet/raylet", "--node_ip_address=127.0.0.1"], "raylet", "python"),
        (["/venv/lib/ray/core/src/ray/gcs/gcs_server", "--gcs_server_port=6379"], "gcs", "python"),
        (["/venv/bin/python", "-u", "/venv/lib/ray/dashboard/agent.py",
          "--raylet-name=session/sockets/raylet"], "dashboard agent", "python"),
        (["ray::DashboardAgent"], "dashboard agent", "python"),
        (["/venv/bin/python", "-u", "/venv/lib/ray/_private/runtime_env/agent/main.py",
          "--raylet-name=session/sockets/raylet"], "runtime-env agent", "python"),
        (["/venv/bin/python", "-u", "/venv/lib/ray/_private/log_monitor.py",
          "--logs-dir=session/logs"], "log monitor", "python"),
        (["ray::IDLE"], "idle worker", "python"),
        (["ray::RayScorer.score"], "worker", "python"),
        ([], "worker", "ray::SweepWorke"),  # its command line unreadable: its title tells
    ],
)
def test_each_ray_process_is_counted_as_what_it_is(
    argv: list[str], kind: str, program: str
) -> None:
    bench = _bench()
    me = FakeProcess(pid=1)
    assert bench.process_kind(FakeProcess(pid=2, argv=argv, program=program), me) == kind


def test_a_prestarted_worker_that_takes_the_actor_is_a_worker_for_good() -> None:
    """Ray prestarts idle workers (``ray::IDLE``); the sweep's actor takes one. Its CPU is the
    scoring's: it must not stay an "idle worker", nor become one again when the actor ends."""
    bench = _bench()
    kind = None
    for seen in ("idle worker", "worker", "idle worker"):
        kind = bench.settled_kind(kind, seen)
    assert kind == "worker"
    assert bench.settled_kind(None, "idle worker") == "idle worker"


def test_the_benchmark_itself_is_the_driver() -> None:
    bench = _bench()
    me = FakeProcess(pid=7, argv=["python", "benchmarks/bench_sweep.py"])
    assert bench.process_kind(me, me) == "driver"


def test_the_meter_leaves_its_own_sampling_out_of_the_driver() -> None:
    """The sampling thread reads every process of the tree ten times a second: beside Ray's
    ten processes that cost counted as the driver's, i.e. as Ray's overhead. Here a sleeping
    process is sampled five hundred times a second: the CPU is the meter's, not the driver's."""
    import time

    meter = _bench().TreeMeter(interval=0.002)
    try:
        before, total0 = meter.snapshot(), meter.total()
        time.sleep(1.5)
        where, total = meter.breakdown(before), meter.total() - total0
    finally:
        meter.stop()
    assert where["meter"] > 0.0
    assert where.get("driver", 0.0) < where["meter"]
    assert total < where["meter"] + where.get("driver", 0.0)


def _burn(seconds: float) -> None:
    """Spin this thread until its own CPU clock has advanced by ``seconds``."""
    import time

    start = time.thread_time()
    while time.thread_time() - start < seconds:
        sum(i * i for i in range(1000))


def test_the_scoring_clock_counts_the_scoring_threads_alone(tmp_path: Path) -> None:
    """Two groups, one after the other (so the second's threads may get the first's ids): each
    group's thread calls the hook after every batch while a batch worker (named as
    ``run_batches`` names them) has computed beside it. Both threads' CPU is counted, each at
    its last reading; the driver's thread, which calls no hook, and a thread of another name
    (Ray's, rich's) are not."""
    import threading
    import time

    from curate.score.passes import BATCH_THREADS

    bench = _bench()
    clock = bench.ScoringClock(tmp_path / "clock.txt")
    spent: list[float] = []

    def batch_worker(done: threading.Event, stop: threading.Event) -> None:
        _burn(0.1)
        done.set()
        stop.wait()
        spent.append(time.thread_time())

    def other(stop: threading.Event) -> None:
        _burn(0.1)
        stop.wait()

    def group(index: int, batches: int) -> None:
        done, stop = threading.Event(), threading.Event()
        pool = threading.Thread(
            target=batch_worker, args=(done, stop), name=f"{BATCH_THREADS}_{index}"
        )
        bystander = threading.Thread(target=other, args=(stop,), name="ThreadPoolExecutor-9_0")
        pool.start()
        bystander.start()
        done.wait()
        for _ in range(batches):
            _burn(0.05)
            clock()
        spent.append(time.thread_time())
        stop.set()
        pool.join()
        bystander.join()

    for index, batches in enumerate((3, 2)):
        thread = threading.Thread(target=group, args=(index, batches), name="sweep-group")
        thread.start()
        thread.join()
    _burn(0.2)  # the driver's own work: not scoring
    total = bench.scoring_cpu(tmp_path / "clock.txt")
    assert len(spent) == 4
    assert total == pytest.approx(sum(spent), abs=0.05)
    assert bench.scoring_cpu(tmp_path / "none.txt") == 0.0


def test_the_engines_own_cpu_does_not_move_with_the_scorings(tmp_path: Path) -> None:
    """Ray's own CPU per job sets the scoring threads' CPU apart in both engines: when the
    scoring of the same jobs costs Ray's worker 5 s more (this host's noise), the figure does
    not move; when Ray's driver or daemons cost 1 s more, it grows by 1 s over the
    sequential engine's 70 s for the extra jobs."""
    bench = _bench()

    def run(cpu: float, scoring: float) -> dict:
        return {"cpu_s": cpu, "scoring_cpu_s": scoring, "engine_cpu_s": cpu - scoring}

    seq, seq_one = run(100.0, 90.0), run(30.0, 26.0)
    ray1, ray1_one = run(110.0, 95.0), run(38.0, 30.0)
    base = bench.marginal_engine(seq, seq_one, ray1, ray1_one)
    assert base == pytest.approx((7.0 - 6.0) / 70.0, abs=1e-4)
    noisier = run(115.0, 100.0)
    assert bench.marginal_engine(seq, seq_one, noisier, ray1_one) == base
    assert bench.scoring_ratio(seq, seq_one, noisier, ray1_one) > bench.scoring_ratio(
        seq, seq_one, ray1, ray1_one
    )
    costlier = run(111.0, 95.0)
    assert bench.marginal_engine(seq, seq_one, costlier, ray1_one) == pytest.approx(
        base + 1.0 / 70.0, abs=1e-4
    )
    assert bench.marginal_engine(seq, seq, ray1, ray1_one) is None  # no extra job to divide by


def test_a_local_sweep_reads_the_clock_on_its_scoring_thread(tmp_path: Path) -> None:
    """The clock is a real batch hook: a local sweep of the test project calls it on each
    group's thread, which ``run_batches``' named workers compute for, and the scoring it reads
    is a part of the process's CPU for the sweep, not all of it."""
    import resource

    from curate.sweep.plan import load_plan
    from curate.sweep.run import run_sweep
    from tests.support.sweep_project import write_project

    bench = _bench()
    plan = load_plan(write_project(tmp_path / "project"))
    clock = tmp_path / "clock.txt"
    before = resource.getrusage(resource.RUSAGE_SELF)
    outcome = run_sweep(plan, engine="local", hook=bench.ScoringClock(clock))
    after = resource.getrusage(resource.RUSAGE_SELF)
    assert not outcome.failed
    process = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    threads = {line.split()[0] for line in clock.read_text(encoding="utf-8").splitlines()}
    # per model: its group's thread and, per job, a batch worker (threads = 1 in the plan)
    assert len(threads) > 3
    assert 0.0 < bench.scoring_cpu(clock) < process
