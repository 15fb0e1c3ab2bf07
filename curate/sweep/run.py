"""The driver of a sweep: plan the groups, hand them to an executor, store what comes back.

The driver is the one writer of the score cache (a cluster shares no disk): it ships each
worker the cache rows of its model, stores every batch a worker reports in its own transaction
(so an interrupted sweep keeps every finished batch and the next run resumes from there), and
writes each finished column exactly as ``curate score`` does (``<output>/<version>/<model>/``
for ``pll``, ``<output>/<version>/<model>/<method>/`` for the other methods: scores.csv and
summary.json), then ``sweep.json``: every column's status and metric with its 95% interval.

The driver never scores (but for a benchmark's own route, StereoSet's, run here after the pair
jobs), so it imports neither torch nor transformers: a model's kind comes from its config.json
(:mod:`curate.score.kinds`), the workers' results and the files from modules that need neither
(:mod:`curate.score.results`, :mod:`curate.score.outputs`). Importing them cost the driver of a
Ray sweep of tiny jobs ~7 s of CPU (issue 32); the tests check it stays so.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from curate import __version__
from curate.errors import CurateError, InputError
from curate.sweep.jobs import (
    BatchHook,
    Failed,
    Group,
    Job,
    Loaded,
    Measured,
    Rows,
    Scored,
    VersionData,
)
from curate.sweep.plan import ModelSpec, PlanError, SweepPlan

#: The file of the sweep's own summary, at the output root.
SWEEP_JSON = "sweep.json"
#: The method of a failed model whose methods could not be known (its config did not load).
ANY_METHOD = "*"


@dataclass
class JobStatus:
    """Where a job stands: pending, running, computed, cached (nothing computed) or failed."""

    job: Job
    status: str = "pending"
    reason: str = ""
    directory: Path | None = None
    summary: dict[str, Any] | None = None
    computed: int = 0


@dataclass
class SweepOutcome:
    """Every job's final status, in plan order (version, model, method)."""

    output: Path
    jobs: list[JobStatus]
    #: sweep.json entries of the columns scored by a benchmark's own route (StereoSet).
    own: list[dict[str, Any]] = field(default_factory=list)

    @property
    def failed(self) -> list[JobStatus]:
        return [j for j in self.jobs if j.status == "failed"]


StatusCallback = Callable[[JobStatus], None]


def model_settings(plan: SweepPlan, model: ModelSpec, threads: int | None) -> Any:
    """How the sweep scores ``model`` (a :class:`~curate.score.settings.ScoreSettings`): its own
    batch size, else the plan's, else the default; its device, dtype and casing; the plan's
    threshold. ``curate diff-report --sweep`` scores each model with these too, so that its
    numbers and cache rows are the sweep's."""
    from curate.score.settings import DEFAULT_BATCH_SIZE, ScoreSettings

    defaults = ScoreSettings()
    return ScoreSettings(
        batch_size=model.batch_size or plan.batch_size or DEFAULT_BATCH_SIZE,
        threads=threads,
        device=model.device,
        dtype=model.dtype,
        lowercase=model.lowercase,
        threshold=plan.threshold if plan.threshold is not None else defaults.threshold,
    )


def model_methods(model: ModelSpec) -> tuple[tuple[str, ...], dict[str, str]]:
    """The model's methods that fit it (every method of its kind when the plan names none),
    and the reason of each that does not (or of the whole model, under :data:`ANY_METHOD`,
    when its config cannot be read): the sweep's columns of ``model``, which ``curate
    diff-report --sweep`` scores too."""
    from curate.score.kinds import model_kind
    from curate.score.methods import METHODS, methods_for_model, methods_of_kind

    try:
        kind = model_kind(model.name)
    except CurateError as exc:
        return (), {ANY_METHOD: str(exc)}
    if not model.methods:
        return tuple(methods_of_kind(kind)), {}
    fit, unfit = [], {}
    for name in model.methods:
        try:
            methods_for_model([name], kind, model.name)
        except CurateError as exc:
            unfit[name] = str(exc)
            continue
        fit.append(METHODS[name].name)
    return tuple(fit), unfit


@dataclass(frozen=True)
class OwnRouteVersion:
    """A version of a benchmark with its own scoring route (StereoSet): the driver runs the
    benchmark's route per model after the pair jobs (:func:`run_own_routes`)."""

    label: str
    path: Path
    dataset: Any
    benchmark: Any


