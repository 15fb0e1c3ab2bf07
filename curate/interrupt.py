"""Ctrl-C at any moment of a command turned into one line and exit code 130.

The command modules take a second or more to import (typer, rich, pandas, the benchmark
plugins); an interrupt then, before any command's own handler runs, used to end in a
``KeyboardInterrupt`` traceback from the start-up imports. :func:`run_guarded` loads the app
inside the handler, so the entry point (:mod:`curate.__main__`) imports nothing of the CLI
before it is guarded; the entry point's own first statement installs a SIGINT handler that
covers the imports before this guard (this module's among them). An interrupt while Typer
parses the options ends its own way (a silent exit 130); it gets the same line. Ground floor:
it imports nothing of curate, and nothing the interpreter has not loaded at start.
"""

from __future__ import annotations

import _signal
import sys
from collections.abc import Callable

#: What an interrupt prints (the commands' own handler prints the same, or says more).
INTERRUPTED = "interrupted; no partial output was written"


#: Whether the line was printed: one interrupt can reach two handlers of :func:`run_guarded`
#: (a library's error raised from the interrupt, then the exit raised while handling it).
_said: list[bool] = []


def _interrupted() -> None:
    if not _said:
        _said.append(True)
        try:
            sys.stderr.write(INTERRUPTED + "\n")
            sys.stderr.flush()
        except (OSError, ValueError, KeyboardInterrupt):  # a closed stderr, a second Ctrl-C
            pass
    raise SystemExit(130)


def run_guarded(
    load_app: Callable[[], Callable[[], object]],
    start_up_handler: Callable[[int, object], object] | None = None,
) -> None:
    """Load the app (``load_app()``) and run it; never a traceback for Ctrl-C.

    ``start_up_handler``: the SIGINT handler the entry point installed before its imports
    (:mod:`curate.__main__`); from inside the ``try`` on, Python's own handler (a
    ``KeyboardInterrupt``, caught here) takes over again, so that the commands clean up."""
    signalled: list[int] = []

    def loading(signum: int, frame: object) -> None:
        signalled.append(signum)
        raise KeyboardInterrupt

    def lost_in_a_callback(unraisable: object) -> None:
        # an interrupt raised in a callback the interpreter cannot raise from (importlib's
        # module-lock weakref callback: "Exception ignored in ... KeyboardInterrupt") is not
        # printed: the load goes on and the interrupt is acted on when it returns
        if not (signalled and isinstance(getattr(unraisable, "exc_value", None), KeyboardInterrupt)):
            interpreters_hook(unraisable)

    interpreters_hook = sys.unraisablehook
    try:
        guarded = (
            start_up_handler is not None and _signal.getsignal(_signal.SIGINT) is start_up_handler
        )
        if guarded:
            _signal.signal(_signal.SIGINT, loading)
            sys.unraisablehook = lost_in_a_callback
        try:
            app = load_app()
            if signalled:
                _interrupted()
        except Exception:
            # a library may turn the KeyboardInterrupt raised in its code into its own error:
            # pydantic-core reports one that lands while it builds a validator as "SchemaError:
            # Error building "literal" validator: KeyboardInterrupt" (seen under load at 0.15 s)
            if signalled:
                _interrupted()
            raise
        finally:
            sys.unraisablehook = interpreters_hook
        if guarded:
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        app()
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:
        # Typer turns an interrupt outside a command into Exit(130) raised from it, silently
        context = exc.__context__
        if exc.code == 130 and isinstance(getattr(context, "__cause__", None), KeyboardInterrupt):
            _interrupted()
        raise
