"""Issue 25: outputs on read-only and full file systems, symlinked output folders, leftovers.

Read-only and full targets are real: a small tmpfs mounted for the test (root in a container
may mount one); elsewhere these tests are skipped with the reason. Mode bits are not used, as
root ignores them.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.errors import OutputError
from curate.fileio import staged_output_dir, write_file_set
from tests.test_bad_input import VERSION, build_project, snapshot

runner = CliRunner()


def _mount(point: Path, options: str) -> None:
    point.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)],
        capture_output=True, text=True, check=False,
    )
    if result.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({result.stderr.strip() or 'not root'})")


def _umount(point: Path) -> None:
    subprocess.run(["umount", "-l", str(point)], capture_output=True, check=False)


@pytest.fixture
def mounts() -> Iterator[list[Path]]:
    points: list[Path] = []
    yield points
    for point in reversed(points):
        _umount(point)


def small_fs(point: Path, mounts: list[Path], size: str) -> Path:
    """A tmpfs of ``size`` at ``point`` (unmounted after the test)."""
    _mount(point, f"size={size}")
    mounts.append(point)
    return point


def read_only_fs(point: Path, mounts: list[Path]) -> Path:
    _mount(point, "size=1m,ro")
    mounts.append(point)
    return point


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    build_project(root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CURATE_DATA_MIRROR", raising=False)
    return root


def one_sentence(result, *words: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def test_explore_into_a_read_only_folder(project: Path, mounts: list[Path]) -> None:
    """Item 7: the parent of --out cannot be written: one sentence, not mkdtemp's traceback."""
    read_only_fs(project / "ro", mounts)
    one_sentence(runner.invoke(app, ["explore", "pairs.csv", "--out", "ro/site"]), "ro", "not writable")


def test_publish_into_a_read_only_version_folder(project: Path, mounts: list[Path]) -> None:
    """Item 8: data/clean/VERSION cannot be written: refused before the build, one sentence."""
    target = project / "data" / "clean" / VERSION
    recipe = (target / "recipe.toml").read_bytes()
    read_only_fs(target, mounts)  # hides the recipe: put a read-only copy of it back
    _umount(target)
    mounts.pop()
    keep = project / "keep"
    keep.mkdir()
    (keep / "recipe.toml").write_bytes(recipe)
    subprocess.run(["mount", "--bind", "-o", "ro", str(keep), str(target)], check=False)
    result = subprocess.run(["mount", "-o", "remount,ro,bind", str(target)], check=False)
    mounts.append(target)
    if result.returncode != 0:
        pytest.skip("cannot make a read-only bind mount here")
    one_sentence(runner.invoke(app, ["publish", VERSION]), str(target), "not writable")


def test_explore_on_a_full_disk_writes_nothing(project: Path, mounts: list[Path]) -> None:
    """Item 9: plotly.min.js does not fit: the disk-full sentence, nothing left in the folder."""
    disk = small_fs(project / "disk", mounts, "512k")
    one_sentence(
        runner.invoke(app, ["explore", "pairs.csv", "--out", "disk/site"]),
        "disk/site", "No space left on device",
    )
    assert os.listdir(disk) == []


def test_a_set_that_cannot_be_completed_leaves_the_old_one(project: Path, mounts: list[Path]) -> None:
    """Items 10-11: a disk that fills in the middle of a set: the old set stays whole, no
    staging is left, and the error is one OutputError sentence."""
    disk = small_fs(project / "disk", mounts, "1536k")
    out = disk / "rep"
    write_file_set(out, {"report.json": "old json\n", "report.md": "old md\n"})
    before = snapshot(disk)
    with pytest.raises(OutputError, match="No space left on device"), staged_output_dir(
        out, ("report.json", "report.md", "report.html")
    ) as staged:
        (staged / "report.json").write_text("new json\n")
        (staged / "report.html").write_bytes(b"x" * (4 << 20))
    assert snapshot(disk) == before


def test_a_symlinked_output_folder_is_followed_not_renamed(project: Path) -> None:
    """Item 12: --out LINK writes where the link points; the link stays the user's link."""
    (project / "elsewhere").mkdir()
    (project / "link").symlink_to("elsewhere")
    result = runner.invoke(app, ["explore", "pairs.csv", "--out", "link", "--no-tokens"])
    assert result.exit_code == 0, result.stderr
    assert os.readlink(project / "link") == "elsewhere"
    assert (project / "elsewhere" / "index.html").is_file()
    assert not [p for p in os.listdir(project) if p.startswith(".link")]
    result = runner.invoke(app, ["explore", "pairs.csv", "--out", "link", "--no-tokens"])
    assert result.exit_code == 0 and os.readlink(project / "link") == "elsewhere"


