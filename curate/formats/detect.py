"""Which shape a dataset file is in, decided from its content (never from its extension).

Parquet starts with the ``PAR1`` magic; a JSON document with ``data.intrasentence`` is
StereoSet; text whose first line is a JSON object is JSON lines; otherwise it is delimited text,
tab-separated when the header line has a tab and names the columns with it (the multilingual
CrowS-Pairs release ships tab-separated ``.csv`` files), comma-separated otherwise.
"""

from __future__ import annotations

import json

PARQUET_MAGIC = b"PAR1"


def detect_format(data: bytes) -> str:
    """The container of a file's bytes: parquet, stereoset, jsonl, tsv or csv."""
    if data[:4] == PARQUET_MAGIC:
        return "parquet"
    text = data[:65536].decode("utf-8", errors="replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        first = stripped.split("\n", 1)[0]
        try:
            value = json.loads(first)
        except json.JSONDecodeError:
            return "stereoset"  # a multi-line JSON document; the reader checks its structure
        return "stereoset" if isinstance(value, dict) and "data" in value and "sent_more" not in value else "jsonl"
    if stripped.startswith("["):
        return "jsonl"  # a JSON array: the JSON-lines reader names what it expected
    header = text.split("\n", 1)[0]
    if "\t" in header and "sent_more" in header.split("\t"):
        return "tsv"
    return "csv"
