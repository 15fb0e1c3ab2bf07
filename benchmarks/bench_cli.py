"""How fast the command line answers ``curate --help``, ``-h`` and a usage error of each command.

Target (issue 31): well under half a second on a quiet machine. ``curate --help`` lists the
commands without importing any stage (:class:`curate.cli.LazyGroup`); a usage error of a
command imports that command's module, whose heavy stacks (torch, transformers, pandas, plotly,
the benchmark registry, the config) are imported inside the functions that run the stage, so
parsing costs the interpreter and the CLI framework only (tests/test_cli_startup.py checks the
imports; this file measures the time).

All cases run side by side in one run, interleaved round by round (so that a load change on a
shared machine touches every case alike), and each is reported as its median wall time and as
a ratio to the floor, bare ``python -c pass``. ``python -c "import typer"`` is the CLI
framework alone (typer imports rich and its own copy of click; typer 0.29 imports pydantic
when it converts an option's value, which is why pyproject.toml keeps typer below 0.29; help
is drawn by curate's own renderer, :mod:`curate.commands.help_render`, which imports rich's
tables and panels but not typer's renderer, Markdown or pygments). A figure, not a timed test: on a loaded
machine every number grows, the ratios less so.

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
sys.path.insert(0, str(REPO))

#: A usage error of each command: an option no command has.
BAD_OPTION = "--no-such-option"


def cases() -> list[tuple[str, list[str]]]:
    """The measured command lines: the floor, the framework, the root's help, then a usage
    error of every command and subcommand, from :data:`curate.cli.COMMANDS`."""
    from curate.cli import COMMANDS, load_stage

    lines = [
        ("python -c pass", ["-c", "pass"]),
        ("python -c 'import typer'", ["-c", "import typer"]),
        ("curate -h", ["-m", "curate", "-h"]),
        ("curate --help", ["-m", "curate", "--help"]),
        ("curate no-such-command", ["-m", "curate", "no-such-command"]),
    ]
    for name, (module, _) in COMMANDS.items():
        command = load_stage(module)[name]
        subcommands = list(getattr(command, "commands", {})) or [None]
        for sub in subcommands:
            words = [name] if sub is None else [name, sub]
            lines.append((f"curate {' '.join(words)} {BAD_OPTION}", ["-m", "curate", *words, BAD_OPTION]))
    lines.append(("curate score --batch-size x data.csv", ["-m", "curate", "score", "--batch-size", "x", "data.csv"]))
    lines.append(("curate score -h", ["-m", "curate", "score", "-h"]))
    return lines


def wall_ms(args: list[str]) -> float:
    """Wall time in ms of one fresh ``python ARGS`` process (output discarded)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *args],
        env=env,
        cwd=REPO,  # python -m puts the working directory first on the path
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    lines = cases()
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.runs} runs each")
    times: dict[str, list[float]] = {name: [] for name, _ in lines}
    for _ in range(args.runs):
        for name, case in lines:
            times[name].append(wall_ms(case))
    floor = statistics.median(times[lines[0][0]])
    width = max(len(name) for name, _ in lines)
    for name, _ in lines:
        median = statistics.median(times[name])
        print(
            f"{name:<{width}}  median {median:6.0f} ms  min {min(times[name]):6.0f} ms  "
            f"{median / floor:5.1f}x python -c pass"
        )
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
