"""Publish staging directories: stale ones are swept, a live builder's one is left alone."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from curate.release.staging import remove_stale, staging_dir


def test_unlocked_staging_is_removed_and_other_entries_kept(tmp_path: Path) -> None:
    stale = tmp_path / ".dist-killed.tmp"
    stale.mkdir()
    (stale / "crows_pairs_revised.csv").write_text("half a copy", encoding="utf-8")
    (tmp_path / "recipe.toml").write_text("kept", encoding="utf-8")
    (tmp_path / "dist").mkdir()
    assert remove_stale(tmp_path) == [stale]
    assert not stale.exists()
    assert (tmp_path / "recipe.toml").read_text() == "kept" and (tmp_path / "dist").is_dir()


def test_staging_held_by_a_live_builder_is_kept(tmp_path: Path) -> None:
    live = tmp_path / ".dist-live.tmp"
    live.mkdir()
    fd = os.open(live, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # what a concurrent publish holds while it builds
        assert remove_stale(tmp_path) == []
        assert live.is_dir()
    finally:
        os.close(fd)
    assert remove_stale(tmp_path) == [live]  # its builder is gone


def test_a_staging_dir_is_locked_from_birth_and_cleaned_up(tmp_path: Path) -> None:
    with staging_dir(tmp_path) as staged:
        assert staged.name.startswith(".dist-") and staged.name.endswith(".tmp")
        (staged / "f").write_text("x", encoding="utf-8")
        assert remove_stale(tmp_path) == []  # a sweep by another publish leaves it
        assert staged.is_dir()
    assert list(tmp_path.iterdir()) == []


def test_a_symlink_named_like_staging_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.mkdir()
    (target / "data.csv").write_text("keep", encoding="utf-8")
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / ".dist-evil.tmp").symlink_to(target)
    assert remove_stale(tmp_path / "v") == []
    assert (target / "data.csv").read_text() == "keep"
