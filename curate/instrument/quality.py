"""The "instrument quality" section of ``curate diff-report``: did the revision make the
benchmark a more consistent instrument?

The diff report already scores both versions with every column (model x method); with three or
more columns those are the subjects of an internal-consistency analysis of each version
(:func:`curate.instrument.consistency.consistency_groups`), shown side by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from curate.instrument import stats
from curate.instrument.consistency import consistency_groups
from curate.pairs import Pair

#: The section's heading in report.md and report.html.
TITLE = "Instrument quality"
#: Fewer score columns than this and the section says why it is empty.
MIN_SUBJECTS = 3
#: Random split-halves per version (fewer than the command's default: the report is one section).
SPLITS = 300


def _version(pairs: Sequence[Pair], columns: Sequence[Mapping[int, int]]) -> dict[str, Any]:
    ids = [p.pair_id for p in pairs if all(p.pair_id in c for c in columns)]
    types = {p.pair_id: p.bias_type for p in pairs}
    matrix = np.array([[c[i] for i in ids] for c in columns], dtype=float).reshape(len(columns), len(ids))
    return {"items": len(ids), "groups": consistency_groups(matrix, [types[i] for i in ids], splits=SPLITS)}


def instrument_quality(
    before: Sequence[Pair], after: Sequence[Pair], models: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """KR-20/alpha and split-half of both versions, the report's columns as subjects."""
    labels = [str(m.get("label", "")) for m in models]
    if len(models) < MIN_SUBJECTS:
        return {
            "title": TITLE,
            "subjects": labels,
            "skipped": f"internal consistency needs {MIN_SUBJECTS} or more score columns "
            f"(models x methods); this report has {len(models)}",
        }
    verdicts = {
        side: [{row["pair_id"]: row["score"] for row in m["scores"][side]} for m in models]
        for side in ("before", "after")
    }
    section: dict[str, Any] = {
        "title": TITLE,
        "subjects": labels,
        "before": _version(before, verdicts["before"]),
        "after": _version(after, verdicts["after"]),
    }
    # the report renders the section from its own table (report/ imports no instrument module)
    section["table"] = {"header": HEADER, "rows": quality_rows(section), "note": NOTE}
    return section


NOTE = (
    "KR-20 (Cronbach's alpha on the 0/1 verdicts, pingouin, 95% CI) and split-half reliability "
    "(Spearman-Brown mean of random halvings, with the spread of the splits, not a CI), with the report's "
    "columns as subjects and the pairs as items. Higher after than before means the revised "
    "pairs agree more on what they measure. n is the number of columns: with fewer than about 10 "
    "the intervals are wide and overlap, and the section cannot tell the versions apart."
)


def quality_rows(section: Mapping[str, Any]) -> list[list[str]]:
    """Text rows: group, then KR-20 and split-half before and after."""
    if "skipped" in section:
        return []
    after = {g["group"]: g for g in section["after"]["groups"]}
    rows = []
    for group in section["before"]["groups"]:
        other = after.get(group["group"])
        cells = [group["group"], str(group["items"]), stats.Estimate.from_dict(group["alpha"]).text(2)]
        cells += [
            "-" if other is None else str(other["items"]),
            "-" if other is None else stats.Estimate.from_dict(other["alpha"]).text(2),
            stats.Estimate.from_dict(group["split_half"]).text(2),
            "-" if other is None else stats.Estimate.from_dict(other["split_half"]).text(2),
        ]
        rows.append(cells)
    return rows


HEADER = ["group", "pairs before", "KR-20 before", "pairs after", "KR-20 after", "split-half before", "split-half after"]
