"""The benchmark registry: every listed benchmark is complete, formats have one owner, and
detection finds each benchmark's files from their content."""

from __future__ import annotations

from pathlib import Path

from curate import benchmarks
from curate.formats import read_dataset
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
