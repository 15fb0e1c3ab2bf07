"""Property-based fuzzing of the dataset readers and the round trip (issue 25), with Hypothesis.

The property, for every reader: a generated or mutated input either parses (and then a dataset
writes back byte-identical in the shape it was read in, as the formats promise) or is refused
with the project's own error (:class:`curate.errors.CurateError`); never another exception.

The targets here cover the CrowS-Pairs shapes, StereoSet JSON, Label Studio exports, snapshots,
decision and findings files and recipes; tests/test_fuzz_surfaces.py covers the surfaces of
wave 3. The profiles and mutations are in tests/support/fuzzing.py; benchmarks/fuzz.py runs the
targets for a set time and saves failing inputs under tests/fuzz_corpus/, which
tests/test_fuzz_corpus.py replays (through :data:`REPLAYERS`) from then on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curate.datasets import write_pairs
from curate.fileio import forget_inputs
from curate.pairs import BIAS_TYPES, Pair
from tests.support.fuzzing import (
    LAST,
    WORK,
    check,
    json_values,
    mutate_json,
    mutations,
    sentences,
    write_input,
)

__all__ = ["LAST", "REPLAYERS", "SHAPES", "SUFFIX"]

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


# -- datasets: generated round trips and mutated files ----------------------------------------

SHAPES = ("csv", "tsv", "jsonl", "parquet", "hf-jsonl", "hf-parquet", "hf-csv", "upstream")
SUFFIX = {"upstream": "csv", "hf-jsonl": "jsonl", "hf-parquet": "parquet", "hf-csv": "csv"}


@given(pairs=pair_lists(), shape=st.sampled_from(SHAPES))
def test_generated_datasets_round_trip(pairs: list[Pair], shape: str) -> None:
    from curate.datasets import format_dataset, read_dataset, write_dataset

    forget_inputs()
    source = WORK / "gen.csv"
    write_pairs(pairs, source)
    dataset = check("dataset", source.read_bytes(), lambda: read_dataset(source))
    if dataset is None:
        return  # refused with our own sentence (e.g. a sentence the text policy forbids)
    assert list(dataset.pairs) == pairs
    target = WORK / f"gen-{shape}.{SUFFIX.get(shape, shape)}"
    write_dataset(dataset, target, shape)
    again = read_dataset(target)
    assert list(again.pairs) == list(dataset.pairs)
    assert format_dataset(again) == target.read_bytes()  # the same shape, byte-identical
    assert format_dataset(again, "upstream") == source.read_bytes()


def _dataset_bytes(shape: str) -> bytes:
    from curate.datasets import format_dataset, read_dataset
    from tests.support.release_project import PAIRS

    forget_inputs()
    source = WORK / "base.csv"
    write_pairs(PAIRS, source)
    return format_dataset(read_dataset(source), shape)


@pytest.mark.parametrize("shape", SHAPES)
@given(data=st.data())
def test_mutated_dataset_files(shape: str, data: st.DataObject) -> None:
    from curate.datasets import format_dataset, read_dataset

    raw = data.draw(mutations(_dataset_bytes(shape)))
    path = write_input(f"mut.{SUFFIX.get(shape, shape)}", raw)
    dataset = check("dataset", raw, lambda: read_dataset(path))
    if dataset is not None:
        written = write_input(f"again.{SUFFIX.get(shape, shape)}", format_dataset(dataset))
        assert format_dataset(read_dataset(written)) == written.read_bytes()


def _stereoset_text() -> str:
    from tests.support.stereoset_data import write_stereoset

    return write_stereoset(WORK / "ss-base.json").read_text(encoding="utf-8")


@given(data=st.data())
def test_mutated_stereoset_files(data: st.DataObject) -> None:
    from curate.datasets import format_dataset, read_dataset

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
    path = write_input("ss.json", raw)
    dataset = check("stereoset", raw, lambda: read_dataset(path))
    if dataset is not None:
        written = write_input("ss-again.json", format_dataset(dataset))
        assert format_dataset(read_dataset(written)) == written.read_bytes()


def test_an_unchanged_stereoset_file_writes_back_byte_identical() -> None:
    from curate.datasets import format_dataset, read_dataset

    path = write_input("ss-same.json", _stereoset_text())
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
        value: Any = mutate_json(data, export)
    else:
        raw = data.draw(mutations(json.dumps(export).encode("utf-8")))
        try:
            value = loads_document(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return  # the command refuses unparsable JSON before this reader (rounds.read_json)
    snapshot = check("export", value, lambda: parse_export(value, "r1", "export.json", tasks))
    if snapshot is not None:  # what pull stores, tally reads back as it was
        stored = json.loads(json.dumps(snapshot.to_dict()))
        assert json.loads(json.dumps(Snapshot.from_dict(stored).to_dict())) == stored


@given(data=st.data())
def test_mutated_snapshots(data: st.DataObject) -> None:
    from curate.annotate.export import parse_export

    export, tasks = _export()
    stored = parse_export(export, "r1", "export.json", tasks).to_dict()
    value = mutate_json(data, stored)

    check("snapshot", value, lambda: _read_and_tally(value))


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
        lines = [json.dumps(mutate_json(data, record)) for _ in range(data.draw(st.integers(1, 3)))]
        raw = ("\n".join(lines) + "\n").encode("utf-8")
    else:
        raw = data.draw(mutations((json.dumps(record) + "\n").encode("utf-8")))
    path = write_input(f"{kind}.jsonl", raw)
    reader = read_decisions if kind == "decisions" else read_findings
    check(kind, raw, lambda: reader(path))


@given(data=st.data())
def test_mutated_recipes(data: st.DataObject) -> None:
    from curate.config import load_config
    from curate.release.recipe import parse_recipe
    from tests.support.release_project import make_project, recipe_text

    root = WORK / "recipe-project"
    if not root.exists():
        make_project(root)
    cfg = load_config(root)
    base = recipe_text(
        "0" * 64, "1.0.0", decisions=({"round": "r1"}, {"file": "d.jsonl", "override": True})
    )
    raw = data.draw(mutations(base.encode("utf-8")))
    text = raw.decode("utf-8", errors="replace")
    recipe = check("recipe", text, lambda: parse_recipe(text, cfg, "recipe.toml"))
    if recipe is not None:  # a parsed recipe's canonical form parses to the same recipe
        assert replace(recipe) == recipe


# -- replaying the corpus of failing inputs the long run found -----------------------------------


def _replay_dataset(target: str) -> Callable[[Path], None]:
    def replay(path: Path) -> None:
        from curate.datasets import read_dataset

        raw = path.read_bytes()
        name = path.name.split("--", 1)[1] if "--" in path.name else path.name
        check(target, raw, lambda: read_dataset(write_input(name, raw)))

    return replay


def _replay_export(path: Path) -> None:
    from curate.annotate.export import parse_export

    raw = path.read_bytes()
    _, tasks = _export()
    check("export", raw, lambda: parse_export(json.loads(raw), "r1", "export.json", tasks))


def _replay_snapshot(path: Path) -> None:
    raw = path.read_bytes()
    check("snapshot", raw, lambda: _read_and_tally(json.loads(raw)))


def _replay_records(target: str) -> Callable[[Path], None]:
    def replay(path: Path) -> None:
        from curate.decisions import read_decisions
        from curate.findings import read_findings

        raw = path.read_bytes()
        reader = read_decisions if target == "decisions" else read_findings
        check(target, raw, lambda: reader(write_input(f"{target}.jsonl", raw)))

    return replay


def _replay_recipe(path: Path) -> None:
    from curate.config import load_config
    from curate.release.recipe import parse_recipe
    from tests.support.release_project import make_project

    root = WORK / "recipe-project"
    if not root.exists():
        make_project(root)
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    check("recipe", raw, lambda: parse_recipe(text, load_config(root), "recipe.toml"))


#: How a saved case of each target is replayed (tests/test_fuzz_corpus.py), by target name.
REPLAYERS: dict[str, Callable[[Path], None]] = {
    "dataset": _replay_dataset("dataset"),
    "stereoset": _replay_dataset("stereoset"),
    "export": _replay_export,
    "snapshot": _replay_snapshot,
    "decisions": _replay_records("decisions"),
    "findings": _replay_records("findings"),
    "recipe": _replay_recipe,
}
