"""The StereoSet routes of ``curate score`` and ``curate diff-report`` (thin front ends).

``curate score`` and ``curate diff-report`` dispatch here when the dataset is a StereoSet file
(its shape is detected by the reader); scoring and statistics live in
:mod:`curate.benchmarks.stereoset.run` and :mod:`curate.benchmarks.stereoset.diff`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from curate.benchmarks.spec import Frontend
from curate.formats.dataset import Dataset
from curate.score.settings import ScoreSettings
from curate.terminal import print_table


def score_stereoset_file(
    dataset: Dataset,
    path: Path,
    settings: ScoreSettings,
    slugs: Sequence[str],
    out_dir: Path,
    cache_path: Path | None,
    fmt: str,
    *,
    frontend: Frontend,
) -> None:
    """``curate score`` on a StereoSet file: LMS, SS and ICAT per model, files and a table
    (``fmt``: ``text`` or ``json``)."""
    from curate.benchmarks.stereoset.run import score_stereoset
    from curate.score.outputs import data_info

    err = frontend.err
    frontend.print_warnings(dataset)
    frontend.prepare_scoring(settings.dtype)
    outputs = frontend.run_scoring(
        lambda hooks: score_stereoset(
            dataset,
            dict(zip(slugs, settings.models, strict=True)),
            settings,
            data=data_info(path),
            out_dir=out_dir,
            cache=cache_path,
            hooks=hooks,
            corpus=frontend.corpus,
        ),
        unit="chunks",
    )
    for o in outputs:
        s = o.stats
        err.print(
            f"{escape(o.slug)} {o.method}: {s.items} items, {s.sentences:,} sentences: "
            f"{s.cache_hits:,} from the cache, {s.computed:,} computed, {s.seconds:.1f} s"
        )
        for task, route in o.document["routes"].items():
            err.print(f"{escape(o.slug)} {o.method}: {task}: {escape(route['route'])} route")
        for note in o.document["notes"]:
            err.print(f"note: {escape(note)}")
        err.print(f"{escape(o.slug)} {o.method}: wrote {escape(str(o.directory))}")
    if fmt == "json":
        frontend.print_json({"models": [{"slug": o.slug, **o.document} for o in outputs]})
        return
    render_results(outputs, path.name, frontend.out)


def render_results(outputs: Sequence[Any], source: str, out: Any) -> None:
    """One table per model: LMS, SS and ICAT per task and domain, with item counts."""
    for o in outputs:
        table = Table(
            title=f"StereoSet on {escape(source)}: {escape(o.slug)} {o.method} "
            "(LMS ideal 100, SS ideal 50, ICAT ideal 100)",
            title_justify="left",
            caption="routes: "
            + "; ".join(f"{task}: {escape(r['route'])}" for task, r in o.document["routes"].items()),
            caption_justify="left",
        )
        for column in ("task", "domain", "items", "LMS", "SS", "ICAT"):
            table.add_column(column, justify="left" if column in ("task", "domain") else "right")
        results = o.document["results"]
        for task, groups in results.items():
            if task == "overall":
                continue
            for name, group in groups.items():
                table.add_row(
                    task,
                    escape(name),
                    str(group["count"]),
                    f"{group['lms']:.2f}",
                    f"{group['ss']:.2f}",
                    f"{group['icat']:.2f}",
                    style="bold" if name == "overall" else None,
                    end_section=name == "overall",
                )
        total = results["overall"]
        table.add_row(
            "all",
            "overall",
            str(total["count"]),
            f"{total['lms']:.2f}",
            f"{total['ss']:.2f}",
            f"{total['icat']:.2f}",
            style="bold",
        )
        print_table(table, out)


def diff_report_stereoset(
    versions: list[tuple[str, Dataset]],
    models: Sequence[str],
    out_dir: Path,
    cache_path: Path | None,
    *,
    batch_size: int | None,
    device: str,
    threads: int | None,
    settings: Any,
    frontend: Frontend,
) -> None:
    """``curate diff-report`` between two StereoSet files: LMS/SS/ICAT deltas and flips."""
    from curate.benchmarks.stereoset.diff import stereoset_diff_report, write_stereoset_report
    from curate.errors import UsageError

    not_stereoset = [label for label, d in versions if d.benchmark != "stereoset"]
    if not_stereoset:
        raise UsageError(
            f"{not_stereoset[0]} is not a StereoSet file: a StereoSet file can only be compared "
            "with another StereoSet file"
        )
    err = frontend.err
    for _, dataset in versions:
        frontend.print_warnings(dataset)
    data, runs = frontend.run_comparison(
        lambda display: stereoset_diff_report(
            versions,
            models,
            cache=cache_path,
            batch_size=batch_size or 32,
            device=device,
            threads=threads,
            settings=settings,
            progress=display.report,
            on_loading=display.loading,
        ),
        unit="sentences",
        cached="chunks",
    )
    for run in runs:
        err.print(
            f"{escape(run.model)} on {escape(run.version)}: {run.items} items: "
            f"{run.cache_hits:,} sentence scores from the cache, {run.computed:,} computed"
        )
    paths = write_stereoset_report(data, out_dir)
    _diff_summary(data, frontend)
    frontend.out.print("wrote " + ", ".join(escape(str(p)) for p in paths))


def _diff_summary(data: dict[str, Any], frontend: Frontend) -> None:
    out, err = frontend.out, frontend.err
    counts = data["alignment"]["counts"]
    out.print(
        f"{data['before']['label']} -> {data['after']['label']}: {counts['unchanged']} unchanged, "
        f"{counts['edited']} edited, {counts['dropped']} dropped, {counts['added']} added",
        markup=False,
    )
    table = Table(title="StereoSet, all items", title_justify="left")
    for column in ("model", "metric", "before", "after", "delta", "95% CI", "flips"):
        table.add_column(column, justify="left" if column in ("model", "metric") else "right")
    for m in data["models"]:
        total = next(g for g in m["groups"] if g["task"] == "all")
        for metric in ("lms", "ss", "icat"):
            d = total[metric]
            interval = "-" if d["ci_low"] is None else f"[{d['ci_low']:+.2f}, {d['ci_high']:+.2f}]"
            table.add_row(
                escape(m["label"]),
                metric.upper(),
                f"{d['before']:.2f}" if d["before"] is not None else "-",
                f"{d['after']:.2f}" if d["after"] is not None else "-",
                f"{d['delta']:+.2f}" if d["delta"] is not None else "-",
                interval,
                f"{m['flips']['count']}/{m['flips']['compared']}" if metric == "ss" else "",
            )
        for note in m["notes"]:
            err.print(f"note: {escape(note)}")
    print_table(table, out)
