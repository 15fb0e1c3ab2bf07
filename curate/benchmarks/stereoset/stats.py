"""StereoSet's figures for ``curate stats``: items and target terms per domain, for both tasks
(intrasentence items, read as pairs; intersentence items, kept as items), and their table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape
from rich.table import Table

from curate.benchmarks.stereoset.columns import DOMAINS
from curate.pairs import Pair
from curate.terminal import print_table


def _counts(items: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Items and distinct target terms per domain, from (domain, target) tuples."""
    domains = [d for d in DOMAINS if any(x == d for x, _ in items)]
    domains += sorted({d for d, _ in items} - set(DOMAINS))
    return {
        "items": len(items),
        "targets": len({t for _, t in items}),
        "by_domain": {
            d: {
                "items": sum(x == d for x, _ in items),
                "targets": len({t for x, t in items if x == d}),
            }
            for d in domains
        },
    }


def stereoset_stats(pairs: Sequence[Pair], items: Sequence[Any]) -> dict[str, Any]:
    """Items and target terms per domain of both tasks (``items``: the intersentence items)."""
    return {
        "intrasentence": _counts([(p.bias_type, p.target or "") for p in pairs]),
        "intersentence": _counts([(i.bias_type, i.target) for i in items]),
    }


def render_stats(counts: dict[str, Any], console: Any) -> None:
    """The table of :func:`stereoset_stats` on ``console``."""
    console.print()
    table = Table(title="StereoSet items per domain (target terms)", title_justify="left")
    for column in ("domain", "intrasentence", "intersentence"):
        table.add_column(column, justify="left" if column == "domain" else "right")
    domains = dict.fromkeys([*counts["intrasentence"]["by_domain"], *counts["intersentence"]["by_domain"]])
    for domain in domains:
        cells = []
        for task in ("intrasentence", "intersentence"):
            row = counts[task]["by_domain"].get(domain, {"items": 0, "targets": 0})
            cells.append(f"{row['items']} ({row['targets']})")
        table.add_row(escape(domain), *cells)
    table.add_row(
        "total",
        *(f"{counts[t]['items']} ({counts[t]['targets']})" for t in ("intrasentence", "intersentence")),
        style="bold",
    )
    print_table(table, console)
