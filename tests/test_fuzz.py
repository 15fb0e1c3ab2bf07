"""Property-based fuzzing of every reader and of the round trip (issue 25), with Hypothesis.

The property, for every reader: a generated or mutated input either parses (and then a dataset
writes back byte-identical in the shape it was read in, as the formats promise) or is refused
with the project's own error (:class:`curate.errors.CurateError`); never another exception.

Profiles: ``ci`` (the default, a few seconds per target, derandomised so ``make test`` is
reproducible) and ``fuzz`` (``CURATE_FUZZ_PROFILE=fuzz``: many examples, random), which
benchmarks/fuzz.py runs for a set time. A failing input found by the script is saved under
tests/fuzz_corpus/ and replayed by :func:`test_corpus_case` from then on.
"""

from __future__ import annotations

import atexit
import copy
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curate.errors import CurateError
from curate.fileio import forget_inputs
from curate.pairs import BIAS_TYPES, Pair, write_pairs

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

CORPUS = Path(__file__).parent / "fuzz_corpus"
#: The last input a target ran on (benchmarks/fuzz.py saves it when the target fails).
LAST: dict[str, Any] = {}
_WORK = Path(tempfile.mkdtemp(prefix="curate-fuzz-"))
atexit.register(shutil.rmtree, _WORK, ignore_errors=True)

# -- inputs -----------------------------------------------------------------------------------

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


@st.composite
def pair_lists(draw: st.DrawFn) -> list[Pair]:
    ids = draw(st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=6, unique=True))
    pairs = []
    for pair_id in ids:
        annotations = draw(
            st.none() | st.just((("gender",),) * 5) | st.just((("race-color", "age"), ("age",)))
        )
        pairs.append(
            Pair(
                pair_id,
                draw(sentences),
                draw(sentences),
                draw(st.sampled_from(["stereo", "antistereo"])),
                draw(st.sampled_from(BIAS_TYPES)),
                annotations,
                draw(st.sampled_from(["", "a0", "w1", "x"])),
                draw(st.none() | st.just(("a1", "a2"))),
            )
        )
    return pairs


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


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from(HOSTILE),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def _check(target: str, value: Any, run: Callable[[], Any]) -> Any:
    """Run one reader; our error is a pass, another exception fails (the input is recorded)."""
    LAST[target] = value
    try:
        return run()
    except CurateError:
        return None


def _file(name: str, data: bytes | str) -> Path:
    forget_inputs()  # every example starts afresh: the inputs of earlier ones may be rewritten
    path = _WORK / name
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    return path


# -- datasets: generated round trips and mutated files ----------------------------------------

SHAPES = ("csv", "tsv", "jsonl", "parquet", "hf-jsonl", "hf-parquet", "hf-csv", "upstream")
SUFFIX = {"upstream": "csv", "hf-jsonl": "jsonl", "hf-parquet": "parquet", "hf-csv": "csv"}


@given(pairs=pair_lists(), shape=st.sampled_from(SHAPES))
def test_generated_datasets_round_trip(pairs: list[Pair], shape: str) -> None:
    from curate.formats import format_dataset, read_dataset, write_dataset

    forget_inputs()
    source = _WORK / "gen.csv"
    write_pairs(pairs, source)
    dataset = _check("dataset", source.read_bytes(), lambda: read_dataset(source))
    if dataset is None:
        return  # refused with our own sentence (e.g. a sentence the text policy forbids)
    assert list(dataset.pairs) == pairs
    target = _WORK / f"gen-{shape}.{SUFFIX.get(shape, shape)}"
    write_dataset(dataset, target, shape)
    again = read_dataset(target)
    assert list(again.pairs) == list(dataset.pairs)
    assert format_dataset(again) == target.read_bytes()  # the same shape, byte-identical
    assert format_dataset(again, "upstream") == source.read_bytes()


def _dataset_bytes(shape: str) -> bytes:
    from curate.formats import format_dataset, read_dataset
    from tests.support.release_project import PAIRS

    forget_inputs()
    source = _WORK / "base.csv"
    write_pairs(PAIRS, source)
    return format_dataset(read_dataset(source), shape)


