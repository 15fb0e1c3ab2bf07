"""The Ray executor of ``curate sweep --engine ray`` (the optional ``ray`` extra).

The groups (one model each: loaded once, every version and method) run in Ray *actors*, one
pool per resource shape (the CPUs and GPUs a model asks for). An actor runs one group after
another, so its worker process imports torch and transformers once for several models. A
worker's start (a Python importing ray, torch and transformers: 5-12 s of CPU here) is the
cost to weigh: a pool of models of a real size (weights of at least :data:`LARGE_MODEL_BYTES`,
or a hub id) starts as many actors as the cluster holds at once, up to its number of models,
so that a second node works from the first second; a pool of small models starts with one
actor and grows by one, up to what the cluster holds, whenever all of its actors have run
their model for :data:`GROW_AFTER_S` *since it was loaded* while models wait: tiny jobs (a few
seconds each, where Ray's start-up costs dominate) all run on one worker, even when the first
worker's start (its imports, seconds of CPU) makes its first model last longer than that. The driver polls each actor (``ray.wait`` over the
poll calls): a poll returns the events the group produced since the last one, gathered for up
to :data:`GATHER_S` after the first, so every finished batch reaches the driver, the one writer
of the cache, within half a second of being computed, in a few dozen calls per job rather than
one per batch.

Only ordinary actor calls and object refs cross the wire, never streaming generators, so the
same executor works through Ray Client (``ray://``), which cannot carry an
``ObjectRefGenerator``. Requests and events travel as pickled bytes: a Ray Client server relays
them without having to import curate itself.

An actor that dies (its worker process killed, its node lost) is replaced and its group run
again from the start with the same inputs, up to ``max_retries`` times: the replay yields the
same events (:func:`~curate.sweep.jobs.run_group` is deterministic), and the driver skips as
many as it had already received, as Ray does for a retried generator task. A job's own failure
(model not loadable, sentence too long) is an event, never retried, and the other groups go on.

Workers need this code: the directory holding the ``curate`` package is put on their
``PYTHONPATH`` (a checkout run with ``PYTHONPATH=.``, or a pip install, editable or not); on a
cluster of several machines, install curate on every node.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from curate.errors import UsageError
from curate.modelnames import local_weight_bytes
from curate.sweep.jobs import BatchHook, Event, Failed, Group, Loaded, Snapshot
from curate.sweep.ray_watchdog import code_path

try:
    import ray
except ImportError:  # pragma: no cover - depends on the extra
    ray = None

#: How long one poll waits for a first event before it returns empty-handed (seconds).
POLL_S = 2.0
#: How long a poll goes on gathering events after the first (seconds). A group yields an event
#: per batch, every 50-100 ms for a model of a real size: a poll that returned at the first
#: would make one actor call per batch (300 for a 20-s job), each costing the worker's main
#: thread and the driver about a millisecond of CPU (a measured 0.25 s per 20-s job in the
#: worker alone). Gathering for half a second makes it a few dozen; the driver stores each
#: batch's rows at most this much later.
GATHER_S = 0.5
#: A pool grows by one actor (up to what the cluster holds) when every actor of it has run
#: its model for this long and models wait: about what a new worker costs to start (a Python
#: process importing torch), so tiny jobs stay on one worker and long ones spread at once.
GROW_AFTER_S = 4.0
#: Weights from this size on (5 MB: a 1.3M-parameter model; BERT-base is 440 MB) make a model
#: of a real size, whose job outlasts a worker's start: its pool starts at full width. The
#: test suite's tiny models (under 1 MB) and a few-second job stay below it.
LARGE_MODEL_BYTES = 5_000_000


#: Ray's setting (an environment variable its raylet reads) for prestarting one idle worker
#: per CPU when the first driver connects; :func:`prestart_pays` decides.
PRESTART_SWITCH = "RAY_prestart_worker_first_driver"
#: A resource count no node reaches (a GPU pool's width is then bound by its models alone).
_UNBOUNDED = 1_000_000

_END = "end"
_ERROR = "error"


class SweepWorker:
    """A Ray actor that runs the groups it is given, one after another, on a thread, and
    hands their events to the driver's polls."""

    def __init__(self) -> None:
        self._outbox: queue.Queue | None = None

    def _run(self, request: bytes, outbox: queue.Queue) -> None:
        from curate.sweep.jobs import run_group

        try:
            group, snapshot, hook = pickle.loads(request)
            for event in run_group(group, snapshot, hook):
                outbox.put(event)
        except BaseException as exc:  # a bug or a crash: the group fails, never retried
            lines = str(exc).strip().splitlines()
            outbox.put((_ERROR, f"{type(exc).__name__}: {lines[0]}" if lines else repr(exc)))
        else:
            outbox.put(_END)

    def poll(self, wait_s: float, request: bytes | None = None) -> bytes:
        """Start the group of ``request`` (when given); return ``pickle((events, state))``
        with the events so far (waiting up to ``wait_s`` for the first, then gathering those
        that follow within :data:`GATHER_S`): state is ``None`` while the group runs,
        ``"end"`` when it is done, ``("error", text)`` if it crashed."""
        if request is not None:
            self._outbox = queue.Queue()
            threading.Thread(
                target=self._run, args=(request, self._outbox), daemon=True, name="sweep-group"
            ).start()
        outbox = self._outbox
        if outbox is None:
            return pickle.dumps(([], (_ERROR, "no group was started on this actor")))
        events: list[Any] = []
        state: Any = None
        with contextlib.suppress(queue.Empty):
            item = outbox.get(timeout=wait_s)
            until = time.monotonic() + GATHER_S
            while True:
                if item == _END or isinstance(item, tuple):
                    state = item
                    self._outbox = None
                    break
                events.append(item)
                item = outbox.get(timeout=max(0.0, until - time.monotonic()))
        return pickle.dumps((events, state), protocol=pickle.HIGHEST_PROTOCOL)


