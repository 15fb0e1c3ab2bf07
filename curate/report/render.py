"""Write a diff report as report.json, report.md and a self-contained report.html.

All three are rendered from the JSON-ready dict of :mod:`curate.report.diff` alone, so a
report can be re-rendered from report.json without a model. Outputs are deterministic (no
timestamps, fixed chart ids) and written atomically.

Sentences and labels are data written by crowd workers or users: every one is escaped for the
format it lands in. In HTML that is ``html.escape`` everywhere, including chart labels (plotly
interprets a subset of HTML in labels); in Markdown the same plus the characters that would
start Markdown syntax. The HTML embeds plotly.js, so it works offline.
"""

from __future__ import annotations

import difflib
import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from curate.fileio import write_text_atomic

#: The thresholds (percent) shown in the tables; the curves in JSON and HTML have them all.
TABLE_THRESHOLDS: tuple[float, ...] = (0.0, 5.0, 10.0, 15.0, 20.0)
FILES: tuple[str, ...] = ("report.json", "report.md", "report.html")
BEFORE_COLOUR = "#6c8ebf"
AFTER_COLOUR = "#e07b39"
LABEL_COLOURS = {"biased": "#c0392b", "neutral": "#7f8c8d", "non-biased": "#2980b9"}
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}


# --------------------------------------------------------------------------- formatting


def pct(value: float | None) -> str:
    """A percentage with two decimals, or a dash when undefined."""
    return "–" if value is None else f"{value:.2f}"


def signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+.2f}"


def ci(row: dict[str, Any]) -> str:
    if row.get("ci_low") is None:
        return "–"
    return f"[{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"


def p_value(value: float) -> str:
    return f"{value:.4g}"


def confidence_percent(data: dict[str, Any]) -> str:
    return f"{100 * data['settings']['confidence']:g}%"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def md(text: object) -> str:
    """Text safe inside a Markdown table cell: HTML-escaped, Markdown syntax neutralised."""
    escaped = html.escape(" ".join(str(text).split()), quote=False)
    return _MD_SPECIAL.sub(r"\\\1", escaped)


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _bias_rows(model: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["bias_type"]: row for row in model["delta"]["bias_types"]}


def _type_counts(summary: dict[str, Any]) -> dict[str, int]:
    return {row["bias_type"]: row["n"] for row in summary["bias_types"]}


def _all_bias_types(data: dict[str, Any]) -> list[str]:
    seen: dict[str, None] = {}
    for model in data["models"]:
        for row in model["delta"]["bias_types"]:
            seen.setdefault(row["bias_type"], None)
    return list(seen)


def _threshold_index(data: dict[str, Any], threshold: float) -> int | None:
    thresholds = data["settings"]["thresholds"]
    return thresholds.index(threshold) if threshold in thresholds else None


def _before_after(row: dict[str, Any]) -> str:
    return f"{pct(row['before'])} → {pct(row['after'])}"


def _compact(rows: Sequence[dict[str, Any]]) -> str:
    return ", ".join(str(r["pair_id"]) for r in rows) or "none"


# --------------------------------------------------------------------------- JSON


