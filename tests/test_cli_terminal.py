"""Terminal output in a pipe or a log stays true (issue 31, items 4 and 5).

``curate score`` and ``curate diff-report`` run as a user runs them in a pipe (a subprocess whose
stdout is a pipe, COLUMNS=80), with two tiny models in folders of the same name told apart by
``-m PATH=LABEL``: both full labels and every number of the table must be in the output. A sweep
whose stderr goes to a file writes one line per job.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from curate.datasets import write_pairs
from tests.support.tiny_models import SAMPLE_PAIRS, build_tiny_model, training_corpus

ROOT = Path(__file__).resolve().parents[1]
LABELS = ("bert-checkpoint-step-001000-seed-a", "bert-checkpoint-step-002000-seed-b")
RAW = SAMPLE_PAIRS[:6]
REVISED = (RAW[0], RAW[1].with_changes(sent_more="The poor are so very ignorant."), *RAW[3:])


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with two model folders named ``bert`` (different seeds) in ``a/`` and ``b/``."""
    root = tmp_path_factory.mktemp("terminal")
    (root / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "pairs.csv"\noutput-dir = "out"\n', encoding="utf-8"
    )
    write_pairs(RAW, root / "pairs.csv")
    write_pairs(REVISED, root / "after.csv")
    for seed, parent in enumerate(("a", "b")):
        build_tiny_model("bert", root / parent / "bert", training_corpus(), seed=seed)
    return root


def _curate(project: Path, *args: str, stderr: object = subprocess.PIPE):
    env = {
        **os.environ,
        "COLUMNS": "80",
        "PYTHONPATH": str(ROOT),
        "OMP_NUM_THREADS": "1",
        "TERM": "dumb",
    }
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "curate", *args],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        timeout=600,
        check=False,
    )


def _models() -> list[str]:
    return ["-m", f"a/bert={LABELS[0]}", "-m", f"b/bert={LABELS[1]}"]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def test_score_in_a_pipe_keeps_both_labels_and_every_number(project: Path) -> None:
    result = _curate(project, "score", *_models(), "--method", "pll,aul", "--no-cache")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "…" not in text
    for label in LABELS:
        assert label in text
        for method in ("pll", "aul"):
            folder = project / "out" / "score" / "pairs" / label
            summary = json.loads(
                ((folder if method == "pll" else folder / method) / "summary.json").read_text()
            )["summary"]
            numbers = [summary["metric_score"], *(r["score"] for r in summary["bias_types"])]
            numbers += [summary["directions"][d]["score"] for d in ("stereo", "antistereo")]
            for number in numbers:
                assert _pct(number) in text, (label, method, number)
            confidence = summary["confidence"]["all"]["mean"]
            shown = f"{confidence:.3e}" if 0 < abs(confidence) < 0.0001 else f"{confidence:.4f}"
            assert shown in text
    # the two folders named bert did not share an output directory
    assert (project / "out" / "score" / "pairs" / LABELS[0] / "summary.json").is_file()
    # one line per finished (model, method) on stderr, which is not a terminal
    assert sum(f"{label} pll: " in result.stderr for label in LABELS) == 2


def test_score_csv_has_one_row_per_model_method_and_row(project: Path) -> None:
    result = _curate(project, "score", *_models(), "--format", "csv", "--no-cache")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "model,method,row,n,score"
    assert {line.split(",")[0] for line in lines[1:]} == set(LABELS)


def test_two_models_named_alike_without_labels_are_refused_with_the_way_out(
    project: Path,
) -> None:
    result = _curate(project, "score", "-m", "a/bert", "-m", "b/bert", "--no-cache")
    assert result.returncode == 2
    assert "-m PATH=LABEL" in result.stderr and "Traceback" not in result.stderr


def test_diff_report_in_a_pipe_keeps_both_labels_and_every_number(project: Path) -> None:
    out = project / "diff"
    result = _curate(
        project, "diff-report", "pairs.csv", "after.csv", *_models(), "--method", "pll",
        "--bootstrap", "100", "-o", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [m["model_label"] for m in data["models"]] == list(LABELS)
    text = result.stdout
    assert "…" not in text
    assert "every column scored with pll" in text  # one method: said once (issue 47)
    for m in data["models"]:
        assert m["model_label"] in text
        overall = m["delta"]["overall"]
        for number in (m["before"]["metric_score"], m["after"]["metric_score"]):
            assert _pct(number) in text
        assert f"{overall['delta']:+.2f}" in text
        assert f"{m['mcnemar']['p_value']:.3g}" in text
    # stderr is a pipe: a line as each (column, version) finished
    for label in LABELS:
        assert f"{label} · pll on pairs.csv:" in result.stderr
        assert f"{label} · pll on after.csv:" in result.stderr

    as_json = _curate(
        project, "diff-report", "pairs.csv", "after.csv", *_models(), "--method", "pll",
        "--bootstrap", "100", "-o", str(out), "--format", "json",
    )  # fmt: skip
    rows = json.loads(as_json.stdout)
    assert [r["label"] for r in rows] == [m["label"] for m in data["models"]]
    assert rows[0]["after"] == data["models"][0]["after"]["metric_score"]


def test_a_sweep_with_stderr_to_a_file_writes_one_line_per_job(project: Path) -> None:
    plan = project / "plan.toml"
    plan.write_text(
        'output = "sweep"\n'
        f'[[model]]\nname = "a/bert"\nlabel = "{LABELS[0]}"\nmethods = ["pll", "aul"]\n'
        f'[[model]]\nname = "b/bert"\nlabel = "{LABELS[1]}"\nmethods = ["pll"]\n'
        '[[version]]\nlabel = "raw"\ndata = "pairs.csv"\n'
        '[[version]]\nlabel = "after"\ndata = "after.csv"\n',
        encoding="utf-8",
    )
    log = project / "sweep.log"
    with log.open("w", encoding="utf-8") as handle:
        result = _curate(project, "sweep", str(plan), stderr=handle)
    assert result.returncode == 0, log.read_text(encoding="utf-8")
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    jobs = [line for line in lines if line.startswith("[")]
    assert len(jobs) == 6, lines  # (2 methods + 1 method) x 2 versions
    assert [line.split("]")[0] for line in jobs] == [f"[{i}/6" for i in range(1, 7)]
    assert all("elapsed" in line and "pairs" in line for line in jobs)
    summary = json.loads((project / "sweep" / "raw" / LABELS[0] / "summary.json").read_text())
    assert ".." not in summary["model"]

    # diff-report reads the sweep's root: each model gets the methods it was scored with
    out = project / "from-sweep"
    report = _curate(project, "diff-report", "--sweep", "sweep", "--bootstrap", "100", "-o", str(out))
    assert report.returncode == 0, report.stderr
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [m["label"] for m in data["models"]] == [
        f"{LABELS[0]} · pll", f"{LABELS[0]} · aul", f"{LABELS[1]} · pll"
    ]
    assert (data["before"]["label"], data["after"]["label"]) == ("raw", "after")
