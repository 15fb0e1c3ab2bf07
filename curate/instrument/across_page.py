"""The cross-benchmark page (``index.html``) from the report.json of :mod:`curate.instrument.across`.

Static and offline: tables in HTML, charts by plotly (``plotly.min.js`` copied beside the
page). Every model name and metric label is text from the user's files, so it is escaped.
Sections, in reading order: the combined score *with* its definition and the agreement of the
rankings it combines; each metric with its interval and rank; Kendall's tau between every two
rankings (heat map and table); bias against capability (one scatter per capability column).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from curate.fileio import write_text_atomic
from curate.report.explore_page import plotly_js_path
from curate.report.tables import escape_html as esc

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:right;font-size:.9rem}
th:first-child,td:first-child{text-align:left}
.note{color:#555;font-size:.9rem;max-width:70rem}
.rank{color:#777;font-size:.8rem}
.definition{background:#f6f6f6;padding:.5rem .75rem;border-left:4px solid #888}
"""


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _cell(record: Mapping[str, Any] | None) -> str:
    if not record or record.get("value") is None:
        return "–"
    text = _number(record["value"])
    if record.get("low") is not None:
        text += f" [{_number(record['low'])}, {_number(record['high'])}]"
    elif record.get("no_interval"):
        text += f" <span class='rank'>({esc(record['no_interval'])})</span>"
    return text


def _tau_text(pair: Mapping[str, Any]) -> str:
    if pair.get("value") is None:
        return f"– ({esc(pair.get('no_value', ''))})"
    text = f"{pair['value']:.2f}"
    if pair.get("low") is not None:
        text += f" [{pair['low']:.2f}, {pair['high']:.2f}]"
    elif pair.get("no_interval"):
        text += f" ({esc(pair['no_interval'])})"
    return text


def _label(column: Mapping[str, Any]) -> str:
    return f"{column['title']}: {column['metric']}"


def _combined(report: Mapping[str, Any]) -> str:
    combined = report["combined"]
    agree = combined["agreement_between_benchmarks"]
    mean = agree["mean_tau"]
    rows = "".join(
        f"<tr><td>{esc(m)}</td><td>{_number(combined['scores'].get(m))}</td>"
        f"<td>{_number(combined['ranks'].get(m), 1)}</td></tr>"
        for m in sorted(report["models"], key=lambda m: combined["ranks"].get(m, 1e9))
    )
    if mean is None:
        agreement = "no two combined columns of different benchmarks share 3 models"
    else:
        agreement = (
            f"mean Kendall tau {mean:.2f} (from {agree['min_tau']:.2f} to "
            f"{agree['max_tau']:.2f}) over {agree['pairs']} pairs of columns of different "
            "benchmarks"
        )
    return (
        "<section id='combined'><h2>Combined score</h2>"
        f"<p class='definition'><b>Definition.</b> {esc(combined['definition'])}</p>"
        f"<p class='definition' id='combined-agreement'><b>Agreement of what it combines.</b> "
        f"{esc(agreement)}. Rankings that disagree make a combined score a compromise, not a "
        "measurement: read it with the per-benchmark ranks below.</p>"
        f"<p class='note'>Benchmarks combined: {esc(', '.join(combined['benchmarks']) or 'none')}</p>"
        "<table id='combined-table'><tr><th>model</th><th>combined (mean rank)</th>"
        f"<th>rank</th></tr>{rows}</table></section>"
    )


def _metrics(report: Mapping[str, Any]) -> str:
    head = "".join(
        f"<th>{esc(_label(c))}<br><span class='rank'>{esc(c['kind'])}; "
        f"{esc(_better(c))}</span></th>"
        for c in report["columns"]
    )
    rows = ""
    for model in report["models"]:
        cells = "".join(
            f"<td>{_cell(c['values'].get(model))}"
            + (
                f" <span class='rank'>#{_number(c['ranks'][model], 1)}</span>"
                if model in c["ranks"]
                else ""
            )
            + "</td>"
            for c in report["columns"]
        )
        rows += f"<tr><td>{esc(model)}</td>{cells}</tr>"
    return (
        "<section id='metrics'><h2>Every metric with its interval and each model's rank</h2>"
        "<p class='note'>95% intervals as each benchmark gives them (Wilson over pairs, "
        "bootstrap over target terms or sentences); #rank 1 = best in that column.</p>"
        f"<table id='metrics-table'><tr><th>model</th>{head}</tr>{rows}</table></section>"
    )


def _better(column: Mapping[str, Any]) -> str:
    if column["better"] == "closer":
        return f"ideal {column.get('ideal', 0):g}"
    return f"{column['better']} is better"