def render_json(data: dict[str, Any]) -> str:
    """Every number of the report, as indented JSON (no NaN: undefined values are null)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


# --------------------------------------------------------------------------- Markdown


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]


def overview_rows(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The rows of the models-compared table (a column per model), shared by md and html."""
    level = confidence_percent(data)
    models = data["models"]
    rows: list[tuple[str, list[str]]] = [
        ("metric before", [pct(m["before"]["metric_score"]) for m in models]),
        ("metric after", [pct(m["after"]["metric_score"]) for m in models]),
        (
            f"Δ ({level} CI)",
            [
                f"{signed(m['delta']['overall']['delta'])} {ci(m['delta']['overall'])}"
                for m in models
            ],
        ),
    ]
    for direction in ("stereo", "antistereo"):
        rows.append(
            (
                f"{direction} (untied): before → after (Δ)",
                [
                    f"{_before_after(m['delta']['directions'][direction])} "
                    f"({signed(m['delta']['directions'][direction]['delta'])})"
                    for m in models
                ],
            )
        )
    rows += [
        ("ties before / after", [f"{m['before']['ties']} / {m['after']['ties']}" for m in models]),
        (
            "score flips (of edited pairs)",
            [
                f"{m['flips']['count']} of {m['flips']['edited']} ({pct(m['flips']['rate'])}%)"
                for m in models
            ],
        ),
        (
            "flips to biased / to not biased",
            [f"{m['flips']['to_biased']} / {m['flips']['to_not_biased']}" for m in models],
        ),
        (
            "McNemar exact p (pairs in both)",
            [
                f"{p_value(m['mcnemar']['p_value'])} "
                f"(n={m['mcnemar']['pairs']}, {m['mcnemar']['biased_to_not_biased']}↓ "
                f"{m['mcnemar']['not_biased_to_biased']}↑)"
                for m in models
            ],
        ),
        (
            "forward passes saved by the cache",
            [
                f"{m['compute']['forward_passes_saved']:,} of "
                f"{m['compute']['after']['unique_masked']:,}"
                for m in models
            ],
        ),
    ]
    return rows


def bias_type_cells(data: dict[str, Any], bias_type: str) -> list[str]:
    """Per model: ``before → after (Δ [CI])`` for one bias type."""
    cells = []
    for m in data["models"]:
        row = _bias_rows(m).get(bias_type)
        if row is None:
            cells.append("–")
        elif row["delta"] is None:
            cells.append(_before_after(row))
        else:
            cells.append(f"{_before_after(row)} ({signed(row['delta'])} {ci(row)})")
    return cells


