"""The fake benchmark: a text file ``#fakebench`` then ``more|less|label`` lines, one pair per
line (pair id = line index), its own lint rule, a shared rule turned off, and its own figures."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from curate.benchmarks import Benchmark, Column, LintProfile
from curate.errors import InputError
from curate.fileio import read_text_utf8
from curate.formats.dataset import Dataset, Shape
from curate.lint.rule import Example, PairContext, Rule, Violation
from curate.pairs import Pair

MAGIC = "#fakebench"
LABELS = ("colour", "shape")
COLUMNS = (
    Column("more", "sent_more", required=True),
    Column("less", "sent_less", required=True),
    Column("label", "bias_type", "label", "label", required=True),
)


def detect(data: bytes, path: Path | None = None) -> str | None:
    return "fakebench" if data.startswith(MAGIC.encode()) else None


def read(path: Path, source: str, fmt: str) -> Dataset:
    lines = read_text_utf8(path).splitlines()[1:]
    pairs = []
    for index, line in enumerate(lines):
        cells = line.split("|")
        if len(cells) != 3:
            raise InputError(f"{source}: line {index + 2}: expected more|less|label")
        pairs.append(Pair(index, cells[0], cells[1], "stereo", cells[2]))
    shape = Shape("fakebench", "fakebench", tuple(c.name for c in COLUMNS))
    return Dataset(tuple(pairs), shape, source, benchmark="fakebench")


def write(dataset: Dataset, fmt: str) -> bytes:
    rows = [f"{p.sent_more}|{p.sent_less}|{p.bias_type}" for p in dataset.pairs]
    return "\n".join([MAGIC, *rows, ""]).encode("utf-8")


class QuestionPair(Rule):
    """A sentence of the pair is a question.

    The fake benchmark's pairs are statements; a question cannot be more or less stereotyping.
    """

    code = "Z001"
    name = "question-pair"
    summary = "A sentence is a question"
    bad = (Example("Are red things loud?", "Are blue things loud?", "colour"),)
    good = (Example("Red things are loud.", "Blue things are loud.", "colour"),)

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        if any(s.rstrip().endswith("?") for s in (ctx.pair.sent_more, ctx.pair.sent_less)):
            yield Violation("a sentence is a question")


def stats(pairs: Sequence[Pair], items: Sequence[Any]) -> dict[str, Any]:
    return {"questions": sum(p.sent_more.rstrip().endswith("?") for p in pairs)}


def report_section(figures: dict[str, Any], console: Any) -> None:
    console.print(f"fake questions: {figures['questions']}")


BENCHMARK = Benchmark(
    name="fakebench",
    title="FakeBench",
    formats=("fakebench",),
    output_formats=("fakebench",),
    suffixes={"fakebench": ".txt"},
    detect=detect,
    read=read,
    write=write,
    item_type=Pair,
    columns=COLUMNS,
    labels=LABELS,
    lint=LintProfile(off={"T002": "fake sentences never end with punctuation"}, rules=(QuestionPair,)),
    stats=stats,
    report_section=report_section,
)
