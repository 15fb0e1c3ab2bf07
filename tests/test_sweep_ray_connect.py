"""``curate.sweep.ray_connect`` without a cluster: addresses, where the token comes from, a
refused port and a silent one, within the timeout. (The token and version cases against a real
cluster are in ``test_sweep_ray_cluster.py``.)"""

from __future__ import annotations

import socket
import time

import pytest

from curate.errors import UsageError
from curate.sweep.ray_connect import explain, find_token, parse_address, probe

pytest.importorskip("ray")


@pytest.mark.parametrize(
    ("text", "host", "port", "client"),
    [
        ("10.0.0.5:6390", "10.0.0.5", 6390, False),
        ("head", "head", 6379, False),
        ("ray://head", "head", 10001, True),
        ("ray://127.0.0.1:10002/", "127.0.0.1", 10002, True),
    ],
)
def test_addresses_are_parsed_with_ray_default_ports(text, host, port, client):
    address = parse_address(text)
    assert (address.host, address.port, address.client) == (host, port, client)


@pytest.mark.parametrize("text", ["ray://", "a:b:c", "host:70000", ":"])
def test_a_malformed_address_is_one_sentence(text):
    with pytest.raises(UsageError, match="--address"):
        parse_address(text)


def test_the_token_is_found_in_ray_order_and_named_by_its_source(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("RAY_AUTH_TOKEN", raising=False)
    monkeypatch.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
    assert find_token() is None
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("home-token\n", encoding="utf-8")
    assert find_token().value == "home-token"
    named = tmp_path / "other"
    named.write_text("path-token", encoding="utf-8")
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(named))
    token = find_token()
    assert token.value == "path-token" and "RAY_AUTH_TOKEN_PATH" in token.source
    monkeypatch.setenv("RAY_AUTH_TOKEN", "env-token")
    token = find_token()
    assert token.value == "env-token" and token.source == "RAY_AUTH_TOKEN"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_refused_port_is_named_at_once(scheme):
    start = time.monotonic()
    with pytest.raises(UsageError, match="connection refused"):
        probe(f"{scheme}127.0.0.1:{_free_port()}", 10.0)
    assert time.monotonic() - start < 10.0


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_port_that_never_answers_times_out_within_the_timeout(scheme):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)  # the kernel accepts; nobody ever speaks
        probe_at = f"{scheme}127.0.0.1:{server.getsockname()[1]}"
        from ray.core.generated import gcs_service_pb2_grpc  # noqa: F401 - loaded before timing

        start = time.monotonic()
        with pytest.raises(UsageError, match="within 2 s"):
            probe(probe_at, 2.0)
        assert time.monotonic() - start < 2.0 + 1.5


def test_ray_s_version_mismatch_becomes_one_sentence_with_both_versions():
    text = (
        "Version mismatch: The cluster was started with:\n    Ray: 2.60.0\n    Python: 3.11.7\n"
        "This process on Ray Client was started with:\n    Ray: 2.59.0\n    Python: 3.11.7\n"
    )
    error = explain(RuntimeError(text), "ray://head:10001", 30)
    assert "\n" not in str(error)
    assert "cluster runs Ray 2.60.0 on Python 3.11.7" in str(error)
    assert "this driver Ray 2.59.0 on Python 3.11.7" in str(error)


def test_a_local_ray_that_does_not_start_is_not_called_a_connect_timeout():
    error = explain(Exception("The current node timed out during startup."), None, 30)
    assert "could not start a local Ray" in str(error) and "--connect-timeout" not in str(error)


_SERVER_FAILURE = (
    "Initialization failure from server:\nTraceback (most recent call last):\n"
    '  File "proxier.py", line 766, in Datapath\n    raise RuntimeError(\n'
    "RuntimeError: Starting Ray client server failed. See ray_client_server_23000.err for "
    "detailed logs.\n"
)


#: What a head whose raylet crashed answers a Ray Client driver (issue 46, seen for real).
_NO_NODE_FAILURE = (
    "Initialization failure from server:\nTraceback (most recent call last):\n"
    '  File "server.py", line 1, in init\n'
    "RuntimeError: No node info found matching attributes: '' when trying to resolve node to "
    "connect to.\n"
)


def test_a_failed_client_server_start_is_named_with_the_heads_reason():
    error = str(explain(ConnectionAbortedError(_SERVER_FAILURE), "ray://head:10001", 30))
    assert "\n" not in error
    assert "could not start a Ray Client server for this driver" in error
    assert "Starting Ray client server failed" in error
    bare = str(explain(ConnectionAbortedError("Initialization failure from server:\n"), "ray://h:1", 30))
    assert "it gave no reason" in bare


def test_only_a_head_side_start_failure_is_tried_again(monkeypatch):
    """A busy head fails to start the driver's server once: the sweep connects on the next
    try; a refused token is raised at the first."""
    ray = pytest.importorskip("ray")
    from curate.sweep.ray_connect import CLIENT_INIT_ATTEMPTS, is_transient_client_failure
    from curate.sweep.ray_executor import RayExecutor

    assert is_transient_client_failure(ConnectionAbortedError(_SERVER_FAILURE))
    assert not is_transient_client_failure(RuntimeError("UNAUTHENTICATED: invalid token"))
    assert not is_transient_client_failure(ConnectionAbortedError(_NO_NODE_FAILURE))
    calls: list[dict] = []

    def flaky_init(**options):
        calls.append(options)
        if len(calls) == 1:
            raise ConnectionAbortedError(_SERVER_FAILURE)

    monkeypatch.setattr(ray, "init", flaky_init)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    executor = RayExecutor(address="ray://127.0.0.1:1")
    executor._init({"address": "ray://127.0.0.1:1"})
    assert len(calls) == 2
    calls.clear()

    def always(**options):
        calls.append(options)
        raise ConnectionAbortedError(_SERVER_FAILURE)

    monkeypatch.setattr(ray, "init", always)
    with pytest.raises(ConnectionAbortedError):
        executor._init({"address": "ray://127.0.0.1:1"})
    assert len(calls) == CLIENT_INIT_ATTEMPTS
    calls.clear()

    def refused(**options):
        calls.append(options)
        raise RuntimeError("UNAUTHENTICATED: invalid token")

    monkeypatch.setattr(ray, "init", refused)
    with pytest.raises(RuntimeError):
        executor._init({"address": "ray://127.0.0.1:1"})
    assert len(calls) == 1
