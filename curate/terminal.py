"""Terminal output that stays true in a pipe or a log: tables that never cut a cell, and one
plain line per finished unit of work when nobody watches a live display.

Rich's defaults are made for an interactive terminal: a table wider than the console shrinks
its columns and ends their cells with ``…``, so ``bert-a`` and ``bert-b`` both print as
``bert…`` at 80 columns, and a progress display prints nothing at all when stderr is a file.
:func:`print_table` folds cells instead of cutting them, and when even folding would break a
word (too many columns for the width) prints one record per row instead; :class:`UnitLog`
prints what pip and lm-evaluation-harness print in a log, one line per finished unit.

Layer: the ground floor (rich only), so the commands and the benchmarks' own front ends share it.
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text


def _plain(cell: Any) -> str:
    """The text of a table cell (markup strings are rendered, Text objects read)."""
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return str(cell)


def table_fits(table: Table, console: Console) -> bool:
    """Whether ``table`` fits the console's width: on a terminal without breaking any word of
    a cell (cells wrap at spaces); in a pipe or a log without wrapping a cell at all, so that
    every label and number stays on one line for grep."""
    for column in table.columns:
        column.overflow = "fold"
    # measured without the console's limit (a measurement is clamped to it)
    unlimited = console.options.update_width(1_000_000)
    measured = Measurement.get(console, unlimited, table)
    needed = measured.minimum if console.is_terminal else measured.maximum
    return needed <= console.width


def table_records(table: Table) -> list[str]:
    """``table`` as one record per row: the row's first cell, then ``header: value`` lines
    (the header's line breaks become spaces), every cell whole."""
    columns = table.columns
    headers = [" ".join(_plain(c.header).split()) for c in columns]
    cells = [[_plain(cell) for cell in column.cells] for column in columns]
    lines = []
    if table.title:
        lines.append(_plain(table.title))
    for row in range(table.row_count):
        first = cells[0][row] if cells else ""
        lines.append(f"{headers[0]}: {first}" if headers[0] else first)
        for header, values in zip(headers[1:], cells[1:], strict=True):
            if values[row] != "":
                lines.append(f"  {header}: {values[row]}")
    if table.caption:
        lines.append(_plain(table.caption))
    return lines


def print_table(table: Table, console: Console) -> None:
    """Print ``table`` with every label and number whole.

    On a terminal cells wrap (and fold inside a word) rather than end in ``…``; in a pipe or a
    log a table is printed only when it fits unwrapped. Otherwise (22 model columns at 80
    characters) each row is printed as a record of ``header: value`` lines, whole."""
    if table_fits(table, console):
        console.print(table)
        return
    for line in table_records(table):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


class UnitLog:
    """One plain line per finished unit of work on ``console``, when it is not a terminal.

    A live progress display draws nothing into a file until the end (a sweep of an hour
    would leave an empty log); this prints ``[3/44] bert-a pll on raw: done, 1508 pairs,
    12.3 s (elapsed 1:02)`` as each unit ends. On a terminal it is silent (the live display
    shows the same)."""

    def __init__(self, console: Console, *, force: bool | None = None) -> None:
        self.console = console
        self.enabled = (not console.is_terminal) if force is None else force
        self.start = time.monotonic()
        self._unit_start: dict[Any, float] = {}

    def started(self, key: Any) -> None:
        """A unit starts (its own time is counted from here)."""
        self._unit_start.setdefault(key, time.monotonic())

    def elapsed(self) -> str:
        """Time since the log started, as m:ss (h:mm:ss past an hour)."""
        seconds = int(time.monotonic() - self.start)
        hours, rest = divmod(seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"

    def finished(self, text: str, *, key: Any = None, done: int | None = None,
                 total: int | None = None) -> None:
        """Print ``text`` for a finished unit, with ``[done/total]``, its own time (when it
        was :meth:`started`) and the elapsed time."""
        if not self.enabled:
            return
        count = f"[{done}/{total}] " if done is not None and total is not None else ""
        took = ""
        if key is not None and key in self._unit_start:
            took = f", {time.monotonic() - self._unit_start.pop(key):.1f} s"
        self.console.print(
            f"{count}{text}{took} (elapsed {self.elapsed()})",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
