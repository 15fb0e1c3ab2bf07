"""Staging directories of ``publish``: created locked, and removed once their builder is gone.

``publish`` builds a release in ``data/clean/<V>/.dist-*.tmp/`` and renames it to ``dist/``.
A ``kill -9`` leaves the staging directory behind (a full copy of the CC BY-SA data), so every
publish sweeps stale ones first. "Stale" is decided by a lock, not by age: each builder holds an
exclusive ``flock`` on its staging directory for as long as it lives (the kernel drops it when
the process dies), and a directory only ever gets its ``.dist-*.tmp`` name while already locked,
so a concurrent publish's live staging directory is never removed. The mechanism is the one of
every output of curate (:func:`curate.fileio.locked_staging_dir`); this module names publish's
staging place.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from curate import fileio
from curate.errors import OutputError

#: Glob of the staging directories inside ``data/clean/<V>/`` (also in .gitignore).
STAGING_GLOB = ".dist-*.tmp"


def remove_stale(target: Path) -> list[Path]:
    """Remove the staging directories in ``target`` that no live process holds; return them."""
    fileio.remove_stale(target, ".dist-*.new", min_age=fileio.UNLOCKED_GRACE)
    return [p for p in fileio.remove_stale(target, STAGING_GLOB) if not p.is_file()]


@contextlib.contextmanager
def staging_dir(target: Path) -> Iterator[Path]:
    """A fresh ``.dist-*.tmp`` directory in ``target``, locked while the block runs.

    The caller renames it away on success; whatever is left is removed on the way out. A
    folder that cannot take it (read-only, full) is an :class:`~curate.errors.OutputError`.
    """
    with contextlib.ExitStack() as stack:
        try:
            staged = stack.enter_context(fileio.locked_staging_dir(target, ".dist-", ".tmp"))
        except OSError as exc:
            raise OutputError(f"{target}: cannot be written ({exc.strerror or exc})") from None
        yield staged
