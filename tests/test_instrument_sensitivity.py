"""Sensitivity, trained for real: a tiny GPT-2 fine-tuned on CrowS-Pairs' sent_more sentences
should prefer sent_more more and more, checkpoint by checkpoint, and the order test must see it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from tests.support.intervals import assert_intervals_hold
from tests.support.tiny_models import build_tiny_model, single_thread, training_corpus

runner = CliRunner()
STEPS, EVERY, PAIRS = 30, 6, 60


@pytest.fixture(scope="module")
def checkpoints(crows_pairs_path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path], Path]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    root = tmp_path_factory.mktemp("finetune")
    dataset = read_dataset(crows_pairs_path)
    pairs = dataset.pairs[:PAIRS]
    data = root / "pairs.csv"
    write_dataset(dataset.with_pairs(pairs), data)
    corpus = training_corpus([s for p in pairs for s in (p.sent_more, p.sent_less)])
    saved = []
    with single_thread():
        torch.manual_seed(0)
        base = build_tiny_model("gpt2", root / "base", corpus)
        tok = AutoTokenizer.from_pretrained(base)
        model = AutoModelForCausalLM.from_pretrained(base)
        tok.pad_token = tok.eos_token
        batch = tok([tok.bos_token + p.sent_more for p in pairs], return_tensors="pt", padding=True)
        labels = batch["input_ids"].masked_fill(batch["attention_mask"] == 0, -100)
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
        model.train()
        for step in range(STEPS + 1):
            if step % EVERY == 0:
                target = root / f"checkpoint-{step}"
                model.save_pretrained(target)
                tok.save_pretrained(target)
                saved.append(target)
            if step == STEPS:
                break
            loss = model(**batch, labels=labels).loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scores = root / "scores"
        models = [arg for path in saved for arg in ("-m", str(path))]
        result = runner.invoke(
            app, ["score", str(data), *models, "--method", "clm-sum", "--out", str(scores), "--no-cache",
                  "--format", "json"],
        )
    assert result.exit_code == 0, result.output
    return data, saved, scores


def _run(data: Path, scores: Path, out: Path, order: list[Path] | None = None) -> dict:
    args = ["instrument", "sensitivity", str(data), "-s", str(scores), "-o", str(out)]
    if order is not None:
        args += ["--order", ",".join(str(p) for p in order)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    assert assert_intervals_hold(report)
    return report


def test_the_order_test_finds_the_rising_score(checkpoints, tmp_path: Path) -> None:
    data, saved, scores = checkpoints
    report = _run(data, scores, tmp_path / "natural")  # natural order of the names: 0, 6, ..., 30
    overall = next(r for r in report["rows"] if r["group"] == "all")
    assert overall["order"] == [p.name for p in saved]  # labels, never this machine's paths
    summaries = {
        json.loads(p.read_text())["model"]: json.loads(p.read_text())["summary"]["metric_score"]
        for p in scores.rglob("summary.json")
    }
    assert [100 * v for v in overall["metric"]] == pytest.approx([summaries[str(p)] for p in saved])
    assert overall["metric"][-1] > overall["metric"][0]
    assert overall["test"]["value"] > 0.8
    assert overall["test"]["p"] < 0.05
    page = (tmp_path / "natural" / "report.html").read_text()
    assert "plotly" in page and '"error_y"' in page
    assert str(saved[0].parent) not in (tmp_path / "natural" / "report.json").read_text()
    # six checkpoints: an exact p, and no bootstrap interval for rho (n too small)
    assert overall["test"]["p"] >= 1 / 720 and "low" not in overall["test"]
    assert overall["test"]["no_interval"] == "n too small for an interval"
    # every checkpoint's metric has its Wilson interval, and first -> last its paired interval
    for value, ci in zip(overall["metric"], overall["metric_ci"], strict=True):
        assert ci["low"] <= value <= ci["high"] and ci["n"] == PAIRS
    change = overall["first_to_last"]
    assert change["value"] == pytest.approx(overall["metric"][-1] - overall["metric"][0])
    assert change["low"] <= change["value"] <= change["high"]


def test_shuffled_checkpoints_show_no_order(checkpoints, tmp_path: Path) -> None:
    data, saved, scores = checkpoints
    for name, order in (("reversed", saved[::-1]), ("shuffled", [saved[i] for i in (3, 0, 5, 2, 4, 1)])):
        report = _run(data, scores, tmp_path / name, order)
        overall = next(r for r in report["rows"] if r["group"] == "all")
        assert overall["test"]["p"] > 0.05, name