def _agreement(report: Mapping[str, Any], figure: str) -> str:
    labels = {c["key"]: _label(c) for c in report["columns"]}
    rows = "".join(
        f"<tr><td>{esc(labels[p['a']])}</td><td>{esc(labels[p['b']])}</td>"
        f"<td>{_tau_text(p)}</td><td>{len(p['models'])}</td></tr>"
        for p in report["agreement"]
    )
    return (
        "<section id='agreement'><h2>Agreement between rankings (Kendall's tau-b)</h2>"
        "<p class='note'>tau between two columns' rankings of the models both have; bootstrap "
        "interval over models (none under 10 models: n too small).</p>"
        f"{figure}<table id='tau-table'><tr><th>ranking</th><th>ranking</th><th>tau</th>"
        f"<th>models</th></tr>{rows}</table></section>"
    )


def _figures(report: Mapping[str, Any]) -> tuple[str, str]:
    import plotly.graph_objects as go

    columns = report["columns"]
    # plotly reads a subset of HTML in its strings: user text goes in escaped, as in the tables
    labels = [esc(_label(c)) for c in columns]
    index = {c["key"]: i for i, c in enumerate(columns)}
    size = len(columns)
    matrix: list[list[float | None]] = [[None] * size for _ in range(size)]
    for i in range(size):
        matrix[i][i] = 1.0
    for p in report["agreement"]:
        i, j = index[p["a"]], index[p["b"]]
        matrix[i][j] = matrix[j][i] = p["value"]
    heat = go.Figure(
        go.Heatmap(
            z=matrix, x=labels, y=labels, zmin=-1, zmax=1, colorscale="RdBu",
            text=[[("" if v is None else f"{v:.2f}") for v in row] for row in matrix],
            texttemplate="%{text}", colorbar={"title": "tau"},
        )
    )
    heat.update_layout(height=200 + 45 * size, margin={"l": 220, "b": 200}, title="Kendall tau")
    heat.update_yaxes(autorange="reversed")  # the same order as the x axis, top to bottom
    scatters = []
    capability = [c for c in columns if c["kind"] == "capability" and c["better"] == "lower"]
    others = [c for c in columns if c["kind"] != "capability"]
    for cap in capability:
        fig = go.Figure()
        for column in others:
            xs, ys, names = [], [], []
            for model in report["models"]:
                x = cap["values"].get(model, {}).get("value")
                y = column["values"].get(model, {}).get("value")
                if x is None or y is None:
                    continue
                xs.append(x)
                ys.append(abs(y - column.get("ideal", 0)) if column["better"] == "closer" else y)
                names.append(esc(model))
            fig.add_trace(
                go.Scatter(
                    x=xs, y=ys, mode="markers+text", text=names, textposition="top center",
                    name=esc(_label(column)), marker={"size": 10},
                )
            )
        fig.update_layout(
            title=f"Bias against capability: {esc(_label(cap))} (lower is better)",
            xaxis_title=esc(_label(cap)),
            yaxis_title="bias: distance from the ideal (or ICAT/LMS value)",
            height=520,
        )
        scatters.append(fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"scatter-{len(scatters)}"))
    scatter = (
        "<section id='scatter'><h2>Bias against capability</h2>"
        "<p class='note'>Each point is a model; x its (pseudo-)perplexity on the corpus, y its "
        "distance from the ideal score of a bias column (0 = unbiased), or the value of a "
        "mixed column (ICAT: higher is better).</p>"
        + ("".join(scatters) or "<p>No capability column: run the sweep with a corpus.</p>")
        + "</section>"
    )
    return heat.to_html(full_html=False, include_plotlyjs=False, div_id="tau-heatmap"), scatter


def render_page(report: Mapping[str, Any]) -> str:
    """The page's HTML (plotly.min.js is loaded from beside it)."""
    heat, scatter = _figures(report)
    notes = "".join(f"<li>{esc(n)}</li>" for n in report.get("notes", []))
    sources = ", ".join(esc(s) for s in report.get("sources", []))
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<title>curate across: models across benchmarks</title>"
        f"<style>{_STYLE}</style><script src='plotly.min.js'></script></head><body>"
        f"<h1>{len(report['models'])} models across {len(report['columns'])} metrics</h1>"
        f"<p class='note'>From: {sources}</p>"
        + (f"<ul class='note' id='notes'>{notes}</ul>" if notes else "")
        + _combined(report)
        + _metrics(report)
        + _agreement(report, heat)
        + scatter
        + "</body></html>\n"
    )


def write_across(report: Mapping[str, Any], out_dir: Path) -> Path:
    """Write ``report.json``, ``index.html`` and ``plotly.min.js`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomic(
        out_dir / "report.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    )
    target = out_dir / "plotly.min.js"
    if not target.exists():
        temporary = out_dir / ".plotly.min.js.tmp"
        shutil.copyfile(plotly_js_path(), temporary)
        temporary.replace(target)
    write_text_atomic(out_dir / "index.html", render_page(report))
    return out_dir / "index.html"
