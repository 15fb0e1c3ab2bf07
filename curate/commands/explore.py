"""``curate explore``: one static page to browse a version (or two) pair by pair.

Reads only what the pipeline already wrote (versions, findings, rounds, releases' change logs,
``curate score`` outputs and the score cache) and writes a site that opens from ``file://``.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from curate.commands.common import config, err, handles_errors, out
from curate.errors import InputError, UsageError

if TYPE_CHECKING:
    from curate.config import Config

#: The score cache shared with ``curate score`` (same file, same ``[tool.curate.score] cache``).
DEFAULT_CACHE = ".curate-cache/scores.sqlite"


def register(app: typer.Typer) -> None:
    """Add the explore command to ``app``."""
    app.command("explore")(explore)


def _cache_path(cfg: Config, cache: Path | None) -> Path:
    if cache is not None:
        return cache
    configured = cfg.section("score").get("cache", DEFAULT_CACHE)
    if not isinstance(configured, str):
        raise InputError(
            f"{cfg.root / 'pyproject.toml'}: [tool.curate.score] cache must be a string"
        )
    return cfg.root / configured


def _round_names(cfg: Config, names: list[str] | None) -> list[str]:
    """The rounds named, else every round of the project that has a tally (decisions.jsonl)."""
    from curate.annotate import rounds

    if names:
        return [rounds.check_round_name(n) for n in names]
    base = rounds.rounds_dir(cfg)
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "decisions.jsonl").is_file())


@handles_errors
def explore(
    versions: list[str] | None = typer.Argument(
        None,
        metavar="[BEFORE] [AFTER]",
        help="One version to browse or two to compare: a release version (e.g. 1.0.0-auto), "
        "'raw' or a source name, or a CSV/Parquet file. Default: raw.",
        show_default=False,
    ),
    scores: list[Path] | None = typer.Option(
        None,
        "--scores",
        help="A directory holding `curate score` (or `curate sweep`) outputs: every summary.json "
        "below it is a column (model, method) of the page; what cannot be used is named in a "
        "warning. Repeat for several; a score row is used only for the pair text it was made from.",
    ),
    round_names: list[str] | None = typer.Option(
        None,
        "--round",
        help="Annotation round whose decisions and answers to show. Repeat for several; later "
        "rounds win in the decision column. Default: every round with a tally.",
    ),
    findings_paths: list[Path] | None = typer.Option(
        None,
        "--findings",
        help="Findings (JSON lines of `curate lint`). Repeat for several. "
        "Default: OUTPUT_DIR/findings.jsonl if it exists.",
    ),
    cache: Path | None = typer.Option(
        None, "--cache", help=f"Score cache for the per-token chart. Default: {DEFAULT_CACHE}."
    ),
    no_tokens: bool = typer.Option(
        False, "--no-tokens", help="Leave out the per-token log-probabilities (smaller site)."
    ),
    out_dir: Path | None = typer.Option(
        None, "--out", "-o", help="Site directory. Default: explore in [tool.curate] output-dir."
    ),
) -> None:
    """Write a static site (index.html) to browse pairs with their findings, decisions,
    annotator answers, change history and scores, a threshold slider, and a way for readers
    to report bad pairs as a findings file for `curate annotations push --findings`."""
    from curate.fileio import check_output_dir

    specs = list(versions or ["raw"])
    if len(specs) > 2:
        raise UsageError(f"give one or two versions (BEFORE AFTER), got {len(specs)}")
    cfg = config()
    out_dir = out_dir or cfg.output_dir / "explore"
    check_output_dir(out_dir)  # before any reading or charting

    from curate.annotate import rounds as rounds_lib
    from curate.annotate.export import Snapshot
    from curate.decisions import read_decisions
    from curate.findings import read_findings
    from curate.release.revise import CHANGES_NAME, read_changes
    from curate.release.versions import read_pairs_file, resolve_version
    from curate.report.explore_data import (
        RoundData,
        VersionData,
        build_explore_data,
        group_models,
        read_score_dir,
        unmatched_sets,
    )
    from curate.report.explore_page import write_site

    version_data = []
    for spec in specs:
        resolved = resolve_version(spec, cfg)
        changes_file = resolved.path.parent / CHANGES_NAME
        # a release's change log, or the one `curate revise` wrote beside a revised file
        changes = read_changes(changes_file) if changes_file.is_file() else []
        pairs = tuple(read_pairs_file(resolved.path))
        version_data.append(
            VersionData(
                resolved.label, pairs, tuple(changes), _language(pairs), _data_record(resolved.path)
            )
        )
    if findings_paths is None:
        default = cfg.output_dir / "findings.jsonl"
        findings_paths = [default] if default.is_file() else []
    findings = [f for path in findings_paths for f in read_findings(path)]
    round_data = []
    for name in _round_names(cfg, round_names):
        files = rounds_lib.round_files(cfg, name)
        if not files.decisions.is_file():
            raise InputError(
                f"{files.decisions}: no such file; run `curate annotations tally --round {name}`"
            )
        decisions = [d.to_dict() for d in read_decisions(files.decisions)]
        answers: list[dict[str, Any]] = []
        if files.annotations.is_file():
            snapshot = Snapshot.from_dict(
                rounds_lib.read_json(files.annotations), str(files.annotations)
            )
            answers = [asdict(a) for a in snapshot.answers]
        round_data.append(RoundData(name, tuple(decisions), tuple(answers)))
    score_sets = []
    warnings: list[str] = []
    for directory in scores or []:  # each refuses when none of its score sets is usable
        found, skipped = read_score_dir(directory)
        score_sets.extend(found)
        warnings.extend(skipped)
    unmatched = unmatched_sets(version_data, score_sets)
    from curate.pairs import BY_POSITION_NOTE

    items = any(p.item_id for v in version_data for p in v.pairs)
    if score_sets and len(unmatched) == len(score_sets):
        raise InputError(
            f"{', '.join(str(d) for d in scores or [])}: no score set is of a pair text of "
            f"{', '.join(v.label for v in version_data)} (scores of another file?)"
        )
    for warning in warnings:
        err.print(f"[yellow]warning:[/] {escape(warning)}")
    for unused in unmatched:
        err.print(
            f"[yellow]warning:[/] {escape(unused.source)}: skipped, none of its scores is of a "
            f"pair text of {escape(', '.join(v.label for v in version_data))}"
            + (f" (if its scores are of an older curate: {escape(BY_POSITION_NOTE)})" if items else "")
        )
    if items:  # findings keyed by an item's position name no item, or the wrong one: refuse
        _check_findings(findings, version_data)
    score_sets = [s for s in score_sets if all(s is not u for u in unmatched)]
    from curate.report.explore_data import column_count_text, identical_sets

    for same in identical_sets(score_sets):
        err.print(
            f"note: identical score sets (same model, method and scores), kept once: "
            f"{escape(', '.join(s.source for s in same))}"
        )
        score_sets = [s for s in score_sets if all(s is not d for d in same[1:])]
    data = build_explore_data(version_data, findings, round_data, score_sets)
    for note in data["notes"]:  # the page shows them too, above the numbers
        err.print(f"note: {escape(note)}")
    tokens: dict[int, dict[int, Any]] = {}
    if not no_tokens and score_sets:
        tokens = _tokens(
            group_models(score_sets, version_data), data["rows"], _cache_path(cfg, cache)
        )
        for index, model in enumerate(data["models"]):
            model["tokens"] = index in tokens
    written = write_site(data, tokens, out_dir)
    out.print(
        f"wrote {escape(str(out_dir / 'index.html'))} ({len(data['rows'])} pairs, "
        f"{column_count_text(data['models'])}, {len(written)} files); open it in a browser",
    )


def _check_findings(findings: list[Any], versions: list[Any]) -> None:
    """Refuse findings that name a pair id no version holds when the versions' items have
    their own ids: they were keyed by position (an older curate) or made from another file."""
    from curate.pairs import BY_POSITION_NOTE, pair_label

    held = {p.pair_id for v in versions for p in v.pairs}
    missing = sorted({(f.pair_id, f.item_id) for f in findings if f.pair_id not in held})
    if missing:
        shown = ", ".join(pair_label(i, item) for i, item in missing[:5])
        raise InputError(
            f"{len(missing)} finding(s) name pairs no version holds ({shown}"
            f"{' ...' if len(missing) > 5 else ''}): {BY_POSITION_NOTE}"
        )


def _rounded(entry: dict[str, list[list[Any]]]) -> dict[str, list[list[Any]]]:
    """Log-probabilities to 4 decimals for the chart (the score table shows the exact sums):
    halves the token files."""
    return {
        side: [[token, None if lp is None else round(lp, 4)] for token, lp in tokens]
        for side, tokens in entry.items()
    }


def _located(provenance: dict[str, Any], summary: str) -> dict[str, Any]:
    """The provenance with ``model`` pointing at a directory this process can open: the
    absolute ``model_path`` `curate score` records, else the path as given if it exists from
    here, else the same path taken from the project root the summary was written under."""
    model = str(provenance.get("model", ""))
    for candidate in (provenance.get("model_path"), model):
        if isinstance(candidate, str) and candidate and Path(candidate).is_dir():
            return {**provenance, "model": candidate}
    if model and not Path(model).is_absolute() and summary:
        for parent in Path(summary).resolve().parents:
            if (parent / model).is_dir():
                return {**provenance, "model": str(parent / model)}
    return dict(provenance)


def _data_record(path: Path) -> tuple[str, str] | None:
    """The version's file as `curate score` records it in summary.json (name, SHA-256), so a
    score set made from it is known to serve it."""
    from curate.score.outputs import data_info

    try:
        info = data_info(path)
    except OSError:
        return None
    return str(info["file"]), str(info["sha256"])


def _tokens(
    models: list[Any], rows: list[dict[str, Any]], cache_path: Path
) -> dict[int, dict[int, Any]]:
    """Per model: pair id -> per version the per-token data of the scored text (or None)."""
    from curate.report.explore_tokens import token_logprobs

    found: dict[int, dict[int, Any]] = {}
    with Progress(
        TextColumn("reading per-token log-probabilities"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("models"),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("tokens", total=len(models))
        for index, column in enumerate(models):
            sets = column.sets
            wanted: list[tuple[int, int, tuple[str, str, str]]] = []
            for row in rows:
                for v, cells in enumerate(row["v"]):
                    if cells == 0:  # same text as the first version: the page reuses its chart
                        continue
                    if cells is not None and row["s"][index][v] is not None:
                        wanted.append((row["id"], v, (cells[0], cells[1], cells[2])))
            result = token_logprobs(
                cache_path, _located(sets[0].provenance, sets[0].source), [w[2] for w in wanted]
            )
            progress.advance(task)
            if result is None and sets[0].provenance.get("imported"):
                err.print(
                    f"note: no per-token chart for {escape(sets[0].label)} "
                    f"{escape(str(sets[0].provenance.get('method', '')))}: imported scores carry "
                    "no per-token log-probabilities"
                )
                continue
            if result is None:
                err.print(
                    f"note: no per-token chart for {escape(sets[0].label)} "
                    f"{escape(str(sets[0].provenance.get('method', '')))}: the score cache "
                    f"{escape(str(cache_path))} or the model "
                    f"{escape(str(_located(sets[0].provenance, sets[0].source).get('model')))} "
                    "(weights and tokenizer as scored) is not available"
                )
                continue
            per_pair: dict[int, list[Any]] = {}
            n_versions = len(rows[0]["v"]) if rows else 1
            for (pair_id, v, _), entry in zip(wanted, result, strict=True):
                per_pair.setdefault(pair_id, [None] * n_versions)[v] = _rounded(entry)
            found[index] = per_pair
    return found


def _language(pairs) -> str | None:
    """The language of a version's sentences, detected as the readers detect it (two versions
    in different languages are shown as aligned translations)."""
    from curate.formats.language import detect_language

    sample = " ".join(p.sent_more for p in list(pairs)[:200])
    return detect_language(sample) if sample.strip() else None
