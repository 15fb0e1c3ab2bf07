"""How fast the command line answers ``curate --help``, ``-h`` and a usage error.

Target (issue 31): well under half a second on a quiet machine. ``curate --help`` lists the
commands without importing any stage (:class:`curate.cli.LazyGroup`); a usage error of a
command imports that command's stage only. Each figure is the median wall time of ``--runs``
fresh processes, beside ``python -c pass`` (the floor: the interpreter starting) and ``python -c
"import typer"`` (the CLI framework alone). A figure, not a timed test: on a loaded machine
every number grows.

Run: .venv/bin/python benchmarks/bench_cli.py [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CASES: list[tuple[str, list[str]]] = [
    ("python -c pass", ["-c", "pass"]),
    ("python -c 'import typer'", ["-c", "import typer"]),
    ("curate --help", ["-m", "curate", "--help"]),
    ("curate -h", ["-m", "curate", "-h"]),
    ("curate no-such-command (usage error)", ["-m", "curate", "no-such-command"]),
    ("curate lint --no-such-option (usage error)", ["-m", "curate", "lint", "--no-such-option"]),
    ("curate score --no-such-option (usage error)", ["-m", "curate", "score", "--no-such-option"]),
    ("curate score --help", ["-m", "curate", "score", "--help"]),
]


def wall_ms(args: list[str], runs: int) -> list[float]:
    """Wall times in ms of ``runs`` fresh ``python ARGS`` processes (output discarded)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, *args],
            env=env,
            cwd=REPO,  # python -m puts the working directory first on the path
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.runs} runs each")
    floor = None
    for name, case in CASES:
        times = wall_ms(case, args.runs)
        median = statistics.median(times)
        floor = floor or median
        print(
            f"{name:<46} median {median:7.0f} ms  min {min(times):7.0f} ms  "
            f"({median / floor:4.1f}x python -c pass)"
        )


if __name__ == "__main__":
    main()