@pytest.mark.parametrize("shape", SHAPES)
@given(data=st.data())
def test_mutated_dataset_files(shape: str, data: st.DataObject) -> None:
    from curate.formats import format_dataset, read_dataset

    raw = data.draw(mutations(_dataset_bytes(shape)))
    path = _file(f"mut.{SUFFIX.get(shape, shape)}", raw)
    dataset = _check("dataset", raw, lambda: read_dataset(path))
    if dataset is not None:
        written = _file(f"again.{SUFFIX.get(shape, shape)}", format_dataset(dataset))
        assert format_dataset(read_dataset(written)) == written.read_bytes()


def _stereoset_text() -> str:
    from tests.support.stereoset_data import write_stereoset

    return write_stereoset(_WORK / "ss-base.json").read_text(encoding="utf-8")


@given(data=st.data())
def test_mutated_stereoset_files(data: st.DataObject) -> None:
    from curate.formats import format_dataset, read_dataset

    if data.draw(st.booleans()):
        raw = data.draw(mutations(_stereoset_text().encode("utf-8")))
    else:  # a structural edit: one value somewhere replaced by any JSON value
        document = json.loads(_stereoset_text())
        kind = data.draw(st.sampled_from(["intrasentence", "intersentence"]))
        items = document["data"][kind]
        item = items[data.draw(st.integers(0, len(items) - 1))]
        key = data.draw(st.sampled_from([*item.keys(), "sentences.0", "sentences.0.labels"]))
        holder, name = item, key
        if "." in key:
            parts = key.split(".")
            holder = item["sentences"][0]
            name = parts[-1] if len(parts) == 3 else "sentence"
        holder[name] = data.draw(json_values)
        raw = json.dumps(document).encode("utf-8")
    path = _file("ss.json", raw)
    dataset = _check("stereoset", raw, lambda: read_dataset(path))
    if dataset is not None:
        written = _file("ss-again.json", format_dataset(dataset))
        assert format_dataset(read_dataset(written)) == written.read_bytes()


def test_an_unchanged_stereoset_file_writes_back_byte_identical() -> None:
    from curate.formats import format_dataset, read_dataset

    path = _file("ss-same.json", _stereoset_text())
    assert format_dataset(read_dataset(path)) == path.read_bytes()


# -- annotation rounds: Label Studio exports and snapshots ------------------------------------


