"""Connecting ``curate sweep --engine ray`` to a Ray cluster, with failures that name their cause.

``ray.init`` on an address that does not answer retries for half a minute and then says
"Failed to connect to Ray cluster" (the cause is in Ray's log lines); Ray Client says "ray
client connection timeout" after 38 s whether the port is closed or the token is missing. So
before ``ray.init`` this module asks the address itself, within ``--connect-timeout``:

1. a TCP connection: *refused* (nothing listens: wrong port, cluster not started) or *timed
   out after N s* (a firewall, a wrong host);
2. one cheap gRPC call (the GCS's ``GetClusterId``; the Ray Client server's ``PING``), first
   without a token: a cluster that answers ``UNAUTHENTICATED`` uses token authentication, and
   the driver needs ``RAY_AUTH_MODE=token`` and the cluster's token; with the token the user
   gave, an ``UNAUTHENTICATED`` answer means the token is not this cluster's. The token is
   sent only when the user turned token mode on (Ray itself never sends it, unasked, to an
   explicit address) and is never printed: messages name where it came from.

3. for ``HOST:PORT`` (the driver joins the cluster), a node it can join: ``ray.init`` joins
   through a raylet *of this machine* that the GCS lists as alive, and when there is none (the
   head's raylet crashed while its GCS lives on, or no node was started here) it waits in
   silence for Ray's ``gcs_server_request_timeout_seconds`` (60 s) and then says only "Failed to
   connect to Ray cluster". :func:`wait_for_node` asks the GCS for its alive nodes
   (``GetAllNodeInfo``) and the machine for its raylets as Ray does (``find_node_ids``), says
   once what it waits for, and gives up at ``--connect-timeout`` naming what is missing.

``ray.init``'s own errors are then translated too (a version mismatch between driver and
cluster: both versions in one sentence). Every failure is a :class:`~curate.errors.UsageError`
(exit 2).
"""

from __future__ import annotations

import os
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from curate.errors import UsageError

#: Ray's defaults: the GCS port of ``ray start --head``, the Ray Client server's port.
GCS_PORT = 6379
CLIENT_PORT = 10001
DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Address:
    """A parsed ``--address``: ``host:port`` (a driver joins the cluster) or ``ray://``."""

    text: str
    host: str
    port: int
    client: bool

    @property
    def kind(self) -> str:
        return "Ray Client server" if self.client else "Ray cluster (GCS)"


def parse_address(text: str) -> Address:
    """``HOST:PORT``, ``HOST`` (port 6379) or ``ray://HOST[:PORT]`` (port 10001)."""
    client = text.startswith("ray://")
    rest = text[len("ray://") :] if client else text
    rest = rest.rstrip("/")
    match = re.fullmatch(r"(?:\[([^\]/]+)\]|([^:/\[\]\s]+))(?::(\d+))?", rest)
    if not match:
        raise UsageError(
            f"--address {text!r} is not an address: use auto, HOST:PORT or ray://HOST:PORT"
        )
    host = match.group(1) or match.group(2)
    port = int(match.group(3)) if match.group(3) else (CLIENT_PORT if client else GCS_PORT)
    if not 0 < port < 65536:
        raise UsageError(f"--address {text!r}: port {port} is out of range")
    return Address(text, host, port, client)


@dataclass(frozen=True)
class Token:
    """Where the driver's token comes from (never its value in a message)."""

    value: str
    source: str


def token_mode() -> bool:
    """Whether the user turned token authentication on for this driver."""
    return os.environ.get("RAY_AUTH_MODE", "").strip().lower() == "token"


def find_token() -> Token | None:
    """The token Ray would use, in Ray's order: ``RAY_AUTH_TOKEN``, the file named by
    ``RAY_AUTH_TOKEN_PATH``, ``~/.ray/auth_token``."""
    value = os.environ.get("RAY_AUTH_TOKEN", "").strip()
    if value:
        return Token(value, "RAY_AUTH_TOKEN")
    named = os.environ.get("RAY_AUTH_TOKEN_PATH", "").strip()
    path = Path(named).expanduser() if named else Path.home() / ".ray" / "auth_token"
    try:
        value = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    source = f"RAY_AUTH_TOKEN_PATH ({path})" if named else str(path)
    return Token(value, source) if value else None


def _seconds(value: float) -> str:
    return f"{value:g} s"


