"""WinoBias text files read as pairs: line i of a pro file with line i of its anti file.

WinoBias (Zhao et al. 2018) ships each subset as two files, ``pro_stereotyped_type{1,2}.txt.
{dev,test}`` and its ``anti_stereotyped_...`` twin, one sentence a line: ``N [the entity] ...
[pronoun] ...``. Line i of the two files is meant to be a minimal pair (the pronoun's gender
swapped). The pro sentence plays ``sent_more`` (it follows the occupational stereotype), the anti
sentence ``sent_less``; the brackets are removed from the sentences (a model never sees them)
and kept as character spans in :attr:`Pair.extra`, so that the files can be written back as
they were and the lint rules can find the mentions.

WinoBias measures one dimension (gender), so ``bias_type`` holds the *subset* of a pair
(``type1-dev`` ...): every per-bias-type breakdown of ``stats``, ``score`` and ``diff-report``
is then the breakdown per type and split that WinoBias results are reported in.

A path names a pro or an anti file (its twin is found by name beside it) or a directory holding
the pairs of files. A file that cannot be paired (different line counts, a line without its
number) is refused with one sentence naming the file and line; a line whose brackets are wrong
is read (the brackets dropped) and left to the lint rule B003 to report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from curate.benchmarks.winobias.columns import COLUMNS as COLUMN_TABLE
from curate.benchmarks.winobias.occupations import FEMALE_FILE, MALE_FILE, Occupations
from curate.columns import Schema
from curate.errors import InputError, UsageError
from curate.fileio import read_text_utf8, write_file_set
from curate.formats.dataset import Dataset, Shape
from curate.pairs import Pair

NAME = FORMAT = "winobias"
#: Input (and output) formats: the pro/anti text files.
FORMATS: tuple[str, ...] = (FORMAT,)
SUFFIXES: dict[str, str] = {FORMAT: ""}  # a folder of text files
TYPES = (1, 2)
SPLITS = ("dev", "test")
#: The file name of one side of one subset (``pro`` or ``anti``).
FILE_NAME = "{side}_stereotyped_type{type}.txt.{split}"
#: The four subsets, in report order (the pairs' ``bias_type``).
SUBSETS = tuple(f"type{t}-{s}" for t in TYPES for s in SPLITS)
_NAME = re.compile(r"^(pro|anti)_stereotyped_type([12])\.txt\.(dev|test)$")
#: A name that looks like a WinoBias sentence file (and must then be one of :data:`_NAME`).
_LOOKS_LIKE = re.compile(r"^(pro|anti)_stereotyped", re.IGNORECASE)
#: A WinoBias line: its number, one space, the sentence.
_LINE = re.compile(r"^(\d+) (\S.*)$")
#: Columns of the shape (the CrowS-Pairs fields a WinoBias pair fills; ids are not a column).
COLUMNS = tuple(c.name for c in COLUMN_TABLE if c.field != "pair_id")
#: Pair ids: type * 10000 + (0 for dev, 5000 for test) + line number (10001 = type 1, dev, line 1;
#: the number the line carries, so that a revised file with dropped lines keeps its ids).
_ID_BASE = {"dev": 0, "test": 5000}


@dataclass(frozen=True)
class Line:
    """One WinoBias line parsed: its number, the sentence without brackets, the mentions."""

    number: str
    text: str
    mentions: tuple[tuple[int, int], ...]
    #: What is wrong with the brackets ("" when they are well formed).
    bracket_error: str = ""
    #: How the line ended in its file ("\r\n" in a file with Windows line ends).
    eol: str = "\n"


def subset(type_: int, split: str) -> str:
    """The name of a subset, used as the pairs' ``bias_type`` (``type1-dev``)."""
    return f"type{type_}-{split}"


def pair_id(type_: int, split: str, line: int) -> int:
    """The stable id of the pair on ``line`` (1-based) of a subset."""
    return type_ * 10000 + _ID_BASE[split] + line


