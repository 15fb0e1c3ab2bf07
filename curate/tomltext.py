"""TOML parsing with one refusal for input nested too deep to parse.

``tomllib`` recurses once per nested array or inline table, so a hostile file (a plan, a
recipe, a registry, a pyproject) with a few thousand ``[`` dies with ``RecursionError`` rather
than ``TOMLDecodeError``. Every reader of TOML goes through :func:`loads`, which turns that into
a ``TOMLDecodeError`` (a ``ValueError``) saying so, refused before parsing when the brackets
alone show the depth: the callers' existing "not valid TOML" handling then covers it, as
:mod:`curate.jsonl` does for JSON.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

#: No TOML file this project reads nests arrays or inline tables deeper than this.
MAX_DEPTH = 100

_OPEN = re.compile(r"[\[{]")


def _too_deep(text: str) -> bool:
    """Whether the brackets of ``text`` could nest deeper than :data:`MAX_DEPTH`.

    A cheap upper bound (strings and comments are not skipped): a run of openers longer than
    the limit with no closer between them. Files under the bound are parsed; deeper ones that
    slip through (brackets separated by other text) are caught as ``RecursionError``."""
    if len(_OPEN.findall(text)) <= MAX_DEPTH:
        return False
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth = max(depth - 1, 0)
    return False


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads``, with nesting too deep to parse a ``TOMLDecodeError`` like any other."""
    message = f"arrays or inline tables nested deeper than {MAX_DEPTH} levels"
    if _too_deep(text):
        raise tomllib.TOMLDecodeError(message)
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(message) from None
