"""What a reader returns: the pairs, the shape they came in, and what the reader had to say."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from curate.columns import Schema
from curate.pairs import PAIR_FIELDS, Pair


@dataclass(frozen=True)
class Shape:
    """How a dataset file is laid out, so that a writer can produce the same shape.

    ``format`` is the container (csv, tsv, jsonl, parquet, stereoset). ``layout`` is
    ``upstream`` (exactly the eight upstream CSV columns), ``columns`` (CrowS-Pairs columns with
    text labels, any subset of the optional ones, extra columns kept), ``hf`` (Hugging Face
    ``crows_pairs``: integer class labels, annotations as lists of class indices) or
    ``stereoset``. ``columns`` are the input's columns in order, the id column included;
    ``id_column`` names it (``None``: ids are row positions). ``lists`` says whether list cells
    (annotations, annotators) were Python-literal strings, native lists or numpy reprs
    (``numpy``: a pandas CSV export of a Hugging Face dataset). ``newline`` is the
    line ending of a JSON document (the StereoSet release files use CRLF). ``encoding``: the
    codec the file was decoded from (:mod:`curate.formats.encoding`); writers always write
    UTF-8, and a legacy one is named in the reader's warnings.
    """

    format: str
    layout: str
    columns: tuple[str, ...] = ()
    id_column: str | None = None
    lists: str = "literal"
    newline: str = "\n"
    encoding: str = "utf-8"

    @property
    def name(self) -> str:
        """The shape as one word: the ``input_format`` that reads it."""
        if self.layout == "hf":
            return f"hf-{self.format}"
        return self.format


@dataclass(frozen=True)
class BadRow:
    """A row a reader could not turn into a pair: where, what kind of damage, and the problem
    in words (``kind``: ``empty row``, ``bad label``, ``bad cell``, ``bad pair id``,
    ``duplicate pair id``, ``wrong number of cells``)."""

    line: int
    kind: str
    problem: str

    def as_dict(self) -> dict[str, Any]:
        """The row as a JSON object for the outputs that record it."""
        return {"line": self.line, "kind": self.kind, "problem": self.problem}


@dataclass(frozen=True)
class Dataset:
    """The pairs of one file, the shape they came in, and the reader's warnings.

    ``extra_columns`` are input columns the pair schema does not know; each pair keeps their
    cells in :attr:`Pair.extra`. A StereoSet file also has its intersentence items and the
    parsed document (for a lossless write back). ``benchmark`` names the benchmark whose reader
    read the file (:func:`curate.benchmarks.benchmark_of`).
    """

    pairs: tuple[Pair, ...]
    shape: Shape
    source: str
    warnings: tuple[str, ...] = ()
    extra_columns: tuple[str, ...] = ()
    #: Items a benchmark keeps beside its pairs (StereoSet's intersentence items).
    intersentence: tuple[Any, ...] = ()
    document: Any = field(default=None, compare=False, repr=False)
    #: The name of the benchmark the file was read as (:mod:`curate.benchmarks`).
    benchmark: str = "crows-pairs"
    #: The columns its reader knew (the benchmark's column table, given to the reader):
    #: which :class:`Pair` field each input column holds. ``None``: no column is known.
    schema: Schema | None = field(default=None, compare=False, repr=False)
    #: The language of its text (``en``, ``fr``, ``nl``: :mod:`curate.formats.language`),
    #: declared or detected; ``None``: not known (English is assumed, with a note).
    language: str | None = None
    #: Rows left out by ``--skip-bad-rows`` (:func:`curate.formats.rows.skipping_bad_rows`),
    #: recorded so every output can say what its numbers do not cover.
    skipped_rows: tuple[BadRow, ...] = ()

    @property
    def fields(self) -> frozenset[str]:
        """The :class:`Pair` fields the input had a column for (the id aside).

        A field outside this set is *unknown* for every pair (e.g. ``annotations`` of a
        five-column revision), which is not the same as an empty cell in a column the file has:
        comparisons skip unknown fields and the lint rules that need them say they were skipped.
        """
        if self.schema is None:
            return frozenset()
        return self.schema.fields_in(self.shape.columns)

    def lacks(self, fields: Iterable[str]) -> tuple[str, ...]:
        """Those of ``fields`` the input had no column for, in the order given."""
        present = self.fields
        return tuple(f for f in fields if f not in present)

    def with_pairs(self, pairs: Iterable[Pair]) -> Dataset:
        """The same dataset (shape, extra columns, StereoSet document) with other pairs."""
        return replace(self, pairs=tuple(pairs))


def shared_fields(*datasets: Dataset) -> tuple[str, ...]:
    """The data fields (:data:`curate.pairs.PAIR_FIELDS`, in order) every dataset has a column
    for: what a comparison of versions can compare. Between the upstream file and a five-column
    revision these are the sentences and labels; the validators' columns are unknown on one side,
    so no pair is "edited" for lacking them."""
    return tuple(f for f in PAIR_FIELDS if all(f in d.fields for d in datasets))


_log = logging.getLogger("curate.formats")


def log_warnings(warnings: Iterable[str]) -> None:
    """Log a reader's warnings on the ``curate.formats`` logger (printed on stderr when nothing
    else handles them): a label normalisation is never silent."""
    for warning in warnings:
        _log.warning("warning: %s", warning)
