"""The annotation round trip against a real Label Studio server (no mocks).

findings -> push (twice: no duplicates; legacy token, then a personal access token) -> five
annotators answer (agreeing, disagreeing, partial, with corrections, a skipped task, an unknown
choice value, a malformed result) -> pull -> tally, checked pair by pair and against the
hand-computed agreement figures of tests/annotate_scenario.py; a second round pushed on a budget,
the most precise rules of the first round first. Then the file-only path (tasks
file out, the UI's JSON export in) and the errors a user meets (wrong key, server down, project
missing).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from label_studio_sdk.client import LabelStudio
from typer.testing import CliRunner, Result

from curate.annotate.labelstudio import KEY_ENV, URL_ENV
from curate.cli import app
from curate.findings import write_findings
from tests.support import annotate_scenario as sc
from tests.support.labelstudio_server import LabelStudioServer, free_port

pytest_plugins = ["tests.support.labelstudio_server"]
pytestmark = [
    pytest.mark.server,
    # The SDK's token refresh (personal access tokens) still calls pydantic's parse_obj.
    pytest.mark.filterwarnings("ignore:The `parse_obj` method is deprecated"),
]

runner = CliRunner()
XML = Path(__file__).resolve().parents[1] / "annotations" / "crows_validation.xml"


def sdk(server: LabelStudioServer, key: str | None = None) -> LabelStudio:
    return LabelStudio(
        base_url=server.url + "/",
        api_key=key or server.token,
        httpx_client=httpx.Client(timeout=60, limits=httpx.Limits(max_keepalive_connections=0)),
    )


@pytest.fixture(scope="module")
def admin(label_studio: LabelStudioServer) -> LabelStudio:
    return sdk(label_studio)


@pytest.fixture(scope="module")
def annotators(admin: LabelStudio) -> dict[str, int]:
    """Five annotators as separate users of the organisation: letter -> user id."""
    ids = {}
    for letter in sc.ANNOTATORS:
        user = admin.users.create(
            username=f"annotator-{letter.lower()}",
            email=f"annotator-{letter.lower()}@example.com",
            password=f"pw-{letter}-not-secret",
        )
        ids[letter] = int(user.id)
    return ids


@pytest.fixture(scope="module")
def personal_access_token(admin: LabelStudio) -> str:
    """A personal access token (JWT refresh token) of the admin."""
    return str(admin.tokens.create().token)


@pytest.fixture
def project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A project directory with the scenario's pairs and findings, as the working directory."""
    sc.write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def run(args: list[str], url: str | None, key: str | None) -> Result:
    """Run ``curate annotations ...``; whatever happens, the key never appears in the output."""
    result = runner.invoke(app, ["annotations", *args], env={URL_ENV: url, KEY_ENV: key})
    assert not key or key not in result.output
    assert "Traceback" not in result.output
    return result


def round_dir(root: Path, name: str) -> Path:
    return root / "annotations" / "rounds" / name


def project_tasks(client: LabelStudio, project_id: int) -> list[Any]:
    return list(client.tasks.list(project=project_id, fields="task_only", page_size=100))


def seed_plan(pair_id: int, data: dict[str, Any], users: dict[str, int]) -> list[dict[str, Any]]:
    """The scenario's annotations of one pair, as Label Studio annotation payloads."""
    return [
        {
            "result": sc.result_for(ann, data),
            "completed_by": users[ann.who],
            "was_cancelled": ann.cancelled,
        }
        for ann in sc.PLAN.get(pair_id, [])
    ]


def check_tally(root: Path, name: str, url: str | None, key: str | None) -> None:
    result = run(["tally", "--round", name], url, key)
    assert result.exit_code == 0, result.output
    assert "keep 1, fix 2, relabel 2, drop 2, undecided 3" in result.output
    decisions = [
        json.loads(line)
        for line in (round_dir(root, name) / "decisions.jsonl").read_text().splitlines()
    ]
    sc.check_decisions(decisions, sc.EXPECTED)
    assert {d["pair_id"]: d["n_annotators"] for d in decisions} == sc.N_USABLE
    assert all(d["round"] == name for d in decisions)
    pair4 = next(d for d in decisions if d["pair_id"] == 4)
    assert pair4["votes"]["corrections"] == 3 and pair4["votes"]["minimal"] == {"yes": 1, "no": 2}
    report = json.loads((round_dir(root, name) / "agreement.json").read_text())
    sc.check_agreement(report["agreement"])
    assert report["agreement"]["annotators"] == 5 and report["agreement"]["answers"] == 33

    result = run(["tally", "--round", name, "--writer-votes", "--min-annotations", "2"], url, key)
    assert result.exit_code == 0, result.output
    decisions = [
        json.loads(line)
        for line in (round_dir(root, name) / "decisions.jsonl").read_text().splitlines()
    ]
    sc.check_decisions(decisions, sc.EXPECTED_WRITER)


