"""How a sweep's Ray actor hands its events to the driver: one poll gathers the batches that
follow the first for :data:`GATHER_S`, instead of one actor call per batch (issue 32: 300 calls
for a 20-s job cost its worker's main thread 0.25 s of CPU, and the driver as much again).

The actor class is exercised directly, without Ray: :meth:`SweepWorker.poll` is what a Ray call
runs, and its outbox is what the group's thread fills.
"""

from __future__ import annotations

import pickle
import queue
import threading
import time

import pytest

pytest.importorskip("ray")

from curate.sweep.ray_executor import _END, GATHER_S, SweepWorker

#: A batch every 50 ms: a model of a real size computes one every 50-100 ms.
EVERY_S = 0.05
BATCHES = 20


def _feed(
    outbox: queue.Queue, count: int, every_s: float, spread: list[float] | None = None
) -> threading.Thread:
    """A group's thread: ``count`` events ``every_s`` apart, then the end; ``spread`` gets
    the seconds from the first event to the last (longer than planned on a busy machine)."""

    def run() -> None:
        first = 0.0
        for index in range(count):
            time.sleep(every_s)
            if index == 0:
                first = time.monotonic()
            outbox.put(index)
        if spread is not None:
            spread.append(time.monotonic() - first)
        outbox.put(_END)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _drain(worker: SweepWorker) -> tuple[list[list[int]], object]:
    """Poll as the driver does until the group ends: the events of each poll, and the end."""
    polls: list[list[int]] = []
    while True:
        events, state = pickle.loads(worker.poll(2.0))
        polls.append(events)
        if state is not None:
            return polls, state


def test_one_poll_gathers_the_batches_that_follow_the_first() -> None:
    worker = SweepWorker()
    worker._outbox = outbox = queue.Queue()
    spread: list[float] = []
    feeder = _feed(outbox, BATCHES, EVERY_S, spread)
    polls, state = _drain(worker)
    feeder.join()
    assert state == _END
    assert [event for events in polls for event in events] == list(range(BATCHES))
    # Every poll but the last spans GATHER_S of the batches: about a second of them makes two
    # or three polls (a poll per batch would be twenty), however late the batches came.
    bound = spread[0] / GATHER_S + 2
    assert len(polls) <= bound < BATCHES


def test_a_poll_returns_the_end_at_once_without_waiting_out_the_gathering() -> None:
    """A group that ends right after its last batch: the poll returns with the end, not after
    :data:`GATHER_S` more."""
    worker = SweepWorker()
    worker._outbox = outbox = queue.Queue()
    outbox.put(0)
    outbox.put(_END)
    began = time.monotonic()
    events, state = pickle.loads(worker.poll(2.0))
    assert (events, state) == ([0], _END)
    assert time.monotonic() - began < GATHER_S


def test_a_poll_hands_over_what_it_gathered_within_the_gathering_time() -> None:
    """A long job streams for seconds: each poll returns its batches after the gathering time,
    so the driver stores the rows as the job goes, not at its end."""
    worker = SweepWorker()
    worker._outbox = outbox = queue.Queue()
    feeder = _feed(outbox, 100, EVERY_S)  # five seconds of batches
    events, state = pickle.loads(worker.poll(2.0))
    assert state is None
    assert 0 < len(events) < 100
    polls, state = _drain(worker)
    feeder.join()
    assert state == _END
    assert sorted(events + [e for p in polls for e in p]) == list(range(100))
