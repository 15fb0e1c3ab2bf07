"""The long fuzz run of issue 25: every reader, for a set time, failing inputs saved as corpus cases.

    python benchmarks/fuzz.py --minutes 30

Runs the Hypothesis targets of tests/test_fuzz.py, tests/test_fuzz_surfaces.py and
tests/test_fuzz_readers.py (those run the command line: a traceback, a hang, an exit 2 that is
not one sentence, a changed input or an unreadable output fail) under the
random ``fuzz`` profile in turns until the time is up (``--only WORDS``: the targets whose name
holds WORDS). When a target fails (an exception other than curate's own usage error,
or a broken round trip), the minimal failing input Hypothesis ended on is written to
tests/fuzz_corpus/<target>--<sha256>.<suffix>, which ``make test`` then replays
(tests/test_fuzz_corpus.py). Prints the rounds, examples and findings per target.
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
# No model hub here: a generated plan naming a model such as "cpu" would otherwise spend 40 s
# per example in the hub client's retries (5 x 8 s) before the same "not found" refusal.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest

from tests import test_fuzz as fuzz
from tests import test_fuzz_readers as readers
from tests import test_fuzz_surfaces as surfaces
from tests.support import fuzzing

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
    ("generated winobias", surfaces.test_generated_winobias_folders_write_back_byte_identical, {}),
    ("mutated winobias", surfaces.test_mutated_winobias_folders, {}),
    ("generated winogender", surfaces.test_generated_winogender_folders_write_back_byte_identical, {}),
    ("mutated winogender", surfaces.test_mutated_winogender_folders, {}),
    ("imported scores", surfaces.test_mutated_imported_scores, {}),
    ("sweep plans", surfaces.test_mutated_sweep_plans, {}),
    ("instrument score folders", surfaces.test_mutated_instrument_score_folders, {}),
    ("published releases", surfaces.test_mutated_releases, {}),
    ("french and dutch files", readers.test_french_and_dutch_files, {}),
    ("links files", readers.test_mutated_links_files, {}),
    ("diff-report sweep inputs", readers.test_diff_report_sweep_inputs, {}),
]
#: The suffix of a saved case of a target that reads no dataset file.
SUFFIXES = {"import": ".csv", "plan": ".toml", "links": ".csv"}


def save(target: str, value: object, suffix: str) -> Path:
    """Write a failing input as a corpus case; its name says which reader replays it."""
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
    elif isinstance(value, bytes):
        data = value
    else:
        data = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    fuzzing.CORPUS.mkdir(exist_ok=True)
    path = fuzzing.CORPUS / f"{target}--{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    path.write_bytes(data)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument(
        "--only", action="append", default=[], metavar="WORDS",
        help="run only the targets whose name contains WORDS (repeatable); default: all",
    )
    args = parser.parse_args()
    targets = [t for t in TARGETS if not args.only or any(w in t[0] for w in args.only)]
    if not targets:
        parser.error(f"no target matches {args.only}; targets: {', '.join(t[0] for t in TARGETS)}")
    deadline = time.monotonic() + args.minutes * 60
    rounds: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    start = time.monotonic()
    while time.monotonic() < deadline:
        for name, test, kwargs in targets:
            if time.monotonic() >= deadline:
                break
            fuzzing.LAST.clear()
            try:
                test(**kwargs)
            except pytest.skip.Exception as exc:  # its data is not here ($CURATE_DATA_MIRROR)
                print(f"{name}: skipped ({exc})")
                targets.remove((name, test, kwargs))
                break
            except Exception as exc:  # a finding: keep the input, report, go on
                findings[name] += 1
                shape = kwargs.get("shape", "")
                for target, value in fuzzing.LAST.items():
                    suffix = (
                        f".{fuzz.SUFFIX.get(shape, shape)}" if shape else SUFFIXES.get(target, ".json")
                    )
                    print(f"{name}: {type(exc).__name__}: saved {save(target, value, suffix)}")
                traceback.print_exception(exc, limit=3)
            rounds[name] += 1
    minutes = (time.monotonic() - start) / 60
    per = fuzzing.settings.get_profile("fuzz").max_examples
    print(f"ran {minutes:.1f} min; up to {per} examples per round")
    for name, _, _ in targets:
        print(f"{name}: {rounds[name]} rounds, {findings[name]} failing")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
