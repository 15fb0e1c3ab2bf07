"""Staging directories of ``publish``: created locked, and removed once their builder is gone.

``publish`` builds a release in ``data/clean/<V>/.dist-*.tmp/`` and renames it to ``dist/``.
A ``kill -9`` leaves the staging directory behind (a full copy of the CC BY-SA data), so every
publish sweeps stale ones first. "Stale" is decided by a lock, not by age: each builder holds an
exclusive ``flock`` on its staging directory for as long as it lives (the kernel drops it when
the process dies), and a directory only ever gets its ``.dist-*.tmp`` name while already locked,
so a concurrent publish's live staging directory is never removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

#: Glob of the staging directories inside ``data/clean/<V>/`` (also in .gitignore).
STAGING_GLOB = ".dist-*.tmp"


def _try_lock(path: Path) -> int | None:
    """An fd holding an exclusive lock on directory ``path``; None when another process holds it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def remove_stale(target: Path) -> list[Path]:
    """Remove the staging directories in ``target`` that no live process holds; return them."""
    removed: list[Path] = []
    if not target.is_dir():
        return removed
    for path in sorted(target.glob(STAGING_GLOB)):
        if path.is_symlink() or not path.is_dir():
            continue
        fd = _try_lock(path)
        if fd is None:
            continue  # a live publish is building here
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            os.close(fd)
        removed.append(path)
    return removed


@contextlib.contextmanager
def staging_dir(target: Path) -> Iterator[Path]:
    """A fresh ``.dist-*.tmp`` directory in ``target``, locked while the block runs.

    It is created under another name, locked, then renamed, so no sweep can see it unlocked.
    The caller renames it away on success; whatever is left is removed on the way out.
    """
    building = Path(tempfile.mkdtemp(prefix=".dist-", suffix=".new", dir=target))
    fd = os.open(building, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        staged = building.with_name(building.name.removesuffix(".new") + ".tmp")
        os.rename(building, staged)
        try:
            yield staged
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    finally:
        shutil.rmtree(building, ignore_errors=True)
        os.close(fd)
