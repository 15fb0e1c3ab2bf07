"""What a command line of curate imports: the CLI run in a fresh interpreter (the test process's
own imports would hide it), for the start-up tests of issue 31."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules_after(*args: str) -> tuple[int | str | None, list[str]]:
    """The exit code of ``curate ARGS`` and the modules loaded when it ended, sorted."""
    code = (
        "import sys, json\n"
        "from curate.cli import app\n"
        f"try:\n    app({list(args)!r})\nexcept SystemExit as exc:\n    code = exc.code\n"
        "print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    exit_code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    return exit_code, modules


#: The end of a driver script run with ``python -c``: curate's ``main()`` (its ``sys.argv`` set
#: by the script), then the heavy modules it imported, as JSON on stderr's last line.
RUN_MAIN_AND_REPORT_HEAVY = """
from curate.cli import main
try:
    main()
finally:
    heavy = sorted(m for m in ("torch", "transformers") if m in sys.modules)
    print(json.dumps(heavy), file=sys.stderr)
"""
