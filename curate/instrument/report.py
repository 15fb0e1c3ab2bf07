"""One shape for every instrument report, rendered as JSON, Markdown, HTML and a terminal table.

A report is a title, a few lines of context, tables (each with a sentence under it saying what
it means and when its n is too small to mean anything), optional plotly figures and the raw
numbers (``data``, what ``report.json`` holds). Dataset text reaches cells (bias types, model
names): it is escaped for HTML and for rich.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.fileio import write_text_atomic
from curate.terminal import print_table

FORMATS: tuple[str, ...] = ("json", "md", "html")


@dataclass
class Table:
    """Display rows (text cells) and the sentence that says how to read them."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str


@dataclass
class InstrumentReport:
    """What an instrument command produced."""

    kind: str
    title: str
    intro: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Any] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def render_json(report: InstrumentReport) -> str:
    document = {
        "kind": report.kind,
        "title": report.title,
        "intro": report.intro,
        **report.data,
        "tables": [
            {"title": t.title, "columns": t.columns, "rows": t.rows, "note": t.note} for t in report.tables
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_markdown(report: InstrumentReport) -> str:
    """Markdown with the diff report's escaping (every cell is text from data or models)."""
    from curate.report.markdown import escape_markdown, markdown_table

    lines = [f"# {escape_markdown(report.title)}", ""]
    lines += [f"{escape_markdown(line)}  " for line in report.intro]
    for table in report.tables:
        lines += ["", f"## {escape_markdown(table.title)}", ""]
        lines += markdown_table(
            [escape_markdown(c) for c in table.columns],
            [[escape_markdown(c) for c in row] for row in table.rows],
        )
        lines += [f"*{escape_markdown(table.note)}*"]
    return "\n".join(lines) + "\n"


def _figure_html(figure: Any, index: int) -> str:
    import plotly.io as pio

    return pio.to_html(
        figure,
        full_html=False,
        include_plotlyjs=False,
        div_id=f"figure-{index}",
        default_width="100%",
        default_height="440px",
        config={"displaylogo": False, "responsive": True},
    )


STYLE = """body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;
text-align:right}td:first-child,th:first-child{text-align:left}.note{color:#555;max-width:60em}"""


def render_html(report: InstrumentReport) -> str:
    """A self-contained page (plotly.js embedded, every text cell escaped)."""
    from plotly.offline import get_plotlyjs

    e = html.escape
    body = [f"<h1>{e(report.title)}</h1>"] + [f"<p>{e(line)}</p>" for line in report.intro]
    for table in report.tables:
        head = "".join(f"<th>{e(c)}</th>" for c in table.columns)
        rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in table.rows)
        body += [
            f"<h2>{e(table.title)}</h2>",
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>",
            f'<p class="note">{e(table.note)}</p>',
        ]
    body += [_figure_html(figure, i) for i, figure in enumerate(report.figures)]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{e(report.title)}</title><style>{STYLE}</style>"
        f"<script>{get_plotlyjs()}</script></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def print_report(report: InstrumentReport, console: Any) -> None:
    """The tables in the terminal (rich), each with its note as caption."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    console.print(f"[bold]{escape(report.title)}[/]")
    for line in report.intro:
        console.print(escape(line))
    for table in report.tables:
        rich_table = RichTable(
            title=escape(table.title), title_justify="left", caption=escape(table.note),
            caption_justify="left",
        )
        for index, column in enumerate(table.columns):
            rich_table.add_column(escape(column), justify="left" if index == 0 else "right")
        for row in table.rows:
            rich_table.add_row(*(escape(c) for c in row))
        print_table(rich_table, console)


def write_report(report: InstrumentReport, out_dir: Path, formats: Sequence[str] = FORMATS) -> list[Path]:
    """Write ``report.json``/``report.md``/``report.html`` (atomically) and return the paths."""
    renderers = {"json": render_json, "md": render_markdown, "html": render_html}
    paths = []
    for fmt in formats:
        path = Path(out_dir) / f"report.{fmt}"
        write_text_atomic(path, renderers[fmt](report))
        paths.append(path)
    return paths
