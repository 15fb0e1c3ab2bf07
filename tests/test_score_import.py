"""``curate score --import``: metric.py outputs of real models read into curate's score files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset
from curate.errors import InputError
from curate.score.files import read_scores_csv
from curate.score.imported import import_scores


@pytest.fixture(scope="module")
def mk() -> Path:
    folder = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / "martinez_kremer_2023"
    if not folder.is_dir():
        pytest.skip("the Martínez & Kremer files are not in $CURATE_DATA_MIRROR")
    return folder


def test_bert_import_gives_the_metric_py_score(mk: Path, crows_pairs_path: Path, tmp_path: Path) -> None:
    published = mk / "output" / "bert" / "crows_pairs_anonymized_csv_output.csv"
    result = CliRunner().invoke(
        app,
        ["score", str(crows_pairs_path), "--import", str(published), "-m", "bert-base",
         "--out", str(tmp_path), "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    target = tmp_path / "bert-base" / "imported-metric.py"
    summary = json.loads((target / "summary.json").read_text())
    frame = pd.read_csv(published)
    # metric.py prints round(100 * biased / N, 2): the share of rows with score 1
    assert round(summary["summary"]["metric_score"], 2) == round(100 * frame["score"].mean(), 2) == 60.48
    assert summary["method"] == "imported:metric.py"
    assert summary["imported"]["published_score_disagreements"] == 0
    scores = read_scores_csv(target / "scores.csv")
    assert [s.pair_id for s in scores] == list(range(1508))
    assert [s.sent_more_score for s in scores] == frame["sent_more_score"].tolist()


def test_gpt2_lower_wins_and_subset_columns_swapped(mk: Path) -> None:
    data = read_dataset(mk / "rephrased" / "rephrased_subset_age.csv")
    published = mk / "output" / "gpt2" / "rephrased_subset_age_csv_output.csv"
    result = import_scores(published, data.pairs, data="age")
    assert result.prefer == "lower"
    frame = pd.read_csv(published)
    source = pd.read_csv(mk / "rephrased" / "rephrased_subset_age.csv")
    # independently: the model prefers the input's sent_more when that sentence has the lower number
    more_is_col_more = frame["sent_more"] == source["sent_more"]
    more_score = frame["sent_more_score"].where(more_is_col_more, frame["sent_less_score"])
    less_score = frame["sent_less_score"].where(more_is_col_more, frame["sent_more_score"])
    expected = (more_score < less_score).astype(int).tolist()
    by_id = {s.pair_id: s.score for s in result.scores}
    assert [by_id[i] for i in source["id"]] == expected
    assert result.swapped_rows == int((~more_is_col_more).sum()) == int((source["stereo_antistereo"] == 0).sum())


def test_rows_that_are_not_the_datasets_pairs_are_refused(mk: Path, crows_pairs_path: Path, tmp_path: Path) -> None:
    data = read_dataset(crows_pairs_path)
    frame = pd.read_csv(mk / "output" / "bert" / "crows_pairs_anonymized_csv_output.csv")
    frame.loc[7, "sent_less"] = "A sentence that is no pair of the file."
    bad = tmp_path / "bad.csv"
    frame.to_csv(bad)
    with pytest.raises(InputError, match=r"bad.csv: line \d+: its sentences are not a pair"):
        import_scores(bad, data.pairs, data="crows")
    short = tmp_path / "short.csv"
    frame.iloc[:10].to_csv(short)
    with pytest.raises(InputError, match="10 rows, but crows has 1508 pairs"):
        import_scores(short, data.pairs, data="crows")
    result = CliRunner().invoke(app, ["score", str(crows_pairs_path), "--import", str(short), "-m", "x"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_every_bad_row_is_described_in_one_message(mk: Path, crows_pairs_path: Path, tmp_path: Path) -> None:
    """A published file with many damaged rows is described whole (count, kinds, first lines),
    not stopped at its first bad line."""
    data = read_dataset(crows_pairs_path)
    frame = pd.read_csv(mk / "output" / "bert" / "crows_pairs_anonymized_csv_output.csv", index_col=0)
    frame.loc[[3, 9, 20, 31, 40, 52, 60], ["sent_more", "sent_less", "sent_more_score", "sent_less_score"]] = None
    frame.loc[[5, 7], "sent_less_score"] = float("nan")
    bad = tmp_path / "bad.csv"
    frame.to_csv(bad)
    with pytest.raises(InputError) as caught:
        import_scores(bad, data.pairs, data="crows")
    message = str(caught.value)
    assert "9 of 1508 rows are unusable" in message
    assert "7 are empty (no sentences) (lines 5, 11, 22, 33, 42, ...)" in message
    assert "2 are sent_more_score and sent_less_score must be finite numbers (lines 7, 9)" in message
    # --skip-bad-rows goes on without them, and the summary records which were left out
    result = import_scores(bad, data.pairs, data="crows", skip_bad_rows=True)
    assert len(result.scores) == 1508 - 9
    assert sorted(line for line, _ in result.skipped) == [5, 7, 9, 11, 22, 33, 42, 54, 62]
    assert {s.pair_id for s in result.scores} == set(range(1508)) - {3, 5, 7, 9, 20, 31, 40, 52, 60}
    out = tmp_path / "out"
    cli = CliRunner().invoke(
        app, ["score", str(crows_pairs_path), "--import", str(bad), "-m", "bert", "-o", str(out),
              "--skip-bad-rows", "--format", "json"],
    )
    assert cli.exit_code == 0, cli.output
    summary = json.loads((out / "bert" / "imported-metric.py" / "summary.json").read_text())
    assert len(summary["imported"]["skipped_rows"]) == 9 and summary["imported"]["rows"] == 1499
