"""Sweep jobs and the worker side of a sweep: one *group* per model, run where an executor puts it.

A *job* is one (model, method, version) column. A *group* is every job of one model: the model
is loaded once, then each version is scored with each method in the plan's order, which is the
order sequential ``curate score`` runs (one invocation per version, sharing the cache), so the
numbers are bit-for-bit those of sequential runs (the cache fill order decides the batches).

:func:`run_group` is what a worker runs, in-process (local executor) or as a Ray task. It gets
the pairs and a snapshot of the driver's cache rows for the model (a cluster shares no disk),
scores through an in-memory copy, and yields :class:`Rows` after every committed batch (the
driver, the one writer of the cache, stores them at once), then :class:`Scored` per job, or
:class:`Failed` with the reason. Given the same inputs it yields the same events, which Ray's
replay of a retried generator task requires.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from curate.errors import CurateError
from curate.pairs import Pair
from curate.score.cache import ScoreCache
from curate.score.results import ScoreResult
from curate.score.settings import ScoreSettings

#: ``(description JSON, [(sentence, position, logprob)])`` per cache context (ScoreCache.export).
Snapshot = list[tuple[str, list[tuple[str, int, float]]]]


@dataclass(frozen=True)
class Job:
    """One output column: a model (its label), a method, a dataset version (its label)."""

    model: str
    method: str
    version: str


@dataclass(frozen=True)
class VersionData:
    """A dataset version as a worker needs it: its label and its pairs."""

    label: str
    pairs: tuple[Pair, ...]


@dataclass(frozen=True)
class Group:
    """Every job of one model: what to load, how, and what to score with it."""

    label: str
    name: str
    methods: tuple[str, ...]
    versions: tuple[VersionData, ...]
    settings: ScoreSettings
    #: Resources of its Ray task.
    num_cpus: float = 1.0
    num_gpus: float = 0.0
    #: The plan's corpus (:class:`curate.score.corpus.Corpus`): measured once per model.
    corpus: Any = None

    def jobs(self) -> list[Job]:
        """The group's jobs in the order the worker runs them."""
        return [Job(self.label, m, v.label) for v in self.versions for m in self.methods]


@dataclass(frozen=True)
class Loaded:
    """The model of the group is loaded; scoring starts."""


@dataclass(frozen=True)
class Rows:
    """One committed batch: the rows of one cache context, with its description."""

    fields: dict[str, Any]
    label: str
    rows: list[tuple[str, int, float]]


@dataclass(frozen=True)
class Measured:
    """The model's capability on the plan's corpus (the ``capability`` record of summary.json)."""

    capability: dict[str, Any]


@dataclass(frozen=True)
class Scored:
    """A job is done: its result (scores, provenance, how much was computed)."""

    job: Job
    result: ScoreResult


@dataclass(frozen=True)
class Failed:
    """A job failed for its own reason; ``job`` None: every job of the group (load failed)."""

    job: Job | None
    reason: str


Event = Loaded | Rows | Measured | Scored | Failed
#: Called in the worker after each batch's rows are handed over (tests kill the worker there).
BatchHook = Callable[[], None]


class _Stopped(Exception):
    """The consumer went away (Ctrl-C of the driver): stop after the batch in flight."""


class _Crash:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


_DONE = object()


class _RecordingCache(ScoreCache):
    """An in-memory cache filled from the snapshot that hands every stored batch over."""

    def __init__(self, outbox: queue.Queue, snapshot: Snapshot, hook: BatchHook | None) -> None:
        super().__init__(None)
        self._outbox = outbox
        self._hook = hook
        self._described: dict[str, tuple[dict[str, Any], str]] = {}
        for description, rows in snapshot:
            fields = json.loads(description)
            label = fields.pop("label", "")
            super().store(super().register_context(fields, label), rows)

    def register_context(self, fields: Any, label: str = "") -> str:
        key = super().register_context(fields, label)
        self._described[key] = (dict(fields), label)
        return key

    def store(self, context: str, rows: Any) -> None:
        rows = list(rows)
        super().store(context, rows)
        fields, label = self._described[context]
        self._outbox.put(Rows(fields, label, rows))
        if self._hook is not None:
            self._hook()


def _work(
    group: Group,
    snapshot: Snapshot,
    outbox: queue.Queue,
    stop: threading.Event,
    hook: BatchHook | None,
) -> None:
    from curate.score.engine import score_pairs
    from curate.score.models import load_model

    def progress(done: int, total: int) -> None:
        if stop.is_set():
            raise _Stopped

    try:
        cache = _RecordingCache(outbox, snapshot, hook)
        settings = group.settings
        try:
            lm = load_model(
                group.name,
                device=settings.device,
                dtype=settings.dtype,
                lowercase=settings.lowercase,
            )
        except CurateError as exc:
            outbox.put(Failed(None, str(exc)))
            return
        outbox.put(Loaded())
        if group.corpus is not None:
            from curate.score.corpus import score_corpus

            try:
                measured = score_corpus(
                    group.corpus, lm, cache=cache, settings=settings, progress=progress
                )
            except CurateError as exc:
                outbox.put(Failed(None, f"corpus {group.corpus.name}: {exc}"))
                return
            outbox.put(Measured(measured.document()))
        for version in group.versions:
            for method in group.methods:
                job = Job(group.label, method, version.label)
                try:
                    result = score_pairs(
                        version.pairs, lm, method, cache=cache, settings=settings, progress=progress
                    )
                except CurateError as exc:
                    outbox.put(Failed(job, str(exc)))
                    continue
                outbox.put(Scored(job, result))
    except _Stopped:
        pass
    except BaseException as exc:  # a bug or a dying process: re-raised by the consumer
        outbox.put(_Crash(exc))
    finally:
        outbox.put(_DONE)


def run_group(group: Group, snapshot: Snapshot, hook: BatchHook | None = None) -> Iterator[Event]:
    """Score every job of ``group``, yielding events as they happen (see the module doc).

    The scoring runs on a thread of its own, so that a consumer that stops early (Ctrl-C)
    returns at once; the thread ends after the batch in flight, whose rows are lost.
    """
    outbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    worker = threading.Thread(
        target=_work, args=(group, snapshot, outbox, stop, hook), daemon=True, name="sweep-group"
    )
    worker.start()
    try:
        while True:
            event = outbox.get()
            if event is _DONE:
                break
            if isinstance(event, _Crash):
                raise event.exc
            yield event
    finally:
        stop.set()
    worker.join()
