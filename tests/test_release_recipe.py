"""Recipes: parsing, validation errors, the canonical digest."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate import sources
from curate.config import load_config
from curate.errors import InputError, UsageError
from curate.release.recipe import load_recipe, parse_recipe, recipe_from_options
from tests.support.release_project import make_project, raw_sha, recipe_text, write_recipe

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "data" / "clean" / "1.0.0-auto" / "recipe.toml"


@pytest.fixture
def cfg(tmp_path: Path):
    return make_project(tmp_path)


def test_shipped_recipe_is_typographic_autofixes_pinned_to_the_registry() -> None:
    cfg = load_config(REPO)
    recipe = load_recipe(SHIPPED, cfg)
    assert recipe.version == "1.0.0-auto"
    assert recipe.fixes == ("T001", "T002", "T003", "T004", "T005", "T006")
    assert recipe.decisions == ()
    assert recipe.previous is None
    registry = sources.load_sources(REPO / "data" / "raw" / "sources.toml")
    assert recipe.sha256 == registry[recipe.source].sha256


def test_version_comes_from_the_directory(cfg) -> None:
    path = write_recipe(cfg, "2.0.0", recipe_text(raw_sha(cfg)))
    recipe = load_recipe(path, cfg)
    assert recipe.version == "2.0.0"
    assert recipe.path == path


def test_digest_ignores_comments_and_formatting_but_not_content(cfg) -> None:
    sha = raw_sha(cfg)
    a = parse_recipe(recipe_text(sha, "1.0.0", comment="one"), cfg)
    b = parse_recipe(recipe_text(sha, "1.0.0", comment="two").replace(" = ", "="), cfg)
    c = parse_recipe(recipe_text(sha, "1.0.0", fixes=("T001",)), cfg)
    d = parse_recipe(recipe_text(sha, "1.0.0", title="Other"), cfg)
    assert a.digest() == b.digest()
    assert len({a.digest(), c.digest(), d.digest()}) == 3


def test_fix_codes_are_sorted_and_unique(cfg) -> None:
    recipe = parse_recipe(recipe_text(raw_sha(cfg), fixes=("T003", "T001", "T003")), cfg)
    assert recipe.fixes == ("T001", "T003")


def test_decision_sources_resolve_rounds_and_files(cfg) -> None:
    text = recipe_text(
        raw_sha(cfg),
        decisions=(
            {"round": "r1"},
            {"file": "data/clean/1.1.0/decisions.jsonl", "override": True},
        ),
    )
    recipe = parse_recipe(text, cfg)
    r1, hand = recipe.decisions
    assert (r1.kind, r1.label, r1.file) == (
        "round",
        "round r1",
        "annotations/rounds/r1/decisions.jsonl",
    )
    assert r1.path == cfg.root / "annotations" / "rounds" / "r1" / "decisions.jsonl"
    assert (hand.kind, hand.hand_written, hand.override) == ("file", True, True)
    assert hand.path == cfg.root / "data" / "clean" / "1.1.0" / "decisions.jsonl"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda t: t.replace('"T001", ', '"T999", '), "unknown rule code 'T999'"),
        (lambda t: t.replace('"T001", ', '"S001", '), "rule S001 has no safe autofix"),
        (lambda t: t.replace('"T001", ', '"T", '), "unknown rule code 'T'"),
        (lambda t: t.replace("[source]", "[sauce]"), "unknown key 'sauce'"),
        (
            lambda t: t.replace('name = "crows-pairs"', 'name = "crows-pairs"\nurl = "x"'),
            "unknown key 'url'",
        ),
        (lambda t: t.replace("sha256 = ", "# "), "[source].sha256 is required"),
        (lambda t: t.replace('sha256 = "', 'sha256 = "X'), "[source].sha256 is required"),
        (lambda t: t.replace("[release]", "[release\n"), "invalid TOML"),
        (
            lambda t: t.replace('title = "Test release"', "title = 3"),
            "[release].title must be a string",
        ),
        (
            lambda t: t.replace('title = "Test release"', 'version = "1.0"'),
            "not semantic versioning",
        ),
        (lambda t: t + '[[decisions]]\nround = "r1"\nfile = "x.jsonl"\n', "exactly one of"),
        (lambda t: t + '[[decisions]]\nfile = "/etc/passwd"\n', "relative path inside the project"),
        (lambda t: t + '[[decisions]]\nfile = "../x.jsonl"\n', "relative path inside the project"),
        (lambda t: t + '[[decisions]]\nround = "bad name"\n', "round name"),
        (
            lambda t: t + '[[decisions]]\nround = "r1"\noverride = "yes"\n',
            "override must be true or false",
        ),
        (lambda t: t + '[[decisions]]\nround = "r1"\n[[decisions]]\nround = "r1"\n', "twice"),
        (
            lambda t: t.replace('title = "Test release"', 'previous = "latest"'),
            "[release].previous must be",
        ),
        (
            lambda t: t.replace('name = "crows-pairs"', 'name = "crows-pairs"\nformat = "xlsx"'),
            "[source].format 'xlsx' is not a known format; expected one of csv, tsv",
        ),
    ],
)
def test_bad_recipes_are_one_clear_input_error(cfg, mutate, message) -> None:
    text = mutate(recipe_text(raw_sha(cfg)))
    with pytest.raises(InputError) as info:
        parse_recipe(text, cfg, "recipe.toml")
    assert message in str(info.value)
    assert str(info.value).startswith("recipe.toml")


def test_missing_recipe_file(cfg) -> None:
    with pytest.raises(InputError, match="no such recipe"):
        load_recipe(cfg.root / "data" / "clean" / "9.9.9" / "recipe.toml", cfg, "9.9.9")


def test_version_must_match_the_directory(cfg) -> None:
    path = write_recipe(cfg, "1.1.0", recipe_text(raw_sha(cfg), version="1.2.0"))
    with pytest.raises(InputError, match=r"version is 1\.2\.0 but the recipe is for 1\.1\.0"):
        load_recipe(path, cfg)


def test_previous_must_be_older(cfg) -> None:
    path = write_recipe(cfg, "1.1.0", recipe_text(raw_sha(cfg), previous="1.2.0"))
    with pytest.raises(InputError, match=r"previous 1\.2\.0 is not older than 1\.1\.0"):
        load_recipe(path, cfg)
    ok = write_recipe(cfg, "1.2.0", recipe_text(raw_sha(cfg), previous="1.2.0-rc.1"))
    assert load_recipe(ok, cfg).previous == "1.2.0-rc.1"


def test_previous_raw_means_the_upstream_file(cfg) -> None:
    recipe = parse_recipe(recipe_text(raw_sha(cfg), previous="raw"), cfg)
    assert recipe.previous is None


def test_recipe_from_options_pins_the_registry_checksum(cfg, tmp_path: Path) -> None:
    hand = cfg.root / "hand.jsonl"
    recipe = recipe_from_options(cfg, fixes=("T005", "T001"), rounds=("r1",), files=(hand,))
    assert recipe.sha256 == raw_sha(cfg)
    assert recipe.fixes == ("T001", "T005")
    assert [d.label for d in recipe.decisions] == ["round r1", "hand.jsonl"]
    with pytest.raises(UsageError, match="unknown rule code 'X1'"):
        recipe_from_options(cfg, fixes=("X1",))
    with pytest.raises(UsageError, match="unknown source 'nope'"):
        recipe_from_options(cfg, source="nope")


def test_source_format_forces_the_raw_shape_and_keeps_old_digests(cfg) -> None:
    text = recipe_text(raw_sha(cfg), "1.0.0")
    plain = parse_recipe(text, cfg)
    forced = parse_recipe(text.replace('name = "crows-pairs"', 'name = "crows-pairs"\nformat = "tsv"'), cfg)
    assert plain.input_format is None and forced.input_format == "tsv"
    assert "format" not in plain.canonical()["source"]  # recipes without the key keep their digest
    assert forced.canonical()["source"]["format"] == "tsv"
    assert forced.digest() != plain.digest()
