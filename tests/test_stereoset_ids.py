"""Every StereoSet item keeps its own id across versions (issue 35).

A revision of StereoSet dev drops 3 items and edits 2 later ones; the release, read back,
differs from the raw file in exactly those 5 items, under the items' own ids, in ``curate
diff``, ``diff-report``'s flips and the explorer's change history. Before, an item's pair id
was its position, so every item after the first dropped one was matched with its neighbour.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from curate import sources
from curate.cli import app
from curate.datasets import read_dataset
from curate.fileio import sha256_file
from curate.formats.dataset import Dataset
from curate.release.publish import publish
from tests.conftest import REGISTRY

runner = CliRunner()

#: Positions in dev's intrasentence list: three items dropped, two later ones edited.
DROPPED_AT = (40, 700, 1300)
EDITED_AT = (1500, 2050)


@dataclass(frozen=True)
class Revised:
    root: Path
    raw: Dataset
    dropped: dict[int, str]  # pair id -> item id
    edited: dict[int, str]


def _dev(tmp: Path) -> Path:
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    return sources.fetch(sources.load_sources(REGISTRY)["stereoset-dev"], tmp).path


@pytest.fixture(scope="module")
def revised(tmp_path_factory: pytest.TempPathFactory) -> Revised:
    root = tmp_path_factory.mktemp("ids")
    raw_dir = root / "data" / "raw"
    raw_dir.mkdir(parents=True)
    path = _dev(raw_dir)
    (raw_dir / "sources.toml").write_text(REGISTRY.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "data/raw/stereoset_dev.json"\nsources = "data/raw/sources.toml"\n'
        'output-dir = "build"\n',
        encoding="utf-8",
    )
    raw = read_dataset(path)
    pairs = raw.pairs
    decisions = [
        {"pair_id": pairs[i].pair_id, "action": "drop", "reason": "not a minimal pair"}
        for i in DROPPED_AT
    ] + [
        # the options swapped: every model's verdict on the item flips
        {
            "pair_id": pairs[i].pair_id,
            "action": "fix",
            "sent_more": pairs[i].sent_less,
            "sent_less": pairs[i].sent_more,
            "reason": "labels swapped",
        }
        for i in EDITED_AT
    ]
    version = root / "data" / "clean" / "1.0.0"
    version.mkdir(parents=True)
    (version / "decisions.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in decisions), encoding="utf-8"
    )
    (version / "recipe.toml").write_text(
        '[release]\ntitle = "Ids"\n\n[source]\nname = "stereoset-dev"\n'
        f'sha256 = "{sha256_file(path)}"\n\n'
        '[[decisions]]\nfile = "data/clean/1.0.0/decisions.jsonl"\n',
        encoding="utf-8",
    )
    return Revised(
        root,
        raw,
        {pairs[i].pair_id: pairs[i].item_id for i in DROPPED_AT},
        {pairs[i].pair_id: pairs[i].item_id for i in EDITED_AT},
    )


@pytest.fixture(scope="module")
def published(revised: Revised) -> Revised:
    from curate.config import load_config

    assert publish(load_config(revised.root), "1.0.0").status == "built"
    return revised


def _invoke(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    monkeypatch.chdir(root)
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_the_release_read_back_keeps_every_item_id(published: Revised) -> None:
    dist = published.root / "data" / "clean" / "1.0.0" / "dist"
    back = read_dataset(dist / "stereoset_revised.json")
    before = {p.pair_id: p for p in published.raw.pairs}
    after = {p.pair_id: p for p in back.pairs}
    assert set(before) - set(after) == set(published.dropped)
    assert set(after) <= set(before)
    for pair_id, pair in after.items():
        assert pair.item_id == before[pair_id].item_id  # the same item under the same id
    changed = {i for i in after if after[i] != before[i]}
    assert changed == set(published.edited)
    changes = [json.loads(line) for line in (dist / "changes.jsonl").read_text("utf-8").splitlines()]
    assert {c["item_id"]: c["change"] for c in changes} == {
        **{i: "dropped" for i in published.dropped.values()},
        **{i: "edited" for i in published.edited.values()},
    }
    changelog = (dist / "CHANGELOG.md").read_text("utf-8")
    in_id_order = ", ".join(published.dropped[k] for k in sorted(published.dropped))
    assert f"Dropped item ids: {in_id_order}." in changelog


def test_curate_diff_finds_exactly_the_dropped_and_edited_items(
    published: Revised, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _invoke(published.root, monkeypatch, "diff", "raw", "1.0.0", "--format", "json")
    data = json.loads(result.output)
    assert data["added"] == []
    assert {d["pair_id"]: d["item_id"] for d in data["dropped"]} == published.dropped
    assert {e["pair_id"]: e["item_id"] for e in data["edited"]} == published.edited
    text = _invoke(published.root, monkeypatch, "diff", "raw", "1.0.0").output
    for item_id in [*published.dropped.values(), *published.edited.values()]:
        assert item_id in text  # the items are named by their own ids


def test_diff_report_flips_are_the_edited_items(
    published: Revised, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.tiny_models import build_tiny_model, single_thread

    # dev's longest intersentence input is over 128 tokens of a tiny vocabulary
    model = build_tiny_model("gpt2", published.root / "gpt2", max_positions=512)
    with single_thread():
        _invoke(
            published.root, monkeypatch, "diff-report", "raw", "1.0.0",
            "--model", str(model), "--bootstrap", "20", "-o", "rep",
        )  # fmt: skip
    data = json.loads((published.root / "rep" / "report.json").read_text("utf-8"))
    n = len(published.raw.pairs) + len(published.raw.intersentence)
    assert data["alignment"]["counts"] == {
        "unchanged": n - 5, "edited": 2, "dropped": 3, "added": 0,
    }  # fmt: skip
    (model,) = data["models"]
    assert {f["item_id"] for f in model["flips"]["items"]} == set(published.edited.values())


def test_the_explorer_history_names_the_same_items(
    published: Revised, monkeypatch: pytest.MonkeyPatch
) -> None:
    _invoke(published.root, monkeypatch, "explore", "raw", "1.0.0", "--no-tokens", "-o", "site")
    text = (published.root / "site" / "index.html").read_text("utf-8")
    start = text.index('<script id="curate-data" type="application/json">') + 49
    rows = json.loads(text[start : text.index("</script>", start)])["rows"]
    history = {r["id"]: r for r in rows if "c" in r}
    assert set(history) == {*published.dropped, *published.edited}
    gone = {r["id"] for r in rows if r["v"][1] is None}
    differs = {r["id"] for r in rows if r["v"][1] not in (0, None)}
    assert (gone, differs) == (set(published.dropped), set(published.edited))
    for pair_id, row in history.items():
        item_id = {**published.dropped, **published.edited}[pair_id]
        assert row["item"] == item_id
        assert [c["item_id"] for c in row["c"]] == [item_id]


def test_lint_jsonl_reports_the_items_own_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _dev(tmp_path)
    dataset = read_dataset(path)
    own = {p.pair_id: p.item_id for p in dataset.pairs}
    (tmp_path / "pyproject.toml").write_text('[tool.curate]\noutput-dir = "out"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lint", "stereoset_dev.json", "--format", "jsonl"])
    assert result.exit_code == 1, result.output  # findings
    records = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert len(records) > 100
    for record in records:
        assert record["item_id"] == own[record["pair_id"]]
    positions = {p.item_id: n for n, p in enumerate(dataset.pairs)}
    # ids, not positions: the findings of item 0 name the item's own id
    assert any(positions[r["item_id"]] != r["pair_id"] for r in records)


# --------------------------------------------------------------------------- the small file


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from tests.support.stereoset_data import write_stereoset

    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\noutput-dir = "out"\nsources = "data/raw/sources.toml"\n', encoding="utf-8"
    )
    write_stereoset(tmp_path / "dev.json")
    (tmp_path / "data" / "raw").mkdir(parents=True)
    raw = write_stereoset(tmp_path / "data" / "raw" / "dev.json")  # the recipes' source
    (tmp_path / "data" / "raw" / "sources.toml").write_text(
        '[stereoset-dev]\nfile = "dev.json"\nurl = "https://example.org/dev.json"\n'
        f'sha256 = "{sha256_file(raw)}"\nlicense = "CC BY-SA 4.0"\ncitation = "Nadeem et al."\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_pair_ids_derive_from_item_ids_not_positions(small: Path) -> None:
    from curate.pairs import item_pair_id

    dataset = read_dataset(small / "dev.json")
    assert [p.pair_id for p in dataset.pairs] == [item_pair_id(str(p.item_id)) for p in dataset.pairs]
    assert all(0 <= p.pair_id < 2**53 for p in dataset.pairs)  # exact in JavaScript
    # the same item has the same number in a file that lost the items before it
    document = json.loads((small / "dev.json").read_text("utf-8"))
    del document["data"]["intrasentence"][:3]
    (small / "later.json").write_text(json.dumps(document), encoding="utf-8")
    later = read_dataset(small / "later.json")
    assert [(p.pair_id, p.item_id) for p in later.pairs] == [
        (p.pair_id, p.item_id) for p in dataset.pairs[3:]
    ]


def test_two_ids_with_one_number_are_refused(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from curate.benchmarks.stereoset import io
    from curate.errors import InputError

    monkeypatch.setattr(io, "item_pair_id", lambda item_id: 7)
    with pytest.raises(InputError, match="share the pair id 7"):
        read_dataset(small / "dev.json")


def test_a_copy_numbered_by_position_is_read_by_item_id_with_a_note(small: Path) -> None:
    from curate.datasets import write_dataset

    dataset = read_dataset(small / "dev.json")
    write_dataset(dataset, small / "pairs.csv", "csv")
    assert read_dataset(small / "pairs.csv").pairs == dataset.pairs  # the id column as written
    # a copy an older curate wrote: the id column holds positions
    lines = (small / "pairs.csv").read_text("utf-8").splitlines(keepends=True)
    old = [lines[0]] + [f"{n}," + line.split(",", 1)[1] for n, line in enumerate(lines[1:])]
    (small / "old.csv").write_text("".join(old), encoding="utf-8")
    back = read_dataset(small / "old.csv")
    assert [p.pair_id for p in back.pairs] == [p.pair_id for p in dataset.pairs]
    (warning,) = [w for w in back.warnings if "item id" in w]
    assert f"line 2: 0, not {dataset.pairs[0].pair_id}" in warning
    assert "no longer from positions" in warning


def _recipe(root: Path, decisions: list[dict[str, Any]]) -> None:
    version = root / "data" / "clean" / "1.0.0"
    version.mkdir(parents=True, exist_ok=True)
    (version / "decisions.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in decisions), encoding="utf-8"
    )
    (version / "recipe.toml").write_text(
        '[release]\ntitle = "Ids"\n\n[source]\nname = "stereoset-dev"\n'
        f'sha256 = "{sha256_file(root / "dev.json")}"\n\n'
        '[[decisions]]\nfile = "data/clean/1.0.0/decisions.jsonl"\n',
        encoding="utf-8",
    )


def test_a_decision_names_an_item_by_its_own_id(small: Path) -> None:
    dataset = read_dataset(small / "dev.json")
    target = dataset.pairs[4]
    _recipe(small, [{"item_id": target.item_id, "action": "drop", "reason": "test"}])
    result = runner.invoke(app, ["revise", "--recipe", "data/clean/1.0.0/recipe.toml", "-o", "rev"])
    assert result.exit_code == 0, result.output
    (change,) = [json.loads(line) for line in (small / "rev" / "changes.jsonl").read_text().splitlines()]
    assert (change["pair_id"], change["item_id"], change["change"]) == (
        target.pair_id, target.item_id, "dropped",
    )  # fmt: skip
    revised = read_dataset(next((small / "rev").glob("*.json")))
    assert target.item_id not in {p.item_id for p in revised.pairs}
    assert len(revised.pairs) == len(dataset.pairs) - 1


@pytest.mark.parametrize(
    ("record", "message"),
    [
        # keyed by position (an older curate): refused with the id, never applied to an item
        ({"pair_id": 4, "action": "drop", "reason": "x"}, "pair 4 is not in the raw file"),
        # an id the data does not hold
        ({"item_id": "not-an-item", "action": "drop", "reason": "x"}, "item not-an-item"),
        # both ids, not of one item
        ({"pair_id": 4, "item_id": "abc", "action": "drop", "reason": "x"}, "pair_id 4 is not the pair id of item abc"),
    ],
)
def test_a_decision_naming_no_item_of_the_data_is_refused(
    small: Path, record: dict[str, Any], message: str
) -> None:
    _recipe(small, [record])
    result = runner.invoke(app, ["revise", "--recipe", "data/clean/1.0.0/recipe.toml", "-o", "rev"])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output and not (small / "rev").exists()


def test_findings_keyed_by_position_are_refused(small: Path) -> None:
    from curate.annotate.tasks import build_tasks
    from curate.errors import InputError
    from curate.findings import Finding

    dataset = read_dataset(small / "dev.json")
    old = [Finding(3, "E004", "blank-only", "m")]
    with pytest.raises(InputError, match=r"\(3\); .*no longer from their positions"):
        build_tasks(dataset.pairs, old, "r1", source="dev.json")
    pair = dataset.pairs[3]
    (task,) = build_tasks(dataset.pairs, [Finding(pair.pair_id, "E004", "b", "m", item_id=pair.item_id)], "r1")
    assert (task["data"]["pair_id"], task["data"]["item_id"]) == (pair.pair_id, pair.item_id)
    # the explorer refuses them too, naming the change
    (small / "old.jsonl").write_text(json.dumps(old[0].to_dict()) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["explore", "dev.json", "--findings", "old.jsonl", "-o", "site"])
    assert result.exit_code == 2
    assert "pair 3" in result.output and "no longer from their positions" in " ".join(result.output.split())


def test_lint_text_and_csv_name_items(small: Path) -> None:
    dataset = read_dataset(small / "dev.json")
    own = {p.item_id for p in dataset.pairs}
    text = runner.invoke(app, ["lint", "--no-cache", "dev.json"])
    named = [line.split()[1] for line in text.stdout.splitlines() if line.startswith("item ")]
    assert named and set(named) <= own
    csv_out = runner.invoke(app, ["lint", "--no-cache", "dev.json", "--format", "csv"])
    header, *rows = csv_out.stdout.splitlines()
    assert header.startswith("pair_id,item_id,code")
    assert {row.split(",")[1] for row in rows} <= own


def test_tallied_decisions_name_the_items_of_their_tasks(small: Path) -> None:
    from curate.annotate.tasks import build_tasks
    from curate.commands.annotations import _with_item_ids
    from curate.decisions import Decision, read_decisions, write_decisions
    from curate.findings import Finding

    pair = read_dataset(small / "dev.json").pairs[2]
    tasks = build_tasks([pair], [Finding(pair.pair_id, "E004", "b", "m", item_id=pair.item_id)], "r1")
    decisions = _with_item_ids([Decision(pair.pair_id, "drop"), Decision(99, "keep")], tasks)
    assert [(d.pair_id, d.item_id) for d in decisions] == [(pair.pair_id, pair.item_id), (99, None)]
    write_decisions(small / "d.jsonl", decisions)
    assert read_decisions(small / "d.jsonl") == sorted(decisions, key=lambda d: d.pair_id)
