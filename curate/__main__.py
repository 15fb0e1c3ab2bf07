"""The entry point of ``curate`` and ``python -m curate``: the CLI, with Ctrl-C at any moment
turned into one line and exit code 130.

The command modules take a second or more to import (typer, rich, pandas, the benchmark
plugins); an interrupt then, before any command's own handler runs, used to end in a
``KeyboardInterrupt`` traceback from the start-up imports. So this module imports nothing of
curate's at the top: :func:`main` imports the app inside the handler. An interrupt while Typer
parses the options ends its own way (a silent exit 130); it gets the same line.
"""

from __future__ import annotations

import sys

#: What an interrupt prints (the commands' own handler prints the same, or says more).
INTERRUPTED = "interrupted; no partial output was written"


def _interrupted() -> None:
    try:
        sys.stderr.write(INTERRUPTED + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, KeyboardInterrupt):  # a closed stderr, a second Ctrl-C
        pass
    raise SystemExit(130)


def main() -> None:
    """Run the CLI (console script ``curate``); never a traceback for Ctrl-C."""
    try:
        from curate.cli import app

        app()
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:
        # Typer turns an interrupt outside a command into Exit(130) raised from it, silently
        context = exc.__context__
        if exc.code == 130 and isinstance(getattr(context, "__cause__", None), KeyboardInterrupt):
            _interrupted()
        raise


if __name__ == "__main__":
    main()
