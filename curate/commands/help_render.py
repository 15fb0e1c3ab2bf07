"""curate's ``--help``: usage, the command's text, then panels of arguments, options and
sub-commands, drawn with rich's basic parts.

Why not typer's own renderer: it imports ``typer.rich_utils``, which imports rich's Markdown,
syntax highlighting and tracebacks (0.2 s), and parses every option's help as a Markdown
document: ``curate score -h`` took 0.6 s, most of it the help's drawing (issue 31). This
renderer keeps typer's layout and styles and draws the help's Markdown with
:mod:`curate.help_markdown`. It also never cuts a cell with ``…`` (a long default such as
``<output-dir>/score/<data-file-stem>`` folds instead), and below :data:`NARROW` columns each
option's text goes under its name instead of into a column a few characters wide.

Every command and group gets it through :mod:`curate.commands.help`, which imports this
module only when help is asked: a usage error never pays for rich's tables and panels.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from typer._click import Command as ClickCommand
from typer._click import Context
from typer.core import TyperArgument, TyperGroup, TyperOption

from curate.help_markdown import render

#: Below this width an option's text goes under its name (a 44-column terminal or log).
NARROW = 72
STYLE_USAGE = "yellow"
STYLE_OPTION = "bold cyan"
STYLE_SWITCH = "bold green"
STYLE_NEGATIVE = "bold magenta"
STYLE_TYPES = "bold yellow"
STYLE_TEXT = "dim"
STYLE_DEFAULT = "dim"
STYLE_REQUIRED = "dim red"
STYLE_BORDER = "dim"


def help_console() -> Console:
    """The console help is printed on: ``TERMINAL_WIDTH`` (as typer reads it) fixes the width,
    else rich finds it (``COLUMNS``, the terminal, 80 in a pipe)."""
    width = os.environ.get("TERMINAL_WIDTH", "")
    return Console(width=int(width) if width.isdigit() and int(width) > 0 else None,
                   highlight=False)  # fmt: skip


def _names(param: TyperOption | TyperArgument) -> Text:
    """``--model, -m`` for an option, ``--lowercase / --no-lowercase`` for a flag pair, the
    placeholder for an argument."""
    if isinstance(param, TyperArgument):
        return Text(param.metavar or param.name or "", style=STYLE_OPTION)
    names = Text()
    for number, opt in enumerate(sorted(param.opts, key=lambda o: not o.startswith("--"))):
        names.append(", " if number else "")
        names.append(opt, style=STYLE_OPTION if opt.startswith("--") else STYLE_SWITCH)
    for opt in param.secondary_opts:
        names.append(" / ")
        names.append(opt, style=STYLE_NEGATIVE)
    return names


def _type(param: TyperOption | TyperArgument, ctx: Context) -> Text:
    """What the value is (``<int range> [x>=1]``, ``<auto|cpu>``); nothing for a flag."""
    if isinstance(param, TyperOption):
        if param.is_flag:
            return Text()
        metavar = param.make_metavar(ctx=ctx)
    else:
        metavar = param.type.get_metavar(param=param, ctx=ctx) or f"<{param.type.name}>"
    describe: Callable[[], str] | None = getattr(param.type, "_describe_range", None)
    if describe is not None and isinstance(param, TyperOption) and not param.count:
        metavar += f" [{describe()}]"
    return Text(metavar, style=STYLE_TYPES)


def _extras(param: TyperOption | TyperArgument, ctx: Context) -> list[tuple[str, str]]:
    """``[env var: X]``, ``[default: Y]`` and ``[required]`` with their styles, as typer shows
    them."""
    extras: list[tuple[str, str]] = []
    envvar = param.envvar
    if envvar and param.show_envvar:
        envvar = envvar if isinstance(envvar, str) else ", ".join(envvar)
        extras.append((f"[env var: {envvar}]", STYLE_DEFAULT))
    default = param._extract_default_help_str(ctx=ctx)
    show_default_is_str = isinstance(param.show_default, str)
    if show_default_is_str or (default is not None and (param.show_default or ctx.show_default)):
        shown = param._get_default_string(
            ctx=ctx, show_default_is_str=show_default_is_str, default_value=default
        )
        if shown:
            extras.append((f"[default: {shown}]", STYLE_DEFAULT))
    if param.required:
        extras.append(("[required]", STYLE_REQUIRED))
    return extras


def _param_help(param: TyperOption | TyperArgument, ctx: Context) -> RenderableType:
    """The parameter's help, its extras after its last line (or on a line of their own after
    a list)."""
    text = render(param.help or "")
    extras = Text(" ").join(Text(extra, style=style) for extra, style in _extras(param, ctx))
    if not extras.plain:
        return text
    if isinstance(text, Text):
        return text.append(" " if text.plain else "").append_text(extras)
    return Group(text, extras)


def _panel(title: str, table: Table) -> Panel:
    return Panel(table, title=title, title_align="left", border_style=STYLE_BORDER)


def _params_panel(
    title: str, params: list[TyperOption | TyperArgument], ctx: Context, narrow: bool
) -> Panel:
    """A panel of arguments or options: name, type, help; or, narrow, help under the name."""
    required = any(p.required for p in params)
    table = Table.grid(padding=(0, 1), expand=True)
    if narrow:
        table.add_column(overflow="fold")
        for param in params:
            head = Text("* " if param.required else "  " if required else "", style="red")
            head.append_text(_names(param)).append(" ").append_text(_type(param, ctx))
            table.add_row(head)
            table.add_row(Padding(_param_help(param, ctx), (0, 0, 0, 4)))
        return _panel(title, table)
    if required:
        table.add_column(no_wrap=True, style="red")
    table.add_column(overflow="fold")
    table.add_column(overflow="fold")
    table.add_column(overflow="fold", ratio=1)
    for param in params:
        row = [_names(param), _type(param, ctx), _param_help(param, ctx)]
        table.add_row(*(["*" if param.required else "", *row] if required else row))
    return _panel(title, table)


def _first_paragraph(command: ClickCommand) -> RenderableType:
    text = (command.short_help or command.help or "").split("\f")[0]
    paragraphs = [p for p in text.strip().split("\n\n") if p.strip()]
    return render(paragraphs[0] if paragraphs else "")


def _commands_panel(group: TyperGroup, ctx: Context) -> Panel | None:
    commands = [
        command
        for name in group.list_commands(ctx)
        if (command := group.get_command(ctx, name)) is not None and not command.hidden
    ]
    if not commands:
        return None
    table = Table.grid(padding=(0, 2), expand=True)
    table.add_column(no_wrap=True, style=STYLE_OPTION)
    table.add_column(overflow="fold", ratio=1)
    for command in commands:
        table.add_row(command.name or "", _first_paragraph(command))
    return _panel("Commands", table)


def _description(command: ClickCommand) -> RenderableType | None:
    """The command's text: the first paragraph as it is, the rest dim (typer's styles)."""
    text = (command.help or "").split("\f")[0].strip()
    if not text:
        return None
    first, _, rest = text.partition("\n\n")
    parts: list[RenderableType] = [render(first)]
    if rest.strip():
        parts += [Text(""), render(rest, STYLE_TEXT)]
    if command.deprecated:
        parts.insert(0, Text("(deprecated)", style="red"))
    return Group(*parts)


def print_help(command: ClickCommand, ctx: Context) -> None:
    """Print ``command``'s help: usage, its text, its panels, its epilog."""
    console = help_console()
    narrow = console.width < NARROW
    usage = Text("Usage: ", style=STYLE_USAGE)
    usage.append(command.get_usage(ctx).removeprefix("Usage: ").strip(), style="bold")
    console.print(Padding(usage, 1))
    description = _description(command)
    if description is not None:
        console.print(Padding(description, (0, 1, 1, 1)))
    panels: dict[str, list[TyperOption | TyperArgument]] = {"Arguments": [], "Options": []}
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False) or not isinstance(param, TyperOption | TyperArgument):
            continue
        default_panel = "Arguments" if isinstance(param, TyperArgument) else "Options"
        panels.setdefault(getattr(param, "rich_help_panel", None) or default_panel, []).append(
            param
        )
    for title, params in panels.items():
        if params:
            console.print(_params_panel(title, params, ctx, narrow))
    if isinstance(command, TyperGroup) and (commands := _commands_panel(command, ctx)):
        console.print(commands)
    if command.epilog:
        console.print(Padding(render(command.epilog), 1))