def _read_versions(
    plan: SweepPlan,
) -> tuple[
    list[tuple[VersionData, dict[str, str], Callable[[str], tuple[str, ...]] | None]],
    list[OwnRouteVersion],
    dict[str, str],
]:
    """Each pair version's pairs (what workers get), its data record and its benchmark's
    groups; the versions a benchmark scores with its own route; each version's benchmark."""
    from curate.benchmarks import benchmark_of
    from curate.datasets import read_dataset
    from curate.score.outputs import data_info

    versions = []
    own: list[OwnRouteVersion] = []
    names: dict[str, str] = {}
    for version in plan.versions:
        try:
            dataset = read_dataset(version.path, version.input_format)
        except CurateError as exc:
            raise PlanError(f"{plan.source}: version {version.label}: {exc}") from None
        benchmark = benchmark_of(dataset)
        names[version.label] = benchmark.name
        if not benchmark.scoring.pair_methods:
            if benchmark.scoring.score_file is None:
                raise PlanError(
                    f"{plan.source}: version {version.label}: {version.path} is a "
                    f"{benchmark.title} file, which has no scoring route"
                )
            own.append(OwnRouteVersion(version.label, version.path, dataset, benchmark))
            continue
        pairs = tuple(dataset.pairs)
        if not pairs:
            raise InputError(f"{version.path}: no pairs to score (the file has no rows)")
        versions.append(
            (VersionData(version.label, pairs), data_info(version.path), benchmark.scoring.groups)
        )
    return versions, own, names


def same_model(name: str) -> Callable[[str], bool]:
    """Whether a cache context's label names the model ``name``: the same text, or the same
    existing directory (``curate score -m ./bert`` run from the plan's folder)."""
    local = Path(name).expanduser()
    where = local.resolve() if local.exists() else None

    def accepts(label: str) -> bool:
        if label == name:
            return True
        if where is None or not label:
            return False
        try:
            other = Path(label).expanduser()
            return other.exists() and other.resolve() == where
        except OSError:
            return False

    return accepts


def column_directory(output: Path, job: Job) -> Path:
    """Where ``curate score`` would write the column: ``<output>/<version>/<model>[/<method>]``."""
    from curate.score.outputs import output_directory

    return output_directory(Path(output) / job.version, job.model, job.method)


def plan_groups(
    plan: SweepPlan,
    versions: list[VersionData],
    engine: str,
    corpus: Any = None,
    threads: int | None = None,
) -> tuple[list[Group], dict[Job, JobStatus], list[Job]]:
    """The group of each model with a method to run, every job's starting status (failed at
    once when its method does not fit or the model's config does not load), in plan order.

    Each job's CPU worker threads: ``threads`` (``curate sweep --threads``) when given, else
    the plan's ``threads`` with the local engine and the model's ``num-cpus`` in Ray (what
    its actor reserved)."""
    groups: list[Group] = []
    statuses: dict[Job, JobStatus] = {}
    order: list[Job] = []
    for model in plan.models:
        fit, unfit = model_methods(model)
        if threads is not None:
            model_threads: int | None = threads
        elif engine == "local":
            model_threads = plan.threads
        else:
            model_threads = max(1, int(model.num_cpus))
        for version in versions:
            for method in model.methods or fit or (ANY_METHOD,):
                job = Job(model.label, method, version.label)
                order.append(job)
                reason = unfit.get(method) or unfit.get(ANY_METHOD)
                statuses[job] = JobStatus(job, "failed" if reason else "pending", reason or "")
        if fit:
            groups.append(
                Group(
                    label=model.label,
                    name=model.name,
                    methods=fit,
                    versions=tuple(versions),
                    settings=model_settings(plan, model, model_threads),
                    num_cpus=model.num_cpus,
                    num_gpus=model.num_gpus,
                    corpus=corpus,
                )
            )
    return groups, statuses, order


