"""The cells the Markdown and HTML reports share, formatted from report.json's sections.

Both renderers show the same numbers in the same words; these functions format them once, as
plain text, and each renderer escapes the result for its own format.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from curate.report.schema import (
    BiasTypeDelta,
    Delta,
    EditedEntry,
    ModelSection,
    PairEntry,
    Report,
)

#: The thresholds (percent) shown in the tables; the curves in JSON and HTML have them all.
TABLE_THRESHOLDS: tuple[float, ...] = (0.0, 5.0, 10.0, 15.0, 20.0)


def pct(value: float | None) -> str:
    """A percentage with two decimals, or a dash when undefined."""
    return "–" if value is None else f"{value:.2f}"


def escape_html(text: object) -> str:
    """Text safe anywhere in HTML, attribute values included (and in plotly labels)."""
    return html.escape(str(text), quote=True)


def signed(value: float | None) -> str:
    """A signed difference with two decimals, or a dash when undefined."""
    return "–" if value is None else f"{value:+.2f}"


def ci(row: Delta) -> str:
    """The bootstrap interval of a delta, or a dash when no resample defined it."""
    if row.get("ci_low") is None:
        return "–"
    return f"[{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"


def p_value(value: float) -> str:
    """A p-value with four significant digits."""
    return f"{value:.4g}"


def confidence_percent(data: Report) -> str:
    """The confidence level of the intervals, e.g. ``95%``."""
    return f"{100 * data['settings']['confidence']:g}%"


def bias_type_rows(model: ModelSection) -> dict[str, BiasTypeDelta]:
    return {row["bias_type"]: row for row in model["delta"]["bias_types"]}


def type_counts(summary: Mapping[str, Any]) -> dict[str, int]:
    return {row["bias_type"]: row["n"] for row in summary["bias_types"]}


def all_bias_types(data: Report) -> list[str]:
    seen: dict[str, None] = {}
    for model in data["models"]:
        for row in model["delta"]["bias_types"]:
            seen.setdefault(row["bias_type"], None)
    return list(seen)


def threshold_index(data: Report, threshold: float) -> int | None:
    thresholds = data["settings"]["thresholds"]
    return thresholds.index(threshold) if threshold in thresholds else None


def before_after(row: Delta) -> str:
    return f"{pct(row['before'])} → {pct(row['after'])}"


def pair_ids(rows: Sequence[PairEntry] | Sequence[EditedEntry]) -> str:
    return ", ".join(str(r["pair_id"]) for r in rows) or "none"


def _capability(record: Any) -> str:
    """A model's (pseudo-)perplexity on the corpus with its interval, or a dash."""
    if not record or record.get("value") is None:
        return "–"
    text = f"{record['measure']} {record['value']:.2f}"
    if record.get("low") is not None:
        text += f" [{record['low']:.2f}, {record['high']:.2f}]"
    return text + f" on {record.get('corpus', {}).get('name', '')}"


def overview_rows(data: Report) -> list[tuple[str, list[str]]]:
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
                    f"{before_after(m['delta']['directions'][direction])} "
                    f"({signed(m['delta']['directions'][direction]['delta'])})"
                    for m in models
                ],
            )
        )
    if any("capability" in m for m in models):  # diff-report --corpus
        rows.append(("capability (lower is better)", [_capability(m.get("capability")) for m in models]))
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
    ]
    if any("compute" in m for m in models):  # none when every column came from score sets
        rows.append(
            (
                "forward passes saved by the cache",
                [
                    f"{m['compute']['forward_passes_saved']:,} of "
                    f"{m['compute']['after']['unique_masked']:,}"
                    if "compute" in m
                    else "– (read from score sets)"
                    for m in models
                ],
            )
        )
    return rows


def shared_method(data: Report) -> str | None:
    """The method of every column when they all have the same one (and record it), else None."""
    methods = {m.get("method") for m in data["models"]}
    if len(methods) != 1:
        return None
    (method,) = methods
    return method


def short_labels(data: Report) -> Report:
    """The report as the tables and charts show it: when every column has the same method, a
    column is named by its model alone (``bert`` for ``bert · pll``; 22 columns of
    ``… · imported:metric.py`` read the method 22 times otherwise), and the renderers say the
    method once. report.json keeps the full labels; a report whose short names would collide,
    or that mixes methods, is shown as it is."""
    models = data["models"]
    if shared_method(data) is None:
        return data
    names = [m.get("model_label") for m in models]
    if any(not n for n in names) or len(set(names)) != len(names):
        return data
    rename = {m["label"]: str(n) for m, n in zip(models, names, strict=True)}
    shown: Report = {**data, "models": [{**m, "label": rename[m["label"]]} for m in models]}  # type: ignore[typeddict-item]
    robust = data.get("robust_flips")
    if robust:
        shown["robust_flips"] = {
            **robust,
            "columns": [rename.get(c, c) for c in robust["columns"]],
            "only_one": [{**f, "column": rename.get(f["column"], f["column"])} for f in robust["only_one"]],
        }
    return shown


def models_line(data: Report) -> str:
    """How the intro names the columns' method: once, when every column shares it."""
    method = shared_method(data)
    return f"models (every column scored with {method})" if method else "models"


def method_sentences(data: Report) -> list[str]:
    """One sentence per scoring method of the report, from the methods registry (what the
    sentence score is), so the wording fits aul and clm-* as well as pll."""
    from curate.score.methods import METHODS

    seen: list[str] = []
    for model in data["models"]:
        method = model.get("method", "pll")
        if method not in seen:
            seen.append(method)
    return [
        f"{name}: {METHODS[name].summary}"
        if name in METHODS
        else f"{name}: {IMPORTED_SUMMARY}"
        if name.startswith("imported:")
        else f"{name}: (unknown method)"
        for name in seen
    ]


#: What an imported column's sentence score is (``curate score --import``).
IMPORTED_SUMMARY = (
    "the sentence scores of a published per-pair output (curate score --import), the verdict "
    "recomputed from them; no model was run here"
)


def bias_type_cells(data: Report, bias_type: str) -> list[str]:
    """Per model: ``before → after (Δ [CI])`` for one bias type."""
    cells = []
    for m in data["models"]:
        row = bias_type_rows(m).get(bias_type)
        if row is None:
            cells.append("–")
        elif row["delta"] is None:
            cells.append(before_after(row))
        else:
            cells.append(f"{before_after(row)} ({signed(row['delta'])} {ci(row)})")
    return cells
