"""Fuzz targets that run the command line itself (issue 36): what a user sees, classified.

The readers of tests/test_fuzz*.py are called as functions, where a ``CurateError`` is a pass.
The readers of wave 4 (French and Dutch files with ``--encoding``, the ``--links`` file of
``instrument reliability``, the plans and output roots given to ``diff-report --sweep``) are
reached through the CLI, in process (Typer's runner), and each outcome is classified as the
hostile-input corpus (tests/test_bad_input.py) does:

- ok: exit 0 or 1; or exit 2 with exactly one ``error: ...`` line on stderr (``warning:``
  lines may come before it);
- failure: any other exception (a traceback for the user), another exit code, an exit 2 that
  is not one sentence, a run over its time budget (a hang), an input file changed, or an
  output the command says it wrote that does not read back.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from click.testing import Result
from typer.testing import CliRunner

from tests.support.fuzzing import LAST

#: Seconds one command may take on the fuzz inputs (tiny files) before it counts as a hang.
BUDGET = 120

_runner = CliRunner()


class Hang(Exception):
    """The command ran over :data:`BUDGET`."""


@contextlib.contextmanager
def _budget(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"the command ran over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _hashes(root: Path, skip: Sequence[str]) -> dict[str, str]:
    out = {}
    for directory, _dirs, files in os.walk(root):
        for name in files:
            path = Path(directory) / name
            rel = str(path.relative_to(root))
            if any(rel == s or rel.startswith(s.rstrip("/") + "/") for s in skip):
                continue
            if ".curate-cache" in Path(rel).parts:
                continue
            try:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:  # a link to nowhere, a fifo: its state, not its bytes
                out[rel] = f"unreadable: {exc.strerror}"
    return out


def run_cli(
    target: str,
    value: Any,
    args: Sequence[str],
    project: Path,
    *,
    outputs: Sequence[str] = (),
    written: Callable[[], object] | None = None,
) -> Result:
    """Run ``curate ARGS`` in ``project`` and fail (AssertionError) on any outcome a user must
    not see; ``outputs``: paths (relative to ``project``) the command may write, ``written``: a
    check that they read back, run after an exit 0 or 1."""
    from curate.cli import app
    from curate.fileio import forget_inputs

    LAST[target] = value
    forget_inputs()
    before = _hashes(project, outputs)
    try:
        with contextlib.chdir(project), _budget(BUDGET):
            result = _runner.invoke(app, list(args))
    except Hang as exc:  # the timer fired outside the command (in the runner's own code)
        raise AssertionError(f"curate {' '.join(args)}: {exc}") from None
    if isinstance(result.exception, Hang):
        raise AssertionError(f"curate {' '.join(args)}: {result.exception}")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(result.exception))
        raise AssertionError(f"curate {' '.join(args)}: traceback\n{trace}")
    stderr = result.stderr
    assert "Traceback" not in result.output + stderr, stderr
    assert result.exit_code in (0, 1, 2), (result.exit_code, stderr)
    if result.exit_code == 2 and "Usage:" not in stderr:  # Click's own boxed usage errors aside
        lines = [line for line in stderr.splitlines() if line.strip()]
        errors = [line for line in lines if not line.startswith("warning: ")]
        assert len(errors) == 1 and errors[0].startswith("error: "), stderr
    after = _hashes(project, outputs)
    changed = sorted(k for k in set(after) | set(before) if after.get(k) != before.get(k))
    assert not changed, f"curate {' '.join(args)}: input files changed or added: {changed}"
    if result.exit_code in (0, 1) and written is not None:
        with contextlib.chdir(project):
            written()
    return result
