"""The benchmark registry: every listed benchmark is complete, formats have one owner, and
detection finds each benchmark's files from their content."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import benchmarks
from curate.cli import app
from curate.datasets import read_dataset
from curate.pairs import Pair
from tests.support.stereoset_data import write_stereoset


def test_registry_lists_crows_pairs_and_stereoset() -> None:
    found = benchmarks.all_benchmarks()
    assert list(found)[:2] == ["crows-pairs", "stereoset"]
    assert [b.name for b in found.values() if b.fallback] == ["crows-pairs"]
    assert benchmarks.for_format("hf-parquet").name == "crows-pairs"
    assert benchmarks.for_format("stereoset").name == "stereoset"


def test_every_column_table_maps_columns_to_pair_fields() -> None:
    fields = set(Pair.__dataclass_fields__)
    for benchmark in benchmarks.all_benchmarks().values():
        assert {c.field for c in benchmark.columns} <= fields, benchmark.name
        names = [c.name for c in benchmark.columns]
        assert len(names) == len(set(names)), benchmark.name


def test_detection_asks_each_benchmark(tmp_path: Path, crows_pairs_path: Path) -> None:
    stereoset = write_stereoset(tmp_path / "dev.json")
    assert benchmarks.detect(stereoset.read_bytes())[0].name == "stereoset"
    assert benchmarks.detect(crows_pairs_path.read_bytes()) == (benchmarks.get("crows-pairs"), "csv")
    assert read_dataset(stereoset).benchmark == "stereoset"
    assert read_dataset(crows_pairs_path).benchmark == "crows-pairs"
    # a JSON-lines record is a pair file, not a StereoSet document
    assert benchmarks.detect(b'{"sent_more": "a", "data": 1}\n')[0].name == "crows-pairs"


def test_fetch_a_benchmark_gets_its_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`curate fetch stereoset` fetches the sources its benchmark declares (from the mirror)."""
    mirror = os.environ.get("CURATE_DATA_MIRROR")
    if not mirror or not (Path(mirror) / "stereoset_dev.json").is_file():
        pytest.skip("no data mirror with stereoset_dev.json")
    repo = Path(__file__).resolve().parents[1]
    (tmp_path / "data" / "raw").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\n")
    (tmp_path / "data/raw/sources.toml").write_text((repo / "data/raw/sources.toml").read_text())
    monkeypatch.chdir(tmp_path)
    assert benchmarks.get("stereoset").fetch_sources == ("stereoset-dev",)
    result = CliRunner().invoke(app, ["fetch", "stereoset"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "data/raw/stereoset_dev.json").is_file()
    assert "stereoset-dev" in result.stderr


def _imports(module: str) -> set[str]:
    import ast
    import importlib

    source = Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8")
    return {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
        if (node.module if isinstance(node, ast.ImportFrom) else alias.name)
    }


def test_the_record_module_imports_no_reader() -> None:
    """pairs.py is below the readers (no pairs <-> formats cycle) and names no benchmark;
    column tables are plain data: they import only the ground floor's Column type (the layers
    themselves are checked by lint-imports, tests/test_layers.py)."""
    assert not any(m.startswith(("curate.formats", "curate.benchmarks")) for m in _imports("curate.pairs"))
    for module in ("curate.benchmarks.crows_pairs.columns", "curate.benchmarks.stereoset.columns"):
        assert _imports(module) <= {"__future__", "curate.columns"}
