"""``curate lint`` and ``curate rules``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from curate.commands.common import (
    ENCODING,
    INPUT_FORMAT,
    LANGUAGE,
    OUTPUT_FORMAT,
    SKIP_BAD_ROWS,
    TableFormat,
    config,
    data_path,
    dataset_format,
    err,
    handles_errors,
    load_dataset,
    out,
    split_codes,
)
from curate.errors import InputError, UsageError, user_text

if TYPE_CHECKING:
    from curate.formats import Dataset
    from curate.lint import LintSettings
    from curate.lint.profiles import LintTarget

#: Caches live here, under the project root (git-ignored).
CACHE_DIR = ".curate-cache"


def register(app: typer.Typer) -> None:
    """Add the lint commands to ``app``."""
    app.command("lint")(lint)
    app.command("rules")(rules)


@handles_errors
def lint(
    path: Path | None = typer.Argument(
        None,
        help="Dataset file in any shape (see --input-format). Default: the fetched CrowS-Pairs "
        "([tool.curate] data).",
    ),
    select: list[str] | None = typer.Option(
        None,
        "--select",
        help="Rule codes or prefixes to run instead of the defaults (e.g. S,P006 or ALL).",
    ),
    extend_select: list[str] | None = typer.Option(
        None, "--extend-select", help="Rule codes or prefixes to add to the selection."
    ),
    ignore: list[str] | None = typer.Option(
        None, "--ignore", help="Rule codes or prefixes to skip."
    ),
    preset: str | None = typer.Option(
        None,
        "--preset",
        help="A named selection instead of the defaults (e.g. murphy-2022); see `curate rules --presets`.",
    ),
    fmt: TableFormat = typer.Option(
        TableFormat.text, "--format", help="Output format of findings."
    ),
    output: Path | None = typer.Option(
        None,
        "--output",
        "-o",
        help="Write findings to this file (with --fix: write the fixed pairs here, in the "
        "input's shape unless --output-format says otherwise; WinoBias input is written as a "
        "folder of its text files).",
    ),
    statistics: bool = typer.Option(
        False, "--statistics", help="Print counts per rule instead of findings."
    ),
    fix: bool = typer.Option(
        False,
        "--fix",
        help="Apply the safe typographic fixes and write the fixed pairs to --output.",
    ),
    max_differing_words: int | None = typer.Option(
        None, min=0, help="Limit of P002 differing-vocabulary (default 2)."
    ),
    max_edit_distance: int | None = typer.Option(
        None, min=0, help="Limit of P003 edit-distance (default 13)."
    ),
    cache: bool = typer.Option(
        True,
        "--cache/--no-cache",
        help="Keep spaCy's word splits in .curate-cache/ so later runs start faster.",
    ),
    input_format: str | None = INPUT_FORMAT,
    output_format: str | None = OUTPUT_FORMAT,
    encoding: str | None = ENCODING,
    language: str | None = LANGUAGE,
    skip_bad_rows: bool = SKIP_BAD_ROWS,
) -> None:
    """Find invalid minimal pairs. Exit 1 when findings remain, 0 when none, 2 on bad input.

    Rules are selected like ruff's: the defaults of `curate rules`, changed by [tool.curate.lint]
    in pyproject.toml. On the command line --select starts a fresh selection (the config's
    select/ignore no longer apply); --extend-select and --ignore add to the config's. Rules
    that need a column the input lacks (L001 needs 'annotations') are skipped, and the run
    says so once.
    """
    from curate.lint import settings_from_table
    from curate.lint.presets import preset_settings
    from curate.tokencache import persistent_splits

    input_format = dataset_format(input_format)
    output_format = dataset_format(output_format, output=True)
    if output_format is not None and not fix:
        raise UsageError("--output-format applies to the pairs --fix writes; add --fix")
    cfg = config()
    settings = settings_from_table(cfg.section("lint"))
    if preset is not None:  # a preset starts afresh like --select; --select then refines it
        settings = preset_settings(preset, settings)
    if select is not None:  # a selection on the command line starts afresh
        settings = settings.with_overrides(select=split_codes(select), extend_select=(), ignore=())
    settings = settings.with_overrides(
        extend_select=settings.extend_select + (split_codes(extend_select) or ()),
        ignore=settings.ignore + (split_codes(ignore) or ()),
        max_differing_words=max_differing_words,
        max_edit_distance=max_edit_distance,
    )
    path = data_path(path, cfg)
    with persistent_splits(cfg.root / CACHE_DIR if cache else None):
        _lint_and_report(
            dataset=load_dataset(path, input_format, encoding, language, skip_bad_rows),
            path=path,
            settings=settings,
            fix=fix,
            output=output,
            output_format=output_format,
            statistics=statistics,
            fmt=fmt,
        )


def _lint_and_report(
    *,
    dataset: Dataset,
    path: Path,
    settings: LintSettings,
    fix: bool,
    output: Path | None,
    output_format: str | None,
    statistics: bool,
    fmt: TableFormat,
) -> None:
    from curate.benchmarks import benchmark_of, lint_target
    from curate.datasets import write_dataset
    from curate.fileio import real_path, write_text_atomic
    from curate.lint import fix_pairs, report
    from curate.lint.inputs import skip_unavailable
    from curate.lint.profiles import apply_profile

    if not dataset.pairs and not dataset.intersentence:  # as stats and score refuse it
        raise InputError(f"{path}: no pairs (the file holds only a header)")
    # StereoSet pairs written to CSV keep StereoSet's design: the profile follows the columns
    benchmark = benchmark_of(dataset, by_columns=True)
    target = lint_target(benchmark, dataset.language)
    settings, notes = apply_profile(settings, target)
    column_of = dataset.schema.column_of if dataset.schema is not None else str
    settings, skipped = skip_unavailable(settings, dataset.fields, column_of, target.rules())
    notes += [s.note() for s in skipped]
    precision = benchmark.lint.precision_of(target.language)
    if precision:
        notes.append(precision)
    if dataset.skipped_rows:
        if fix:
            raise UsageError(
                f"--fix would write {user_text(output or path)} without the "
                f"{len(dataset.skipped_rows)} row(s) --skip-bad-rows left out; repair those rows "
                "first, or lint without --fix"
            )
        notes.append(
            f"{len(dataset.skipped_rows)} row(s) of the file were left out by --skip-bad-rows "
            "and not linted"
        )
    pairs = list(dataset.pairs)
    if fix:
        if output is None:
            raise UsageError(
                "--fix needs --output PATH for the fixed pairs; the input is never modified"
            )
        if real_path(output) == real_path(path):
            raise UsageError(
                f"--output {output} is the input file; write the fixed pairs elsewhere"
            )
        result = fix_pairs(pairs, settings, target=target)
        write_dataset(dataset.with_pairs(result.pairs), output, output_format)
        err.print(report.format_fixes(result.applied), end="", markup=False, highlight=False)
        err.print(
            f"fixed {len(result.applied)} fields in {result.changed_pairs} pairs; "
            f"wrote {user_text(output)}"
        )
        pairs, output = result.pairs, None
    items = benchmark.lint.items(dataset) if benchmark.lint.items else None
    findings = _run(pairs, settings, target, items)
    if statistics:
        text = report.format_statistics(findings, len(pairs), notes)
    else:
        text = report.FORMATTERS[fmt.value](findings)
        for note in notes:  # stderr, so that JSON/CSV findings on stdout stay parseable
            err.print(f"note: {note}", markup=False, highlight=False)
    if output is not None:
        write_text_atomic(output, text)
        err.print(f"{len(findings)} findings written to {user_text(output)}")
    else:
        out.print(text, end="", markup=False, highlight=False)
    if findings:
        raise typer.Exit(1)


def _run(pairs, settings: LintSettings, target: LintTarget, items=None):
    from curate.lint import lint_pairs

    with Progress(
        TextColumn("linting"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=len(pairs) < 5000,
    ) as progress:
        task = progress.add_task("lint", total=len(pairs))
        return lint_pairs(
            pairs,
            settings,
            progress=lambda done: progress.update(task, completed=done),
            items=items,
            target=target,
        )


@handles_errors
def rules(
    code: str | None = typer.Argument(
        None, help="Show the explanation of this rule (code or name)."
    ),
    fmt: TableFormat = typer.Option(
        TableFormat.text, "--format", help="Output format of the list."
    ),
    presets: bool = typer.Option(
        False, "--presets", help="List the named selections of `curate lint --preset`."
    ),
) -> None:
    """List the lint rules, or explain one with its bad and good examples."""
    from curate.benchmarks import all_rules
    from curate.instrument.rules import BY_CODE as INSTRUMENT_RULES
    from curate.lint.presets import PRESETS

    registry = all_rules()
    if presets:
        for preset in PRESETS.values():
            out.print(
                f"{preset.name}  {','.join(preset.select)}\n  {preset.description}",
                markup=False,
                highlight=False,
            )
        return
    if code is None:
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "default": r.default,
                "fixable": r.fixable,
                "summary": r.summary,
            }
            for r in registry.values()
        ]
        # the findings of `curate instrument` (family I): documented here, run from there
        rows += [
            {"code": r.code, "name": r.name, "default": False, "fixable": False, "summary": r.summary}
            for r in INSTRUMENT_RULES.values()
        ]
        rows.sort(key=lambda row: row["code"])
        if fmt is TableFormat.text:
            for row in rows:
                flags = ("on " if row["default"] else "off") + (
                    " fix" if row["fixable"] else "    "
                )
                if row["code"] in INSTRUMENT_RULES:
                    flags = "instr   "
                out.print(
                    f"{row['code']}  {row['name']:<28} {flags}  {row['summary']}",
                    markup=False,
                    highlight=False,
                )
        elif fmt is TableFormat.jsonl:
            import json

            for row in rows:
                out.print(json.dumps(row), markup=False, highlight=False)
        elif fmt is TableFormat.json:
            import json

            out.print(json.dumps(rows, indent=2), markup=False, highlight=False)
        else:
            import csv
            import io

            buffer = io.StringIO()
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
            out.print(buffer.getvalue(), end="", markup=False, highlight=False)
        return
    wanted = code.upper()
    instrument_rule = INSTRUMENT_RULES.get(wanted) or next(
        (r for r in INSTRUMENT_RULES.values() if r.name == code), None
    )
    if instrument_rule is not None:
        out.print(
            f"{instrument_rule.code} {instrument_rule.name}: {instrument_rule.summary}\n"
            "not a lint rule: written by `curate instrument` from the scores of several models\n\n"
            + instrument_rule.explanation(),
            markup=False,
            highlight=False,
        )
        return
    rule = registry.get(wanted) or next((r for r in registry.values() if r.name == code), None)
    if rule is None:
        raise UsageError(f"unknown rule {code!r}; `curate rules` lists them")
    lines = [
        f"{rule.code} {rule.name}: {rule.summary}",
        f"default: {'on' if rule.default else 'off'}; fix: {'safe automatic fix' if rule.fixable else 'none'}",
        "",
        rule.explanation(),
    ]
    out.print("\n".join(lines), markup=False, highlight=False)