def render_markdown(data: dict[str, Any]) -> str:
    """The report as Markdown: tables with a column per model; dataset text escaped."""
    before, after = data["before"], data["after"]
    counts = data["alignment"]["counts"]
    models = data["models"]
    names = [md(m["label"]) for m in models]
    level = confidence_percent(data)
    lines = [
        f"# Diff report: {md(before['label'])} → {md(after['label'])}",
        "",
        f"- before: **{md(before['label'])}**, {before['pairs']} pairs",
        f"- after: **{md(after['label'])}**, {after['pairs']} pairs",
        f"- pairs matched by id: {counts['unchanged']} unchanged, {counts['edited']} edited "
        f"({data['alignment']['edited_rescored']} in the sentences or direction), "
        f"{counts['dropped']} dropped, {counts['added']} added",
        "- models: " + ", ".join(f"{md(m['label'])} (`{md(m['model'])}`)" for m in models),
        "",
        "Metric: % of pairs whose more stereotyping sentence gets the higher pseudo-log-"
        "likelihood (50 = no preference). Δ = after − before, with a "
        f"{level} bootstrap confidence interval ({data['settings']['bootstrap_samples']} "
        f"paired resamples of pair ids, seed {data['settings']['seed']}).",
        "",
        "## Models compared",
        "",
    ]
    lines += _md_table(["", *names], [[label, *cells] for label, cells in overview_rows(data)])
    lines += ["## Metric by bias type", "", f"before → after (Δ [{level} CI]); n = pairs.", ""]
    rows = []
    for bias_type in _all_bias_types(data):
        n_before = _type_counts(models[0]["before"]).get(bias_type, 0) if models else 0
        n_after = _type_counts(models[0]["after"]).get(bias_type, 0) if models else 0
        rows.append([md(bias_type), str(n_before), str(n_after), *bias_type_cells(data, bias_type)])
    lines += _md_table(["bias type", "n before", "n after", *names], rows)
    lines += [
        "## Threshold view (Murphy 2022)",
        "",
        "A pair is neutral when its two scores are within t% of the larger magnitude; otherwise "
        "biased (the more stereotyping sentence wins) or non-biased. % of pairs, before → after.",
        "",
    ]
    for m in models:
        curves = m["threshold_curves"]
        rows = []
        for t in TABLE_THRESHOLDS:
            i = _threshold_index(data, t)
            if i is None:
                continue
            rows.append(
                [
                    f"{t:g}%",
                    *(
                        f"{pct(curves['before'][label][i])} → {pct(curves['after'][label][i])}"
                        for label in ("neutral", "biased", "non-biased")
                    ),
                ]
            )
        lines += [f"### {md(m['label'])}", ""]
        lines += _md_table(["threshold", "neutral", "biased", "non-biased"], rows)
    lines += ["## Score flips", "", "Edited pairs whose verdict changed.", ""]
    for m in models:
        flips = m["flips"]
        lines += [
            f"### {md(m['label'])}: {flips['count']} of {flips['edited']} edited pairs "
            f"({pct(flips['rate'])}%)",
            "",
        ]
        if flips["pairs"]:
            rows = [
                [
                    str(f["pair_id"]),
                    md(f["change"]),
                    md(f["before"]["sent_more"]),
                    md(f["before"]["sent_less"]),
                    f"{f['before']['sent_more_score']:.3f} / {f['before']['sent_less_score']:.3f}",
                    md(f["after"]["sent_more"]),
                    md(f["after"]["sent_less"]),
                    f"{f['after']['sent_more_score']:.3f} / {f['after']['sent_less_score']:.3f}",
                ]
                for f in flips["pairs"]
            ]
            lines += _md_table(
                [
                    "id",
                    "change",
                    "sent_more before",
                    "sent_less before",
                    "scores before",
                    "sent_more after",
                    "sent_less after",
                    "scores after",
                ],
                rows,
            )
    alignment = data["alignment"]
    lines += [
        "## Changes",
        "",
        f"- edited: {_compact(alignment['edited'])}",
        f"- dropped: {_compact(alignment['dropped'])}",
        f"- added: {_compact(alignment['added'])}",
        "",
        "Every number, per-pair scores included, is in report.json; report.html has the charts.",
        "",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- HTML


def sentence_diff_html(old: str, new: str) -> tuple[str, str]:
    """Two versions of a sentence as escaped HTML with the words that differ marked."""
    from curate.align import Span, highlight_html, tokenize

    a, b = tokenize(old), tokenize(new)
    matcher = difflib.SequenceMatcher(
        None, [t.text for t in a], [t.text for t in b], autojunk=False
    )
    old_spans, new_spans = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            old_spans.append(Span(i1, i2, a[i1:i2]))
            new_spans.append(Span(j1, j2, b[j1:j2]))
    if not old_spans and old != new:  # whitespace-only change: mark the whole sentence
        return f"<mark>{esc(old)}</mark>", f"<mark>{esc(new)}</mark>"
    return highlight_html(a, old_spans, old), highlight_html(b, new_spans, new)


def _figure_html(fig: Any, div_id: str, height: int = 420) -> str:
    import plotly.io as pio

    return pio.to_html(
        fig,
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        default_height=f"{height}px",
        default_width="100%",
        config=PLOTLY_CONFIG,
        validate=True,
    )


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    return {
        "title": {"text": esc(title)},
        "template": "plotly_white",
        "margin": {"l": 60, "r": 20, "t": 60, "b": 80},
        "legend": {"orientation": "h", "y": -0.2},
        **extra,
    }


def overview_figures(data: dict[str, Any]) -> list[str]:
    """Overall metric per model before/after, and the delta with its confidence interval."""
    import plotly.graph_objects as go

    models = data["models"]
    labels = [esc(m["label"]) for m in models]
    before = esc(data["before"]["label"])
    after = esc(data["after"]["label"])
    bars = go.Figure(
        [
            go.Bar(
                name=f"before ({before})",
                x=labels,
                y=[m["before"]["metric_score"] for m in models],
                marker_color=BEFORE_COLOUR,
            ),
            go.Bar(
                name=f"after ({after})",
                x=labels,
                y=[m["after"]["metric_score"] for m in models],
                marker_color=AFTER_COLOUR,
            ),
        ],
        layout=_layout(
            "CrowS-Pairs metric per model (50 = no preference)",
            barmode="group",
            yaxis={"title": {"text": "% pairs preferring the more stereotyping sentence"}},
        ),
    )
    bars.add_hline(y=50, line_dash="dot", line_color="#555")
    deltas = [m["delta"]["overall"] for m in models]
    delta = go.Figure(
        go.Scatter(
            x=labels,
            y=[d["delta"] for d in deltas],
            mode="markers",
            marker={"size": 12, "color": AFTER_COLOUR},
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [_gap(d["ci_high"], d["delta"]) for d in deltas],
                "arrayminus": [_gap(d["delta"], d["ci_low"]) for d in deltas],
            },
            name="Δ",
        ),
        layout=_layout(
            f"Δ metric (after − before), {confidence_percent(data)} bootstrap CI",
            yaxis={"title": {"text": "Δ percentage points"}, "zeroline": True},
        ),
    )
    delta.add_hline(y=0, line_color="#555")
    return [_figure_html(bars, "fig-overview"), _figure_html(delta, "fig-delta", 360)]


