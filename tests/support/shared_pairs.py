"""Real pairs of the shared files for rule tests: read a registered source's pairs from
``$CURATE_DATA_MIRROR`` (checksum-verified; the test is skipped without it), and lint one
pair with one rule selected, in a given language."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curate import sources
from curate.benchmarks import lint_target
from curate.datasets import read_dataset
from curate.findings import Finding
from curate.lint import LintSettings, lint_pairs
from curate.lint.profiles import apply_profile
from curate.pairs import Pair

REGISTRY = Path(__file__).resolve().parents[2] / "data" / "raw" / "sources.toml"


def registered_pairs(name: str, tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    """The pairs of source ``name``, by pair id."""
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    source = sources.load_sources(REGISTRY)[name]
    path = sources.fetch(source, tmp_path_factory.mktemp("raw")).path
    return {pair.pair_id: pair for pair in read_dataset(path).pairs}


def lint_one(language: str, code: str, pair: Pair) -> list[Finding]:
    """The findings of rule ``code`` alone on ``pair``, read as CrowS-Pairs in ``language``."""
    target = lint_target("crows-pairs", language)
    settings, _ = apply_profile(LintSettings(select=(code,)), target)
    return list(lint_pairs([pair], settings, target=target))
