"""The StereoSet item type: a context and its three options."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StereoSetItem:
    """One StereoSet item: a context and three sentences, one per gold label.

    Intrasentence contexts contain ``BLANK``; intersentence contexts are a sentence the three
    candidate sentences continue. ``index`` is the item's position in its list of the file.
    """

    kind: str  # intrasentence | intersentence
    index: int
    item_id: str
    target: str
    bias_type: str
    context: str
    stereotype: str
    anti_stereotype: str
    unrelated: str
