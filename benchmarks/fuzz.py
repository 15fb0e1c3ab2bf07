"""The long fuzz run of issue 25: every reader, for a set time, failing inputs saved as corpus cases.

    python benchmarks/fuzz.py --minutes 30

Runs the Hypothesis targets of tests/test_fuzz.py under the random ``fuzz`` profile in turns
until the time is up. When a target fails (an exception other than curate's own usage error,
or a broken round trip), the minimal failing input Hypothesis ended on is written to
tests/fuzz_corpus/<target>--<sha256>.<suffix>, which ``make test`` then replays
(tests/test_fuzz.py::test_corpus_case). Prints the rounds, examples and findings per target.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

os.environ["CURATE_FUZZ_PROFILE"] = "fuzz"
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import test_fuzz as fuzz

TARGETS = [
    ("generated datasets", fuzz.test_generated_datasets_round_trip, {}),
    *(
        (f"mutated {shape}", fuzz.test_mutated_dataset_files, {"shape": shape})
        for shape in fuzz.SHAPES
    ),
    ("stereoset", fuzz.test_mutated_stereoset_files, {}),
    ("label studio exports", fuzz.test_mutated_label_studio_exports, {}),
    ("snapshots", fuzz.test_mutated_snapshots, {}),
    ("decisions", fuzz.test_mutated_record_files, {"kind": "decisions"}),
    ("findings", fuzz.test_mutated_record_files, {"kind": "findings"}),
    ("recipes", fuzz.test_mutated_recipes, {}),
]


def save(target: str, value: object, suffix: str) -> Path:
    """Write a failing input as a corpus case; its name says which reader replays it."""
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
    elif isinstance(value, bytes):
        data = value
    else:
        data = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    fuzz.CORPUS.mkdir(exist_ok=True)
    path = fuzz.CORPUS / f"{target}--{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    path.write_bytes(data)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    rounds: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    start = time.monotonic()
    while time.monotonic() < deadline:
        for name, test, kwargs in TARGETS:
            if time.monotonic() >= deadline:
                break
            fuzz.LAST.clear()
            try:
                test(**kwargs)
            except Exception as exc:  # a finding: keep the input, report, go on
                findings[name] += 1
                shape = kwargs.get("shape", "")
                suffix = f".{fuzz.SUFFIX.get(shape, shape)}" if shape else ".json"
                for target, value in fuzz.LAST.items():
                    print(f"{name}: {type(exc).__name__}: saved {save(target, value, suffix)}")
                traceback.print_exception(exc, limit=3)
            rounds[name] += 1
    minutes = (time.monotonic() - start) / 60
    per = fuzz.settings.get_profile("fuzz").max_examples
    print(f"ran {minutes:.1f} min; up to {per} examples per round")
    for name, _, _ in TARGETS:
        print(f"{name}: {rounds[name]} rounds, {findings[name]} failing")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
