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


#: The range of each statistic, by the start of its ``method`` (issue 44: a kappa printed
#: [-0.16, 1.26], a split-half -8.9e14). A reliability (alpha, split-half) may fall below 0,
#: but then it must carry words (``note``); above 1 it cannot.
RANGES: dict[str, tuple[float, float]] = {
    "wilson": (0.0, 1.0),
    "cohen kappa": (-1.0, 1.0),
    "paired difference": (-1.0, 1.0),
    "difference of overlapping": (-1.0, 1.0),
    "spearman": (-1.0, 1.0),
    "kendall": (-1.0, 1.0),
}
RELIABILITIES = ("cronbach alpha", "split-half")


def assert_in_range(document: dict[str, Any]) -> int:
    """Every estimate with a method inside its statistic's range, interval included; a
    reliability below 0 says so in words. Returns how many were checked."""
    checked = 0
    for e in estimates(document):
        method = e.get("method", "")
        values = [v for v in (e.get("value"), e.get("low"), e.get("high")) if v is not None]
        for prefix, (low, high) in RANGES.items():
            if method.startswith(prefix):
                assert all(low - 1e-12 <= v <= high + 1e-12 for v in values), e
                checked += 1
        if method.startswith(RELIABILITIES):
            assert all(v <= 1 + 1e-12 for v in values), e
            if e.get("value") is not None and e["value"] < 0:
                assert "below 0" in e.get("note", ""), e
            if e.get("value") is None and e["n"] > 0:
                assert e.get("no_interval"), e  # words, never a bare dash
            checked += 1
    return checked
