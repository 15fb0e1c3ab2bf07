"""Reading inputs and writing outputs safely: the one place that decides what may be replaced.

Inputs are read through :func:`read_input_bytes`, which turns every way a path can fail to
read (missing, a directory, a device, a symlink loop, no permission, a name too long) into one
:class:`~curate.errors.InputError` and *registers the file as an input of this process*.

Outputs are written atomically by :func:`atomic_writer` (a temporary sibling renamed into
place, so readers see either the old or the new content and an interrupted run leaves nothing
half-written). Before it creates anything it calls :func:`check_output_path`, which refuses
with an :class:`~curate.errors.OutputError` (exit 2):

- a path that exists and is not a regular file: a directory, a symlink (renaming would replace
  the link, not its target), a device (as root, ``-o /dev/full`` would replace the node), a
  pipe or a socket;
- a path whose nearest existing ancestor is not a directory or not writable;
- a file this process read as an input (compared by device and inode, so another spelling, a
  symlink or a hard link to it is caught), unless the writer says it updates that file;
- a pinned raw file: a file named in the ``sources.toml`` beside it, or in any source registry
  this process loaded (see :func:`protect`), and that registry itself. Only ``curate fetch``
  writes pinned files, through its own checksum-verified path.

Commands call :func:`check_output_path` on their output options *before* long work, so a bad
``-o`` fails in a second, not after an hour of scoring.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from curate.errors import InputError, OutputError

#: The source registry's file name; files it names in its own directory are pinned.
REGISTRY_NAME = "sources.toml"

#: (device, inode) of every input this process read -> the paths it was read under.
_inputs: dict[tuple[int, int], set[str]] = {}
#: (device, inode) of every pinned file this process learnt about -> the paths.
_protected: dict[tuple[int, int], set[str]] = {}


def _identity(st: os.stat_result) -> tuple[int, int]:
    return (st.st_dev, st.st_ino)


def _still_there(registry: dict[tuple[int, int], set[str]], key: tuple[int, int]) -> str | None:
    """A recorded path that still is the file ``key`` (an inode can be reused after a delete)."""
    for recorded in registry.get(key, ()):
        try:
            if _identity(os.stat(recorded)) == key:
                return recorded
        except OSError:
            continue
    return None


def _record(registry: dict[tuple[int, int], set[str]], path: Path) -> None:
    with contextlib.suppress(OSError):
        registry.setdefault(_identity(os.stat(path)), set()).add(os.path.abspath(path))


def mark_input(path: Path | str) -> None:
    """Remember ``path`` as an input of this process: no output may replace it."""
    _record(_inputs, Path(path))


def protect(path: Path | str) -> None:
    """Remember ``path`` as a pinned file (a registered raw source): no output may replace it."""
    _record(_protected, Path(path))


def forget_inputs() -> None:
    """Forget the inputs registered so far (for long-lived processes running several commands)."""
    _inputs.clear()


def read_error(path: Path, exc: OSError) -> InputError:
    """One sentence for an input path that cannot be read."""
    if exc.errno == errno.ENOENT:
        if os.path.islink(path):
            return InputError(f"{path}: is a symbolic link to a file that does not exist")
        return InputError(f"{path}: no such file")
    reasons = {
        errno.EISDIR: "is a directory, expected a file",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.ELOOP: "symbolic link loop (too many levels of symbolic links)",
        errno.ENAMETOOLONG: "file name too long",
        errno.ENOTDIR: "a part of the path is not a directory",
    }
    reason = reasons.get(exc.errno or 0, f"cannot be read ({exc.strerror or exc})")
    return InputError(f"{path}: {reason}")


@contextlib.contextmanager
def open_input(path: Path | str) -> Iterator[IO[bytes]]:
    """Open an input file for binary reading, registered as an input; errors as InputError.

    Regular files and pipes (``<(...)``, ``/dev/stdin``) are read; a directory, a device or a
    socket is refused rather than read forever.
    """
    path = Path(path)
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, after the checks
    except OSError as exc:
        raise read_error(path, exc) from None
    except ValueError:  # an embedded NUL byte
        raise InputError(f"{path}: the path holds a NUL byte") from None
    with handle:
        st = os.fstat(handle.fileno())
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{path}: is a directory, expected a file")
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            raise InputError(f"{path}: is {_kind(st.st_mode)}, expected a file")
        if stat.S_ISREG(st.st_mode):
            _inputs.setdefault(_identity(st), set()).add(os.path.abspath(path))
        yield handle


def input_exists(path: Path | str) -> bool:
    """Whether ``path`` names something, following links, for "is it there?" tests.

    Unlike ``Path.exists()``, only a missing path is ``False``: a symlink loop, a denied
    directory or a name too long is the :class:`InputError` it is, not "no such file".
    """
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise read_error(Path(path), exc) from None
    except ValueError:  # an embedded NUL byte
        raise InputError(f"{path}: the path holds a NUL byte") from None
    return True


def check_input_file(path: Path | str) -> None:
    """Refuse ``path`` as an input file now (missing, a directory, a loop...), as a read would."""
    with open_input(path):
        pass


def real_path(path: Path | str) -> Path:
    """``path`` absolute with its links resolved; a symlink loop is left for the read to report.

    ``Path.resolve()`` raises ``RuntimeError`` on a loop; ``os.path.realpath`` does not.
    """
    return Path(os.path.realpath(path))


def read_input_bytes(path: Path | str) -> bytes:
    """The bytes of an input file (see :func:`open_input`)."""
    path = Path(path)
    with open_input(path) as handle:
        try:
            return handle.read()
        except OSError as exc:
            raise read_error(path, exc) from None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _pinned_by(path: Path, key: tuple[int, int]) -> str | None:
    """Why ``path`` is pinned: the registry naming it (or being it); None if it is not."""
    if _still_there(_protected, key) is not None:
        return "named in the source registry"
    registry = path.parent / REGISTRY_NAME
    if path.name == REGISTRY_NAME:
        return "the source registry"
    try:
        table = tomllib.loads(registry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for entry in table.values():
        if isinstance(entry, dict) and isinstance(entry.get("file"), str):
            with contextlib.suppress(OSError):
                if _identity(os.stat(path.parent / entry["file"])) == key:
                    return f"named in {registry}"
    return None


def check_output_path(
    path: Path | str, *, replaces_input: bool = False, replaces_pinned: bool = False
) -> Path:
    """``path`` if an output may be written there; an :class:`OutputError` saying why not.

    ``replaces_input`` is for writers that update a state file they read themselves (a round's
    ``tasks.json``); ``replaces_pinned`` for ``fetch``, which writes only verified bytes. Outputs
    the user chose never pass either.
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputError(f"{path}: {_file_ancestor(path)} is not a directory") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise OutputError(f"{path}: cannot be used as an output ({reason})") from None
    if st is None:
        _check_parent(path)
        return path
    if stat.S_ISLNK(st.st_mode):
        raise OutputError(
            f"{path}: is a symbolic link; writing would replace the link, so give the real path"
        )
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{path}: is {_kind(st.st_mode)}, not a file an output can replace")
    key = _identity(st)
    if not replaces_input and (source := _still_there(_inputs, key)) is not None:
        same = "" if os.path.abspath(path) == source else f" (same file as {source})"
        raise OutputError(
            f"{path}: is an input of this command{same}; inputs are never overwritten, "
            "write the output elsewhere"
        )
    if not replaces_pinned and (pinned_by := _pinned_by(path, key)) is not None:
        raise OutputError(
            f"{path}: is a pinned raw file ({pinned_by}); only `curate fetch` writes it, "
            "write the output elsewhere"
        )
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: its directory {path.parent} is not writable")
    return path


