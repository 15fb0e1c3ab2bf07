"""[tool.curate] discovery and defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.config import DEFAULT_DATA, load_config
from curate.errors import InputError
from tests.conftest import REPO


def test_repository_config() -> None:
    cfg = load_config(REPO / "tests")
    assert cfg.root == REPO
    assert cfg.data == REPO / "data/raw/crows_pairs_anonymized.csv"
    assert cfg.sources == REPO / "data/raw/sources.toml"


def test_defaults_without_project(tmp_path: Path) -> None:
    cfg = load_config(tmp_path)
    assert cfg.root == tmp_path.resolve()
    assert cfg.data == tmp_path.resolve() / DEFAULT_DATA
    assert cfg.section("lint") == {}


def test_overrides_and_sections(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "in/x.csv"\noutput-dir = "out"\n[tool.curate.lint]\nignore = ["T"]\n'
    )
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    cfg = load_config(sub)
    assert cfg.root == tmp_path.resolve()
    assert cfg.data == tmp_path.resolve() / "in/x.csv"
    assert cfg.output_dir == tmp_path.resolve() / "out"
    assert cfg.section("lint") == {"ignore": ["T"]}


def test_bad_value(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\ndata = 3\n")
    with pytest.raises(InputError, match=r"\[tool.curate\] data must be a string"):
        load_config(tmp_path)
