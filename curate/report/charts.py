"""The plotly charts of the HTML report, each returned as an HTML fragment.

Plotly interprets a subset of HTML in titles, labels and legend names, so every label that
comes from the data (model labels, version labels, bias types) is HTML-escaped before it goes
into a figure. Chart ids are fixed, so the page is deterministic.
"""

from __future__ import annotations

from typing import Any

from curate.report.palette import column_colour, column_glyph, column_symbol
from curate.report.schema import ModelSection, Report
from curate.report.tables import (
    all_bias_types,
    bias_type_rows,
    confidence_percent,
    escape_html,
    type_counts,
)

LABEL_COLOURS = {"biased": "#c0392b", "neutral": "#7f8c8d", "non-biased": "#2980b9"}
#: No mode bar: its "share"/"edit in Chart Studio" controls would send the data to a web
#: service, and the report promises to work offline.
PLOTLY_CONFIG = {
    "displaylogo": False,
    "displayModeBar": False,
    "showSendToCloud": False,
    "responsive": True,
}


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
        "title": {"text": escape_html(title)},
        "template": "plotly_white",
        "margin": {"l": 60, "r": 20, "t": 60, "b": 80},
        "legend": {"orientation": "h", "y": -0.2},
        **extra,
    }


#: Above this many columns the overview charts turn horizontal: a row per column, labels whole.
MANY_COLUMNS = 6


def column_label_html(index: int, count: int, label: str) -> str:
    """A column's label after its marker glyph in its colour (plotly's text and the page's
    tables both take this HTML), so the label is tied to the column's look in every figure."""
    colour = column_colour(index, count)
    return f'<span style="color:{colour}">{column_glyph(index)}</span> {escape_html(label)}'


def _version_key(name: str, hollow: bool) -> Any:
    """A legend entry that says which marker is which version (grey: no column's colour)."""
    import plotly.graph_objects as go

    return go.Scatter(
        x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
        marker={"symbol": "circle-open" if hollow else "circle", "color": "#555", "size": 10,
                "line": {"color": "#555", "width": 2}},
    )  # fmt: skip


def overview_figures(data: Report) -> list[str]:
    """The overall metric of every column before and after, and the change with its interval.

    A row per column (its label whole, after its marker glyph), each column in its own colour
    and marker (:mod:`curate.report.palette`, as the explorer draws it): before is the open
    marker, after the filled one, joined by a line, so the two versions differ by fill and
    position, never by colour. The change is sorted by value above :data:`MANY_COLUMNS`."""
    import plotly.graph_objects as go

    models = data["models"]
    n = len(models)
    labels = [column_label_html(i, n, m["label"]) for i, m in enumerate(models)]
    colours = [column_colour(i, n) for i in range(n)]
    before = escape_html(data["before"]["label"])
    after = escape_html(data["after"]["label"])
    many = n > MANY_COLUMNS
    rows_px = 170 + 26 * n
    before_y = [m["before"]["metric_score"] for m in models]
    after_y = [m["after"]["metric_score"] for m in models]
    joins_x: list[float | None] = []
    joins_y: list[str | None] = []
    for label, b, a in zip(labels, before_y, after_y, strict=True):
        joins_x += [b, a, None]
        joins_y += [label, label, None]
    names = [escape_html(m["label"]) for m in models]

    def points(version: str, values: list[Any], hollow: bool) -> Any:
        return go.Scatter(
            x=values, y=labels, mode="markers", name=version, showlegend=False,
            marker={"symbol": [column_symbol(i, hollow=hollow) for i in range(n)],
                    "color": colours, "size": 11, "line": {"color": colours, "width": 2}},
            customdata=names,
            hovertemplate=f"%{{customdata}}<br>{version}: %{{x:.2f}}<extra></extra>",
        )  # fmt: skip

    compact = {
        "xaxis": {"title": {"text": "% pairs preferring the more stereotyping sentence"},
                  "side": "top"},
        "yaxis": {"automargin": True, "autorange": "reversed", "type": "category"},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right"},
        "margin": {"l": 20, "r": 20, "t": 120, "b": 20},
    }  # fmt: skip
    dots = go.Figure(
        [
            go.Scatter(x=joins_x, y=joins_y, mode="lines", line={"color": "#bbb", "width": 2},
                       hoverinfo="skip", showlegend=False),
            points(f"before ({before})", before_y, True),
            points(f"after ({after})", after_y, False),
            _version_key(f"before ({before})", True),
            _version_key(f"after ({after})", False),
        ],
        layout=_layout("CrowS-Pairs metric per column (50 = no preference)", **compact),
    )  # fmt: skip
    dots.add_vline(x=50, line_dash="dot", line_color="#555")
    deltas = [m["delta"]["overall"] for m in models]
    order = sorted(range(n), key=lambda i: -(deltas[i]["delta"] or 0)) if many else list(range(n))
    shown = [deltas[i] for i in order]
    error = {
        "type": "data",
        "symmetric": False,
        "array": [_error_bar(d["ci_high"], d["delta"]) for d in shown],
        "arrayminus": [_error_bar(d["delta"], d["ci_low"]) for d in shown],
        "color": "#888",
    }
    delta = go.Figure(
        go.Scatter(
            y=[labels[i] for i in order], x=[d["delta"] for d in shown], error_x=error,
            mode="markers", name="Δ", showlegend=False,
            marker={"size": 12, "color": [colours[i] for i in order],
                    "symbol": [column_symbol(i) for i in order]},
            customdata=[names[i] for i in order],
            hovertemplate="%{customdata}<br>Δ %{x:+.2f}<extra></extra>",
        ),
        layout=_layout(
            f"Δ metric (after − before), {confidence_percent(data)} bootstrap CI"
            + (", sorted" if many else ""),
            **{**compact, "xaxis": {"title": {"text": "Δ percentage points"}, "zeroline": True,
                                    "side": "top"}},
        ),
    )  # fmt: skip
    delta.add_vline(x=0, line_color="#555")
    return [
        _figure_html(dots, "fig-overview", max(rows_px, 320)),
        _figure_html(delta, "fig-delta", max(rows_px, 300)),
    ]


