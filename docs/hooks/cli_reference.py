"""MkDocs hook: the CLI reference and the rule catalogue, generated from the CLI at every build.

Why a hook: a reference copied by hand drifts from the options the code has. These are the
help text itself (every command and sub-command's ``--help``, in the order ``curate --help``
lists them) and what ``curate rules`` prints (the list, then ``curate rules CODE`` for each),
captured from the Typer app of the tree being built. ``mkdocs-click`` cannot do it here: Typer
(0.29) builds its commands on its own vendored copy of click (``typer._click``), and
``mkdocs-click`` (0.9) keeps only parameters that are ``click.Option`` instances, so every
command would come out without its options.

The hook also keeps the guide complete: a command without a guide page in :data:`GUIDE`, or a
:data:`GUIDE` entry naming no command, is a warning, and ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import logging
import posixpath
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Where the generated reference goes (in docs/reference/cli.md).
MARKER = "<!-- curate-cli-reference -->"
#: Where the rule catalogue goes (in docs/reference/rules.md).
RULES_MARKER = "<!-- curate-rules-reference -->"

#: Width of the rendered help (curate's help reads TERMINAL_WIDTH, as typer does).
WIDTH = 100

#: The guide page of each top-level command (paths relative to docs/).
GUIDE = {
    "fetch": "commands/data.md",
    "stats": "commands/data.md",
    "diff": "commands/data.md",
    "lint": "commands/lint.md",
    "rules": "commands/lint.md",
    "annotations": "commands/annotations.md",
    "revise": "commands/release.md",
    "publish": "commands/release.md",
    "score": "commands/score.md",
    "diff-report": "commands/score.md",
    "sweep": "commands/sweep.md",
    "across": "commands/across.md",
    "explore": "commands/explore.md",
    "instrument": "commands/instrument.md",
}

# A logger below "mkdocs", so that its warnings count in a --strict build.
log = logging.getLogger("mkdocs.hooks.cli_reference")


def on_config(config: Any, **kwargs: Any) -> Any:
    """Put the tree being built first on the path: the reference documents this code."""
    root = str(Path(config.config_file_path).resolve().parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    """Replace the markers with the generated text (other pages pass through unchanged).

    The generated pages hide the navigation bar: the help is 100 columns wide and needs the room.
    """
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, reference(page.file.src_uri))
        page.meta.setdefault("hide", ["navigation"])
    if RULES_MARKER in markdown:
        markdown = markdown.replace(RULES_MARKER, rules_reference())
        page.meta.setdefault("hide", ["navigation"])
    return markdown


def _commands(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """``(path, command)`` for the command and every visible sub-command, depth first."""
    yield path, command
    children = getattr(command, "commands", None) or {}
    for name, child in children.items():
        if not getattr(child, "hidden", False):
            yield from _commands(child, (*path, name))


def run(app: Any, args: list[str]) -> str:
    """What ``curate ARGS`` prints, plain text at :data:`WIDTH` columns."""
    from typer.testing import CliRunner

    # plain text at WIDTH columns, whatever the build's environment asks of rich
    env = {"TERMINAL_WIDTH": str(WIDTH), "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    result = CliRunner().invoke(app, args, prog_name="curate", color=False, env=env)
    if result.exit_code != 0:
        log.warning("`curate %s` exited %s", " ".join(args), result.exit_code)
    return "\n".join(line.rstrip() for line in result.output.splitlines()).strip("\n")


def _cell(text: object) -> str:
    """A value as a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def rules_reference() -> str:
    """The rule catalogue: the table of ``curate rules --format json``, then each rule's
    ``curate rules CODE`` under a heading of its own."""
    import json

    from curate.cli import app

    rules = json.loads(run(app, ["rules", "--format", "json"]))
    lines = [
        "| code | name | default | fix | summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rule in rules:
        default = "on" if rule["default"] else "off"
        fix = "safe" if rule["fixable"] else ""
        lines.append(
            f"| [`{rule['code']}`](#{rule['code'].lower()}) | {_cell(rule['name'])} | {default} "
            f"| {fix} | {_cell(rule['summary'])} |"
        )
    sections = ["\n".join(lines), ""]
    for rule in rules:
        sections += [
            f"## {rule['code']}",
            "",
            "```text",
            run(app, ["rules", rule["code"]]),
            "```",
            "",
        ]
    return "\n".join(sections)


def reference(src_uri: str) -> str:
    """The Markdown of the reference, links relative to the page at ``src_uri``."""
    import typer

    from curate.cli import app

    here = posixpath.dirname(src_uri)
    root = typer.main.get_command(app)
    commands = list(_commands(root, ()))
    top = {path[0] for path, _ in commands if path}
    for name in sorted(top - GUIDE.keys()):
        log.warning("command `curate %s` has no guide page in docs/hooks/cli_reference.py", name)
    for name in sorted(GUIDE.keys() - top):
        log.warning("docs/hooks/cli_reference.py names `curate %s`, which does not exist", name)
    sections = []
    for path, _command in commands:
        title = " ".join(("curate", *path))
        level = "#" * (2 + max(len(path) - 1, 0))
        parts = [f"{level} `{title}`", ""]
        if path and path[0] in GUIDE:
            link = posixpath.relpath(GUIDE[path[0]], here or ".")
            parts += [f"The guide: [{GUIDE[path[0]]}]({link}).", ""]
        parts += ["```text", run(app, [*path, "--help"]), "```", ""]
        sections.append("\n".join(parts))
    return "\n".join(sections)
