"""The ``curate`` command line: a Typer app that parses options, calls the library and renders.

Each pipeline stage registers its commands from ``curate/commands/<stage>.py``; this module only
builds the app, the shared options and the error handling (exit code 0 ok, 1 findings or a
failed check, 2 usage or input error).
"""

from __future__ import annotations

import typer

from curate import __version__
from curate.commands import annotations as annotations_commands
from curate.commands import data as data_commands
from curate.commands import diff_report as diff_report_commands
from curate.commands import explore as explore_commands
from curate.commands import instrument as instrument_commands
from curate.commands import lint as lint_commands
from curate.commands import release as release_commands
from curate.commands import score as score_commands
from curate.commands import sweep as sweep_commands
from curate.interrupt import run_guarded

app = typer.Typer(
    name="curate",
    help=(
        "Find, revalidate and fix broken sentence pairs in social-bias benchmarks such as "
        "CrowS-Pairs, and measure what the fixes change.\n\n"
        "Data flow: fetch -> stats -> lint -> annotations -> revise -> publish -> score -> "
        "diff-report. Paths default to [tool.curate] in the project's pyproject.toml."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"curate {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """curate: curation pipeline for minimal-pair bias benchmarks."""


data_commands.register(app)
annotations_commands.register(app)
lint_commands.register(app)
release_commands.register(app)
score_commands.register(app)
sweep_commands.register(app)
diff_report_commands.register(app)
explore_commands.register(app)
instrument_commands.register(app)


def main() -> None:
    """The CLI with Ctrl-C turned into one line (as the console script :mod:`curate.__main__`
    runs it, which imports this module inside the same handler)."""
    run_guarded(lambda: app)
