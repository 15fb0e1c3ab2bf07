"""The entry point of ``curate`` and ``python -m curate``: the CLI, with Ctrl-C at any moment
turned into one line and exit code 130 (:mod:`curate.interrupt`).

Its first statement installs a SIGINT handler, before any other import of curate's: an
interrupt from then on, while the rest of the start-up imports run, prints the one line and
exits 130 instead of a ``KeyboardInterrupt`` traceback. It uses only ``_signal`` and ``os``,
which the interpreter has loaded before any user code, so installing it costs no import.
:func:`curate.interrupt.run_guarded` puts Python's own handler back as its first step inside
its ``try``, so that the commands' cleanup (``finally``, staging folders) works as before.

What remains unguarded is what runs before this module's first line: the interpreter's own
start (``site``, the ``.pth`` files of the environment), the console script's first line, and
finding and executing ``curate/__init__.py`` (one ``__getattr__`` definition, kept that small
for this reason) and this file up to here.
"""

import _signal
import os


def _interrupted_at_start_up(signum: int, frame: object) -> None:
    """Ctrl-C before the guard of :func:`curate.interrupt.run_guarded` is in place."""
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # a second Ctrl-C: the line once
    try:  # noqa: SIM105 (contextlib is an import this handler must not need)
        os.write(2, b"interrupted; no partial output was written\n")
    except OSError:  # a closed stderr
        pass
    raise SystemExit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_at_start_up)

from curate.interrupt import INTERRUPTED, run_guarded  # noqa: E402 (after the guard)

__all__ = ["INTERRUPTED", "main"]


def _app() -> object:
    from curate.cli import app

    return app


def main() -> None:
    """Run the CLI (console script ``curate``); never a traceback for Ctrl-C."""
    run_guarded(_app, start_up_handler=_interrupted_at_start_up)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
