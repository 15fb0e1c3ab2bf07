"""``curate across``: one view of several models across benchmarks, from sweep outputs.

Reads each sweep's ``sweep.json``, asks the benchmark registry for each column's benchmark and
its headline metrics (``Scoring.headline``; the shared pair route's summary.json otherwise), adds
the models' capability on the sweep's corpus, and writes ``report.json`` and ``index.html``
(:mod:`curate.instrument.across`, :mod:`curate.instrument.across_page`). A benchmark added to
the registry joins the view without a change here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from curate.commands.common import err, handles_errors, out, print_json
from curate.errors import InputError
from curate.fileio import check_output_dir
from curate.terminal import print_table

SWEEP_JSON = "sweep.json"


def register(app: typer.Typer) -> None:
    """Add the across command to ``app``."""
    app.command("across")(across)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON document ({exc})") from None
    if not isinstance(document, dict):
        raise InputError(f"{path}: expected a JSON object")
    return document


def collect(roots: list[Path]) -> tuple[list[Any], list[str], list[str]]:
    """The columns (:class:`~curate.instrument.across.AcrossColumn`), the models in first-seen
    order and notes on what was left out, from the sweep outputs under ``roots``."""
    from curate.benchmarks import all_benchmarks
    from curate.benchmarks.spec import pair_headline
    from curate.instrument.across import AcrossColumn

    known = all_benchmarks()
    models: list[str] = []
    notes: list[str] = []
    columns: dict[str, AcrossColumn] = {}
    entries: list[tuple[Path, dict[str, Any]]] = []
    capabilities: dict[str, dict[str, Any]] = {}
    for root in roots:
        sweep = _read_json(root / SWEEP_JSON if root.is_dir() else root)
        base = root if root.is_dir() else root.parent
        for entry in sweep.get("columns", []):
            entries.append((base, entry))
        for model, record in (sweep.get("capability") or {}).items():
            capabilities.setdefault(model, record)
    versions: dict[str, set[str]] = {}
    for _, entry in entries:
        versions.setdefault(entry.get("benchmark", "crows-pairs"), set()).add(entry["version"])
    for base, entry in entries:
        if entry.get("status") != "ok":
            continue
        name = entry.get("benchmark", "crows-pairs")
        benchmark = known.get(name)
        if benchmark is None:
            notes.append(f"{entry['version']}: benchmark {name} is not registered; left out")
            continue
        document = _read_json(base / entry["path"] / entry.get("file", "summary.json"))
        records = (benchmark.scoring.headline or pair_headline)(document)
        if not records:
            notes.append(
                f"{benchmark.title} ({entry['version']}, {entry['path']}): no headline metric "
                "in its output; left out"
            )
            continue
        model = entry["model"]
        if model not in models:
            models.append(model)
        title = benchmark.title + (
            f" ({entry['version']})" if len(versions.get(name, ())) > 1 else ""
        )
        for record in records:
            key = f"{name}/{entry['version']}/{record['metric']}"
            column = columns.get(key)
            if column is None:
                column = columns[key] = AcrossColumn(
                    key=key,
                    benchmark=name,
                    title=title,
                    metric=record["metric"],
                    kind=record.get("kind", "bias"),
                    better=record.get("better", "closer"),
                    ideal=record.get("ideal"),
                )
            column.values[model] = {
                k: v for k, v in record.items() if k in ("value", "n", "low", "high", "no_interval", "interval")
            }
    by_corpus: dict[str, AcrossColumn] = {}
    for model, record in capabilities.items():
        corpus = record.get("corpus", {}).get("name", "corpus")
        key = f"capability/{corpus}/{record.get('measure', 'perplexity')}"
        column = by_corpus.get(key)
        if column is None:
            column = by_corpus[key] = AcrossColumn(
                key=key,
                benchmark="capability",
                title=f"Capability on {corpus}",
                metric=record.get("measure", "perplexity"),
                kind="capability",
                better="lower",
                ideal=None,
            )
        column.values[model] = {
            k: v for k, v in record.items() if k in ("value", "n", "low", "high", "no_interval", "method")
        }
        if model not in models:
            models.append(model)
    return [*columns.values(), *by_corpus.values()], models, notes


@handles_errors
def across(
    roots: list[Path] = typer.Argument(
        ...,
        metavar="SWEEP...",
        help="Sweep outputs (the folder with sweep.json, or the file): a sweep over several "
        "benchmarks and models, or several sweeps over the same models.",
    ),
    out_dir: Path = typer.Option(
        Path("build/across"), "--out", "-o", help="Where report.json and index.html go."
    ),
    fmt: str = typer.Option(
        "text", "--format", help="text: the combined ranking and agreement; json: report.json."
    ),
) -> None:
    """One view of several models across benchmarks: every benchmark's headline metric with
    its interval, capability, ranks, Kendall's tau between rankings and a combined score with
    its definition.

    Every benchmark's headline metric with its interval (CrowS-Pairs and WinoBias per method, StereoSet SS/LMS/ICAT, any other
    registered benchmark's own headline), the models' (pseudo-)perplexity on the sweep's corpus,
    each model's rank per metric, Kendall's tau between every two rankings with a bootstrap
    interval over models (n too small under 10 models), the bias columns against capability,
    and a combined score, given only with its definition and the agreement of the rankings it
    combines beside it. Writes OUT/report.json and OUT/index.html (offline)."""
    from curate.instrument.across import across_report
    from curate.instrument.across_page import write_across

    if fmt not in ("text", "json"):
        from curate.errors import UsageError

        raise UsageError(f"--format must be text or json, not {fmt!r}")
    columns, models, notes = collect(roots)
    if not columns:
        raise InputError(
            f"{', '.join(str(r) for r in roots)}: no scored column to compare (run `curate "
            "sweep` first)"
        )
    check_output_dir(out_dir)
    report = across_report(columns, models)
    report["sources"] = [str(r) for r in roots]
    report["notes"] = notes
    page = write_across(report, out_dir)
    if fmt == "json":
        print_json(report)
        return
    for note in notes:
        err.print(f"note: {escape(note)}")
    _render(report)
    err.print(f"wrote {escape(str(page))} and {escape(str(out_dir / 'report.json'))}")


def _render(report: dict[str, Any]) -> None:
    combined = report["combined"]
    table = Table(
        title="Combined score: " + combined["definition"], title_justify="left"
    )
    table.add_column("model")
    table.add_column("combined", justify="right")
    table.add_column("rank", justify="right")
    for model in sorted(report["models"], key=lambda m: combined["ranks"].get(m, 1e9)):
        score = combined["scores"].get(model)
        table.add_row(
            escape(model),
            "-" if score is None else f"{score:.2f}",
            "-" if model not in combined["ranks"] else f"{combined['ranks'][model]:g}",
        )
    print_table(table, out)
    agree = combined["agreement_between_benchmarks"]
    if agree["mean_tau"] is None:
        out.print("agreement: no two combined columns of different benchmarks share 3 models")
    else:
        out.print(
            f"agreement of the combined rankings: mean Kendall tau {agree['mean_tau']:.2f} "
            f"(from {agree['min_tau']:.2f} to {agree['max_tau']:.2f}, {agree['pairs']} pairs)"
        )
