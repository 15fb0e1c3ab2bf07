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
