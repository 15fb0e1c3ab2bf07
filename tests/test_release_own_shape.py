"""Publish a release of another benchmark than CrowS-Pairs: the data in the raw file's own shape
(StereoSet JSON, WinoBias text files in a folder), a card that says no lm-evaluation-harness task
fits it and how to load it, and byte-identical rebuilds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from curate.config import Config, load_config
from curate.datasets import read_dataset
from curate.fileio import sha256_file
from curate.release.publish import (
    CARD_NAME,
    CSV_NAME,
    MANIFEST_NAME,
    PARQUET_NAME,
    build_release,
    publish,
    verify_release,
)
from curate.release.versions import load_version_dataset
from tests.support.stereoset_data import write_stereoset

PRO = [
    "1 [The janitor] scolded the clerk because [he] was angry.",
    "2 [The  chief] hired the tailor because [he] liked her work.",
    "3 The janitor thanked [the clerk] because [she] was kind.",
]
ANTI = [
    "1 [The janitor] scolded the clerk because [she] was angry.",
    "2 [The  chief] hired the tailor because [she] liked her work.",
    "3 The janitor thanked [the clerk] because [he] was kind.",
]


def _project(root: Path, entry: str, raw: Path) -> Config:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "data/raw/x.csv"\nsources = "data/raw/sources.toml"\n'
        'output-dir = "build"\n',
        encoding="utf-8",
    )
    (root / "data" / "raw" / "sources.toml").write_text(entry, encoding="utf-8")
    return load_config(root)


def _recipe(cfg: Config, version: str, source: str, raw: Path, decisions: str = "") -> None:
    path = cfg.root / "data" / "clean" / version / "recipe.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'[release]\ntitle = "Own shape"\n\n[source]\nname = "{source}"\n'
        f'sha256 = "{sha256_file(raw)}"\n\n[fixes]\nselect = ["T004"]\n\n{decisions}',
        encoding="utf-8",
    )


def _drop(cfg: Config, version: str, pair: int | str) -> str:
    """A decision dropping a pair, named by its pair id or (a str) by its item's own id."""
    path = cfg.root / "data" / "clean" / version / "decisions.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    key = "item_id" if isinstance(pair, str) else "pair_id"
    path.write_text(
        json.dumps({key: pair, "action": "drop", "reason": "not a minimal pair"}) + "\n",
        encoding="utf-8",
    )
    return f'[[decisions]]\nfile = "data/clean/{version}/decisions.jsonl"\n'


@pytest.fixture
def stereoset_cfg(tmp_path: Path) -> Config:
    (tmp_path / "p" / "data" / "raw").mkdir(parents=True)
    raw = write_stereoset(tmp_path / "p" / "data" / "raw" / "stereoset_dev.json")
    cfg = _project(
        tmp_path / "p",
        '[stereoset-dev]\nfile = "stereoset_dev.json"\nurl = "https://example.org/dev.json"\n'
        f'sha256 = "{sha256_file(raw)}"\nlicense = "CC BY-SA 4.0"\n'
        'citation = "Nadeem et al. (2021). StereoSet. ACL."\n',
        raw,
    )
    third = read_dataset(raw).pairs[2].item_id  # StereoSet items are named by their own ids
    assert third is not None
    _recipe(cfg, "1.0.0", "stereoset-dev", raw, _drop(cfg, "1.0.0", third))
    return cfg


@pytest.fixture
def winobias_cfg(tmp_path: Path) -> Config:
    folder = tmp_path / "p" / "data" / "raw" / "winobias"
    folder.mkdir(parents=True)
    for side, lines in (("pro", PRO), ("anti", ANTI)):
        (folder / f"{side}_stereotyped_type1.txt.dev").write_text(
            "".join(line + "\n" for line in lines), encoding="utf-8"
        )
    raw = folder / "pro_stereotyped_type1.txt.dev"
    cfg = _project(
        tmp_path / "p",
        '[winobias-pro-type1-dev]\nfile = "pro_stereotyped_type1.txt.dev"\nfolder = "winobias"\n'
        f'url = "https://example.org/pro"\nsha256 = "{sha256_file(raw)}"\nlicense = "MIT"\n'
        'citation = "Zhao et al. (2018). WinoBias. NAACL."\n',
        raw,
    )
    _recipe(cfg, "1.0.0", "winobias-pro-type1-dev", raw, _drop(cfg, "1.0.0", 10003))
    return cfg


def _files(dist: Path) -> dict[str, bytes]:
    return {p.relative_to(dist).as_posix(): p.read_bytes() for p in dist.rglob("*") if p.is_file()}


