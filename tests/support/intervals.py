"""The property every instrument report must have: an interval holds its estimate and has
width, and no p-value is 0 (issue 30). Called on every report.json the instrument tests write."""

from __future__ import annotations

from typing import Any


def estimates(node: Any) -> list[dict[str, Any]]:
    """Every estimate-shaped dict (``value`` and ``n``) anywhere in a report document."""
    found = []
    if isinstance(node, dict):
        if "value" in node and "n" in node:
            found.append(node)
        for child in node.values():
            found += estimates(child)
    elif isinstance(node, list):
        for child in node:
            found += estimates(child)
    return found


def assert_intervals_hold(document: dict[str, Any]) -> int:
    """Assert the property over a report; returns how many estimates were checked."""
    checked = 0
    for e in estimates(document):
        if e.get("low") is not None or e.get("high") is not None:
            assert e["value"] is not None and e["low"] < e["high"], e
            assert e["low"] - 1e-9 <= e["value"] <= e["high"] + 1e-9, e
        if e.get("p") is not None:
            assert 0 < e["p"] <= 1, e
        checked += 1
    for table in document.get("tables", []):
        for row in table["rows"]:
            for cell in row:
                assert "p=0 " not in f"{cell} " and "p=0.0 " not in f"{cell} ", cell
    return checked
