"""The typer classes that give every curate command and group its ``--help``
(:func:`curate.commands.help_render.print_help`).

Why classes: typer lets an app choose the class of its commands and groups, so a command
module builds its app from :class:`HelpTyper` and needs nothing else. The renderer (rich's
tables and panels) is imported when help is printed, not when the CLI starts.
"""

from __future__ import annotations

from typing import Any

import typer
from typer._click import Context, HelpFormatter
from typer.core import TyperCommand, TyperGroup


class HelpCommand(TyperCommand):
    """A typer command whose ``--help`` is :func:`print_help`."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        from curate.commands.help_render import print_help

        print_help(self, ctx)


class HelpGroup(TyperGroup):
    """A typer group whose ``--help`` is :func:`print_help`."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        from curate.commands.help_render import print_help

        print_help(self, ctx)


class HelpTyper(typer.Typer):
    """``typer.Typer`` whose commands and groups are :class:`HelpCommand` and :class:`HelpGroup`
    unless another class is given."""

    def __init__(self, *args: Any, cls: type[TyperGroup] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, cls=cls or HelpGroup, **kwargs)

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or HelpCommand, **kwargs)