def _stale(path: Path, is_dir: bool) -> Path:
    if is_dir:
        path.mkdir(parents=True)
        (path / "half.html").write_text("half", encoding="utf-8")
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    return path


@pytest.mark.parametrize(
    ("args", "stale", "is_dir"),
    [
        (("explore", "pairs.csv", "--out", "build/kex", "--no-tokens"), "build/.kex.abc123.staging", True),
        (("lint", "pairs.csv", "-o", "out.jsonl", "--format", "jsonl"), ".out.jsonl.abc123.tmp", False),
        (("publish", VERSION), f"data/clean/{VERSION}/.dist-abc123.tmp", True),
    ],
)
def test_a_rerun_sweeps_what_a_killed_run_left(
    args: tuple[str, ...], stale: str, is_dir: bool, project: Path
) -> None:
    """Item 13: hidden staging of a killed run is removed by the next run (one mechanism)."""
    left = _stale(project / stale, is_dir)
    result = runner.invoke(app, list(args))
    assert result.exit_code in (0, 1), result.stderr
    assert not left.exists()


def test_diff_report_leftover_is_swept(project: Path) -> None:
    """Item 13 for diff-report's set: a stale staging folder and a stale report temp."""
    from curate.fileio import write_file_set as write

    left = _stale(project / ".rep.abc.staging", True)
    tmp = _stale(project / "rep" / ".report.json.abc.tmp", False)
    write(project / "rep", {"report.json": "{}\n"})
    assert not left.exists() and not tmp.exists()


@pytest.mark.slow
def test_score_refuses_a_read_only_out_before_scoring(project: Path, mounts: list[Path]) -> None:
    """Item 16: checked before any work: no cache entry is computed, one sentence."""
    from tests.support.tiny_models import tiny_model_dir

    read_only_fs(project / "ro", mounts)
    result = runner.invoke(
        app, ["score", "pairs.csv", "-m", str(tiny_model_dir("bert")), "-o", "ro/out"]
    )
    one_sentence(result, "ro", "not writable")
    assert not (project / ".curate-cache").exists()


@pytest.mark.slow
def test_score_cache_on_a_full_disk_says_so(project: Path, mounts: list[Path]) -> None:
    """Item 18: a full disk is not a damaged cache: no "delete it"."""
    from tests.support.tiny_models import tiny_model_dir

    small_fs(project / "disk", mounts, "48k")
    result = runner.invoke(
        app,
        ["score", "pairs.csv", "-m", str(tiny_model_dir("bert")), "--cache", "disk/c.sqlite"],
    )
    one_sentence(result, "disk/c.sqlite", "No space left on device")
    assert "delete" not in result.stderr


@pytest.mark.slow
def test_score_cache_in_a_read_only_folder(project: Path, mounts: list[Path]) -> None:
    """Item 19: the folder is not writable; no file exists, so nothing to delete."""
    from tests.support.tiny_models import tiny_model_dir

    read_only_fs(project / "ro", mounts)
    result = runner.invoke(
        app, ["score", "pairs.csv", "-m", str(tiny_model_dir("bert")), "--cache", "ro/c.sqlite"]
    )
    one_sentence(result, "ro/c.sqlite", "not writable")
    assert "delete" not in result.stderr


def test_the_current_folder_is_never_swapped(project: Path) -> None:
    """``-o .`` would rename the folder the user is in: refused, one sentence."""
    from curate.fileio import write_file_set

    with pytest.raises(OutputError, match="current folder"):
        write_file_set(Path("."), {"report.json": "{}\n"})
    with pytest.raises(OutputError, match="current folder"):
        write_file_set(project.parent, {"report.json": "{}\n"})


def test_other_files_in_an_output_folder_are_kept(project: Path) -> None:
    """A user's file beside a report survives the swap (carried over as a hard link)."""
    from curate.fileio import write_file_set

    (project / "rep").mkdir()
    (project / "rep" / "notes.txt").write_text("mine\n", encoding="utf-8")
    inode = (project / "rep" / "notes.txt").stat().st_ino
    write_file_set(project / "rep", {"report.json": "{}\n"})
    assert (project / "rep" / "notes.txt").stat().st_ino == inode
    assert (project / "rep" / "report.json").read_text() == "{}\n"
