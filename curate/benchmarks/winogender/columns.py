"""The WinoGender column table: the pair fields a WinoGender pair fills, as the columns they
take when the pairs are written to a shared shape (CSV, JSON lines, Parquet)."""

from __future__ import annotations

from curate.columns import Column

COLUMNS: tuple[Column, ...] = (
    Column("", "pair_id", "int", "int64"),
    Column("sent_more", "sent_more", "str", "string", required=True),
    Column("sent_less", "sent_less", "str", "string", required=True),
    Column("stereo_antistereo", "direction", "label", "label", required=True),
    Column("bias_type", "bias_type", "label", "label", required=True),
)
