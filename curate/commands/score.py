"""``curate score``: the CrowS-Pairs metric of one or more masked language models.

torch and transformers are imported only when the command runs, so ``curate --help`` and the
other commands stay fast.
"""

from __future__ import annotations

import hashlib
import warnings
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from curate import __version__
from curate.commands.common import (
    DEFAULT_SCORE_CACHE,
    INPUT_FORMAT,
    ReportFormat,
    config,
    data_path,
    dataset_format,
    err,
    handles_errors,
    out,
    print_json,
    score_cache_path,
)
from curate.config import Config
from curate.errors import InputError, UsageError
from curate.modelnames import model_slug
from curate.pairs import BIAS_TYPES, read_pairs


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


def register(app: typer.Typer) -> None:
    """Add the score command to ``app``."""
    app.command("score")(score)


class _RateColumn(ProgressColumn):
    """Masked tokens per second."""

    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} tok/s" if speed else "… tok/s", style="progress.data.speed")


def _settings(cfg: Config) -> dict[str, Any]:
    """``[tool.curate.score]``, type-checked."""
    table = cfg.section("score")
    where = f"{cfg.root / 'pyproject.toml'}: [tool.curate.score]"
    models = table.get("models", [])
    if not isinstance(models, list) or not all(isinstance(m, str) for m in models):
        raise InputError(f"{where} models must be a list of strings")
    for key, kind in (("batch-size", int), ("threshold", (int, float)), ("cache", str)):
        if key in table and not isinstance(table[key], kind):
            raise InputError(f"{where} {key} has the wrong type")
    return table


@handles_errors
def score(
    path: Path | None = typer.Argument(
        None,
        help="Dataset file in any shape (see --input-format). Default: the fetched CrowS-Pairs "
        "([tool.curate] data).",
    ),
    models: list[str] | None = typer.Option(
        None,
        "--model",
        "-m",
        help=(
            "Masked LM: a local directory saved with save_pretrained or a Hugging Face hub "
            "name. Repeat for several. Default: [tool.curate.score] models."
        ),
    ),
    out_dir: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="Output directory; each model gets <out>/<model>/scores.csv and summary.json. "
        "Default: <output-dir>/score/<data file stem>.",
    ),
    batch_size: int | None = typer.Option(
        None, "--batch-size", min=1, help="Masked copies per forward pass (default 32)."
    ),
    threads: int | None = typer.Option(
        None, "--threads", min=1, help="CPU worker threads (default: as many as torch uses)."
    ),
    device: Device = typer.Option(Device.auto, "--device", help="auto: CUDA, MPS, else CPU."),
    dtype: DType = typer.Option(
        DType.float32, "--dtype", help="bfloat16 is faster but changes scores; opt-in."
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
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", help="Output format."),
    input_format: str | None = INPUT_FORMAT,
) -> None:
    """Score pairs with the CrowS-Pairs pseudo-log-likelihood metric (Nangia et al. 2020).

    Exactly the numbers of the original metric.py, computed in batches with the LM head at the
    masked tokens only. Every masked token's log-probability is cached, so a rerun costs
    nothing, an interrupted run resumes, and a revised dataset recomputes only what changed.
    """
    input_format = dataset_format(input_format)
    cfg = config()
    settings = _settings(cfg)
    models = list(models or settings.get("models", []))
    if not models:
        raise UsageError("name a model with --model (or set [tool.curate.score] models)")
    path = data_path(path, cfg)
    slugs = [model_slug(m) for m in models]
    if len(set(slugs)) != len(slugs):
        raise UsageError(f"two models would share an output directory: {', '.join(slugs)}")
    pairs = read_pairs(path, input_format)
    out_dir = out_dir or cfg.output_dir / "score" / path.stem
    cache_path = score_cache_path(cfg, cache, no_cache)
    threshold = float(threshold if threshold is not None else settings.get("threshold", 5.0))
    batch_size = batch_size or settings.get("batch-size")

    from transformers.utils import logging as hf_logging

    from curate.score import DEFAULT_BATCH_SIZE, PrecisionWarning, load_model, score_pairs
    from curate.score.cache import ScoreCache
    from curate.score.files import write_scores_csv, write_summary_json
    from curate.score.metrics import summarize
    from curate.score.pll import BF16_WARNING

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    data_sha = hashlib.sha256(path.read_bytes()).hexdigest()
    if dtype is DType.bfloat16:
        err.print(f"[yellow]warning:[/] {BF16_WARNING}")
    summaries: list[dict[str, Any]] = []
    store = ScoreCache(cache_path)
    try:
        for model, slug in zip(models, slugs, strict=True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PrecisionWarning)
                with err.status(f"loading {model}"):
                    lm = load_model(
                        model, device=device.value, dtype=dtype.value, lowercase=lowercase
                    )
            with Progress(
                TextColumn(f"scoring [bold]{escape(slug)}[/]"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("masked tokens"),
                _RateColumn(),
                TimeRemainingColumn(),
                console=err,
                transient=True,
            ) as progress:
                task = progress.add_task("score", total=None)

                def report(done: int, total: int, task: Any = task, bar: Any = progress) -> None:
                    bar.update(task, completed=done, total=total)

                result = score_pairs(
                    pairs,
                    lm,
                    cache=store,
                    batch_size=batch_size or DEFAULT_BATCH_SIZE,
                    progress=report,
                    threads=threads,
                )
            stats = result.stats
            err.print(
                f"{slug}: {len(pairs)} pairs, {stats.masked_tokens:,} masked tokens "
                f"({stats.unique_jobs:,} distinct): {stats.cache_hits:,} from the cache, "
                f"{stats.computed:,} computed in {stats.batches:,} batches, "
                f"{stats.seconds:.1f} s on {lm.device.type} ({lm.dtype}, {lm.head_mode} head)"
            )
            summary = {
                "tool": f"curate {__version__}",
                "data": {"file": path.name, "sha256": data_sha},
                **result.provenance(),
                "summary": summarize(result.scores, threshold=threshold),
            }
            target = out_dir / slug
            write_scores_csv(result.scores, target / "scores.csv")
            write_summary_json(summary, target / "summary.json")
            err.print(f"{slug}: wrote {target / 'scores.csv'} and summary.json")
            summaries.append({"slug": slug, **summary})
            del lm
    except KeyboardInterrupt:
        err.print("interrupted; finished batches are cached, so a rerun resumes from there")
        raise typer.Exit(130) from None
    finally:
        store.close()
    if fmt is ReportFormat.json:
        print_json({"models": summaries})
        return
    _render(summaries, path.name, threshold)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _render(summaries: list[dict[str, Any]], source: str, threshold: float) -> None:
    """A table like Table 2 of the CrowS-Pairs paper: % of pairs where sent_more is preferred."""
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
        table.add_column(s["slug"], justify="right")
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
        table.add_row(bias_type, str(rows[0]["n"]), *(_pct(r["score"]) for r in rows))
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
    out.print(table)


def _confidence_cell(stats: dict[str, float | None]) -> str:
    """The mean confidence of a summary, or a dash when it has no pairs."""
    return "-" if stats["mean"] is None else f"{stats['mean']:.4f}"
