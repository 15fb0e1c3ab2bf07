"""A Ray that ``curate sweep --engine ray`` starts prestarts idle workers only when the sweep
uses them (issue 32: every CPU got a prestarted Python that imported ray, while a sweep of
tiny models runs one actor)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from curate.score.settings import ScoreSettings  # noqa: E402
from curate.sweep.jobs import Group  # noqa: E402
from curate.sweep.plan import load_plan  # noqa: E402
from curate.sweep.ray_executor import (  # noqa: E402
    LARGE_MODEL_BYTES,
    PRESTART_SWITCH,
    prestart_pays,
)
from curate.sweep.run import run_sweep  # noqa: E402
from tests.support.sweep_project import CountIdleWorkers, column_files, write_project  # noqa: E402


def _group(name: str, cpus: float = 1.0, gpus: float = 0.0) -> Group:
    return Group(name, name, ("pll",), (), ScoreSettings(), num_cpus=cpus, num_gpus=gpus)


def _model_dir(root: Path, name: str, size: int) -> str:
    path = root / name
    path.mkdir()
    (path / "model.safetensors").write_bytes(b"\0" * size)
    return str(path)


def test_prestart_pays_only_when_the_first_actors_take_every_cpu(tmp_path: Path) -> None:
    small = [_group(_model_dir(tmp_path, f"s{i}", 10)) for i in range(3)]
    big = [_group(_model_dir(tmp_path, f"b{i}", LARGE_MODEL_BYTES)) for i in range(4)]
    assert not prestart_pays(small, cpus=2)  # one actor on two CPUs
    assert prestart_pays(big, cpus=2)  # four models of a real size: two actors at once
    assert not prestart_pays(big, cpus=8)  # four actors, eight CPUs: four would idle
    assert prestart_pays(big[:1], cpus=1)
    assert not prestart_pays([_group("org/model", cpus=2)], cpus=4)  # a hub id, 2 of 4 CPUs
    assert prestart_pays([_group("org/a", cpus=2), _group("org/b", cpus=2)], cpus=4)
    # GPUs are unknown before Ray starts: a GPU pool is as wide as its models
    assert prestart_pays([_group(f"org/{i}", gpus=1) for i in range(2)], cpus=2)


def test_a_sweep_of_tiny_models_on_the_ray_it_starts_leaves_no_idle_worker(
    tmp_path: Path,
) -> None:
    """On two CPUs Ray would prestart two workers; the tiny sweep's one actor takes none of
    them now: its worker is the only one, and the sweep writes what it always wrote."""
    if ray.is_initialized():
        ray.shutdown()
    marker = tmp_path / "idle"
    plan = load_plan(write_project(tmp_path / "p"))
    assert PRESTART_SWITCH not in os.environ
    outcome = run_sweep(plan, engine="ray", num_cpus=2, hook=CountIdleWorkers(str(marker)))
    assert not outcome.failed
    assert marker.read_text(encoding="utf-8") == "0"
    assert PRESTART_SWITCH not in os.environ  # lent to the Ray started, then taken back
    local = load_plan(write_project(tmp_path / "local"))
    run_sweep(local, engine="local")
    assert column_files(plan.output) == column_files(local.output)


def test_the_switch_of_ray_prestart_is_the_one_ray_reads(tmp_path: Path) -> None:
    """The counter-test: with prestart on (as a wide sweep gets it), the same hook sees the
    idle workers Ray prestarted beside the actor's, so the test above can fail."""
    if ray.is_initialized():
        ray.shutdown()
    marker = tmp_path / "idle"
    plan = load_plan(write_project(tmp_path / "p"))
    os.environ[PRESTART_SWITCH] = "1"  # the user's setting wins over the sweep's choice
    try:
        outcome = run_sweep(plan, engine="ray", num_cpus=2, hook=CountIdleWorkers(str(marker)))
    finally:
        del os.environ[PRESTART_SWITCH]
    assert not outcome.failed
    assert int(marker.read_text(encoding="utf-8")) >= 1  # Ray prestarts 2 or 3 on 2 CPUs
