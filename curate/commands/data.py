"""Commands that get and describe source data: ``fetch`` and ``stats``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn
from rich.table import Table
from rich.text import Text

from curate.commands.common import (
    ENCODING,
    INPUT_FORMAT,
    LANGUAGE,
    SKIP_BAD_ROWS,
    ReportFormat,
    config,
    data_path,
    dataset_format,
    err,
    handles_errors,
    load_dataset,
    out,
    print_json,
    shown_path,
    skipped_rows,
)
from curate.errors import InputError, UsageError, user_text
from curate.terminal import print_table

if TYPE_CHECKING:
    from curate import sources as sources_lib
    from curate.benchmarks import Benchmark


def register(app: typer.Typer) -> None:
    """Add the data commands to ``app``."""
    app.command("fetch")(fetch)
    app.command("stats")(stats)


@handles_errors
def fetch(
    name: str | None = typer.Argument(
        None,
        help="Source name from data/raw/sources.toml, or a benchmark's name for all its sources "
        "(winobias: its 8 sentence files and 2 occupation lists, into data/raw/winobias/; "
        "winogender: its templates, sentences and occupation statistics, into data/raw/winogender/).",
    ),
    origin: str | None = typer.Option(
        None,
        "--from",
        help=(
            "Copy from this file or mirror directory, or download from this URL, instead of the "
            "registry URL. Default: $CURATE_DATA_MIRROR if set, else the upstream URL."
        ),
    ),
    list_sources: bool = typer.Option(
        False, "--list", help="List the sources and whether each is present and verified."
    ),
    force: bool = typer.Option(
        False, "--force", help="Fetch again even if a verified copy exists."
    ),
    timeout: float = typer.Option(60.0, help="Network timeout in seconds."),
) -> None:
    """Fetch a pinned source dataset into data/raw/, verified by SHA-256.

    The file is written atomically: a checksum mismatch or a failed download leaves nothing.
    """
    from curate import sources as sources_lib

    cfg = config()
    registry = sources_lib.load_sources(cfg.sources)
    dest_dir = cfg.sources.parent
    if list_sources:
        if name:
            raise UsageError("give either a source name or --list, not both")
        table = Table("source", "file", "status", "license", "url")
        for source in registry.values():
            state = sources_lib.status(source, dest_dir)
            colour = {"verified": "green", "missing": "yellow"}.get(state, "red")
            table.add_row(
                *(Text(v) for v in (source.name, str(source.relpath))),
                f"[{colour}]{state}[/]",
                *(Text(v) for v in (source.license, source.url)),
            )
        print_table(table, out)
        return
    if not name:
        known = ", ".join(registry)
        raise UsageError(f"name a source to fetch ({known}) or use --list")
    for source in _sources_named(registry, name):
        _fetch_one(source, dest_dir, origin, timeout=timeout, force=force, root=cfg.root)


def _sources_named(registry: dict[str, sources_lib.Source], name: str) -> list[sources_lib.Source]:
    """The source called ``name``, or every source of the benchmark called ``name`` (its
    ``fetch_sources``) when no source has that name."""
    from curate import benchmarks
    from curate import sources as sources_lib

    known = benchmarks.all_benchmarks()
    if name not in registry and name in known and known[name].fetch_sources:
        return [sources_lib.get_source(registry, n) for n in known[name].fetch_sources]
    return [sources_lib.get_source(registry, name)]


def _fetch_one(
    source: sources_lib.Source,
    dest_dir: Path,
    origin: str | None,
    *,
    timeout: float,
    force: bool,
    root: Path,
) -> None:
    """Fetch one source with a progress bar and say what happened."""
    from curate import sources as sources_lib

    with Progress(
        TextColumn(f"fetching {user_text(source.name)}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("fetch", total=None)

        def report(done: int, total: int | None) -> None:
            progress.update(task, completed=done, total=total)

        result = sources_lib.fetch(
            source, dest_dir, origin, timeout=timeout, force=force, progress=report
        )
    rel = shown_path(result.path, root)
    if result.action == "already present":
        err.print(
            f"{user_text(source.name)}: {user_text(rel)} already present and verified "
            f"(sha256 {source.sha256[:12]}…)"
        )
    else:
        err.print(
            f"{user_text(source.name)}: {result.action} {user_text(result.origin)} -> "
            f"{user_text(rel)} (sha256 verified {source.sha256[:12]}…; {user_text(source.license)})"
        )


@handles_errors
def stats(
    path: Path | None = typer.Argument(
        None,
        help="Dataset file in any shape (see --input-format). Default: the fetched CrowS-Pairs "
        "([tool.curate] data).",
    ),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Output format."),
    input_format: str | None = INPUT_FORMAT,
    encoding: str | None = ENCODING,
    language: str | None = LANGUAGE,
    skip_bad_rows: bool = SKIP_BAD_ROWS,
) -> None:
    """Pairs per bias type and direction, sentence lengths, and validator agreement.

    Validator agreement needs the 'annotations' column: for a file without it (a five-column
    revision, StereoSet) it is reported as skipped, not as zero.
    """
    from curate.benchmarks import benchmark_of
    from curate.stats import compute_stats

    input_format = dataset_format(input_format)
    cfg = config()
    path = data_path(path, cfg)
    dataset = load_dataset(path, input_format, encoding, language, skip_bad_rows)
    if not dataset.pairs and not dataset.intersentence:
        raise InputError(f"{shown_path(path, cfg.root)}: no pairs (the file holds only a header)")
    benchmark = benchmark_of(dataset, by_columns=True)
    result = compute_stats(dataset.pairs, dataset.intersentence, benchmark)
    result["language"] = dataset.language
    result["encoding"] = dataset.shape.encoding
    result["skipped_rows"] = skipped_rows(dataset)  # --skip-bad-rows: what the counts leave out
    # an absent column is unknown, not empty: say which one it is
    result["validator_agreement"]["annotations_column"] = "annotations" in dataset.fields
    if fmt is ReportFormat.json:
        print_json(result)
        return
    _render_stats(result, shown_path(path, cfg.root), benchmark)


def _render_stats(result: dict, source: str, benchmark: Benchmark) -> None:
    total = result["pairs"]
    dirs = result["directions"]
    from curate.formats.language import LANGUAGES

    language = result.get("language")
    said = f", in {LANGUAGES.get(language, language)}" if language not in (None, "en") else ""
    out.print(
        f"[bold]{user_text(source)}[/]: {total} pairs ({dirs['stereo']} stereo, {dirs['antistereo']} antistereo){said}"
    )
    if skipped := result.get("skipped_rows"):
        out.print(
            f"[yellow]{len(skipped)} row(s) of the file left out by --skip-bad-rows[/] "
            "(listed on stderr): these counts do not cover them"
        )
    table = Table(title="Pairs per bias type", title_justify="left")
    for column in ("bias type", "n", "%", "stereo", "antistereo"):
        table.add_column(column, justify="left" if column == "bias type" else "right")
    for row in result["bias_types"]:
        name = user_text(row["bias_type"]) + ("" if row["known"] else " [red](unknown)[/]")
        table.add_row(
            name, str(row["n"]), f"{row['percent']:.1f}", str(row["stereo"]), str(row["antistereo"])
        )
    table.add_row(
        "total",
        str(total),
        "100.0" if total else "0.0",
        str(dirs["stereo"]),
        str(dirs["antistereo"]),
        style="bold",
    )
    print_table(table, out)

    lengths = result["lengths"]
    table = Table(title="Sentence length (words)", title_justify="left")
    for column in ("sentence", "mean", "median", "min", "max"):
        table.add_column(column, justify="left" if column == "sentence" else "right")
    for key in ("sent_more", "sent_less"):
        s = lengths[key]
        table.add_row(
            key, f"{s['mean']:.2f}", f"{s['median']:g}", str(s["minimum"]), str(s["maximum"])
        )
    print_table(table, out)
    same = lengths["same_word_count"]
    out.print(
        f"same word count in both sentences: {same} of {total} "
        f"({100 * same / total:.1f}%); differences: "
        + ", ".join(f"{k}: {v}" for k, v in lengths["word_count_difference"].items())
    )

    if benchmark.report_section is not None and benchmark.name in result:
        benchmark.report_section(result[benchmark.name], out)
    agreement = result["validator_agreement"]
    n = agreement["pairs_with_annotations"]
    out.print()
    out.print("[bold]Validator agreement with bias_type[/] (annotations column)")
    if not agreement["annotations_column"]:
        out.print("skipped: the input has no 'annotations' column")
        return
    if not n:
        out.print("no pair has validator annotations (the 'annotations' cells are empty)")
        return
    out.print(
        f"pairs whose bias_type a majority of validators listed: "
        f"{agreement['majority_supports_label']} of {n} ({agreement['majority_supports_label_percent']:.1f}%); "
        f"mean share of validators listing it: {agreement['mean_support_share']:.3f}"
    )
    table = Table("validators listing bias_type", "pairs", title_justify="left")
    for k, v in agreement["label_supported_by"].items():
        table.add_row(str(k), str(v))
    print_table(table, out)
