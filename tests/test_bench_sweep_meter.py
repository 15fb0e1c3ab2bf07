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