@dataclass
class _Slot:
    """One actor of a pool and the group it runs (``index``); ``skip``: events to drop."""

    actor: Any
    shape: tuple[float, float]
    index: int = -1
    skip: int = 0
    seen: int = 0
    #: When its model was loaded (the group's Loaded event arrived): the time after it is the
    #: model's own work, without the worker's start (its imports) or the model's loading;
    #: None: not yet.
    since: float | None = None
    alive: bool = True


@dataclass
class _Plan:
    """The queue of groups per shape, attempts and events already received per group."""

    queues: dict[tuple[float, float], deque[int]] = field(default_factory=dict)
    attempts: dict[int, int] = field(default_factory=dict)
    received: dict[int, int] = field(default_factory=dict)


class RayExecutor:
    """Runs the groups in Ray actors on the cluster at ``address`` (``auto``: the one started
    with ``ray start``; ``HOST:PORT``; ``ray://HOST:PORT``: Ray Client), or on a Ray started
    for the run."""

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int | None = None,
        max_retries: int = 2,
        connect_timeout: float | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        if ray is None:
            raise UsageError("--engine ray needs Ray; install it with: pip install 'curate[ray]'")
        self.address = address
        self.num_cpus = num_cpus
        self.max_retries = max_retries
        from curate.sweep.ray_connect import DEFAULT_TIMEOUT_S

        self.connect_timeout = connect_timeout or DEFAULT_TIMEOUT_S
        #: Told what the connection waits for (a cluster whose node is not alive yet).
        self.notify = notify
        self._watchdog: Any = None
        #: Whether the workers inherit this process's environment (a Ray started here).
        self._own_env = False

    def _connect(self, prestart: bool = True) -> bool:
        """Connect (or start a local Ray); True when this run must shut Ray down after.

        ``prestart``: whether a Ray started here may prestart one idle worker per CPU when
        this driver connects, as Ray does by default (:func:`prestart_pays`)."""
        from curate.sweep.ray_connect import explain, probe

        if ray.is_initialized():
            return False
        if self.address not in (None, "auto", "local"):
            probe(self.address, self.connect_timeout, self.notify)
        options: dict[str, Any] = {
            "log_to_driver": False,
            "logging_level": "warning",
            "configure_logging": False,
        }
        if self.address is None:
            # "local": a new instance, never one that another user started on this machine
            options.update(address="local", num_cpus=self.num_cpus, include_dashboard=False)
            from curate.sweep.ray_watchdog import Watchdog

            self._watchdog = Watchdog()  # the Ray started here dies with this process
        else:
            options["address"] = self.address
        if str(self.address).startswith("ray://"):
            # the Ray Client server runs the driver's side on the head: it needs the code too
            options["runtime_env"] = {"env_vars": {"PYTHONPATH": code_path()}}
            options.pop("configure_logging")
        lent: dict[str, str] = {}
        if self.address is None:
            # The Ray started here inherits this environment, and so do its workers: they
            # find curate without a runtime env, so they are Ray's prestarted workers (a
            # runtime env would start new ones, and the runtime-env agent would work for it).
            lent["PYTHONPATH"] = code_path()
            if not prestart and PRESTART_SWITCH not in os.environ:
                lent[PRESTART_SWITCH] = "0"
        saved = {name: os.environ.get(name) for name in lent}
        os.environ.update(lent)
        try:
            self._init(options)
        except Exception as exc:
            self._release()
            raise explain(exc, self.address, self.connect_timeout) from None
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        self._own_env = self.address is None
        return True

    def _init(self, options: dict[str, Any]) -> None:
        """``ray.init``, tried again when a Ray Client server could not start this driver's
        server in time (a transient failure of a busy head).

        Through ``ray://`` the head's proxy starts one Ray Client server process per driver
        and gives up when it does not answer within 30 s; on a loaded head that happens once
        and not on the next try. The client disconnects cleanly after a failed init, so a new
        attempt starts from nothing. Any other error is raised at once.
        """
        from curate.sweep.ray_connect import CLIENT_INIT_ATTEMPTS, is_transient_client_failure

        for attempt in range(1, CLIENT_INIT_ATTEMPTS + 1):
            try:
                ray.init(**options)
                return
            except Exception as exc:
                if attempt == CLIENT_INIT_ATTEMPTS or not is_transient_client_failure(exc):
                    raise
                with contextlib.suppress(Exception):
                    ray.shutdown()

    def events(
        self, groups: Sequence[Group], snapshots: Sequence[Snapshot], hook: BatchHook | None
    ) -> Iterator[tuple[int, Event]]:
        cpus = self.num_cpus or os.cpu_count() or 1
        owned = self._connect(prestart=self.address is not None or prestart_pays(groups, cpus))
        try:
            yield from self._events(groups, snapshots, hook)
        finally:
            if owned:
                with contextlib.suppress(Exception):
                    ray.shutdown()
                self._release()

    def _release(self) -> None:
        if self._watchdog is not None:
            self._watchdog.done()
            self._watchdog = None

    def _events(
        self, groups: Sequence[Group], snapshots: Sequence[Snapshot], hook: BatchHook | None
    ) -> Iterator[tuple[int, Event]]:
        nodes = [n.get("Resources", {}) for n in ray.nodes() if n.get("Alive")]
        plan = _Plan()
        for index, group in enumerate(groups):
            if not _fits(group, nodes):
                yield index, Failed(None, _unschedulable(group))
                continue
            plan.queues.setdefault(_shape(group), deque()).append(index)
        actor_class = ray.remote(SweepWorker)
        polls: dict[Any, _Slot] = {}

        def request(index: int) -> bytes:
            from ray import cloudpickle

            return cloudpickle.dumps((groups[index], snapshots[index], hook))

        def assign(slot: _Slot) -> None:
            """Give the slot's actor the next group of its shape, or end the actor."""
            waiting = plan.queues[slot.shape]
            if not waiting:
                slot.alive = False
                with contextlib.suppress(Exception):
                    ray.kill(slot.actor)
                return
            slot.index = waiting.popleft()
            slot.skip, slot.seen, slot.since = plan.received.get(slot.index, 0), 0, None
            polls[slot.actor.poll.remote(POLL_S, request(slot.index))] = slot

        def new_actor(shape: tuple[float, float]) -> _Slot:
            cpus, gpus = shape
            options: dict[str, Any] = {"num_cpus": cpus, "max_restarts": 0}
            if not self._own_env:
                options["runtime_env"] = {"env_vars": {"PYTHONPATH": code_path()}}
            if gpus:
                options["num_gpus"] = gpus
            return _Slot(actor_class.options(**options).remote(), shape)

        slots: list[_Slot] = []

        def grow() -> None:
            """One more actor for each pool whose actors all run long models while others
            wait (one actor per pool at first: tiny jobs never pay a second worker)."""
            now = time.monotonic()
            for shape, waiting in plan.queues.items():
                pool = [s for s in slots if s.alive and s.shape == shape]
                if not waiting or len(pool) >= _capacity(shape, nodes):
                    continue
                if pool_may_grow([s.since for s in pool], now):
                    slots.append(new_actor(shape))
                    assign(slots[-1])

        try:
            for shape, waiting in plan.queues.items():
                sizes = [local_weight_bytes(groups[index].name) for index in waiting]
                for _ in range(initial_width(sizes, _capacity(shape, nodes))):
                    slots.append(new_actor(shape))
                    assign(slots[-1])
            while polls:
                ready, _ = ray.wait(list(polls), num_returns=1, timeout=1.0)
                grow()
                if not ready:
                    continue
                slot = polls.pop(ready[0])
                index = slot.index
                try:
                    events, state = pickle.loads(ray.get(ready[0]))
                except ray.exceptions.RayActorError as exc:
                    # the worker process or its node died: replay the group on a new actor
                    attempts = plan.attempts[index] = plan.attempts.get(index, 0) + 1
                    if attempts > self.max_retries:
                        yield index, Failed(None, _reason(exc))
                    else:
                        plan.queues[slot.shape].appendleft(index)
                    slot.alive = False
                    slots.append(new_actor(slot.shape))
                    assign(slots[-1])
                    continue
                except ray.exceptions.RayError as exc:
                    yield index, Failed(None, _reason(exc))
                    assign(slot)
                    continue
                for event in events:
                    if isinstance(event, Loaded) and slot.since is None:
                        slot.since = time.monotonic()  # the model's own work starts
                    slot.seen += 1
                    if slot.seen > slot.skip:
                        plan.received[index] = plan.received.get(index, 0) + 1
                        yield index, event
                if state is None:
                    polls[slot.actor.poll.remote(POLL_S)] = slot
                    continue
                if state != _END:
                    yield index, Failed(None, f"the Ray task failed: {state[1]}")
                assign(slot)
        finally:
            for slot in slots:
                # already ended or gone: nothing to kill
                with contextlib.suppress(Exception):
                    ray.kill(slot.actor)


