"""A sweep plan's ``corpus`` key: checked with the plan, before any model is loaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from tests.support.tiny_models import SAMPLE_PAIRS

runner = CliRunner()


@pytest.mark.parametrize(
    ("corpus", "words"),
    [
        ('"missing.txt"', "no such corpus file"),
        ('"empty.txt"', "has no sentence"),
        ("3", "corpus must be a text file or a named corpus"),
    ],
)
def test_a_bad_corpus_is_one_plan_error(tmp_path: Path, monkeypatch, corpus, words):
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\n", encoding="utf-8")
    write_pairs(SAMPLE_PAIRS, tmp_path / "pairs.csv")
    (tmp_path / "empty.txt").write_text("\n", encoding="utf-8")
    (tmp_path / "plan.toml").write_text(
        f'output = "out"\ncache = "c.sqlite"\ncorpus = {corpus}\n\n'
        '[[model]]\nname = "no-such-model-dir/x"\n\n[[version]]\nlabel = "v"\ndata = "pairs.csv"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["sweep", "plan.toml"])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out" / "sweep.json").exists()
