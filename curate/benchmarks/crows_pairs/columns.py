"""THE CrowS-Pairs column table: every reader and writer of pair files derives its columns,
cell parsers and Arrow types from it (see :class:`curate.columns.Column`).

The order is the upstream CSV's; its first column (the pair id) has no name.
"""

from __future__ import annotations

from curate.columns import Column

COLUMNS: tuple[Column, ...] = (
    Column("", "pair_id", "int", "int64"),
    Column("sent_more", "sent_more", "str", "string", required=True),
    Column("sent_less", "sent_less", "str", "string", required=True),
    Column("stereo_antistereo", "direction", "direction", "label", required=True),
    Column("bias_type", "bias_type", "label", "label", required=True),
    Column("annotations", "annotations", "labels", "labels"),
    Column("anon_writer", "writer", "str", "string"),
    Column("anon_annotators", "annotators", "strings", "strings"),
)