def _file_ancestor(path: Path) -> Path:
    """The first ancestor of ``path`` that exists but is not a directory."""
    for ancestor in reversed(path.parents):
        if ancestor.exists() and not ancestor.is_dir():
            return ancestor
    return path.parent


def _check_parent(path: Path) -> None:
    """The nearest existing ancestor of a new ``path`` must be a writable directory."""
    ancestor = path.parent
    while True:
        try:
            st = os.stat(ancestor)
            break
        except FileNotFoundError:
            if ancestor.parent == ancestor:
                return
            ancestor = ancestor.parent
        except OSError as exc:
            raise OutputError(
                f"{path}: cannot be used as an output ({ancestor}: {exc.strerror or exc})"
            ) from None
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{path}: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: the directory {ancestor} is not writable")


#: OS errors that mean "this output cannot be written here" rather than a bug in the caller.
_WRITE_ERRNOS = frozenset(
    {
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EFBIG,
        errno.EIO,
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
        errno.EISDIR,
        errno.ENOTDIR,
        errno.EXDEV,
        errno.EBUSY,
        errno.ENAMETOOLONG,
    }
)


def _write_error(path: Path, exc: OSError) -> OutputError:
    return OutputError(f"{path}: cannot be written ({exc.strerror or exc})")


@contextlib.contextmanager
def atomic_writer(
    path: Path,
    mode: str = "w",
    encoding: str | None = "utf-8",
    *,
    replaces_input: bool = False,
) -> Iterator[IO]:
    """Open a temporary sibling of ``path`` for writing; rename it over ``path`` on success.

    ``path`` is checked first (:func:`check_output_path`); an OS error while creating,
    writing or renaming becomes an :class:`OutputError` naming the path, and the temporary
    file is removed.
    """
    path = check_output_path(Path(path), replaces_input=replaces_input)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _write_error(path, exc) from None
    tmp = Path(tmp_name)
    try:
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": ""}
        try:
            with os.fdopen(fd, mode, **kwargs) as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except OSError as exc:
            if exc.errno not in _WRITE_ERRNOS:
                raise
            raise _write_error(path, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str, *, replaces_input: bool = False) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically."""
    with atomic_writer(path, replaces_input=replaces_input) as handle:
        handle.write(text)


def write_bytes_atomic(path: Path, data: bytes, *, replaces_input: bool = False) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_writer(path, "wb", replaces_input=replaces_input) as handle:
        handle.write(data)


def sha256_file(path: Path, chunk_size: int = 1 << 20) -> str:
    """Hex SHA-256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def read_text_utf8(path: Path) -> str:
    """Read a file as UTF-8, naming the file and byte offset of the first invalid byte."""
    path = Path(path)
    try:
        data = read_input_bytes(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{path}: not UTF-8: invalid byte 0x{data[exc.start]:02x} at byte offset {exc.start} "
            f"(line {line})"
        ) from None
