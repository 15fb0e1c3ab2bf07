"""The instrument report renderers: dataset text escaped, numbers finite, files written whole."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from curate.cli import app
from curate.instrument.report import InstrumentReport, Table, print_report, write_report


def _report() -> InstrumentReport:
    return InstrumentReport(
        kind="test",
        title="Title <script>",
        intro=["model <b>x</b>"],
        tables=[Table("T|1", ["group", "value"], [["a|b <i>", "[red]1[/red]"]], "note <u>")],
        data={"rows": [{"value": 0.5}]},
    )


def test_renderers_escape_text(tmp_path: Path) -> None:
    paths = write_report(_report(), tmp_path)
    assert [p.name for p in paths] == ["report.json", "report.md", "report.html"]
    page = (tmp_path / "report.html").read_text()
    assert "<script>alert" not in page and "Title &lt;script&gt;" in page and "&lt;i&gt;" in page
    markdown = (tmp_path / "report.md").read_text()
    assert "a\\|b" in markdown and "<i>" not in markdown
    assert json.loads((tmp_path / "report.json").read_text())["rows"] == [{"value": 0.5}]
    console = Console(record=True, width=120)
    print_report(_report(), console)
    assert "[red]1[/red]" in console.export_text()  # rich markup in a cell is shown, not applied


def test_no_scores_for_the_files_is_one_sentence(tmp_path: Path, crows_pairs_path: Path) -> None:
    (tmp_path / "scores").mkdir()
    result = CliRunner().invoke(
        app,
        ["instrument", "reliability", str(crows_pairs_path), "--original", str(crows_pairs_path),
         "-s", str(tmp_path / "scores"), "-o", str(tmp_path / "r")],
    )
    assert result.exit_code == 2 and "no model has scores" in result.output
    result = CliRunner().invoke(
        app, ["instrument", "sensitivity", str(crows_pairs_path), "-s", str(tmp_path / "missing")]
    )
    assert result.exit_code == 2 and "no such directory" in result.output
    result = CliRunner().invoke(
        app, ["instrument", "sensitivity", str(crows_pairs_path), "-s", str(tmp_path / "scores")]
    )
    assert result.exit_code == 2 and "no score sets of these files" in result.output
