"""The test cluster's ports (tests/support/ray_cluster.py): a node's worker range can never
hold one of its other ports, which come from the kernel's ephemeral range (a collision made
``ray start`` refuse a node and failed 11 cluster tests in one CI run)."""

from __future__ import annotations

import pytest

from tests.support.ray_cluster import _ephemeral_low, free_port, worker_port_range

pytest.importorskip("psutil")


def test_the_worker_range_lies_below_every_port_the_kernel_picks() -> None:
    low, high = worker_port_range()
    assert high - low == 99 and high < _ephemeral_low()
    picked = {free_port() for _ in range(300)}
    assert not {port for port in picked if low <= port <= high}


def test_two_draws_rarely_share_a_window() -> None:
    """Two suites on one machine draw their windows independently."""
    windows = {worker_port_range()[0] for _ in range(20)}
    assert len(windows) > 1
