"""The ``curate`` command line: a Typer app that parses options, calls the library and renders.

Each pipeline stage registers its commands from ``curate/commands/<stage>.py``; this module only
builds the app, the shared options and the error handling (exit code 0 ok, 1 findings or a
failed check, 2 usage or input error).

The stages are imported lazily (:class:`LazyGroup`): ``curate --help`` lists the commands from
:data:`COMMANDS` without importing any stage, and ``curate score ...`` imports the score stage
only. Importing them all (the annotation, release and lint stacks, pydantic, numpy, jinja2)
made every ``--help`` and usage error take most of a second (issue 31);
``benchmarks/bench_cli.py`` measures it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperCommand

from curate.commands.help import HelpGroup, HelpTyper
from curate.interrupt import run_guarded

if TYPE_CHECKING:  # typer's own click (typer vendors it): importing click costs 50 ms
    import click

#: Every command: the stage module that registers it and its one-paragraph summary, as the
#: module's docstring gives it (tests/test_cli_startup.py checks that they agree), in the
#: order ``curate --help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "fetch": ("data", "Fetch a pinned source dataset into data/raw/, verified by SHA-256."),
    "stats": (
        "data",
        "Pairs per bias type and direction, sentence lengths, and validator agreement.",
    ),
    "lint": (
        "lint",
        "Find invalid minimal pairs. Exit 1 when findings remain, 0 when none, 2 on bad input.",
    ),
    "rules": ("lint", "List the lint rules, or explain one with its bad and good examples."),
    "revise": ("release", "Apply safe autofixes, then decisions in order, to the pinned raw file."),
    "publish": (
        "release",
        "Build the release data/clean/VERSION/dist/: CSV, Parquet (also in the Hugging Face "
        "crows_pairs layout), changes, data card, changelog, an lm-evaluation-harness task "
        "(lm_eval/), manifest and SHA256SUMS.",
    ),
    "diff": (
        "release",
        "Pair-level diff of two versions: added, dropped and edited pairs, edits word by word.",
    ),
    "score": ("score", "Score pairs with bias metrics of masked and causal language models."),
    "sweep": (
        "sweep",
        "Score every (model, method, dataset version) of a plan whose results are not cached.",
    ),
    "diff-report": (
        "diff_report",
        "Score two versions with each model and report what the revision changed.",
    ),
    "explore": (
        "explore",
        "Write a static site (index.html) to browse pairs with their findings, decisions, "
        "annotator answers, change history and scores, a threshold slider, and a way for "
        "readers to report bad pairs as a findings file for `curate annotations push "
        "--findings`.",
    ),
    "annotations": (
        "annotations",
        "Revalidate flagged pairs with annotators in Label Studio: push tasks, pull the "
        "answers, tally decisions and agreement. Files live in annotations/rounds/ROUND/.",
    ),
    "across": (
        "across",
        "One view of several models across benchmarks: every benchmark's headline metric with "
        "its interval, capability, ranks, Kendall's tau between rankings and a combined score "
        "with its definition.",
    ),
    "instrument": (
        "instrument",
        "Reliability and validity of a benchmark as a measuring instrument, from the scores of "
        "several models: parallel forms, internal consistency, convergent validity, sensitivity.",
    ),
}

#: ``-h`` as well as ``--help``, on every command (a click context inherits it).
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def load_stage(module: str) -> dict[str, click.Command]:
    """The click commands that ``curate.commands.<module>`` registers, by name."""
    stage = importlib.import_module(f"curate.commands.{module}")
    holder = HelpTyper(rich_markup_mode="markdown", context_settings=CONTEXT_SETTINGS)
    stage.register(holder)
    return dict(typer.main.get_group(holder).commands)


class _LazyCommands(MutableMapping[str, "click.Command"]):
    """The group's commands: names known at once, each command built when first looked up."""

    def __init__(self) -> None:
        self._loaded: dict[str, click.Command] = {}
        self._extra: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name in self._extra:
            return self._extra[name]
        if name not in COMMANDS:
            raise KeyError(name)
        if name not in self._loaded:
            self._loaded.update(load_stage(COMMANDS[name][0]))
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._extra[name] = command

    def __delitem__(self, name: str) -> None:
        del self._extra[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (n for n in self._extra if n not in COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS) + sum(1 for n in self._extra if n not in COMMANDS)


class LazyGroup(HelpGroup):
    """The root group: commands are imported when one runs (or its help is asked), and the
    root's help lists them from :data:`COMMANDS` without importing any."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _LazyCommands()  # type: ignore[assignment]
        self._listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # the names only: TyperGroup's reads every command

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if self._listing and cmd_name in COMMANDS:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][1])
        return super().get_command(ctx, cmd_name)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the CLI as :meth:`TyperGroup.main` does, except that a usage error is printed as
        plain text (usage, a hint, ``Error: ...``) instead of in a rich panel: drawing the panel
        imports typer's rich help renderer (markdown, syntax highlighting, tracebacks), a
        quarter of the time a mistyped option took (issue 31). Help is drawn by curate's own
        renderer (:mod:`curate.commands.help`), through ``format_help``."""
        from typer.core import _main

        return _main(
            self,
            args=args,
            prog_name=prog_name,
            complete_var=complete_var,
            standalone_mode=standalone_mode,
            windows_expand_args=windows_expand_args,
            rich_markup_mode=None,
            **extra,
        )

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = HelpTyper(
    name="curate",
    cls=LazyGroup,
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
    context_settings=CONTEXT_SETTINGS,
)


def _version(value: bool) -> None:
    if value:
        from curate import __version__

        typer.echo(f"curate {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """curate: curation pipeline for minimal-pair bias benchmarks."""


def main() -> None:
    """The CLI with Ctrl-C turned into one line (as the console script :mod:`curate.__main__`
    runs it, which imports this module inside the same handler)."""
    run_guarded(lambda: app)