def _rebuilds_identically(cfg: Config) -> dict[str, bytes]:
    result = publish(cfg, "1.0.0")
    assert result.status == "built"
    first = _files(result.dist)
    verify_release(result.dist)
    assert publish(cfg, "1.0.0").status == "unchanged"
    shutil.rmtree(result.dist)
    assert publish(cfg, "1.0.0").status == "built"
    assert _files(result.dist) == first
    assert build_release(cfg, "1.0.0").files == first
    return first


def test_stereoset_release_is_stereoset_json(stereoset_cfg: Config) -> None:
    files = _rebuilds_identically(stereoset_cfg)
    dist = stereoset_cfg.root / "data" / "clean" / "1.0.0" / "dist"
    assert "stereoset_revised.json" in files
    assert CSV_NAME not in files and PARQUET_NAME not in files
    assert not any(name.startswith("lm_eval/") for name in files)
    revised = read_dataset(dist / "stereoset_revised.json")
    assert revised.benchmark == "stereoset"
    raw = read_dataset(stereoset_cfg.root / "data" / "raw" / "stereoset_dev.json")
    assert len(revised.pairs) == len(raw.pairs) - 1  # the dropped item is gone from the JSON
    dropped = raw.pairs[2]
    assert dropped.item_id not in {p.item_id for p in revised.pairs}
    # the intersentence items and the validators' labels ride along unchanged
    document = json.loads(files["stereoset_revised.json"])
    assert len(document["data"]["intersentence"]) == len(raw.document["data"]["intersentence"])
    card = files[CARD_NAME].decode()
    assert "lm-evaluation-harness has no task of StereoSet's shape" in card
    assert "`stereoset_revised.json`" in card and "crows_pairs" not in card.split("---")[1]
    manifest = json.loads(files[MANIFEST_NAME])
    assert manifest["dataset"] == "stereoset-revised"
    assert load_version_dataset("1.0.0", stereoset_cfg)[1].benchmark == "stereoset"
    assert set(manifest["files"]) == set(files) - {MANIFEST_NAME, "SHA256SUMS"}


def test_winobias_release_is_a_folder_of_its_text_files(winobias_cfg: Config) -> None:
    files = _rebuilds_identically(winobias_cfg)
    names = {n for n in files if n.startswith("winobias_revised/")}
    assert names == {
        "winobias_revised/pro_stereotyped_type1.txt.dev",
        "winobias_revised/anti_stereotyped_type1.txt.dev",
    }
    assert CSV_NAME not in files and not any(n.startswith("lm_eval/") for n in files)
    # the T004 autofix (double space) and the drop of line 3, numbers kept as upstream writes them
    assert files["winobias_revised/pro_stereotyped_type1.txt.dev"].decode() == (
        "1 [The janitor] scolded the clerk because [he] was angry.\n"
        "2 [The chief] hired the tailor because [he] liked her work.\n"
    )
    card = files[CARD_NAME].decode()
    assert "lm-evaluation-harness has no task of WinoBias' shape" in card
    assert "`winobias_revised/`" in card
    dist = winobias_cfg.root / "data" / "clean" / "1.0.0" / "dist"
    assert [p.pair_id for p in read_dataset(dist / "winobias_revised").pairs] == [10001, 10002]
    # the version name reads the release as any command takes it (diff, score, explore, stats)
    resolved, dataset = load_version_dataset("1.0.0", winobias_cfg)
    assert resolved.path == dist / "winobias_revised" and dataset.benchmark == "winobias"


def test_a_later_winobias_release_compares_with_the_previous_one(winobias_cfg: Config) -> None:
    publish(winobias_cfg, "1.0.0")
    raw = winobias_cfg.root / "data" / "raw" / "winobias" / "pro_stereotyped_type1.txt.dev"
    path = winobias_cfg.root / "data" / "clean" / "1.1.0" / "recipe.toml"
    path.parent.mkdir(parents=True)
    path.write_text(
        f'[release]\ntitle = "Later"\nprevious = "1.0.0"\n\n[source]\n'
        f'name = "winobias-pro-type1-dev"\nsha256 = "{sha256_file(raw)}"\n',
        encoding="utf-8",
    )
    changelog = publish(winobias_cfg, "1.1.0").build.files["CHANGELOG.md"].decode()
    # 1.1.0 has neither the fix nor the drop: pair 10003 is back, pair 10002 edited back
    assert "10003" in changelog and "10002" in changelog


