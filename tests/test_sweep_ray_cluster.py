"""``curate sweep --engine ray`` on a cluster started by hand, as a user does (issue 32).

One real cluster for the module: ``ray start --head`` on 127.0.0.1 with ports and a temp dir
of its own and a second ``ray start --address``, both subprocesses, token authentication on as
Ray 2.60 turns it on once a token exists (``tests/support/ray_cluster.py``; stopped by the
process groups it started, never ``ray stop``). The sweep runs as a user types it, ``python -m
curate sweep`` in a subprocess, through ``--address HOST:PORT`` and ``ray://HOST:PORT``, and
writes the bytes of sequential ``curate score``. Then every way a connection fails: exit 2, one
sentence naming the cause, within ``--connect-timeout``, the token never printed.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.sweep_project import column_files, reference, write_project

ray = pytest.importorskip("ray")
psutil = pytest.importorskip("psutil")

from tests.support.ray_cluster import RayCluster, free_port  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster():
    started = RayCluster(cpus=1, nodes=2).start()
    try:
        started.wait_for_nodes()
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    root = tmp_path_factory.mktemp("reference")
    write_project(root)
    return column_files(reference(root))


def _curate(
    args: list[str], cwd: Path, env: dict[str, str], prelude: str = "", timeout: float = 900
) -> tuple[subprocess.CompletedProcess, float]:
    """``python -m curate ARGS`` as a user runs it (``prelude``: code run first)."""
    code = f"{prelude}\nimport sys\nfrom curate.cli import main\nsys.argv = ['curate', *sys.argv[1:]]\nmain()"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done, time.monotonic() - start


def _token(cluster: RayCluster) -> str:
    return (cluster.home / ".ray" / "auth_token").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("route", ["gcs", "client"])
def test_a_sweep_through_the_address_a_user_types_writes_the_bytes_of_sequential_score(
    cluster, route, tmp_path, expected
):
    plan = write_project(tmp_path)
    address = cluster.address if route == "gcs" else cluster.client
    env = cluster.env(RAY_AUTH_MODE="token")
    done, _ = _curate(["sweep", str(plan), "--engine", "ray", "--address", address], tmp_path, env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert column_files(tmp_path / "out") == expected
    assert "Traceback" not in done.stderr
    assert _token(cluster) not in done.stdout + done.stderr
    again, _ = _curate(
        ["sweep", str(plan), "--engine", "ray", "--address", address, "--format", "json"],
        tmp_path,
        env,
    )
    assert again.returncode == 0, again.stderr[-3000:]
    assert '"computed": 0' in again.stdout and '"computed": 1' not in again.stdout
    assert column_files(tmp_path / "out") == expected


def _failure(done: subprocess.CompletedProcess, cluster: RayCluster | None) -> str:
    """The error sentence, checked: exit 2, one line, no traceback, no token."""
    assert done.returncode == 2, (done.returncode, done.stderr[-3000:])
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, done.stderr
    assert "Traceback" not in done.stderr
    if cluster is not None:
        assert _token(cluster) not in done.stdout + done.stderr
    return errors[0]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("project"))


def _sweep_to(address: str, project: Path, env: dict[str, str], *extra: str, prelude: str = ""):
    return _curate(
        ["sweep", str(project), "--engine", "ray", "--address", address, *extra],
        project.parent,
        env,
        prelude=prelude,
    )


@pytest.mark.parametrize("route", ["gcs", "client"])
def test_a_refused_connection_is_named(route, project):
    port = free_port()
    address = f"127.0.0.1:{port}" if route == "gcs" else f"ray://127.0.0.1:{port}"
    done, _ = _sweep_to(address, project, dict(os.environ), "--connect-timeout", "5")
    assert "connection refused" in _failure(done, None)


@pytest.fixture
def silent_port():
    """A port that accepts TCP connections and never says a word (a wrong service, a
    half-open proxy): what a client waits on until its timeout."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    server.close()


