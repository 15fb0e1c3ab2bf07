"""Ctrl-C at any moment of a command, start-up included, is one line and exit code 130.

The interrupt is delivered for real (SIGINT to the process) at chosen points of the start-up:
while a module the CLI needs is being imported, and while the options are parsed. The start-up
is faithful to the console script and to ``python -m curate``: each imports the entry point
the way they do, with a hook that sends SIGINT when a given module starts importing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import repo_env

_HOOK = """
import os, signal, sys
trigger, _, after = sys.argv.pop(1).partition("+")
times = int(os.environ.get("CTRL_C_TIMES", "1"))
class Trigger:
    # a meta-path finder sees every import, importlib.import_module's too (the CLI loads a
    # command's module that way), where a builtins.__import__ hook sees only import statements.
    # "NAME" fires as NAME starts importing, "NAME+K" as the K-th import after NAME starts.
    countdown = None
    def find_spec(self, name, path=None, target=None):
        if name == trigger:
            self.countdown = int(after or 0)
        elif self.countdown is not None:
            self.countdown -= 1
        if self.countdown == 0:
            sys.meta_path.remove(self)
            for _ in range(times):
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, delivered as this import starts
        return None
sys.meta_path.insert(0, Trigger())
"""
#: What the pip-generated console script does (pyproject's [project.scripts] entry point).
CONSOLE_SCRIPT = (
    _HOOK
    + """
import tomllib
entry = tomllib.load(open(sys.argv.pop(1), "rb"))["project"]["scripts"]["curate"]
module, function = entry.split(":")
sys.argv[0] = "curate"
main = getattr(__import__(module, fromlist=[function]), function)
sys.exit(main())
"""
)
PYTHON_M = (
    _HOOK
    + """
import runpy
sys.argv[0] = "curate"
runpy.run_module("curate", run_name="__main__", alter_sys=True)
"""
)


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=repo_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _assert_one_line(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert done.stderr.strip().splitlines() == ["interrupted; no partial output was written"]


#: Moments of the start-up, earliest first: the entry point's first import after its guard
#: (issue 36 item 18: before, an interrupt there was a traceback), the first imports after it,
#: the CLI's framework, the command table, the first library import of a running command
#: (the stages are imported inside the functions that run them, not when the command line is
#: parsed: issue 31), and imports deep inside a stage.
START_UP = [
    "curate.interrupt",
    "curate.interrupt+1",
    "curate.interrupt+3",
    "typer",
    "curate.cli",
    "curate.commands",
    "curate.config",
    "curate.commands+40",
    "curate.commands+80",
]


@pytest.mark.parametrize("trigger", START_UP)
@pytest.mark.parametrize("command", [["lint"], ["publish", "1.0.0"]])
def test_ctrl_c_during_the_console_scripts_start_up(trigger: str, command: list[str]) -> None:
    from tests.conftest import REPO

    _assert_one_line(_run(CONSOLE_SCRIPT, trigger, str(REPO / "pyproject.toml"), *command))


@pytest.mark.parametrize(
    "trigger", ["curate.interrupt", "curate.interrupt+2", "typer", "curate.commands"]
)
def test_ctrl_c_during_python_m_curates_start_up(trigger: str) -> None:
    _assert_one_line(_run(PYTHON_M, trigger, "lint"))


@pytest.mark.parametrize("trigger", ["curate.interrupt", "curate.commands"])
def test_ctrl_c_pressed_twice_at_start_up_prints_the_line_once(trigger: str) -> None:
    """Two SIGINTs back to back (an impatient user): still one line, exit 130."""
    from tests.conftest import REPO

    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_SCRIPT, trigger, str(REPO / "pyproject.toml"), "lint"],
        env=repo_env(CTRL_C_TIMES="2"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    _assert_one_line(done)


def test_the_start_up_guard_prints_the_same_line() -> None:
    """The guard of the entry point cannot import the message; it spells it the same."""
    from curate.interrupt import INTERRUPTED

    source = (Path(__file__).parents[1] / "curate" / "__main__.py").read_text(encoding="utf-8")
    assert f'b"{INTERRUPTED}\\n"' in source


def test_commands_get_pythons_own_handler_back() -> None:
    """Past the start-up the guard is gone: a command sees Python's KeyboardInterrupt (its
    cleanup runs), and the entry point leaves a handler it did not install alone."""
    code = """
