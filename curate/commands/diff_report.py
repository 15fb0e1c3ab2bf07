"""``curate diff-report``: what a revision changed about the models' verdicts.

numpy, torch, statsmodels and plotly are imported only when the command runs, so ``curate
--help`` and ``curate lint`` stay fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from curate.benchmarks import benchmark_of
from curate.benchmarks.crows_pairs.upstream import COLUMN_OF
from curate.commands.common import (
    DEFAULT_SCORE_CACHE,
    VERSIONS_INPUT_FORMAT,
    config,
    dataset_formats,
    err,
    handles_errors,
    out,
    print_warnings,
    score_cache_path,
)
from curate.commands.scoring import frontend, run_comparison
from curate.errors import UsageError, user_text
from curate.fileio import check_output_dir, check_output_path
from curate.instrument.quality import MIN_SUBJECTS, instrument_quality
from curate.pairs import PAIR_FIELDS
from curate.report.schema import Report

#: BEFORE when only AFTER is given: the fetched raw CrowS-Pairs.
DEFAULT_BEFORE = "raw"


def register(app: typer.Typer) -> None:
    """Add the diff-report command to ``app``."""
    app.command("diff-report")(diff_report)


@handles_errors
def diff_report(
    versions: list[str] = typer.Argument(
        ...,
        metavar="[BEFORE] AFTER",
        help=(
            "The versions to compare: a release version (e.g. 1.0.0-auto), 'raw' or a source "
            "name (the fetched file), or a dataset file in any shape (CSV, five-column CSV, TSV, "
            "JSON lines, Parquet, Hugging Face layout). With one argument, BEFORE is the raw "
            "CrowS-Pairs."
        ),
        show_default=False,
    ),
    models: list[str] = typer.Option(
        ...,
        "--model",
        "-m",
        help="Masked or causal LM (the kind is read from its config): a local directory saved "
        "with save_pretrained or a Hugging Face hub name. Repeat for several.",
    ),
    methods: list[str] | None = typer.Option(
        None,
        "--method",
        help="Scoring method, as for curate score; repeat or give a comma list (a column per "
        "model and method). Default: as curate score ([tool.curate.score] methods, else pll "
        "for a masked LM; clm-sum, clm-mean and clm-shared for a causal LM).",
        show_default=False,
    ),
    out_dir: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="Directory for report.json, report.md and report.html. "
        "Default: diff-report in the output-dir of [tool.curate] (build/diff-report).",
    ),
    cache: Path | None = typer.Option(
        None,
        "--cache",
        help=f"SQLite score cache. Default: {DEFAULT_SCORE_CACHE} at the project root.",
    ),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write a cache."),
    batch_size: int | None = typer.Option(
        None, "--batch-size", min=1, help="Masked copies per forward pass (default 64)."
    ),
    device: str = typer.Option("auto", "--device", help="auto, cpu, cuda or mps."),
    threads: int | None = typer.Option(
        None, "--threads", min=1, help="CPU worker threads (default: as many as torch uses)."
    ),
    bootstrap: int = typer.Option(
        2000, "--bootstrap", min=1, help="Bootstrap resamples for the confidence intervals."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap resampling."),
    input_format: str | None = VERSIONS_INPUT_FORMAT,
) -> None:
    """Score two versions with each model and report what the revision changed.

    Pairs are matched by id (unchanged, edited, dropped, added), comparing only the columns
    both versions have: a five-column revision of the upstream file gives the same report as
    a full-schema copy of it. For every model and method (a column each): the
    CrowS-Pairs metric before and after (overall, stereo/antistereo, per bias type), the change
    with a 95% bootstrap confidence interval (paired resampling of pairs), score flips among
    the edited pairs, McNemar's exact test and Murphy's (2022) threshold view; across the
    columns, the robust flips (pairs that flip under every column) and those that flip under one
    only. Scores go
    through the cache, so unchanged pairs cost nothing and a rerun runs no model at all.
    """
    if len(versions) > 2:
        raise UsageError(f"give at most two versions (BEFORE AFTER), got {len(versions)}")
    before_spec, after_spec = versions if len(versions) == 2 else [DEFAULT_BEFORE, versions[0]]
    formats = dataset_formats(input_format)
    cfg = config()
    out_dir = out_dir or cfg.output_dir / "diff-report"
    check_output_dir(out_dir)  # before any scoring
    cache_path = score_cache_path(cfg, cache, no_cache)
    from curate.score.methods import parse_methods
    from curate.score.settings import settings_from_table

    # Methods, batch size and precision as curate score reads them: options over the config.
    scoring = settings_from_table(
        cfg.section("score"), f"{cfg.root / 'pyproject.toml'}: [tool.curate.score]"
    ).with_overrides(
        methods=parse_methods(methods) if methods else None,
        batch_size=batch_size,
        threads=threads,
        device=device,
    )

    from huggingface_hub.utils import logging as hub_logging
    from transformers.utils import logging as hf_logging

    from curate.release.versions import load_version_dataset
    from curate.report.output import write_report
    from curate.report.rescoring import score_versions
    from curate.report.statistics import Settings

    # Errors reach the user as one sentence; the hub client's retry chatter would bury it.
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    hub_logging.set_verbosity_error()
    datasets = [
        load_version_dataset(spec, cfg, fmt)[1]
        for spec, fmt in zip((before_spec, after_spec), formats, strict=True)
    ]
    own = next(
        (b for b in map(benchmark_of, datasets) if b.scoring.diff_report is not None), None
    )
    if own is not None:  # the benchmark's own metrics
        if methods:
            raise UsageError(
                f"--method applies to pair files; {own.title} files are compared with "
                f"{own.scoring.choice}"
            )
        labels = (before_spec, after_spec)
        own.scoring.diff_report(
            list(zip(labels, datasets, strict=True)),
            models,
            out_dir,
            cache_path,
            batch_size=batch_size,
            device=device,
            threads=threads,
            settings=Settings(bootstrap_samples=bootstrap, seed=seed),
            frontend=frontend(),
        )
        return
    before, after = (
        _compared(spec, dataset)
        for spec, dataset in zip((before_spec, after_spec), datasets, strict=True)
    )
    # every output path is checked now (inputs are registered), not after the scoring
    from curate.report.output import REPORT_FILES

    for name in REPORT_FILES:
        check_output_path(out_dir / name)
    unknown = [COLUMN_OF[f] for f in PAIR_FIELDS if f not in before.fields & after.fields]
    if unknown:
        err.print(
            f"note: not compared (a version has no such column): {escape(', '.join(unknown))}"
        )
    settings = Settings(bootstrap_samples=bootstrap, seed=seed)

    result = run_comparison(
        lambda display: score_versions(
            before,
            after,
            models,
            methods=scoring.methods,
            cache=cache_path,
            score_settings=scoring,
            settings=settings,
            progress=display.report,
            on_loading=display.loading,
        ),
        unit="jobs",
        cached="batches",
    )
    for run in result.runs:
        s = run.stats
        err.print(
            f"{user_text(run.model)} on {user_text(run.version)}: {s.pairs} pairs, {s.unique_jobs:,} distinct {s.unit}: "
            f"{s.cache_hits:,} from the cache, {s.computed:,} computed"
        )
    if len(result.data["models"]) >= MIN_SUBJECTS:  # the "instrument quality" needs 3+ columns
        result.data["instrument"] = instrument_quality(
            before.pairs, after.pairs, result.data["models"]
        )
    paths = write_report(result.data, out_dir)
    _summary(result.data)
    err.print(
        f"this run computed {result.computed:,} masked tokens and took {result.cache_hits:,} "
        "from the cache"
    )
    out.print("wrote " + ", ".join(user_text(p) for p in paths))


def _compared(label: str, dataset: Any) -> Any:
    """One side of the comparison (a ComparedVersion) from a dataset, its warnings printed."""
    from curate.report.rescoring import ComparedVersion

    print_warnings(dataset)
    return ComparedVersion(label, dataset.pairs, dataset.fields)


def _fmt(value: float | None, sign: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" if sign else f"{value:.2f}"


def _summary(data: Report) -> None:
    counts = data["alignment"]["counts"]
    out.print(
        f"{data['before']['label']} -> {data['after']['label']}: {counts['unchanged']} unchanged, "
        f"{counts['edited']} edited, {counts['dropped']} dropped, {counts['added']} added",
        markup=False,
    )
    table = Table(title_justify="left")
    for column in ("model", "before", "after", "delta", "95% CI", "flips", "McNemar p", "saved"):
        numeric = column != "model"
        table.add_column(column, justify="right" if numeric else "left", no_wrap=numeric)
    for m in data["models"]:
        overall = m["delta"]["overall"]
        interval = (
            "-"
            if overall["ci_low"] is None
            else f"[{overall['ci_low']:+.2f}, {overall['ci_high']:+.2f}]"
        )
        table.add_row(
            escape(m["label"]),
            _fmt(m["before"]["metric_score"]),
            _fmt(m["after"]["metric_score"]),
            _fmt(overall["delta"], sign=True),
            interval,
            f"{m['flips']['count']}/{m['flips']['edited']}",
            f"{m['mcnemar']['p_value']:.3g}",
            f"{m['compute']['forward_passes_saved']:,}",
        )
    out.print(table)