@pytest.mark.parametrize("route", ["gcs", "client"])
def test_a_timeout_is_named_with_its_seconds_and_comes_within_them(route, project, silent_port):
    from curate.errors import UsageError
    from curate.sweep.ray_connect import probe

    address = f"127.0.0.1:{silent_port}" if route == "gcs" else f"ray://127.0.0.1:{silent_port}"
    start = time.monotonic()
    with pytest.raises(UsageError, match="within 3 s"):
        probe(address, 3.0)
    assert time.monotonic() - start < 3.0 + 2.0
    done, _ = _sweep_to(address, project, dict(os.environ), "--connect-timeout", "3")
    assert "did not answer within 3 s" in _failure(done, None)


@pytest.mark.parametrize("route", ["gcs", "client"])
@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("no auth mode", "uses token authentication: set RAY_AUTH_MODE=token"),
        ("no token", "no token was found"),
        ("wrong token", "refused the token from RAY_AUTH_TOKEN"),
    ],
)
def test_authentication_failures_say_what_to_set(cluster, route, case, said, project, tmp_path):
    address = cluster.address if route == "gcs" else cluster.client
    if case == "no auth mode":
        env = cluster.env()  # the token is in HOME, but token mode is not on
    elif case == "no token":
        env = {**cluster.env(RAY_AUTH_MODE="token"), "HOME": str(tmp_path)}
    else:
        env = cluster.env(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN="0" * 32)
    done, elapsed = _sweep_to(address, project, env, "--connect-timeout", "10")
    assert said in _failure(done, cluster)
    assert elapsed < 120, elapsed  # Ray's own failure took 28-39 s after its start-up


#: Ray's version as another release would report it: the driver runs "2.59.0".
_OTHER_RAY = "import ray\nray.__version__ = '2.59.0'"


@pytest.mark.parametrize("route", ["gcs", "client"])
def test_a_version_mismatch_names_both_versions(cluster, route, project):
    address = cluster.address if route == "gcs" else cluster.client
    env = cluster.env(RAY_AUTH_MODE="token")
    done, _ = _sweep_to(address, project, env, "--connect-timeout", "20", prelude=_OTHER_RAY)
    sentence = _failure(done, cluster)
    assert "version mismatch" in sentence
    assert f"cluster runs Ray {ray.__version__}" in sentence
    assert "this driver Ray 2.59.0" in sentence


def test_through_ray_client_a_killed_worker_is_replayed_and_a_broken_model_fails_alone(
    cluster, tmp_path, expected
):
    """The guarantees of the local Ray hold through ``ray://``: the worker process killed after
    its first batch is replaced and its model replayed (same bytes), a model whose weights do
    not load fails alone (exit 1), and the driver alone wrote the cache."""
    import shutil

    from tests.support.tiny_models import tiny_model_dir

    broken = tmp_path / "damaged"
    shutil.copytree(tiny_model_dir("bert"), broken)
    weights = broken / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:100])
    plan = write_project(
        tmp_path, extra_models=f'[[model]]\nname = "{broken}"\nlabel = "damaged"\n'
    )
    marker = tmp_path / "killed"
    prelude = (
        "from curate.sweep import run as sweep_run\n"
        "from tests.support.sweep_project import KillOnce\n"
        "original = sweep_run.run_sweep\n"
        f"sweep_run.run_sweep = lambda plan, **o: original(plan, hook=KillOnce({str(marker)!r}), **o)\n"
    )
    done, _ = _curate(
        ["sweep", str(plan), "--engine", "ray", "--address", cluster.client],
        tmp_path,
        cluster.env(RAY_AUTH_MODE="token"),
        prelude=prelude,
    )
    assert done.returncode == 1, done.stderr[-3000:]
    assert marker.is_file(), "the hook did not kill a worker"
    assert "failed: damaged" in done.stderr
    assert "model.safetensors" in done.stderr
    written = column_files(tmp_path / "out")
    assert {k: v for k, v in written.items() if k in expected} == expected
    assert not any(k.startswith(("v1/damaged", "v2/damaged")) for k in written)
