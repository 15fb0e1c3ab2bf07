"""Errors that reach the user as one clear sentence instead of a traceback.

The CLI maps every :class:`CurateError` to its message on stderr and its exit code; anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations


class CurateError(Exception):
    """A problem the user can fix (bad input, bad option, unreachable service)."""

    exit_code: int = 2


class InputError(CurateError):
    """An input file is missing, unreadable or does not follow its documented format."""


class UsageError(CurateError):
    """Options that contradict each other or name something that does not exist."""


class ChecksumError(CurateError):
    """Downloaded or copied bytes do not match the pinned SHA-256."""


class FetchError(CurateError):
    """A source could not be downloaded or copied."""
