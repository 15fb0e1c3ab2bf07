"""The helpers every command shares: code lists, shown paths, the default data file, the score
cache, and model names."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.commands.common import (
    DEFAULT_SCORE_CACHE,
    data_path,
    score_cache_path,
    shown_path,
    split_codes,
)
from curate.config import Config
from curate.errors import InputError, UsageError
from curate.modelnames import model_label, model_slug


def _config(root: Path, score: dict | None = None) -> Config:
    return Config(
        root=root,
        data=root / "data" / "raw.csv",
        sources=root / "sources.toml",
        output_dir=root / "build",
        sections={"score": score} if score is not None else {},
    )


def test_codes_split_on_commas_and_repeats() -> None:
    assert split_codes(None) is None
    assert split_codes(["S, p006", "T", " , "]) == ("S", "p006", "T")
    assert split_codes(["s,p006"], upper=True) == ("S", "P006")


def test_paths_are_shown_relative_to_the_root_when_inside(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    assert shown_path(root / "a" / "b.csv", root) == str(Path("a") / "b.csv")
    outside = Path("/elsewhere/x.csv")
    assert shown_path(outside, root) == str(outside)


def test_the_default_data_file_must_have_been_fetched(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    given = tmp_path / "mine.csv"
    assert data_path(given, cfg) == given  # a given path is the reader's to check
    with pytest.raises(InputError, match=r"raw\.csv: no such file; run `curate fetch"):
        data_path(None, cfg)
    cfg.data.parent.mkdir()
    cfg.data.write_text("", encoding="utf-8")
    assert data_path(None, cfg) == cfg.data
    # a name, not a file: resolved as every command resolves versions
    assert data_path(Path("raw"), cfg) == cfg.data
    with pytest.raises(UsageError, match=r"'rwa' is neither a file, a version"):
        data_path(Path("rwa"), cfg)


def test_score_cache_from_option_config_or_default(tmp_path: Path) -> None:
    assert score_cache_path(_config(tmp_path), None, no_cache=True) is None
    assert score_cache_path(_config(tmp_path), tmp_path / "c.sqlite", False) == tmp_path / "c.sqlite"
    assert score_cache_path(_config(tmp_path), None, False) == tmp_path / DEFAULT_SCORE_CACHE
    assert score_cache_path(_config(tmp_path, {"cache": "x.db"}), None, False) == tmp_path / "x.db"
    with pytest.raises(InputError, match="cache must be a string"):
        score_cache_path(_config(tmp_path, {"cache": 3}), None, False)


def test_model_names_of_hub_ids_and_local_directories(tmp_path: Path) -> None:
    assert model_label("org/model-name") == "org/model-name"
    assert model_slug("org/model-name/") == "org--model-name"
    local = tmp_path / "models" / "bert"
    local.mkdir(parents=True)
    assert model_label(str(local)) == model_slug(str(local)) == "bert"
