"""The output-path guard and the input reader of curate.fileio."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest

from curate import fileio
from curate.errors import InputError, OutputError
from curate.fileio import (
    atomic_writer,
    check_output_path,
    mark_input,
    protect,
    read_input_bytes,
    write_text_atomic,
)

REGISTRY = (
    '[demo]\nfile = "raw.csv"\nurl = "https://example.org/raw.csv"\nsha256 = "{}"\n'
    'license = "x"\ncitation = "x"\n'
).format("0" * 64)


@pytest.fixture(autouse=True)
def _fresh_inputs():
    fileio.forget_inputs()
    yield
    fileio.forget_inputs()


def test_atomic_write_creates_parents_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "out.txt"
    write_text_atomic(target, "hello\n")
    assert target.read_text() == "hello\n"
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]


def test_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_writer(target) as handle:
        handle.write("new")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_an_input_is_never_overwritten_under_any_name(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text("data")
    read_input_bytes(source)
    os.link(source, tmp_path / "hard.csv")
    for spelling in (source, tmp_path / "sub" / ".." / "in.csv", tmp_path / "hard.csv"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(OutputError, match=r"is an input of this command"):
            write_text_atomic(spelling, "clobbered")
    assert source.read_text() == "data"


def test_a_state_file_may_be_updated_by_its_writer(tmp_path: Path) -> None:
    state = tmp_path / "tasks.json"
    state.write_text("[]")
    read_input_bytes(state)
    write_text_atomic(state, "[1]", replaces_input=True)
    assert state.read_text() == "[1]"


def test_a_replaced_input_frees_its_inode(tmp_path: Path) -> None:
    """Inodes are reused after a delete: a record whose path moved on no longer blocks."""
    first = tmp_path / "first.txt"
    first.write_text("x")
    mark_input(first)
    first.unlink()
    other = tmp_path / "other.txt"
    other.write_text("y")  # may get the freed inode
    write_text_atomic(other, "z")
    assert other.read_text() == "z"


def test_pinned_files_named_by_the_registry_beside_them(tmp_path: Path) -> None:
    (tmp_path / "sources.toml").write_text(REGISTRY)
    (tmp_path / "raw.csv").write_text("pinned")
    with pytest.raises(OutputError, match=r"pinned raw file \(named in .*sources.toml\)"):
        write_text_atomic(tmp_path / "raw.csv", "x")
    with pytest.raises(OutputError, match=r"pinned raw file \(the source registry\)"):
        write_text_atomic(tmp_path / "sources.toml", "x")
    assert (tmp_path / "raw.csv").read_text() == "pinned"
    write_text_atomic(tmp_path / "other.csv", "fine")  # a new file beside them is fine


def test_protected_files_anywhere(tmp_path: Path) -> None:
    pinned = tmp_path / "elsewhere.csv"
    pinned.write_text("pinned")
    protect(pinned)
    with pytest.raises(OutputError, match=r"pinned raw file"):
        check_output_path(pinned)
    check_output_path(pinned, replaces_pinned=True)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), r"is a directory"),
        (lambda p: p.symlink_to(p.parent / "target"), r"is a symbolic link"),
        (lambda p: p.symlink_to(p), r"is a symbolic link"),
    ],
)
def test_not_a_regular_file(tmp_path: Path, make, message: str) -> None:
    (tmp_path / "target").write_text("t")
    path = tmp_path / "out"
    make(path)
    with pytest.raises(OutputError, match=message):
        write_text_atomic(path, "x")
    assert (tmp_path / "target").read_text() == "t"


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full", "/dev/zero"])
def test_devices_are_refused(device: str) -> None:
    with pytest.raises(OutputError, match=r"is a device"):
        check_output_path(device)


def test_below_a_file_and_unwritable_places(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(OutputError, match=r"f is not a directory"):
        write_text_atomic(tmp_path / "f" / "g" / "out.txt", "x")
    with pytest.raises(OutputError, match=r"/proc/curate-test.txt"):
        write_text_atomic(Path("/proc/curate-test.txt"), "x")
    with pytest.raises(OutputError, match=r"too long|cannot"):
        write_text_atomic(tmp_path / ("n" * 300), "x")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, r"no such file"),
        (lambda p: p.mkdir(), r"is a directory"),
        (lambda p: p.symlink_to(p), r"symbolic link loop"),
        (
            lambda p: p.symlink_to(p.parent / "absent"),
            r"symbolic link to a file that does not exist",
        ),
    ],
)
def test_unreadable_inputs(tmp_path: Path, make, message: str) -> None:
    path = tmp_path / "in.csv"
    make(path)
    with pytest.raises(InputError, match=message):
        read_input_bytes(path)


def test_input_oddities() -> None:
    with pytest.raises(InputError, match=r"is a device"):
        read_input_bytes("/dev/zero")
    with pytest.raises(InputError, match=r"file name too long"):
        read_input_bytes("x" * 300)
    with pytest.raises(InputError, match=r"NUL byte"):
        read_input_bytes("a\x00b")


def test_a_pipe_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as handle:
            handle.write(b"piped")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert read_input_bytes(fifo) == b"piped"
    finally:
        writer.join(timeout=10)


def test_refusals_are_os_errors_for_optional_writers(tmp_path: Path) -> None:
    """A cache writer that ignores OSError also ignores a refused path."""
    (tmp_path / "cache").mkdir()
    with contextlib.suppress(OSError):
        write_text_atomic(tmp_path / "cache", "x")
    assert (tmp_path / "cache").is_dir()
