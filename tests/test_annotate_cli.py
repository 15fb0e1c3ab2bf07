"""``curate annotations`` without a server: the file-only round, rule precision over rounds and
the precision-ordered push, option errors and timeouts."""

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


def ui_export(tasks: list[dict], plan: dict[int, list[sc.Ann]] = sc.PLAN) -> list[dict]:
    """What Label Studio's JSON export of these tasks looks like once the plan is annotated."""
    users = {letter: 10 + i for i, letter in enumerate(sc.ANNOTATORS)}
    export, annotation_id = [], 0
    for task_id, task in enumerate(tasks, start=100):
        annotations = []
        for ann in plan.get(task["data"]["pair_id"], []):
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

    precision = report["rule_precision"]
    assert precision["rounds"] == ["r1"] and precision["confidence"] == 0.95
    assert sorted(precision["rules"]) == ["P001", "W001"]
    for code, expected in sc.R1_PRECISION.items():
        sc.check_precision(precision["rules"][code], expected)
    sc.check_precision(precision["any_rule"], sc.R1_ANY_RULE)
    assert precision["rules"]["P001"]["actions"] == {
        "keep": 1, "fix": 2, "drop": 2, "relabel": 2, "undecided": 3
    }  # fmt: skip
    stored = json.loads((rdir / "agreement.json").read_text())
    assert stored["rule_precision"] == precision

    result = run("tally", "--round", "r1")
    assert result.exit_code == 0, result.output
    assert "keep 1, fix 2, relabel 2, drop 2, undecided 3" in result.output
    assert "Fleiss kappa" in result.output and "0.586" in result.output
    assert "Rule precision in round(s) r1" in result.output
    # rule, flagged, decided, changed (fix/drop/relabel), precision, interval
    assert table_row(result.output, "P001") == [
        "P001", "10", "7", "6", "0.857", "[0.487, 0.974]"
    ]  # fmt: skip
    assert table_row(result.output, "W001") == ["W001", "1", "1", "1", "1.000", "[0.207, 1.000]"]
    assert "undecided" in result.output.split("Agreement")[0].split("undecided 3", 1)[1]

    # --summary: the counts, agreement and precision, without a row per pair
    short = run("tally", "--round", "r1", "--summary")
    assert short.exit_code == 0, short.output
    before_agreement = short.output.split("Agreement")[0]
    assert "keep 1, fix 2, relabel 2, drop 2, undecided 3" in before_agreement
    assert "undecided" not in before_agreement.split("undecided 3", 1)[1]
    assert "Fleiss kappa" in short.output and table_row(short.output, "W001")


def annotate_round(root: Path, name: str, plan: dict[int, list[sc.Ann]], *push: str) -> None:
    """Push round ``name`` to a file, annotate it by ``plan``, pull the export and tally it."""
    result = run("push", "--round", name, "--to-file", *push)
    assert result.exit_code == 0, result.output
    tasks = json.loads((root / "annotations" / "rounds" / name / "tasks.json").read_text())
    export = root / f"export-{name}.json"
    export.write_text(json.dumps(ui_export(tasks, plan)), encoding="utf-8")
    run("pull", "--round", name, "--from", str(export))
    result = run("tally", "--round", name)
    assert result.exit_code == 0, result.output


def table_row(output: str, first: str) -> list[str]:
    """The cells of the text table row starting with ``first``."""
    line = next(line for line in output.splitlines() if line.strip("│ ").startswith(first))
    return [cell.strip() for cell in line.strip().strip("│").split("│")]


