"""The Hugging Face layout written as CSV by pandas (Martínez & Kremer 2023's parallel forms)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import format_dataset, read_dataset
from curate.errors import InputError
from curate.formats.labels import HF_BIAS_TYPES
from curate.formats.numpy_repr import (
    format_annotations,
    format_strings,
    parse_annotations,
    parse_strings,
)

HEADER = ",id,sent_more,sent_less,stereo_antistereo,bias_type,annotations,anon_writer,anon_annotators\n"
ROW = (
    '0,52,"My friend, who was only 18, passed out.","My friend, who was only 30, passed out.",'
    '0,8,"[array([8]) array([], dtype=int64) array([6])]",a13,[\'a115\' \'a13\' \'a79\']\n'
)


def _subsets() -> list[Path]:
    mirror = os.environ.get("CURATE_DATA_MIRROR")
    folder = Path(mirror or "/nonexistent") / "martinez_kremer_2023" / "rephrased"
    if not folder.is_dir():
        pytest.skip("the Martínez & Kremer files are not in $CURATE_DATA_MIRROR")
    return sorted(folder.glob("rephrased_subset_*.csv"))


def test_numpy_cells_parse_and_format_like_numpy() -> None:
    assert parse_annotations("[array([8]) array([], dtype=int64)\n array([2])]") == [[8], [], [2]]
    assert parse_strings("['a115' 'a13']") == ["a115", "a13"]
    assert format_annotations([[8], [], [2]]) == "[array([8]) array([], dtype=int64) array([2])]"
    assert format_strings(["a1", "a2"]) == "['a1' 'a2']"
    with pytest.raises(ValueError):
        parse_annotations("[array([x])]")


def test_hf_csv_detected_from_content(tmp_path: Path) -> None:
    path = tmp_path / "subset.txt"  # no telling extension
    path.write_text(HEADER + ROW, encoding="utf-8")
    dataset = read_dataset(path)
    pair = dataset.pairs[0]
    assert dataset.shape.name == "hf-csv"
    assert pair.pair_id == 52  # the `id` column is the link to the original pair
    assert (pair.direction, pair.bias_type) == ("stereo", "age")
    assert pair.annotations == (("age",), (), (HF_BIAS_TYPES[6],))
    assert pair.annotators == ("a115", "a13", "a79")
    assert format_dataset(dataset) == path.read_bytes()


def test_hf_csv_mixed_labels_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(HEADER + ROW + ROW.replace("0,52,", "1,53,").replace(",0,8,", ",stereo,8,"))
    with pytest.raises(InputError, match="line 3: stereo_antistereo"):
        read_dataset(path)


def test_upstream_written_as_hf_csv_reads_back(crows_pairs_path: Path, tmp_path: Path) -> None:
    dataset = read_dataset(crows_pairs_path)
    target = tmp_path / "hf.csv"
    target.write_bytes(format_dataset(dataset, "hf-csv"))
    again = read_dataset(target)
    assert again.shape.name == "hf-csv"
    assert [p.sent_more for p in again.pairs] == [p.sent_more for p in dataset.pairs]
    assert [p.bias_type for p in again.pairs] == [p.bias_type for p in dataset.pairs]
    assert [p.annotations for p in again.pairs] == [p.annotations for p in dataset.pairs]


def test_published_subsets_read_as_they_are() -> None:
    for path in _subsets():
        dataset = read_dataset(path)
        frame = pd.read_csv(path)
        assert dataset.shape.name == "hf-csv"
        assert len(dataset.pairs) == len(frame)
        ids = frame["id"] if "id" in frame else frame.iloc[:, 0]
        assert [p.pair_id for p in dataset.pairs] == ids.tolist()
        assert [HF_BIAS_TYPES.index(p.bias_type) for p in dataset.pairs] == frame["bias_type"].tolist()
        assert [("stereo", "antistereo").index(p.direction) for p in dataset.pairs] == frame[
            "stereo_antistereo"
        ].tolist()
        assert format_dataset(dataset) == path.read_bytes()  # numpy's wrapping reproduced


def test_stats_and_lint_read_the_subsets() -> None:
    runner = CliRunner()
    for path in _subsets()[:3]:
        result = runner.invoke(app, ["stats", str(path)])
        assert result.exit_code == 0, result.output
        assert "expected 'stereo'" not in result.output
        result = runner.invoke(app, ["lint", str(path), "--format", "json"])
        assert result.exit_code in (0, 1), result.output
