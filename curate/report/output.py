"""Write a diff report as report.json, report.md and a self-contained report.html.

All three are rendered from the report.json document alone (:class:`curate.report.schema.Report`),
so a report can be re-rendered from report.json without a model. Outputs are deterministic (no
timestamps, fixed chart ids) and written atomically, after all three rendered.
"""

from __future__ import annotations

import json
from pathlib import Path

from curate.fileio import write_file_set
from curate.jsonl import loads_document
from curate.report.html_page import render_html
from curate.report.markdown import render_markdown
from curate.report.schema import Report

#: The files of a report, in the order they are written.
REPORT_FILES: tuple[str, ...] = ("report.json", "report.md", "report.html")


def render_json(data: Report) -> str:
    """Every number of the report, as indented JSON (no NaN: undefined values are null)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"



def explorer_link(out_dir: Path, data: Report | None = None) -> str | None:
    """The explorer's index.html relative to the report, when ``curate explore`` built its site
    beside the report (the default layout: ``build/diff-report`` and ``build/explore``) for the
    report's two versions and with every pair the report links (``data``), so the report's pair
    ids link into it; else None: a site built for other versions would open on other pairs."""
    site = Path(out_dir).parent / "explore"
    if not (site / "index.html").is_file():
        return None
    try:
        marker = loads_document((site / ".curate-explore").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # not a site, or one from before the marker said what it shows
    if not isinstance(marker, dict) or not isinstance(marker.get("pairs"), list):
        return None
    if data is not None:
        versions = {data["before"]["label"], data["after"]["label"]}
        if not versions <= set(marker.get("versions") or ()):
            return None
        linked = {int(f["pair_id"]) for f in data.get("robust_flips", {}).get("every", [])}
        linked |= {int(f["pair_id"]) for f in data.get("robust_flips", {}).get("only_one", [])}
        if not linked <= set(marker["pairs"]):
            return None
    return "../explore/index.html"


def write_report(data: Report, out_dir: Path, explore: str | None = None) -> list[Path]:
    """Render all three formats first, then write them as one set; return the paths.
    ``explore``: the explorer page to link pair ids to (default: :func:`explorer_link`)."""
    out_dir = Path(out_dir)
    rendered = {
        "report.json": render_json(data),
        "report.md": render_markdown(data),
        "report.html": render_html(data, explore or explorer_link(out_dir, data)),
    }
    return write_file_set(out_dir, rendered)  # the three appear together or not at all