def test_precision_of_earlier_rounds_orders_the_next_push(root: Path) -> None:
    annotate_round(root, "r1", sc.PLAN)
    write_findings(root / "r2.jsonl", sc.FINDINGS_R2)

    # Without a limit every flagged pair is pushed, in the order of r1's rule precision.
    result = run("push", "--round", "r2", "--to-file", "--findings", "r2.jsonl", "--order", "precision")
    assert result.exit_code == 0, result.output
    assert "by rule precision in round(s) r1" in result.output
    assert "P001 0.86 [0.49, 0.97]; T002 unmeasured; W001 1.00 [0.21, 1.00]" in result.output
    tasks = json.loads((root / "annotations" / "rounds" / "r2" / "tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in tasks] == [*sc.R2_ORDER_PRECISION, 0]

    # With a budget of four pairs: the same order, cut after four.
    args = ("--findings", "r2.jsonl", "--limit", "4")
    (root / "annotations" / "rounds" / "r2" / "tasks.json").unlink()
    annotate_round(root, "r2", sc.PLAN_R2, *args, "--order", "precision")
    rdir = root / "annotations" / "rounds" / "r2"
    tasks = json.loads((rdir / "tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in tasks] == sc.R2_ORDER_PRECISION
    decisions = [json.loads(line) for line in (rdir / "decisions.jsonl").read_text().splitlines()]
    sc.check_decisions(decisions, sc.EXPECTED_R2)

    # The pair-id order with the same budget picks other pairs; pushing again adds nothing.
    for _ in range(2):
        result = run("push", "--round", "by-id", "--to-file", *args)
        assert result.exit_code == 0, result.output
        assert "5 flagged pair(s), the first 4 of the order selected" in result.output
    tasks = json.loads((root / "annotations" / "rounds" / "by-id" / "tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in tasks] == sc.R2_ORDER_ID

    # Both rounds pooled: one outcome per pair, the last round that decided it wins.
    result = run("report", "--round", "r1", "--round", "r2", "--format", "json")
    assert result.exit_code == 0, result.output
    pooled = json.loads(result.output)
    assert pooled["rounds"] == ["r1", "r2"] and sorted(pooled["rules"]) == ["P001", "W001"]
    for code, expected in sc.POOLED_R1_R2.items():
        sc.check_precision(pooled["rules"][code], expected)
    result = run("report", "--round", "r2", "--round", "r1", "--format", "json")
    sc.check_precision(json.loads(result.output)["rules"]["P001"], sc.POOLED_R2_R1_P001)

    result = run("report", "--round", "r1", "--round", "r2")
    assert result.exit_code == 0, result.output
    assert table_row(result.output, "P001") == [
        "P001", "10", "9", "8", "0.889", "[0.565, 0.980]"
    ]  # fmt: skip
    assert table_row(result.output, "W001") == ["W001", "2", "2", "2", "1.000", "[0.342, 1.000]"]
    assert table_row(result.output, "any rule") == [
        "any rule", "10", "9", "8", "0.889", "[0.565, 0.980]"
    ]  # fmt: skip


def test_precision_order_needs_a_tallied_round(root: Path) -> None:
    result = run("push", "--round", "r1", "--to-file", "--order", "precision")
    assert result.exit_code == 2, result.output
    assert "--order precision needs a tallied earlier round" in " ".join(result.output.split())
    result = run("push", "--round", "r1", "--to-file", "--prior-round", "r0")
    assert result.exit_code == 2
    assert "--prior-round only applies with --order precision" in result.output
    result = run("push", "--round", "r2", "--to-file", "--order", "precision", "--prior-round", "r1")
    assert result.exit_code == 2
    assert "run `curate annotations pull --round r1` and `tally` first" in " ".join(
        result.output.split()
    )


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
        (["report", "--round", "r1"], None, None, "run `curate annotations pull --round r1`"),
        (["report", "--round", "r1", "--round", "r1"], None, None, "a round is named twice"),
        (["push", "--round", "r1", "--limit", "0"], None, None, "--limit"),
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


def test_report_on_a_snapshot_without_rule_codes(root: Path) -> None:
    """A snapshot pulled before curate kept the rule codes measures no rule, and says so."""
    annotate_round(root, "r1", sc.PLAN)
    path = root / "annotations" / "rounds" / "r1" / "annotations.json"
    snapshot = json.loads(path.read_text())
    for task in snapshot["tasks"]:
        del task["finding_codes"]
    path.write_text(json.dumps(snapshot), encoding="utf-8")
    result = run("report", "--round", "r1")
    assert result.exit_code == 0, result.output
    assert "no pair of these rounds records a rule code" in " ".join(result.output.split())
