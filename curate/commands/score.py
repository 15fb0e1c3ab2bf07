"""``curate score``: bias metrics of masked and causal language models (thin front end).

Options are parsed into :class:`~curate.score.settings.ScoreSettings` (over
``[tool.curate.score]``) and handed to :func:`curate.score.run.score_dataset`, which scores
and writes the files; this module shows progress, the table, and maps errors to exit codes.

torch and transformers are imported only when the command runs, so ``curate --help`` and the
other commands stay fast.
"""

from __future__ import annotations

import contextlib
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from curate.commands.common import (
    DEFAULT_SCORE_CACHE,
    ENCODING,
    INPUT_FORMAT,
    LABEL_HELP,
    ResultFormat,
    config,
    data_path,
    dataset_format,
    err,
    handles_errors,
    literal_help,
    out,
    print_csv,
    print_json,
    reading,
    score_cache_path,
    split_label,
)
from curate.commands.scoring import frontend, prepare_scoring, run_scoring
from curate.errors import InputError, UsageError
from curate.modelnames import model_slug
from curate.score.defaults import DEFAULT_BATCH_SIZE
from curate.score.methods import METHODS
from curate.terminal import print_table


class Device(StrEnum):
    """Where the model runs."""

    auto = "auto"
    cpu = "cpu"
    cuda = "cuda"
    mps = "mps"


class DType(StrEnum):
    """Precision of the model weights and activations."""

    float32 = "float32"
    bfloat16 = "bfloat16"


def _refuse_options_that_do_not_apply(
    importing: bool, *, model_run: dict[str, Any], import_only: dict[str, Any]
) -> None:
    """An option that the chosen path ignores is a UsageError, never dropped without a word:
    ``--import`` runs no model, so its options (method, cache, device...) would not be used,
    and the ``--import-*`` options mean nothing without ``--import``."""
    given = [
        name
        for name, value in (model_run if importing else import_only).items()
        if value is not None and value is not False and value != []
    ]
    if not given:
        return
    names = ", ".join(given)
    if importing:
        raise UsageError(
            f"--import reads published scores and runs no model, so {names} would be ignored; "
            "leave it out (the method of an import is imported:<source>, see --import-source)"
        )
    raise UsageError(f"{names} only applies with --import FILE")


def register(app: typer.Typer) -> None:
    """Add the score command to ``app``."""
    app.command("score")(score)