def bias_type_delta_figure(data: Report) -> str:
    """The change of the metric per bias type, a bar per model, with confidence intervals."""
    import plotly.graph_objects as go

    types = all_bias_types(data)
    if len(data["models"]) > MANY_COLUMNS:
        return _bias_type_delta_heatmap(data, types)
    traces = []
    n = len(data["models"])
    for i, model in enumerate(data["models"]):
        rows = [model["delta"]["overall"]] + [bias_type_rows(model).get(t, {}) for t in types]
        traces.append(
            go.Bar(
                name=escape_html(model["label"]),
                marker_color=column_colour(i, n),
                x=["overall", *(escape_html(t) for t in types)],
                y=[r.get("delta") for r in rows],
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [_error_bar(r.get("ci_high"), r.get("delta")) for r in rows],
                    "arrayminus": [_error_bar(r.get("delta"), r.get("ci_low")) for r in rows],
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


def _bias_type_delta_heatmap(data: Report, types: list[str]) -> str:
    """With many columns, the change per bias type as a heat map (a row per column, a cell per
    bias type, the interval in the cell's hover) instead of a bar per column in every group."""
    import plotly.graph_objects as go

    models = data["models"]
    xs = ["overall", *types]
    cells = [
        [m["delta"]["overall"]] + [bias_type_rows(m).get(t, {}) for t in types] for m in models
    ]

    def interval(r: dict[str, Any]) -> str:
        if r.get("ci_low") is None:
            return "-"
        return f"[{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"

    figure = go.Figure(
        go.Heatmap(
            x=[escape_html(x) for x in xs],
            y=[column_label_html(i, len(models), m["label"]) for i, m in enumerate(models)],
            z=[[r.get("delta") for r in row] for row in cells],
            customdata=[[interval(r) for r in row] for row in cells],
            text=[["" if r.get("delta") is None else f"{r['delta']:+.1f}" for r in row] for row in cells],
            texttemplate="%{text}",
            colorscale="RdBu_r",
            zmid=0,
            xgap=1,
            ygap=1,
            colorbar={"title": {"text": "Δ pp"}},
            hovertemplate="%{y}<br>%{x}: Δ %{z:+.2f} %{customdata}<extra></extra>",
        ),
        layout=_layout(
            f"Δ metric by bias type (after − before); hover for the {confidence_percent(data)} "
            "bootstrap CI",
            xaxis={"side": "top", "tickangle": 0, "tickmode": "array",
                   "tickvals": [escape_html(x) for x in xs],
                   "ticktext": [escape_html(x).replace("-", "-<br>") for x in xs]},
            yaxis={"automargin": True, "autorange": "reversed", "type": "category"},
            margin={"l": 20, "r": 20, "t": 130, "b": 20},
        ),
    )  # fmt: skip
    return _figure_html(figure, "fig-delta-types", 170 + 26 * len(models))


def _error_bar(a: float | None, b: float | None) -> float | None:
    """``a - b``, the length of one side of an error bar; None when either end is undefined."""
    return None if a is None or b is None else a - b


def model_figures(data: Report, index: int) -> list[str]:
    """Grouped bars by bias type, a radar chart and the threshold curves of one model."""
    import plotly.graph_objects as go

    model = data["models"][index]
    label = model["label"]
    # the column's colour (as in the overview and the explorer); before hatched or dotted
    colour = column_colour(index, len(data["models"]))
    rows = model["delta"]["bias_types"]
    types = [escape_html(r["bias_type"]) for r in rows]
    before_n = type_counts(model["before"])
    after_n = type_counts(model["after"])
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
    before_name = f"before ({escape_html(data['before']['label'])})"
    after_name = f"after ({escape_html(data['after']['label'])})"
    bars = go.Figure(
        [
            go.Bar(
                name=before_name,
                x=x,
                y=before_y,
                hovertext=before_text,
                marker={"color": "white", "line": {"color": colour, "width": 2},
                        "pattern": {"shape": "/", "fgcolor": colour}},
            ),
            go.Bar(
                name=after_name, x=x, y=after_y, hovertext=after_text, marker_color=colour
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
    radar = go.Figure(
        [
            go.Scatterpolar(
                r=[*(r[version] for r in rows), rows[0][version]] if rows else [],
                theta=closed,
                name=name,
                line={"color": colour, "dash": dash},
                fill="toself" if dash == "solid" else "none",
                opacity=0.7,
            )
            for version, name, dash in (
                ("before", before_name, "dot"),
                ("after", after_name, "solid"),
            )
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


def _model_and_method(column: ModelSection) -> tuple[str, str]:
    """A column's coordinates; a report written before there were methods scored with pll."""
    method = column.get("method") or column["provenance"].get("method") or "pll"
    return column.get("model_label", column["label"]), str(method)


def _coordinates(data: Report) -> tuple[list[str], list[str]]:
    """The model labels and the method names of the report's columns, in first-seen order."""
    models: list[str] = []
    methods: list[str] = []
    for column in data["models"]:
        model, method = _model_and_method(column)
        models += [model] if model not in models else []
        methods += [method] if method not in methods else []
    return models, methods


def method_heatmap_figure(data: Report) -> str:
    """A model x method heat map of the overall metric change, each cell with its CI.

    A cell is empty when the method does not apply to the model (a causal method on a masked
    LM) or was not requested; the colour scale is centred on 0 (no change).
    """
    import plotly.graph_objects as go

    models, methods = _coordinates(data)
    z: list[list[float | None]] = [[None] * len(methods) for _ in models]
    text: list[list[str]] = [[""] * len(methods) for _ in models]
    for column in data["models"]:
        model, method = _model_and_method(column)
        row, col = models.index(model), methods.index(method)
        overall = column["delta"]["overall"]
        z[row][col] = overall["delta"]
        interval = (
            ""
            if overall["ci_low"] is None or overall["ci_high"] is None
            else f"<br>[{overall['ci_low']:+.2f}, {overall['ci_high']:+.2f}]"
        )
        text[row][col] = "-" if overall["delta"] is None else f"{overall['delta']:+.2f}{interval}"
    level = confidence_percent(data)
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=[escape_html(m) for m in methods],
            y=[escape_html(m) for m in models],
            text=text,
            texttemplate="%{text}",
            hovertemplate="%{y} · %{x}<br>Δ %{text}<extra></extra>",
            colorscale="RdBu",
            reversescale=True,
            zmid=0,
            colorbar={"title": {"text": "Δ pp"}},
            xgap=2,
            ygap=2,
        ),
        layout=_layout(
            f"Δ metric (after − before) per model and method, {level} bootstrap CI",
            xaxis={"title": {"text": "method"}, "type": "category"},
            yaxis={"title": {"text": "model"}, "type": "category", "autorange": "reversed"},
        ),
    )
    row_px = 70 if len(models) <= MANY_COLUMNS else 40  # 22 models: a screen, not three
    return _figure_html(figure, "fig-method-heatmap", 160 + row_px * max(1, len(models)))