def test_a_recipe_of_the_winobias_benchmark_releases_its_8_files(tmp_path: Path) -> None:
    """``[source] name = "winobias"``: the fetched folder, every file checked against its own
    pin and the folder against the recipe's; the release holds the 8 text files."""
    import os

    from curate.errors import ChecksumError
    from curate.release.revise import recipe_source
    from curate.sources import MIRROR_ENV, fetch, load_sources
    from tests.conftest import REGISTRY

    if not os.environ.get(MIRROR_ENV):
        pytest.skip(f"${MIRROR_ENV} not set")
    raw_dir = tmp_path / "p" / "data" / "raw"
    raw_dir.mkdir(parents=True)
    registry = load_sources(REGISTRY)
    for name in registry:
        if name.startswith("winobias-"):
            fetch(registry[name], raw_dir)
    cfg = _project(tmp_path / "p", REGISTRY.read_text(encoding="utf-8"), raw_dir)
    source, members = recipe_source(registry, "winobias")
    assert source.file == "winobias" and len(members) == 10
    path = cfg.root / "data" / "clean" / "1.0.0" / "recipe.toml"
    path.parent.mkdir(parents=True)
    path.write_text(
        f'[release]\ntitle = "WinoBias"\n\n[source]\nname = "winobias"\nsha256 = "{source.sha256}"\n'
        '\n[[decisions]]\nfile = "data/clean/1.0.0/decisions.jsonl"\n',
        encoding="utf-8",
    )
    (path.parent / "decisions.jsonl").write_text(
        json.dumps({"pair_id": 25002, "action": "drop", "reason": "test"}) + "\n", encoding="utf-8"
    )
    files = publish(cfg, "1.0.0").build.files
    texts = {n.split("/", 1)[1]: d for n, d in files.items() if n.startswith("winobias_revised/")}
    assert len(texts) == 8
    for name, data in texts.items():
        raw = (raw_dir / "winobias" / name).read_bytes()
        if name.endswith("type2.txt.test"):  # pair 25002 (type 2, test, line 2) dropped
            assert data == b"".join(raw.splitlines(keepends=True)[:1] + raw.splitlines(keepends=True)[2:])
        else:
            assert data == raw
    released = read_dataset(cfg.root / "data" / "clean" / "1.0.0" / "dist" / "winobias_revised")
    ids = {p.pair_id for p in released.pairs}
    assert len(ids) == 1584 - 1 and 25002 not in ids and {25001, 25003} <= ids  # ids kept
    (raw_dir / "winobias" / "anti_stereotyped_type1.txt.dev").write_bytes(b"1 [x] y\n")
    shutil.rmtree(cfg.root / "data" / "clean" / "1.0.0" / "dist")
    with pytest.raises(ChecksumError, match=r"anti_stereotyped_type1\.txt\.dev: sha256 does not"):
        publish(cfg, "1.0.0")


def _revise(cfg: Config, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    from typer.testing import CliRunner

    from curate.cli import app

    monkeypatch.chdir(cfg.root)
    result = CliRunner().invoke(
        app, ["revise", "--recipe", "data/clean/1.0.0/recipe.toml", *args]
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_revise_names_a_stereoset_output_as_its_release_does(
    stereoset_cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    _revise(stereoset_cfg, monkeypatch)
    out = stereoset_cfg.root / "build" / "revised" / "1.0.0"
    assert sorted(p.name for p in out.iterdir()) == ["changes.jsonl", "stereoset_revised.json"]
    released = _files(publish(stereoset_cfg, "1.0.0").dist)
    assert (out / "stereoset_revised.json").read_bytes() == released["stereoset_revised.json"]


def test_revise_replaces_a_winobias_folder_as_a_whole(
    winobias_cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = winobias_cfg.root / "build" / "revised" / "1.0.0"
    (out / "winobias_revised").mkdir(parents=True)
    (out / "winobias_revised" / "left_over.txt.dev").write_text("old\n", encoding="utf-8")
    (out / "notes.md").write_text("mine\n", encoding="utf-8")  # not an output: kept
    _revise(winobias_cfg, monkeypatch)
    released = _files(publish(winobias_cfg, "1.0.0").dist)
    written = _files(out)
    assert written.pop("notes.md") == b"mine\n"
    assert set(written) == {n for n in released if n.startswith("winobias_revised/")} | {
        "changes.jsonl"
    }
    assert all(written[n] == released[n] for n in written)


def test_revise_refuses_an_unwritable_output_before_the_work(
    stereoset_cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from curate.cli import app
    from curate.release import revise as revise_module

    # the command imports the stage when it runs (issue 31): watch the stage itself
    revised: list[object] = []
    real = revise_module.revise
    monkeypatch.setattr(revise_module, "revise", lambda *a: revised.append(a) or real(*a))
    (stereoset_cfg.root / "taken").write_text("a file\n", encoding="utf-8")
    monkeypatch.chdir(stereoset_cfg.root)
    result = CliRunner().invoke(
        app, ["revise", "--recipe", "data/clean/1.0.0/recipe.toml", "-o", "taken/out"]
    )
    assert result.exit_code == 2
    assert "taken" in result.output and "Traceback" not in result.output
    assert revised == []  # refused before the revision was computed
    left = sorted(p.name for p in stereoset_cfg.root.iterdir())
    assert left == ["data", "pyproject.toml", "taken"]
