"""The diff report as Markdown: tables with a column per model, dataset text escaped.

Sentences and labels are data written by crowd workers or users: each is HTML-escaped (Markdown
renderers pass HTML through) and the characters that would start Markdown syntax are
backslash-escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from curate.report.schema import Report
from curate.report.tables import (
    TABLE_THRESHOLDS,
    all_bias_types,
    bias_type_cells,
    confidence_percent,
    method_sentences,
    models_line,
    overview_rows,
    pair_ids,
    pct,
    short_labels,
    threshold_index,
    type_counts,
)
from curate.score.methods import format_score

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def escape_markdown(text: object) -> str:
    """Text safe inside a Markdown table cell: HTML-escaped, Markdown syntax neutralised."""
    escaped = html.escape(" ".join(str(text).split()), quote=False)
    return _MD_SPECIAL.sub(r"\\\1", escaped)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]



def instrument_lines(data: Report) -> list[str]:
    """The "instrument quality" section (internal consistency of both versions), from the
    table it carries (:func:`curate.instrument.quality.instrument_quality`)."""
    section = data.get("instrument")
    if not section:
        return []
    lines = [f"## {escape_markdown(section['title'])}", ""]
    if "skipped" in section:
        return [*lines, escape_markdown(section["skipped"]) + ".", ""]
    table = section["table"]
    rows = [[escape_markdown(c) for c in row] for row in table["rows"]]
    lines += markdown_table(table["header"], rows)
    return [*lines, table["note"], ""]


def robust_flip_lines(data: Report) -> list[str]:
    """The robust-flip section: pairs flipping under every column, and under one only."""
    robust = data.get("robust_flips")
    if not robust:
        return []
    columns = [escape_markdown(c) for c in robust["columns"]]
    lines = [
        "## Robust flips",
        "",
        f"Edited pairs whose verdict changes under every one of the {len(columns)} column(s) "
        "(model and method): the cleaning's effect that does not depend on the metric.",
        "",
        f"### Flip under every column: {len(robust['every'])}",
        "",
    ]
    if robust["every"]:
        rows = [[str(f["pair_id"]), *map(escape_markdown, f["changes"])] for f in robust["every"]]
        lines += markdown_table(["id", *columns], rows)
    if len(columns) > 1:
        lines += [f"### Flip under one column only: {len(robust['only_one'])}", ""]
        if robust["only_one"]:
            rows = [
                [str(f["pair_id"]), escape_markdown(f["column"]), escape_markdown(f["change"])]
                for f in robust["only_one"]
            ]
            lines += markdown_table(["id", "column", "change"], rows)
    return lines


def render_markdown(data: Report) -> str:
    """The report as Markdown: tables with a column per model; dataset text escaped."""
    data = short_labels(data)
    before, after = data["before"], data["after"]
    counts = data["alignment"]["counts"]
    models = data["models"]
    names = [escape_markdown(m["label"]) for m in models]
    level = confidence_percent(data)
    lines = [
        f"# Diff report: {escape_markdown(before['label'])} → {escape_markdown(after['label'])}",
        "",
        f"- before: **{escape_markdown(before['label'])}**, {before['pairs']} pairs",
        f"- after: **{escape_markdown(after['label'])}**, {after['pairs']} pairs",
        f"- pairs matched by id: {counts['unchanged']} unchanged, {counts['edited']} edited "
        f"({data['alignment']['edited_rescored']} in the sentences or direction), "
        f"{counts['dropped']} dropped, {counts['added']} added",
        f"- {models_line(data)}: "
        + ", ".join(
            escape_markdown(m["label"])
            + (f" (`{escape_markdown(m['model'])}`)" if m["model"] != m["label"] else "")
            for m in models
        ),
        "",
        "Metric: % of pairs whose more stereotyping sentence gets the higher score under the "
        "column's method (pll: the pseudo-log-likelihood; 50 = no preference). Δ = after − "
        "before, with a "
        f"{level} bootstrap confidence interval ({data['settings']['bootstrap_samples']} "
        f"paired resamples of pair ids, seed {data['settings']['seed']}).",
        "",
        *(f"- {escape_markdown(line)}" for line in method_sentences(data)),
        "",
        "## Models compared",
        "",
    ]
    lines += markdown_table(["", *names], [[label, *cells] for label, cells in overview_rows(data)])
    lines += ["## Metric by bias type", "", f"before → after (Δ [{level} CI]); n = pairs.", ""]
    rows = []
    for bias_type in all_bias_types(data):
        n_before = type_counts(models[0]["before"]).get(bias_type, 0) if models else 0
        n_after = type_counts(models[0]["after"]).get(bias_type, 0) if models else 0
        rows.append([escape_markdown(bias_type), str(n_before), str(n_after), *bias_type_cells(data, bias_type)])
    lines += markdown_table(["bias type", "n before", "n after", *names], rows)
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
            i = threshold_index(data, t)
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
        lines += [f"### {escape_markdown(m['label'])}", ""]
        lines += markdown_table(["threshold", "neutral", "biased", "non-biased"], rows)
    lines += ["## Score flips", "", "Edited pairs whose verdict changed.", ""]
    for m in models:
        flips = m["flips"]
        lines += [
            f"### {escape_markdown(m['label'])}: {flips['count']} of {flips['edited']} edited pairs "
            f"({pct(flips['rate'])}%)",
            "",
        ]
        if flips["pairs"]:
            rows = [
                [
                    str(f["pair_id"]),
                    escape_markdown(f["change"]),
                    escape_markdown(f["before"]["sent_more"]),
                    escape_markdown(f["before"]["sent_less"]),
                    f"{format_score(f['before']['sent_more_score'], str(m.get('method', '')))} / "
                    f"{format_score(f['before']['sent_less_score'], str(m.get('method', '')))}",
                    escape_markdown(f["after"]["sent_more"]),
                    escape_markdown(f["after"]["sent_less"]),
                    f"{format_score(f['after']['sent_more_score'], str(m.get('method', '')))} / "
                    f"{format_score(f['after']['sent_less_score'], str(m.get('method', '')))}",
                ]
                for f in flips["pairs"]
            ]
            lines += markdown_table(
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
    lines += robust_flip_lines(data)
    lines += instrument_lines(data)
    alignment = data["alignment"]
    lines += [
        "## Changes",
        "",
        f"- edited: {pair_ids(alignment['edited'])}",
        f"- dropped: {pair_ids(alignment['dropped'])}",
        f"- added: {pair_ids(alignment['added'])}",
        "",
        "Every number, per-pair scores included, is in report.json; report.html has the charts.",
        "",
    ]
    return "\n".join(lines)
