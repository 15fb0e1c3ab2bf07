"""The cross-benchmark page (``index.html``) from the report.json of :mod:`curate.instrument.across`.

Static and offline: tables in HTML, charts by plotly (``plotly.min.js`` copied beside the
page). Every model name and metric label is text from the user's files, so it is escaped.
Sections, in reading order: the combined score *with* its definition and the agreement of the
rankings it combines; each metric with its interval and rank; Kendall's tau between every two
rankings (heat map and table); bias against capability (one scatter per capability column).
"""

from __future__ import annotations

import json
import math
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
    return "–" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def shown_interval(record: Mapping[str, Any], bounds: tuple[float, float] | None = None) -> bool:
    """Whether a record's interval may be printed: finite, containing its estimate and, when
    the statistic's range is known (``bounds``), inside it. Anything else is not an interval
    of this estimate, and the page says so instead of printing it."""
    value, low, high = record.get("value"), record.get("low"), record.get("high")
    numbers = (value, low, high)
    if not all(isinstance(x, int | float) and math.isfinite(x) for x in numbers):
        return False
    if not low <= value <= high:  # type: ignore[operator]
        return False
    return bounds is None or (bounds[0] <= low and high <= bounds[1])  # type: ignore[operator]


def _cell(record: Mapping[str, Any] | None) -> str:
    if not record or not isinstance(record.get("value"), int | float):
        return "–"
    if not math.isfinite(record["value"]):
        return "–"
    text = _number(record["value"])
    if shown_interval(record):
        text += f" [{_number(record['low'])}, {_number(record['high'])}]"
    elif record.get("low") is not None:
        text += " <span class='rank'>(no interval: the one given does not contain the value)</span>"
    elif record.get("no_interval"):
        text += f" <span class='rank'>({esc(record['no_interval'])})</span>"
    return text


def p_text(pair: Mapping[str, Any]) -> str:
    """The permutation p of a tau, as curate prints every p (``p<2/9999`` when no random
    permutation was as extreme; never ``p=0``); empty when there is none."""
    from curate.intervals import Estimate

    if pair.get("p") is None:
        return ""
    return Estimate.from_dict(dict(pair)).p_text()


def tau_text(pair: Mapping[str, Any]) -> str:
    """``0.33 (n too small for an interval)`` or ``0.71 [0.40, 0.90]``: tau and its interval,
    without the p (shown in its own column); the reason in words when there is no tau."""
    if pair.get("value") is None:
        return f"– ({pair.get('no_value', '')})"
    text = f"{pair['value']:.2f}"
    if shown_interval(pair, (-1.0, 1.0)):
        text += f" [{pair['low']:.2f}, {pair['high']:.2f}]"
    elif pair.get("no_interval"):
        text += f" ({pair['no_interval']})"
    return text


def models_text(low: int | None, high: int | None) -> str:
    """``5 models`` or ``3 to 6 models`` (the common models of the pairs a mean rests on)."""
    if low is None or high is None:
        return ""
    return f"{low} models" if low == high else f"{low} to {high} models"


def agreement_text(agree: Mapping[str, Any]) -> str:
    """The line on the agreement of what the combined score combines, with its numbers of
    pairs and models, or in words why there is none."""
    undefined = agree.get("pairs_without_tau", 0)
    rest = (
        f"; {undefined} more pair{'s' if undefined != 1 else ''} of such columns "
        f"{'have' if undefined != 1 else 'has'} no tau (fewer than 3 common models, or a "
        "ranking all ties)"
        if undefined
        else ""
    )
    if agree["mean_tau"] is None and not undefined:
        return "none to give: fewer than two benchmarks have a combined column"
    if agree["mean_tau"] is None:
        which = "the one pair" if undefined == 1 else f"none of the {undefined} pairs"
        return (
            f"no tau between combined columns of different benchmarks: {which} of such columns "
            f"{'does not share' if undefined == 1 else 'shares'} 3 models with rankings that are "
            "not all ties"
        )
    return (
        f"mean Kendall tau {agree['mean_tau']:.2f} (from {agree['min_tau']:.2f} to "
        f"{agree['max_tau']:.2f}) over {agree['pairs']} pair{'s' if agree['pairs'] != 1 else ''} "
        f"of columns of different benchmarks, each on "
        f"{models_text(agree.get('min_models'), agree.get('max_models'))} in common{rest}"
    )


def no_combined_text(combined: Mapping[str, Any]) -> str:
    """Which models have no combined score and why, in words ('' when all have one)."""
    by_reason: dict[str, list[str]] = {}
    for model, reason in combined.get("no_score", {}).items():
        by_reason.setdefault(reason, []).append(model)
    return " ".join(
        f"No combined score for {', '.join(names)}: {'each' if len(names) > 1 else 'it'} {reason}."
        for reason, names in by_reason.items()
    )


