"""``curate revise``, ``curate publish`` and ``curate diff``: from decisions to a citable release."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text

from curate.commands.aligned import aligned_diff, cross_language
from curate.commands.common import (
    INPUT_FORMAT,
    OUTPUT_FORMAT,
    VERSIONS_INPUT_FORMAT,
    ReportFormat,
    config,
    dataset_format,
    dataset_formats,
    err,
    handles_errors,
    literal_help,
    out,
    print_json,
    print_warnings,
    shown_path,
    split_codes,
)
from curate.errors import UsageError, user_text

if TYPE_CHECKING:
    from curate.release.pairdiff import PairDiff
    from curate.release.publish import PublishResult


def register(app: typer.Typer) -> None:
    """Add the release commands to ``app``."""
    app.command("revise")(revise)
    app.command("publish")(publish)
    app.command("diff")(diff)


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr for the autofix pass (transient; hidden when not a terminal)."""
    label = user_text(label)  # it names the version the user typed: never markup
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=None)

        def report(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield report


@handles_errors
def revise(
    recipe: Path | None = typer.Option(
        None,
        "--recipe",
        help="Release recipe, e.g. data/clean/1.0.0-auto/recipe.toml. Or give the options below.",
    ),
    raw: Path | None = typer.Option(
        None,
        "--raw",
        help=literal_help("Raw file to use instead of data/raw/<file>; must match the pinned SHA-256."),
    ),
    source: str = typer.Option(
        "crows-pairs", "--source", help="Without --recipe: the data/raw/sources.toml entry."
    ),
    fix: list[str] | None = typer.Option(
        None, "--fix", help="Without --recipe: fixable rule codes to apply, e.g. T001,T003."
    ),
    rounds: list[str] | None = typer.Option(
        None,
        "--round",
        help="Without --recipe: apply annotations/rounds/ROUND/decisions.jsonl (repeatable).",
    ),
    decisions: list[Path] | None = typer.Option(
        None,
        "--decisions",
        help="Without --recipe: a hand-written decisions.jsonl (a reason per entry), applied "
        "after the rounds (repeatable).",
    ),
    output_dir: Path | None = typer.Option(
        None,
        "--output-dir",
        "-o",
        help="Where to write crows_pairs_revised.csv (or .tsv/.jsonl/.parquet, by shape; "
        "stereoset_revised.json, the folder winobias_revised/ for those benchmarks) and "
        "changes.jsonl, as one set. Default: build/revised/VERSION (or build/revised without "
        "a recipe).",
    ),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Summary format."),
    input_format: str | None = INPUT_FORMAT,
    output_format: str | None = OUTPUT_FORMAT,
) -> None:
    """Apply safe autofixes, then decisions in order, to the pinned raw file.

    The raw file may be in any shape (a recipe forces one with [source] format; without a
    recipe, --input-format does). The revised pairs are written in the raw file's shape (the
    upstream CSV for upstream input) unless --output-format says otherwise, every column of the
    raw file kept; and changes.jsonl: for every changed,
    dropped or relabelled pair, the old and new values and why (lint codes, decision, votes,
    round). Two decisions for one pair that disagree stop the run, naming both.
    """
    from curate.datasets import SUFFIXES
    from curate.fileio import check_output_dir, write_file_set
    from curate.release.recipe import load_recipe, recipe_from_options
    from curate.release.revise import CHANGES_NAME, summarize_changes
    from curate.release.revise import revise as revise_pairs

    forced_input = dataset_format(input_format)
    output_format = dataset_format(output_format, output=True)
    cfg = config()
    if recipe is not None:
        if fix or rounds or decisions:
            raise UsageError("give either --recipe or --fix/--round/--decisions, not both")
        if forced_input is not None:
            raise UsageError("with --recipe, the raw file's shape is the recipe's [source] format")
        parsed = load_recipe(recipe, cfg)
    else:
        parsed = recipe_from_options(
            cfg,
            source,
            split_codes(fix, upper=True) or (),
            tuple(rounds or ()),
            tuple(decisions or ()),
            forced_input,
        )
    target = output_dir or cfg.output_dir / "revised" / (parsed.version or "")
    check_output_dir(target)  # a folder that cannot be written fails now, not after the work
    with _progress("autofixing") as report:
        revision = revise_pairs(parsed, cfg, raw, report)
    for warning in revision.warnings:
        err.print(f"warning: {warning}", markup=False)
    stem = revision.data_stem()
    data_name = stem + SUFFIXES[revision.output_shape(output_format)]
    files: dict[str, str | bytes] = {
        **revision.dataset_files(stem, output_format),  # one file, or a folder (WinoBias)
        CHANGES_NAME: revision.changes_text(),
    }
    write_file_set(target, files)  # the data and its changes.jsonl appear together
    counts = summarize_changes(revision.changes)
    result = {
        "version": parsed.version,
        "raw_pairs": len(revision.raw),
        "pairs": len(revision.pairs),
        **counts,
        "decisions_read": revision.decisions_read,
        "outputs": [
            shown_path(target / data_name, cfg.root),
            shown_path(target / CHANGES_NAME, cfg.root),
        ],
    }
    if fmt is ReportFormat.json:
        print_json(result)
        return
    kinds = counts["changes"]
    out.print(
        f"{len(revision.raw)} -> {len(revision.pairs)} pairs; {counts['changed_pairs']} changed "
        f"({kinds['edited']} edited, {kinds['relabelled']} relabelled, "
        f"{kinds['edited+relabelled']} both, {kinds['dropped']} dropped)",
        markup=False,
    )
    for code, entry in counts["lint"].items():
        out.print(
            f"  {code} {entry['rule']}: {entry['fixes']} fixes in {entry['pairs']} pairs",
            markup=False,
        )
    for action, n in counts["decisions"].items():
        out.print(f"  decision {action}: {n} pairs", markup=False)
    err.print(f"wrote {result['outputs'][0]} and {result['outputs'][1]}", markup=False)


@handles_errors
def publish(
    version: str = typer.Argument(
        ..., help="Semver version with a recipe in data/clean/VERSION/recipe.toml, e.g. 1.0.0-auto."
    ),
    raw: Path | None = typer.Option(
        None,
        "--raw",
        help=literal_help("Raw CSV to use instead of data/raw/<file>; must match the pinned SHA-256."),
    ),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Summary format."),
    push_to_hub: str | None = typer.Option(
        None,
        "--push-to-hub",
        metavar="REPO",
        help="After building, upload the release to this Hugging Face Hub dataset repo (USER/NAME) "
        "and tag it with VERSION. The token comes from HF_TOKEN or `hf auth login`; it is never "
        "printed.",
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="With --push-to-hub: list what would be uploaded; upload nothing."
    ),
) -> None:
    """Build the release data/clean/VERSION/dist/: CSV, Parquet (also in the Hugging Face
    crows_pairs layout), changes, data card, changelog, an lm-evaluation-harness task (lm_eval/),
    manifest and SHA256SUMS.

    A published version is immutable: publishing it again with a different recipe or different
    inputs is refused; with the same inputs the files are rebuilt and must be byte-identical.
    datasets.load_dataset("data/clean/VERSION/dist") loads it; `lm_eval --include_path
    data/clean/VERSION/dist/lm_eval --tasks TASK` evaluates a model on it.
    """
    from curate.release.hub import check_repo_id, planned_uploads
    from curate.release.hub import push as push_release
    from curate.release.publish import publish as publish_release

    if dry_run and push_to_hub is None:
        raise UsageError("--dry-run only applies with --push-to-hub REPO")
    repo = check_repo_id(push_to_hub) if push_to_hub is not None else None
    cfg = config()
    with _progress(f"building {version}") as report:
        result = publish_release(cfg, version, raw, report)
    for warning in result.build.revision.warnings:
        err.print(f"warning: {warning}", markup=False)
    manifest = result.build.manifest
    counts = manifest["counts"]
    dist = shown_path(result.dist, cfg.root)
    names = list(result.build.files)
    pushed = None
    if repo is not None:
        uploads = planned_uploads(result.dist, names)
        pushed = {
            "repo": repo,
            "dry_run": dry_run,
            "files": [{"path": u.path, "bytes": u.bytes, "sha256": u.sha256} for u in uploads],
        }
        if not dry_run:
            with err.status(f"pushing {version} to the hub dataset repo {user_text(repo)}"):
                pushed["commit"] = push_release(result.dist, repo, version, names)
    if fmt is ReportFormat.json:
        print_json(
            {
                "version": version,
                "status": result.status,
                "dist": dist,
                "restored": list(result.restored),
                "counts": counts,
                "files": manifest["files"],
                **({"push": pushed} if pushed is not None else {}),
            }
        )
        return
    _print_published(version, result, dist, counts, names)
    if pushed is not None:
        _print_pushed(version, pushed)


def _print_pushed(version: str, pushed: dict) -> None:
    repo = pushed["repo"]
    if pushed["dry_run"]:
        total = sum(f["bytes"] for f in pushed["files"])
        out.print(
            f"dry run: would upload {len(pushed['files'])} files ({total:,} bytes) to the hub "
            f"dataset repo {repo} and tag it {version}:",
            markup=False,
        )
        for f in pushed["files"]:
            out.print(f"  {f['path']}  {f['bytes']:,} bytes  sha256 {f['sha256'][:12]}…", markup=False)
    else:
        out.print(f"pushed {version} to the hub dataset repo {repo}: {pushed['commit']}", markup=False)


def _print_published(
    version: str, result: PublishResult, dist: str, counts: dict, names: list[str]
) -> None:
    if result.status == "built":
        message = f"{version}: built {dist}/ ({', '.join(names)})"
    elif result.status == "restored":
        message = f"{version}: restored {', '.join(result.restored)} in {dist}/ (same inputs)"
    else:
        message = (
            f"{version}: already published with the same inputs; the rebuild is byte-identical, "
            "nothing written"
        )
    out.print(message, markup=False)
    out.print(
        f"{counts['pairs']} pairs ({counts['raw_pairs']} upstream), "
        f"{counts['changed_pairs']} changed; verify with: cd {dist} && sha256sum -c SHA256SUMS",
        markup=False,
    )


def _styled(diff: PairDiff) -> Text:
    """The text diff with colours; the [-old-]{+new+} markers stay for plain terminals."""
    from curate.pairs import pair_label
    from curate.release.pairdiff import format_summary, not_compared_note

    text = Text()
    text.append(f"--- {diff.before_label}\n+++ {diff.after_label}\n", style="bold")
    text.append(format_summary(diff) + "\n")
    if diff.not_compared:
        text.append(not_compared_note(diff) + "\n")
    for pair in diff.dropped:
        text.append(f"\ndropped {pair_label(pair.pair_id, pair.item_id)} ({pair.bias_type}, {pair.direction})\n", "bold")
        text.append(f"  - sent_more: {pair.sent_more}\n  - sent_less: {pair.sent_less}\n", "red")
    for pair in diff.added:
        text.append(f"\nadded {pair_label(pair.pair_id, pair.item_id)} ({pair.bias_type}, {pair.direction})\n", "bold")
        text.append(f"  + sent_more: {pair.sent_more}\n  + sent_less: {pair.sent_less}\n", "green")
    for edit in diff.edited:
        text.append(f"\nedited {edit.label}\n", "bold")
        for change in edit.fields:
            text.append(f"  {change.column}: ")
            segments = change.segments
            if not segments:
                text.append(f"[-{change.old}-]", "red")
                text.append(f"{{+{change.new}+}}", "green")
            for s in segments:
                if s.op == "equal":
                    text.append(s.text)
                elif s.op == "delete":
                    text.append(f"[-{s.text}-]", "red")
                else:
                    text.append(f"{{+{s.text}+}}", "green")
            text.append("\n")
    return text


@handles_errors
def diff(
    a: str = typer.Argument(..., help="Old version: a version (1.0.0-auto), 'raw', or a file."),
    b: str = typer.Argument(
        ..., help="New version: a version, 'raw', or a dataset file in any shape."
    ),
    input_format: str | None = VERSIONS_INPUT_FORMAT,
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Output format."),
    summary_only: bool = typer.Option(
        False, "--summary", help="Print only the counts of added, dropped and edited pairs."
    ),
    findings: Path | None = typer.Option(
        None,
        "--findings",
        help="Versions in two languages: write the cross-version findings here (JSON lines, "
        "for curate annotations push --findings).",
    ),
) -> None:
    """Pair-level diff of two versions: added, dropped and edited pairs, edits word by word.

    Pairs are matched by id, and only the columns both versions have are compared (a
    five-column copy of the upstream file edits nothing). Versions resolve to
    data/clean/VERSION/dist/crows_pairs_revised.csv; 'raw' is the fetched CrowS-Pairs file.
    Versions in two languages (the French and Dutch CrowS-Pairs keep the English ids) are
    shown aligned pair by pair instead, with the pairs whose labels or swapped groups disagree
    listed by kind (exit 1 when there are any).
    """
    from curate.formats import shared_fields
    from curate.release.pairdiff import diff_pairs, format_summary, not_compared_note
    from curate.release.versions import load_version_dataset

    cfg = config()
    before_format, after_format = dataset_formats(input_format)
    old, before = load_version_dataset(a, cfg, before_format)
    new, after = load_version_dataset(b, cfg, after_format)
    print_warnings(before)
    print_warnings(after)
    if cross_language(before, after):
        aligned_diff(
            old.label,
            before,
            new.label,
            after,
            as_json=fmt is ReportFormat.json,
            summary_only=summary_only,
            findings_path=findings,
        )
        return
    if findings is not None:
        raise UsageError("--findings applies to versions in two languages (an aligned diff)")
    result = diff_pairs(
        before.pairs, after.pairs, old.label, new.label, shared_fields(before, after)
    )
    if fmt is ReportFormat.json:
        print_json(result.summary() if summary_only else result.to_dict())
        return
    if summary_only:
        out.print(format_summary(result), markup=False)
        if result.not_compared:
            out.print(not_compared_note(result), markup=False)
        return
    out.print(_styled(result), end="")
