"""The command line starts without importing its stages (issue 31, item 7).

``curate --help`` lists the commands from :data:`curate.cli.COMMANDS`; these tests check that
the list says what each command's own help says, that answering ``--help``, ``-h`` and an unknown
command imports no stage (nor torch, pandas, numpy), and that ``-h`` is a help option everywhere.
How long it takes is a figure (benchmarks/bench_cli.py), not a test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import COMMANDS, app, load_stage
from tests.support.cli_imports import modules_after

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "transformers", "pandas", "numpy", "plotly", "spacy", "sklearn",
         "label_studio_sdk", "pingouin", "statsmodels", "jinja2")  # fmt: skip


def test_the_listed_summaries_are_the_commands_own() -> None:
    stages = {module for module, _ in COMMANDS.values()}
    real = {}
    for module in stages:
        real.update(load_stage(module))
    assert set(real) == set(COMMANDS)
    for name, (_, summary) in COMMANDS.items():
        first = (real[name].help or "").strip().split("\n\n")[0]
        assert " ".join(first.split()) == summary, name


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["no-such-command"], []])
def test_help_and_an_unknown_command_import_no_stage(args: list[str]) -> None:
    exit_code, modules = modules_after(*args)
    assert exit_code in (0, 2)
    commands = {m for m in modules if m.startswith("curate.commands")}
    assert commands <= {"curate.commands", "curate.commands.help", "curate.commands.help_render"}
    assert [m for m in modules if m.split(".")[0] in HEAVY] == []


def test_a_command_imports_its_own_stage_only() -> None:
    exit_code, modules = modules_after("rules", "--no-such-option")
    assert exit_code == 2
    stages = {m for m in modules if m.startswith("curate.commands.")}
    assert "curate.commands.lint" in stages
    assert not stages & {"curate.commands.annotations", "curate.commands.release"}


def test_dash_h_is_help_on_the_root_and_on_every_command() -> None:
    runner = CliRunner()
    root = runner.invoke(app, ["-h"])
    assert root.exit_code == 0 and "diff-report" in root.output
    for name in ("score", "diff-report", "sweep", "explore"):
        result = runner.invoke(app, [name, "-h"])
        assert result.exit_code == 0, (name, result.output)
        assert COMMANDS[name][1].split()[0] in result.output
    assert runner.invoke(app, ["annotations", "push", "-h"]).exit_code == 0
    assert runner.invoke(app, ["no-such-command"]).exit_code == 2


def _subcommands() -> list[list[str]]:
    """Every command line that names one command: the root's commands, and each subcommand
    of a group (``annotations push``...), read from the app itself."""
    lines = []
    for name, (module, _) in COMMANDS.items():
        command = load_stage(module)[name]
        if hasattr(command, "commands"):  # a group (typer's own click, not click's)
            lines += [[name, sub] for sub in command.commands]
        else:
            lines.append([name])
    return lines


@pytest.mark.parametrize("command", _subcommands(), ids=" ".join)
def test_a_usage_error_of_every_command_imports_no_heavy_stack(command: list[str]) -> None:
    """A bad option of any command is refused while parsing, before the stage runs: the
    stage's stacks (torch, transformers, pandas, plotly...) are imported inside the functions
    that run it, so the refusal costs the interpreter and the CLI framework only (issue 31).
    On the base commit ``diff-report --no-such-option`` imported torch and numpy, ``publish``
    jinja2; every command the benchmark registry, the config and the dataset readers."""
    exit_code, modules = modules_after(*command, "--no-such-option")
    assert exit_code == 2
    assert [m for m in modules if m.split(".")[0] in HEAVY] == []
    # nor pydantic (typer 0.29 coerces every value through a TypeAdapter: 0.15-0.3 s; the
    # pin below 0.29 in pyproject.toml), nor a second click beside typer's own (0.05 s);
    # diff-report imported both on ee12585
    assert [m for m in modules if m.split(".")[0] in ("pydantic", "click")] == []
    library = {m for m in modules if m.startswith("curate.")}
    assert not library & {"curate.config", "curate.datasets", "curate.benchmarks", "curate.lint",
                          "curate.release", "curate.score.models", "curate.report"}  # fmt: skip


@pytest.mark.parametrize(
    "command", [["score", "--batch-size", "x", "data.csv"], ["lint", "--select"]], ids=" ".join
)
def test_a_bad_value_is_refused_without_the_stage(command: list[str]) -> None:
    """A bad value costs the parsing only: neither the stage's stacks nor pydantic, which
    typer 0.29 imports to convert any value (0.54 s against 0.21 s for ``--batch-size x``)."""
    exit_code, modules = modules_after(*command)
    assert exit_code == 2
    assert [m for m in modules if m.split(".")[0] in HEAVY] == []
    assert [m for m in modules if m.split(".")[0] == "pydantic"] == []


def test_the_format_names_in_the_help_are_the_registrys() -> None:
    """The option help lists the formats without asking the registry (which imports every
    benchmark); the written-out lists must stay the registry's."""
    from curate import benchmarks
    from curate.commands.common import INPUT_FORMATS, OUTPUT_FORMATS

    assert benchmarks.input_formats() == INPUT_FORMATS
    assert benchmarks.output_formats() == OUTPUT_FORMATS
