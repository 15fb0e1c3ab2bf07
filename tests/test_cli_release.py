"""``curate revise``, ``curate publish`` and ``curate diff`` from the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from curate.cli import app
from curate.config import Config
from tests.support.release_project import (
    make_project,
    raw_sha,
    recipe_text,
    write_decisions,
    write_recipe,
)

runner = CliRunner()
VOTES = {"stereotype": {"yes": 1, "no": 4}}


@pytest.fixture
def cfg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Config]:
    cfg = make_project(tmp_path)
    write_recipe(cfg, "1.0.0-auto", recipe_text(raw_sha(cfg)))
    monkeypatch.chdir(tmp_path)
    yield cfg


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_revise_with_a_recipe(cfg: Config) -> None:
    result = run("revise", "--recipe", "data/clean/1.0.0-auto/recipe.toml")
    assert result.exit_code == 0, result.output
    assert "5 -> 5 pairs; 2 changed (2 edited" in result.stdout
    assert "T002 missing-final-punctuation: 2 fixes in 1 pairs" in result.stdout
    out_dir = cfg.root / "build" / "revised" / "1.0.0-auto"
    assert (out_dir / "crows_pairs_revised.csv").is_file()
    changes = (out_dir / "changes.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["pair_id"] for line in changes] == [1, 2]


def test_revise_with_options_and_json_summary(cfg: Config) -> None:
    write_decisions(
        cfg.root / "hand.jsonl",
        [{"pair_id": 3, "action": "drop", "reason": "not a stereotype"}],
    )
    result = run(
        "revise", "--fix", "T005,t002", "--decisions", "hand.jsonl", "-o", "out", "--format", "json"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["pairs"] == 4
    assert summary["changes"]["dropped"] == 1
    assert sorted(summary["lint"]) == ["T002", "T005"]
    assert summary["outputs"] == ["out/crows_pairs_revised.csv", "out/changes.jsonl"]
    record = json.loads((cfg.root / "out" / "changes.jsonl").read_text().splitlines()[-1])
    assert record["decisions"][0]["source"] == "hand.jsonl"
    assert record["decisions"][0]["reason"] == "not a stereotype"


def test_revise_conflict_names_both_sources(cfg: Config) -> None:
    for name, action in (("r1", "drop"), ("r2", "keep")):
        write_decisions(
            cfg.root / "annotations" / "rounds" / name / "decisions.jsonl",
            [{"pair_id": 3, "action": action, "votes": VOTES, "n_annotators": 5, "round": name}],
        )
    line = one_line_error(run("revise", "--round", "r1", "--round", "r2"))
    assert "conflicting decisions for pair 3" in line
    assert "annotations/rounds/r1/decisions.jsonl line 1 says drop" in line
    assert "annotations/rounds/r2/decisions.jsonl line 1 says keep" in line
    assert not (cfg.root / "build").exists()


def test_revise_option_errors(cfg: Config) -> None:
    line = one_line_error(
        run("revise", "--recipe", "data/clean/1.0.0-auto/recipe.toml", "--fix", "T001")
    )
    assert "either --recipe or --fix" in line
    assert "unknown rule code 'T999'" in one_line_error(run("revise", "--fix", "T999"))
    assert "no such recipe" in one_line_error(run("revise", "--recipe", "nope.toml"))


def test_publish_then_rebuild_then_refuse_a_changed_recipe(cfg: Config) -> None:
    first = run("publish", "1.0.0-auto")
    assert first.exit_code == 0, first.output
    assert "1.0.0-auto: built data/clean/1.0.0-auto/dist/" in first.stdout
    dist = cfg.root / "data" / "clean" / "1.0.0-auto" / "dist"
    before = {p.name: p.read_bytes() for p in dist.rglob("*") if p.is_file()}

    again = run("publish", "1.0.0-auto")
    assert again.exit_code == 0, again.output
    assert "already published with the same inputs" in again.stdout

    write_recipe(cfg, "1.0.0-auto", recipe_text(raw_sha(cfg), fixes=("T001",)))
    line = one_line_error(run("publish", "1.0.0-auto"))
    assert "already published with different inputs (recipe changed)" in line
    assert "immutable" in line
    assert {p.name: p.read_bytes() for p in dist.rglob("*") if p.is_file()} == before


def test_publish_json(cfg: Config) -> None:
    result = run("publish", "1.0.0-auto", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "built"
    assert data["dist"] == "data/clean/1.0.0-auto/dist"
    assert data["counts"]["pairs"] == 5
    assert "crows_pairs_revised.parquet" in data["files"]


def test_publish_errors_exit_2_and_write_nothing(cfg: Config) -> None:
    assert "semantic versioning" in one_line_error(run("publish", "1.0"))
    assert "no such recipe" in one_line_error(run("publish", "2.0.0"))
    write_recipe(cfg, "1.1.0", recipe_text("f" * 64))
    line = one_line_error(run("publish", "1.1.0"))
    assert "does not match the recipe's pinned ffff" in line
    write_recipe(cfg, "1.2.0", recipe_text(raw_sha(cfg), fixes=("T001", "W001")))
    assert "rule W001 has no safe autofix" in one_line_error(run("publish", "1.2.0"))
    for version in ("1.1.0", "1.2.0"):
        assert not (cfg.root / "data" / "clean" / version / "dist").exists()


def test_publish_with_an_explicit_raw_file(cfg: Config, tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere.csv"
    copy.write_bytes(cfg.data.read_bytes())
    cfg.data.unlink()
    assert "curate fetch crows-pairs" in one_line_error(run("publish", "1.0.0-auto"))
    result = run("publish", "1.0.0-auto", "--raw", str(copy))
    assert result.exit_code == 0, result.output


def test_diff_text_and_json(cfg: Config) -> None:
    assert run("publish", "1.0.0-auto").exit_code == 0
    text = run("diff", "raw", "1.0.0-auto")
    assert text.exit_code == 0, text.output
    assert "raw -> 1.0.0-auto: 5 -> 5 pairs; 0 added, 0 dropped, 2 edited" in text.stdout
    assert "sent_more: [-poor-]{+Poor+} people are lazy{+.+}" in text.stdout
    assert "sent_less: Young people[-  -]{+ +}can't use phones." in text.stdout

    data = json.loads(run("diff", "raw", "1.0.0-auto", "--format", "json").stdout)
    assert data["summary"]["edited"] == 2
    assert [e["pair_id"] for e in data["edited"]] == [1, 2]

    summary = run(
        "diff", "data/clean/1.0.0-auto/dist/crows_pairs_revised.parquet", "raw", "--summary"
    )
    assert summary.stdout.strip().endswith("5 -> 5 pairs; 0 added, 0 dropped, 2 edited")


def test_diff_errors(cfg: Config) -> None:
    assert "curate publish 1.0.0-auto" in one_line_error(run("diff", "raw", "1.0.0-auto"))
    assert "neither a file" in one_line_error(run("diff", "raw", "newest"))