@handles_errors
def score(
    path: Path | None = typer.Argument(
        None,
        help="Data to score: a file in any shape (see --input-format), 'raw' (or a source "
        "name) or a release version such as 1.0.0-auto. Default: the fetched CrowS-Pairs "
        "([tool.curate] data).",
    ),
    models: list[str] | None = typer.Option(
        None,
        "--model",
        "-m",
        help=(
            "Masked or causal LM (the kind is read from its config): a local directory saved "
            "with save_pretrained or a Hugging Face hub name. A name that looks like a path "
            "(starting with ., .., ~ or /, or whose first component is an existing directory, "
            "as models/bert when models/ exists) is always a local directory and is never "
            "looked up on the hub. Repeat for several. Default: [tool.curate.score] models."
            + LABEL_HELP
        ),
    ),
    methods: list[str] | None = typer.Option(
        None,
        "--method",
        help="Scoring method (see the list above: each equals one peer's code and uses its "
        "tie rule); repeat or give a comma list. Default: pll for a masked LM; clm-sum, "
        "clm-mean and clm-shared for a causal LM.",
        show_default=False,
    ),
    out_dir: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help=literal_help(
            "Output directory: scores.csv and summary.json go to <out>/<model>/ for pll and to "
            "<out>/<model>/<method>/ for the other methods. Default: "
            "<output-dir>/score/<data-file-stem> (<output-dir>/score/<version> for a version name)."
        ),
    ),
    batch_size: int | None = typer.Option(
        None,
        "--batch-size",
        min=1,
        help="Masked copies (pll, pll-word-l2r) or sentences (the other methods) per forward "
        f"pass (default {DEFAULT_BATCH_SIZE}).",
    ),
    threads: int | None = typer.Option(
        None, "--threads", min=1, help="CPU worker threads (default: as many as torch uses)."
    ),
    device: Device | None = typer.Option(
        None, "--device", help="auto: CUDA, MPS, else CPU.", show_default="auto"
    ),
    dtype: DType | None = typer.Option(
        None,
        "--dtype",
        help="bfloat16 is faster but changes scores; opt-in.",
        show_default="float32",
    ),
    cache: Path | None = typer.Option(
        None,
        "--cache",
        help=f"SQLite score cache. Default: {DEFAULT_SCORE_CACHE} at the project root.",
    ),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write a cache."),
    threshold: float | None = typer.Option(
        None,
        "--threshold",
        min=0.0,
        help="Threshold view: a pair is neutral when its scores are within this percent of "
        "the larger magnitude (default 5).",
    ),
    lowercase: bool | None = typer.Option(
        None,
        "--lowercase/--no-lowercase",
        help="Lower-case the sentences first. Default: when the tokenizer lower-cases.",
        show_default=False,
    ),
    fmt: ResultFormat = typer.Option(
        ResultFormat.text,
        "--format",
        help="text: the table (one record per row when it does not fit the width); json: every "
        "summary; csv: one row per (model, method, table row).",
    ),
    input_format: str | None = INPUT_FORMAT,
    import_file: Path | None = typer.Option(
        None,
        "--import",
        help=literal_help(
            "Read published per-pair scores (a metric.py or bias-bench output CSV computed on "
            "PATH) instead of running a model; -m names the model (a label), the method is "
            "imported:<source>. Rows are matched to pairs by their sentences; a mismatch is refused."
        ),
    ),
    import_source: str | None = typer.Option(
        None,
        "--import-source",
        help=literal_help("The <source> of method imported:<source>."),
        show_default="metric.py",
    ),
    prefer: str | None = typer.Option(
        None,
        "--import-prefer",
        show_default="auto",
        help="With --import: which sentence score wins, higher (metric.py), lower, or auto "
        "(the one the published score column agrees with).",
    ),
    skip_bad_rows: bool = typer.Option(
        False,
        "--skip-bad-rows",
        help="Leave out the rows of the data file that cannot be read (empty rows, bad labels) "
        "and, with --import, the unusable rows of the published file (empty, non-numeric "
        "scores) instead of refusing them; they are listed on stderr and in summary.json.",
    ),
    encoding: str | None = ENCODING,
    corpus_spec: str | None = typer.Option(
        None,
        "--corpus",
        metavar="FILE|NAME",
        help=literal_help(
            "Also measure each model's language-modelling quality on a corpus, written into "
            "its summary.json (stereoset.json) as capability, with a bootstrap interval over "
            "sentences: perplexity for a causal LM (clm-sum's numbers), pseudo-perplexity for "
            "a masked LM (pll's numbers; Salazar et al. 2020), through the same cache "
            "(resumable). FILE: UTF-8 text, one sentence a line; NAME: stereoset-unrelated "
            "(StereoSet dev's unrelated options, as its LMS uses; needs `curate fetch "
            "stereoset-dev`)."
        ),
    ),
) -> None:
    """Score pairs with bias metrics of masked and causal language models.

    The default for a masked LM is the CrowS-Pairs pseudo-log-likelihood (Nangia et al. 2020),
    exactly the numbers of the original metric.py, computed in batches with the LM head at the
    masked tokens only. Every per-token number is cached per method, so a rerun costs nothing,
    an interrupted run resumes, and a revised dataset recomputes only what changed. Each model
    gets <out>/<model>/scores.csv and summary.json (<out>/<model>/<method>/ for the methods
    other than pll). A pair counts as biased when sent_more scores higher, whatever the method. A StereoSet file (detected
    from its content) is scored with StereoSet's own methods and metrics instead: stereoset-mlm
    for a masked LM, stereoset-clm for a causal LM (the official code's routes; the other
    stereoset-* methods below are the peers' and the paper's variants), giving LMS, SS and ICAT
    per target term, per domain and overall (stereoset.json and scores.csv in
    <out>/<model>/<method>/, with the route that ran for each task). A masked LM scores the
    intersentence items with its pretrained next-sentence-prediction head, or skips them with a
    note when it has none. Methods:
    """
    from curate.benchmarks import benchmark_of
    from curate.datasets import read_dataset
    from curate.fileio import check_output_dir
    from curate.formats import log_warnings
    from curate.score.files import check_column_folders

    input_format = dataset_format(input_format)
    _refuse_options_that_do_not_apply(
        import_file is not None,
        model_run={
            "--method": methods, "--batch-size": batch_size, "--threads": threads,
            "--device": device, "--dtype": dtype, "--cache": cache, "--no-cache": no_cache,
            "--lowercase/--no-lowercase": lowercase, "--corpus": corpus_spec,
        },
        import_only={"--import-source": import_source, "--import-prefer": prefer},
    )
    if import_file is not None:
        from curate.commands.score_import import run_import

        # --encoding: the data file's and the published file's
        with reading(encoding, None, skip_bad_rows):
            summary = run_import(
                path, import_file, models, import_source or "metric.py", prefer or "auto",
                out_dir, input_format, threshold, skip_bad_rows,
            )
        if fmt is ResultFormat.json:
            print_json({"models": [summary]})
        elif fmt is ResultFormat.csv:
            print_csv(_csv_rows([summary]))
        else:
            _render([summary], summary["data"]["file"], summary["summary"]["threshold_view"]["threshold_percent"])
        return
    from curate.score.methods import parse_methods
    from curate.score.settings import settings_from_table

    cfg = config()
    settings = settings_from_table(
        cfg.section("score"), f"{cfg.root / 'pyproject.toml'}: [tool.curate.score]"
    ).with_overrides(
        models=tuple(models) if models else None,
        methods=parse_methods(methods) if methods else None,
        batch_size=batch_size,
        threads=threads,
        device=device.value if device else None,
        dtype=dtype.value if dtype else None,
        lowercase=lowercase,
        threshold=threshold,
    )
    if not settings.models:
        raise UsageError("name a model with --model (or set [tool.curate.score] models)")
    entries = [split_label(m) for m in settings.models]
    settings = settings.with_overrides(models=tuple(name for name, _ in entries))
    named = path is not None and not (path.exists() or path.is_symlink())
    data_name = str(path) if named and path is not None else None
    path = data_path(path, cfg)
    slugs = [label or model_slug(name) for name, label in entries]
    if len(set(slugs)) != len(slugs):
        shared = sorted({s for s in slugs if slugs.count(s) > 1})
        raise UsageError(
            f"two models would share an output directory ({', '.join(shared)}); label them "
            "with -m PATH=LABEL"
        )
    with reading(encoding, None, skip_bad_rows):
        dataset = read_dataset(path, input_format)
    out_dir = out_dir or cfg.output_dir / "score" / (data_name or path.stem)
    check_output_dir(out_dir)  # a folder that cannot be written fails now, not after scoring
    check_column_folders(out_dir, slugs)  # and so does a score file that is a link or an input
    cache_path = score_cache_path(cfg, cache, no_cache)
    corpus = None
    if corpus_spec is not None:
        from curate.release.corpora import load_corpus

        corpus = load_corpus(corpus_spec, cfg)
    scoring = benchmark_of(dataset).scoring
    route = scoring.score_file
    if route is not None:  # the benchmark's own methods and metrics
        if fmt is ResultFormat.csv:
            raise UsageError(f"--format csv applies to pair files; give text or json for {path.name}")
        route(
            dataset, path, settings, slugs, out_dir, cache_path, fmt.value,
            frontend=frontend(corpus),
        )
        return
    log_warnings(dataset.warnings)
    pairs = list(dataset.pairs)
    if not pairs:
        raise InputError(f"{path}: no pairs to score (the file has a header and no rows)")

    from curate.score.outputs import data_info
    from curate.score.run import score_dataset

    prepare_scoring(settings.dtype)
    if settings.methods and len(settings.models) > 1:
        _note_fitted_methods(dict(zip(slugs, settings.models, strict=True)), settings.methods)
    outputs = run_scoring(
        lambda hooks: score_dataset(
            pairs,
            dict(zip(slugs, settings.models, strict=True)),
            settings,
            data=data_info(path, dataset.skipped_rows),
            out_dir=out_dir,
            cache=cache_path,
            hooks=hooks,
            groups=scoring.groups,
            corpus=corpus,
        ),
        unit="batches",
        scored=_report_scored,
    )
    summaries = [{"slug": o.slug, **o.summary} for o in outputs]
    if fmt is ResultFormat.json:
        print_json({"models": summaries})
        return
    if fmt is ResultFormat.csv:
        print_csv(_csv_rows(summaries))
        return
    _render(summaries, path.name, settings.threshold)
    if corpus is not None:
        _render_capability(summaries)


