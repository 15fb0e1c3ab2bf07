"""``curate score --import``: published per-pair scores into curate's score files (front end)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.markup import escape

from curate.commands.common import config, data_path, err
from curate.datasets import read_dataset
from curate.errors import InputError, UsageError
from curate.formats import log_warnings
from curate.modelnames import model_slug
from curate.score.metrics import DEFAULT_THRESHOLD


def run_import(
    path: Path | None,
    import_file: Path,
    models: list[str] | None,
    source: str,
    prefer: str,
    out_dir: Path | None,
    input_format: str | None,
    threshold: float | None,
) -> dict[str, Any]:
    """Import ``import_file`` (computed on ``path``) under the one ``-m`` label; write and
    return its summary (with ``slug``)."""
    from curate.benchmarks import benchmark_of
    from curate.score.imported import import_scores, import_summary, method_directory, write_import
    from curate.score.run import data_info

    if not models or len(models) != 1:
        raise UsageError("--import needs exactly one -m LABEL: the name of the model that produced the file")
    cfg = config()
    path = data_path(path, cfg)
    dataset = read_dataset(path, input_format)
    log_warnings(dataset.warnings)
    if not dataset.pairs:
        raise InputError(f"{path}: no pairs (the file has a header and no rows)")
    label = models[0]
    result = import_scores(import_file, dataset.pairs, data=str(path), prefer=prefer)
    summary = import_summary(
        result,
        label=label,
        source=source,
        path=import_file,
        data=data_info(path),
        threshold=DEFAULT_THRESHOLD if threshold is None else threshold,
        groups=benchmark_of(dataset).scoring.groups,
    )
    slug = model_slug(label)
    target = (out_dir or cfg.output_dir / "score" / path.stem) / slug / method_directory(source)
    write_import(result, summary, target)
    info = summary["imported"]
    err.print(
        f"{escape(slug)} imported:{escape(source)}: {info['rows']} pairs, the {info['prefer']} "
        f"score wins{' (numbers negated)' if info['negated'] else ''}, {info['swapped_rows']} "
        f"rows with swapped sentence columns, {info['published_score_disagreements']} rows "
        "whose published score disagrees with the verdict on the dataset's sent_more"
    )
    err.print(f"{escape(slug)}: wrote {escape(str(target))}")
    return {"slug": slug, **summary}
