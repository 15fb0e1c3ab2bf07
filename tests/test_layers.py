"""The layers of curate/ (docs/architecture.md), checked by import-linter's contracts in
pyproject.toml: they hold on the tree, and they would catch an import that undoes a move."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package and its contracts, to break on purpose."""
    copy = tmp_path_factory.mktemp("layers")
    shutil.copytree(ROOT / "curate", copy / "curate", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def test_the_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "named"),
    [
        # the record at the ground importing a benchmark's column table
        ("pairs.py", "from curate.benchmarks.crows_pairs.columns import COLUMNS", "curate.pairs"),
        # a reader asking the registry
        ("formats/rows.py", "from curate.benchmarks import all_benchmarks", "curate.formats.rows"),
        # a benchmark's front end importing the CLI
        ("benchmarks/stereoset/frontend.py", "from curate.commands.common import err", "curate.commands"),
        # report importing the instrument that renders through it
        ("report/markdown.py", "from curate.instrument.quality import HEADER", "curate.instrument"),
        # a circle inside a package
        ("score/models.py", "from curate.score.passes import causal_pass", "curate.score"),
    ],
)
def test_an_import_that_undoes_a_move_breaks_a_contract(
    tree: Path, module: str, line: str, named: str
) -> None:
    path = tree / "curate" / module
    original = path.read_text()
    try:
        path.write_text(original + f"\n{line}  # noqa\n")
        result = _lint_imports(tree)
    finally:
        path.write_text(original)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert named in result.stdout
