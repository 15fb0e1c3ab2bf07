"""A persistent cache of how spaCy splits words, so that repeated runs skip loading spaCy.

Importing spaCy and building its tokenizer is most of the start-up time of ``curate lint``.
Tokenisation is a pure function of the spaCy version and the text, so the splits of the
whitespace-free chunks seen before are kept in ``.curate-cache/spacy-<version>-splits.json``
(like ruff's ``.ruff_cache``): a run that meets no new word never imports spaCy. A missing,
unreadable or corrupt cache is ignored and rewritten; the file is replaced atomically.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

from curate import align
from curate.fileio import write_text_atomic
from curate.jsonl import loads_document

#: Entries beyond this are not added (a cache of a huge corpus would cost more than it saves).
MAX_ENTRIES = 500_000


def cache_path(directory: Path) -> Path:
    """The cache file for the installed spaCy version."""
    return Path(directory) / f"spacy-{version('spacy')}-splits.json"


def _load(path: Path) -> dict[str, list[str]]:
    try:
        data = loads_document(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in data.values()
    ):
        return {}
    return data


@contextlib.contextmanager
def persistent_splits(directory: Path | None) -> Iterator[None]:
    """Load the cached splits for the block; save what the block added. ``None`` disables it."""
    if directory is None:
        yield
        return
    path = cache_path(directory)
    known = _load(path)
    align.remember_splits(known)
    try:
        yield
    finally:  # also when the block exits with findings (exit 1) or is interrupted
        new = {k: v for k, v in align.new_splits().items() if k not in known}
        if new and len(known) + len(new) <= MAX_ENTRIES:
            with contextlib.suppress(OSError):  # a read-only project still lints
                text = json.dumps({**known, **new}, ensure_ascii=False, sort_keys=True)
                write_text_atomic(path, text)