def pool_may_grow(loaded_at: Sequence[float | None], now: float) -> bool:
    """Whether a pool with models waiting takes one more actor: when every actor of it has run
    its model for :data:`GROW_AFTER_S` since the model was loaded (``loaded_at``: the time
    each actor's Loaded event arrived, None while it starts or loads); a pool without an
    actor takes one.

    The clock starts at the load, not at the actor's start: a new worker's imports take seconds
    of CPU (5-12 s here), and counting them made every first model of a sweep look long, so a
    sweep of tiny models started a second worker that cost more than the jobs it took over.
    """
    return all(t is not None and now - t >= GROW_AFTER_S for t in loaded_at)


def initial_width(sizes: Sequence[int | None], capacity: int) -> int:
    """How many actors a pool starts with, from its models' weight sizes (None: a hub id,
    taken as a model of a real size) and how many actors the cluster holds at once.

    One, when any model is small: a second worker would cost more than a few-second job it
    takes over, and the pool still grows for long jobs (:data:`GROW_AFTER_S`). Otherwise one
    per model up to the capacity: each worker's start then overlaps the others' instead of
    following the first model's first seconds.
    """
    if not sizes:
        return 0
    if any(size is not None and size < LARGE_MODEL_BYTES for size in sizes):
        return 1
    return max(1, min(len(sizes), capacity))


