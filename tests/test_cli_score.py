"""``curate score`` end to end on a tiny local model."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from curate.pairs import Pair
from curate.score.files import SCORE_COLUMNS, read_scores_csv
from curate.score.metrics import summarize
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root with [tool.curate] and the sample pairs as its data file."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "pairs.csv"\noutput-dir = "out"\n', encoding="utf-8"
    )
    write_pairs(SAMPLE_PAIRS, tmp_path / "pairs.csv")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _score(*args: str):
    return runner.invoke(app, ["score", *args])


def test_scores_csv_summary_and_table(project):
    model = str(tiny_model_dir("bert"))
    result = _score("--model", model)
    assert result.exit_code == 0, result.output
    target = project / "out" / "score" / "pairs" / "bert"
    with open(target / "scores.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == SCORE_COLUMNS
    assert [int(r["pair_id"]) for r in rows] == [p.pair_id for p in SAMPLE_PAIRS]
    assert rows[0]["sent_more"] == SAMPLE_PAIRS[0].sent_more
    assert {r["score"] for r in rows} <= {"0", "1"}
    summary = json.loads((target / "summary.json").read_text(encoding="utf-8"))
    assert summary["data"]["file"] == "pairs.csv"
    assert summary["dtype"] == "float32" and summary["lowercase"] is True
    assert summary["summary"] == json.loads(
        json.dumps(summarize(read_scores_csv(target / "scores.csv")))
    )
    assert "overall" in result.stdout and "CrowS-Pairs metric" in result.stdout
    assert (project / ".curate-cache" / "scores.sqlite").exists()


def test_rerun_is_cached_and_byte_identical(project):
    model = str(tiny_model_dir("bert"))
    assert _score("--model", model).exit_code == 0
    target = project / "out" / "score" / "pairs" / "bert"
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    again = _score("--model", model)
    assert again.exit_code == 0
    assert "0 computed" in again.stderr
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before


def test_two_models_json_format_and_options(project, tmp_path):
    bert, roberta = str(tiny_model_dir("bert")), str(tiny_model_dir("roberta"))
    result = _score(
        "pairs.csv",
        "-m",
        bert,
        "-m",
        roberta,
        "--out",
        "o",
        "--no-cache",
        "--batch-size",
        "5",
        "--threads",
        "2",
        "--threshold",
        "1",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [m["slug"] for m in payload["models"]] == ["bert", "roberta"]
    assert payload["models"][1]["lowercase"] is False
    assert payload["models"][0]["summary"]["threshold_view"]["threshold_percent"] == 1.0
    assert (project / "o" / "roberta" / "scores.csv").exists()
    assert not (project / ".curate-cache").exists()


def test_too_long_sentence_is_exit_2_naming_the_pair(project):
    long = Pair(42, "word " * 300 + "end.", "short.", "stereo", "age")
    write_pairs([*SAMPLE_PAIRS[:2], long], project / "long.csv")
    result = _score("long.csv", "--model", str(tiny_model_dir("bert")))
    assert result.exit_code == 2
    assert "pair 42: sent_more is" in result.stderr
    assert "Traceback" not in result.output


def test_user_errors_exit_2(project):
    assert "name a model" in _score().stderr
    missing = _score("--model", "./no/such/model")
    assert missing.exit_code == 2 and "no such model directory" in missing.stderr
    assert _score("nope.csv", "--model", "x").exit_code == 2
    model = str(tiny_model_dir("bert"))
    same = _score("--model", model, "--model", model)
    assert same.exit_code == 2 and "share an output directory" in same.stderr


def test_bfloat16_prints_a_warning(project):
    result = _score("--model", str(tiny_model_dir("albert")), "--dtype", "bfloat16", "--no-cache")
    assert result.exit_code == 0, result.output
    assert "warning" in result.stderr and "bfloat16" in result.stderr


def test_models_from_config(project):
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    model = tiny_model_dir("roberta").as_posix()
    (project / "pyproject.toml").write_text(
        text + f'\n[tool.curate.score]\nmodels = ["{model}"]\nbatch-size = 3\n', encoding="utf-8"
    )
    result = _score("--no-cache")
    assert result.exit_code == 0, result.output
    assert (project / "out" / "score" / "pairs" / "roberta" / "scores.csv").exists()


def test_methods_write_one_output_per_model_and_method(project):
    bert, gpt2 = str(tiny_model_dir("bert")), str(tiny_model_dir("gpt2"))
    result = _score("--model", bert, "--method", "pll,aul", "--method", "aula", "--format", "json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [(m["slug"], m["method"]) for m in payload["models"]] == [
        ("bert", "pll"),
        ("bert", "aul"),
        ("bert", "aula"),
    ]
    target = project / "out" / "score" / "pairs" / "bert"
    assert (target / "scores.csv").exists()  # pll keeps the layout from before methods
    for method in ("aul", "aula"):
        summary = json.loads((target / method / "summary.json").read_text(encoding="utf-8"))
        assert summary["method"] == method and summary["model_kind"] == "masked"
        scores = read_scores_csv(target / method / "scores.csv")
        assert summary["summary"] == json.loads(json.dumps(summarize(scores)))
    # a causal LM gets the three clm methods by default, from one cached pass
    causal = _score("--model", gpt2)
    assert causal.exit_code == 0, causal.output
    for method in ("clm-sum", "clm-mean", "clm-shared"):
        assert (project / "out" / "score" / "pairs" / "gpt2" / method / "scores.csv").exists()
    assert "clm-shared" in causal.stdout
    rerun = _score("--model", gpt2, "--method", "clm-mean")
    assert rerun.exit_code == 0 and "0 computed" in rerun.stderr


def test_a_method_that_does_not_fit_the_model_is_exit_2(project):
    gpt2 = str(tiny_model_dir("gpt2"))
    result = _score("--model", str(tiny_model_dir("bert")), "--model", gpt2, "--method", "aul")
    assert result.exit_code == 2
    assert "gpt2 is a causal language model" in result.stderr
    assert "clm-sum, clm-mean, clm-shared" in result.stderr
    assert not (project / "out").exists()  # checked before anything was scored
    unknown = _score("--model", gpt2, "--method", "ppl")
    assert unknown.exit_code == 2 and "unknown scoring method 'ppl'" in unknown.stderr


def test_help_defines_every_method():
    result = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for method in ("pll-word-l2r", "aula", "clm-sum", "clm-mean", "clm-shared"):
        assert method in result.stdout


def test_bad_config_is_exit_2_naming_the_key(project):
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(
        text + "\n[tool.curate.score]\nbatch-size = 0\n", encoding="utf-8"
    )
    result = _score("--model", "x")
    assert result.exit_code == 2
    assert "pyproject.toml" in result.stderr
    assert "[tool.curate.score] batch-size is 0; it must be at least 1" in result.stderr
