"""``curate annotations push|pull|tally|report``: revalidate flagged pairs with people.

A round is a directory ``annotations/rounds/<round>/`` (see :mod:`curate.annotate.rounds`).
``push`` creates the round's project if needed and imports one task per flagged pair, skipping
pairs already there (optionally the pairs of the most precise rules first, up to a limit);
``pull`` stores a validated snapshot of the answers; ``tally`` applies the CrowS-Pairs
acceptance rule and writes ``decisions.jsonl`` plus an agreement report with the round's rule
precision; ``report`` pools the rule precision of several tallied rounds.

Why ``report`` is a command of its own and not only a section of ``tally``: ``tally`` decides
one round and writes that round's files, while precision over several rounds only reads
finished rounds. ``tally`` still records its own round's figures in ``agreement.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from curate.annotate.labelstudio import DEFAULT_TIMEOUT, KEY_ENV, URL_ENV
from curate.annotate.order import PushOrder
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
from curate.commands.help import HelpTyper
from curate.errors import CurateError, InputError, UsageError, user_text
from curate.terminal import print_table

if TYPE_CHECKING:
    from curate.annotate import rounds
    from curate.annotate.export import Snapshot
    from curate.annotate.precision import RulePrecision
    from curate.annotate.push import PushResult
    from curate.config import Config

annotations_app = HelpTyper(
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
    annotations_app.command("report")(report)
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
        help="The dataset the findings are about: a file in any shape (see --input-format), "
        "'raw' or a release version such as 1.0.0-auto. Default: \\[tool.curate] data.",
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
    order: PushOrder = typer.Option(
        PushOrder.id,
        "--order",
        help=(
            "Order of the pairs: by pair id, or 'precision': the pairs whose rules were most "
            "precise in earlier rounds first (Wilson lower bound, then precision; unmeasured "
            "rules last; ties by pair id)."
        ),
    ),
    limit: int | None = typer.Option(
        None,
        "--limit",
        min=1,
        help="Push only the first N flagged pairs of the order (an annotation budget).",
    ),
    prior_rounds: list[str] | None = typer.Option(
        None,
        "--prior-round",
        help=(
            "With --order precision: a tallied round to measure the rules on (repeatable; later "
            "ones win per pair). Default: every other tallied round, in name order."
        ),
    ),
    url: str | None = URL,
    api_key: str | None = API_KEY,
    timeout: float = TIMEOUT,
) -> None:
    """Push one task per flagged pair to Label Studio; pairs already in the project are skipped.

    Creates the project with the CrowS-Pairs validation form if it does not exist. Label Studio
    does not deduplicate imports, so the project's tasks are listed first and only new pair ids
    are imported: pushing twice creates no duplicates. Tasks are imported in the --order, so
    annotators get them in that order; --limit bounds this push's selection.
    """
    from curate.annotate import rounds
    from curate.annotate.labelstudio import LabelStudioClient
    from curate.annotate.push import project_title, push_round, round_tasks
    from curate.datasets import read_pairs
    from curate.fileio import read_text_utf8

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
    measured = _prior_precision(cfg, round_name, order, prior_rounds)
    tasks = round_tasks(
        files,
        findings_path,
        data_path(data, cfg),
        shuffle=not keep_order,
        measured=measured,
        limit=limit,
        input_format=input_format,
        read_pairs=read_pairs,
    )
    if measured is not None:
        _report_order(measured, tasks.current)
    config_path = rounds.label_config_path(cfg, label_config)
    rel_tasks = shown_path(files.tasks, cfg.root)
    if to_file:
        rounds.write_json(files.tasks, tasks.merged)
        err.print(
            f"round {round_name}: {_selection(tasks.flagged, len(tasks.current))}; "
            f"wrote {len(tasks.merged)} task(s) to {user_text(rel_tasks)}; in Label "
            f"Studio, create a project with the labeling config "
            f"{user_text(shown_path(config_path, cfg.root))} "
            "and import that file (imports are not deduplicated: import it once)"
        )
        return
    xml = read_text_utf8(config_path)
    title = project_title(files, title)
    with (
        LabelStudioClient(url, api_key, timeout=timeout) as client,
        err.status(f"pushing round {round_name} to {user_text(client.url)}"),
    ):
        result = push_round(
            client, files, tasks, xml, title=title, overlap=overlap, project_id=project_id
        )
    _report_push(
        result, round_name, user_text(shown_path(config_path, cfg.root)), user_text(rel_tasks)
    )


def _prior_precision(
    cfg: Config, round_name: str, order: PushOrder, prior_rounds: list[str] | None
) -> RulePrecision | None:
    """The rule precision that orders the push; None for the pair-id order."""
    from curate.annotate import rounds
    from curate.annotate.precision import measure_rounds, tallied_rounds

    if order is not PushOrder.precision:
        if prior_rounds:
            raise UsageError("--prior-round only applies with --order precision")
        return None
    names = prior_rounds or tallied_rounds(cfg, exclude=round_name)
    if not names:
        raise UsageError(
            f"--order precision needs a tallied earlier round, and "
            f"{shown_path(rounds.rounds_dir(cfg), cfg.root)} has none besides {round_name}; "
            "run `curate annotations tally` on one or pass --prior-round"
        )
    return measure_rounds(cfg, names)


def _report_order(measured: RulePrecision, selected: list[dict[str, Any]]) -> None:
    """Say which rounds ordered the push and how each rule of the selection ranked."""
    codes = sorted({c for t in selected for c in str(t["data"].get("finding_codes", "")).split()})
    ranks = []
    for code in codes:
        rule = measured.rules.get(code)
        if rule is None or rule.precision is None:
            ranks.append(f"{code} unmeasured")
        else:
            ranks.append(f"{code} {rule.precision:.2f} [{rule.low:.2f}, {rule.high:.2f}]")
    err.print(
        escape(
            f"order: by rule precision in round(s) {', '.join(measured.rounds)}: "
            + "; ".join(ranks)
        )
    )


def _selection(flagged: int, selected: int) -> str:
    if selected == flagged:
        return f"{flagged} flagged pair(s)"
    return f"{flagged} flagged pair(s), the first {selected} of the order selected"


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
        f"round {round_name}: {_selection(result.flagged, result.selected)}; imported "
        f"{result.imported} new task(s) into {state} project {project.id} "
        f"{escape(repr(project.title))}, {result.selected - result.imported} already there; "
        f"wrote {tasks_shown}"
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
    force: bool = typer.Option(
        False,
        "--force",
        help="Replace the stored snapshot even by one with fewer annotations (or none).",
    ),
) -> None:
    """Store a validated snapshot of the round's annotations in annotations/rounds/ROUND/.

    Cancelled annotations are ignored. Tasks of other rounds, unknown choice values and
    malformed or incomplete results are listed and left out; then the exit code is 1. A task
    whose round or sentences differ from the round's tasks.json is an error, and a snapshot is
    never replaced by one with fewer annotations unless --force is given.
    """
    from curate.annotate import rounds
    from curate.annotate.export import export_tasks, parse_export
    from curate.annotate.labelstudio import LabelStudioClient
    from curate.annotate.push import project_title

    cfg = config()
    files = rounds.round_files(cfg, round_name)
    if source is not None:
        export = rounds.read_json(source)
        label = f"file {source.name}"
    else:
        if project_id is None and title is None:
            project_id = rounds.read_round_info(files).get("project", {}).get("id")
        with (
            LabelStudioClient(url, api_key, timeout=timeout) as client,
            err.status(f"exporting round {round_name} from {user_text(client.url)}"),
        ):
            project = client.resolve_project(project_title(files, title), project_id)
            export = client.export(project.id)
        label = f"label-studio project {project.id} {project.title!r}"
    export_tasks(export, label)  # a file that is no JSON export at all is named first
    snapshot = parse_export(export, round_name, label, _pushed_tasks(files, cfg))
    if not force:
        refuse_worse_snapshot(files.annotations, snapshot, shown_path(files.annotations, cfg.root))
    rounds.write_json(files.annotations, snapshot.to_dict())
    annotators = len({a.annotator for a in snapshot.answers})
    err.print(
        f"round {round_name}: {len(snapshot.answers)} usable annotation(s) by {annotators} "
        f"annotator(s) on {len(snapshot.tasks)} task(s); {snapshot.cancelled} cancelled ignored; "
        f"{len(snapshot.problems)} problem(s); "
        f"wrote {user_text(shown_path(files.annotations, cfg.root))}"
    )
    for warning in snapshot.formula_corrections():
        err.print(f"[yellow]warning:[/] {user_text(warning)}")
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


def _pushed_tasks(files: rounds.RoundFiles, cfg: Config) -> list[dict[str, Any]]:
    """The round's tasks.json; a round never pushed has no answers to pull."""
    from curate.annotate import rounds

    pushed = rounds.read_round_tasks(files)
    if pushed is None:
        raise UsageError(
            f"round {files.name} was never pushed ({shown_path(files.tasks, cfg.root)} does not "
            f"exist); run `curate annotations push --round {files.name}` first"
        )
    return pushed


