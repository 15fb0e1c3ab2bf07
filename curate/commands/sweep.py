"""``curate sweep PLAN.toml``: score many models x methods x dataset versions (thin front end).

The plan is read by :mod:`curate.sweep.plan`, the jobs run by :func:`curate.sweep.run.run_sweep`
on the chosen executor; this module shows one progress display over the jobs, the table of
every column, and maps the outcome to the exit code (1 when a job failed). Nothing here imports
torch or ray until the command runs.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from curate.commands.common import (
    ResultFormat,
    config,
    err,
    handles_errors,
    literal_help,
    out,
    print_csv,
    print_json,
    score_cache_path,
)
from curate.terminal import UnitLog, print_table


class Engine(StrEnum):
    """Where the jobs run."""

    local = "local"
    ray = "ray"


def register(app: typer.Typer) -> None:
    """Add the sweep command to ``app``."""
    app.command("sweep")(sweep)


@handles_errors
def sweep(
    ctx: typer.Context,
    plan_file: Path = typer.Argument(..., help="The sweep plan (TOML): models, versions, output."),
    engine: Engine = typer.Option(
        Engine.local,
        "--engine",
        help="local: in this process, one model after another. ray: one Ray task per model "
        "(pip install 'curate[ray]').",
    ),
    address: str | None = typer.Option(
        None,
        "--address",
        help="Ray cluster to use with --engine ray: auto (the one `ray start --head` started "
        "on this machine), HOST:PORT (its GCS port, 6379 by default) or ray://HOST:PORT (its Ray "
        "Client port, 10001 by default). A cluster with token authentication (Ray's default) "
        "needs RAY_AUTH_MODE=token and its token (~/.ray/auth_token, RAY_AUTH_TOKEN or "
        "RAY_AUTH_TOKEN_PATH). Default: a local Ray started for the run.",
    ),
    num_cpus: int | None = typer.Option(
        None, "--num-cpus", min=1, help="CPUs of the local Ray started for the run (default: all)."
    ),
    connect_timeout: float = typer.Option(
        30.0,
        "--connect-timeout",
        min=0.1,
        help="Seconds to reach the cluster at --address (only with it); past them, or on a "
        "refused connection, a missing or wrong token or a version mismatch, the sweep stops "
        "with the cause (exit 2); a cluster with no node to join yet is waited for.",
    ),
    threads: int | None = typer.Option(
        None,
        "--threads",
        min=1,
        help="CPU worker threads of each model job, as curate score's --threads (default: the "
        "plan's threads, else as many as torch uses; with --engine ray, the model's num-cpus).",
    ),
    fmt: ResultFormat = typer.Option(
        ResultFormat.text,
        "--format",
        help="text: the table of every column (one record per row when it does not fit); "
        "json or csv: one row per column.",
    ),
) -> None:
    """Score every (model, method, dataset version) of a plan whose results are not cached.

    Writes the same files as curate score, one folder per version: <output>/<version>/<model>/
    for pll and <output>/<version>/<model>/<method>/ for the other methods (scores.csv,
    summary.json), and <output>/sweep.json with every column's metric and 95% interval. Every
    finished batch is stored in the score cache (the plan's cache, else the project's), so an
    interrupted sweep resumes where it stopped and a rerun computes nothing. A job that fails
    (a model that does not load, a method that does not fit it) is reported and the others go
    on; the exit code is then 1. A version of a benchmark with its own scoring route (a
    StereoSet file) is scored through that route, as curate score does (stereoset.json). With
    the plan's corpus, each model's (pseudo-)perplexity on it goes into every summary.json of
    the model and into sweep.json; curate across then compares the models across benchmarks.
    """
    import math

    from curate.errors import UsageError
    from curate.sweep.plan import load_plan

    if not math.isfinite(connect_timeout):
        # Click's min=0.1 lets nan and inf through; socket.settimeout then raises.
        raise UsageError(f"--connect-timeout must be a finite number of seconds, not {connect_timeout}")
    # Options that only the Ray engine reads are refused elsewhere, never silently ignored
    # (checked before the plan is read: a usage mistake is named whatever the plan holds).
    timeout_given = _given(ctx, "connect_timeout")
    if engine is not Engine.ray:
        for name, given in (
            ("--address", address is not None),
            ("--num-cpus", num_cpus is not None),
            ("--connect-timeout", timeout_given),
        ):
            if given:
                raise UsageError(f"{name} needs --engine ray")
    elif timeout_given and address is None:
        raise UsageError(
            "--connect-timeout needs --address: it bounds the wait for a cluster to answer, "
            "and a Ray started for the run is not one"
        )
    plan = load_plan(plan_file)
    if plan.cache is None:
        from dataclasses import replace

        plan = replace(plan, cache=score_cache_path(config(), None, False))
    from curate.sweep.run import run_sweep

    display = _Display()
    with display.progress:
        try:
            outcome = run_sweep(
                plan,
                engine=engine.value,
                address=address,
                num_cpus=num_cpus,
                connect_timeout=connect_timeout,
                threads=threads,
                on_plan=display.plan,
                on_status=display.update,
                on_notice=lambda text: err.print(escape(text), highlight=False),
            )
        except KeyboardInterrupt:
            err.print("interrupted; finished batches are cached, so a rerun resumes from there")
            raise typer.Exit(130) from None
    if fmt is ResultFormat.json:
        from curate.sweep.run import SWEEP_JSON

        print_json({"sweep": str(plan.output / SWEEP_JSON), "jobs": _json(outcome)})
    elif fmt is ResultFormat.csv:
        print_csv(_json(outcome))
    else:
        _render(outcome)
        for column in outcome.own:  # the columns of a benchmark's own route (StereoSet)
            if column["status"] == "ok":
                err.print(
                    f"{escape(column['model'])} {escape(column['method'])} on "
                    f"{escape(column['version'])} ({escape(column['benchmark'])}'s own route): "
                    f"wrote {escape(column['path'])}/{escape(column['file'])}"
                )
    own_failed = [c for c in outcome.own if c["status"] == "failed"]
    for column in own_failed:
        err.print(
            f"[red]failed:[/] {escape(column['model'])} ({escape(column['version'])}): "
            f"{escape(column['reason'])}"
        )
    if outcome.failed or own_failed:
        grouped: dict[tuple[str, str], list[str]] = {}
        for status in outcome.failed:
            job = status.job
            where = job.version if job.method == "*" else f"{job.method} on {job.version}"
            grouped.setdefault((job.model, status.reason), []).append(where)
        for (model, reason), where in grouped.items():
            err.print(
                f"[red]failed:[/] {escape(model)} ({escape(', '.join(where))}): {escape(reason)}"
            )
        raise typer.Exit(1)


sweep.__doc__ = literal_help(sweep.__doc__ or "")


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the user gave the option ``name`` (on the command line or through the
    environment), not just its default: a default is never a reason to refuse."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


class _Display:
    """One bar over the jobs: done, running, failed, skipped as cached, ETA."""

    def __init__(self) -> None:
        self.progress = Progress(
            TextColumn("[bold]sweep[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        )
        self.task = self.progress.add_task("sweep", total=None, counts="")
        self.statuses: dict[Any, str] = {}
        self.log = UnitLog(err)

    def plan(self, statuses: list[Any]) -> None:
        self.statuses = {s.job: s.status for s in statuses}
        self._refresh()
        failed = [s for s in statuses if s.status == "failed"]
        for status in failed:  # refused before running: still one line each
            self.update(status)

    def update(self, status: Any) -> None:
        self.statuses[status.job] = status.status
        self._refresh()
        job = status.job
        if status.status == "running":
            self.log.started(job)
        elif status.status in ("computed", "cached", "failed"):
            values = list(self.statuses.values())
            finished = sum(values.count(k) for k in ("computed", "cached", "failed"))
            if status.status == "failed":
                what = f"failed: {status.reason}"
            else:
                pairs = status.summary["summary"]["pairs"] if status.summary else 0
                what = f"{status.status}, {pairs} pairs, metric {_interval(status.summary)}"
            self.log.finished(
                f"{job.model} {job.method} on {job.version}: {what}",
                key=job,
                done=finished,
                total=len(values),
            )

    def _refresh(self) -> None:
        values = list(self.statuses.values())
        count = {k: values.count(k) for k in ("computed", "cached", "failed", "running")}
        finished = count["computed"] + count["cached"] + count["failed"]
        self.progress.update(
            self.task,
            total=len(values),
            completed=finished,
            counts=f"{count['computed']} done, {count['running']} running, "
            f"{count['failed']} failed, {count['cached']} cached",
        )


def _interval(summary: dict[str, Any]) -> str:
    from curate.sweep.run import wilson_interval

    inner = summary["summary"]
    interval = wilson_interval(inner["biased"], inner["pairs"])
    score = inner["metric_score"]
    if score is None or interval is None:
        return "-"
    return f"{score:.2f} [{interval[0]:.1f}, {interval[1]:.1f}]"


def _render(outcome: Any) -> None:
    table = Table(
        title="Sweep: % of pairs preferring the more stereotyping sentence (95% Wilson interval)",
        title_justify="left",
    )
    capable = any(s.summary and "capability" in s.summary for s in outcome.jobs)
    names = ["version", "model", "method", "status", "pairs", "metric [95% CI]"]
    for name in names + (["capability [95% CI]"] if capable else []):
        table.add_column(name, justify="right" if name in ("pairs",) else "left")
    for status in outcome.jobs:
        job = status.job
        pairs = str(status.summary["summary"]["pairs"]) if status.summary else ""
        metric = _interval(status.summary) if status.summary else "-"
        cells = [
            escape(job.version), escape(job.model), escape(job.method), status.status, pairs, metric
        ]
        if capable:
            cells.append(_capability((status.summary or {}).get("capability")))
        table.add_row(*cells)
    print_table(table, out)


def _capability(record: dict[str, Any] | None) -> str:
    """``perplexity 2328.14 [2083.20, 2821.51]`` (the plan's corpus), or a dash."""
    if not record or record.get("value") is None:
        return "-"
    text = f"{record['measure']} {record['value']:.2f}"
    if "low" in record:
        return text + f" [{record['low']:.2f}, {record['high']:.2f}]"
    return text + f" ({record.get('no_interval', '')})"


def _json(outcome: Any) -> list[dict[str, Any]]:
    return [
        {
            "version": s.job.version,
            "model": s.job.model,
            "method": s.job.method,
            "status": s.status,
            "computed": s.computed,
            **({"reason": s.reason} if s.reason else {}),
            **({"directory": str(s.directory)} if s.directory else {}),
        }
        for s in outcome.jobs
    ]
