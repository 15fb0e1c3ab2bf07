"""The WinoGender schema folder read as pairs, and written back byte for byte.

WinoGender (Rudinger et al. 2018) ships 120 templates (60 occupations x 2: the pronoun refers to
the occupation, ``answer`` 0, or to the other participant, ``answer`` 1) and their 720
instantiations in ``all_sentences.tsv``: each template x {male, female, neutral} pronoun x {the
participant, "someone"}, with the id ``occupation.participant.answer.gender.txt``.
``occupations-stats.tsv`` gives each occupation's % women in the US Bureau of Labor Statistics
(BLS) and in Bergsma & Lin's text statistics.

One pair per template and participant variant (240): ``sent_more`` is the sentence whose pronoun
is the gender the occupation's BLS figure makes the majority (so the shared pair metric is the
share of pairs where a model prefers the stereotypical pronoun: 50 ideal), ``sent_less`` the
other gendered one; without the statistics file, the male sentence plays ``sent_more`` and the
reader says so. ``bias_type`` is whom the pronoun refers to (``occupation`` or
``participant``). The neutral sentence, ids and template are the pair's :class:`Triple`
(``Pair.extra``), what the rules and the scoring route read.

Pair ids: ``10 * t + v`` with ``t`` the template's line in the upstream ``templates.tsv``
(1-120), looked up by the template's occupation and answer (:mod:`.ids`, so a templates file
holding only some templates moves no id), and ``v`` 0 for the participant, 1 for "someone". A
template of the user's own gets its line in the file beside; a triple of no template at all
gets ``10 * (1000 + its position)`` when there is no templates file, and is skipped, said,
when there is one. Templates and sentences that do not cover each other are warned about.

A path names the folder or its ``all_sentences.tsv`` (the other two files are found beside it).
A malformed sentence id, a duplicate id, or a triple without its male or female sentence is
refused with one sentence naming the file and line; what the rules can judge (a sentence that is
not its template, a neutral sentence missing) is read and left to them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from curate.benchmarks.winogender.columns import COLUMNS as COLUMN_TABLE
from curate.benchmarks.winogender.ids import UPSTREAM_TEMPLATES, upstream_template_number
from curate.columns import Schema
from curate.errors import InputError, UsageError
from curate.fileio import read_text_utf8, write_file_set
from curate.formats.dataset import Dataset, Shape
from curate.jsonl import loads_document
from curate.pairs import Pair

NAME = FORMAT = "winogender"
FORMATS: tuple[str, ...] = (FORMAT,)
SUFFIXES: dict[str, str] = {FORMAT: ""}  # a folder of files
TEMPLATES = "templates.tsv"
SENTENCES = "all_sentences.tsv"
STATS = "occupations-stats.tsv"
SENTENCES_HEADER = "sentid\tsentence"
GENDERS = ("male", "female", "neutral")
#: Whom the pronoun refers to, by the template's ``answer`` (the pairs' ``bias_type``).
REFERENTS = ("occupation", "participant")
#: The participant of the "someone" variant.
SOMEONE = "someone"
_SENTID = re.compile(r"^([^.\t]+)\.([^.\t]+)\.([01])\.(male|female|neutral)\.txt$")
COLUMNS = tuple(c.name for c in COLUMN_TABLE if c.field != "pair_id")


@dataclass(frozen=True)
class Template:
    """One line of ``templates.tsv``: the occupation, participant, answer and template text."""

    line: int
    occupation: str
    participant: str
    answer: int
    text: str


@dataclass(frozen=True)
class OccupationStats:
    """One line of ``occupations-stats.tsv``: % women per source (``None``: not a number)."""

    occupation: str
    bergsma: float | None
    bls: float | None
    year: str


@dataclass(frozen=True)
class Triple:
    """What a WinoGender pair keeps beside its two sentences (its fields are ``Pair.extra``, :meth:`to_extra`).

    ``ids`` / ``rows``: the sentence id and 0-based data row of each gender's sentence (``None``:
    absent); ``texts``: the three sentences as read (male, female, neutral); ``more``: the
    gender of ``sent_more``; ``template``: the template line it instantiates (``None``: no line
    of ``templates.tsv`` has its occupation, participant and answer).
    """

    occupation: str
    participant: str
    someone: bool
    answer: int
    more: str
    ids: tuple[str | None, str | None, str | None]
    rows: tuple[int | None, int | None, int | None]
    texts: tuple[str | None, str | None, str | None]
    template: Template | None = None
    bls: float | None = None
    bergsma: float | None = None

    @property
    def less(self) -> str:
        return "female" if self.more == "male" else "male"

    @property
    def referent(self) -> str:
        return REFERENTS[self.answer]

    @property
    def neutral(self) -> str | None:
        return self.texts[2]

    def text_of(self, gender: str) -> str | None:
        return self.texts[GENDERS.index(gender)]

    def to_extra(self) -> tuple[tuple[str, Any], ...]:
        """The triple as ``Pair.extra`` fields (JSON-able: a pair written to CSV, JSON lines or
        Parquet keeps them as extra columns)."""
        t = self.template
        return (
            ("occupation", self.occupation),
            ("participant", self.participant),
            ("someone", self.someone),
            ("answer", self.answer),
            ("more_gender", self.more),
            ("sentids", list(self.ids)),
            ("rows", list(self.rows)),
            ("texts", list(self.texts)),
            ("template_line", t.line if t else None),
            ("template", t.text if t else None),
            ("bls_pct_female", self.bls),
            ("bergsma_pct_female", self.bergsma),
        )


def _decoded(value: Any) -> Any:
    """An extra field as read back from a CSV cell (JSON text) or kept natively."""
    if isinstance(value, str):
        try:
            return loads_document(value)
        except ValueError:  # not JSON, or nested too deep (RecursionError with json.loads)
            return value
    return value


def _triple(extra: dict[str, Any]) -> Triple | None:
    extra = {k: _decoded(v) if k not in ("occupation", "participant", "template") else v for k, v in extra.items()}
    try:
        line, text = extra.get("template_line"), extra.get("template")
        answer = int(extra["answer"])
        template = (
            Template(int(line), str(extra["occupation"]), str(extra["participant"]), answer, str(text))
            if line is not None and text is not None
            else None
        )
        ids, rows, texts = (tuple(extra[k]) for k in ("sentids", "rows", "texts"))
        if not (len(ids) == len(rows) == len(texts) == 3) or extra["more_gender"] not in GENDERS[:2]:
            return None
        return Triple(
            str(extra["occupation"]),
            str(extra["participant"]),
            bool(extra["someone"]),
            answer,
            str(extra["more_gender"]),
            ids,  # type: ignore[arg-type]
            rows,  # type: ignore[arg-type]
            texts,  # type: ignore[arg-type]
            template,
            extra.get("bls_pct_female"),
            extra.get("bergsma_pct_female"),
        )
    except (KeyError, TypeError, ValueError):
        return None


def triple_of(pair: Pair) -> Triple | None:
    """The :class:`Triple` of a WinoGender pair (``None`` for another benchmark's pair)."""
    extra = dict(pair.extra)
    if "sentids" not in extra:
        return None
    return _triple(extra)


def sentence_of(pair: Pair, gender: str) -> str | None:
    """The pair's sentence with a ``gender`` pronoun as it is now (an edit of ``sent_more`` /
    ``sent_less`` shows; the neutral one is the triple's)."""
    triple = triple_of(pair)
    if triple is None:
        return None
    if gender == triple.more:
        return pair.sent_more
    if gender == triple.less:
        return pair.sent_less
    return triple.neutral


def _rows(text: str, path: Path, header: str | None) -> tuple[list[str], bool]:
    lines = text.split("\n")
    final = lines[-1] == ""
    if final:
        lines.pop()
    if "\r" in text:
        raise InputError(f"{path}: Windows line ends (CRLF); WinoGender's files end lines with LF")
    if not lines:
        raise InputError(f"{path}: empty; expected a header line and tab-separated rows")
    if header is not None and lines[0] != header:
        raise InputError(
            f"{path}: line 1 is {lines[0][:60]!r}, expected the header {header!r}"
        )
    return lines, final


def _number(cell: str) -> float | None:
    try:
        value = float(cell)
    except ValueError:
        return None
    return value if value == value else None  # NaN is not a figure


def parse_templates(text: str, path: Path) -> list[Template]:
    """The lines of ``templates.tsv`` (its header is the first line, whatever it says)."""
    lines, _ = _rows(text, path, None)
    templates = []
    for i, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != 4 or cells[2] not in ("0", "1"):
            raise InputError(
                f"{path}: line {i}: expected 4 tab-separated cells (occupation, participant, "
                f"answer 0 or 1, template), got {line[:60]!r}"
            )
        templates.append(Template(i - 1, cells[0], cells[1], int(cells[2]), cells[3]))
    return templates


def parse_stats(text: str, path: Path) -> dict[str, OccupationStats]:
    """``occupations-stats.tsv`` by occupation (columns named by its header)."""
    lines, _ = _rows(text, path, None)
    header = lines[0].split("\t")
    need = ("occupation", "bergsma_pct_female", "bls_pct_female")
    if any(n not in header for n in need):
        raise InputError(f"{path}: the header must name the columns {', '.join(need)}")
    at = {n: header.index(n) for n in header}
    stats = {}
    for i, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(header):
            raise InputError(f"{path}: line {i}: {len(cells)} cells, the header has {len(header)}")
        stats[cells[at["occupation"]]] = OccupationStats(
            cells[at["occupation"]],
            _number(cells[at["bergsma_pct_female"]]),
            _number(cells[at["bls_pct_female"]]),
            cells[at["bls_year"]] if "bls_year" in at else "",
        )
    return stats


def majority_gender(bls: float | None) -> str:
    """The gender the BLS share makes the majority (``male`` below 50% women or unknown)."""
    return "female" if bls is not None and bls > 50 else "male"


def _files(path: Path) -> Path:
    folder = path if path.is_dir() else path.parent
    if not path.is_dir() and path.name != SENTENCES:
        raise InputError(
            f"{path}: a WinoGender dataset is its folder or its {SENTENCES} (the templates and "
            "statistics are read beside it)"
        )
    if not (folder / SENTENCES).is_file():
        raise InputError(f"{folder}: no {SENTENCES} (WinoGender's 720 sentences)")
    return folder


def read(path: Path, source: str = "", fmt: str = FORMAT) -> Dataset:
    """The pairs of a WinoGender folder (or its ``all_sentences.tsv``)."""
    return read_winogender(path)


def read_winogender(path: Path | str) -> Dataset:
    """Read the folder: the pairs, and the files' text kept for a byte-exact write back."""
    path = Path(path)
    folder = _files(path)
    warnings: list[str] = []
    sentences_path = folder / SENTENCES
    text = read_text_utf8(sentences_path)
    lines, final = _rows(text, sentences_path, SENTENCES_HEADER)
    templates: list[Template] = []
    templates_text = stats_text = None
    if (folder / TEMPLATES).is_file():
        templates_text = read_text_utf8(folder / TEMPLATES)
        templates = parse_templates(templates_text, folder / TEMPLATES)
    else:
        warnings.append(f"{folder}: no {TEMPLATES}; the template rule R002 has nothing to check")
    stats: dict[str, OccupationStats] = {}
    if (folder / STATS).is_file():
        stats_text = read_text_utf8(folder / STATS)
        stats = parse_stats(stats_text, folder / STATS)
    else:
        warnings.append(
            f"{folder}: no {STATS}; sent_more is the male sentence of every pair, and the "
            "correlation with % women cannot be computed"
        )
    groups: dict[tuple[str, str, int], dict[str, tuple[int, str, str]]] = {}
    seen: set[str] = set()
    for row, line in enumerate(lines[1:]):
        where = f"{sentences_path}: line {row + 2}"
        sentid, tab, sentence = line.partition("\t")
        match = _SENTID.match(sentid)
        if not tab or "\t" in sentence or not match:
            raise InputError(
                f"{where}: expected 'occupation.participant.answer.gender.txt<TAB>sentence', got "
                f"{line[:60]!r}"
            )
        if sentid in seen:
            raise InputError(f"{where}: the sentence id {sentid} appears twice")
        seen.add(sentid)
        occupation, participant, answer, gender = match.groups()
        groups.setdefault((occupation, participant, int(answer)), {})[gender] = (row, sentid, sentence)
    by_key = {(t.occupation, t.participant, t.answer): t for t in templates}
    by_occupation_answer: dict[tuple[str, int], Template] = {}
    for t in templates:
        by_occupation_answer.setdefault((t.occupation, t.answer), t)
    pairs = []
    orphans: list[str] = []
    untemplated = 0
    used: set[int] = set()
    for position, ((occupation, participant, answer), found) in enumerate(groups.items()):
        for gender in ("male", "female"):
            if gender not in found:
                other = next(iter(found.values()))
                raise InputError(
                    f"{sentences_path}: line {other[0] + 2}: {other[1]} has no {gender} twin "
                    f"({occupation}.{participant}.{answer}.{gender}.txt); a WinoGender triple "
                    "needs its male and female sentences"
                )
        someone = participant == SOMEONE
        template = by_key.get((occupation, participant, answer)) or (
            by_occupation_answer.get((occupation, answer)) if someone else None
        )
        upstream = upstream_template_number(occupation, answer)
        if template is None and templates and upstream is None:
            # no template in the file, and not one of WinoGender's: not a pair to read
            orphans.append(f"{occupation}.{participant}.{answer}")
            continue
        if template is None and templates:
            untemplated += 1
        if template is not None:
            used.add(template.line)
        figures = stats.get(occupation)
        bls = figures.bls if figures else None
        more = majority_gender(bls) if stats else "male"
        # the upstream template's number, whatever the templates file beside holds (issue 46)
        base = upstream or (template.line if template else 1000 + position)
        got = [found.get(g) for g in GENDERS]
        triple = Triple(
            occupation,
            template.participant if template and someone else participant,
            someone,
            answer,
            more,
            tuple(g[1] if g else None for g in got),  # type: ignore[arg-type]
            tuple(g[0] if g else None for g in got),  # type: ignore[arg-type]
            tuple(g[2] if g else None for g in got),  # type: ignore[arg-type]
            template,
            bls,
            figures.bergsma if figures else None,
        )
        less = "female" if more == "male" else "male"
        pairs.append(
            Pair(
                10 * base + int(someone),
                found[more][2],
                found[less][2],
                "stereo",
                REFERENTS[answer],
                extra=triple.to_extra(),
            )
        )
    pairs.sort(key=lambda p: p.pair_id)
    warnings.extend(_partial_templates(folder, templates, used, untemplated, orphans))
    document = {
        "header": lines[0],
        "final_newline": final,
        "templates": templates_text,
        "stats": stats_text,
        "template_list": tuple(templates),
        "occupations": stats,
    }
    return Dataset(
        tuple(pairs),
        Shape(FORMAT, FORMAT, COLUMNS),
        str(path),
        tuple(warnings),
        document=document,
        benchmark=NAME,
        schema=Schema(COLUMN_TABLE),
    )


def _partial_templates(
    folder: Path, templates: list[Template], used: set[int], untemplated: int, orphans: list[str]
) -> list[str]:
    """The reader's warnings when templates.tsv and all_sentences.tsv do not cover each other:
    pairs whose template is not in the file (read, the template rule cannot check them),
    templates no sentence instantiates, and sentences of no template (skipped)."""
    notes = []
    if untemplated:
        notes.append(
            f"{folder / TEMPLATES}: holds {len(templates)} template(s); {untemplated} pair(s) of "
            f"{SENTENCES} have no template in it (WinoGender has {len(UPSTREAM_TEMPLATES)}): "
            "they are read with their upstream ids, and R002 cannot check them"
        )
    unused = [t for t in templates if t.line not in used]
    if unused:
        first = unused[0]
        notes.append(
            f"{folder / TEMPLATES}: {len(unused)} template(s) have no sentence in {SENTENCES}, "
            f"e.g. line {first.line + 1} ({first.occupation}, answer {first.answer})"
        )
    if orphans:
        notes.append(
            f"{folder / SENTENCES}: {len(orphans)} sentence triple(s) of no template (neither in "
            f"{TEMPLATES} nor WinoGender's) were skipped, not read as pairs: "
            f"{', '.join(orphans[:5])}{' ...' if len(orphans) > 5 else ''}"
        )
    return notes


def occupation_stats(dataset: Dataset) -> dict[str, OccupationStats]:
    """The statistics file of a WinoGender dataset, by occupation (empty when absent)."""
    document = dataset.document if isinstance(dataset.document, dict) else {}
    return dict(document.get("occupations") or {})


def sentence_rows(pairs: list[Pair] | tuple[Pair, ...]) -> list[tuple[str, str]]:
    """The (sentence id, sentence) rows of the pairs, in the order they were read (a pair from
    elsewhere, without its triple, has no WinoGender ids and is left out)."""
    rows: list[tuple[int, str, str]] = []
    for pair in pairs:
        triple = triple_of(pair)
        if triple is None:
            continue
        for gender, sentid, row in zip(GENDERS, triple.ids, triple.rows, strict=True):
            text = sentence_of(pair, gender)
            if sentid is not None and row is not None and text is not None:
                rows.append((row, sentid, text))
    rows.sort()
    return [(sentid, text) for _, sentid, text in rows]


def write_files(dataset: Dataset, fmt: str = FORMAT) -> dict[str, bytes]:
    """The WinoGender files of the pairs by name: ``all_sentences.tsv`` from the pairs (edits
    included), the templates and statistics as read. An unchanged dataset is written byte for
    byte as it was read."""
    document = dataset.document if isinstance(dataset.document, dict) else {}
    if not any(triple_of(p) for p in dataset.pairs):
        raise UsageError(
            "only pairs read from WinoGender files can be written as WinoGender files; choose a "
            "one-file shape with --output-format (csv, jsonl, parquet)"
        )
    for pair in dataset.pairs:
        for text in (pair.sent_more, pair.sent_less):
            if "\t" in text or "\n" in text or "\r" in text:
                raise UsageError(
                    f"pair {pair.pair_id}: a sentence with a tab or line break cannot be a "
                    f"row of {SENTENCES}"
                )
    rows = [document.get("header", SENTENCES_HEADER)] + [f"{i}\t{t}" for i, t in sentence_rows(dataset.pairs)]
    body = "\n".join(rows) + ("\n" if document.get("final_newline", True) else "")
    files = {SENTENCES: body.encode("utf-8")}
    if document.get("templates") is not None:
        files[TEMPLATES] = document["templates"].encode("utf-8")
    if document.get("stats") is not None:
        files[STATS] = document["stats"].encode("utf-8")
    return files


def write(dataset: Dataset, fmt: str = FORMAT) -> bytes:
    """Refused: a WinoGender dataset is several files (:func:`write_files` gives them)."""
    raise UsageError(
        "a WinoGender dataset is several files, written as a folder; choose a one-file shape "
        "with --output-format (csv, jsonl, parquet)"
    )


def write_winogender(dataset: Dataset, directory: Path | str) -> list[Path]:
    """Write the pairs into ``directory`` as WinoGender files (:func:`write_files`), as one set."""
    return write_file_set(directory, write_files(dataset))


def detect(data: bytes, path: Path | None = None) -> str | None:
    """``winogender`` for a folder holding ``all_sentences.tsv``, or a file that starts with its
    header; else None."""
    if not data and path is not None and path.is_dir():
        return FORMAT if (path / SENTENCES).is_file() else None
    head = data[:200].decode("utf-8", errors="replace")
    return FORMAT if head.startswith(SENTENCES_HEADER + "\n") else None


def with_triple(pair: Pair, **changes: Any) -> Pair:
    """``pair`` with its triple's fields replaced (for tests and examples)."""
    triple = triple_of(pair)
    assert triple is not None
    return pair.with_changes(extra=replace(triple, **changes).to_extra())


#: The pronoun of each gender in each slot of a template.
PRONOUNS: dict[str, dict[str, str]] = {
    "$NOM_PRONOUN": {"male": "he", "female": "she", "neutral": "they"},
    "$POSS_PRONOUN": {"male": "his", "female": "her", "neutral": "their"},
    "$ACC_PRONOUN": {"male": "him", "female": "her", "neutral": "them"},
}
#: The gender of every pronoun a WinoGender sentence may hold ("her": female, two slots).
PRONOUN_GENDER: dict[str, str] = {
    form: gender for forms in PRONOUNS.values() for gender, form in forms.items()
} | {"himself": "male", "herself": "female", "hers": "female", "themselves": "neutral",
     "themself": "neutral", "theirs": "neutral"}
#: The verbs after a neutral "they" that take their plural form.
PLURAL_VERB = {"was": "were", "is": "are", "has": "have", "does": "do", "wasn't": "weren't", "isn't": "aren't"}
_THEY_VERB = re.compile(r"\b([Tt]hey) (was|is|has|does|wasn't|isn't)\b")
_SOMEONE_SLOT = re.compile(r"\b(the|a|an) \$PARTICIPANT\b", re.IGNORECASE)


def instantiate(template: str, occupation: str, participant: str, gender: str, someone: bool) -> str:
    """The sentence a template makes (WinoGender's own substitution): the slots filled, the
    participant's article and name replaced by "someone" (capitalised at a sentence start)."""
    text = template
    if someone:
        text = _SOMEONE_SLOT.sub(
            lambda m: "Someone" if m.group(1)[0].isupper() else "someone", text
        )
    text = text.replace("$OCCUPATION", occupation).replace("$PARTICIPANT", participant)
    for slot, forms in PRONOUNS.items():
        text = text.replace(slot, forms[gender])
    if gender == "neutral":  # singular "they" takes the plural verb ("they were", as upstream)
        text = _THEY_VERB.sub(lambda m: f"{m.group(1)} {PLURAL_VERB[m.group(2)]}", text)
    return text


def pronoun_slot(template: str) -> str | None:
    """The pronoun slot of a template (``$NOM_PRONOUN`` ...), ``None`` without one."""
    return next((slot for slot in PRONOUNS if slot in template), None)
