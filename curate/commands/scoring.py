"""The live display shared by the commands that score with language models (``curate score``
on CrowS-Pairs and on StereoSet): one progress layout, a 'loading MODEL' line, a bar per
(model, method), and the same answer to Ctrl-C (what is scored is cached, so a rerun resumes).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from curate.commands.common import err
from curate.terminal import UnitLog

if TYPE_CHECKING:
    from curate.benchmarks.spec import Frontend

T = TypeVar("T")


class RateColumn(ProgressColumn):
    """Jobs (masked tokens or sentences) per second."""

    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f}/s" if speed else "…/s", style="progress.data.speed")


def prepare_scoring(dtype: str | None) -> None:
    """What every scoring command does before models load: transformers' own logging and
    download bars silenced (the live display says what loads), and the bf16 warning."""
    from transformers.utils import logging as hf_logging

    from curate.score.models import BF16_WARNING

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    if dtype == "bfloat16":
        err.print(f"[yellow]warning:[/] {BF16_WARNING}")


def scoring_progress() -> Progress:
    """The progress display of a scoring run, on stderr, gone when it ends."""
    return Progress(
        TextColumn("[bold]{task.description}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[unit]}"),
        RateColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )


@contextmanager
def loading_line(progress: Progress, name: str) -> Iterator[None]:
    """A line 'loading MODEL' in the live progress display while a model loads."""
    task = progress.add_task(f"loading {escape(name)}", total=None, unit="", start=False)
    try:
        yield
    finally:
        progress.remove_task(task)


def progress_bar(progress: Progress, label: str, unit: str) -> Callable[[int, int], None]:
    """A bar that the scorer advances with (done, total) and that goes when it is full."""
    task = progress.add_task(escape(label), total=None, unit=unit)

    def report(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)
        if done == total:
            progress.remove_task(task)

    return report


def run_scoring(
    run: Callable[[Any], T], *, unit: str, scored: Callable[[Any], None] | None = None
) -> T:
    """Call ``run(hooks)`` under the live display; Ctrl-C ends with exit 130 and says that the
    finished ``unit`` (batches, chunks) are cached."""
    from curate.score.models import PrecisionWarning
    from curate.score.run import ScoreHooks

    with warnings.catch_warnings(), scoring_progress() as progress:
        warnings.simplefilter("ignore", PrecisionWarning)
        hooks = ScoreHooks(
            loading=lambda name: loading_line(progress, name),
            start=lambda slug, method, what: progress_bar(
                progress, f"scoring {slug} {method}", what
            ),
            **({"scored": scored} if scored else {}),
        )
        try:
            return run(hooks)
        except KeyboardInterrupt:
            err.print(f"interrupted; finished {unit} are cached, so a rerun resumes from there")
            raise typer.Exit(130) from None


class VersionsProgress:
    """The display of a comparison (``curate diff-report``): a 'loading MODEL' line while a
    model loads, then one bar per (model, version) being scored."""

    def __init__(self, progress: Progress, unit: str) -> None:
        self._progress = progress
        self._unit = unit
        self._tasks: dict[tuple[str, str], Any] = {}
        self._loading: Any = None
        self._log = UnitLog(progress.console)
        self._finished: set[tuple[str, str]] = set()

    def _loaded(self) -> None:
        if self._loading is not None:
            self._progress.remove_task(self._loading)
            self._loading = None

    def loading(self, model: str) -> None:
        """``on_loading`` of the comparison: a model starts loading."""
        self._loaded()
        self._loading = self._progress.add_task(f"loading {escape(model)}", total=None, unit="")

    def report(
        self, model: str, version: str, done: int, total: int, unit: str | None = None
    ) -> None:
        """``progress`` of the comparison: ``done`` of ``total`` jobs of (model, version) not
        in the cache, in ``unit`` when the caller names it (masked copies for pll, sentences
        for the one-pass methods), else the display's own. The line of a finished run says
        what it computed in that unit, so "1,554 masked copies" on 30 pairs is not read as
        1,554 pairs or 1,554 jobs of unknown size."""
        self._loaded()
        unit = unit or self._unit
        key = (model, version)
        self._log.started(key)
        if done == total and key not in self._finished:
            self._finished.add(key)
            counted = f"computed {total:,} {unit}" if total else f"no {unit} to compute (cached)"
            self._log.finished(f"{model} on {version}: done, {counted}", key=key)
        if key not in self._tasks:
            self._tasks[key] = self._progress.add_task(
                escape(f"scoring {model} on {version}"), total=total, unit=unit
            )
        self._progress.update(self._tasks[key], completed=done, total=total)


def run_comparison(run: Callable[[VersionsProgress], T], *, unit: str, cached: str) -> T:
    """Call ``run(display)`` under the live display of a comparison; Ctrl-C as :func:`run_scoring`."""
    with scoring_progress() as progress:
        try:
            return run(VersionsProgress(progress, unit))
        except KeyboardInterrupt:
            err.print(f"interrupted; finished {cached} are cached, so a rerun resumes from there")
            raise typer.Exit(130) from None


def frontend(corpus: Any = None) -> Frontend:
    """The consoles and progress runners a benchmark's own score / diff-report route is lent
    (:class:`curate.benchmarks.spec.Frontend`): the same ones the shared pair route uses
    (``corpus``: of ``curate score --corpus``)."""
    from curate.benchmarks.spec import Frontend
    from curate.commands.common import out, print_json, print_warnings

    return Frontend(
        out=out,
        err=err,
        print_json=print_json,
        print_warnings=print_warnings,
        prepare_scoring=prepare_scoring,
        run_scoring=run_scoring,
        run_comparison=run_comparison,
        corpus=corpus,
    )
