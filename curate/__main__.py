"""The entry point of ``curate`` and ``python -m curate``: the CLI, with Ctrl-C at any moment
turned into one line and exit code 130 (:mod:`curate.interrupt`).

It imports nothing of the CLI at the top: the app is loaded inside the interrupt handler, so an
interrupt during the start-up imports is caught too.
"""

from __future__ import annotations

from curate.interrupt import INTERRUPTED, run_guarded

__all__ = ["INTERRUPTED", "main"]


def _app() -> object:
    from curate.cli import app

    return app


def main() -> None:
    """Run the CLI (console script ``curate``); never a traceback for Ctrl-C."""
    run_guarded(_app)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
