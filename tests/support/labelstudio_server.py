"""A real Label Studio server for the integration tests (a pytest plugin with one session fixture).

The server runs from its own virtual environment, ``.venv-labelstudio`` (``make
.venv-labelstudio``; or ``$CURATE_LABEL_STUDIO_BIN`` names the ``label-studio`` executable), so its
exact Django pins never meet the project's environment. Missing server = a failed test, not a
skipped one: CI must exercise the real round trip.

Once per session: ``label-studio init`` migrates a fresh SQLite database in a temporary
``LABEL_STUDIO_BASE_DATA_DIR`` (~50 s), then ``label-studio start`` serves it on a free port of
127.0.0.1. The server gets a clean environment: Label Studio also reads USERNAME, PASSWORD,
PORT and HOST without their prefix, so inheriting the caller's would change who the admin is
or where it listens; telemetry, Sentry and the version check are off (no outside traffic). The
fixture polls ``/health/`` and then checks that the server answering is ours (our token works:
Label Studio silently moves to another port when the one asked for is busy). At the end the
server is stopped by its process id.

PYTEST_DONT_REWRITE: test modules import the helpers here as well as use the module as a plugin.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[1]
BIN_ENV = "CURATE_LABEL_STUDIO_BIN"
DEFAULT_BIN = REPO / ".venv-labelstudio" / "bin" / "label-studio"
INIT_TIMEOUT = 600.0
START_TIMEOUT = 240.0


@dataclass(frozen=True)
class LabelStudioServer:
    """A running server: its URL, the admin's legacy token and login."""

    url: str
    token: str
    username: str
    password: str
    data_dir: Path
    log: Path
    pid: int

    def http(self) -> httpx.Client:
        """A plain HTTP client authenticated as the admin (for test set-up and UI-like calls)."""
        return httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Token {self.token}"},
            timeout=60.0,
            limits=httpx.Limits(max_keepalive_connections=0),
        )


def label_studio_bin() -> Path:
    """The ``label-studio`` executable; fails the test run with a clear message when missing."""
    configured = os.environ.get(BIN_ENV)
    path = Path(configured) if configured else DEFAULT_BIN
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(
            f"Label Studio server executable not found at {path}: run `make labelstudio` "
            f"(installs label-studio==1.23.2 into its own virtualenv) or set ${BIN_ENV}",
            pytrace=False,
        )
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(
    home: Path, data_dir: Path, username: str, password: str, token: str
) -> dict[str, str]:
    """A clean environment for the server: only what it needs, nothing inherited by accident."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
        "PYTHONUNBUFFERED": "1",
        "LABEL_STUDIO_BASE_DATA_DIR": str(data_dir),
        "LABEL_STUDIO_USERNAME": username,
        "LABEL_STUDIO_PASSWORD": password,
        "LABEL_STUDIO_USER_TOKEN": token,
        "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
        "LATEST_VERSION_CHECK": "false",
        "SENTRY_DSN": "",
        "FRONTEND_SENTRY_DSN": "",
        "COLLECT_ANALYTICS": "false",
    }


def _tail(path: Path, lines: int = 25) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _wait_until_serving(
    proc: subprocess.Popen, url: str, token: str, username: str, log: Path
) -> None:
    """Poll /health/ until it answers, then check that the answering server is ours."""
    deadline = time.monotonic() + START_TIMEOUT
    with httpx.Client(timeout=5.0, limits=httpx.Limits(max_keepalive_connections=0)) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(
                    f"label-studio start exited with code {proc.returncode}:\n{_tail(log)}",
                    pytrace=False,
                )
            try:
                if client.get(f"{url}/health/").status_code == 200:
                    who = client.get(
                        f"{url}/api/current-user/whoami",
                        headers={"Authorization": f"Token {token}"},
                    )
                    if who.status_code == 200 and who.json().get("email") == username:
                        return
                    pytest.fail(
                        f"another server answers on {url} (Label Studio moved to another port?)",
                        pytrace=False,
                    )
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
    pytest.fail(
        f"Label Studio did not come up on {url} within {START_TIMEOUT:g} s:\n{_tail(log)}",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def label_studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabelStudioServer]:
    """A fresh Label Studio server for the whole test session."""
    executable = label_studio_bin()
    base = tmp_path_factory.mktemp("label-studio")
    home, data_dir = base / "home", base / "data"
    home.mkdir()
    data_dir.mkdir()
    username = "admin@example.com"
    password = secrets.token_urlsafe(12)
    token = secrets.token_hex(20)
    env = server_env(home, data_dir, username, password, token)

    init_log = base / "init.log"
    with open(init_log, "wb") as out:
        try:
            init = subprocess.run(
                [str(executable), "init", "--quiet", "--no-browser"],
                env=env,
                cwd=base,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=INIT_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(
                f"label-studio init took over {INIT_TIMEOUT:g} s:\n{_tail(init_log)}", pytrace=False
            )
    if init.returncode != 0:
        pytest.fail(
            f"label-studio init failed ({init.returncode}):\n{_tail(init_log)}", pytrace=False
        )

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = base / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                str(executable),
                "start",
                "--no-browser",
                "--internal-host",
                "127.0.0.1",
                "-p",
                str(port),
            ],
            env=env,
            cwd=base,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_serving(proc, url, token, username, log)
        yield LabelStudioServer(url, token, username, password, data_dir, log, proc.pid)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
