"""``curate across``: one view of several models across benchmarks, from sweep outputs.

Reads each sweep's ``sweep.json``, asks the benchmark registry for each column's benchmark and
its headline metrics (``Scoring.headline``; the shared pair route's summary.json otherwise), adds
the models' capability on the sweep's corpus, and writes ``report.json`` and ``index.html``
(:mod:`curate.instrument.across`, :mod:`curate.instrument.across_page`). A benchmark added to
the registry joins the view without a change here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from curate.commands.common import err, handles_errors, out, print_json
from curate.errors import InputError
from curate.fileio import check_output_dir
from curate.jsonl import loads_document
from curate.terminal import print_table

SWEEP_JSON = "sweep.json"


def register(app: typer.Typer) -> None:
    """Add the across command to ``app``."""
    app.command("across")(across)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        document = loads_document(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, JSONDecodeError, too deep
        raise InputError(f"{path}: not a readable JSON document ({exc})") from None
    if not isinstance(document, dict):
        raise InputError(f"{path}: expected a JSON object")
    return document


def collect(roots: list[Path]) -> tuple[list[Any], list[str], list[str]]:
    """The columns (:class:`~curate.instrument.across.AcrossColumn`), the models in first-seen
    order and notes on what was left out, from the sweep outputs under ``roots``.

    A model label that two sweeps give different numbers for one metric (two seeds, two
    runs) is two models, told apart by the sweep's folder, ``gpt2 (s1)`` and ``gpt2 (s2)``:
    one never overwrites the other."""
    from curate.benchmarks import all_benchmarks
    from curate.benchmarks.spec import pair_headline
    from curate.report.explore_data import folder_tags

    known = all_benchmarks()
    notes: list[str] = []
    entries: list[tuple[int, Path, dict[str, Any]]] = []
    capabilities: list[tuple[int, str, dict[str, Any]]] = []
    for index, root in enumerate(roots):
        sweep = _read_json(root / SWEEP_JSON if root.is_dir() else root)
        base = root if root.is_dir() else root.parent
        for entry in sweep.get("columns", []):
            entries.append((index, base, entry))
        for model, record in (sweep.get("capability") or {}).items():
            capabilities.append((index, model, record))
    versions: dict[str, set[str]] = {}
    for _, _, entry in entries:
        versions.setdefault(entry.get("benchmark", "crows-pairs"), set()).add(entry["version"])
    # every value read: (sweep, column key, model, record), and each column's description
    found: list[tuple[int, str, str, dict[str, Any]]] = []
    described: dict[str, dict[str, Any]] = {}
    for index, base, entry in entries:
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
        title = benchmark.title + (
            f" ({entry['version']})" if len(versions.get(name, ())) > 1 else ""
        )
        for record in records:
            key = f"{name}/{entry['version']}/{record['metric']}"
            if not _finite_number(record.get("value")):
                notes.append(
                    f"{benchmark.title} ({entry['version']}, {entry['path']}): {record['metric']} "
                    f"of {model} is {record.get('value')!r}, not a finite number; left out"
                )
                continue
            described.setdefault(key, {
                "benchmark": name, "title": title, "metric": record["metric"],
                "kind": record.get("kind", "bias"), "better": record.get("better", "closer"),
                "ideal": record.get("ideal"),
            })  # fmt: skip
            keep = ("value", "n", "low", "high", "no_interval", "interval")
            found.append((index, key, model, {k: v for k, v in record.items() if k in keep}))
    for index, model, record in capabilities:
        if not _finite_number(record.get("value")):
            notes.append(f"capability of {model} is {record.get('value')!r}, not a finite number; left out")
            continue
        corpus = record.get("corpus", {}).get("name", "corpus")
        key = f"capability/{corpus}/{record.get('measure', 'perplexity')}"
        described.setdefault(key, {
            "benchmark": "capability", "title": f"Capability on {corpus}",
            "metric": record.get("measure", "perplexity"), "kind": "capability",
            "better": "lower", "ideal": None,
        })  # fmt: skip
        keep = ("value", "n", "low", "high", "no_interval", "method")
        found.append((index, key, model, {k: v for k, v in record.items() if k in keep}))
    return (*_columns(found, described, roots, folder_tags, notes), notes)


def _columns(
    found: list[tuple[int, str, str, dict[str, Any]]],
    described: dict[str, dict[str, Any]],
    roots: list[Path],
    folder_tags: Any,
    notes: list[str],
) -> tuple[list[Any], list[str]]:
    """The columns and models of the values found; a label two sweeps disagree on is split."""
    from curate.instrument.across import AcrossColumn

    by_sweep: dict[tuple[str, str], dict[int, Any]] = {}
    for index, key, model, record in found:
        by_sweep.setdefault((key, model), {}).setdefault(index, record.get("value"))
    twice = {m for (_, m), values in by_sweep.items() if len(set(values.values())) > 1}
    tags = folder_tags([str(r if not r.is_dir() else r / SWEEP_JSON) for r in roots])
    models: list[str] = []
    columns: dict[str, AcrossColumn] = {}
    for index, key, model, record in found:
        name = f"{model} ({tags[index]})" if model in twice else model
        if name not in models:
            models.append(name)
        column = columns.get(key)
        if column is None:
            column = columns[key] = AcrossColumn(key=key, **described[key])
        column.values.setdefault(name, record)  # two sweeps that agree: the first
    for model in sorted(twice):
        shown = [m for m in models if m.startswith(f"{model} (")]
        notes.append(
            f"{model}: two sweeps give it different numbers for one metric, so it is shown as "
            f"{len(shown)} models told apart by the sweep's folder: {', '.join(shown)}"
        )
    return list(columns.values()), models


def _finite_number(value: Any) -> bool:
    """A number a rank and a JSON report can hold (not NaN, not infinite, not text)."""
    import math

    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


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
    from curate.instrument.across_page import (
        agreement_text,
        groups_text,
        no_combined_text,
        p_text,
        tau_text,
    )

    combined = report["combined"]
    groups = combined.get("groups") or [list(combined["scores"])]
    group_of = {m: i for i, g in enumerate(groups) for m in g}
    if combined["scores"]:
        table = Table(title="Combined score: " + combined["definition"], title_justify="left")
        table.add_column("model")
        if len(groups) > 1:
            table.add_column("group", justify="right")
        table.add_column("combined", justify="right")
        table.add_column("rank", justify="right")
        ranked = sorted(
            combined["scores"], key=lambda m: (group_of.get(m, 0), combined["ranks"].get(m, 1e9))
        )
        for model in ranked:
            table.add_row(
                escape(model),
                *([str(group_of[model] + 1)] if len(groups) > 1 else []),
                f"{combined['scores'][model]:.2f}",
                f"{combined['ranks'][model]:g}",
            )
        print_table(table, out)
    else:
        out.print(
            "combined score: none; no bias column has a value for two or more models, so no "
            "model is ranked against another"
        )
    for words in (groups_text(combined), no_combined_text(combined)):
        if words:
            out.print(escape(words))
    out.print(
        "agreement of the combined rankings: "
        + escape(agreement_text(combined["agreement_between_benchmarks"]))
    )
    _render_agreement(report, tau_text, p_text)


def _render_agreement(report: dict[str, Any], tau_text: Any, p_text: Any) -> None:
    """Kendall's tau with its permutation p between the combined columns of different
    benchmarks (the pairs the mean above rests on); every pair is in report.json."""
    columns = {c["key"]: c for c in report["columns"]}
    between = [
        p
        for p in report["agreement"]
        if p.get("value") is not None
        and columns[p["a"]]["in_combined"]
        and columns[p["b"]]["in_combined"]
        and columns[p["a"]]["benchmark"] != columns[p["b"]]["benchmark"]
    ]
    if not between:
        return
    table = Table(title="Kendall tau between combined columns of different benchmarks",
                  title_justify="left")  # fmt: skip
    for name, justify in (("ranking", "left"), ("ranking", "left"), ("tau", "right"),
                          ("permutation p", "right"), ("models", "right")):  # fmt: skip
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for p in between:
        a, b = columns[p["a"]], columns[p["b"]]
        table.add_row(
            escape(f"{a['title']}: {a['metric']}"), escape(f"{b['title']}: {b['metric']}"),
            escape(tau_text(p)), escape(p_text(p)), str(len(p["models"])),
        )  # fmt: skip
    print_table(table, out)
