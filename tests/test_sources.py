"""Checksummed fetching: from a path, a mirror directory, a URL; failures leave nothing behind."""

from __future__ import annotations

import hashlib
import http.server
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from curate import sources
from curate.errors import ChecksumError, FetchError, InputError, OutputError, UsageError
from curate.fileio import write_bytes_atomic
from tests.conftest import REGISTRY

PAYLOAD = b"0,a,b\n"


def _source(payload: bytes = PAYLOAD, url: str = "http://127.0.0.1:9/x.csv") -> sources.Source:
    return sources.Source(
        name="demo",
        file="demo.csv",
        url=url,
        sha256=hashlib.sha256(payload).hexdigest(),
        license="CC0",
        citation="nobody",
    )


@pytest.fixture(autouse=True)
def _no_mirror(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI sets $CURATE_DATA_MIRROR; these tests choose their origin themselves."""
    monkeypatch.delenv(sources.MIRROR_ENV, raising=False)


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    """A loopback HTTP server serving tmp_path/www."""
    root = tmp_path / "www"
    root.mkdir()
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(root), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_registry_has_pinned_sources() -> None:
    registry = sources.load_sources(REGISTRY)
    assert set(registry) >= {"crows-pairs", "stereoset-dev"}
    crows = registry["crows-pairs"]
    assert crows.sha256 == "dfb36986ce0502abbaf7055b9176da3d08d48e07df1251991b5dfbcbceab9d0c"
    assert crows.url.startswith("https://raw.githubusercontent.com/nyu-mll/crows-pairs/")
    assert crows.license == "CC BY-SA 4.0"
    assert "Nangia" in crows.citation


def test_copy_from_file_and_directory(tmp_path: Path) -> None:
    src = tmp_path / "mirror" / "demo.csv"
    src.parent.mkdir()
    src.write_bytes(PAYLOAD)
    dest = tmp_path / "raw"
    result = sources.fetch(_source(), dest, str(src))
    assert result.action == "copied"
    assert (dest / "demo.csv").read_bytes() == PAYLOAD
    assert sources.status(_source(), dest) == "verified"
    assert sources.fetch(_source(), dest, str(src.parent)).action == "already present"
    assert sources.fetch(_source(), dest, str(src.parent), force=True).action == "copied"


def test_mirror_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "demo.csv").write_bytes(PAYLOAD)
    monkeypatch.setenv(sources.MIRROR_ENV, str(tmp_path))
    result = sources.fetch(_source(), tmp_path / "raw")
    assert result.origin == str(tmp_path / "demo.csv")


def test_download_over_http(http_server: str, tmp_path: Path) -> None:
    (tmp_path / "www" / "x.csv").write_bytes(PAYLOAD)
    source = _source(url=f"{http_server}/x.csv")
    progress: list[tuple[int, int | None]] = []
    result = sources.fetch(source, tmp_path / "raw", progress=lambda d, t: progress.append((d, t)))
    assert result.action == "downloaded"
    assert (tmp_path / "raw" / "demo.csv").read_bytes() == PAYLOAD
    assert progress[-1] == (len(PAYLOAD), len(PAYLOAD))


def test_checksum_mismatch_leaves_nothing(http_server: str, tmp_path: Path) -> None:
    (tmp_path / "www" / "x.csv").write_bytes(b"tampered\n")
    dest = tmp_path / "raw"
    with pytest.raises(ChecksumError, match=r"checksum mismatch .* nothing was written"):
        sources.fetch(_source(url=f"{http_server}/x.csv"), dest)
    assert list(dest.iterdir()) == []


def test_unreachable_url_leaves_nothing(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dest = tmp_path / "raw"
    with pytest.raises(FetchError, match=r"demo: cannot download http://127.0.0.1:\d+/x.csv"):
        sources.fetch(_source(url=f"http://127.0.0.1:{port}/x.csv"), dest, timeout=5)
    assert list(dest.iterdir()) == []


def test_http_404_is_a_clear_error(http_server: str, tmp_path: Path) -> None:
    with pytest.raises(FetchError, match=r"cannot download .*: HTTP 404"):
        sources.fetch(_source(url=f"{http_server}/missing.csv"), tmp_path / "raw")


def test_missing_local_origin(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match=r"no such file"):
        sources.fetch(_source(), tmp_path / "raw", str(tmp_path / "nowhere.csv"))


def test_status_detects_tampering(tmp_path: Path) -> None:
    (tmp_path / "demo.csv").write_bytes(b"other")
    assert sources.status(_source(), tmp_path) == "checksum mismatch"
    assert sources.status(_source(), tmp_path / "none") == "missing"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[x]\nfile = 'a.csv'\n", r"\[x\] lacks url, sha256, license, citation"),
        ("[x\n", r"invalid TOML"),
        (
            "[x]\nfile='../a'\nurl='u'\nsha256='" + "0" * 64 + "'\nlicense='l'\ncitation='c'\n",
            r"bare file name",
        ),
        ("[x]\nfile='a'\nurl='u'\nsha256='abc'\nlicense='l'\ncitation='c'\n", r"64 lower-case hex"),
    ],
)
def test_bad_registry(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "sources.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        sources.load_sources(path)


def test_unknown_source_lists_known() -> None:
    with pytest.raises(
        UsageError, match=r"unknown source 'nope'; known sources: crows-pairs, crows-pairs-dutch, .*stereoset-dev"
    ):
        sources.get_source(sources.load_sources(REGISTRY), "nope")


@pytest.mark.parametrize("origin", ["ftp://example.org/x.csv", "s3://bucket/x.csv", "gopher://x"])
def test_unsupported_schemes_are_not_paths(tmp_path: Path, origin: str) -> None:
    scheme = origin.split("://")[0]
    with pytest.raises(UsageError, match=rf"unsupported URL scheme '{scheme}'"):
        sources.fetch(_source(), tmp_path / "raw", origin)
    assert not (tmp_path / "raw").exists()


def test_file_url_is_a_local_copy(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_bytes(PAYLOAD)
    result = sources.fetch(_source(), tmp_path / "raw", (tmp_path / "x.csv").as_uri())
    assert result.action == "copied" and result.path.read_bytes() == PAYLOAD
    with pytest.raises(UsageError, match=r"must name a local file"):
        sources.fetch(_source(), tmp_path / "raw2", "file://host/x.csv")


def test_a_file_named_with_a_colon_is_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("c:x.csv").write_bytes(PAYLOAD)
    assert sources.fetch(_source(), tmp_path / "raw", "c:x.csv").action == "copied"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.symlink_to(p), r"symbolic link loop"),
        (lambda p: p.mkdir(), r"no such file"),  # a directory is a mirror without the file
    ],
)
def test_unreadable_local_origins(tmp_path: Path, make, message: str) -> None:
    origin = tmp_path / "origin"
    make(origin)
    with pytest.raises(FetchError, match=message):
        sources.fetch(_source(), tmp_path / "raw", str(origin))
    assert not (tmp_path / "raw" / "demo.csv").exists()


def test_device_origin_is_refused_not_read_forever(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match=r"/dev/zero: is a device"):
        sources.fetch(_source(), tmp_path / "raw", "/dev/zero")


def test_destination_must_be_a_file_or_new(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_bytes(PAYLOAD)
    raw = tmp_path / "raw"
    (raw / "demo.csv").mkdir(parents=True)
    with pytest.raises(OutputError, match=r"demo.csv: is a directory"):
        sources.fetch(_source(), raw, str(tmp_path / "x.csv"))


def test_loaded_registry_pins_its_files(tmp_path: Path) -> None:
    """After load_sources, no writer of this process replaces a registered raw file."""
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "registry.toml").write_text(
        '[demo]\nfile = "demo.csv"\nurl = "https://x"\nsha256 = "'
        + hashlib.sha256(PAYLOAD).hexdigest()
        + '"\nlicense = "x"\ncitation = "x"\n'
    )
    (raw / "demo.csv").write_bytes(PAYLOAD)
    loaded = sources.load_sources(raw / "registry.toml")
    with pytest.raises(OutputError, match=r"pinned raw file"):
        write_bytes_atomic(raw / "demo.csv", b"other")
    assert sources.fetch(loaded["demo"], raw, str(raw / "demo.csv"), force=True).action == "copied"
    assert (raw / "demo.csv").read_bytes() == PAYLOAD
