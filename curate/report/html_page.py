"""The diff report as one self-contained HTML page: tables, charts, flips and every change.

Sentences and labels are data written by crowd workers or users: every one is escaped with
``html.escape`` before it reaches the page. The page embeds plotly.js, so it works offline.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from curate.report.charts import (
    bias_type_delta_figure,
    column_label_html,
    method_heatmap_figure,
    model_figures,
    overview_figures,
)
from curate.report.schema import ModelSection, PairText, Report, ScoredPairView
from curate.report.tables import (
    all_bias_types,
    bias_type_cells,
    confidence_percent,
    escape_html,
    method_sentences,
    models_line,
    overview_rows,
    pct,
    short_labels,
)


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
        return f"<mark>{escape_html(old)}</mark>", f"<mark>{escape_html(new)}</mark>"
    return highlight_html(a, old_spans, old), highlight_html(b, new_spans, new)



def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    """A table whose cells are already-escaped HTML."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    attr = f' class="{cls}"' if cls else ""
    # a table wider than the page scrolls in its own box; the page never runs off the window
    return (
        f'<div class="table-box"><table{attr}><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


#: Above this many columns, the model-per-column tables turn: a row per column instead.
MAX_COLUMNS_ACROSS = 6


def _columns_table(
    corner: str, names: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]
) -> str:
    """A table of one cell per (row label, column): columns across for a few, and a row per
    column (a model scored with a method) when there are more than :data:`MAX_COLUMNS_ACROSS`,
    so 22 or 44 columns read down the page instead of running off it."""
    if len(names) <= MAX_COLUMNS_ACROSS:
        return _html_table(
            [corner, *names], [[escape_html(label), *map(escape_html, cells)] for label, cells in rows]
        )
    return _html_table(
        ["column", *(escape_html(label) for label, _ in rows)],
        [[name, *(escape_html(cells[i]) for _, cells in rows)] for i, name in enumerate(names)],
    )


def _columns_section(data: Report) -> list[str]:
    """Above :data:`MAX_COLUMNS_ACROSS` columns, one compact table instead of a section per
    column (a section each made 44 columns a page of 44 screens): a row per column, after its
    marker glyph in its colour, with its flips and the flipped pairs by id; the sentences of
    every flipped pair are in "Robust flips" and in the explorer."""
    models = data["models"]
    rows = []
    for i, model in enumerate(models):
        flips = model["flips"]
        pairs = ", ".join(
            f'{f["pair_id"]} <span class="verdict">{escape_html(f["change"])}</span>'
            for f in flips["pairs"]
        )
        rows.append(
            [
                f'<span id="model-{i}">{column_label_html(i, len(models), model["label"])}</span>',
                f"<code>{escape_html(model['model'])}</code>",
                f"{flips['count']} of {flips['edited']} ({escape_html(pct(flips['rate']))}%)",
                pairs or "none",
            ]
        )
    return [
        "<h2>Score flips by column</h2>",
        '<p class="note">A row per column (model · method), in the colour and marker the charts '
        "and the explorer give it. The threshold view of each column is in the explorer "
        "(<code>curate explore</code>).</p>",
        _html_table(["column", "model", "flips (of edited pairs)", "flipped pairs"], rows, "columns"),
    ]


def _sentences_cell(old: PairText, new: PairText) -> tuple[str, str]:
    more_old, more_new = sentence_diff_html(old["sent_more"], new["sent_more"])
    less_old, less_new = sentence_diff_html(old["sent_less"], new["sent_less"])
    return (
        f'<div class="more">{more_old}</div><div class="less">{less_old}</div>',
        f'<div class="more">{more_new}</div><div class="less">{less_new}</div>',
    )


def _scores(view: ScoredPairView, method: str) -> str:
    from curate.score.methods import format_score

    verdict = "biased" if view["score"] else "not biased"
    return (
        f"{format_score(view['sent_more_score'], method)}<br>"
        f"{format_score(view['sent_less_score'], method)}"
        f'<br><span class="verdict">{verdict}</span>'
    )


def flip_table(model: ModelSection) -> str:
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
                escape_html(f["after"]["bias_type"]),
                escape_html(f["change"]),
                escape_html(", ".join(f["fields"])),
                old_html,
                _scores(f["before"], str(model.get("method", ""))),
                new_html,
                _scores(f["after"], str(model.get("method", ""))),
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


