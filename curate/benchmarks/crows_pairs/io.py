"""Reading and writing CrowS-Pairs files: which container a file is, and the shared readers
of :mod:`curate.formats` for each (delimited text, JSON lines, Parquet; text labels or the
Hugging Face layout).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from curate.benchmarks.crows_pairs.columns import COLUMNS
from curate.columns import Schema
from curate.formats.dataset import Dataset

#: The columns of a CrowS-Pairs file when no other benchmark's columns are asked for.
OWN_SCHEMA = Schema(COLUMNS)

#: Input formats, the native one first.
FORMATS: tuple[str, ...] = ("csv", "tsv", "jsonl", "parquet", "hf-csv", "hf-jsonl", "hf-parquet")
#: ``upstream`` is the CSV with all eight CrowS-Pairs columns (unknown cells empty).
OUTPUT_FORMATS: tuple[str, ...] = ("upstream", *FORMATS)
SUFFIXES: dict[str, str] = {
    "upstream": ".csv",
    "csv": ".csv",
    "tsv": ".tsv",
    "jsonl": ".jsonl",
    "hf-csv": ".csv",
    "hf-jsonl": ".jsonl",
    "parquet": ".parquet",
    "hf-parquet": ".parquet",
}
PARQUET_MAGIC = b"PAR1"


def detect(data: bytes, path: Path | None = None) -> str:
    """The container of a pair file's bytes: parquet, jsonl, tsv or csv (the fallback).

    Parquet starts with ``PAR1``; text whose first line is a JSON object (or a JSON array, which
    the JSON-lines reader then refuses by name) is JSON lines; otherwise delimited text,
    tab-separated when the header line has a tab and names ``sent_more`` with it (the
    multilingual CrowS-Pairs release ships tab-separated ``.csv`` files).
    """
    if data[:4] == PARQUET_MAGIC:
        return "parquet"
    text = data[:65536].decode("utf-8", errors="replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        return "jsonl"
    header = text.split("\n", 1)[0]
    if "\t" in header and "sent_more" in header.split("\t"):
        return "tsv"
    return "csv"


def read(path: Path, source: str, fmt: str, schema: Schema = OWN_SCHEMA) -> Dataset:
    """The pairs of a CrowS-Pairs file in format ``fmt``.

    ``schema``: the columns to know, the CrowS-Pairs table first; the registry adds the other
    benchmarks' own columns (:func:`curate.benchmarks.shared_schema`), so that their pairs
    written to these shapes read back whole.
    """
    from curate.fileio import read_input_file
    from curate.formats.delimited import parse_delimited
    from curate.formats.encoding import decode
    from curate.formats.tabular import parse_jsonl, read_parquet

    if fmt in ("parquet", "hf-parquet"):
        return with_language(
            read_parquet(path, source, True if fmt == "hf-parquet" else None, schema)
        )
    decoded = decode(read_input_file(path), str(path))
    if fmt in ("jsonl", "hf-jsonl"):
        dataset = parse_jsonl(decoded.text, source, True if fmt == "hf-jsonl" else None, schema)
    else:
        dataset = parse_delimited(decoded.text, source, fmt, schema)
    if decoded.legacy:  # the change of encoding is recorded, never silent
        dataset = replace(
            dataset,
            shape=replace(dataset.shape, encoding=decoded.encoding),
            warnings=(decoded.note(source), *dataset.warnings),
        )
    return with_language(dataset)


def with_language(dataset: Dataset) -> Dataset:
    """The dataset with the language of its sentences (declared with ``--language``, else
    detected from them; :mod:`curate.formats.language`). CrowS-Pairs has versions in several
    languages (Névéol et al. 2022: French; Strazda & Spanakis 2025: Dutch), aligned by pair
    id: one benchmark, whose pair sets each have a language."""
    from curate.formats.language import (
        LANGUAGES,
        declared_language,
        detect_any_language,
        language_note,
        too_few_words,
    )

    if declared := declared_language():
        return replace(dataset, language=declared)
    pairs = dataset.pairs[:2000]
    found = detect_any_language(" ".join(p.sent_more for p in pairs))
    if found is None:  # a file of a pair or two: both sentences give twice the evidence
        found = detect_any_language(" ".join(f"{p.sent_more} {p.sent_less}" for p in pairs))
        if found is None:
            found = too_few_words(" ".join(f"{p.sent_more} {p.sent_less}" for p in pairs))
    if note := language_note(found, dataset.source):  # a German file was linted as Dutch
        dataset = replace(dataset, warnings=(*dataset.warnings, note))
    return replace(dataset, language=found if found in LANGUAGES else None)


def write(dataset: Dataset, fmt: str, schema: Schema = OWN_SCHEMA) -> bytes:
    """The bytes of ``dataset`` (pairs of any benchmark) in a column-based format ``fmt``
    (``schema``: as for :func:`read`)."""
    from curate.formats.delimited import format_delimited
    from curate.formats.tabular import format_jsonl, parquet_bytes

    if fmt == "upstream":
        return format_delimited(dataset, "csv", schema, upstream=True).encode("utf-8")
    if fmt in ("csv", "tsv", "hf-csv"):
        return format_delimited(dataset, fmt, schema).encode("utf-8")
    if fmt in ("jsonl", "hf-jsonl"):
        return format_jsonl(dataset, fmt == "hf-jsonl", schema).encode("utf-8")
    if fmt in ("parquet", "hf-parquet"):
        return parquet_bytes(dataset, fmt == "hf-parquet", schema)
    raise ValueError(f"CrowS-Pairs cannot write {fmt!r}")