import signal, sys
import curate.__main__ as entry
assert signal.getsignal(signal.SIGINT) is entry._interrupted_at_start_up
seen = []
def app():
    seen.append(signal.getsignal(signal.SIGINT))
def load():
    return app
from curate.interrupt import run_guarded
run_guarded(load, start_up_handler=entry._interrupted_at_start_up)
assert seen == [signal.default_int_handler], seen
mine = lambda *a: None
signal.signal(signal.SIGINT, mine)
run_guarded(load, start_up_handler=entry._interrupted_at_start_up)
assert seen[-1] is mine
print("ok")
"""
    done = _run(code)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_ctrl_c_that_a_library_turns_into_its_own_error_while_loading() -> None:
    """pydantic-core wraps a KeyboardInterrupt that lands while it builds a validator into a
    SchemaError ("Error building "literal" validator: KeyboardInterrupt"): Ctrl-C at 0.15 s
    of `curate rules` ended in that traceback on a loaded machine. The guard knows a SIGINT
    came while the CLI loaded, whatever error the library raised instead."""
    code = """
import os, signal, sys, time
import curate.__main__ as entry
def load():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt as error:
        raise RuntimeError(f"Error building validator: {error!r}") from None
    raise AssertionError("no interrupt")
from curate.interrupt import run_guarded
run_guarded(load, start_up_handler=entry._interrupted_at_start_up)
"""
    _assert_one_line(_run(code))
    # the library's error may name the interrupt as its cause: still one line, not two (the
    # guard's SystemExit then has that error as its context, whose cause is the interrupt)
    _assert_one_line(_run(code.replace("from None", "from error")))
    # an error of the load with no Ctrl-C stays the error it is
    plain = code.replace("os.kill(os.getpid(), signal.SIGINT)", "raise ValueError('broken')")
    done = _run(plain)
    assert done.returncode == 1 and "ValueError: broken" in done.stderr, done.stderr


def test_ctrl_c_lost_in_a_callback_while_loading() -> None:
    """An interrupt that lands in a callback the interpreter cannot raise from (importlib's
    module-lock weakref callback, a ``__del__``) was printed as "Exception ignored in ...
    KeyboardInterrupt" with a traceback, and the command then ran on: the guard keeps it quiet
    and acts on it when the load returns."""
    code = """
import gc, os, signal, time
import curate.__main__ as entry
class Callback:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
def load():
    Callback()
    gc.collect()
    return lambda: print("the command ran")
from curate.interrupt import run_guarded
run_guarded(load, start_up_handler=entry._interrupted_at_start_up)
"""
    done = _run(code)
    _assert_one_line(done)
    assert "the command ran" not in done.stdout


def test_ctrl_c_while_the_options_are_parsed() -> None:
    """Typer's own handling would exit 130 without a word."""
    from tests.conftest import REPO

    patch = """
import typer.core
click = typer.core._click  # typer's own copy of click
real_make_context = click.Command.make_context
def make_context(self, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    return real_make_context(self, *args, **kwargs)
click.Command.make_context = make_context
"""
    code = CONSOLE_SCRIPT.replace("\nimport tomllib\n", patch + "\nimport tomllib\n", 1)
    _assert_one_line(_run(code, "nothing-imports-this", str(REPO / "pyproject.toml"), "lint"))


def test_a_normal_exit_code_is_kept() -> None:
    done = _run(PYTHON_M, "nothing-imports-this", "rules", "T001")
    assert done.returncode == 0, done.stderr
    done = _run(PYTHON_M, "nothing-imports-this", "stats", "nope.csv")
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: nope.csv")
