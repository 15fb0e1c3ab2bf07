"""What a reader returns: the pairs, the shape they came in, and what the reader had to say."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from curate.pairs import Pair

#: Shapes a reader can be forced to (``input_format``); the default is detection from content.
INPUT_FORMATS: tuple[str, ...] = ("csv", "tsv", "jsonl", "parquet", "hf-jsonl", "hf-parquet", "stereoset")
#: Shapes a writer can produce (``output_format``); the default is the input's shape.
#: ``upstream`` is the CSV with all eight CrowS-Pairs columns (unknown cells empty).
OUTPUT_FORMATS: tuple[str, ...] = ("upstream", *INPUT_FORMATS)


@dataclass(frozen=True)
class Shape:
    """How a dataset file is laid out, so that a writer can produce the same shape.

    ``format`` is the container (csv, tsv, jsonl, parquet, stereoset). ``layout`` is
    ``upstream`` (exactly the eight upstream CSV columns), ``columns`` (CrowS-Pairs columns with
    text labels, any subset of the optional ones, extra columns kept), ``hf`` (Hugging Face
    ``crows_pairs``: integer class labels, annotations as lists of class indices) or
    ``stereoset``. ``columns`` are the input's columns in order, the id column included;
    ``id_column`` names it (``None``: ids are row positions). ``lists`` says whether list cells
    (annotations, annotators) were Python-literal strings or native lists. ``newline`` is the
    line ending of a JSON document (the StereoSet release files use CRLF).
    """

    format: str
    layout: str
    columns: tuple[str, ...] = ()
    id_column: str | None = None
    lists: str = "literal"
    newline: str = "\n"

    @property
    def name(self) -> str:
        """The shape as one word: the ``input_format`` that reads it."""
        if self.layout == "hf":
            return f"hf-{self.format}"
        return self.format


@dataclass(frozen=True)
class StereoSetItem:
    """One StereoSet item: a context and three sentences, one per gold label.

    Intrasentence contexts contain ``BLANK``; intersentence contexts are a sentence the three
    candidate sentences continue. ``index`` is the item's position in its list of the file.
    """

    kind: str  # intrasentence | intersentence
    index: int
    item_id: str
    target: str
    bias_type: str
    context: str
    stereotype: str
    anti_stereotype: str
    unrelated: str


@dataclass(frozen=True)
class Dataset:
    """The pairs of one file, the shape they came in, and the reader's warnings.

    ``extra_columns`` are input columns the pair schema does not know; each pair keeps their
    cells in :attr:`Pair.extra`. A StereoSet file also has its intersentence items and the
    parsed document (for a lossless write back).
    """

    pairs: tuple[Pair, ...]
    shape: Shape
    source: str
    warnings: tuple[str, ...] = ()
    extra_columns: tuple[str, ...] = ()
    intersentence: tuple[StereoSetItem, ...] = ()
    document: Any = field(default=None, compare=False, repr=False)

    def with_pairs(self, pairs: Iterable[Pair]) -> Dataset:
        """The same dataset (shape, extra columns, StereoSet document) with other pairs."""
        return replace(self, pairs=tuple(pairs))