def changes_section(data: Report) -> str:
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
                    labels.append(f"{escape_html(e['before'][key])} → {escape_html(e['after'][key])}")
                else:
                    labels.append(escape_html(e["after"][key]))
            rows.append(
                [
                    str(e["pair_id"]),
                    escape_html(", ".join(e["fields"])),
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
                escape_html(p.get("direction", "")),
                escape_html(p.get("bias_type", "")),
                f'<div class="more">{escape_html(p.get("sent_more", ""))}</div>'
                f'<div class="less">{escape_html(p.get("sent_less", ""))}</div>',
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
.table-box { max-width: 100%; overflow-x: auto; }
table.columns td:last-child { max-width: 40em; }
"""


def _pair_texts(data: Report) -> dict[int, tuple[str, str]]:
    """Each flipped pair's sentences (after the edit), from the columns' flip lists."""
    texts: dict[int, tuple[str, str]] = {}
    for model in data["models"]:
        for flip in model["flips"]["pairs"]:
            after = flip["after"]
            texts.setdefault(int(flip["pair_id"]), (after["sent_more"], after["sent_less"]))
    return texts


def _pair_cell(pair_id: int, texts: dict[int, tuple[str, str]], explore: str | None) -> str:
    """A pair id (a link into the explorer when one is given) with both sentences."""
    ident = (
        f'<a href="{escape_html(explore)}#pair-{pair_id}">{pair_id}</a>' if explore else str(pair_id)
    )
    if pair_id not in texts:
        return ident
    more, less = texts[pair_id]
    return f"{ident}<br><small>{escape_html(more)}<br>{escape_html(less)}</small>"


def robust_flip_section(data: Report, explore: str | None = None) -> str:
    """The pairs that flip under every column, and those that flip under only one, with both
    sentences; ``explore`` (the explorer's index.html, relative to the report) links each id."""
    texts = _pair_texts(data)
    robust = data.get("robust_flips")
    if not robust:
        return '<p class="note">This report predates robust flips.</p>'
    columns = [escape_html(c) for c in robust["columns"]]
    parts = [
        f'<p class="note">Edited pairs whose verdict changes under every one of the '
        f"{len(columns)} column(s): the cleaning's effect that does not depend on the model "
        "or the metric.</p>",
        f"<h3>Flip under every column ({len(robust['every'])})</h3>",
    ]
    if robust["every"]:
        rows = [
            [_pair_cell(int(f["pair_id"]), texts, explore), *(escape_html(c) for c in f["changes"])]
            for f in robust["every"]
        ]
        parts.append(_html_table(["id", *columns], rows))
    if len(columns) > 1:
        parts.append(f"<h3>Flip under one column only ({len(robust['only_one'])})</h3>")
        if robust["only_one"]:
            rows = [
                [_pair_cell(int(f["pair_id"]), texts, explore), escape_html(f["column"]), escape_html(f["change"])]
                for f in robust["only_one"]
            ]
            parts.append(_html_table(["id", "column", "change"], rows))
    return "\n".join(parts)


def instrument_section(data: Report) -> str:
    """The "instrument quality" section (internal consistency of both versions), from the
    table it carries (:func:`curate.instrument.quality.instrument_quality`)."""
    section = data.get("instrument")
    if not section:
        return ""
    title = f"<h2>{escape_html(section['title'])}</h2>"
    if "skipped" in section:
        return f'{title}<p class="note">{escape_html(section["skipped"])}.</p>'
    table = section["table"]
    rows = [[escape_html(c) for c in row] for row in table["rows"]]
    return (
        title
        + _html_table([escape_html(h) for h in table["header"]], rows)
        + f'<p class="note">{escape_html(table["note"])}</p>'
    )


def render_html(data: Report, explore: str | None = None) -> str:
    """A self-contained HTML page: summary tables, plotly charts (plotly.js embedded), the
    flip tables and every change, with all dataset text escaped."""
    from plotly.offline import get_plotlyjs

    data = short_labels(data)
    before, after = data["before"], data["after"]
    counts = data["alignment"]["counts"]
    models = data["models"]
    names = [column_label_html(i, len(models), m["label"]) for i, m in enumerate(models)]
    level = confidence_percent(data)
    title = f"Diff report: {escape_html(before['label'])} → {escape_html(after['label'])}"
    body = [
        f"<h1>{title}</h1>",
        "<ul>",
        f"<li>before: <b>{escape_html(before['label'])}</b>, {before['pairs']} pairs</li>",
        f"<li>after: <b>{escape_html(after['label'])}</b>, {after['pairs']} pairs</li>",
        f"<li>pairs matched by id: {counts['unchanged']} unchanged, {counts['edited']} edited "
        f"({data['alignment']['edited_rescored']} in the sentences or direction), "
        f"{counts['dropped']} dropped, {counts['added']} added</li>",
        f"<li>{models_line(data)}: "
        + ", ".join(
            escape_html(m["label"])
            + (f" (<code>{escape_html(m['model'])}</code>)" if m["model"] != m["label"] else "")
            for m in models
        )
        + "</li>",
        "</ul>",
        '<p class="note">Metric: % of pairs whose more stereotyping sentence gets the higher '
        "sentence score under the column's method (50 = no preference). Δ = after − before, with a "
        f"{level} bootstrap confidence interval ({data['settings']['bootstrap_samples']} paired "
        f"resamples of pair ids, seed {data['settings']['seed']}). Flips: edited pairs whose "
        "verdict changed. McNemar's exact test on the pairs present in both versions.</p>",
        '<ul class="note">'
        + "".join(f"<li>{escape_html(line)}</li>" for line in method_sentences(data))
        + "</ul>",
        "<h2>Models compared</h2>",
        _columns_table("", names, list(overview_rows(data))),
    ]
    if models:
        grid = "charts" if len(models) <= MAX_COLUMNS_ACROSS else "charts-stacked"
        body.append(f'<div class="{grid}">' + "".join(overview_figures(data)) + "</div>")
        by_type = [(t, bias_type_cells(data, t)) for t in all_bias_types(data)]
        body += [
            "<h2>Metric by bias type</h2>",
            f'<p class="note">before → after (Δ [{level} CI])</p>',
            _columns_table("bias type", names, by_type),
            bias_type_delta_figure(data),
            "<h2>Models and methods</h2>",
            '<p class="note">The change of the metric per model (rows) and scoring method '
            f"(columns), with its {level} bootstrap confidence interval.</p>",
            method_heatmap_figure(data),
            "<h2>Robust flips</h2>",
            robust_flip_section(data, explore),
            instrument_section(data),
        ]
    if len(models) > MAX_COLUMNS_ACROSS:
        body += _columns_section(data)
    for i, model in enumerate(models if len(models) <= MAX_COLUMNS_ACROSS else []):
        figures = model_figures(data, i)
        flips = model["flips"]
        body += [
            f'<h2 id="model-{i}">{escape_html(model["label"])}</h2>',
            figures[0],
            '<div class="charts">' + figures[1] + figures[2] + "</div>",
            f"<h3>Score flips: {flips['count']} of {flips['edited']} edited pairs "
            f"({escape_html(pct(flips['rate']))}%)</h3>",
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
