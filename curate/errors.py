"""Errors that reach the user as one clear sentence instead of a traceback.

The CLI maps every :class:`CurateError` to its message on stderr and its exit code; anything
else is a bug and keeps its traceback. Messages are plain text: they quote paths, cells and rule
codes the user typed, so they are printed through :func:`user_text`, never read as rich markup.
"""

from __future__ import annotations

import re

from rich.markup import escape

#: C0/C1 control characters other than tab and newline: shown as ``\xNN`` so a path or a cell
#: holding terminal escape sequences can neither recolour nor rewrite the user's terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def user_text(value: object) -> str:
    """``value`` as text that rich prints literally: markup escaped, control characters visible.

    Everything that came from the user or from a data file (paths, sentences, rule codes, cell
    values, exception messages quoting them) goes through this before it reaches a rich
    ``print`` with markup on, so ``[release]`` stays visible and ``[/x]`` cannot raise
    ``MarkupError``.
    """
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value))
    return escape(text)


class CurateError(Exception):
    """A problem the user can fix (bad input, bad option, unreachable service)."""

    exit_code: int = 2

    @property
    def rich_message(self) -> str:
        """The message escaped for rich markup (see :func:`user_text`)."""
        return user_text(self)


class InputError(CurateError):
    """An input file is missing, unreadable or does not follow its documented format."""


class OutputError(CurateError, OSError):
    """An output path cannot or must not be written (a directory, a device, an input...).

    Also an ``OSError``, so code that tolerates a failed optional write (a cache in a
    read-only project) keeps tolerating it when the guard refuses the path.
    """


class UsageError(CurateError):
    """Options that contradict each other or name something that does not exist."""


class ChecksumError(CurateError):
    """Downloaded or copied bytes do not match the pinned SHA-256."""


class FetchError(CurateError):
    """A source could not be downloaded or copied."""