def check_tcp(address: Address, timeout: float) -> None:
    """Refused or timed out: one sentence each."""
    try:
        with socket.create_connection((address.host, address.port), timeout=timeout):
            return
    except ConnectionRefusedError:
        hint = (
            "its Ray Client port (ray start --head --ray-client-server-port, default 10001)"
            if address.client
            else "its GCS port (ray start --head --port, default 6379)"
        )
        raise UsageError(
            f"cannot connect to Ray at {address.text}: connection refused (nothing listens "
            f"on {address.host}:{address.port}); is the cluster started, and is {address.port} "
            f"{hint}?"
        ) from None
    except TimeoutError:
        raise UsageError(
            f"cannot connect to Ray at {address.text}: no answer within "
            f"{_seconds(timeout)} (--connect-timeout); check the host, the port and any "
            "firewall between this machine and the cluster"
        ) from None
    except socket.gaierror:
        raise UsageError(
            f"cannot connect to Ray at {address.text}: unknown host {address.host!r}"
        ) from None
    except OSError as exc:
        raise UsageError(
            f"cannot connect to Ray at {address.text}: {exc.strerror or exc}"
        ) from None


def _call(address: Address, timeout: float, token: Token | None) -> object:
    """One cheap gRPC call to the address; the grpc status code of its failure, or None."""
    import grpc

    target = f"{address.host}:{address.port}"
    metadata = [("authorization", f"Bearer {token.value}")] if token is not None else []
    with grpc.insecure_channel(target) as channel:
        try:
            if address.client:
                from ray.core.generated import ray_client_pb2, ray_client_pb2_grpc

                stub = ray_client_pb2_grpc.RayletDriverStub(channel)
                request = ray_client_pb2.ClusterInfoRequest(
                    type=ray_client_pb2.ClusterInfoType.PING
                )
                stub.ClusterInfo(request, timeout=timeout, metadata=metadata)
            else:
                from ray.core.generated import gcs_service_pb2, gcs_service_pb2_grpc

                gcs = gcs_service_pb2_grpc.NodeInfoGcsServiceStub(channel)
                gcs.GetClusterId(
                    gcs_service_pb2.GetClusterIdRequest(), timeout=timeout, metadata=metadata
                )
        except grpc.RpcError as exc:
            return exc.code()
    return None


def _port_hint(address: Address) -> str:
    return (
        f"is {address.port} the cluster's Ray Client port (--ray-client-server-port)?"
        if address.client
        else f"is {address.port} the cluster's GCS port (ray start --head --port)?"
    )


def check_auth(address: Address, timeout: float, said: float | None = None) -> None:
    """Whether the cluster wants a token, and whether the driver's is the right one
    (``said``: the timeout the user gave, for messages; ``timeout``: what is left of it)."""
    import grpc

    said = timeout if said is None else said
    start = time.monotonic()
    status = _call(address, timeout, None)
    if status is None:
        return  # no authentication asked
    if status == grpc.StatusCode.DEADLINE_EXCEEDED:
        raise UsageError(
            f"cannot connect to Ray at {address.text}: it accepted the connection but did "
            f"not answer within {_seconds(said)} (--connect-timeout); {_port_hint(address)}"
        )
    if status != grpc.StatusCode.UNAUTHENTICATED:
        raise UsageError(
            f"cannot connect to Ray at {address.text}: it does not answer as a "
            f"{address.kind} ({status.name.lower()}); {_port_hint(address)}"
        )
    if not token_mode():
        raise UsageError(
            f"the Ray cluster at {address.text} uses token authentication: set "
            "RAY_AUTH_MODE=token and give this driver the cluster's token (RAY_AUTH_TOKEN, "
            "RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token; `ray get-auth-token` on the head "
            "prints it)"
        )
    token = find_token()
    if token is None:
        raise UsageError(
            f"the Ray cluster at {address.text} uses token authentication and "
            "RAY_AUTH_MODE=token is set, but no token was found: set RAY_AUTH_TOKEN or "
            "RAY_AUTH_TOKEN_PATH, or copy the head's ~/.ray/auth_token to this machine"
        )
    left = max(0.5, timeout - (time.monotonic() - start))
    if _call(address, left, token) == grpc.StatusCode.UNAUTHENTICATED:
        raise UsageError(
            f"the Ray cluster at {address.text} refused the token from {token.source}: it "
            "is not this cluster's token (`ray get-auth-token` on the head prints the right "
            "one)"
        )


