"""``curate score --import``: published per-pair scores into curate's score files (front end)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.markup import escape

from curate.commands.common import config, data_path, err
from curate.errors import InputError, UsageError
from curate.modelnames import model_slug


def refuse_occupied(target: Path, summary: dict[str, Any]) -> None:
    """One score set per (data, label, method): refuse to replace a score set of another data
    file, or an import of another published file, in ``target`` (both named). The same file
    imported again on the same data is a re-import and may replace its own output."""
    from curate.jsonl import loads_document

    existing = target / "summary.json"
    if not existing.is_file():
        return
    try:
        old = loads_document(existing.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        old = None
    old_data = old.get("data") if isinstance(old, dict) else None
    old_import = old.get("imported") if isinstance(old, dict) else None
    new_data, new_import = summary["data"], summary["imported"]
    if (
        isinstance(old_data, dict)
        and isinstance(old_import, dict)
        and old_data.get("sha256") == new_data["sha256"]
        and old_import.get("sha256") == new_import["sha256"]
    ):
        return
    held = (
        f"the import of {old_import.get('file')} on {old_data.get('file')}"
        if isinstance(old_import, dict) and isinstance(old_data, dict)
        else f"another score set ({existing.name} of {old_data.get('file') if isinstance(old_data, dict) else 'unknown data'})"
    )
    raise UsageError(
        f"{target} already holds {held}; this import is of {new_import['file']} on "
        f"{new_data['file']} under the same label and method: give it its own -o folder (one "
        "per data file) or another -m label, or remove the old one"
    )


def run_import(
    path: Path | None,
    import_file: Path,
    models: list[str] | None,
    source: str,
    prefer: str,
    out_dir: Path | None,
    input_format: str | None,
    threshold: float | None,
    skip_bad_rows: bool = False,
) -> dict[str, Any]:
    """Import ``import_file`` (computed on ``path``) under the one ``-m`` label; write and
    return its summary (with ``slug``)."""
    from curate.benchmarks import benchmark_of
    from curate.datasets import read_dataset
    from curate.formats import log_warnings
    from curate.score.imported import import_scores, import_summary, method_directory, write_import
    from curate.score.metrics import DEFAULT_THRESHOLD
    from curate.score.outputs import data_info

    if not models or len(models) != 1:
        raise UsageError("--import needs exactly one -m LABEL: the name of the model that produced the file")
    cfg = config()
    path = data_path(path, cfg)
    dataset = read_dataset(path, input_format)
    log_warnings(dataset.warnings)
    if not dataset.pairs:
        raise InputError(f"{path}: no pairs (the file has a header and no rows)")
    label = models[0]
    result = import_scores(import_file, dataset.pairs, data=str(path), prefer=prefer, skip_bad_rows=skip_bad_rows)
    summary = import_summary(
        result,
        label=label,
        source=source,
        path=import_file,
        data=data_info(path, dataset.skipped_rows),
        threshold=DEFAULT_THRESHOLD if threshold is None else threshold,
        groups=benchmark_of(dataset).scoring.groups,
    )
    slug = model_slug(label)
    target = (out_dir or cfg.output_dir / "score" / path.stem) / slug / method_directory(source)
    refuse_occupied(target, summary)
    write_import(result, summary, target)
    info = summary["imported"]
    err.print(
        f"{escape(slug)} imported:{escape(source)}: {info['rows']} pairs, the {info['prefer']} "
        f"score wins{' (numbers negated)' if info['negated'] else ''}, {info['swapped_rows']} "
        f"rows with swapped sentence columns, {info['published_score_disagreements']} rows "
        "whose published score disagrees with the verdict on the dataset's sent_more"
    )
    if result.skipped:
        unscored = len(dataset.pairs) - len(result.scores)
        lines = ", ".join(str(line) for line, _ in result.skipped[:10])
        more = f" and {len(result.skipped) - 10} more" if len(result.skipped) > 10 else ""
        err.print(
            f"{escape(slug)}: {len(result.skipped)} unusable rows of {escape(import_file.name)} left out "
            f"(--skip-bad-rows; lines {lines}{more}; listed in summary.json): "
            + (f"{unscored} pairs of the data have no score" if unscored
               else "none of them is a pair of the data (every pair has its score)")
        )
    err.print(f"{escape(slug)}: wrote {escape(str(target))}")
    return {"slug": slug, **summary}
