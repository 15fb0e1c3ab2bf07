"""Helpers shared by the CLI commands: error mapping, consoles, output formats, config."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from curate.config import Config, load_config
from curate.errors import CurateError

P = ParamSpec("P")
R = TypeVar("R")

#: Results go to stdout; progress, warnings and errors to stderr.
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class TableFormat(StrEnum):
    """Output formats for tabular results."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


class ReportFormat(StrEnum):
    """Output formats for summaries."""

    text = "text"
    json = "json"


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn user errors into one line on stderr and exit code 2; Ctrl-C into exit code 130."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except CurateError as exc:
            err.print(f"[bold red]error:[/] {exc.rich_message}", markup=True, highlight=False)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            err.print("interrupted; no partial output was written")
            raise typer.Exit(130) from None

    return wrapper


def config() -> Config:
    """The project configuration for the current working directory."""
    return load_config()


def data_path(path: Path | None) -> Path:
    """``path`` if given, else the configured default data file."""
    return path if path is not None else config().data


def print_json(value: Any) -> None:
    """Print ``value`` as stable, indented JSON on stdout."""
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))