_VERSIONS = re.compile(
    r"started with:\s*Ray:\s*(\S+)\s*Python:\s*(\S+).*?started with:\s*Ray:\s*(\S+)\s*"
    r"Python:\s*(\S+)",
    re.S,
)


#: ``ray.init`` tries through ``ray://`` when the head could not start the driver's server.
CLIENT_INIT_ATTEMPTS = 3
_CLIENT_INIT_FAILURE = "initialization failure from server"
#: What the head's server says when no raylet of the cluster was found on the head.
_NO_NODE = "no node info found"


def is_transient_client_failure(exc: BaseException) -> bool:
    """Whether a Ray Client ``ray.init`` failed on the head's side, while its proxy started
    or reached this driver's own server (``Starting Ray client server failed``, ``Proxy
    failed to Connect to backend``, a runtime env not made in time): a busy head, worth
    another try. A refused token or a version mismatch is answered without starting
    anything and never arrives this way. Nor is a head with no node to join worth another
    try: the server it started waited a minute for a raylet (Ray's "No node info found"),
    and each try cost ~90 s (a head whose raylet crashed: 272 s in silence for three)."""
    text = str(exc).lower()
    return _CLIENT_INIT_FAILURE in text and _NO_NODE not in text


def server_reason(text: str) -> str:
    """The last line of the traceback a Ray Client server sends with a failed init (its
    first line is only ``Initialization failure from server:``)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or _CLIENT_INIT_FAILURE not in lines[0].lower():
        return ""
    return lines[-1] if len(lines) > 1 else ""


def explain(exc: BaseException, where: str | None, timeout: float) -> UsageError:
    """One sentence for an error of ``ray.init`` (``where`` None: a Ray started for the run)."""
    text = str(exc)
    if where is None:
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return UsageError(f"could not start a local Ray for the sweep: {first}")
    found = _VERSIONS.search(text)
    if "version mismatch" in text.lower() and found:
        ray_c, py_c, ray_d, py_d = found.groups()
        return UsageError(
            f"cannot use the Ray cluster at {where}: version mismatch, the cluster runs Ray "
            f"{ray_c} on Python {py_c} and this driver Ray {ray_d} on Python {py_d}; install "
            "the same versions on both"
        )
    lowered = text.lower()
    if "authentication" in lowered or "auth token" in lowered or "unauthenticated" in lowered:
        return UsageError(
            f"the Ray cluster at {where} refused this driver's authentication: set "
            "RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH "
            "or ~/.ray/auth_token)"
        )
    if "could not find any running ray instance" in lowered:
        return UsageError(
            "--address auto found no Ray started with `ray start --head` on this machine; "
            "start one, or give its address (HOST:PORT or ray://HOST:PORT)"
        )
    if "timeout" in lowered or "timed out" in lowered:
        return UsageError(
            f"cannot connect to Ray at {where}: timed out after {_seconds(timeout)} "
            "(--connect-timeout)"
        )
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    if _CLIENT_INIT_FAILURE in first.lower():
        reason = server_reason(text) or "it gave no reason"
        return UsageError(
            f"cannot connect to Ray at {where}: the head could not start a Ray Client server "
            f"for this driver ({reason}); see ray_client_server*.err in the head's Ray logs"
        )
    return UsageError(f"cannot connect to Ray at {where}: {first}")


#: How often :func:`wait_for_node` asks again (seconds).
NODE_POLL_S = 0.5


@dataclass(frozen=True)
class _Node:
    """A node the GCS lists as alive: its id (hex) and its raylet's address."""

    node_id: str
    host: str
    port: int


def _alive_nodes(address: Address, timeout: float, token: Token | None) -> list[_Node] | None:
    """The nodes the GCS lists as alive; None when it did not answer."""
    import grpc
    from ray.core.generated import gcs_pb2, gcs_service_pb2, gcs_service_pb2_grpc

    alive = gcs_pb2.GcsNodeInfo.GcsNodeState.ALIVE
    metadata = [("authorization", f"Bearer {token.value}")] if token is not None else []
    request = gcs_service_pb2.GetAllNodeInfoRequest(state_filter=alive)
    with grpc.insecure_channel(f"{address.host}:{address.port}") as channel:
        gcs = gcs_service_pb2_grpc.NodeInfoGcsServiceStub(channel)
        try:
            reply = gcs.GetAllNodeInfo(request, timeout=timeout, metadata=metadata)
        except grpc.RpcError:
            return None
    return [
        _Node(node.node_id.hex(), node.node_manager_address, node.node_manager_port)
        for node in reply.node_info_list
        if node.state == alive
    ]


