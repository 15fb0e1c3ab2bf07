"""Kill -9 and SIGINT trials in the write window of every output-writing command (issue 25).

    python benchmarks/fault_trials.py [--trials 20] [--commands lint,explore,...]

For each command: an uninterrupted old run and new run give the reference outputs; then each
trial starts from the old output, kills the new command at a random moment of its output phase
(``--trials`` with SIGKILL and as many with SIGINT, alternating), checks the output is all old
or all new, reruns the command and checks the new output with nothing left beside it. Prints
one line per command with the figures; exits 1 if any trial failed. See tests/support/faults.py.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.faults import reference_states, trial
from tests.test_faults import fault_commands, fault_project


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--trials", type=int, default=20, help="trials per signal and command (default 20)"
    )
    parser.add_argument("--commands", default="lint,explore,score,diff-report,publish,revise")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from tests.support.tiny_models import tiny_model_dir

    model = str(tiny_model_dir("bert"))
    wanted = args.commands.split(",")
    failures = 0
    for command in (c for c in fault_commands(model) if c.name in wanted):
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp) / "project"
            fault_project(project)
            old, new = reference_states(project, command)
            rng = random.Random(f"{args.seed}:{command.name}")
            outcomes: Counter[str] = Counter()
            for number in range(2 * args.trials):
                sig = signal.SIGKILL if number % 2 == 0 else signal.SIGINT
                result = trial(project, command, old, new, rng, sig)
                outcomes[f"{sig.name} {result.outcome if result.ok else 'FAILED'}"] += 1
                failures += not result.ok
                print(f"  {command.name} trial {number} {sig.name}: {result.outcome}", flush=True)
            figures = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
            print(f"{command.name}: {2 * args.trials} trials: {figures}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
