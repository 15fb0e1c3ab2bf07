"""Benchmarks curate knows beyond CrowS-Pairs, each a package; this module asks them.

Commands stay benchmark-agnostic: they ask here for a dataset's lint profile instead of
testing its shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from curate.formats.dataset import Dataset
    from curate.lint.rule import Rule


def lint_registry(dataset: Dataset) -> dict[str, type[Rule]] | None:
    """The rules that apply to ``dataset`` by code, or None for the shared registry."""
    from curate.benchmarks import winobias

    if dataset.shape.format == winobias.FORMAT:
        return winobias.lint_registry()
    return None


def group_labels(dataset: Dataset) -> tuple[str, ...] | None:
    """The ``bias_type`` values the dataset's benchmark defines, in report order, or None for
    the CrowS-Pairs / StereoSet defaults."""
    from curate.benchmarks import winobias

    if dataset.shape.format == winobias.FORMAT:
        return winobias.SUBSETS
    return None


def is_dataset_folder(path: Path) -> bool:
    """Whether ``path`` is a directory a benchmark reads as one dataset (WinoBias's files)."""
    from curate.benchmarks import winobias

    return path.is_dir() and winobias.looks_like_winobias(path)