def parse_line(raw: str, where: str) -> Line:
    """Parse one line; ``where`` (file and line) names it in the error of a malformed line."""
    match = _LINE.match(raw.rstrip("\r"))
    if not match:
        shown = raw[:60] or "empty"
        raise InputError(
            f"{where}: not a WinoBias line (expected 'N sentence with [mentions]'): {shown!r}"
        )
    number, body = match.groups()
    text: list[str] = []
    mentions: list[tuple[int, int]] = []
    start: int | None = None
    error = ""
    for char in body:
        if char == "[":
            if start is not None:
                error = error or "a '[' inside a bracketed mention"
            start = sum(map(len, text))
        elif char == "]":
            if start is None:
                error = error or "a ']' without its '['"
                continue
            end = sum(map(len, text))
            if end == start:
                error = error or "an empty mention '[]'"
            else:
                mentions.append((start, end))
            start = None
        else:
            text.append(char)
    if start is not None:
        error = error or "a '[' that is never closed"
    return Line(
        number, "".join(text), tuple(mentions), error, "\r\n" if raw.endswith("\r") else "\n"
    )


def bracketed(text: str, mentions: tuple[tuple[int, int], ...]) -> str:
    """``text`` with its mentions in brackets again (the inverse of :func:`parse_line`)."""
    out, last = [], 0
    for start, end in sorted(mentions):
        out += [text[last:start], "[", text[start:end], "]"]
        last = end
    out.append(text[last:])
    return "".join(out)


