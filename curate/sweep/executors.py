"""Where the groups of a sweep run: in this process (``local``, the default) or on Ray.

Both executors have one interface: ``events(groups, snapshots, hook)`` yields ``(group index,
event)`` as the workers produce them (:mod:`curate.sweep.jobs`), and the driver, the one writer
of the cache and the files, consumes them. The Ray executor lives in
:mod:`curate.sweep.ray_executor` and is imported only when asked for, so the base install and
the default path never import ray.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from curate.errors import UsageError
from curate.sweep.jobs import BatchHook, Event, Group, Snapshot, run_group

ENGINES = ("local", "ray")


class Executor(Protocol):
    """Runs groups and streams their events back to the driver."""

    def events(
        self, groups: Sequence[Group], snapshots: Sequence[Snapshot], hook: BatchHook | None
    ) -> Iterator[tuple[int, Event]]: ...


class LocalExecutor:
    """One group after another, in this process: nothing to install or start."""

    def events(
        self, groups: Sequence[Group], snapshots: Sequence[Snapshot], hook: BatchHook | None
    ) -> Iterator[tuple[int, Event]]:
        for index, group in enumerate(groups):
            for event in run_group(group, snapshots[index], hook):
                yield index, event


def make_executor(
    engine: str = "local",
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    max_retries: int = 2,
    connect_timeout: float | None = None,
    notify: Callable[[str], None] | None = None,
) -> Executor:
    """The executor of ``engine`` (``local`` or ``ray``); Ray options apply to ``ray`` only
    (``notify``: told what the connection to a cluster waits for)."""
    if engine == "local":
        if address is not None:
            raise UsageError("--address needs --engine ray")
        return LocalExecutor()
    if engine == "ray":
        from curate.sweep.ray_executor import RayExecutor

        return RayExecutor(
            address=address,
            num_cpus=num_cpus,
            max_retries=max_retries,
            connect_timeout=connect_timeout,
            notify=notify,
        )
    raise UsageError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