def groups_text(combined: Mapping[str, Any]) -> str:
    """When the models with a combined score fall into groups that share no column: say so."""
    groups = combined.get("groups") or []
    if len(groups) < 2:
        return ""
    listed = "; ".join(", ".join(g) for g in groups)
    return (
        f"The models fall into {len(groups)} groups that share no bias column ({listed}): a "
        "combined rank compares a model only with its own group."
    )


def _label(column: Mapping[str, Any]) -> str:
    return f"{column['title']}: {column['metric']}"


def _combined(report: Mapping[str, Any]) -> str:
    combined = report["combined"]
    agree = combined["agreement_between_benchmarks"]
    groups = combined.get("groups") or [list(combined["scores"])]
    group_of = {m: i for i, g in enumerate(groups) for m in g}
    several = len(groups) > 1
    ranked = sorted(
        combined["scores"], key=lambda m: (group_of.get(m, 0), combined["ranks"].get(m, 1e9))
    )
    rows = "".join(
        f"<tr><td>{esc(m)}</td>"
        + (f"<td>{group_of[m] + 1}</td>" if several else "")
        + f"<td>{_number(combined['scores'].get(m))}</td>"
        f"<td>{_number(combined['ranks'].get(m), 1)}</td></tr>"
        for m in ranked
    )
    if rows:
        table = (
            "<table id='combined-table'><tr><th>model</th>"
            + ("<th>group</th>" if several else "")
            + f"<th>combined (mean rank)</th><th>rank</th></tr>{rows}</table>"
        )
    else:
        table = (
            "<p id='combined-table' class='note'>No combined score: no bias column has a value "
            "for two or more models, so no model is ranked against another.</p>"
        )
    words = " ".join(t for t in (groups_text(combined), no_combined_text(combined)) if t)
    return (
        "<section id='combined'><h2>Combined score</h2>"
        f"<p class='definition'><b>Definition.</b> {esc(combined['definition'])}</p>"
        f"<p class='definition' id='combined-agreement'><b>Agreement of what it combines.</b> "
        f"{esc(agreement_text(agree))}. Rankings that disagree make a combined score a "
        "compromise, not a measurement: read it with the per-benchmark ranks below.</p>"
        f"<p class='note'>Benchmarks combined: {esc(', '.join(combined['benchmarks']) or 'none')}</p>"
        + (f"<p class='note' id='combined-missing'>{esc(words)}</p>" if words else "")
        + table
        + "</section>"
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
    defined = [p for p in report["agreement"] if p.get("value") is not None]
    rows = "".join(
        f"<tr><td>{esc(labels[p['a']])}</td><td>{esc(labels[p['b']])}</td>"
        f"<td>{esc(tau_text(p))}</td><td>{esc(p_text(p))}</td><td>{len(p['models'])}</td></tr>"
        for p in defined
    )
    reasons: dict[str, int] = {}
    for p in report["agreement"]:
        if p.get("value") is None:
            reasons[p.get("no_value", "no tau")] = reasons.get(p.get("no_value", "no tau"), 0) + 1
    missing = "; ".join(
        f"{n} pair{'s' if n != 1 else ''} of columns: {why}" for why, n in sorted(reasons.items())
    )
    table = (
        f"<table id='tau-table'><tr><th>ranking</th><th>ranking</th><th>tau</th>"
        f"<th>permutation p</th><th>models</th></tr>{rows}</table>"
        if defined
        else "<p class='note' id='tau-table'>No two rankings share 3 models with rankings "
        "that are not all ties: there is no Kendall tau to show.</p>"
    )
    return (
        "<section id='agreement'><h2>Agreement between rankings (Kendall's tau-b)</h2>"
        "<p class='note'>tau between two columns' rankings of the models both have, with a "
        "two-sided permutation p (exact over every ordering up to 7 models: with 3 models the "
        "smallest possible p is 0.33) and a bootstrap interval over models (none under 10 "
        "models: n too small).</p>"
        + (f"<p class='note' id='tau-missing'>No tau for {esc(missing)}.</p>" if missing else "")
        + f"{figure}{table}</section>"
    )


def _figures(report: Mapping[str, Any]) -> tuple[str, str]:
    import plotly.graph_objects as go

    columns = report["columns"]
    # only the columns with a tau to another: a diagonal of 1s says nothing
    with_tau = {k for p in report["agreement"] if p.get("value") is not None for k in (p["a"], p["b"])}
    mapped = [c for c in columns if c["key"] in with_tau]
    # plotly reads a subset of HTML in its strings: user text goes in escaped, as in the tables
    labels = [esc(_label(c)) for c in mapped]
    index = {c["key"]: i for i, c in enumerate(mapped)}
    size = len(mapped)
    matrix: list[list[float | None]] = [[None] * size for _ in range(size)]
    for i in range(size):
        matrix[i][i] = 1.0
    for p in report["agreement"]:
        if p["a"] in index and p["b"] in index:
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
    if not size:
        return "", scatter
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