def _lines(path: Path) -> list[str]:
    text = read_text_utf8(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def make_pair(
    more: Line,
    less: Line,
    pair_id: int = 0,
    subset_name: str = "",
    line: int = 0,
    occupations: Occupations | None = None,
) -> Pair:
    """The pair of a parsed pro line and anti line, with the WinoBias fields in ``extra``:
    the mentions of each side, their bracket errors, and (given the occupation lists) the
    referent's occupation and the gender WinoBias treats as its stereotype."""
    table = occupations or Occupations()
    occupation, gender = table.referent(more)
    anti_occupation, anti_gender = table.referent(less)
    return Pair(
        pair_id,
        more.text,
        less.text,
        "stereo",
        subset_name,
        extra=(
            ("line", line),
            ("number", more.number),
            ("pro_mentions", more.mentions),
            ("anti_mentions", less.mentions),
            ("pro_bracket_error", more.bracket_error),
            ("anti_bracket_error", less.bracket_error),
            ("occupation", occupation),
            ("occupation_gender", gender),
            ("anti_occupation", anti_occupation),
            ("anti_occupation_gender", anti_gender),
            # the sentences the mention spans index, so that spans survive an edited sentence
            ("mention_text", (more.text, less.text)),
            # a line end other than "\n" (a file with Windows line ends), written back as read
            *(
                (f"{side}_eol", line.eol)
                for side, line in (("pro", more), ("anti", less))
                if line.eol != "\n"
            ),
        ),
    )


def pair_from_lines(
    pro: str, anti: str, occupations: Occupations | None = None, pair_id: int = 0
) -> Pair:
    """A pair from two bracketed sentences (the line number optional): for examples and tests."""
    more = parse_line(pro if _LINE.match(pro) else f"1 {pro}", "pro")
    less = parse_line(anti if _LINE.match(anti) else f"1 {anti}", "anti")
    return make_pair(more, less, pair_id, occupations=occupations)


def read_subset(
    pro: Path, anti: Path, type_: int, split: str, occupations: Occupations | None = None
) -> list[Pair]:
    """The pairs of one subset: line i of ``pro`` with line i of ``anti``."""
    pro_lines, anti_lines = _lines(pro), _lines(anti)
    if len(pro_lines) != len(anti_lines):
        raise InputError(
            f"{anti}: {len(anti_lines)} lines, but {pro} has {len(pro_lines)}; line i of the two "
            "files must be the two sentences of pair i"
        )
    parsed = []
    for i, (a, b) in enumerate(zip(pro_lines, anti_lines, strict=True), start=1):
        more = parse_line(a, f"{pro}: line {i}")
        less = parse_line(b, f"{anti}: line {i}")
        if more.number != less.number:
            raise InputError(
                f"{anti}: line {i} is numbered {less.number}, but line {i} of {pro} is numbered "
                f"{more.number}; the files are not aligned"
            )
        parsed.append((more, less))
    # The upstream files number their lines 1..n; a revised file keeps those numbers when a
    # pair is dropped, so the numbers (when distinct) are the ids' line, else the position.
    numbers = [int(more.number) for more, _ in parsed]
    by_number = len(set(numbers)) == len(numbers) and all(0 < n < 5000 for n in numbers)
    return [
        make_pair(
            more,
            less,
            pair_id(type_, split, numbers[i - 1] if by_number else i),
            subset(type_, split),
            i,
            occupations,
        )
        for i, (more, less) in enumerate(parsed, start=1)
    ]


def _twin(path: Path) -> tuple[Path, Path, int, str]:
    match = _NAME.match(path.name)
    if not match:
        raise InputError(
            f"{path}: a WinoBias file must be named pro_stereotyped_typeN.txt.SPLIT or "
            "anti_stereotyped_typeN.txt.SPLIT, so that its twin can be found beside it"
        )
    side, type_, split = match.groups()
    other = path.with_name(
        FILE_NAME.format(side="anti" if side == "pro" else "pro", type=type_, split=split)
    )
    if not other.is_file():
        raise InputError(f"{other}: no such file; {path} is paired with it line by line")
    pro, anti = (path, other) if side == "pro" else (other, path)
    return pro, anti, int(type_), split


def subsets_in(directory: Path) -> list[tuple[Path, Path, int, str]]:
    """The (pro, anti, type, split) file pairs present in ``directory``, in subset order."""
    found = []
    for type_ in TYPES:
        for split in SPLITS:
            pro = directory / FILE_NAME.format(side="pro", type=type_, split=split)
            anti = directory / FILE_NAME.format(side="anti", type=type_, split=split)
            if pro.is_file() or anti.is_file():
                found.append(_twin(pro if pro.is_file() else anti))
    known = {p.name for pair in found for p in pair[:2]}
    for entry in sorted(directory.iterdir()):  # nothing named like one is left out unsaid
        if _LOOKS_LIKE.match(entry.name) and entry.name not in known:
            raise InputError(
                f"{entry}: named like a WinoBias sentence file but not one of its subsets "
                f"(pro_ or anti_stereotyped_typeN.txt.SPLIT, N {' or '.join(map(str, TYPES))}, "
                f"SPLIT {' or '.join(SPLITS)}); rename or move it, it would be left out"
            )
    return found


_FIRST_LINE = re.compile(r"^\d+ \S[^\n]*\[[^\]\n]+\]")


def detect(data: bytes, path: Path | None = None) -> str | None:
    """``winobias`` for a folder holding WinoBias files, or a file whose first line is one
    (a line number, a space, a sentence with a bracketed mention); else None."""
    if not data and path is not None and path.is_dir():
        return FORMAT if subsets_in(path) else None
    head = data[:4096].decode("utf-8", errors="replace").split("\n", 1)[0]
    return FORMAT if _FIRST_LINE.match(head) else None


def read(path: Path, source: str, fmt: str = FORMAT) -> Dataset:
    """The pairs of a WinoBias file pair (either file named) or a folder of them."""
    return read_winobias(path)


def read_winobias(path: Path | str) -> Dataset:
    """Read a WinoBias pro/anti file pair (either file named) or a directory of them."""
    path = Path(path)
    if path.is_dir():
        subsets = subsets_in(path)
        if not subsets:
            raise InputError(f"{path}: no WinoBias files (pro_stereotyped_typeN.txt.SPLIT)")
    else:
        subsets = [_twin(path)]
    folder = path if path.is_dir() else path.parent
    occupations = Occupations.beside(folder)
    warnings = ()
    if not occupations:
        warnings = (
            f"{folder}: no {FEMALE_FILE} / {MALE_FILE} beside the WinoBias files; the "
            "stereotype rule B004 has nothing to check against",
        )
    pairs = [p for pro, anti, t, s in subsets for p in read_subset(pro, anti, t, s, occupations)]
    return Dataset(
        tuple(pairs),
        Shape(FORMAT, FORMAT, COLUMNS),
        str(path),
        warnings,
        benchmark=NAME,
        schema=Schema(COLUMN_TABLE),
    )


def extra_of(pair: Pair) -> dict:
    """The WinoBias fields of a pair (empty for a pair from another benchmark)."""
    return dict(pair.extra)


def moved_spans(
    spans: tuple[tuple[int, int], ...], old: str, new: str
) -> tuple[tuple[int, int], ...]:
    """``spans`` of ``old`` moved onto ``new`` (an edited ``old``: a lint fix, a decision), by
    the alignment of the two texts, so the brackets stay around the same words (without the
    whitespace at their edges, which an edit of whitespace may leave ambiguous)."""
    if old == new:
        return spans
    from difflib import SequenceMatcher

    opcodes = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()

    def move(x: int, end: bool) -> int:
        for tag, i1, i2, j1, j2 in opcodes:
            inside = i1 < x <= i2 if end else i1 <= x < i2
            if inside:
                return j1 + (x - i1) if tag == "equal" else (j2 if end else j1)
        return len(new) if end else 0

    result = []
    for a, b in ((move(a, False), move(b, True)) for a, b in spans):
        # where the edit was whitespace at a bracket, the brackets hug the words
        while a < b and new[a].isspace():
            a += 1
        while a < b and new[b - 1].isspace():
            b -= 1
        if a < b:
            result.append((a, b))
    return tuple(result)


def format_subset(pairs: list[Pair], side: str) -> str:
    """The text of one side (``pro``/``anti``) of a subset's pairs, as WinoBias writes it."""
    lines = []
    for pair in pairs:
        extra = extra_of(pair)
        text = pair.sent_more if side == "pro" else pair.sent_less
        number = extra.get("number", str(extra.get("line", pair.pair_id % 5000)))
        spans = tuple(extra.get(f"{side}_mentions", ()))
        read_texts = extra.get("mention_text")
        if read_texts:
            spans = moved_spans(spans, read_texts[0 if side == "pro" else 1], text)
        lines.append(f"{number} {bracketed(text, spans)}{extra.get(f'{side}_eol', chr(10))}")
    return "".join(lines)


def write_files(dataset: Dataset, fmt: str = FORMAT) -> dict[str, bytes]:
    """The WinoBias files of the pairs, one pro and one anti per subset present, by file name.

    The bracketed mentions come back from the spans, so an unchanged dataset is written byte
    for byte as it was read (a bracket error the reader dropped is the exception).
    """
    files: dict[str, bytes] = {}
    for type_ in TYPES:
        for split in SPLITS:
            pairs = [p for p in dataset.pairs if p.bias_type == subset(type_, split)]
            if not pairs:
                continue
            for side in ("pro", "anti"):
                name = FILE_NAME.format(side=side, type=type_, split=split)
                files[name] = format_subset(pairs, side).encode("utf-8")
    return files


def write(dataset: Dataset, fmt: str = FORMAT) -> bytes:
    """Refused: a WinoBias dataset is several files (:func:`write_files` gives them)."""
    raise UsageError(
        "a WinoBias dataset is several text files, written as a folder, and only pairs read "
        "from WinoBias files can be; choose a one-file shape with --output-format (csv, jsonl, "
        "parquet)"
    )


def write_winobias(dataset: Dataset, directory: Path | str) -> list[Path]:
    """Write the pairs into ``directory`` as WinoBias files (:func:`write_files`), as one set."""
    return write_file_set(directory, write_files(dataset))