def _render_capability(summaries: list[dict[str, Any]]) -> None:
    """One line per model: its (pseudo-)perplexity on the corpus with the interval."""
    seen: set[str] = set()
    for s in summaries:
        ability = s.get("capability")
        if not ability or s["slug"] in seen:
            continue
        seen.add(s["slug"])
        interval = (
            f"[{ability['low']:.2f}, {ability['high']:.2f}]"
            if "low" in ability
            else f"({ability.get('no_interval', '')})"
        )
        out.print(
            f"{escape(s['slug'])}: {ability['measure']} {ability['value']:.2f} {interval} on "
            f"{escape(ability['corpus']['name'])} ({ability['corpus']['sentences']} sentences, "
            f"{ability['tokens']} tokens; lower is better)"
        )


def _peer(method: Any) -> str:
    """Which peer's code a method equals, its tie rule and how the other peers differ."""
    fields = (("Equals", method.peer), ("Ties", method.tie_rule), ("Other peers", method.others))
    if not method.peer:
        return ""
    return "".join(f" {label}: {value}." for label, value in fields if value)


score.__doc__ = literal_help(
    (score.__doc__ or "")
    + "\n"
    + "\n".join(f"- **{m.name}** ({m.kind} LMs): {m.summary}{_peer(m)}" for m in METHODS.values())
)


