"""``curate diff-report``: what a revision changed about the models' verdicts.

numpy, torch, statsmodels and plotly are imported only when the command runs, so ``curate
--help`` and ``curate lint`` stay fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from curate.commands.common import (
    DEFAULT_SCORE_CACHE,
    LABEL_HELP,
    VERSIONS_INPUT_FORMAT,
    ResultFormat,
    config,
    dataset_formats,
    err,
    handles_errors,
    out,
    print_csv,
    print_json,
    print_warnings,
    score_cache_path,
    split_label,
)
from curate.commands.scoring import frontend, run_comparison
from curate.errors import UsageError, user_text
from curate.score.defaults import DEFAULT_BATCH_SIZE
from curate.terminal import print_table

if TYPE_CHECKING:
    from curate.report.schema import Report

#: BEFORE when only AFTER is given: the fetched raw CrowS-Pairs.
DEFAULT_BEFORE = "raw"


def register(app: typer.Typer) -> None:
    """Add the diff-report command to ``app``."""
    app.command("diff-report")(diff_report)


@handles_errors
def diff_report(
    versions: list[str] | None = typer.Argument(
        None,
        metavar="[BEFORE] AFTER",
        help=(
            "The versions to compare: a release version (e.g. 1.0.0-auto), 'raw' or a source "
            "name (the fetched file), or a dataset file in any shape (CSV, five-column CSV, TSV, "
            "JSON lines, Parquet, Hugging Face layout). With one argument, BEFORE is the raw "
            "CrowS-Pairs. With --sweep, a version label of the sweep names its file, and "
            "no argument compares the sweep's first two versions."
        ),
        show_default=False,
    ),
    models: list[str] | None = typer.Option(
        None,
        "--model",
        "-m",
        help="Masked or causal LM (the kind is read from its config): a local directory saved "
        "with save_pretrained or a Hugging Face hub name. Repeat for several." + LABEL_HELP,
    ),
    sweep: Path | None = typer.Option(
        None,
        "--sweep",
        help="A sweep's plan (TOML) or output root (with sweep.json): its models, each with its "
        "label, the methods it was scored with and its own settings (batch size, dtype, device, "
        "casing) as curate sweep used them, so its cached scores are reused; and its versions "
        "by label. Options given here override the plan's settings. -m adds models.",
    ),
    scores: list[Path] | None = typer.Option(
        None,
        "--scores",
        help="A directory of `curate score` outputs, imported ones (`curate score --import`) "
        "included, searched recursively; repeat for several. Each model and method with a "
        "score set of both versions (matched by the data SHA-256 in its summary.json) is a "
        "column, and no model is loaded for it. -m adds models to score.",
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
        None,
        "--batch-size",
        min=1,
        help="Masked copies (pll, pll-word-l2r) or sentences (the other methods) per forward "
        f"pass (default {DEFAULT_BATCH_SIZE}, as curate score: cached scores are reused only "
        "with the batch size that computed them).",
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
    fmt: ResultFormat = typer.Option(
        ResultFormat.text,
        "--format",
        help="What stdout shows: text (the table, one record per row when it does not fit the "
        "width), json or csv (one row per column, full precision). The files are written alike.",
    ),
    corpus_spec: str | None = typer.Option(
        None,
        "--corpus",
        metavar="FILE|NAME",
        help="Also give each model's (pseudo-)perplexity on a corpus (as curate score "
        "--corpus), beside its columns in the report: a text file or stereoset-unrelated.",
    ),
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
    through the cache, so unchanged pairs cost nothing and a rerun runs no model at all; with
    --scores, score sets already written (published outputs imported with curate score
    --import, an earlier curate score) give the same report with no model loaded.
    """
    from curate.benchmarks import benchmark_of
    from curate.benchmarks.crows_pairs.upstream import COLUMN_OF
    from curate.fileio import check_output_dir, check_output_path
    from curate.instrument.quality import MIN_SUBJECTS, instrument_quality
    from curate.pairs import PAIR_FIELDS

    versions = list(versions or [])
    if len(versions) > 2:
        raise UsageError(f"give at most two versions (BEFORE AFTER), got {len(versions)}")
    from_sweep = _sweep_inputs(sweep) if sweep is not None else None
    if not versions and from_sweep is None:
        raise UsageError("name the version to compare (AFTER, or BEFORE AFTER), or give --sweep")
    if not versions:
        assert from_sweep is not None
        if len(from_sweep.versions) < 2:
            raise UsageError(f"{sweep}: the sweep has one version; name BEFORE and AFTER")
        versions = list(from_sweep.versions)[:2]
    before_spec, after_spec = versions if len(versions) == 2 else [DEFAULT_BEFORE, versions[0]]
    specs = [
        from_sweep.versions.get(v, (v, None)) if from_sweep else (v, None)
        for v in (before_spec, after_spec)
    ]
    formats = dataset_formats(input_format)
    formats = tuple(f or own for f, (_, own) in zip(formats, specs, strict=True))
    entries = [split_label(m) for m in models or []]
    model_methods: list[tuple[str, ...]] = [() for _ in entries]
    # A sweep's models are scored as the sweep scored them: each with its own settings (batch
    # size, dtype, device, casing) and methods; options given here override its settings.
    model_settings: list[Any] = [None for _ in entries]
    if from_sweep is not None:
        for note in from_sweep.notes:
            err.print(f"note: {escape(note)}")
        entries = from_sweep.models + entries
        model_methods = from_sweep.methods + model_methods
        model_settings = [
            own.with_overrides(batch_size=batch_size, device=device, threads=threads)
            for own in from_sweep.settings
        ] + model_settings
        if batch_size is None:  # the models named with --model: the plan's batch size
            batch_size = from_sweep.batch_size
    if not entries and not scores:
        raise UsageError("name a model with --model, or give --scores or --sweep")
    if not entries and methods:
        raise UsageError(
            "--method says how the models of -m are scored; the score sets of --scores keep "
            "the method they were made with"
        )
    if not entries and corpus_spec is not None:
        raise UsageError("--corpus measures the models of -m; score sets have no model to measure")
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

    from curate.release.versions import load_version_dataset
    from curate.report.output import write_report
    from curate.report.statistics import Settings

    if entries:  # no model, no transformers: --scores alone loads neither
        from huggingface_hub.utils import logging as hub_logging
        from transformers.utils import logging as hf_logging

        # Errors reach the user as one sentence; the hub client's retry chatter would bury it.
        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        hub_logging.set_verbosity_error()
    loaded = [
        load_version_dataset(spec, cfg, fmt)
        for (spec, _), fmt in zip(specs, formats, strict=True)
    ]
    datasets = [dataset for _, dataset in loaded]
    own = next(
        (b for b in map(benchmark_of, datasets) if b.scoring.diff_report is not None), None
    )
    corpus = None
    if corpus_spec is not None:
        if own is not None:
            raise UsageError(f"--corpus applies to pair files; score {own.title} with curate score --corpus")
        from curate.release.corpora import load_corpus

        corpus = load_corpus(corpus_spec, cfg)
    if own is not None:  # the benchmark's own metrics
        if scores:
            raise UsageError(
                f"--scores applies to pair files; {own.title} files are compared by scoring "
                "them with -m"
            )
        if methods:
            raise UsageError(
                f"--method applies to pair files; {own.title} files are compared with "
                f"{own.scoring.choice}"
            )
        labels = (before_spec, after_spec)
        own.scoring.diff_report(
            list(zip(labels, datasets, strict=True)),
            [name for name, _ in entries],
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
    from curate.commands.diff_scores import given_columns

    given = (
        given_columns(scores, (before, after), [resolved.path for resolved, _ in loaded])
        if scores
        else []
    )
    from curate.report.rescoring import RescoringReport

    result = RescoringReport({"models": []})  # type: ignore[typeddict-item]
    if entries:
        from curate.report.rescoring import score_versions

        result = run_comparison(
            lambda display: score_versions(
                before,
                after,
                [name for name, _ in entries],
                labels=[label for _, label in entries],
                model_methods=model_methods if from_sweep is not None else None,
                model_settings=model_settings,
                methods=scoring.methods,
                cache=cache_path,
                score_settings=scoring,
                settings=settings,
                progress=display.report,
                on_loading=display.loading,
                corpus=corpus,
            ),
            unit="jobs",
            cached="batches",
        )
    if given:
        from curate.report.given_scores import given_report

        result.data = given_report(before, after, given, settings, result.data["models"])
    for run in result.runs:
        s = run.stats
        if err.is_terminal:  # without a terminal, a line was printed as each run finished
            continue
        err.print(
            f"{user_text(run.model)} on {user_text(run.version)}: {s.pairs} pairs, {s.unique_jobs:,} distinct {s.unit}: "
            f"{s.cache_hits:,} from the cache, {s.computed:,} computed"
        )
    if len(result.data["models"]) >= MIN_SUBJECTS:  # the "instrument quality" needs 3+ columns
        result.data["instrument"] = instrument_quality(
            before.pairs, after.pairs, result.data["models"]
        )
    paths = write_report(result.data, out_dir)
    if fmt is ResultFormat.json:
        print_json(_rows(result.data))
        return
    if fmt is ResultFormat.csv:
        print_csv(_rows(result.data))
        return
    _summary(result.data)
    # in each method's own unit: masked tokens (pll), sentences (aul, the causal methods)
    units: dict[str, list[int]] = {}
    for run in result.runs:
        counts = units.setdefault(run.stats.unit, [0, 0])
        counts[0] += run.stats.computed
        counts[1] += run.stats.cache_hits
    if units:
        err.print(
            "this run computed "
            + "; ".join(
                f"{c:,} {unit} and took {h:,} from the cache" for unit, (c, h) in units.items()
            )
        )
    if given:
        err.print(
            f"{len(given)} of the {len(result.data['models'])} columns read from score sets "
            "(--scores): no model loaded for them"
        )
    out.print("wrote " + ", ".join(user_text(p) for p in paths))


class _SweepInputs:
    """What diff-report takes from a sweep: models (name, label), each one's methods and score
    settings as ``curate sweep`` gives them (:func:`curate.sweep.run.model_methods` and
    :func:`~curate.sweep.run.model_settings`, the sweep's own code), a note for each method
    the sweep could not run, the versions by label (file, forced shape) and the plan's batch
    size (for models named with --model besides the sweep's)."""

    def __init__(self, plan: Any) -> None:
        from curate.errors import InputError
        from curate.sweep.run import ANY_METHOD, model_methods, model_settings

        self.models: list[tuple[str, str | None]] = [(m.name, m.label) for m in plan.models]
        self.methods: list[tuple[str, ...]] = []
        self.notes: list[str] = []
        for model in plan.models:
            fit, unfit = model_methods(model)
            if ANY_METHOD in unfit:
                # its config did not load: scoring it would fail the same way, so refuse now,
                # once (a note here and the same error from the scoring were two messages)
                raise InputError(f"{plan.source}: model {model.label}: {unfit[ANY_METHOD]}")
            self.methods.append(fit)
            self.notes += [
                f"{model.label} · {method} is not compared (the sweep skips it too): {reason}"
                for method, reason in unfit.items()
            ]
        self.settings: list[Any] = [model_settings(plan, m, plan.threads) for m in plan.models]
        self.versions: dict[str, tuple[str, str | None]] = {
            v.label: (str(v.path), v.input_format) for v in plan.versions
        }
        self.batch_size: int | None = plan.batch_size


def _sweep_inputs(path: Path) -> _SweepInputs:
    """The plan of ``--sweep``: the file itself, or the one the output root's sweep.json names."""
    from curate.errors import InputError
    from curate.jsonl import loads_document
    from curate.sweep.plan import load_plan

    if path.is_dir():
        document = path / "sweep.json"
        try:
            recorded = loads_document(document.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(f"{path}: not a sweep's output root (no sweep.json)") from None
        except (OSError, ValueError) as exc:
            raise InputError(f"{document}: not readable as a sweep document ({exc})") from None
        plan_path = recorded.get("plan_path") if isinstance(recorded, dict) else None
        if not isinstance(plan_path, str):
            raise InputError(
                f"{document} does not say where its plan is (a sweep from an older curate); "
                "give the plan file to --sweep"
            )
        path = (path / plan_path).resolve()
    return _SweepInputs(load_plan(path))


def _rows(data: Report) -> list[dict[str, Any]]:
    """One row per column of the report, full precision (``--format json`` and ``csv``)."""
    rows = []
    for m in data["models"]:
        overall = m["delta"]["overall"]
        rows.append(
            {
                "label": m["label"],
                "model": m["model"],
                "method": m["method"],
                "before": m["before"]["metric_score"],
                "after": m["after"]["metric_score"],
                "delta": overall["delta"],
                "ci_low": overall["ci_low"],
                "ci_high": overall["ci_high"],
                "flips": m["flips"]["count"],
                "edited": m["flips"]["edited"],
                "mcnemar_p": m["mcnemar"]["p_value"],
                "forward_passes_saved": m["compute"]["forward_passes_saved"]
                if "compute" in m
                else None,
            }
        )
    return rows


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
    from curate.report.tables import shared_method, short_labels

    data = short_labels(data)  # one method for every column: said once, above the table
    counts = data["alignment"]["counts"]
    out.print(
        f"{data['before']['label']} -> {data['after']['label']}: {counts['unchanged']} unchanged, "
        f"{counts['edited']} edited, {counts['dropped']} dropped, {counts['added']} added",
        markup=False,
    )
    method = shared_method(data)
    if method is not None and len(data["models"]) > 1:
        out.print(f"every column scored with {method}", markup=False)
    computed = any("compute" in m for m in data["models"])
    table = Table(title_justify="left")
    headers = ("model", "before", "after", "delta", "95% CI", "flips", "McNemar p")
    for column in (*headers, "saved") if computed else headers:
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
            *(
                [f"{m['compute']['forward_passes_saved']:,}" if "compute" in m else "-"]
                if computed
                else []
            ),
        )
    print_table(table, out)
