"""``curate annotations push|pull|tally``: revalidate flagged pairs with people in Label Studio.

A round is a directory ``annotations/rounds/<round>/`` (see :mod:`curate.annotate.rounds`).
``push`` creates the round's project if needed and imports one task per flagged pair, skipping
pairs already there; ``pull`` stores a validated snapshot of the answers; ``tally`` applies the
CrowS-Pairs acceptance rule and writes ``decisions.jsonl`` plus an agreement report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from curate.annotate import rounds
from curate.annotate.export import Snapshot, parse_export
from curate.annotate.labelstudio import DEFAULT_TIMEOUT, KEY_ENV, URL_ENV, LabelStudioClient
from curate.annotate.push import PushResult, project_title, push_round, round_tasks
from curate.annotate.vote import VoteRule, summary, tally
from curate.commands.common import (
    INPUT_FORMAT,
    ReportFormat,
    config,
    data_path,
    dataset_format,
    err,
    handles_errors,
    out,
    print_json,
    shown_path,
)
from curate.decisions import write_decisions
from curate.errors import InputError, UsageError
from curate.pairs import read_text_utf8

annotations_app = typer.Typer(
    name="annotations",
    help=(
        "Revalidate flagged pairs with annotators in Label Studio: push tasks, pull the "
        "answers, tally decisions and agreement. Files live in annotations/rounds/ROUND/."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
)


def register(app: typer.Typer) -> None:
    """Add the ``annotations`` command group to ``app``."""
    annotations_app.command("push")(push)
    annotations_app.command("pull")(pull)
    annotations_app.command("tally")(tally_command)
    app.add_typer(annotations_app, name="annotations")


ROUND = typer.Option(
    ..., "--round", help="Round name, e.g. r1 (a directory under annotations/rounds/)."
)
URL = typer.Option(
    None,
    "--url",
    envvar=URL_ENV,
    show_envvar=True,
    help="Label Studio URL, e.g. http://localhost:8080.",
)
API_KEY = typer.Option(
    None,
    "--api-key",
    envvar=KEY_ENV,
    show_envvar=True,
    show_default=False,
    help=f"Label Studio API key (legacy token or personal access token); prefer ${KEY_ENV}.",
)
TIMEOUT = typer.Option(DEFAULT_TIMEOUT, "--timeout", help="Seconds to wait for each server reply.")
PROJECT_TITLE = typer.Option(
    None,
    "--project-title",
    help="Project title. Default: the round's, else 'CrowS-Pairs validation ROUND'.",
)
PROJECT_ID = typer.Option(
    None, "--project-id", help="Use this project id instead of finding it by title."
)


@handles_errors
def push(
    round_name: str = ROUND,
    findings_path: Path | None = typer.Option(
        None,
        "--findings",
        help="Findings (JSON lines from `curate lint --format jsonl`). Default: OUTPUT_DIR/findings.jsonl.",
    ),
    data: Path | None = typer.Option(
        None,
        "--data",
        help="The dataset the findings are about, in any shape (see --input-format). "
        "Default: \\[tool.curate] data.",
    ),
    input_format: str | None = INPUT_FORMAT,
    title: str | None = PROJECT_TITLE,
    project_id: int | None = PROJECT_ID,
    to_file: bool = typer.Option(
        False,
        "--to-file",
        help="Write the tasks to annotations/rounds/ROUND/tasks.json for a manual import in the UI; no server.",
    ),
    overlap: int = typer.Option(
        5, "--overlap", min=1, help="Annotators per task (the new project's maximum annotations)."
    ),
    keep_order: bool = typer.Option(
        False,
        "--keep-order",
        help="Show sent_more as sentence 1 always (default: a fixed per-pair shuffle).",
    ),
    label_config: Path | None = typer.Option(
        None, "--label-config", help="Labeling config. Default: annotations/crows_validation.xml."
    ),
    url: str | None = URL,
    api_key: str | None = API_KEY,
    timeout: float = TIMEOUT,
) -> None:
    """Push one task per flagged pair to Label Studio; pairs already in the project are skipped.

    Creates the project with the CrowS-Pairs validation form if it does not exist. Label Studio
    does not deduplicate imports, so the project's tasks are listed first and only new pair ids
    are imported: pushing twice creates no duplicates.
    """
    input_format = dataset_format(input_format)
    cfg = config()
    files = rounds.round_files(cfg, round_name)
    if findings_path is None:
        findings_path = cfg.output_dir / "findings.jsonl"
        if not findings_path.exists():
            raise InputError(
                f"{findings_path}: no such file; pass --findings FILE "
                "(the JSON lines of `curate lint --format jsonl`)"
            )
    tasks = round_tasks(
        files,
        findings_path,
        data_path(data, cfg),
        shuffle=not keep_order,
        input_format=input_format,
    )
    config_path = rounds.label_config_path(cfg, label_config)
    rel_tasks = shown_path(files.tasks, cfg.root)
    if to_file:
        rounds.write_json(files.tasks, tasks.merged)
        err.print(
            f"round {round_name}: wrote {len(tasks.merged)} task(s) to {rel_tasks}; in Label "
            f"Studio, create a project with the labeling config {shown_path(config_path, cfg.root)} "
            "and import that file (imports are not deduplicated: import it once)"
        )
        return
    xml = read_text_utf8(config_path)
    title = project_title(files, title)
    with (
        LabelStudioClient(url, api_key, timeout=timeout) as client,
        err.status(f"pushing round {round_name} to {client.url}"),
    ):
        result = push_round(
            client, files, tasks, xml, title=title, overlap=overlap, project_id=project_id
        )
    _report_push(result, round_name, shown_path(config_path, cfg.root), rel_tasks)


def _report_push(result: PushResult, round_name: str, config_shown: str, tasks_shown: str) -> None:
    project = result.project
    if result.config_differs:
        err.print(
            f"[yellow]warning:[/] project {project.id} uses another labeling config than "
            f"{config_shown}; answers are read by the form's control names",
            markup=True,
        )
    if result.duplicates:
        err.print(
            f"[yellow]warning:[/] {len(result.duplicates)} pair(s) have more than one task in "
            f"project {project.id} (imported outside curate?): pairs "
            + ", ".join(str(k) for k in list(result.duplicates)[:10]),
            markup=True,
        )
    if result.foreign:
        err.print(
            f"note: project {project.id} also has {len(result.foreign)} task(s) without a pair_id"
        )
    state = "created" if project.created else "existing"
    err.print(
        f"round {round_name}: {result.flagged} flagged pair(s); imported {result.imported} new "
        f"task(s) into {state} project {project.id} {escape(repr(project.title))}, "
        f"{result.flagged - result.imported} already there; wrote {tasks_shown}"
    )


@handles_errors
def pull(
    round_name: str = ROUND,
    source: Path | None = typer.Option(
        None, "--from", help="Read this JSON export (downloaded from the UI) instead of the server."
    ),
    title: str | None = PROJECT_TITLE,
    project_id: int | None = PROJECT_ID,
    url: str | None = URL,
    api_key: str | None = API_KEY,
    timeout: float = TIMEOUT,
) -> None:
    """Store a validated snapshot of the round's annotations in annotations/rounds/ROUND/.

    Cancelled annotations are ignored. Tasks of other rounds, unknown choice values and
    malformed or incomplete results are listed and left out; then the exit code is 1.
    """
    cfg = config()
    files = rounds.round_files(cfg, round_name)
    pushed = rounds.read_round_tasks(files)
    if source is not None:
        export = rounds.read_json(source)
        label = f"file {source.name}"
    else:
        if project_id is None and title is None:
            project_id = rounds.read_round_info(files).get("project", {}).get("id")
        with (
            LabelStudioClient(url, api_key, timeout=timeout) as client,
            err.status(f"exporting round {round_name} from {client.url}"),
        ):
            project = client.resolve_project(project_title(files, title), project_id)
            export = client.export(project.id)
        label = f"label-studio project {project.id} {project.title!r}"
    snapshot = parse_export(export, round_name, label, pushed)
    rounds.write_json(files.annotations, snapshot.to_dict())
    annotators = len({a.annotator for a in snapshot.answers})
    err.print(
        f"round {round_name}: {len(snapshot.answers)} usable annotation(s) by {annotators} "
        f"annotator(s) on {len(snapshot.tasks)} task(s); {snapshot.cancelled} cancelled ignored; "
        f"{len(snapshot.problems)} problem(s); wrote {shown_path(files.annotations, cfg.root)}"
    )
    if snapshot.not_exported:
        err.print(
            f"note: {len(snapshot.not_exported)} pushed pair(s) are not in the export "
            "(no annotations yet?); the tally leaves them undecided"
        )
    for problem in snapshot.problems:
        err.print(
            f"[yellow]{problem.kind}:[/] {escape(problem.message)}", markup=True, highlight=False
        )
    if snapshot.problems:
        raise typer.Exit(1)


@handles_errors
def tally_command(
    round_name: str = ROUND,
    quorum: int = typer.Option(3, "--quorum", help="Agreeing annotators a criterion needs."),
    writer_votes: bool = typer.Option(
        False,
        "--writer-votes/--no-writer-votes",
        help="Count the pair's writer as an implicit yes (the paper's 3-of-6 rule).",
    ),
    min_annotations: int | None = typer.Option(
        None,
        "--min-annotations",
        help="Fewer usable annotations leave a pair undecided. Default: the quorum.",
    ),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Output format."),
) -> None:
    """Decide each pair by the CrowS-Pairs acceptance rule; report annotator agreement.

    Writes decisions.jsonl (keep, fix, relabel, drop, undecided) and agreement.json to
    annotations/rounds/ROUND/.
    """
    cfg = config()
    files = rounds.round_files(cfg, round_name)
    rule = VoteRule(quorum=quorum, writer_votes=writer_votes, min_annotations=min_annotations)
    snapshot = Snapshot.from_dict(
        rounds.read_json(
            files.annotations, f"run `curate annotations pull --round {round_name}` first"
        ),
        str(files.annotations),
    )
    if snapshot.round != round_name:
        raise UsageError(
            f"{files.annotations} is the snapshot of round {snapshot.round!r}, not {round_name!r}"
        )
    decisions = tally(snapshot, rule)
    report = {
        "round": round_name,
        "rule": {
            "quorum": rule.quorum,
            "writer_votes": rule.writer_votes,
            "min_annotations": rule.minimum,
        },
        "decisions": summary(decisions),
        "agreement": _agreement(snapshot.answers),
    }
    write_decisions(files.decisions, decisions)
    rounds.write_json(files.agreement, report)
    if fmt is ReportFormat.json:
        print_json(report)
        return
    _render_tally(report, decisions, shown_path(files.decisions, cfg.root))


def _fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:.1f}%" if percent else f"{value:.3f}"


def _render_tally(report: dict[str, Any], decisions: list, written: str) -> None:
    counts = report["decisions"]
    rule = report["rule"]
    writer = ", writer counts" if rule["writer_votes"] else ""
    out.print(
        f"[bold]round {report['round']}[/]: {sum(counts.values())} pair(s), quorum {rule['quorum']}{writer}: "
        + ", ".join(f"{k} {v}" for k, v in counts.items())
    )
    table = Table("pair", "action", "n", "change", "reason", title_justify="left")
    for d in decisions:
        change = ", ".join(
            f"{k}={getattr(d, k)!r}"
            for k in ("sent_more", "sent_less", "bias_type", "direction")
            if getattr(d, k)
        )
        # Sentences are data: Text() keeps rich from reading "[...]" in them as markup.
        table.add_row(
            str(d.pair_id), d.action, str(d.n_annotators), Text(change), Text(d.reason or "")
        )
    out.print(table)
    agree = report["agreement"]
    table = Table(
        "question",
        "pairs",
        "% agree",
        "Fleiss kappa",
        "kappa on",
        "Krippendorff alpha",
        title=f"Agreement ({agree['answers']} answers by {agree['annotators']} annotators)",
        title_justify="left",
    )
    for question, q in agree["questions"].items():
        table.add_row(
            question,
            str(q["items"]),
            _fmt(q["percent_agreement"], True),
            _fmt(q["fleiss_kappa"]),
            f"{q['fleiss_items']} x {q['fleiss_raters']}" if q["fleiss_items"] else "",
            _fmt(q["krippendorff_alpha"]),
        )
    overall = agree["overall"]
    table.add_row(
        "overall",
        str(overall["items"]),
        _fmt(overall["percent_agreement"], True),
        "",
        "",
        _fmt(overall["krippendorff_alpha"]),
        style="bold",
    )
    out.print(table)
    out.print(f"wrote {written}")


def _agreement(answers: Any) -> dict[str, Any]:
    """Agreement figures; statsmodels is imported here, not when the CLI starts."""
    from curate.annotate.agreement import agreement

    return agreement(answers)
