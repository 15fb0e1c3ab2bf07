"""Helpers shared by the CLI commands: error mapping, consoles, output formats, config."""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from curate.errors import CurateError, InputError, UsageError

if TYPE_CHECKING:
    from curate.config import Config
    from curate.formats import Dataset

P = ParamSpec("P")
R = TypeVar("R")

#: Results go to stdout; progress, warnings and errors to stderr.
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


#: The ``--input-format`` and ``--output-format`` names as the help lists them. They are the
#: registry's (:func:`curate.benchmarks.input_formats`), written out because asking the registry
#: imports every benchmark, which made each usage error and ``--help`` of a command take most of
#: a second (issue 31); tests/test_cli_startup.py checks that the two lists agree.
INPUT_FORMATS: tuple[str, ...] = (
    "csv", "tsv", "jsonl", "parquet", "hf-csv", "hf-jsonl", "hf-parquet", "stereoset", "winobias",
    "winogender",
)  # fmt: skip
OUTPUT_FORMATS: tuple[str, ...] = ("upstream", *INPUT_FORMATS)


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


#: ``--input-format``, the same option on every command that reads a dataset.
INPUT_FORMAT = typer.Option(
    None,
    "--input-format",
    metavar="FORMAT",
    help=f"Force the input shape ({', '.join(INPUT_FORMATS)}). Default: detected from the content.",
    show_default=False,
)
#: ``--input-format`` of the commands that compare two versions: one shape for both, or
#: ``BEFORE,AFTER`` with ``auto`` for a side that is detected.
VERSIONS_INPUT_FORMAT = typer.Option(
    None,
    "--input-format",
    metavar="FORMAT[,FORMAT]",
    help=f"Force the input shape ({', '.join(INPUT_FORMATS)}) of both versions, or BEFORE,AFTER "
    "with 'auto' for a side to detect. Default: detected from the content.",
    show_default=False,
)
#: ``--output-format``, the same option on every command that writes a dataset.
OUTPUT_FORMAT = typer.Option(
    None,
    "--output-format",
    metavar="FORMAT",
    help=f"Shape of the written dataset ({', '.join(OUTPUT_FORMATS)}). Default: the input's shape "
    "(the upstream CSV, byte for byte, for upstream input).",
    show_default=False,
)


def dataset_format(value: str | None, *, output: bool = False) -> str | None:
    """The checked value of ``--input-format`` (or ``--output-format``): None means detect (or
    keep the input's shape). An unknown name is a usage error naming the valid ones, raised
    before any work is done."""
    from curate import benchmarks

    if value is None or (not output and value == "auto"):
        return None
    valid = benchmarks.output_formats() if output else benchmarks.input_formats()
    if value not in valid:
        option = "--output-format" if output else "--input-format"
        raise UsageError(f"{option} {value!r} is not a known format; expected one of {', '.join(valid)}")
    return value


def dataset_formats(value: str | None, count: int = 2) -> tuple[str | None, ...]:
    """``--input-format`` of a command reading ``count`` datasets: one name for all of them,
    or one per dataset separated by commas (``auto`` detects that one)."""
    if value is None:
        return (None,) * count
    names = [v.strip() for v in value.split(",")]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise UsageError(
            f"--input-format {value!r}: give one format, or {count} separated by commas"
        )
    return tuple(dataset_format(n) for n in names)


#: ``--encoding``: the codec of a file that is not UTF-8, instead of detecting it.
ENCODING = typer.Option(
    None,
    "--encoding",
    metavar="CODEC",
    help="Encoding of an input that is not UTF-8 (e.g. mac_roman, cp1252). Default: UTF-8, "
    "else detected with evidence (the reader names it); outputs are always UTF-8.",
    show_default=False,
)
#: ``--language``: the language of the pairs, instead of detecting it.
LANGUAGE = typer.Option(
    None,
    "--language",
    metavar="CODE",
    help="Language of the pairs (en, fr, nl): the lint runs that language's rules and "
    "dictionary. Default: detected from the sentences.",
    show_default=False,
)


#: ``--skip-bad-rows``: read a damaged dataset file without the rows that cannot be read.
SKIP_BAD_ROWS = typer.Option(
    False,
    "--skip-bad-rows",
    help="Go on without the rows of the dataset file that cannot be read (empty rows, bad "
    "labels, ...): they are listed on stderr and recorded in the outputs. Default: every bad "
    "row is described in one error and nothing is computed.",
)


def load_dataset(
    path: Path,
    input_format: str | None = None,
    encoding: str | None = None,
    language: str | None = None,
    skip_bad_rows: bool = False,
) -> Dataset:
    """Read a dataset file, printing the reader's warnings (label normalisations, a legacy
    encoding, rows left out) on stderr; ``encoding``, ``language`` and ``skip_bad_rows`` as
    ``--encoding``, ``--language`` and ``--skip-bad-rows``."""
    from curate.datasets import read_dataset

    with reading(encoding, language, skip_bad_rows):
        return print_warnings(read_dataset(path, input_format))


