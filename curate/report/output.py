"""Write a diff report as report.json, report.md and a self-contained report.html.

All three are rendered from the report.json document alone (:class:`curate.report.schema.Report`),
so a report can be re-rendered from report.json without a model. Outputs are deterministic (no
timestamps, fixed chart ids) and written atomically, after all three rendered.
"""

from __future__ import annotations

import json
from pathlib import Path

from curate.fileio import write_file_set
from curate.report.html_page import render_html
from curate.report.markdown import render_markdown
from curate.report.schema import Report

#: The files of a report, in the order they are written.
REPORT_FILES: tuple[str, ...] = ("report.json", "report.md", "report.html")


def render_json(data: Report) -> str:
    """Every number of the report, as indented JSON (no NaN: undefined values are null)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"



def write_report(data: Report, out_dir: Path) -> list[Path]:
    """Render all three formats first, then write them as one set; return the paths."""
    rendered = {
        "report.json": render_json(data),
        "report.md": render_markdown(data),
        "report.html": render_html(data),
    }
    return write_file_set(out_dir, rendered)  # the three appear together or not at all
