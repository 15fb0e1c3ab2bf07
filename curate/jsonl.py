"""JSON-lines reading and writing shared by the record formats (findings, decisions, changes).

Writing is atomic and deterministic (keys in a fixed order, UTF-8, one object per line);
reading reports the file and line of the first malformed record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from curate.errors import InputError
from curate.fileio import atomic_writer
from curate.pairs import read_text_utf8

T = TypeVar("T")


def dumps_line(record: dict[str, Any]) -> str:
    """One record as a compact JSON line (no trailing newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> None:
    """Write records atomically, one JSON object per line."""
    with atomic_writer(Path(path)) as handle:
        for record in records:
            handle.write(dumps_line(record) + "\n")


def read_jsonl_objects(path: Path, name: str | None = None) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file with their line numbers (blank lines skipped).

    ``name`` is how errors refer to the file (default: its path).
    """
    path = Path(path)
    label = name or str(path)
    objects: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(read_text_utf8(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{label}: line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise InputError(f"{label}: line {number}: expected a JSON object")
        objects.append((number, value))
    return objects


def read_jsonl(path: Path, parse: Callable[[dict[str, Any]], T]) -> list[T]:
    """Read a JSON-lines file; ``parse`` turns a dict into a record or raises ValueError."""
    records: list[T] = []
    for number, value in read_jsonl_objects(path):
        try:
            records.append(parse(value))
        except (ValueError, TypeError, KeyError) as exc:
            raise InputError(f"{path}: line {number}: {exc}") from None
    return records
