"""The mechanics the Hypothesis fuzz targets share (issue 25): profiles, hostile inputs,
mutations, the check that tells our usage error from a crash, and the corpus of saved cases.

The targets live in tests/test_fuzz.py (datasets, StereoSet, annotation rounds, records,
recipes) and tests/test_fuzz_surfaces.py (WinoBias folders, imported scores, sweep plans,
instrument score folders, published releases), tests/test_fuzz_readers.py (through the command
line, tests/support/fuzz_cli.py: French and Dutch files, --links files, diff-report --sweep
inputs); tests/test_fuzz_corpus.py replays every saved
case, and benchmarks/fuzz.py runs all targets for a set time.

Profiles: ``ci`` (the default, a few seconds per target, derandomised so ``make test`` is
reproducible) and ``fuzz`` (``CURATE_FUZZ_PROFILE=fuzz``: many examples, random).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from curate.errors import CurateError
from curate.fileio import forget_inputs

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("CURATE_FUZZ_PROFILE", "ci"))

#: Failing inputs the long run found: ``<target>--<sha256 prefix>.<suffix>``.
CORPUS = Path(__file__).resolve().parents[1] / "fuzz_corpus"
#: The last input each target ran on (benchmarks/fuzz.py saves it when the target fails).
LAST: dict[str, Any] = {}
#: A scratch folder for the files the targets write (removed at exit).
WORK = Path(tempfile.mkdtemp(prefix="curate-fuzz-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)

#: Characters that break naive CSV, JSON, TOML and markup handling.
HOSTILE = [
    '"', ",", "\n", "\r", "\r\n", "\t", "\x00", "\x1b[31m", "\ufeff", "\u2028", "[", "]", "{", "}",
    "[/x]", "\\", "'", "=", "+cmd|", "@SUM(", "NaN", "1e999", "-1", "9" * 40, "[" * 40,
    "\xe9", "\ud7ff", "𝔘", "\x85", "null", "true", ":", "#", "=\"", "<script>", "..",
]
words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
)
sentences = st.lists(words, min_size=1, max_size=6).map(" ".join).map(str.strip).filter(bool)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from(HOSTILE),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def mutations(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few edits: hostile tokens or bytes inserted, spans cut or duplicated."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["token", "bytes", "cut", "dup", "truncate"]))
        if kind == "token":
            data = data[:at] + draw(st.sampled_from(HOSTILE)).encode("utf-8") + data[at:]
        elif kind == "bytes":
            data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
        elif kind == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 20)) :]
        elif kind == "dup":
            data = data[:at] + data[at : at + draw(st.integers(1, 40))] * 2 + data[at + 40 :]
        else:
            data = data[:at]
    return data


@st.composite
def deep_nesting(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a value replaced by arrays or inline tables nested 50-5,000 deep (parsers
    that recurse per level die with RecursionError far below that)."""
    depth = draw(st.sampled_from([50, 101, 400, 1000, 5000]))
    opener, closer = draw(st.sampled_from([("[", "]"), ("{a = ", "}"), ("[{a = ", "}]")]))
    value = (opener * depth + "1" + closer * depth).encode()
    lines = data.split(b"\n")
    at = draw(st.sampled_from([i for i, line in enumerate(lines) if b" = " in line] or [0]))
    key = lines[at].split(b" = ", 1)[0] if b" = " in lines[at] else b"x"
    lines[at] = key + b" = " + value
    return b"\n".join(lines)


def mutate_json(data: st.DataObject, value: Any, leaves: st.SearchStrategy[Any] = json_values) -> Any:
    """``value`` with one node (at a random path) replaced by a drawn ``leaves`` value."""
    import copy

    value = copy.deepcopy(value)
    node = value
    for _ in range(data.draw(st.integers(0, 6))):
        if isinstance(node, list) and node:
            child_key: Any = data.draw(st.integers(0, len(node) - 1))
        elif isinstance(node, dict) and node:
            child_key = data.draw(st.sampled_from(sorted(node)))
        else:
            break
        if not isinstance(node[child_key], list | dict) or data.draw(st.booleans()):
            node[child_key] = data.draw(leaves)
            return value
        node = node[child_key]
    if isinstance(node, dict):
        node[data.draw(st.text(max_size=6))] = data.draw(leaves)
    elif isinstance(node, list):
        node.append(data.draw(leaves))
    return value


def check(target: str, value: Any, run: Callable[[], Any]) -> Any:
    """Run one reader; our error is a pass, another exception fails (the input is recorded)."""
    LAST[target] = value
    try:
        return run()
    except CurateError:
        return None


def write_input(name: str, data: bytes | str) -> Path:
    """Write one input file under :data:`WORK` (every example starts afresh: the inputs of
    earlier examples may have been rewritten, so curate's input cache is forgotten)."""
    forget_inputs()
    path = WORK / name
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    return path


# -- folders as one corpus case -----------------------------------------------------------------


def mutate_one_file(
    data: st.DataObject,
    files: dict[str, bytes],
    edits: dict[str, Callable[[bytes], st.SearchStrategy[bytes]]] | None = None,
) -> str:
    """Damage one file of a folder in place and return its name: a JSON file gets a JSON node
    replaced, a file with a suffix in ``edits`` that edit (each half the time); otherwise one
    time in ten the file is deleted, else its bytes are mutated."""
    name = data.draw(st.sampled_from(sorted(files)))
    suffix = Path(name).suffix
    if suffix == ".json" and data.draw(st.booleans()):
        files[name] = json.dumps(mutate_json(data, json.loads(files[name]))).encode()
    elif edits and suffix in edits and data.draw(st.booleans()):
        files[name] = data.draw(edits[suffix](files[name]))
    elif data.draw(st.integers(0, 9)) == 0:
        del files[name]
    else:
        files[name] = data.draw(mutations(files[name]))
    return name


def folder_value(files: dict[str, bytes]) -> dict[str, str]:
    """A folder's files as one JSON-able value (bytes that are not UTF-8 kept losslessly)."""
    return {name: data.decode("utf-8", "surrogateescape") for name, data in sorted(files.items())}


#: A folder value's key for a symbolic link: ``{"link:" + name: target}``; ``"dir:" + name``
#: is an empty folder.
LINK, DIR = "link:", "dir:"


def write_folder(folder: Path, value: dict[str, str]) -> Path:
    """The folder a :func:`folder_value` describes, written afresh under ``folder`` (keys
    starting with :data:`LINK` are symbolic links to their value, :data:`DIR` empty folders)."""
    forget_inputs()
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, text in value.items():
        path = folder / name.removeprefix(LINK).removeprefix(DIR)
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.startswith(LINK):
            path.symlink_to(text)
        elif name.startswith(DIR):
            path.mkdir(exist_ok=True)
        else:
            path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return folder


def load_folder_case(raw: bytes) -> dict[str, str]:
    """A saved folder case (as benchmarks/fuzz.py writes JSON: surrogates passed through)."""
    return json.loads(raw.decode("utf-8", "surrogatepass"))
