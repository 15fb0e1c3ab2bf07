"""The StereoSet lint profile: the shared rules that fit its design, and its own.

A StereoSet item keeps the target group fixed and swaps an *attribute*: the stereotype and the
anti-stereotype options are opposites by design (Nadeem et al. 2021: "fat" vs "skinny" is the
point). So the CrowS-Pairs rules whose premise is a *group* swapped under the same claim report
false findings by construction; they are off here, each with the reason ``curate lint``
prints. Spelling, typography, duplicates and label checks keep their premise and stay on.
Its own rules (family ``E``, :mod:`.rules`) check what its design adds: the validators'
labels, the BLANK, the article before it, the target term, repeated options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from curate.benchmarks.spec import LintProfile
from curate.benchmarks.stereoset.rules import RULES

_GROUP = "a StereoSet item swaps an attribute of a fixed target, not a group"
#: Shared rule code -> why StereoSet's design breaks its premise (from each rule's docstring).
OFF: dict[str, str] = {
    "L003": "every item is 'stereo' by construction (stereotype vs anti-stereotype option)",
    "S001": f"{_GROUP}: an anti-stereotype may deny the stereotype",
    "S002": f"{_GROUP}: the options are an attribute and its opposite by design",
    "S003": f"{_GROUP}: the options need not name groups of one dimension",
    "S009": f"{_GROUP}: the options may name groups of several dimensions",
    "S004": f"{_GROUP}: the swapped words need not be groups of the domain",
    "S005": f"{_GROUP}: the swapped words are attributes, not groups",
    "S006": f"{_GROUP}: the swapped words are not group counterparts",
    "G002": f"{_GROUP}: no person is swapped, so no pronoun must follow",
    "P001": "options fill BLANK with words of any length by design",
    "P002": "options fill BLANK with words of any length by design",
    "P003": "options fill BLANK with words of any length by design",
    "P005": f"{_GROUP}: an option may extend another; E004 checks the BLANK",
    "P006": "E004 checks that only the BLANK changes (the group-swap allowance does not apply)",
    "G001": "E005 checks the article before BLANK against every option",
}


def validator_items(dataset: Any) -> Mapping[int, Any]:
    """The raw JSON item of each pair (its options' validator labels), by pair id; empty for
    StereoSet pairs read from a CSV/JSONL/Parquet file (no labels there: E001-E003 pass)."""
    document = getattr(dataset, "document", None)
    if not isinstance(document, dict):
        return {}
    raw = {
        item["id"]: item
        for item in document.get("data", {}).get("intrasentence", [])
        if isinstance(item, dict) and isinstance(item.get("id"), str)
    }
    return {p.pair_id: raw[p.item_id] for p in dataset.pairs if p.item_id in raw}


#: Measured by benchmarks/stereoset_lint_precision.py (seeded sample judged against
#: benchmarks/stereoset_lint_guidelines.md); rerun it when the rules change.
PRECISION = (
    "precision on StereoSet dev (926 of 2,106 items flagged): 39 of 40 sampled flagged items "
    "hold a real defect, 97.5% (Wilson 95% CI 87.1-99.6%); see "
    "benchmarks/stereoset_lint_guidelines.md"
)

PROFILE = LintProfile(
    select=("ALL",), off=OFF, rules=RULES, precision=PRECISION, items=validator_items
)
