"""``curate publish VERSION --push-to-hub REPO``: the dry run and the file set.

No hub is reachable here, so the upload itself is not exercised (the README says so); what is
tested is what a user can check before pushing: the files, their checksums, that nothing goes
to the network in a dry run, and that the token is never shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from curate.cli import app
from curate.config import Config
from curate.fileio import sha256_file
from tests.support.release_project import make_project, raw_sha, recipe_text, write_recipe

runner = CliRunner()
SECRET = "hf_curateTestTokenThatMustNeverBePrinted"


@pytest.fixture
def cfg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Config]:
    cfg = make_project(tmp_path)
    write_recipe(cfg, "1.0.0-auto", recipe_text(raw_sha(cfg)))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_TOKEN", SECRET)
    # Any request would go to a closed port and fail: a dry run must not make one.
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    yield cfg


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_dry_run_lists_every_release_file_with_its_checksum(cfg: Config) -> None:
    result = run("publish", "1.0.0-auto", "--push-to-hub", "someone/crows-pairs-revised", "--dry-run", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    dist = cfg.root / "data" / "clean" / "1.0.0-auto" / "dist"
    on_disk = sorted(str(p.relative_to(dist)) for p in dist.rglob("*") if p.is_file())
    push = report["push"]
    assert push["repo"] == "someone/crows-pairs-revised" and push["dry_run"] is True
    assert [f["path"] for f in push["files"]] == on_disk
    assert "lm_eval/utils.py" in on_disk and "crows_pairs_revised_hf.parquet" in on_disk
    for f in push["files"]:
        assert f["sha256"] == sha256_file(dist / f["path"])
        assert f["bytes"] == (dist / f["path"]).stat().st_size
    assert "commit" not in push
    assert SECRET not in result.output


def test_dry_run_text_names_the_repo_and_the_tag(cfg: Config) -> None:
    result = run("publish", "1.0.0-auto", "--push-to-hub", "someone/crows-pairs-revised", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "dry run: would upload" in result.stdout
    assert "someone/crows-pairs-revised and tag it 1.0.0-auto" in result.stdout
    assert "  lm_eval/crows_pairs_revised_1_0_0_auto.yaml  " in result.stdout
    assert SECRET not in result.output


@pytest.mark.parametrize("repo", ["no-owner", "a/b/c", "bad name/x", "../x"])
def test_a_bad_repo_id_is_a_usage_error_before_any_work(cfg: Config, repo: str) -> None:
    result = run("publish", "1.0.0-auto", "--push-to-hub", repo, "--dry-run")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "--push-to-hub" in result.stderr
    assert not (cfg.root / "data" / "clean" / "1.0.0-auto" / "dist").exists()


def test_dry_run_without_a_repo_is_a_usage_error(cfg: Config) -> None:
    result = run("publish", "1.0.0-auto", "--dry-run")
    assert result.exit_code == 2
    assert "--dry-run only applies with --push-to-hub" in result.stderr


def test_an_unreachable_hub_is_one_sentence_without_the_token(cfg: Config) -> None:
    result = run("publish", "1.0.0-auto", "--push-to-hub", "someone/crows-pairs-revised")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith("error: ") and "someone/crows-pairs-revised" in lines[-1]
    assert SECRET not in result.output
    # the release itself was built and stays valid
    assert (cfg.root / "data" / "clean" / "1.0.0-auto" / "dist" / "SHA256SUMS").is_file()
