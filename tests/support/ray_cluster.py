"""A real Ray cluster started the way a user starts one: ``ray start --head`` and a second
``ray start --address``, both as subprocesses, on 127.0.0.1 with ports and a temp dir of their
own, token authentication on as Ray 2.60 defaults it once a token exists.

Other people's Ray may run on the same machine, so nothing here uses a default port or the
user's ``~/.ray``: the cluster gets a HOME of its own (where ``ray get-auth-token --generate``
writes ``.ray/auth_token``, exactly where a user's would be), free ports and a short temp dir
(Ray's Unix sockets must fit 107 bytes). Each ``ray start`` runs in a new session, and the
cluster is stopped by killing those process groups (TERM, then KILL), never by ``ray stop``,
which ends every Ray on the machine.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psutil

RAY = str(Path(sys.executable).with_name("ray"))
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _ephemeral_low() -> int:
    """The first port of the kernel's ephemeral range, where :func:`free_port` picks."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def worker_port_range(width: int = 100) -> tuple[int, int]:
    """A range of ``width`` free ports *below* the kernel's ephemeral range, for a node's workers.

    The node's other ports come from :func:`free_port`, that is from the ephemeral range, so
    none of them can fall inside this one: when the range was taken next to a kernel-picked
    port, the runtime-env agent's port once landed in it (51341 in 51300-51399) and ``ray
    start`` refused the node, failing 11 tests. The window is drawn at random (two suites on one
    machine rarely draw the same) and every port of it must be free now.
    """
    top = _ephemeral_low()
    draw = random.Random()
    for _ in range(100):
        low = draw.randrange(10000, top - width, width)
        if all(_is_free(port) for port in range(low, low + width)):
            return low, low + width - 1
    raise RuntimeError(f"no {width} free ports in a row below {top}")


def _is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


def _node_ports() -> list[str]:
    """Options giving every port of a node a free one (no default port: others run Ray too)."""
    low, high = worker_port_range()
    return [
        "--node-manager-port", str(free_port()),
        "--object-manager-port", str(free_port()),
        "--metrics-export-port", str(free_port()),
        "--runtime-env-agent-port", str(free_port()),
        "--dashboard-agent-grpc-port", str(free_port()),
        "--dashboard-agent-listen-port", str(free_port()),
        "--min-worker-port", str(low), "--max-worker-port", str(high),
    ]  # fmt: skip


@dataclass
class RayCluster:
    """Two nodes of ``cpus`` CPU each; ``address`` (GCS) and ``client`` (ray://) to connect."""

    cpus: int = 1
    nodes: int = 2
    home: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="rayhome")))
    temp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="rt", dir="/tmp")))
    port: int = field(default_factory=free_port)
    client_port: int = field(default_factory=free_port)
    sessions: list[subprocess.Popen] = field(default_factory=list)
    #: Extra code run in the head's ``ray start`` process before it starts (tests of mismatch).
    head_prelude: str = ""

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def client(self) -> str:
        return f"ray://{HOST}:{self.client_port}"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a user of this cluster: its HOME (token), no RAY_* leftovers."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        env.update(HOME=str(self.home), RAY_USAGE_STATS_ENABLED="0", **extra)
        return env

    def _ray(self, *args: str, env: dict[str, str], timeout: float = 180) -> None:
        if self.head_prelude and "--head" in args:
            command = [
                sys.executable,
                "-c",
                f"{self.head_prelude}\nimport sys\nfrom ray.scripts.scripts import main\n"
                "sys.argv = ['ray', *sys.argv[1:]]\nmain()",
                *args,
            ]
        else:
            command = [RAY, *args]
        log = self.temp / f"start-{len(self.sessions)}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.sessions.append(process)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = None
        if code != 0:
            raise RuntimeError(f"ray {' '.join(args[:2])} failed ({code}):\n{log.read_text()}")

    def start(self) -> RayCluster:
        """Generate the token (as ``ray get-auth-token --generate`` does), start the head with
        it (Ray then turns token mode on), then a worker node with ``RAY_AUTH_MODE=token``."""
        try:
            subprocess.run(
                [RAY, "get-auth-token", "--generate"],
                env=self.env(),
                check=True,
                capture_output=True,
                timeout=120,
            )
            common = ["--num-cpus", str(self.cpus), "--disable-usage-stats",
                      "--temp-dir", str(self.temp)]  # fmt: skip
            self._ray(
                "start", "--head", "--node-ip-address", HOST, "--port", str(self.port),
                "--ray-client-server-port", str(self.client_port), "--include-dashboard=false",
                *_node_ports(), *common, env=self.env(),
            )  # fmt: skip
            for _ in range(self.nodes - 1):
                self._ray(
                    "start", "--address", self.address, "--node-ip-address", HOST,
                    *_node_ports(), *common, env=self.env(RAY_AUTH_MODE="token"),
                )  # fmt: skip
        except BaseException:
            self.stop()
            raise
        return self

    def processes(self) -> list[psutil.Process]:
        """Every live process of the cluster: those in the sessions its ``ray start`` made."""
        sids = {p.pid for p in self.sessions}
        found = []
        for process in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if os.getsid(process.pid) in sids:
                    found.append(process)
        return found

    def stop(self) -> None:
        """TERM, then KILL, every process of the cluster's sessions; remove its folders."""
        for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 10.0)):
            alive = self.processes()
            for process in alive:
                with contextlib.suppress(psutil.Error):
                    process.send_signal(sig)
            _, alive = psutil.wait_procs(alive, timeout=wait)
            if not alive:
                break
        for process in self.sessions:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1)
        shutil.rmtree(self.temp, ignore_errors=True)
        shutil.rmtree(self.home, ignore_errors=True)

    def wait_for_nodes(self, timeout: float = 120) -> None:
        """Until ``nodes`` nodes are alive (asked through a short-lived driver subprocess)."""
        code = (
            "import ray, time, sys\n"
            f"ray.init(address='{self.address}', log_to_driver=False)\n"
            f"deadline = time.time() + {timeout}\n"
            f"while len([n for n in ray.nodes() if n['Alive']]) < {self.nodes}:\n"
            "    if time.time() > deadline: sys.exit(1)\n"
            "    time.sleep(0.5)\n"
        )
        subprocess.run(
            [sys.executable, "-c", code],
            env=self.env(RAY_AUTH_MODE="token"),
            check=True,
            capture_output=True,
            timeout=timeout + 60,
        )