@contextlib.contextmanager
def reading(
    encoding: str | None, language: str | None, skip_bad_rows: bool = False
) -> Iterator[None]:
    """Within the block, datasets are read with ``--encoding`` and ``--language`` (when
    given) instead of detecting them, and without their bad rows under ``--skip-bad-rows``."""
    from curate.formats.encoding import forced_encoding
    from curate.formats.language import declared
    from curate.formats.rows import skipping_bad_rows

    with forced_encoding(encoding), declared(language), skipping_bad_rows(skip_bad_rows):
        yield


def skipped_rows(dataset: Dataset) -> list[dict[str, object]]:
    """The rows ``--skip-bad-rows`` left out of ``dataset``, as the outputs record them."""
    return [row.as_dict() for row in dataset.skipped_rows]


def print_warnings(dataset: Dataset) -> Dataset:
    """Print the reader's warnings about ``dataset`` on stderr; return it."""
    for warning in dataset.warnings:
        err.print(f"warning: {escape(warning)}")
    return dataset


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


def literal_help(text: str) -> str:
    """Help text that shows its ``<placeholder>`` words under the app's markdown help mode.

    The CLI renders help as Markdown (``rich_markup_mode="markdown"``), where ``<out>`` is an
    inline HTML tag and silently vanishes ("each model gets //scores.csv"); a backslash makes
    markdown show the ``<`` as text.
    """
    return text.replace("<", "\\<")


def config() -> Config:
    """The project configuration for the current working directory."""
    from curate.config import load_config

    return load_config()


def data_path(path: Path | None, cfg: Config) -> Path:
    """The data file a command reads: the configured (fetched) file when none is given, else
    ``path`` resolved as every command resolves data: an existing file as is, ``raw`` or a
    source name to the fetched file, a release version (``1.0.0-auto``) to its CSV
    (:func:`curate.release.versions.resolve_version`, the one resolver)."""
    from curate.config import fetched_data

    if path is None:
        return fetched_data(cfg)
    try:
        if path.exists() or path.is_symlink():
            return path
    except OSError:  # a name too long for the file system: its reader says so in one sentence
        return path
    from curate.release.versions import is_version, resolve_version

    if is_version(str(path)) or (len(path.parts) == 1 and not path.suffix):
        return resolve_version(str(path), cfg).path
    return path  # a file name: its reader says it is missing


def shown_path(path: Path, root: Path) -> str:
    """``path`` as a message shows it: relative to the project root when inside it."""
    from curate.fileio import real_path

    try:
        return str(real_path(path).relative_to(root))
    except ValueError:
        return str(path)


def split_codes(values: list[str] | None, *, upper: bool = False) -> tuple[str, ...] | None:
    """Rule codes from repeated and comma-separated options (``--select S,P006 --select T``);
    None when the option was not given."""
    if values is None:
        return None
    codes = (c.strip() for v in values for c in v.split(","))
    return tuple(c.upper() if upper else c for c in codes if c)


#: The score cache under the project root unless --cache or [tool.curate.score] cache say otherwise.
DEFAULT_SCORE_CACHE = ".curate-cache/scores.sqlite"


def score_cache_path(cfg: Config, cache: Path | None, no_cache: bool) -> Path | None:
    """The score cache a command uses: none with --no-cache, else --cache, else the configured."""
    if no_cache:
        return None
    if cache is not None:
        return cache
    configured = cfg.section("score").get("cache", DEFAULT_SCORE_CACHE)
    if not isinstance(configured, str):
        raise InputError(
            f"{cfg.root / 'pyproject.toml'}: [tool.curate.score] cache must be a string"
        )
    return cfg.root / configured


def print_json(value: Any) -> None:
    """Print ``value`` as stable, indented JSON on stdout."""
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))


#: A label given on the command line (``-m path=label``): a folder name, no separators.
_LABEL = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")

#: The sentence every ``--model`` option adds about labels.
LABEL_HELP = (
    " Give it a label with PATH=LABEL (a folder name): two folders with the same name "
    "(a/bert, b/bert) can then be scored together."
)


def split_label(value: str) -> tuple[str, str | None]:
    """``path=label`` as ``(path, label)``; a value with no ``=`` as ``(value, None)``.

    Two model folders with the same name (``a/bert`` and ``b/bert``) would share an output
    folder and a column label; a label tells them apart. The label is what follows the last
    ``=`` and must be a folder name (letters, digits, ``_ . + -``); a local path that itself
    holds ``=`` and exists is taken whole."""
    from curate.modelnames import local_name

    name, sep, label = value.rpartition("=")
    if not sep or not name or local_name(value) is not None:
        return value, None
    if not _LABEL.match(label):
        raise UsageError(
            f"model label {label!r} (in {value!r}) must be a folder name: letters, digits, "
            "'_', '.', '+' or '-', not starting with '.' or '-'"
        )
    return name, label


class ResultFormat(StrEnum):
    """Output formats for a result that is a table: the table, JSON or CSV."""

    text = "text"
    json = "json"
    csv = "csv"


def print_csv(rows: list[dict[str, Any]]) -> None:
    """Print ``rows`` as CSV on stdout (a header of every key, in the order first seen; a
    row without a key leaves its cell empty)."""
    import csv
    import io

    if not rows:
        return
    fields = list(dict.fromkeys(key for row in rows for key in row))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=fields, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    typer.echo(buffer.getvalue(), nl=False)
