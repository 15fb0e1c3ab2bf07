"""Hostile input to `curate instrument` and `curate score --import` (issue 36, items 2, 3, 5, 11).

Score sets are written directly (``write_score_column``, as `curate score` writes them) with
random numbers: these tests are about what the commands accept, refuse and say, not about models.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pingouin
import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from curate.score.files import write_score_column
from curate.score.metrics import PairScore
from curate.score.outputs import data_info
from tests.support.intervals import assert_intervals_hold

runner = CliRunner()


def write_column(root: Path, model: str, data: Path, seed: int, method: str = "pll") -> Path:
    """A score set of ``model`` on ``data``: random sentence scores sharing a per-pair part, so
    the models agree more than chance and alpha is defined."""
    dataset = read_dataset(data)
    shared = np.random.default_rng(0).normal(size=len(dataset.pairs))
    own = np.random.default_rng(seed).normal(size=len(dataset.pairs))
    scores = [
        PairScore(p.pair_id, p.sent_more, p.sent_less, float(-10 + s + o), -10.0, p.direction, p.bias_type)
        for p, s, o in zip(dataset.pairs, shared, own, strict=True)
    ]
    summary = {"model": model, "method": method, "data": data_info(data), "summary": {}}
    target = root / model / method
    write_score_column(scores, summary, target)
    return target


@pytest.fixture
def pairs(crows_pairs_path: Path, tmp_path: Path) -> Path:
    dataset = read_dataset(crows_pairs_path)
    path = tmp_path / "pairs.csv"
    write_dataset(dataset.with_pairs(dataset.pairs[:60]), path)
    return path


def _consistency(*args: str) -> object:
    return runner.invoke(app, ["instrument", "consistency", *args])


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1.5"])
def test_item_rest_threshold_must_be_a_correlation(pairs: Path, tmp_path: Path, value: str) -> None:
    """Item 2: `--item-rest-threshold nan` printed the tables, then failed at the write."""
    for seed, model in enumerate(("a", "b", "c")):
        write_column(tmp_path / "scores", model, pairs, seed + 1)
    result = _consistency(str(pairs), "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r"),
                          "--item-rest-threshold", value, "--splits", "20")
    assert result.exit_code == 2, result.output
    assert "--item-rest-threshold" in result.output and "Traceback" not in result.output
    assert "Internal consistency" not in result.output  # refused before any work
    assert not (tmp_path / "r").exists()


def test_a_dataset_folder_is_hashed_as_score_hashes_it(tmp_path: Path) -> None:
    """Item 3: `instrument consistency data/raw/winobias` ended in IsADirectoryError."""
    folder = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / "winobias"
    if not folder.is_dir():
        pytest.skip("WinoBias is not in $CURATE_DATA_MIRROR")
    for seed, model in enumerate(("a", "b", "c")):
        write_column(tmp_path / "scores", model, folder, seed + 1)
    result = _consistency(str(folder), "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r"),
                          "--splits", "20")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert assert_intervals_hold(report)
    assert report["versions"][0]["items"] == len(read_dataset(folder).pairs)


def test_non_finite_scores_are_dropped_and_named(pairs: Path, tmp_path: Path) -> None:
    """Item 5: `nan`/`inf` in a scores.csv moved alpha and the findings without a word."""
    columns = [write_column(tmp_path / "scores", m, pairs, s + 1) for s, m in enumerate(("a", "b", "c", "d"))]
    frame = pd.read_csv(columns[1] / "scores.csv", keep_default_na=False, dtype=str)
    damaged = [int(i) for i in frame["pair_id"].iloc[[3, 17]]]
    frame.loc[3, ["sent_more_score", "sent_more_score_full"]] = "nan"
    frame.loc[17, ["sent_less_score", "sent_less_score_full"]] = "-inf"
    frame.to_csv(columns[1] / "scores.csv", index=False)
    result = _consistency(str(pairs), "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r"),
                          "--splits", "20")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert assert_intervals_hold(report)
    (version,) = report["versions"]
    assert version["items"] == 60 - 2
    note = " ".join(report["intro"])
    assert "2 rows with non-finite scores" in note and all(str(i) in note for i in damaged)
    assert [u["pair_ids"] for u in report["unused"]] == [damaged]
    # alpha over the finite pairs only, from the files with pandas and pingouin
    verdicts = {}
    for column in columns:
        f = pd.read_csv(column / "scores.csv").set_index("pair_id")
        verdicts[column.parent.name] = (f["sent_more_score"] > f["sent_less_score"]).astype(float)
    matrix = pd.DataFrame(verdicts).drop(index=damaged).T
    expected, _ = pingouin.cronbach_alpha(data=matrix)
    overall = next(g for g in version["groups"] if g["group"] == "all")
    assert overall["alpha"]["value"] == pytest.approx(expected)


def _import(data: Path, published: Path, out: Path, label: str = "bert") -> object:
    return runner.invoke(
        app, ["score", str(data), "--import", str(published), "-m", label, "-o", str(out), "--format", "json"]
    )


def test_two_imports_under_one_label_into_one_folder_are_refused(tmp_path: Path) -> None:
    """Item 11 (and issue 30 item 2): the second import replaced the first without a word."""
    mk = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / "martinez_kremer_2023"
    if not mk.is_dir():
        pytest.skip("the Martínez & Kremer files are not in $CURATE_DATA_MIRROR")
    age, body = mk / "rephrased" / "rephrased_subset_age.csv", mk / "rephrased" / "rephrased_subset_body.csv"
    out = tmp_path / "out"
    first = _import(age, mk / "output" / "bert" / "rephrased_subset_age_csv_output.csv", out)
    assert first.exit_code == 0, first.output
    target = out / "bert" / "imported-metric.py" / "summary.json"
    before = target.read_bytes()
    second = _import(body, mk / "output" / "bert" / "rephrased_subset_body_csv_output.csv", out)
    assert second.exit_code == 2, second.output
    assert "rephrased_subset_age_csv_output.csv" in second.output
    assert "rephrased_subset_body_csv_output.csv" in second.output
    assert "Traceback" not in second.output
    assert target.read_bytes() == before
    # the same file again is a re-import, not a collision
    again = _import(age, mk / "output" / "bert" / "rephrased_subset_age_csv_output.csv", out)
    assert again.exit_code == 0, again.output


def test_a_scores_folder_that_contributes_nothing_fails(pairs: Path, tmp_path: Path, crows_pairs_path: Path) -> None:
    """Issue 30: every statistic lists the inputs it could not use, and exits non-zero when an
    input the user named contributes nothing (here a --scores folder of another data file)."""
    for seed, model in enumerate(("a", "b", "c")):
        write_column(tmp_path / "scores", model, pairs, seed + 1)
    other = tmp_path / "other.csv"
    dataset = read_dataset(crows_pairs_path)
    write_dataset(dataset.with_pairs(dataset.pairs[100:130]), other)
    write_column(tmp_path / "elsewhere", "d", other, 9)
    result = _consistency(str(pairs), "-s", str(tmp_path / "scores"), "-s", str(tmp_path / "elsewhere"),
                          "-o", str(tmp_path / "r"), "--splits", "20")
    assert result.exit_code == 1, result.output
    assert "contribute nothing" in result.output and "elsewhere" in result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert [u["input"] for u in report["unused"]] == ["elsewhere"]


@pytest.mark.parametrize("value", ["nan", "-1", "101"])
def test_min_similarity_must_be_a_similarity(pairs: Path, tmp_path: Path, value: str) -> None:
    """A CLI float such as nan is refused before any file is read (as --item-rest-threshold)."""
    result = runner.invoke(
        app, ["instrument", "reliability", str(pairs), "--original", str(pairs), "-s", str(tmp_path),
              "--min-similarity", value, "-o", str(tmp_path / "r")],
    )
    assert result.exit_code == 2 and "--min-similarity must be between 0 and 100" in result.output
    assert not (tmp_path / "r").exists()
