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

An output of several files (a diff-report, an explorer site, a score folder) is one set:
:func:`staged_output_dir` / :func:`write_file_set` write it into a hidden, locked sibling
folder and swap it in with one atomic exchange, so a reader, a full disk or a ``kill -9`` sees
the old set or the new one, never a mix; :func:`check_output_dir` checks write permission (by
trying, as root ignores modes) and free space before any work. Every temporary name (a file's
``.NAME.*.tmp``, a set's ``.NAME.*.staging``, publish's ``.dist-*.tmp``) is locked with
``flock`` while its writer lives, so the next writer to the same place sweeps what a killed
run left without touching a live one's.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import glob
import hashlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO

from curate import tomltext
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
        table = tomltext.loads(registry.read_text(encoding="utf-8"))
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
        raise _link_error(path)
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


def _link_error(path: Path) -> OutputError:
    return OutputError(
        f"{path}: is a symbolic link; writing would replace the link, so give the real path"
    )


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
WRITE_ERRNOS = frozenset(
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
        sweep_output_file(path)
        fd, new_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
        # locked before it gets its .tmp name, so a concurrent sweep never sees it unlocked
        fcntl.flock(fd, fcntl.LOCK_EX)
        lock = os.dup(fd)  # the lock lives until the rename, after the handle is closed
        tmp = Path(new_name.removesuffix(".new") + ".tmp")
        os.rename(new_name, tmp)
    except OSError as exc:
        raise _write_error(path, exc) from None
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
            if exc.errno not in WRITE_ERRNOS:
                raise
            raise _write_error(path, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(lock)


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


def read_input_file(path: Path) -> bytes:
    """The bytes of input file ``path`` (:func:`read_input_bytes`), a missing, unreadable or
    directory path being one sentence naming it."""
    try:
        return read_input_bytes(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None


#: Byte-order marks of the encodings in which ASCII is not one byte a character, longest first
#: (UTF-32-LE's mark begins with UTF-16-LE's). A file that starts with one is that encoding:
#: the mark is the evidence, and line-by-line 8-bit guessing would only misread it.
WIDE_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def bom_encoding(data: bytes) -> str | None:
    """``utf-16`` or ``utf-32`` when ``data`` starts with that encoding's byte-order mark
    (these codecs read the mark and its byte order), else None."""
    return next((name for bom, name in WIDE_BOMS if data.startswith(bom)), None)


def decode_wide(data: bytes, name: str, source: str) -> str:
    """``data`` decoded whole as the UTF-16 or UTF-32 codec ``name`` (never line by line: its
    line ends are two or four bytes), or one sentence naming the offset it fails at."""
    try:
        return data.decode(name)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{source}: not UTF-8, and not {name} either: {exc.reason} at byte offset "
            f"{exc.start}; give the file's encoding with --encoding"
        ) from None


def read_text_utf8(path: Path) -> str:
    """Read a file as UTF-8, naming the file and byte offset of the first invalid byte; a file
    with a UTF-16 or UTF-32 byte-order mark is refused saying so (these readers take UTF-8)."""
    path = Path(path)
    data = read_input_file(path)
    if wide := bom_encoding(data):
        raise InputError(
            f"{path}: not UTF-8: it starts with the byte-order mark of {wide.upper()}; this "
            "file is read as UTF-8 only: save it as UTF-8"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{path}: not UTF-8: invalid byte 0x{data[exc.start]:02x} at byte offset {exc.start} "
            f"(line {line})"
        ) from None


# -- staging: one mechanism for every output that must appear whole ---------------------------
#
# A staging file or directory is created under a temporary name, locked with ``flock`` for as
# long as its writer lives (the kernel drops the lock when the process dies, also on kill -9),
# and only then given its final staging name. Every later writer to the same place sweeps the
# staging names nobody holds: whatever a killed run left is removed by the next one, and a live
# writer's staging is never touched.


def _try_lock(path: Path) -> int | None:
    """An fd holding an exclusive lock on ``path`` (a file or a directory); None when another
    process holds it or it cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def remove_stale(folder: Path, pattern: str, min_age: float = 0.0) -> list[Path]:
    """Remove the entries of ``folder`` matching ``pattern`` that no live process holds (and,
    for names that exist unlocked for an instant, that are at least ``min_age`` seconds old)."""
    removed: list[Path] = []
    try:
        candidates = sorted(folder.glob(pattern)) if folder.is_dir() else []
    except OSError:
        candidates = []
    for path in candidates:
        try:
            if path.is_symlink() or time.time() - path.lstat().st_mtime < min_age:
                continue
        except OSError:
            continue
        fd = _try_lock(path)
        if fd is None:
            continue  # a live writer is using it
        try:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        finally:
            os.close(fd)
        removed.append(path)
    return removed


@contextlib.contextmanager
def locked_staging_dir(folder: Path, prefix: str, suffix: str) -> Iterator[Path]:
    """A fresh directory ``folder/<prefix>*<suffix>``, locked while the block runs.

    It is created as ``*.new``, locked, then renamed, so no sweep of ``<prefix>*<suffix>`` can
    see it unlocked. The caller renames it away on success; what is left is removed on exit.
    """
    building = Path(tempfile.mkdtemp(prefix=prefix, suffix=".new", dir=folder))
    fd = os.open(building, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        staged = building.with_name(building.name.removesuffix(".new") + suffix)
        os.rename(building, staged)
        try:
            yield staged
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    finally:
        shutil.rmtree(building, ignore_errors=True)
        os.close(fd)


#: Suffix of the staging directory of an output folder (``.<name>.<random>.staging``).
STAGING_SUFFIX = ".staging"
#: Suffix of an output folder's previous content while it is swapped out (no RENAME_EXCHANGE).
OLD_SUFFIX = ".old"
#: At most this many other entries are carried over into a new output set (hard links); more
#: means the folder is not the outputs' own (a project root), and it is refused.
MAX_CARRIED = 200
#: Free space an output folder needs beyond what the caller announces.
SPACE_MARGIN = 1 << 20


def _writable_probe(folder: Path) -> OSError | None:
    """Whether a file can be created in ``folder``, found by trying (root ignores modes)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return exc
    return None


def check_output_dir(path: Path | str, need_bytes: int = 0) -> Path:
    """The real folder an output set goes to; an :class:`OutputError` when it cannot be written.

    Called before any long work (scoring, charting). A symbolic link to a folder is followed
    (the set is written where it points; the link itself is never renamed); a dangling link,
    a file, or a folder whose parent cannot take a new entry is refused, and so is a disk
    without ``need_bytes`` (plus a margin) free.
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{path}: cannot be used as an output ({exc.strerror})") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        target = real_path(path)
        if not target.is_dir():
            raise OutputError(f"{path}: is a symbolic link that does not lead to a folder")
        path = target
    elif st is not None and not stat.S_ISDIR(st.st_mode):
        kind = "a file" if stat.S_ISREG(st.st_mode) else _kind(st.st_mode)
        raise OutputError(f"{path}: is not a directory ({kind}); give a folder for the outputs")
    here = real_path(Path.cwd())
    if real_path(path) == here or here.is_relative_to(real_path(path)):
        raise OutputError(
            f"{path}: is the current folder or holds it; the outputs are replaced as a whole, "
            "so give a folder of their own"
        )
    _check_parent(path)
    ancestor = path.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if (problem := _writable_probe(ancestor)) is not None:
        raise OutputError(f"{path}: the folder {ancestor} is not writable ({problem.strerror})")
    free = shutil.disk_usage(ancestor).free
    if free < need_bytes + SPACE_MARGIN:
        raise OutputError(
            f"{path}: cannot be written (No space left on device: {free:,} bytes free, "
            f"about {need_bytes + SPACE_MARGIN:,} needed)"
        )
    return path


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directory entries in one step (Linux ``renameat2(RENAME_EXCHANGE)``).

    False where the system or file system cannot; then the caller swaps with two renames.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


#: A writer's ``*.new`` name exists unlocked for an instant; older ones were left by a kill.
UNLOCKED_GRACE = 60.0


def sweep_output_file(path: Path) -> None:
    """Remove the temporary siblings of output file ``path`` that killed writers left."""
    name = glob.escape(path.name)
    remove_stale(path.parent, f".{name}.*.tmp")
    remove_stale(path.parent, f".{name}.*.new", min_age=UNLOCKED_GRACE)


def sweep_output_dir(path: Path) -> None:
    """Remove what killed writers of output folder ``path`` left beside it; a previous content
    swapped out by a writer killed between its two renames is put back first."""
    folder, name = path.parent, glob.escape(path.name)
    for old in sorted(folder.glob(f".{name}.*{OLD_SUFFIX}")) if folder.is_dir() else ():
        if not os.path.lexists(path) and (fd := _try_lock(old)) is not None:
            try:
                os.rename(old, path)
            except OSError:
                pass
            finally:
                os.close(fd)
    remove_stale(folder, f".{name}.*{OLD_SUFFIX}")
    remove_stale(folder, f".{name}.*{STAGING_SUFFIX}")
    remove_stale(folder, f".{name}.*.new", min_age=UNLOCKED_GRACE)


@contextlib.contextmanager
def staged_output_dir(
    path: Path | str, members: Iterable[str] | None = (), *, need_bytes: int = 0
) -> Iterator[Path]:
    """Write an output folder as a whole: yield a staging folder, then swap it in.

    The block writes the complete set into the yielded folder (a locked sibling
    ``.<name>.*.staging``); on success it replaces ``path`` in one atomic exchange, so a reader
    or a ``kill -9`` at any moment sees either the old set or the new one, never a mix. Entries
    of an existing ``path`` that are not ``members`` (the set's own names) are carried over as
    hard links, so a folder that also holds other files keeps them; ``members=None`` replaces
    the folder with exactly what the block wrote (a folder the caller owns whole). Stale staging
    of killed runs is swept first; an error leaves ``path`` untouched and removes the staging.
    """
    path = check_output_dir(path, need_bytes)
    carry = members is not None
    members = set(members or ())
    check_output_members(path, members)
    with contextlib.ExitStack() as stack:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            sweep_output_dir(path)
            staged = stack.enter_context(
                locked_staging_dir(path.parent, f".{path.name}.", STAGING_SUFFIX)
            )
        except OSError as exc:
            raise _write_error(path, exc) from None
        try:
            if carry and path.is_dir():
                others = [e for e in sorted(os.listdir(path)) if e not in members]
                if len(others) > MAX_CARRIED or ".git" in others:
                    raise OutputError(
                        f"{path}: holds {len(others)} other entries; the outputs are replaced "
                        "as a whole, so give a folder of their own"
                    )
                for entry in others:
                    if not _temporary_of(entry, members):
                        _carry_over(path / entry, staged / entry)
            yield staged
            if carry and path.is_dir():
                for entry in os.listdir(path):  # appeared during the block (another program)
                    if (
                        entry not in members
                        and not _temporary_of(entry, members)
                        and not os.path.lexists(staged / entry)
                    ):
                        _carry_over(path / entry, staged / entry)
            os.chmod(staged, 0o755)
            _swap_in(staged, path)
        except OSError as exc:
            if isinstance(exc, OutputError) or exc.errno not in WRITE_ERRNOS:
                raise
            raise _write_error(path, exc) from None


def check_output_members(path: Path | str, members: Iterable[str]) -> None:
    """The rule of every writer of an output set, checked before anything is written (and
    callable before long work): a member that exists as a symbolic link is refused (swapping
    the set in would replace the link, and its target outside would silently stop being the
    output), and so is a member file that is an input of the command or a pinned raw file."""
    path = Path(path)
    for member in sorted(members):
        target = path / member
        if os.path.islink(target):
            raise _link_error(target)
        if os.path.isfile(target):
            check_output_path(target)


def write_file_set(path: Path | str, files: Mapping[str, str | bytes]) -> list[Path]:
    """Write ``{name: content}`` into folder ``path`` as one set (see :func:`staged_output_dir`):
    all new files appear together, or none does. A name may hold a folder (``set/a.txt``):
    that folder is then a member as a whole, replaced with exactly the files given. Returns
    the final paths."""
    path = Path(path)
    need = sum(len(c.encode("utf-8") if isinstance(c, str) else c) for c in files.values())
    members = {name.split("/", 1)[0] for name in files}
    with staged_output_dir(path, members, need_bytes=need) as staged:
        for name, content in files.items():
            if isinstance(content, str):
                write_text_atomic(staged / name, content)
            else:
                write_bytes_atomic(staged / name, content)
    return [path / name for name in files]


def _temporary_of(entry: str, members: set[str]) -> bool:
    """Whether ``entry`` is a temporary file of a member (left by a killed writer)."""
    return entry.startswith(".") and entry.endswith((".tmp", ".new")) and any(
        entry.startswith(f".{member}.") for member in members
    )


def _carry_over(source: Path, target: Path) -> None:
    """Hard-link ``source`` (a file, a link or a folder tree) to ``target``."""
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, copy_function=os.link)
    elif source.is_symlink():
        os.symlink(os.readlink(source), target)
    else:
        os.link(source, target)


def _swap_in(staged: Path, path: Path) -> None:
    """Put ``staged`` at ``path``; the previous content (if any) ends up at ``staged``."""
    with contextlib.suppress(OSError):  # make the staged entries durable before they appear
        fd = os.open(staged, os.O_RDONLY | os.O_DIRECTORY)
        os.fsync(fd)
        os.close(fd)
    if not os.path.lexists(path):
        os.rename(staged, path)
        return
    if _exchange(staged, path):
        return
    # No atomic exchange: a locked ``.old`` name, so a kill between the renames is undone by
    # the next run's sweep (it renames the old content back).
    old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=OLD_SUFFIX, dir=path.parent))
    os.rmdir(old)
    lock = _try_lock(path)  # held while the old content is away, so no sweep restores it
    try:
        os.rename(path, old)
        os.rename(staged, path)
        os.rename(old, staged)  # removed with the staging on the way out
    finally:
        if lock is not None:
            os.close(lock)