def _answers(node: _Node, timeout: float) -> bool:
    """Whether the node's raylet accepts a connection: the GCS lists a node whose raylet was
    killed as alive until its health checks fail (up to half a minute later)."""
    try:
        with socket.create_connection((node.host, node.port), timeout=timeout):
            return True
    except OSError:
        return False


def _local_raylets() -> set[str] | None:
    """The node ids of the raylets running on this machine, found as ``ray.init`` finds them
    (their command lines); None when this Ray has no such function (then nothing is checked)."""
    try:
        from ray._private.services import find_node_ids
    except ImportError:  # pragma: no cover - another Ray version
        return None
    return set(find_node_ids())


def _node_state(address: Address, left: float, token: Token | None) -> tuple[str, str] | None:
    """None when ``ray.init`` can join now; else (what the wait is for, the final sentence)."""
    listed = _alive_nodes(address, max(0.2, min(left, 5.0)), token)
    if listed is None:
        return (
            "its GCS does not answer",
            f"cannot connect to Ray at {address.text}: its GCS stopped answering",
        )
    local = _local_raylets()
    if local is None or any(node.node_id in local for node in listed):
        return None
    alive = [node for node in listed if _answers(node, max(0.2, min(left, 1.0)))]
    if not alive:
        return (
            "GCS up, no node alive",
            f"the Ray cluster at {address.text} has no node alive: its GCS answers but no "
            "raylet does (the head's raylet may have crashed); restart the cluster, or start "
            f"a node on this machine with `ray start --address {address.text}`",
        )
    nodes = f"{len(alive)} node{'s' if len(alive) != 1 else ''}"
    return (
        f"GCS up, {nodes} alive, none on this machine",
        f"cannot join the Ray cluster at {address.text} from this machine: it has {nodes} "
        "alive but none runs here, and a driver joins a cluster through a node of its own "
        f"machine; start one here with `ray start --address {address.text}`, or connect "
        "through its Ray Client port (ray://HOST:10001)",
    )


def wait_for_node(
    address: Address,
    deadline: float,
    said: float,
    notify: Callable[[str], None] | None = None,
) -> None:
    """Until a node ``ray.init`` can join is alive (see the module's docstring), or until
    ``deadline`` (``time.monotonic()``): then one sentence naming what is missing. ``notify``
    is told once, at the first miss, what the wait is for; ``said``: the user's timeout."""
    token = find_token() if token_mode() else None
    told = False
    while True:
        state = _node_state(address, deadline - time.monotonic(), token)
        if state is None:
            return
        waiting, failure = state
        if time.monotonic() >= deadline:
            raise UsageError(f"{failure} (waited {_seconds(said)}, --connect-timeout)")
        if not told and notify is not None:
            notify(
                f"waiting for the Ray cluster at {address.text} ({waiting}) for up to "
                f"{_seconds(said)} (--connect-timeout) ..."
            )
            told = True
        time.sleep(max(0.0, min(NODE_POLL_S, deadline - time.monotonic())))


def probe(
    text: str, timeout: float, notify: Callable[[str], None] | None = None
) -> Address:
    """Check ``text`` (not ``auto``) before ``ray.init``, all within ``timeout``: reachable,
    the right kind of server, the token it asks for, and (``HOST:PORT``) a node this driver
    can join, waiting for one (``notify`` is told what for). Raises :class:`UsageError`
    naming the cause."""
    address = parse_address(text)
    # Ray's gRPC modules load in seconds on a busy machine: not part of the wait
    import grpc  # noqa: F401
    from ray.core.generated import gcs_service_pb2_grpc, ray_client_pb2_grpc  # noqa: F401

    start = time.monotonic()
    check_tcp(address, timeout)
    check_auth(address, max(0.5, timeout - (time.monotonic() - start)), timeout)
    if not address.client:  # through Ray Client the head runs the driver's side
        wait_for_node(address, start + timeout, timeout, notify)
    return address
