"""Spreadsheet formula cells: neutralised in CSV meant for people, restored when read back.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return as a formula (``=HYPERLINK(...)``, ``=cmd|...``: CSV injection). CSV outputs meant to be
opened in one (per-pair scores, findings) prefix such a cell with an apostrophe, the usual
neutralisation that spreadsheets show as text. Dataset files are never altered this way (a
dataset cell is data); the lint rule T012 flags sentences that begin with a formula character.

The prefixing is reversible: a cell that already begins with apostrophes followed by a formula
character gets one more, and :func:`restore_formula` removes exactly one, so a CSV written
here reads back to the original text.
"""

from __future__ import annotations

import re

#: Cells starting with these characters are formulas in spreadsheet programs.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NEUTRALISED = re.compile(r"'+[=+\-@\t\r]")


def starts_formula(cell: str) -> bool:
    """Whether a spreadsheet would read ``cell`` as a formula."""
    return cell.startswith(FORMULA_START)


def neutralise_formula(cell: str) -> str:
    """``cell`` with an apostrophe in front when a spreadsheet would run it (reversibly)."""
    return "'" + cell if starts_formula(cell) or _NEUTRALISED.match(cell) else cell


def restore_formula(cell: str) -> str:
    """The text :func:`neutralise_formula` was given."""
    return cell[1:] if _NEUTRALISED.match(cell) else cell
