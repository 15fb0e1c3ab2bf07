"""JSON-lines reading and writing shared by the record formats (findings, decisions, changes).

Writing is atomic and deterministic (keys in a fixed order, UTF-8, one object per line);
reading reports the file and line of the first malformed record: invalid JSON, a value that is
not an object, ``NaN``/``Infinity`` (not JSON), an integer too long to be a number, nesting
deeper than :data:`MAX_DEPTH`, or a record its parser (a pydantic model, see
:mod:`curate.records`) refuses, naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from curate.errors import InputError
from curate.fileio import atomic_writer, read_text_utf8

T = TypeVar("T")

#: No record format nests deeper than this; deeper input is refused before it is parsed.
MAX_DEPTH = 32


def dumps_line(record: dict[str, Any]) -> str:
    """One record as a compact JSON line (no trailing newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> None:
    """Write records atomically, one JSON object per line."""
    with atomic_writer(Path(path)) as handle:
        for record in records:
            handle.write(dumps_line(record) + "\n")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, outside strings (no recursion)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def check_depth(text: str) -> None:
    """A ValueError when ``text`` nests deeper than :data:`MAX_DEPTH` (before parsing it:
    the json module recurses once per level and dies with RecursionError near 1000)."""
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")


def loads_document(text: str) -> Any:
    """Parse a whole JSON document (an export, a snapshot, a StereoSet file) with the depth
    limit of the records; ``json.JSONDecodeError`` as usual, a ValueError when too deep."""
    check_depth(text)
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None


def loads_record(line: str) -> Any:
    """Parse one JSON line strictly; a ValueError saying what is wrong otherwise."""
    check_depth(line)
    try:
        return json.loads(line, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ValueError(f"not valid JSON ({exc})") from None


def read_jsonl_objects(path: Path, name: str | None = None) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file with their line numbers (blank lines skipped).

    ``name`` is how errors refer to the file (default: its path).
    """
    path = Path(path)
    label = name or str(path)
    objects: list[tuple[int, dict[str, Any]]] = []
    # split("\n"), not splitlines(): U+2028 and friends are valid inside JSON strings.
    for number, line in enumerate(read_text_utf8(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = loads_record(line)
        except ValueError as exc:
            raise InputError(f"{label}: line {number}: {exc}") from None
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
