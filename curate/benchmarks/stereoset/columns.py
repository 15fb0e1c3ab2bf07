"""The StereoSet column table: the pair columns of an intrasentence item (stereotype as
``sent_more``, anti-stereotype as ``sent_less``) plus the item's own, used when StereoSet pairs
are written to a column-based shape (CSV, JSONL, Parquet) and read back.
"""

from __future__ import annotations

from curate.columns import Column

#: The four StereoSet domains (its ``bias_type`` values).
DOMAINS: tuple[str, ...] = ("gender", "profession", "race", "religion")

#: The columns only StereoSet-derived pairs have.
ITEM_COLUMNS: tuple[Column, ...] = (
    Column("stereoset_id", "item_id", "str", "string"),
    Column("target", "target", "str", "string"),
    Column("context", "context", "str", "string"),
    Column("unrelated", "unrelated", "str", "string"),
)

#: The pair columns of an intrasentence item (the sentences and labels, named as in every pair
#: file), then its own.
COLUMNS: tuple[Column, ...] = (
    Column("sent_more", "sent_more", "str", "string", required=True),
    Column("sent_less", "sent_less", "str", "string", required=True),
    Column("stereo_antistereo", "direction", "direction", "label", required=True),
    Column("bias_type", "bias_type", "label", "label", required=True),
    *ITEM_COLUMNS,
)