def _export() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A valid export of three tasks (one annotation each) and the pushed tasks."""
    from curate.annotate.tasks import build_tasks
    from curate.findings import Finding
    from tests.support.annotate_scenario import Ann, result_for
    from tests.support.release_project import PAIRS

    findings = [Finding(p.pair_id, "T001", "r", "m") for p in PAIRS[:3]]
    tasks = build_tasks(list(PAIRS), findings, "r1")
    export = [
        {
            "id": n + 1,
            "data": task["data"],
            "annotations": [
                {
                    "id": 100 + n,
                    "completed_by": 7,
                    "was_cancelled": False,
                    "result": result_for(Ann("A", "D", "N", "y", "gender", "=cmd|x"), task["data"]),
                }
            ],
        }
        for n, task in enumerate(tasks)
    ]
    return export, tasks


def _mutate_json(data: st.DataObject, value: Any) -> Any:
    """``value`` with one node (at a random path) replaced by any JSON value."""
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
            node[child_key] = data.draw(json_values)
            return value
        node = node[child_key]
    if isinstance(node, dict):
        node[data.draw(st.text(max_size=6))] = data.draw(json_values)
    elif isinstance(node, list):
        node.append(data.draw(json_values))
    return value


def test_the_base_export_is_usable() -> None:
    from curate.annotate.export import parse_export

    export, tasks = _export()
    snapshot = parse_export(export, "r1", "export.json", tasks)
    assert len(snapshot.answers) == 3 and not snapshot.problems


@given(data=st.data())
def test_mutated_label_studio_exports(data: st.DataObject) -> None:
    from curate.annotate.export import Snapshot, parse_export
    from curate.jsonl import loads_document

    export, tasks = _export()
    if data.draw(st.booleans()):
        value: Any = _mutate_json(data, export)
    else:
        raw = data.draw(mutations(json.dumps(export).encode("utf-8")))
        try:
            value = loads_document(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return  # the command refuses unparsable JSON before this reader (rounds.read_json)
    snapshot = _check("export", value, lambda: parse_export(value, "r1", "export.json", tasks))
    if snapshot is not None:  # what pull stores, tally reads back as it was
        stored = json.loads(json.dumps(snapshot.to_dict()))
        assert json.loads(json.dumps(Snapshot.from_dict(stored).to_dict())) == stored


@given(data=st.data())
def test_mutated_snapshots(data: st.DataObject) -> None:
    from curate.annotate.export import parse_export

    export, tasks = _export()
    stored = parse_export(export, "r1", "export.json", tasks).to_dict()
    value = _mutate_json(data, stored)

    _check("snapshot", value, lambda: _read_and_tally(value))


def _read_and_tally(value: Any) -> Any:
    """What ``annotations tally`` does with a stored snapshot."""
    from curate.annotate.agreement import agreement
    from curate.annotate.export import Snapshot
    from curate.annotate.vote import VoteRule, tally

    snapshot = Snapshot.from_dict(value, "annotations.json")
    tally(snapshot, VoteRule())
    agreement(snapshot.answers)
    return snapshot


# -- records and recipes ----------------------------------------------------------------------

DECISION = {"pair_id": 3, "action": "drop", "reason": "test"}
FINDING = {"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "fix": {"sent_more": "x."}}


@pytest.mark.parametrize("kind", ["decisions", "findings"])
@given(data=st.data())
def test_mutated_record_files(kind: str, data: st.DataObject) -> None:
    from curate.decisions import read_decisions
    from curate.findings import read_findings

    record = DECISION if kind == "decisions" else FINDING
    if data.draw(st.booleans()):
        lines = [json.dumps(_mutate_json(data, record)) for _ in range(data.draw(st.integers(1, 3)))]
        raw = ("\n".join(lines) + "\n").encode("utf-8")
    else:
        raw = data.draw(mutations((json.dumps(record) + "\n").encode("utf-8")))
    path = _file(f"{kind}.jsonl", raw)
    reader = read_decisions if kind == "decisions" else read_findings
    _check(kind, raw, lambda: reader(path))


@given(data=st.data())
def test_mutated_recipes(data: st.DataObject) -> None:
    from curate.config import load_config
    from curate.release.recipe import parse_recipe
    from tests.support.release_project import make_project, recipe_text

    root = _WORK / "recipe-project"
    if not root.exists():
        make_project(root)
    cfg = load_config(root)
    base = recipe_text(
        "0" * 64, "1.0.0", decisions=({"round": "r1"}, {"file": "d.jsonl", "override": True})
    )
    raw = data.draw(mutations(base.encode("utf-8")))
    text = raw.decode("utf-8", errors="replace")
    recipe = _check("recipe", text, lambda: parse_recipe(text, cfg, "recipe.toml"))
    if recipe is not None:  # a parsed recipe's canonical form parses to the same recipe
        assert replace(recipe) == recipe


# -- the corpus of failing inputs the long run found ------------------------------------------

def _replay(target: str, path: Path) -> None:
    from curate.annotate.export import parse_export
    from curate.decisions import read_decisions
    from curate.findings import read_findings
    from curate.formats import read_dataset

    raw = path.read_bytes()
    if target in ("dataset", "stereoset"):
        name = path.name.split("--", 1)[1] if "--" in path.name else path.name
        _check(target, raw, lambda: read_dataset(_file(name, raw)))
    elif target == "export":
        _, tasks = _export()
        _check(target, raw, lambda: parse_export(json.loads(raw), "r1", "export.json", tasks))
    elif target == "snapshot":
        _check(target, raw, lambda: _read_and_tally(json.loads(raw)))
    elif target in ("decisions", "findings"):
        reader = read_decisions if target == "decisions" else read_findings
        _check(target, raw, lambda: reader(_file(f"{target}.jsonl", raw)))
    elif target == "recipe":
        from curate.config import load_config
        from curate.release.recipe import parse_recipe
        from tests.support.release_project import make_project

        root = _WORK / "recipe-project"
        if not root.exists():
            make_project(root)
        text = raw.decode("utf-8")
        _check(target, raw, lambda: parse_recipe(text, load_config(root), "recipe.toml"))


@pytest.mark.parametrize(
    "path", sorted(CORPUS.glob("*")) if CORPUS.is_dir() else [], ids=lambda p: p.name
)
def test_corpus_case(path: Path) -> None:
    """Every failing input benchmarks/fuzz.py found, replayed: our error or a parse."""
    _replay(path.name.split("--", 1)[0], path)