def _note_fitted_methods(models: dict[str, str], methods: tuple[str, ...]) -> None:
    """Say which of the requested methods each model gets (those that fit its kind), when a
    model does not get them all; a model no method fits is refused by the planner."""
    from curate.score.run import plan_models

    plans = plan_models(models, methods)
    if all(len(p.methods) == len(methods) for p in plans):
        return
    given = "; ".join(
        f"{p.slug} ({p.kind}): {', '.join(m.name for m in p.methods)}" for p in plans
    )
    err.print(f"note: each model gets the requested methods that fit its kind: {escape(given)}")


@contextlib.contextmanager
def _report_scored(output: Any) -> None:
    stats, result = output.result.stats, output.result
    err.print(
        f"{escape(output.slug)} {result.method}: {stats.pairs} pairs, "
        f"{stats.masked_tokens:,} scored tokens ({stats.unique_jobs:,} distinct "
        f"{stats.unit}): {stats.cache_hits:,} from the cache, {stats.computed:,} computed in "
        f"{stats.batches:,} batches, {stats.seconds:.1f} s on {output.device} "
        f"({result.dtype}, {result.head_mode} head)"
    )
    err.print(f"{escape(output.slug)} {result.method}: wrote {escape(str(output.directory))}")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _render(summaries: list[dict[str, Any]], source: str, threshold: float) -> None:
    """A table like Table 2 of the CrowS-Pairs paper: % of pairs where sent_more is preferred."""
    from curate.pairs import BIAS_TYPES

    first = summaries[0]["summary"]
    table = Table(
        title=f"CrowS-Pairs metric on {source}: % of pairs preferring the more stereotyping "
        "sentence (50 = no preference)",
        title_justify="left",
        caption="* over the untied pairs of the direction, as in metric.py; ties count as not "
        "preferring in every other row",
        caption_justify="left",
    )
    table.add_column("")
    table.add_column("n", justify="right")
    for s in summaries:
        table.add_column(f"{escape(s['slug'])}\n{s['method']}", justify="right")
    table.add_row(
        "overall",
        str(first["pairs"]),
        *(_pct(s["summary"]["metric_score"]) for s in summaries),
        style="bold",
    )
    for direction in ("stereo", "antistereo"):
        table.add_row(
            f"{direction}*",
            str(first["directions"][direction]["n"]),
            *(_pct(s["summary"]["directions"][direction]["score"]) for s in summaries),
        )
    types = [row["bias_type"] for row in first["bias_types"]]
    ordered = [t for t in BIAS_TYPES if t in types] + [t for t in types if t not in BIAS_TYPES]
    for bias_type in ordered:
        rows = [
            {r["bias_type"]: r for r in s["summary"]["bias_types"]}[bias_type] for s in summaries
        ]
        table.add_row(escape(bias_type), str(rows[0]["n"]), *(_pct(r["score"]) for r in rows))
    for group in first.get("groups", ()):  # the benchmark's larger groups of bias types
        rows = [
            {r["group"]: r for r in s["summary"]["groups"]}[group["group"]] for s in summaries
        ]
        table.add_row(
            escape(f"{group['group']} (all)"), str(group["n"]), *(_pct(r["score"]) for r in rows)
        )
    table.add_row("ties", "", *(str(s["summary"]["ties"]) for s in summaries), end_section=True)
    table.add_row(
        "mean confidence",
        "",
        *(_confidence_cell(s["summary"]["confidence"]["all"]) for s in summaries),
    )
    for label in ("biased", "neutral", "non-biased"):
        table.add_row(
            f"{label} (±{threshold:g}%)",
            "",
            *(_pct(s["summary"]["threshold_view"][label]["percent"]) for s in summaries),
        )
    print_table(table, out)


def _csv_rows(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table as CSV rows: one per (model, method, row of the table), full precision."""
    rows: list[dict[str, Any]] = []
    for s in summaries:
        inner = s["summary"]
        base = {"model": s["slug"], "method": s["method"]}
        rows.append({**base, "row": "overall", "n": inner["pairs"], "score": inner["metric_score"]})
        for direction in ("stereo", "antistereo"):
            d = inner["directions"][direction]
            rows.append({**base, "row": direction, "n": d["n"], "score": d["score"]})
        for r in inner["bias_types"]:
            rows.append({**base, "row": r["bias_type"], "n": r["n"], "score": r["score"]})
        for g in inner.get("groups", ()):
            rows.append({**base, "row": f"{g['group']} (all)", "n": g["n"], "score": g["score"]})
        rows.append({**base, "row": "ties", "n": inner["pairs"], "score": inner["ties"]})
    return rows


def _confidence_cell(stats: dict[str, float | None]) -> str:
    """The mean confidence of a summary (scientific notation when 4 decimals would round it to
    zero), or a dash when it has no pairs."""
    mean = stats["mean"]
    if mean is None:
        return "-"
    return f"{mean:.3e}" if mean != 0 and abs(mean) < 0.0001 else f"{mean:.4f}"