def refuse_worse_snapshot(path: Path, snapshot: Snapshot, shown: str) -> None:
    """Refuse to replace a stored snapshot by one with fewer usable annotations.

    An export of the wrong project, or one taken before the annotators' work was saved, would
    otherwise wipe the round's answers; the user can insist with ``--force``.
    """
    from curate.annotate import rounds
    from curate.annotate.export import Snapshot
    from curate.fileio import input_exists

    if not input_exists(path):
        return
    try:
        stored = Snapshot.from_dict(rounds.read_json(path), shown)
    except CurateError:
        return  # a damaged snapshot is no loss: the new one replaces it
    if len(snapshot.answers) < len(stored.answers):
        raise UsageError(
            f"{shown}: the export has {len(snapshot.answers)} usable annotation(s), the stored "
            f"snapshot {len(stored.answers)}; not replaced (pass --force to replace it anyway)"
        )


def _with_item_ids(decisions: list[Any], tasks: list[dict[str, Any]]) -> list[Any]:
    """The decisions with the item id of each pair whose task carried one (StereoSet items:
    the decision names the item by its own id beside the pair id derived from it)."""
    from dataclasses import replace

    items = {
        t["data"]["pair_id"]: t["data"]["item_id"]
        for t in tasks
        if isinstance(t, dict)
        and isinstance(t.get("data"), dict)
        and isinstance(t["data"].get("item_id"), str)
    }
    return [replace(d, item_id=items[d.pair_id]) if d.pair_id in items else d for d in decisions]


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
    summary_only: bool = typer.Option(
        False,
        "--summary",
        help="Print the counts, agreement and rule precision only, not the table of every "
        "pair's decision (decisions.jsonl has them all).",
    ),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Output format."),
) -> None:
    """Decide each pair by the CrowS-Pairs acceptance rule; report annotator agreement.

    Writes decisions.jsonl (keep, fix, relabel, drop, undecided) and agreement.json to
    annotations/rounds/ROUND/.
    """
    from curate.annotate import rounds
    from curate.annotate.export import Snapshot
    from curate.annotate.precision import measure, round_outcomes
    from curate.annotate.vote import VoteRule, summary, tally
    from curate.decisions import write_decisions

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
    for warning in snapshot.formula_corrections():
        err.print(f"[yellow]warning:[/] {user_text(warning)}")
    decisions = _with_item_ids(tally(snapshot, rule), rounds.read_round_tasks(files) or [])
    precision = measure(round_outcomes(snapshot, decisions), [round_name])
    report = {
        "round": round_name,
        "rule": {
            "quorum": rule.quorum,
            "writer_votes": rule.writer_votes,
            "min_annotations": rule.minimum,
        },
        "decisions": summary(decisions),
        "agreement": _agreement(snapshot.answers),
        "rule_precision": precision.to_dict(),
    }
    write_decisions(files.decisions, decisions)
    rounds.write_json(files.agreement, report)
    if fmt is ReportFormat.json:
        print_json(report)
        return
    _render_tally(report, [] if summary_only else decisions)
    _render_precision(precision)
    out.print(f"wrote {user_text(shown_path(files.decisions, cfg.root))}")