def run_sweep(
    plan: SweepPlan,
    *,
    engine: str = "local",
    address: str | None = None,
    num_cpus: int | None = None,
    connect_timeout: float | None = None,
    threads: int | None = None,
    on_status: StatusCallback | None = None,
    on_plan: Callable[[list[JobStatus]], None] | None = None,
    on_notice: Callable[[str], None] | None = None,
    hook: BatchHook | None = None,
) -> SweepOutcome:
    """Run every job of ``plan`` whose numbers are not cached, write its files and sweep.json.

    ``on_plan(statuses)`` is called once with every job before any runs; ``on_status(status)``
    whenever one changes; ``on_notice(text)`` with what the connection to a Ray cluster waits
    for. ``connect_timeout``: seconds to reach a Ray cluster at ``address``
    before the run is refused with the cause (:mod:`curate.sweep.ray_connect`). ``threads``:
    CPU worker threads of every job, over the plan's (:func:`plan_groups`). ``hook`` runs in the worker after each batch (tests use it to kill a
    Ray worker). Ctrl-C (KeyboardInterrupt) propagates after the last stored batch.
    """
    from curate.score.cache import open_cache
    from curate.score.files import write_score_column, write_summary_json
    from curate.score.outputs import score_summary
    from curate.sweep.executors import make_executor

    executor = make_executor(
        engine,
        address=address,
        num_cpus=num_cpus,
        max_retries=plan.max_retries,
        connect_timeout=connect_timeout,
        notify=on_notice,
    )
    if threads is not None:  # also what a benchmark's own route (StereoSet) is scored with
        plan = replace(plan, threads=threads)
    versions, own_versions, benchmark_names = _read_versions(plan)
    corpus = _plan_corpus(plan)
    data = {v.label: info for v, info, _ in versions}
    bias_groups = {v.label: groups for v, _, groups in versions}
    groups, statuses, order = plan_groups(
        plan, [v for v, _, _ in versions], engine, corpus, threads
    )
    capabilities: dict[str, dict[str, Any]] = {}
    if on_plan is not None:
        on_plan([statuses[j] for j in order])

    def update(job: Job, **values: Any) -> None:
        status = statuses[job]
        for key, value in values.items():
            setattr(status, key, value)
        if on_status is not None:
            on_status(status)

    threshold = groups[0].settings.threshold if groups else 0.0
    with open_cache(plan.cache) as store:
        snapshots = [store.export(same_model(group.name)) for group in groups]
        with contextlib.closing(executor.events(groups, snapshots, hook)) as events:
            for index, event in events:
                group = groups[index]
                if isinstance(event, Rows):
                    store.store(store.register_context(event.fields, event.label), event.rows)
                elif isinstance(event, Loaded):
                    for job in group.jobs():
                        if statuses[job].status == "pending":
                            update(job, status="running")
                elif isinstance(event, Measured):
                    capabilities[group.label] = event.capability
                elif isinstance(event, Scored):
                    version = event.job.version
                    summary = score_summary(
                        event.result, data[version], threshold, bias_groups[version],
                        capabilities.get(group.label),
                    )
                    target = column_directory(plan.output, event.job)
                    write_score_column(event.result.scores, summary, target)
                    computed = event.result.stats.computed
                    update(
                        event.job,
                        status="computed" if computed else "cached",
                        directory=target,
                        summary=summary,
                        computed=computed,
                    )
                elif isinstance(event, Failed):
                    jobs = [event.job] if event.job is not None else group.jobs()
                    for job in jobs:
                        if statuses[job].status in ("pending", "running"):
                            update(job, status="failed", reason=event.reason)
    for status in statuses.values():
        if status.status in ("pending", "running"):
            update(status.job, status="failed", reason="the worker ended without a result")
    own_columns = run_own_routes(plan, own_versions, corpus, engine)
    versions_order = {v.label: i for i, v in enumerate(plan.versions)}
    models_order = {m.label: i for i, m in enumerate(plan.models)}
    order.sort(key=lambda j: (versions_order[j.version], models_order[j.model]))
    outcome = SweepOutcome(plan.output, [statuses[j] for j in order], own_columns)
    write_summary_json(
        sweep_document(plan, outcome, data, benchmark_names, capabilities),
        plan.output / SWEEP_JSON,
    )
    return outcome


def _plan_corpus(plan: SweepPlan) -> Any:
    """The plan's corpus (``corpus`` key), read before any model is loaded."""
    if plan.corpus is None:
        return None
    from curate.config import load_config
    from curate.release.corpora import load_corpus

    try:
        return load_corpus(plan.corpus, load_config(), base=plan.source.parent)
    except CurateError as exc:
        raise PlanError(f"{plan.source}: corpus: {exc}") from None


def _quiet_frontend(corpus: Any) -> Any:
    """What a benchmark's own route is lent in a sweep: consoles that print nothing (the sweep
    shows its own progress and writes sweep.json) and progress runners without bars."""
    import io

    from rich.console import Console

    from curate.benchmarks.spec import Frontend

    def run(work: Callable[[Any], Any], **_: Any) -> Any:
        from curate.score.run import ScoreHooks

        return work(ScoreHooks())

    silent = Console(file=io.StringIO())
    return Frontend(
        out=silent,
        err=silent,
        print_json=lambda _: None,
        print_warnings=lambda _: None,
        prepare_scoring=lambda _: None,
        run_scoring=run,
        run_comparison=run,
        corpus=corpus,
    )


