"""Cells that a pandas ``to_csv`` of a Hugging Face dataset wrote as numpy reprs.

Loading ``crows_pairs`` with ``datasets`` and saving it with pandas turns the list columns into
the ``str()`` of numpy arrays: ``annotations`` becomes ``[array([8]) array([8]) array([],
dtype=int64) ...]`` (numpy wraps long ones over several lines) and the validators' ids
``['a115' 'a13' ...]`` (no commas). Martínez & Kremer (2023) published their parallel forms so.
This module reads both without ``eval`` (a small tokenizer over integers and quoted strings) and
writes them back with numpy's own ``str()``, so its line wrapping is reproduced byte for byte.
"""

from __future__ import annotations

import ast
import re

#: One ``array([...])`` of an annotations cell, with an optional ``dtype=...`` tail.
_ARRAY = re.compile(r"array\(\[([^\]]*)\](?:\s*,\s*dtype=\w+)?\)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def is_numpy_repr(text: str) -> bool:
    """True for a cell in numpy's notation (``array(`` inside, or quoted items without commas)."""
    stripped = text.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")):
        return False
    return "array(" in stripped or ("," not in stripped and bool(_STRING.search(stripped)))


def parse_annotations(text: str) -> list[list[int]]:
    """The class indices of each validator, from ``[array([8]) array([], dtype=int64) ...]``.

    ValueError when the cell is not a list of integer arrays.
    """
    body = text.strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise ValueError(f"not a list of arrays: {text[:60]!r}")
    inner = body[1:-1]
    out: list[list[int]] = []
    position = 0
    for match in _ARRAY.finditer(inner):
        if inner[position : match.start()].strip():
            raise ValueError(f"unexpected text in a list of arrays: {text[:60]!r}")
        items = [item.strip() for item in match.group(1).replace(",", " ").split()]
        try:
            out.append([int(item) for item in items if item])
        except ValueError:
            raise ValueError(f"an array holds a non-integer: {text[:60]!r}") from None
        position = match.end()
    if inner[position:].strip():
        raise ValueError(f"unexpected text in a list of arrays: {text[:60]!r}")
    return out


def parse_strings(text: str) -> list[str]:
    """The strings of ``['a115' 'a13' ...]`` (numpy's repr of a string array)."""
    body = text.strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise ValueError(f"not a list of strings: {text[:60]!r}")
    inner = body[1:-1]
    out = []
    position = 0
    for match in _STRING.finditer(inner):
        if inner[position : match.start()].strip(" \n\t,"):
            raise ValueError(f"unexpected text in a list of strings: {text[:60]!r}")
        try:
            out.append(ast.literal_eval(match.group(0)))
        except (SyntaxError, ValueError, MemoryError, RecursionError):  # e.g. a NUL byte
            raise ValueError(f"not a string literal in a list of strings: {text[:60]!r}") from None
        position = match.end()
    if inner[position:].strip(" \n\t,"):
        raise ValueError(f"unexpected text in a list of strings: {text[:60]!r}")
    return out


def format_annotations(value: list[list[int]]) -> str:
    """``[array([8]) array([], dtype=int64)]``, exactly as numpy prints it (wrapped at 75)."""
    import numpy as np

    cells = np.empty(len(value), dtype=object)
    for index, labels in enumerate(value):
        cells[index] = np.array(labels, dtype=np.int64)
    return str(cells)


def format_strings(value: list[str]) -> str:
    """``['a115' 'a13']``: numpy's notation of a string array."""
    import numpy as np

    return str(np.array(list(value), dtype=str))
