"""Ctrl-C at any moment of a command turned into one line and exit code 130.

The command modules take a second or more to import (typer, rich, pandas, the benchmark
plugins); an interrupt then, before any command's own handler runs, used to end in a
``KeyboardInterrupt`` traceback from the start-up imports. :func:`run_guarded` loads the app
inside the handler, so the entry point (:mod:`curate.__main__`) imports nothing of the CLI
before it is guarded. An interrupt while Typer parses the options ends its own way (a silent
exit 130); it gets the same line. Ground floor: it imports nothing of curate.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

#: What an interrupt prints (the commands' own handler prints the same, or says more).
INTERRUPTED = "interrupted; no partial output was written"


def _interrupted() -> None:
    try:
        sys.stderr.write(INTERRUPTED + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, KeyboardInterrupt):  # a closed stderr, a second Ctrl-C
        pass
    raise SystemExit(130)


def run_guarded(load_app: Callable[[], Callable[[], object]]) -> None:
    """Load the app (``load_app()``) and run it; never a traceback for Ctrl-C."""
    try:
        app = load_app()
        app()
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:
        # Typer turns an interrupt outside a command into Exit(130) raised from it, silently
        context = exc.__context__
        if exc.code == 130 and isinstance(getattr(context, "__cause__", None), KeyboardInterrupt):
            _interrupted()
        raise