def run_own_routes(
    plan: SweepPlan, versions: list[OwnRouteVersion], corpus: Any, engine: str
) -> list[dict[str, Any]]:
    """Score each own-route version (StereoSet) with each model through the benchmark's own
    ``curate score`` route, in the driver (after the pair jobs; the driver is then the one
    writer of the cache), into ``<output>/<version>/<model>/<method>/``. Returns the
    sweep.json entries of the columns written (read back from the files the route wrote)."""
    import json

    from curate.score.outputs import data_info
    from curate.score.settings import ScoreSettings

    columns: list[dict[str, Any]] = []
    for version in versions:
        target = plan.output / version.label
        for model in plan.models:
            settings = model_settings(plan, model, plan.threads).with_overrides(
                models=(model.name,), methods=ScoreSettings().methods
            )
            entry = {
                "version": version.label,
                "data": data_info(version.path),
                "model": model.label,
                "model_name": model.name,
                "benchmark": version.benchmark.name,
            }
            try:
                version.benchmark.scoring.score_file(
                    version.dataset, version.path, settings, [model.label], target,
                    plan.cache, "json", frontend=_quiet_frontend(corpus),
                )
            except CurateError as exc:
                columns.append({**entry, "method": ANY_METHOD, "status": "failed", "reason": str(exc)})
                continue
            for path in sorted(target.glob(f"{model.label}/*/*.json")):
                document = json.loads(path.read_text(encoding="utf-8"))
                columns.append(
                    {
                        **entry,
                        "method": document.get("method", path.parent.name),
                        "status": "ok",
                        "path": path.parent.relative_to(plan.output).as_posix(),
                        "file": path.name,
                        **({"capability": document["capability"]} if "capability" in document else {}),
                    }
                )
    return columns


def wilson_interval(successes: int, n: int) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a proportion, in percent (statsmodels)."""
    if not n:
        return None
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    return 100.0 * float(low), 100.0 * float(high)


def sweep_document(
    plan: SweepPlan,
    outcome: SweepOutcome,
    data: dict[str, dict[str, str]],
    benchmarks: dict[str, str] | None = None,
    capabilities: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """sweep.json: every column with its status, benchmark and metric (deterministic: no
    timings), then the columns of the benchmarks' own routes, and each model's capability on
    the plan's corpus."""
    benchmarks = benchmarks or {}
    columns = []
    names = {m.label: m.name for m in plan.models}
    for status in outcome.jobs:
        job = status.job
        entry: dict[str, Any] = {
            "version": job.version,
            "data": data.get(job.version, {}),
            "model": job.model,
            "model_name": names[job.model],
            "method": job.method,
            "status": "failed" if status.status == "failed" else "ok",
            **({"benchmark": benchmarks[job.version]} if job.version in benchmarks else {}),
        }
        if status.status == "failed":
            entry["reason"] = status.reason
        elif status.summary is not None and status.directory is not None:
            summary = status.summary["summary"]
            interval = wilson_interval(summary["biased"], summary["pairs"])
            entry.update(
                {
                    "path": status.directory.relative_to(outcome.output).as_posix(),
                    "file": "summary.json",
                    "pairs": summary["pairs"],
                    "metric_score": summary["metric_score"],
                    "ci95": list(interval) if interval else None,
                    "ties": summary["ties"],
                }
            )
        columns.append(entry)
    columns.extend(outcome.own)
    document_capabilities = dict(capabilities or {})
    for c in outcome.own:  # a model whose pair jobs did not run: its own route measured it
        if "capability" in c:
            document_capabilities.setdefault(c["model"], c["capability"])
    return {
        "tool": f"curate {__version__}",
        "plan": plan.source.name,
        # where the plan is from here, so `curate diff-report --sweep <output>` finds it
        "plan_path": Path(os.path.relpath(plan.source.resolve(), plan.output.resolve())).as_posix(),
        "columns": [{k: v for k, v in c.items() if k != "capability"} for c in columns],
        **({"corpus": plan.corpus} if plan.corpus is not None else {}),
        **({"capability": document_capabilities} if document_capabilities else {}),
        "failed": sum(1 for s in outcome.jobs if s.status == "failed")
        + sum(1 for c in outcome.own if c["status"] == "failed"),
    }