def prestart_pays(groups: Sequence[Group], cpus: int) -> bool:
    """Whether a Ray started for the sweep on ``cpus`` CPUs should prestart its idle workers.

    When a driver connects, Ray starts one idle worker per CPU (``prestart_worker_first_driver``)
    so that tasks find a process ready. A sweep starts only the actors of its pools' initial
    widths (:func:`initial_width`): a sweep of tiny models, one actor, on a machine of 64 CPUs
    would leave 63 Pythons that imported ray for nothing (0.4-0.9 s of CPU and ~95 MB
    resident each here; on 2 CPUs, one). So prestart only when the sweep's first actors take
    every CPU between them; otherwise their workers start on demand
    (about 0.6 s later, once per sweep). GPUs are not known before Ray starts: a GPU pool
    counts as wide as its models (a few actors more than GPUs at worst keeps prestart on).
    """
    pools: dict[tuple[float, float], list[int | None]] = {}
    for group in groups:
        pools.setdefault(_shape(group), []).append(local_weight_bytes(group.name))
    node = {"CPU": float(cpus), "GPU": float(_UNBOUNDED)}
    taken = sum(
        initial_width(sizes, _capacity(shape, [node])) * shape[0] for shape, sizes in pools.items()
    )
    return taken >= cpus


def _shape(group: Group) -> tuple[float, float]:
    return (float(group.num_cpus), float(group.num_gpus))


def _capacity(shape: tuple[float, float], nodes: list[dict[str, float]]) -> int:
    """How many actors of ``shape`` the cluster holds at once (at least 1: it fits a node)."""
    cpus, gpus = shape
    total = 0
    for node in nodes:
        fits = [
            math.floor(node.get(name, 0.0) / need + 1e-9)
            for name, need in (("CPU", cpus), ("GPU", gpus))
            if need > 0
        ]
        total += min(fits) if fits else 1_000_000
    return max(1, total)


def _fits(group: Group, nodes: list[dict[str, float]]) -> bool:
    """Whether one node of the cluster has the CPUs and GPUs the group's actor asks for (an
    actor that fits no node would wait for ever)."""
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