@handles_errors
def report(
    round_names: list[str] = typer.Option(
        ...,
        "--round",
        help="A tallied round (repeatable); a pair decided in several counts once, as the last.",
    ),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Output format."),
) -> None:
    """Each rule's precision as the annotators measured it over tallied rounds.

    Per rule code: pairs flagged, pairs decided (not undecided), and the share of decided
    pairs whose decision was fix, drop or relabel, with a 95% Wilson interval.
    """
    from curate.annotate.precision import measure_rounds

    measured = measure_rounds(config(), round_names)
    if fmt is ReportFormat.json:
        print_json(measured.to_dict())
        return
    _render_precision(measured)


def _fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:.1f}%" if percent else f"{value:.3f}"


def _render_tally(report: dict[str, Any], decisions: list) -> None:
    counts = report["decisions"]
    rule = report["rule"]
    writer = ", writer counts" if rule["writer_votes"] else ""
    out.print(
        f"[bold]round {report['round']}[/]: {sum(counts.values())} pair(s), quorum {rule['quorum']}{writer}: "
        + ", ".join(f"{k} {v}" for k, v in counts.items())
    )
    table = Table("pair", "action", "n", "change", "reason", title_justify="left")
    for d in decisions:  # empty with --summary
        change = ", ".join(
            f"{k}={getattr(d, k)!r}"
            for k in ("sent_more", "sent_less", "bias_type", "direction")
            if getattr(d, k)
        )
        # Sentences are data: Text() keeps rich from reading "[...]" in them as markup.
        table.add_row(
            str(d.pair_id), d.action, str(d.n_annotators), Text(change), Text(d.reason or "")
        )
    if decisions:
        print_table(table, out)
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
    print_table(table, out)


def _render_precision(measured: RulePrecision) -> None:
    """The rule precision table: one row per rule code, then the flags of any rule."""
    level = f"{100 * measured.confidence:g}%"
    table = Table(
        "rule",
        "flagged",
        "decided",
        "changed",
        "precision",
        f"{level} CI",
        title=(
            f"Rule precision in round(s) {escape(', '.join(measured.rounds))}: changed "
            f"(fix, drop or relabel) / decided, Wilson interval"
        ),
        title_justify="left",
    )
    if not measured.any_rule.flagged:
        err.print(
            "note: no pair of these rounds records a rule code (a snapshot pulled by an older "
            "curate?); pull the round again to measure rule precision"
        )
        return
    rows = [*measured.rules.items(), ("any rule", measured.any_rule)]
    for index, (code, p) in enumerate(rows):
        interval = "" if p.low is None else f"[{p.low:.3f}, {p.high:.3f}]"
        table.add_row(
            Text(code),
            str(p.flagged),
            str(p.decided),
            str(p.defective),
            _fmt(p.precision),
            interval,
            style="bold" if index == len(rows) - 1 else None,
        )
    print_table(table, out)


def _agreement(answers: Any) -> dict[str, Any]:
    """Agreement figures; statsmodels is imported here, not when the CLI starts."""
    from curate.annotate.agreement import agreement

    return agreement(answers)
