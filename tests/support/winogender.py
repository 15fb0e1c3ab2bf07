"""The WinoGender folder for tests: the three pinned sources, checksum-verified, in one folder
(from ``$CURATE_DATA_MIRROR``, or a verified ``curate fetch`` copy in data/raw; else skipped)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from curate import sources

REPO = Path(__file__).resolve().parents[2]
NAMES = ("winogender-templates", "winogender-sentences", "winogender-occupations")


def fetch_winogender(dest: Path) -> Path:
    """The three files in ``dest`` (created); skips the test when they cannot be had."""
    registry = sources.load_sources(REPO / "data" / "raw" / "sources.toml")
    dest.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        source = registry[name]
        if os.environ.get(sources.MIRROR_ENV):
            fetched = sources.fetch(source, dest / "fetch").path
            shutil.copyfile(fetched, dest / source.file)
            continue
        local = REPO / "data" / "raw"
        if sources.status(source, local) != "verified":
            pytest.skip(f"{name} not fetched and ${sources.MIRROR_ENV} not set")
        shutil.copyfile(local / source.relpath, dest / source.file)
    shutil.rmtree(dest / "fetch", ignore_errors=True)
    return dest
