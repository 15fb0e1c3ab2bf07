"""curate's own help renderer (issue 31: help in well under half a second).

``--help`` is drawn by :mod:`curate.commands.help_render` with the Markdown subset of
:mod:`curate.help_markdown` instead of typer's rich renderer. These tests check that nothing is
lost by it: every help text of the CLI gives the same words as ``rich.markdown`` gives; every
option, default and required mark is shown; no cell is cut with ``…`` at 100 or at 44 columns;
and answering help imports neither typer's renderer nor Markdown, pygments or the stages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from rich.markdown import Markdown
from typer.testing import CliRunner

from curate.cli import COMMANDS, app, load_stage
from curate.help_markdown import BOLD_STYLE, CODE_STYLE, blocks, inline, render
from tests.support.cli_imports import modules_after

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _tree() -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command and group of the CLI with its path, the stages loaded."""

    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
        yield path, command
        for name, child in (getattr(command, "commands", None) or {}).items():
            yield from walk(child, (*path, name))

    yield (), typer.main.get_command(app)
    for module in sorted({module for module, _ in COMMANDS.values()}):
        for name, command in load_stage(module).items():
            yield from walk(command, (name,))


def _help_texts() -> list[tuple[str, str]]:
    texts = []
    for path, command in _tree():
        where = " ".join(("curate", *path))
        texts.append((where, (command.help or "").split("\f")[0]))
        texts += [(f"{where} {p.name}", p.help) for p in command.params if getattr(p, "help", "")]
    return [(where, text) for where, text in texts if text and text.strip()]


def _words(renderable: Any) -> list[str]:
    console = Console(file=StringIO(), width=300, color_system=None)
    console.print(renderable)
    return console.file.getvalue().split()  # type: ignore[attr-defined]


def test_every_help_text_gives_the_words_rich_markdown_gives() -> None:
    """The subset draws every construct the help texts use: a text that starts using a heading,
    a numbered list or a link fails here instead of printing raw Markdown."""
    import inspect

    texts = _help_texts()
    assert len(texts) > 150
    assert any("**" in text for _, text in texts) and any("`" in text for _, text in texts)
    for where, text in texts:
        ours = _words(render(text))
        # as typer drew it: a command's first paragraph and the rest, each a Markdown document
        first, _, rest = inspect.cleandoc(text).partition("\n\n")
        theirs = _words(Markdown(first)) + _words(Markdown(inspect.cleandoc(rest)))
        assert ours == theirs, where


def _help(args: list[str], width: int) -> str:
    env = {"TERMINAL_WIDTH": str(width), "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    result = runner.invoke(app, [*args, "--help"], prog_name="curate", env=env)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("width", [100, 44])
def test_every_help_shows_every_option_whole_and_cuts_nothing(width: int) -> None:
    """At 100 columns and at 44 (a narrow log): no line wider than the width, no cell cut with
    an ellipsis, and every option name, default and required mark of the command present."""
    for path, command in _tree():
        text = _help(list(path), width)
        lines = text.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= width, path
        assert "…" not in text, path
        flat = " ".join(text.split())
        for param in command.params:
            if getattr(param, "hidden", False):
                continue
            for opt in (*param.opts, *param.secondary_opts):
                if opt.startswith("-"):
                    assert re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text), (path, opt)
            if param.required:
                assert "[required]" in flat, (path, param.name)


def test_defaults_required_marks_and_ranges_are_shown() -> None:
    sweep = " ".join(_help(["sweep"], 100).split())
    assert "--connect-timeout <float range> [x>=0.1]" in sweep
    assert "[default: 30.0]" in sweep
    compare = _help(["instrument", "compare"], 100)
    required = [line for line in compare.splitlines() if "--scores" in line]
    assert required and required[0].lstrip("│ ").startswith("*"), compare
    assert "[required]" in compare
    score = " ".join(_help(["score"], 100).split())
    assert "--lowercase / --no-lowercase" in score
    assert "[default: (auto)]" in score
    assert "--model, -m <str>" in score


def test_the_root_help_lists_every_command_with_its_summary() -> None:
    text = " ".join(_help([], 100).replace("│", " ").split())
    for name, (_, summary) in COMMANDS.items():
        assert f"{name} {inline(summary).plain}" in text, name


def test_narrow_help_puts_the_text_under_the_name() -> None:
    """Below 72 columns an option's help starts on the line after its name, indented."""
    lines = [line.strip("│ ").rstrip() for line in _help(["score"], 44).splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("--batch-size"))
    assert lines[at] == "--batch-size <int range> [x>=1]"
    assert lines[at + 1].startswith("Masked copies")


SLOW_RENDERING = ("typer.rich_utils", "rich.markdown", "markdown_it", "pygments", "rich.traceback")


@pytest.mark.parametrize("args", [["--help"], ["score", "-h"], ["annotations", "push", "-h"]])
def test_help_imports_no_markdown_parser_nor_typers_renderer(args: list[str]) -> None:
    _, modules = modules_after(*args)
    assert "curate.commands.help_render" in modules
    assert [m for m in modules if m.startswith(SLOW_RENDERING)] == []


def test_a_usage_error_does_not_import_the_help_renderer() -> None:
    _, modules = modules_after("score", "--no-such-option")
    assert "curate.commands.help_render" not in modules
    assert [m for m in modules if m.startswith(SLOW_RENDERING)] == []


# the Markdown subset itself


def test_blocks_join_lines_and_split_lists() -> None:
    text = "First line\nsecond line.\n\nMethods:\n- **a**: one\n  more\n- b\nlazy\n\nAfter."
    assert [(b.kind, b.items) for b in blocks(text)] == [
        ("p", ["First line second line."]),
        ("p", ["Methods:"]),
        ("ul", ["**a**: one more", "b lazy"]),
        ("p", ["After."]),
    ]


def test_blocks_dedent_like_a_docstring() -> None:
    text = "Summary.\n\n    Body line one\n    line two.\n\n    - item\n"
    assert [(b.kind, b.items) for b in blocks(text)] == [
        ("p", ["Summary."]),
        ("p", ["Body line one line two."]),
        ("ul", ["item"]),
    ]


def test_inline_draws_bold_code_and_escapes() -> None:
    text = inline(r"run `curate rules`, see **pll** and \<out>/\<model>; a \* star")
    assert text.plain == "run curate rules, see pll and <out>/<model>; a * star"
    styles = {text.plain[s.start : s.end]: str(s.style) for s in text.spans}
    assert styles == {"curate rules": CODE_STYLE, "pll": BOLD_STYLE}


def test_inline_leaves_what_is_not_markdown() -> None:
    """Brackets, single stars and underscores inside words stay as written."""
    text = "[tool.curate] save_pretrained 2*3 **"
    assert inline(text).plain == text
    assert _words(render(text)) == _words(Markdown(text))