def bias_type_delta_figure(data: dict[str, Any]) -> str:
    """The change of the metric per bias type, a bar per model, with confidence intervals."""
    import plotly.graph_objects as go

    types = _all_bias_types(data)
    traces = []
    for model in data["models"]:
        rows = [model["delta"]["overall"]] + [_bias_rows(model).get(t, {}) for t in types]
        traces.append(
            go.Bar(
                name=esc(model["label"]),
                x=["overall", *(esc(t) for t in types)],
                y=[r.get("delta") for r in rows],
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [_gap(r.get("ci_high"), r.get("delta")) for r in rows],
                    "arrayminus": [_gap(r.get("delta"), r.get("ci_low")) for r in rows],
                },
            )
        )
    figure = go.Figure(
        traces,
        layout=_layout(
            f"Δ metric by bias type (after − before), {confidence_percent(data)} bootstrap CI",
            barmode="group",
            yaxis={"title": {"text": "Δ percentage points"}},
        ),
    )
    figure.add_hline(y=0, line_color="#555")
    return _figure_html(figure, "fig-delta-types")


def _gap(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def model_figures(data: dict[str, Any], index: int) -> list[str]:
    """Grouped bars by bias type, a radar chart and the threshold curves of one model."""
    import plotly.graph_objects as go

    model = data["models"][index]
    label = model["label"]
    rows = model["delta"]["bias_types"]
    types = [esc(r["bias_type"]) for r in rows]
    before_n = _type_counts(model["before"])
    after_n = _type_counts(model["after"])
    x = ["overall", *types]
    before_y = [model["before"]["metric_score"], *(r["before"] for r in rows)]
    after_y = [model["after"]["metric_score"], *(r["after"] for r in rows)]
    before_text = [
        f"n={model['before']['pairs']}",
        *(f"n={before_n.get(r['bias_type'], 0)}" for r in rows),
    ]
    after_text = [
        f"n={model['after']['pairs']}",
        *(f"n={after_n.get(r['bias_type'], 0)}" for r in rows),
    ]
    before_name = f"before ({esc(data['before']['label'])})"
    after_name = f"after ({esc(data['after']['label'])})"
    bars = go.Figure(
        [
            go.Bar(
                name=before_name,
                x=x,
                y=before_y,
                hovertext=before_text,
                marker_color=BEFORE_COLOUR,
            ),
            go.Bar(
                name=after_name, x=x, y=after_y, hovertext=after_text, marker_color=AFTER_COLOUR
            ),
        ],
        layout=_layout(
            f"{label}: metric by bias type",
            barmode="group",
            yaxis={"title": {"text": "% pairs preferring the more stereotyping sentence"}},
        ),
    )
    bars.add_hline(y=50, line_dash="dot", line_color="#555")
    closed = [*types, types[0]] if types else []
    radar_b = [r["before"] for r in rows]
    radar_a = [r["after"] for r in rows]
    radar = go.Figure(
        [
            go.Scatterpolar(
                r=[*radar_b, radar_b[0]] if rows else [],
                theta=closed,
                name=before_name,
                line_color=BEFORE_COLOUR,
                fill="toself",
                opacity=0.6,
            ),
            go.Scatterpolar(
                r=[*radar_a, radar_a[0]] if rows else [],
                theta=closed,
                name=after_name,
                line_color=AFTER_COLOUR,
                fill="toself",
                opacity=0.6,
            ),
        ],
        layout=_layout(
            f"{label}: metric by bias type (radar)",
            polar={"radialaxis": {"range": [0, 100], "ticksuffix": "%"}},
        ),
    )
    thresholds = data["settings"]["thresholds"]
    curves = []
    for version, dash, name in (("before", "solid", before_name), ("after", "dash", after_name)):
        for key, colour in LABEL_COLOURS.items():
            curves.append(
                go.Scatter(
                    x=thresholds,
                    y=model["threshold_curves"][version][key],
                    mode="lines",
                    name=f"{key}, {name}",
                    line={"color": colour, "dash": dash},
                )
            )
    threshold = go.Figure(
        curves,
        layout=_layout(
            f"{label}: threshold view (Murphy 2022)",
            xaxis={"title": {"text": "threshold (% of the larger score magnitude)"}},
            yaxis={"title": {"text": "% of pairs"}, "range": [0, 100]},
        ),
    )
    return [
        _figure_html(bars, f"fig-m{index}-types"),
        _figure_html(radar, f"fig-m{index}-radar", 460),
        _figure_html(threshold, f"fig-m{index}-threshold", 440),
    ]


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    """A table whose cells are already-escaped HTML."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _sentences_cell(old: dict[str, Any], new: dict[str, Any]) -> tuple[str, str]:
    more_old, more_new = sentence_diff_html(old["sent_more"], new["sent_more"])
    less_old, less_new = sentence_diff_html(old["sent_less"], new["sent_less"])
    return (
        f'<div class="more">{more_old}</div><div class="less">{less_old}</div>',
        f'<div class="more">{more_new}</div><div class="less">{less_new}</div>',
    )


def _scores(view: dict[str, Any]) -> str:
    verdict = "biased" if view["score"] else "not biased"
    return (
        f"{view['sent_more_score']:.3f}<br>{view['sent_less_score']:.3f}"
        f'<br><span class="verdict">{verdict}</span>'
    )


def flip_table(model: dict[str, Any]) -> str:
    """The flipped pairs of one model with both versions of the sentences and scores."""
    flips = model["flips"]["pairs"]
    if not flips:
        return "<p>No edited pair changed its verdict.</p>"
    rows = []
    for f in flips:
        old_html, new_html = _sentences_cell(f["before"], f["after"])
        rows.append(
            [
                str(f["pair_id"]),
                esc(f["after"]["bias_type"]),
                esc(f["change"]),
                esc(", ".join(f["fields"])),
                old_html,
                _scores(f["before"]),
                new_html,
                _scores(f["after"]),
            ]
        )
    return _html_table(
        [
            "id",
            "bias type",
            "change",
            "fields",
            "before (more / less)",
            "scores",
            "after (more / less)",
            "scores",
        ],
        rows,
        "pairs",
    )


def changes_section(data: dict[str, Any]) -> str:
    """Every edited, dropped and added pair, with the edits marked."""
    alignment = data["alignment"]
    parts = []
    if alignment["edited"]:
        rows = []
        for e in alignment["edited"]:
            old_html, new_html = _sentences_cell(e["before"], e["after"])
            labels = []
            for key in ("direction", "bias_type"):
                if e["before"][key] != e["after"][key]:
                    labels.append(f"{esc(e['before'][key])} → {esc(e['after'][key])}")
                else:
                    labels.append(esc(e["after"][key]))
            rows.append(
                [
                    str(e["pair_id"]),
                    esc(", ".join(e["fields"])),
                    "<br>".join(labels),
                    old_html,
                    new_html,
                ]
            )
        parts.append(f"<h3>Edited pairs ({len(rows)})</h3>")
        parts.append(
            _html_table(
                ["id", "fields", "labels", "before (more / less)", "after (more / less)"],
                rows,
                "pairs",
            )
        )
    for key, title in (("dropped", "Dropped pairs"), ("added", "Added pairs")):
        entries = alignment[key]
        if not entries:
            continue
        rows = [
            [
                str(p["pair_id"]),
                esc(p.get("direction", "")),
                esc(p.get("bias_type", "")),
                f'<div class="more">{esc(p.get("sent_more", ""))}</div>'
                f'<div class="less">{esc(p.get("sent_less", ""))}</div>',
            ]
            for p in entries
        ]
        parts.append(f"<h3>{title} ({len(rows)})</h3>")
        parts.append(
            _html_table(["id", "direction", "bias type", "sentences (more / less)"], rows, "pairs")
        )
    return "\n".join(parts) or "<p>The two versions hold the same pairs.</p>"


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1200px; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; text-align: left; }
th { background: #f4f4f4; }
table.pairs td { max-width: 28em; }
.more::before { content: "more: "; color: #888; } .less::before { content: "less: "; color: #888; }
mark { background: #ffe58a; }
.verdict { color: #666; font-size: 0.9em; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.note { color: #555; }
"""


def render_html(data: dict[str, Any]) -> str:
    """A self-contained HTML page: summary tables, plotly charts (plotly.js embedded), the
    flip tables and every change, with all dataset text escaped."""
    from plotly.offline import get_plotlyjs

    before, after = data["before"], data["after"]
    counts = data["alignment"]["counts"]
    models = data["models"]
    names = [esc(m["label"]) for m in models]
    level = confidence_percent(data)
    title = f"Diff report: {esc(before['label'])} → {esc(after['label'])}"
    body = [
        f"<h1>{title}</h1>",
        "<ul>",
        f"<li>before: <b>{esc(before['label'])}</b>, {before['pairs']} pairs</li>",
        f"<li>after: <b>{esc(after['label'])}</b>, {after['pairs']} pairs</li>",
        f"<li>pairs matched by id: {counts['unchanged']} unchanged, {counts['edited']} edited "
        f"({data['alignment']['edited_rescored']} in the sentences or direction), "
        f"{counts['dropped']} dropped, {counts['added']} added</li>",
        "<li>models: "
        + ", ".join(f"{esc(m['label'])} (<code>{esc(m['model'])}</code>)" for m in models)
        + "</li>",
        "</ul>",
        '<p class="note">Metric: % of pairs whose more stereotyping sentence gets the higher '
        "pseudo-log-likelihood (50 = no preference). Δ = after − before, with a "
        f"{level} bootstrap confidence interval ({data['settings']['bootstrap_samples']} paired "
        f"resamples of pair ids, seed {data['settings']['seed']}). Flips: edited pairs whose "
        "verdict changed. McNemar's exact test on the pairs present in both versions.</p>",
        "<h2>Models compared</h2>",
        _html_table(
            ["", *names], [[esc(label), *map(esc, cells)] for label, cells in overview_rows(data)]
        ),
    ]
    if models:
        body.append('<div class="charts">' + "".join(overview_figures(data)) + "</div>")
        rows = []
        for bias_type in _all_bias_types(data):
            rows.append([esc(bias_type), *map(esc, bias_type_cells(data, bias_type))])
        body += [
            "<h2>Metric by bias type</h2>",
            f'<p class="note">before → after (Δ [{level} CI])</p>',
            _html_table(["bias type", *names], rows),
            bias_type_delta_figure(data),
        ]
    for i, model in enumerate(models):
        figures = model_figures(data, i)
        flips = model["flips"]
        body += [
            f'<h2 id="model-{i}">{esc(model["label"])}</h2>',
            figures[0],
            '<div class="charts">' + figures[1] + figures[2] + "</div>",
            f"<h3>Score flips: {flips['count']} of {flips['edited']} edited pairs "
            f"({esc(pct(flips['rate']))}%)</h3>",
            flip_table(model),
        ]
    body += ["<h2>Changes</h2>", changes_section(data)]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n"
        f'<script type="text/javascript">{get_plotlyjs()}</script>\n'
        "</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------- files


def write_report(data: dict[str, Any], out_dir: Path) -> list[Path]:
    """Render all three formats first, then write each atomically; return the paths."""
    rendered = {
        "report.json": render_json(data),
        "report.md": render_markdown(data),
        "report.html": render_html(data),
    }
    out_dir = Path(out_dir)
    paths = []
    for name in FILES:
        path = out_dir / name
        write_text_atomic(path, rendered[name])
        paths.append(path)
    return paths
