"""Versions: semver names and precedence; resolving and loading release names, the raw file,
CSV and Parquet paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.config import Config
from curate.errors import InputError, UsageError
from curate.release.publish import parquet_bytes, publish
from curate.release.versions import (
    SemVer,
    is_version,
    known_versions,
    load_version,
    pairs_to_table,
    parse_version,
    read_parquet_pairs,
    resolve_version,
    table_to_pairs,
)
from tests.support.release_project import PAIRS, make_project, raw_sha, recipe_text, write_recipe


@pytest.fixture
def cfg(tmp_path: Path) -> Config:
    cfg = make_project(tmp_path)
    write_recipe(cfg, "1.0.0-auto", recipe_text(raw_sha(cfg)))
    return cfg


def test_arrow_table_round_trips_pairs_losslessly() -> None:
    table = pairs_to_table(PAIRS)
    assert table.column_names[0] == "id"
    assert table_to_pairs(table, "t") == list(PAIRS)
    assert table_to_pairs(pairs_to_table([]), "t") == []


def test_parquet_file_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "x.parquet"
    path.write_bytes(parquet_bytes(list(PAIRS), "1.0.0"))
    assert read_parquet_pairs(path) == list(PAIRS)
    assert load_version(path) == list(PAIRS)


def test_not_a_parquet_file(tmp_path: Path) -> None:
    path = tmp_path / "x.parquet"
    path.write_text("nope", encoding="utf-8")
    with pytest.raises(InputError, match="not a readable Parquet file"):
        read_parquet_pairs(path)


def test_version_name_resolves_to_the_built_csv(cfg: Config) -> None:
    with pytest.raises(InputError, match=r"run `curate publish 1\.0\.0-auto` first"):
        load_version("1.0.0-auto", cfg)
    dist = publish(cfg, "1.0.0-auto").dist
    assert resolve_version("1.0.0-auto", cfg).path == dist / "crows_pairs_revised.csv"
    pairs = load_version("1.0.0-auto", cfg)
    assert [p.pair_id for p in pairs] == [p.pair_id for p in PAIRS]
    assert pairs[1].sent_more == "Poor people are lazy."
    assert load_version(dist / "crows_pairs_revised.parquet") == pairs


def test_raw_and_source_names_resolve_to_the_fetched_file(cfg: Config) -> None:
    assert load_version("raw", cfg) == list(PAIRS)
    assert load_version("crows-pairs", cfg) == list(PAIRS)
    assert resolve_version("crows-pairs", cfg).path == cfg.data
    cfg.data.unlink()
    with pytest.raises(InputError, match="curate fetch crows-pairs"):
        load_version("crows-pairs", cfg)


def test_unknown_names(cfg: Config) -> None:
    with pytest.raises(InputError, match=r"no release 2\.0\.0 .*known versions: 1\.0\.0-auto"):
        load_version("2.0.0", cfg)
    with pytest.raises(UsageError, match="neither a file"):
        load_version("latest", cfg)
    with pytest.raises(InputError, match="no such file"):
        load_version("missing.csv", cfg)


def test_known_versions_in_semver_order(cfg: Config) -> None:
    for version in ("1.0.0", "0.9.0", "1.0.0-rc.1"):
        write_recipe(cfg, version, recipe_text(raw_sha(cfg)))
    (cfg.root / "data" / "clean" / "notes").mkdir()
    assert known_versions(cfg) == ["0.9.0", "1.0.0-auto", "1.0.0-rc.1", "1.0.0"]


@pytest.mark.parametrize("text", ["1.0.0", "1.0.0-auto", "0.1.2-rc.1", "10.20.30-alpha.beta.1"])
def test_valid_versions(text: str) -> None:
    assert is_version(text)
    assert str(parse_version(text)) == text


@pytest.mark.parametrize(
    "text", ["1.0", "01.0.0", "1.0.0+build", "v1.0.0", "1.0.0-", "1.0.0-01", ""]
)
def test_invalid_versions(text: str) -> None:
    assert not is_version(text)
    with pytest.raises(UsageError, match="semantic versioning"):
        parse_version(text)


def test_semver_precedence() -> None:
    order = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-auto",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0",
        "1.0.1",
        "1.10.0",
        "2.0.0",
    ]
    parsed = [parse_version(v) for v in order]
    assert sorted(reversed(parsed)) == parsed
    assert SemVer(1, 0, 0) == parse_version("1.0.0")
