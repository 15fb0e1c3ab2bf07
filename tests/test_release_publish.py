"""Publish: release files, data card counts, loading check, determinism and immutability."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from curate.config import Config
from curate.datasets import read_pairs
from curate.errors import ChecksumError, InputError
from curate.release.publish import (
    HF_PARQUET_NAME,
    RELEASE_FILES,
    ReleaseError,
    build_release,
    check_loads,
    format_sums,
    parquet_bytes,
    publish,
    verify_release,
)
from curate.release.revise import read_changes, summarize_change_records
from curate.release.versions import load_version
from tests.conftest import repo_env
from tests.support.release_project import (
    PAIRS,
    make_project,
    raw_sha,
    recipe_text,
    write_decisions,
    write_recipe,
)

REPO = Path(__file__).resolve().parents[1]
VOTES = {"stereotype": {"yes": 1, "no": 4}}


@pytest.fixture
def cfg(tmp_path: Path) -> Config:
    cfg = make_project(tmp_path / "project")
    write_recipe(cfg, "1.0.0", recipe_text(raw_sha(cfg), title="Autofixes"))
    return cfg


def files_of(dist: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(dist)): p.read_bytes() for p in sorted(dist.rglob("*")) if p.is_file()
    }


def with_decisions(cfg: Config) -> None:
    """Version 1.1.0: the autofixes plus a round (drop 3, keep 0) and a hand-written relabel."""
    write_decisions(
        cfg.root / "annotations" / "rounds" / "r1" / "decisions.jsonl",
        [
            {"pair_id": 3, "action": "drop", "votes": VOTES, "n_annotators": 5, "round": "r1"},
            {"pair_id": 0, "action": "keep", "votes": VOTES, "n_annotators": 5, "round": "r1"},
        ],
    )
    write_decisions(
        cfg.root / "data" / "clean" / "1.1.0" / "decisions.jsonl",
        [{"pair_id": 5, "action": "relabel", "bias_type": "gender", "reason": "about men"}],
    )
    write_recipe(
        cfg,
        "1.1.0",
        recipe_text(
            raw_sha(cfg),
            previous="1.0.0",
            title="Revalidated",
            decisions=({"round": "r1"}, {"file": "data/clean/1.1.0/decisions.jsonl"}),
        ),
    )


def test_publish_writes_every_file(cfg: Config) -> None:
    result = publish(cfg, "1.0.0")
    assert result.status == "built"
    assert result.dist == cfg.root / "data" / "clean" / "1.0.0" / "dist"
    written = sorted(str(p.relative_to(result.dist)) for p in result.dist.rglob("*") if p.is_file())
    assert written == sorted(result.build.files)
    task = "crows_pairs_revised_1_0_0"
    assert set(written) == {
        *RELEASE_FILES,
        HF_PARQUET_NAME,
        f"lm_eval/{task}.yaml",
        "lm_eval/utils.py",
        *(f"lm_eval/{task}_{t}.yaml" for t in ("age", "gender", "religion", "sexual_orientation", "socioeconomic")),
    }
    verify_release(result.dist)
    assert read_pairs(result.dist / "crows_pairs_revised.csv") == result.build.revision.pairs
    # no temporary directories are left behind
    assert sorted(p.name for p in result.dist.parent.iterdir()) == ["dist", "recipe.toml"]


def test_sha256sums_is_valid_for_sha256sum(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum not installed")
    run = subprocess.run(
        ["sha256sum", "-c", "SHA256SUMS"], cwd=dist, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count(": OK") == len(publish(cfg, "1.0.0").build.files) - 1


def test_manifest_records_inputs_tool_and_counts(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    manifest = json.loads((dist / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == "1.0.0"
    assert manifest["inputs"]["source"]["sha256"] == raw_sha(cfg)
    assert re.fullmatch(r"[0-9a-f]{64}", manifest["inputs"]["recipe_sha256"])
    assert manifest["tool"]["name"] == "curate" and manifest["tool"]["version"]
    assert manifest["counts"]["pairs"] == manifest["counts"]["raw_pairs"] == len(PAIRS)
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((dist / name).read_bytes()).hexdigest() == entry["sha256"]
    text = (dist / "manifest.json").read_text(encoding="utf-8")
    assert str(cfg.root) not in text  # no machine paths


def test_data_card_counts_match_changes_jsonl(cfg: Config) -> None:
    publish(cfg, "1.0.0")
    with_decisions(cfg)
    dist = publish(cfg, "1.1.0").dist
    records = read_changes(dist / "changes.jsonl")
    counts = summarize_change_records(records)
    card = (dist / "README.md").read_text(encoding="utf-8")
    manifest = json.loads((dist / "manifest.json").read_text(encoding="utf-8"))

    assert counts["changes"] == {"edited": 2, "relabelled": 1, "edited+relabelled": 0, "dropped": 1}
    assert manifest["counts"]["changes"] == counts["changes"]
    assert manifest["counts"]["lint"] == counts["lint"]
    assert manifest["counts"]["decisions"] == counts["decisions"] == {"drop": 1, "relabel": 1}
    assert (
        f"{len(records)} of {len(PAIRS)} upstream pairs changed: 2 edited, 1 relabelled, "
        "0 edited and relabelled, 1 dropped." in card
    )
    for code, entry in counts["lint"].items():
        assert re.search(
            rf"^\| {code} \| {entry['rule']} \| [^|]+ \| {entry['pairs']} \| {entry['fixes']} \|$",
            card,
            re.M,
        ), code
    for code in ("T001", "T003", "T006"):  # selected, but nothing to fix in the test data
        assert re.search(rf"^\| {code} \| [^|]+ \| [^|]+ \| 0 \| 0 \|$", card, re.M)
    assert "| drop | 1 |" in card and "| relabel | 1 |" in card and "| fix | 0 |" in card
    assert "| round r1 | `annotations/rounds/r1/decisions.jsonl` | 1 |" in card
    assert "| data/clean/1.1.0/decisions.jsonl | `data/clean/1.1.0/decisions.jsonl` | 1 |" in card
    assert "Decisions read: 3 (keep 1, fix 0, drop 1, relabel 1, undecided 0)" in card


def test_data_card_header_and_sections(cfg: Config) -> None:
    card = (publish(cfg, "1.0.0").dist / "README.md").read_text(encoding="utf-8")
    header = card.split("---\n")[1]
    assert "license: cc-by-sa-4.0\n" in header
    assert "language:\n- en\n" in header
    assert "size_categories:\n- n<1K\n" in header
    assert "source_datasets:\n- extended|crows_pairs\n" in header
    assert "path: crows_pairs_revised_hf.parquet" in header
    assert "class_label:" in header
    for section in (
        "## Summary",
        "## What changed and why",
        "## How it was built",
        "## Limitations",
        "## Citation",
    ):
        assert section in card
    assert "@inproceedings{nangia-etal-2020-crows" in card
    assert "@software{curate" in card
    assert "=SUM" not in card  # sentences are not rendered in the card


def test_changelog_compares_with_the_previous_version(cfg: Config) -> None:
    first = publish(cfg, "1.0.0").dist
    with_decisions(cfg)
    dist = publish(cfg, "1.1.0").dist
    changelog = (dist / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog\n")
    new, old = changelog.index("## 1.1.0"), changelog.index("## 1.0.0")
    assert new < old
    entry = changelog[new:old]
    assert "Compared with version 1.0.0: 5 → 4 pairs." in entry
    assert "- Dropped: 1" in entry and "Dropped pair ids: 3." in entry
    assert "- Edited: 1 (fields changed: bias_type 1)" in entry
    previous_entry = (first / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog[old:] == previous_entry[previous_entry.index("## 1.0.0") :]
    manifest = json.loads((dist / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"]["previous"] == {
        "version": "1.0.0",
        "manifest_sha256": hashlib.sha256((first / "manifest.json").read_bytes()).hexdigest(),
    }


def test_previous_version_must_be_built(cfg: Config) -> None:
    with_decisions(cfg)
    with pytest.raises(ReleaseError, match=r"previous version 1\.0\.0 is not built"):
        publish(cfg, "1.1.0")
    assert not (cfg.root / "data" / "clean" / "1.1.0" / "dist").exists()


def test_dropped_pairs_are_gone_from_csv_and_parquet_but_keep_their_id(cfg: Config) -> None:
    publish(cfg, "1.0.0")
    with_decisions(cfg)
    dist = publish(cfg, "1.1.0").dist
    frame = pd.read_parquet(dist / "crows_pairs_revised.parquet")
    assert frame["id"].tolist() == [0, 1, 2, 5]
    dropped = [r for r in read_changes(dist / "changes.jsonl") if r["change"] == "dropped"]
    assert [r["pair_id"] for r in dropped] == [3]


def test_csv_and_parquet_load_with_pandas_and_pyarrow_with_the_same_rows(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    csv_path, parquet_path = dist / "crows_pairs_revised.csv", dist / "crows_pairs_revised.parquet"
    assert check_loads(csv_path, parquet_path, read_pairs(csv_path)) == len(PAIRS)
    frame_csv = pd.read_csv(csv_path, index_col=0, keep_default_na=False)
    frame_parquet = pd.read_parquet(parquet_path).set_index("id")
    assert frame_csv.index.tolist() == frame_parquet.index.tolist()
    for column in frame_csv.columns:
        assert frame_csv[column].tolist() == frame_parquet[column].tolist()
    table = pq.read_table(parquet_path)
    assert table.num_rows == len(PAIRS)
    assert table.column("sent_more").to_pylist()[-1] == "=SUM(1,2) says the gay man."


def test_loading_check_catches_a_mismatch(cfg: Config, tmp_path: Path) -> None:
    dist = publish(cfg, "1.0.0").dist
    pairs = read_pairs(dist / "crows_pairs_revised.csv")
    other = tmp_path / "other.parquet"
    other.write_bytes(parquet_bytes(pairs[:-1], "1.0.0"))
    with pytest.raises(ReleaseError):
        check_loads(dist / "crows_pairs_revised.csv", other)


def test_parquet_is_deterministic_across_processes() -> None:
    """Two interpreters with different hash seeds write the same Parquet bytes."""
    code = (
        "import hashlib, sys\n"
        "from curate.release.publish import parquet_bytes\n"
        "from tests.support.release_project import PAIRS\n"
        "sys.stdout.write(hashlib.sha256(parquet_bytes(list(PAIRS), '1.0.0')).hexdigest())\n"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            env=repo_env(PYTHONHASHSEED=seed),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert digests == {hashlib.sha256(parquet_bytes(list(PAIRS), "1.0.0")).hexdigest()}


def test_rebuild_is_byte_identical_and_a_no_op(cfg: Config, tmp_path: Path) -> None:
    first = publish(cfg, "1.0.0")
    before = files_of(first.dist)
    mtimes = {p.name: p.stat().st_mtime_ns for p in first.dist.rglob("*")}
    again = publish(cfg, "1.0.0")
    assert again.status == "unchanged"
    assert files_of(again.dist) == before
    assert {p.name: p.stat().st_mtime_ns for p in again.dist.rglob("*")} == mtimes
    # a fresh build in another checkout gives the same bytes
    other = make_project(tmp_path / "elsewhere")
    write_recipe(other, "1.0.0", recipe_text(raw_sha(other), title="Autofixes"))
    assert files_of(publish(other, "1.0.0").dist) == before


def test_changing_the_recipe_of_a_published_version_is_refused(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    before = files_of(dist)
    write_recipe(cfg, "1.0.0", recipe_text(raw_sha(cfg), title="Autofixes", fixes=("T004",)))
    with pytest.raises(
        ReleaseError,
        match=r"1\.0\.0 is already published with different inputs \(recipe changed\).*immutable",
    ):
        publish(cfg, "1.0.0")
    assert files_of(dist) == before


def test_comment_edits_to_a_published_recipe_are_fine(cfg: Config) -> None:
    publish(cfg, "1.0.0")
    write_recipe(cfg, "1.0.0", recipe_text(raw_sha(cfg), title="Autofixes", comment="reworded"))
    assert publish(cfg, "1.0.0").status == "unchanged"


def test_changing_a_decision_file_of_a_published_version_is_refused(cfg: Config) -> None:
    publish(cfg, "1.0.0")
    with_decisions(cfg)
    publish(cfg, "1.1.0")
    hand = cfg.root / "data" / "clean" / "1.1.0" / "decisions.jsonl"
    write_decisions(hand, [{"pair_id": 5, "action": "relabel", "bias_type": "age", "reason": "x"}])
    with pytest.raises(ReleaseError, match=r"different inputs \(decision files changed\)"):
        publish(cfg, "1.1.0")


def test_an_edited_release_file_is_refused_not_replaced(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    card = dist / "README.md"
    card.write_text("edited\n", encoding="utf-8")
    with pytest.raises(ReleaseError, match="no longer matches its own SHA256SUMS"):
        publish(cfg, "1.0.0")
    assert card.read_text(encoding="utf-8") == "edited\n"
    with pytest.raises(ReleaseError, match="does not match SHA256SUMS"):
        verify_release(dist)


def test_an_edited_sha256sums_is_named_as_the_edited_file(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    sums = dist / "SHA256SUMS"
    sums.write_bytes(sums.read_bytes() + b"# checked by hand\n")
    with pytest.raises(ReleaseError, match=r"SHA256SUMS: edited after publishing \(it no longer"):
        publish(cfg, "1.0.0")


def test_an_edited_file_whose_line_was_taken_out_of_sha256sums_is_an_edit(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    (dist / "README.md").write_text("edited\n", encoding="utf-8")
    sums = dist / "SHA256SUMS"
    lines = sums.read_text(encoding="utf-8").splitlines(keepends=True)
    sums.write_text("".join(line for line in lines if not line.endswith("  README.md\n")))
    with pytest.raises(ReleaseError, match=r"README\.md: no longer matches its own SHA256SUMS"):
        publish(cfg, "1.0.0")


def test_an_edit_resealed_in_sha256sums_is_told_from_another_curate(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    data = dist / "crows_pairs_revised.csv"
    data.write_bytes(data.read_bytes().replace(b"drive", b"ride", 1))
    files = {str(p.relative_to(dist)): p.read_bytes() for p in dist.rglob("*") if p.is_file()}
    del files["SHA256SUMS"]
    (dist / "SHA256SUMS").write_text(format_sums(files), encoding="utf-8")
    verify_release(dist)  # the edit is resealed: the release checks out against itself
    with pytest.raises(ReleaseError, match="edited and SHA256SUMS updated after publishing"):
        publish(cfg, "1.0.0")
    manifest = json.loads((dist / "manifest.json").read_text(encoding="utf-8"))
    manifest["tool"]["version"] = "0.0.1"  # as if an older curate had built it
    (dist / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ReleaseError, match=r"published with curate 0\.0\.1"):
        publish(cfg, "1.0.0")


def test_missing_files_are_restored(cfg: Config) -> None:
    dist = publish(cfg, "1.0.0").dist
    before = files_of(dist)
    (dist / "crows_pairs_revised.parquet").unlink()
    (dist / "CHANGELOG.md").unlink()
    result = publish(cfg, "1.0.0")
    assert result.status == "restored"
    assert set(result.restored) == {"crows_pairs_revised.parquet", "CHANGELOG.md"}
    assert files_of(dist) == before


def test_a_foreign_dist_directory_is_not_overwritten(cfg: Config) -> None:
    dist = cfg.root / "data" / "clean" / "1.0.0" / "dist"
    dist.mkdir()
    (dist / "mine.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ReleaseError, match=r"has no manifest\.json"):
        publish(cfg, "1.0.0")


def test_failed_build_writes_nothing(cfg: Config) -> None:
    cfg.data.write_bytes(cfg.data.read_bytes() + b"\n")  # no longer the pinned bytes
    with pytest.raises(ChecksumError):
        publish(cfg, "1.0.0")
    assert sorted(p.name for p in (cfg.root / "data" / "clean" / "1.0.0").iterdir()) == [
        "recipe.toml"
    ]


def test_unknown_version_and_bad_version(cfg: Config) -> None:
    with pytest.raises(InputError, match="no such recipe"):
        publish(cfg, "3.0.0")
    with pytest.raises(Exception, match="semantic versioning"):
        publish(cfg, "latest")


def test_build_in_memory_matches_the_published_files(cfg: Config) -> None:
    build = build_release(cfg, "1.0.0")
    assert files_of(publish(cfg, "1.0.0").dist) == dict(sorted(build.files.items()))


@pytest.mark.slow
def test_real_crows_pairs_1_0_0_auto(crows_pairs_path: Path, tmp_path: Path) -> None:
    """The shipped recipe builds a real release from the pinned upstream file, reproducibly."""
    cfg = make_project(tmp_path / "a", raw=crows_pairs_path)
    shutil.copy(REPO / "data" / "raw" / "sources.toml", cfg.sources)
    shipped = REPO / "data" / "clean" / "1.0.0-auto" / "recipe.toml"
    write_recipe(cfg, "1.0.0-auto", shipped.read_text(encoding="utf-8"))
    cfg.data.unlink()  # the raw file comes from the fixture, as `--raw` would give it

    result = publish(cfg, "1.0.0-auto", raw=crows_pairs_path)
    dist = result.dist
    assert result.status == "built"
    verify_release(dist)
    csv_path, parquet_path = dist / "crows_pairs_revised.csv", dist / "crows_pairs_revised.parquet"
    assert check_loads(csv_path, parquet_path) == 1508
    assert len(pd.read_csv(csv_path, index_col=0)) == len(pd.read_parquet(parquet_path)) == 1508

    records = read_changes(dist / "changes.jsonl")
    counts = summarize_change_records(records)
    assert records and counts["changes"]["dropped"] == 0
    assert set(counts["lint"]) <= {"T001", "T002", "T003", "T004", "T005", "T006"}
    assert all(not r["decisions"] for r in records)
    card = (dist / "README.md").read_text(encoding="utf-8")
    assert f"{len(records)} of 1,508 upstream pairs changed: {len(records)} edited" in card
    for code, entry in counts["lint"].items():
        assert f"| {entry['pairs']} | {entry['fixes']} |" in card, code
    raw = read_pairs(crows_pairs_path)
    revised = load_version(csv_path)
    assert [p.pair_id for p in revised] == [p.pair_id for p in raw]
    changed = {r["pair_id"] for r in records}
    assert {p.pair_id for p, q in zip(raw, revised, strict=True) if p != q} == changed

    before = files_of(dist)
    assert publish(cfg, "1.0.0-auto", raw=crows_pairs_path).status == "unchanged"
    assert files_of(dist) == before
