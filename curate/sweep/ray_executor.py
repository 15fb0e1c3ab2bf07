"""The Ray executor of ``curate sweep --engine ray`` (the optional ``ray`` extra).

One Ray *generator* task per group (one model: loaded once, every version and method), with the
CPUs and GPUs the plan asks for. The task streams its events back as it goes, so the driver
stores every finished batch at once; a worker that dies is retried by Ray (``max_retries``,
system failures only), replaying the same inputs, which gives the same batches and so the same
numbers. A job's own failure (model not loadable, sentence too long) is an event, not an
exception, so it is never retried and the other groups go on.

Workers need this code: the directory holding the ``curate`` package is put on their
``PYTHONPATH`` (a checkout run with ``PYTHONPATH=.``, or a pip install, editable or not); on a
cluster of several machines, install curate on every node.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from curate.errors import UsageError
from curate.sweep.jobs import BatchHook, Event, Failed, Group, Snapshot, run_group

try:
    import ray
except ImportError:  # pragma: no cover - depends on the extra
    ray = None


def _group_task(group: Group, snapshot: Snapshot, hook: BatchHook | None) -> Iterator[Event]:
    yield from run_group(group, snapshot, hook)


def code_path() -> str:
    """``PYTHONPATH`` for the workers: the folder holding the ``curate`` package first."""
    import curate

    root = str(Path(curate.__file__).resolve().parent.parent)
    existing = os.environ.get("PYTHONPATH", "")
    parts = [root, *(p for p in existing.split(os.pathsep) if p and p != root)]
    return os.pathsep.join(parts)


class RayExecutor:
    """Runs each group as a Ray task on the cluster at ``address`` (``auto``: the one started
    with ``ray start``; ``ray://host:port``: Ray Client), or on a Ray started for the run."""

    def __init__(
        self, address: str | None = None, num_cpus: int | None = None, max_retries: int = 2
    ) -> None:
        if ray is None:
            raise UsageError("--engine ray needs Ray; install it with: pip install 'curate[ray]'")
        self.address = address
        self.num_cpus = num_cpus
        self.max_retries = max_retries

    def _connect(self) -> bool:
        """Connect (or start a local Ray); True when this run owns the Ray it started."""
        if ray.is_initialized():
            return False
        try:
            ray.init(
                # "local": a new instance, never one that another user started on this machine
                address=self.address or "local",
                num_cpus=self.num_cpus if self.address is None else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="warning",
                configure_logging=False,
            )
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise UsageError(
                f"cannot connect to Ray at {self.address or 'a new local instance'}: {exc}"
            ) from None
        return True

    def events(
        self, groups: Sequence[Group], snapshots: Sequence[Snapshot], hook: BatchHook | None
    ) -> Iterator[tuple[int, Event]]:
        owned = self._connect()
        task = ray.remote(_group_task)
        pending: dict[Any, int] = {}
        try:
            nodes = [n.get("Resources", {}) for n in ray.nodes() if n.get("Alive")]
            for index, group in enumerate(groups):
                if not _fits(group, nodes):
                    yield index, Failed(None, _unschedulable(group))
                    continue
                options: dict[str, Any] = {
                    "num_cpus": group.num_cpus,
                    "max_retries": self.max_retries,
                    "retry_exceptions": False,
                    "runtime_env": {"env_vars": {"PYTHONPATH": code_path()}},
                }
                if group.num_gpus:
                    options["num_gpus"] = group.num_gpus
                generator = task.options(**options).remote(group, snapshots[index], hook)
                pending[generator] = index
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                generator = ready[0]
                index = pending[generator]
                try:
                    ref = next(generator)
                except StopIteration:
                    del pending[generator]
                    continue
                try:
                    event = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    del pending[generator]
                    yield index, Failed(None, _reason(exc))
                    continue
                yield index, event
        finally:
            for generator in pending:
                # already finished or gone: nothing to cancel
                with contextlib.suppress(Exception):
                    ray.cancel(generator, force=True)
            if owned:
                ray.shutdown()


def _fits(group: Group, nodes: list[dict[str, float]]) -> bool:
    """Whether one node of the cluster has the CPUs and GPUs the group's task asks for (a task
    that fits no node would wait for ever)."""
    return any(
        node.get("CPU", 0.0) >= group.num_cpus and node.get("GPU", 0.0) >= group.num_gpus
        for node in nodes
    )


def _unschedulable(group: Group) -> str:
    gpus = f" and {group.num_gpus:g} GPUs" if group.num_gpus else ""
    return (
        f"no node of the Ray cluster has {group.num_cpus:g} CPUs{gpus} for {group.name}; "
        "lower num-cpus / num-gpus in the plan or add a node that has them"
    )


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"the Ray task failed: {text[0] if text else type(exc).__name__}"
