"""Internal consistency with four tiny models; its findings go into `annotations push --to-file`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pingouin
import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from curate.findings import read_findings
from tests.support.intervals import assert_intervals_hold
from tests.support.tiny_models import single_thread, tiny_model_dir

runner = CliRunner()
MODELS = {"bert": "pll", "roberta": "pll", "albert": "pll", "gpt2": "clm-sum"}


@pytest.fixture(scope="module")
def project(crows_pairs_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("consistency")
    (root / "pyproject.toml").write_text('[tool.curate]\ndata = "pairs.csv"\noutput-dir = "build"\n')
    dataset = read_dataset(crows_pairs_path)
    write_dataset(dataset.with_pairs(dataset.pairs[:48]), root / "pairs.csv")
    write_dataset(dataset.with_pairs(dataset.pairs[:40]), root / "revised.csv")
    with single_thread():
        for data in ("pairs.csv", "revised.csv"):
            for family, method in MODELS.items():
                result = runner.invoke(
                    app,
                    ["score", str(root / data), "-m", str(tiny_model_dir(family)), "--method", method,
                     "--out", str(root / "scores" / Path(data).stem), "--no-cache", "--format", "json"],
                )
                assert result.exit_code == 0, result.output
    return root


def _verdicts(root: Path, stem: str) -> pd.DataFrame:
    """Models x pairs verdicts read straight from the scores.csv files."""
    frames = {}
    for path in sorted((root / "scores" / stem).rglob("scores.csv")):
        frame = pd.read_csv(path).set_index("pair_id")
        frames[str(path.parent)] = (frame["sent_more_score"] > frame["sent_less_score"]).astype(float)
    return pd.DataFrame(frames).T


def test_consistency_matches_the_library_and_findings_round_trip(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    result = runner.invoke(
        app,
        ["instrument", "consistency", "pairs.csv", "--before", "revised.csv", "-s", "scores",
         "--item-rest-threshold", "0", "--findings", "build/i001.jsonl", "--splits", "200"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((project / "build" / "instrument" / "consistency" / "report.json").read_text())
    assert assert_intervals_hold(report)
    after = report["versions"][-1]
    assert [v["file"] for v in report["versions"]] == ["revised.csv", "pairs.csv"]
    assert len(after["subjects"]) == 4 and after["items"] == 48

    matrix = _verdicts(project, "pairs")
    expected, _ = pingouin.cronbach_alpha(data=matrix)
    overall = next(g for g in after["groups"] if g["group"] == "all")
    assert overall["alpha"]["value"] == pytest.approx(expected)

    values = matrix.to_numpy()
    flagged = []
    for j, pair_id in enumerate(matrix.columns):
        item, rest = values[:, j], values.sum(axis=1) - values[:, j]
        # at or below 0; an exactly uncorrelated pair (+-1e-17 by rounding) is at 0
        if np.ptp(item) > 0 and np.ptp(rest) > 0 and np.corrcoef(item, rest)[0, 1] <= 1e-12:
            flagged.append(int(pair_id))
    findings = read_findings(project / "build" / "i001.jsonl")
    assert flagged, "four random tiny models disagree somewhere; a pair must run against the rest"
    assert after["item_rest"]["at_or_below_threshold"] == len(flagged)
    # four tiny models at threshold 0: pure noise at their own rates flags about as many pairs, so
    # the count seldom beats chance (issue 44). Whether it does here depends on the models, and
    # the tiny BERT and ALBERT tokenizers train differently run to run (the `tokenizers` trainers
    # break ties in hash order), so the test asserts the decision, not its outcome
    chance = after["item_rest"]
    assert chance["expected_by_chance"] > 0 and 0 < chance["chance_p"] <= 1
    assert chance["beats_chance"] == (len(flagged) > chance["expected_by_chance"] and chance["chance_p"] < 0.05)
    if chance["beats_chance"]:
        assert sorted(int(f.pair_id) for f in findings) == sorted(flagged)
        assert all(f.code == "I001" for f in findings) and "not above chance" not in result.output
    else:
        assert findings == [] and "not above chance" in result.output


def test_fewer_than_three_models_is_a_clear_usage_error(project: Path, tmp_path: Path) -> None:
    lone = tmp_path / "scores"
    source = next((project / "scores" / "pairs").rglob("scores.csv")).parent
    target = lone / source.name
    target.mkdir(parents=True)
    for name in ("scores.csv", "summary.json"):
        (target / name).write_bytes((source / name).read_bytes())
    result = runner.invoke(
        app, ["instrument", "consistency", str(project / "pairs.csv"), "-s", str(lone), "-o", str(tmp_path / "r")]
    )
    assert result.exit_code == 2
    assert "needs scores of 3 or more models" in result.output and "Traceback" not in result.output
