"""What a column of a pair file is: its name, the :class:`~curate.pairs.Pair` field it holds and
the kind of cell it is (so which parser and writer every container uses).

A benchmark *declares* its column table as a tuple of these, in the lowest module of its
package (e.g. ``curate/benchmarks/crows_pairs/columns.py``); the readers and writers of
:mod:`curate.formats` receive the table as an argument and ask it, by ``kind``, how to parse a
cell. This module sits on the ground floor so that both sides can name the type without either
importing the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a benchmark's files and the :class:`~curate.pairs.Pair` field it holds.

    ``kind`` names the cell's type and so its parser and writer for every container (``int``,
    ``str``, ``direction`` (stereo/antistereo), ``label`` (a bias type), ``labels`` (a list of
    lists of bias types), ``strings`` (a list of strings); :func:`curate.formats.rows._cell`).
    Parquet stores it as ``arrow`` (``string``, ``int64``, ``label`` (int64 in the HF layout,
    string otherwise), ``labels``, ``strings``: :func:`curate.formats.rows.arrow_type`).
    ``required`` columns must be in every file of the benchmark.
    """

    name: str
    field: str
    kind: str = "str"
    arrow: str = "string"
    required: bool = False


def names_of(table: Iterable[Column], kind: str) -> tuple[str, ...]:
    """The names of the columns of ``kind`` in ``table`` (e.g. every ``labels`` column)."""
    return tuple(c.name for c in table if c.kind == kind)


@dataclass(frozen=True)
class Schema:
    """The columns a column-based shape (CSV, TSV, JSON lines, Parquet) knows.

    ``own``: the table of the benchmark whose files these are (its first column the pair id),
    in file order: its ``required`` columns must be in every file, and a file with exactly
    these columns is in the benchmark's own (upstream) layout. ``others``: the own columns of
    other benchmarks, optional here, so that their pairs written to these shapes read back
    whole (StereoSet's ``target``, ``context`` ...). The registry of benchmarks gathers them;
    the readers of :mod:`curate.formats` only ask this object.
    """

    own: tuple[Column, ...]
    others: tuple[Column, ...] = ()

    @property
    def header(self) -> tuple[str, ...]:
        """The column names of the own table, in order (the upstream header)."""
        return tuple(c.name for c in self.own)

    @property
    def required(self) -> tuple[str, ...]:
        """The columns every file must have."""
        return tuple(c.name for c in self.own if c.required)

    @property
    def optional(self) -> tuple[str, ...]:
        """The own columns a file may leave out (the id aside)."""
        return tuple(c.name for c in self.own[1:] if not c.required)

    def known(self) -> dict[str, Column]:
        """Every column but the id, by name: the own ones, then the others' (never required)."""
        columns = {c.name: c for c in self.own if c.field != "pair_id"}
        fields = {c.field for c in self.own}
        for column in self.others:
            if column.field not in fields and column.name not in columns:
                columns[column.name] = replace(column, required=False)
                fields.add(column.field)
        return columns

    def named(self, *kinds: str) -> tuple[str, ...]:
        """The names of the known columns of any of ``kinds`` (e.g. every list cell)."""
        return tuple(name for name, c in self.known().items() if c.kind in kinds)

    def column_of(self, field_name: str) -> str:
        """The column that holds a :class:`~curate.pairs.Pair` field (the field's name when
        no column of this schema holds it)."""
        return next((c.name for c in (*self.own, *self.others) if c.field == field_name), field_name)

    def fields_in(self, columns: Iterable[str]) -> frozenset[str]:
        """The pair fields (the id aside) that some of ``columns`` hold."""
        known = self.known()
        return frozenset(known[c].field for c in columns if c in known)
