"""Short names for models given as a hub id or a local directory.

A model is named on the command line by a hub id (``org/name``) or a path; reports label it and
``curate score`` files its results under a directory named after it. Both start from the same
rule: a local directory is known by its own name, whatever path reached it.
"""

from __future__ import annotations

from pathlib import Path


def local_name(name: str) -> str | None:
    """The directory name of a model stored locally, or None for a hub id (and for a name
    that cannot be a path here at all: too long, a NUL byte, an unreadable parent)."""
    try:
        path = Path(name).expanduser()
        return path.resolve().name if path.exists() else None
    except (OSError, ValueError, RuntimeError):
        return None


def model_label(name: str) -> str:
    """A short label for charts and tables: a local directory's name, else the hub name."""
    return local_name(name) or name


def model_slug(name: str) -> str:
    """A directory name for a model: a local directory's name, or the hub id with ``--``."""
    return local_name(name) or name.strip("/").replace("/", "--")


def looks_like_path(name: str) -> bool:
    """True when ``name`` can only mean a local directory, never a hub id.

    Hub ids are ``name`` or ``owner/name``. A name starting with ``.``, ``..``, ``~`` or ``/``,
    holding a backslash or more than one ``/``, or whose first component is an existing local
    directory (``models/bret`` when ``models/`` exists) is a path: when it does not exist it is
    a typo to report at once, not a hub id to retry for 50 seconds.
    """
    if name.startswith((".", "/", "~")) or "\\" in name or name.count("/") > 1:
        return True
    head, slash, _ = name.partition("/")
    return bool(slash) and Path(head).expanduser().is_dir()


#: The files holding a checkpoint's weights (safetensors, sharded or not, and PyTorch pickles).
WEIGHT_FILE_PATTERNS = ("*.safetensors", "pytorch_model*.bin")


def local_weight_bytes(name: str) -> int | None:
    """The size on disk of a local model's weight files, or None for a hub id or a directory
    without them: a measure of a model's size read without loading it (a scheduler's hint)."""
    try:
        path = Path(name).expanduser()
        if not path.is_dir():
            return None
        sizes = [f.stat().st_size for pattern in WEIGHT_FILE_PATTERNS for f in path.glob(pattern)]
    except (OSError, ValueError, RuntimeError):
        return None
    return sum(sizes) if sizes else None