def check_pull_problems(snapshot: dict[str, Any], unknown_tasks: int) -> None:
    kinds = sorted(p["kind"] for p in snapshot["problems"])
    assert kinds == sorted(
        ["unknown-choice", "malformed-result"] + ["unknown-task"] * unknown_tasks
    )
    unknown = next(p for p in snapshot["problems"] if p["kind"] == "unknown-choice")
    assert unknown["pair_id"] == 7 and "'colour'" in unknown["message"]
    malformed = next(p for p in snapshot["problems"] if p["kind"] == "malformed-result")
    assert malformed["pair_id"] == 10 and "2 choices" in malformed["message"]
    assert snapshot["cancelled"] == 1
    assert len(snapshot["answers"]) == sum(sc.N_USABLE.values()) == 33
    assert [t["pair_id"] for t in snapshot["tasks"]] == sc.FLAGGED


def test_round_trip_with_the_server(
    label_studio: LabelStudioServer,
    admin: LabelStudio,
    annotators: dict[str, int],
    personal_access_token: str,
    project_root: Path,
) -> None:
    url, token = label_studio.url, label_studio.token
    rdir = round_dir(project_root, "r1")

    # First push, legacy token: creates the project and imports one task per flagged pair.
    result = run(["push", "--round", "r1"], url, token)
    assert result.exit_code == 0, result.output
    assert "imported 10 new task(s) into created project" in result.output
    info = json.loads((rdir / "round.json").read_text())
    project_id = info["project"]["id"]
    assert info["project"]["title"] == "CrowS-Pairs validation r1"
    assert [t["pair_id"] for t in info["tasks"]] == sc.FLAGGED
    pushed = json.loads((rdir / "tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in pushed] == sc.FLAGGED
    project = admin.projects.get(project_id)
    assert project.label_config.strip() == XML.read_text(encoding="utf-8").strip()
    assert project.maximum_annotations == 5

    # Someone imports other tasks by hand: one without a pair id, one about a pair of no round.
    filler = {"sentence1": "x", "sentence2": "y", "diff_html": "", "findings_html": ""}
    admin.projects.import_tasks(
        project_id, request=[{"data": filler}, {"data": {**filler, "pair_id": 99}}]
    )

    # Second push with a personal access token: nothing new, no duplicates.
    tasks_before = (rdir / "tasks.json").read_bytes()
    result = run(["push", "--round", "r1"], url, personal_access_token)
    assert result.exit_code == 0, result.output
    assert "imported 0 new task(s) into existing project" in result.output
    assert "10 already there" in result.output
    assert (rdir / "tasks.json").read_bytes() == tasks_before
    tasks = project_tasks(admin, project_id)
    pair_ids = [t.data.get("pair_id") for t in tasks]
    assert len(tasks) == 12 and sorted(p for p in pair_ids if p is not None) == [*sc.FLAGGED, 99]

    # The diff reaches the server escaped, with our <mark> tags only.
    task10 = next(t for t in tasks if t.data.get("pair_id") == 10)
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in task10.data["diff_html"]
    assert "<script>" not in task10.data["diff_html"] and "<mark>" in task10.data["diff_html"]
    assert "sent_more" not in task10.data["findings_html"]

    # Five annotators answer; the admin posts on their behalf (completed_by).
    by_pair = {t.data["pair_id"]: t for t in tasks if t.data.get("pair_id") in sc.PLAN}
    for pair_id, task in by_pair.items():
        for payload in seed_plan(pair_id, task.data, annotators):
            admin.annotations.create(id=task.id, **payload)

    # Pull: the snapshot, with every problem listed and exit code 1.
    result = run(["pull", "--round", "r1"], url, token)
    assert result.exit_code == 1, result.output
    assert "unknown-choice" in result.output and "unknown-task" in result.output
    snapshot_bytes = (rdir / "annotations.json").read_bytes()
    snapshot = json.loads(snapshot_bytes)
    check_pull_problems(snapshot, unknown_tasks=2)
    assert snapshot["source"] == f"label-studio project {project_id} 'CrowS-Pairs validation r1'"

    check_tally(project_root, "r1", url, token)

    # Deterministic: pulling and tallying again changes no byte.
    decisions_bytes = (rdir / "decisions.jsonl").read_bytes()
    assert run(["pull", "--round", "r1"], url, personal_access_token).exit_code == 1
    assert (rdir / "annotations.json").read_bytes() == snapshot_bytes
    assert (
        run(
            ["tally", "--round", "r1", "--writer-votes", "--min-annotations", "2"], None, None
        ).exit_code
        == 0
    )
    assert (rdir / "decisions.jsonl").read_bytes() == decisions_bytes

    # Round r2 on a budget of four pairs, the most precise rules of r1 first: the tasks are
    # imported in that order, so Label Studio hands them out in that order.
    assert run(["tally", "--round", "r1"], None, None).exit_code == 0
    write_findings(project_root / "r2.jsonl", sc.FINDINGS_R2)
    result = run(
        ["push", "--round", "r2", "--findings", "r2.jsonl", "--order", "precision", "--limit", "4"],
        url,
        token,
    )
    assert result.exit_code == 0, result.output
    assert "5 flagged pair(s), the first 4 of the order selected; imported 4 new task(s)" in (
        " ".join(result.output.split())
    )
    r2_project = json.loads((round_dir(project_root, "r2") / "round.json").read_text())["project"]
    r2_tasks = sorted(project_tasks(admin, r2_project["id"]), key=lambda t: t.id)
    assert [t.data["pair_id"] for t in r2_tasks] == sc.R2_ORDER_PRECISION
    with label_studio.http() as http:
        response = http.get(f"/api/projects/{r2_project['id']}/next")
    assert response.status_code == 200, response.text
    assert response.json()["data"]["pair_id"] == sc.R2_ORDER_PRECISION[0]


def test_file_only_round_trip(
    label_studio: LabelStudioServer,
    admin: LabelStudio,
    annotators: dict[str, int],
    project_root: Path,
) -> None:
    """Tasks file out (no server), answers seeded through one import, the UI's JSON export in."""
    rdir = round_dir(project_root, "files")
    result = run(["push", "--round", "files", "--to-file"], None, None)
    assert result.exit_code == 0, result.output
    tasks = json.loads((rdir / "tasks.json").read_text())
    assert [t["data"]["pair_id"] for t in tasks] == sc.FLAGGED
    assert not (rdir / "round.json").exists()

    # A person creates a project with the form and imports the file (here with the answers).
    project = admin.projects.create(title="by hand", label_config=XML.read_text(encoding="utf-8"))
    seeded = [
        {**task, "annotations": seed_plan(task["data"]["pair_id"], task["data"], annotators)}
        for task in tasks
    ]
    admin.projects.import_tasks(project.id, request=seeded)

    # ...and downloads the JSON export, as the UI's Export button does.
    with label_studio.http() as http:
        response = http.get(
            f"/api/projects/{project.id}/export",
            params={"exportType": "JSON", "download_all_tasks": "true"},
        )
    assert response.status_code == 200
    export = project_root / "export.json"
    export.write_bytes(response.content)

    result = run(["pull", "--round", "files", "--from", str(export)], None, None)
    assert result.exit_code == 1, result.output
    snapshot = json.loads((rdir / "annotations.json").read_text())
    check_pull_problems(snapshot, unknown_tasks=0)
    assert snapshot["source"] == "file export.json"

    check_tally(project_root, "files", None, None)


def test_errors_are_one_sentence_and_never_show_the_key(
    label_studio: LabelStudioServer, project_root: Path
) -> None:
    wrong = "0123456789abcdef0123456789abcdef01234567"
    result = run(["push", "--round", "r9"], label_studio.url, wrong)
    assert result.exit_code == 2
    assert "rejected the API key" in result.output and "401" in result.output
    assert wrong not in result.output and "Traceback" not in result.output

    # A personal-access-token-shaped key that is not valid is rejected the same way.
    jwt_like = "eyJhbGciOiJIUzI1NiJ9.eyJ0b2tlbl90eXBlIjoicmVmcmVzaCIsImV4cCI6NDEwMjQ0NDgwMH0.c2ln"
    result = run(["pull", "--round", "r9"], label_studio.url, jwt_like)
    assert result.exit_code == 2
    assert "rejected the API key" in result.output and jwt_like not in result.output

    down = f"http://127.0.0.1:{free_port()}"
    result = run(["pull", "--round", "r9"], down, label_studio.token)
    assert result.exit_code == 2
    assert f"cannot reach Label Studio at {down}" in result.output
    assert label_studio.token not in result.output

    result = run(["pull", "--round", "never-pushed"], label_studio.url, label_studio.token)
    assert result.exit_code == 2
    assert "no project titled 'CrowS-Pairs validation never-pushed'" in result.output

    result = run(
        ["pull", "--round", "r9", "--project-id", "9999"], label_studio.url, label_studio.token
    )
    assert result.exit_code == 2
    assert "project 9999 does not exist" in result.output
