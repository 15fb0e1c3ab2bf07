"""[tool.curate] discovery and defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.config import DEFAULT_DATA, check_keys, load_config
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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tool.curate\n", r"pyproject.toml: invalid TOML"),
        ("[tool.curate]\ndat = 'x'\n", r"\[tool.curate\]: unknown key 'dat'; known keys: "),
        ("[tool.curate.scroe]\n", r"unknown key 'scroe'"),
        ("[tool]\ncurate = 1\n", r"\[tool.curate\] must be a table"),
        ("[tool.curate]\nscore = 1\n", r"\[tool.curate.score\] must be a table"),
        ("[tool.curate]\nlint = []\n", r"\[tool.curate.lint\] must be a table"),
        ("[tool.curate.score]\nbatch-size = '8'\n", r"score\] batch-size must be an integer"),
        ("[tool.curate.score]\nbatch-size = 0\n", r"batch-size is 0; it must be at least 1"),
        ("[tool.curate.score]\nbatchsize = 8\n", r"score\]: unknown key 'batchsize'"),
        ("[tool.curate.score]\nmodels = 'bert'\n", r"models must be a list"),
        ("[tool.curate.annotations]\nrounds = 'x'\n", r"annotations\]: unknown key 'rounds'"),
        ("[tool.curate.release]\ndir = ''\n", r"release\] dir is empty"),
        ('[tool.curate]\ndata = "a\\u0000b"\n', r"data holds the control character\(s\) \\x00"),
    ],
)
def test_bad_configuration_is_one_input_error(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(InputError, match=message):
        load_config(tmp_path)


def test_full_configuration_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "d.csv"\nsources = "s.toml"\noutput-dir = "o"\n'
        '[tool.curate.score]\nmodels = ["m"]\nbatch-size = 4\nthreshold = 5\ncache = "c.sqlite"\n'
        '[tool.curate.annotations]\nrounds-dir = "r"\nlabel-config = "l.xml"\n'
        '[tool.curate.release]\ndir = "rel"\n[tool.curate.lint]\nanything = 1\n'
    )
    cfg = load_config(tmp_path)
    assert cfg.section("score")["batch-size"] == 4
    assert cfg.section("lint") == {"anything": 1}  # checked by curate.lint.settings


def test_unparseable_pyproject_on_the_way_up_is_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(InputError, match=r"sub/pyproject.toml: not UTF-8"):
        load_config(sub)


def test_other_projects_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    assert load_config(sub).root == tmp_path.resolve()


def test_check_keys_for_stages() -> None:
    check_keys({"a": 1}, ["a", "b"], "x.toml: [t]")
    with pytest.raises(InputError, match=r"x.toml: \[t\]: unknown keys 'c', 'd'; known keys: a, b"):
        check_keys({"c": 1, "d": 2}, ["b", "a"], "x.toml: [t]")
