"""``curate annotations`` without a server: the file-only round, option errors and timeouts."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from curate.annotate.labelstudio import KEY_ENV, URL_ENV
from curate.cli import app
from curate.findings import Finding, write_findings
from tests.support import annotate_scenario as sc

runner = CliRunner()
KEY = "fedcba9876543210fedcba9876543210fedcba98"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    sc.write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def run(*args: str, url: str | None = None, key: str | None = None) -> Result:
    return runner.invoke(app, ["annotations", *args], env={URL_ENV: url, KEY_ENV: key})


def ui_export(tasks: list[dict]) -> list[dict]:
    """What Label Studio's JSON export of these tasks looks like once the scenario is annotated."""
    users = {letter: 10 + i for i, letter in enumerate(sc.ANNOTATORS)}
    export, annotation_id = [], 0
    for task_id, task in enumerate(tasks, start=100):
        annotations = []
        for ann in sc.PLAN.get(task["data"]["pair_id"], []):
            annotation_id += 1
            annotations.append(
                {
                    "id": annotation_id,
                    "completed_by": users[ann.who],
                    "result": sc.result_for(ann, task["data"]),
                    "was_cancelled": ann.cancelled,
                    "ground_truth": False,
                    "lead_time": 12.5,
                }
            )
        export.append(
            {"id": task_id, "annotations": annotations, "predictions": [], "data": task["data"]}
        )
    return export


def test_file_only_round(root: Path) -> None:
    rdir = root / "annotations" / "rounds" / "r1"
    result = run("push", "--round", "r1", "--to-file")
    assert result.exit_code == 0, result.output
    assert "wrote 10 task(s) to annotations/rounds/r1/tasks.json" in result.output
    first = (rdir / "tasks.json").read_bytes()
    assert run("push", "--round", "r1", "--to-file").exit_code == 0
    assert (rdir / "tasks.json").read_bytes() == first  # deterministic

    tasks = json.loads(first)
    (root / "export.json").write_text(json.dumps(ui_export(tasks)), encoding="utf-8")
    result = run("pull", "--round", "r1", "--from", "export.json")
    assert result.exit_code == 1, result.output
    assert (
        "33 usable annotation(s) by 5 annotator(s) on 10 task(s); 1 cancelled ignored; 2 problem(s)"
        in result.output
    )
    assert "unknown-choice:" in result.output and "malformed-result:" in result.output

    result = run("tally", "--round", "r1", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["decisions"] == {"keep": 1, "fix": 2, "relabel": 2, "drop": 2, "undecided": 3}
    sc.check_agreement(report["agreement"])
    decisions = [json.loads(line) for line in (rdir / "decisions.jsonl").read_text().splitlines()]
    sc.check_decisions(decisions, sc.EXPECTED)

    result = run("tally", "--round", "r1")
    assert result.exit_code == 0, result.output
    assert "keep 1, fix 2, relabel 2, drop 2, undecided 3" in result.output
    assert "Fleiss kappa" in result.output and "0.586" in result.output


def test_push_merges_rounds_tasks(root: Path) -> None:
    write_findings(root / "few.jsonl", [Finding(1, "T1", "t", "m")])
    write_findings(root / "more.jsonl", [Finding(2, "T1", "t", "m")])
    assert run("push", "--round", "r2", "--to-file", "--findings", "few.jsonl").exit_code == 0
    assert run("push", "--round", "r2", "--to-file", "--findings", "more.jsonl").exit_code == 0
    tasks = json.loads((root / "annotations" / "rounds" / "r2" / "tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in tasks] == [1, 2]


@pytest.mark.parametrize(
    ("args", "url", "key", "message"),
    [
        (
            ["push", "--round", "r1"],
            None,
            KEY,
            "no Label Studio URL: set $LABEL_STUDIO_URL or pass --url",
        ),
        (["push", "--round", "r1"], "http://127.0.0.1:9", None, "no Label Studio API key"),
        (
            ["pull", "--round", "r1"],
            "ftp://example.org",
            KEY,
            "'ftp://example.org' is not a valid Label Studio URL",
        ),
        (["push", "--round", "../up"], None, None, "round name '../up' must be"),
        (
            ["push", "--round", "r1", "--findings", "nope.jsonl"],
            None,
            None,
            "nope.jsonl: no such file",
        ),
        (["tally", "--round", "r1"], None, None, "run `curate annotations pull --round r1` first"),
        (["pull", "--round", "r1", "--from", "nope.json"], None, None, "nope.json: no such file"),
    ],
)
def test_usage_errors(
    root: Path, args: list[str], url: str | None, key: str | None, message: str
) -> None:
    result = run(*args, url=url, key=key)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert KEY not in result.output and "Traceback" not in result.output


def test_default_findings_missing(root: Path) -> None:
    (root / "build" / "findings.jsonl").unlink()
    result = run("push", "--round", "r1", "--to-file")
    assert result.exit_code == 2 and "pass --findings FILE" in result.output


def test_not_an_export(root: Path) -> None:
    (root / "min.json").write_text('[{"id": 1, "sentence1": "a"}]', encoding="utf-8")
    result = run("pull", "--round", "r1", "--from", "min.json")
    assert result.exit_code == 2 and "JSON-MIN" in result.output


def test_timeout_is_one_sentence(root: Path) -> None:
    """A server that accepts the connection and never answers."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        result = run("pull", "--round", "r1", "--timeout", "0.5", url=url, key=KEY)
    assert result.exit_code == 2, result.output
    assert f"Label Studio at {url} did not answer within 0.5 s" in " ".join(result.output.split())
    assert KEY not in result.output
