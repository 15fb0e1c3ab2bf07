"""``curate instrument``: is the benchmark a good instrument? (thin front end)

Four statistics, one subcommand each; all read score directories written by ``curate score``
(or ``curate score --import``), match the score sets to the data files by checksum, print the
tables and write ``report.json``, ``report.md`` and a self-contained ``report.html`` to
``--out`` (default ``<output-dir>/instrument/<statistic>``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import typer
from rich.markup import escape

from curate.commands.common import (
    INPUT_FORMAT,
    SKIP_BAD_ROWS,
    ReportFormat,
    config,
    data_path,
    dataset_format,
    err,
    handles_errors,
    literal_help,
    out,
    print_json,
)
from curate.commands.help import HelpTyper

instrument_app = HelpTyper(
    help="Reliability and validity of a benchmark as a measuring instrument, from the scores "
    "of several models: parallel forms, internal consistency, convergent validity, sensitivity.",
    no_args_is_help=True,
)

SCORES = typer.Option(
    ...,
    "--scores",
    "-s",
    help="A `curate score --out` directory (searched recursively); repeat for several. Score "
    "sets are matched to the data files by the SHA-256 in their summary.json.",
)
OUT = typer.Option(
    None, "--out", "-o", help=literal_help("Report directory. Default: <output-dir>/instrument/<statistic>.")
)
FORMAT = typer.Option(ReportFormat.text, "--format", help="Terminal output: tables, or the report as JSON.")
FINDINGS = typer.Option(
    None,
    "--findings",
    help="Write the pairs the statistic flags as findings (JSON lines) that `curate annotations "
    "push --findings` takes.",
)


def register(app: typer.Typer) -> None:
    """Add the instrument commands to ``app``."""
    app.add_typer(instrument_app, name="instrument")


def _finish(
    report, kind: str, out_dir: Path | None, fmt: ReportFormat, findings=None, findings_path=None,
    *, columns=(), data: tuple[Path, ...] = (), roots: tuple[Path, ...] = (), idle: tuple[str, ...] = (),
    skipped: dict[str, list[dict[str, object]]] | None = None,
) -> None:
    """Write and print the report; then exit 1 when an input the user named contributed
    nothing (a --scores folder without a score set of these files, or ``idle`` ones).
    ``skipped``: the rows --skip-bad-rows left out of each data file, recorded in the report."""
    from curate.findings import write_findings
    from curate.instrument.report import print_report, render_json, write_report
    from curate.instrument.scores import (
        file_sha256,
        files_named,
        told_apart_lines,
        unused_inputs,
        unused_lines,
    )

    digests = {file_sha256(p) for p in data}
    unused = unused_inputs(c for c in columns if c.data_sha256 in digests)
    for root in roots:
        root = Path(root).absolute()
        # a score set found through a symlinked folder lies below the root as given, not
        # below its resolved path: both are asked
        used = any(
            c.data_sha256 in digests
            and any(r in (d, *d.parents) for r in (root, root.resolve())
                    for d in (c.directory.absolute(), c.directory.resolve()))
            for c in columns
        )
        if not used and not files_named(root, "stereoset.json"):
            unused.append({"input": root.name, "reason": "no score set of these data files below it",
                           "contributes_nothing": True})
    report.data["unused"] = report.data.get("unused", []) + unused
    if skipped:
        report.data["skipped_rows"] = skipped
        report.intro += [
            f"NOTE {name}: {len(rows)} row(s) left out by --skip-bad-rows (listed in report.json); "
            "no statistic covers them"
            for name, rows in skipped.items()
        ]
    report.intro += told_apart_lines(c for c in columns if c.data_sha256 in digests)
    report.intro += unused_lines([u for u in unused if "pair_ids" in u])
    report.intro += [f"NOTE --scores {u['input']}: {u['reason']}" for u in unused if "pair_ids" not in u]
    target = out_dir or config().output_dir / "instrument" / kind
    paths = write_report(report, target)
    if findings_path is not None:
        write_findings(findings_path, findings or [])
        err.print(f"{len(findings or [])} findings written to {escape(str(findings_path))}")
    if fmt is ReportFormat.json:
        import json

        print_json(json.loads(render_json(report)))
    else:
        print_report(report, out)
    err.print("wrote " + ", ".join(escape(str(p)) for p in paths))
    idle = (*idle, *(f"--scores {u['input']}" for u in unused if u.get("contributes_nothing")))
    if idle:
        err.print(f"error: {len(idle)} inputs contribute nothing to the statistics: {escape(', '.join(idle))}")
        raise typer.Exit(1)


@dataclass
class _Reader:
    """Reads the commands' data files with --input-format and --skip-bad-rows, keeping the rows
    left out per file for the report (``skipped``, by file name)."""

    input_format: str | None
    skip_bad_rows: bool = False
    skipped: dict[str, list[dict[str, object]]] = field(default_factory=dict)

    def __call__(self, path: Path):
        from curate.datasets import read_dataset
        from curate.formats import log_warnings
        from curate.formats.rows import skipping_bad_rows

        with skipping_bad_rows(self.skip_bad_rows):
            dataset = read_dataset(path, self.input_format)
        log_warnings(dataset.warnings)
        if dataset.skipped_rows:
            self.skipped[path.name] = [row.as_dict() for row in dataset.skipped_rows]
        return dataset


def _columns(scores: list[Path]):
    from curate.instrument.scores import find_score_columns, told_apart

    return told_apart(find_score_columns(scores))


@instrument_app.command("reliability")
@handles_errors
def reliability(
    alternates: list[Path] = typer.Argument(..., help="Alternate-form files (paraphrases of original pairs)."),
    original: Path | None = typer.Option(
        None, "--original", help="The original dataset. Default: the fetched CrowS-Pairs."
    ),
    scores: list[Path] = SCORES,
    links: Path | None = typer.Option(
        None,
        "--links",
        help="A CSV of links to use instead of the automatic ones: alternate_id,original_id "
        "(and file, the alternate file's name, when several are given).",
    ),
    min_similarity: float = typer.Option(
        50.0,
        "--min-similarity",
        help="Text links (files without an id column) below this similarity (0-100) are left "
        "out of every statistic and counted in the report; 0 keeps them all.",
    ),
    out_dir: Path | None = OUT,
    fmt: ReportFormat = FORMAT,
    findings: Path | None = FINDINGS,
    input_format: str | None = INPUT_FORMAT,
    skip_bad_rows: bool = SKIP_BAD_ROWS,
) -> None:
    """Parallel-form reliability: per bias type and model, the metric on the original pairs and
    on their paraphrases, the paired difference, agreement, Cohen's kappa, McNemar and the
    correlation of the per-pair score gaps; the study's weaker view (subset vs whole type)
    apart. Alternates link to originals by their `id` column, else by text (similarity shown).
    Pairs whose verdict flips under every model are findings I002."""
    from curate.errors import UsageError
    from curate.instrument.reliability import LinkOptions, parallel_forms, read_links

    if not (0.0 <= min_similarity <= 100.0):
        raise UsageError(f"--min-similarity must be between 0 and 100, not {min_similarity!r}")
    read = _Reader(dataset_format(input_format), skip_bad_rows)
    cfg = config()
    original = data_path(original, cfg)
    alternates = [data_path(p, cfg) for p in alternates]
    names = [p.name for p in alternates]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"two alternate files are named {', '.join(twice)}: give each form once")
    original_data = read(original)
    forms = [(p, read(p)) for p in alternates]
    options = LinkOptions(
        given=read_links(links, forms, original_data) if links is not None else {},
        min_similarity=min_similarity,
    )
    columns = _columns(scores)
    report, found = parallel_forms(original, original_data, forms, columns, options)
    if not report.data["rows"]:
        raise UsageError(
            "no model has scores on both the original and an alternate file under --scores "
            "(score both with the same -m label and method)"
        )
    idle = [u["input"] for u in report.data["unused"] if u.get("contributes_nothing")]
    _finish(report, "reliability", out_dir, fmt, found, findings, columns=columns,
            data=(original, *alternates), roots=tuple(scores), skipped=read.skipped,
            idle=tuple(f"{name} (no model scored on both it and the original)" for name in idle))


@instrument_app.command("consistency")
@handles_errors
def consistency(
    path: Path | None = typer.Argument(None, help="The dataset. Default: the fetched CrowS-Pairs."),
    before: Path | None = typer.Option(
        None, "--before", help="An earlier version of the dataset: both are reported side by side."
    ),
    scores: list[Path] = SCORES,
    threshold: float = typer.Option(
        -0.3, "--item-rest-threshold", help="Item-rest correlations at or below this become I001 findings."
    ),
    splits: int = typer.Option(1000, "--splits", min=10, help="Random split-halves."),
    out_dir: Path | None = OUT,
    fmt: ReportFormat = FORMAT,
    findings: Path | None = FINDINGS,
    input_format: str | None = INPUT_FORMAT,
    skip_bad_rows: bool = SKIP_BAD_ROWS,
) -> None:
    """Internal consistency with 3+ models (pairs as items, models as subjects, verdicts 0/1):
    KR-20/alpha overall and per bias type, split-half with Spearman-Brown over random splits,
    item-rest correlations; pairs running against the rest are findings I001 (of PATH)."""
    from curate.instrument.consistency import consistency_report

    if not (-1.0 <= threshold <= 1.0):  # also refuses nan, which no comparison admits
        from curate.errors import UsageError

        raise UsageError(
            f"--item-rest-threshold must be a correlation between -1 and 1, not {threshold!r}"
        )
    read = _Reader(dataset_format(input_format), skip_bad_rows)
    cfg = config()
    path = data_path(path, cfg)
    before = data_path(before, cfg) if before is not None else None
    versions = ([(before, read(before))] if before else []) + [(path, read(path))]
    columns = _columns(scores)
    report, found = consistency_report(versions, columns, threshold=threshold, splits=splits)
    _finish(report, "consistency", out_dir, fmt, found, findings, columns=columns,
            data=tuple(p for p, _ in versions), roots=tuple(scores), skipped=read.skipped)


@instrument_app.command("validity")
@handles_errors
def validity(
    files: list[Path] = typer.Argument(..., help="Benchmark files (each scored with one or more methods)."),
    scores: list[Path] = SCORES,
    out_dir: Path | None = OUT,
    fmt: ReportFormat = FORMAT,
) -> None:
    """Convergent validity: rank correlations (Spearman, Kendall) between every two measures
    (file x method: the CrowS-Pairs metric, or StereoSet's SS for a StereoSet file) over the
    models both scored, with bootstrap intervals over models."""
    from curate.instrument.scores import find_stereoset_results
    from curate.instrument.validity import convergent_validity

    files = [data_path(p, config()) for p in files]
    columns = _columns(scores)
    report = convergent_validity(files, columns, find_stereoset_results(scores))
    _finish(report, "validity", out_dir, fmt, columns=columns, data=tuple(files), roots=tuple(scores))


@instrument_app.command("sensitivity")
@handles_errors
def sensitivity(
    files: list[Path] = typer.Argument(..., help="Benchmark files scored by every checkpoint."),
    scores: list[Path] = SCORES,
    order: str | None = typer.Option(
        None,
        "--order",
        help="The expected order: model labels, comma-separated, lowest first. Default: the "
        "models' names in natural order (checkpoint-9 before checkpoint-10).",
    ),
    out_dir: Path | None = OUT,
    fmt: ReportFormat = FORMAT,
    input_format: str | None = INPUT_FORMAT,
    skip_bad_rows: bool = SKIP_BAD_ROWS,
) -> None:
    """Sensitivity to a known order (e.g. fine-tuning checkpoints): Spearman's rho between the
    order and the metric, a one-sided permutation p-value and a line plot, per file, method and
    bias type."""
    from curate.instrument.sensitivity import sensitivity as run

    read = _Reader(dataset_format(input_format), skip_bad_rows)
    names = [n.strip() for n in order.split(",") if n.strip()] if order else None
    files = [data_path(p, config()) for p in files]
    columns = _columns(scores)
    report = run([(p, read(p)) for p in files], columns, names)
    _finish(report, "sensitivity", out_dir, fmt, columns=columns, data=tuple(files),
            roots=tuple(scores), skipped=read.skipped)


@instrument_app.command("compare")
@handles_errors
def compare(
    before: Path = typer.Argument(..., help="The dataset before the revision."),
    after: Path = typer.Argument(..., help="The revised dataset."),
    scores: list[Path] = SCORES,
    alternates: list[Path] | None = typer.Option(
        None, "--alternate", help="Alternate-form files (paraphrases) to compare both versions with."
    ),
    splits: int = typer.Option(1000, "--splits", min=10, help="Random split-halves."),
    out_dir: Path | None = OUT,
    fmt: ReportFormat = FORMAT,
    input_format: str | None = INPUT_FORMAT,
    skip_bad_rows: bool = SKIP_BAD_ROWS,
) -> None:
    """Did the revision make a better instrument? Both versions side by side: each model's
    metric and whether the versions rank the models alike, internal consistency (3+ models) and,
    with --alternate, parallel-form agreement of both."""
    from curate.instrument.compare import compare_versions

    read = _Reader(dataset_format(input_format), skip_bad_rows)
    cfg = config()
    before, after = data_path(before, cfg), data_path(after, cfg)
    alternates = [data_path(p, cfg) for p in alternates or []]
    columns = _columns(scores)
    report = compare_versions(
        (before, read(before)),
        (after, read(after)),
        columns,
        [(p, read(p)) for p in alternates],
        splits=splits,
    )
    _finish(report, "compare", out_dir, fmt, columns=columns, data=(before, after, *alternates),
            skipped=read.skipped)
