"""``curate diff`` across languages: the aligned versions of each pair side by side, and the
cross-version check (:mod:`curate.lint.aligned`) with its findings listed by kind.

Two versions in different languages (French and Dutch CrowS-Pairs, both aligned with the
English ids) have no word-level edits worth showing: what a reader needs is which pairs are
aligned, the two texts of each, and where their labels or swapped groups disagree.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from curate.commands.common import err, out, print_json
from curate.errors import user_text

if TYPE_CHECKING:
    from curate.formats import Dataset


def cross_language(before: Dataset, after: Dataset) -> bool:
    """Whether the two versions are in different (known) languages."""
    return None not in (before.language, after.language) and before.language != after.language


def aligned_diff(
    a_label: str,
    before: Dataset,
    b_label: str,
    after: Dataset,
    *,
    as_json: bool,
    summary_only: bool,
    findings_path: Path | None,
) -> None:
    """Print the aligned pairs and the check's findings by kind; write the findings (for
    ``annotations push --findings``) to ``findings_path``. Exit 1 when there are findings."""
    from curate.findings import write_findings
    from curate.lint.aligned import CHECKS, Version, by_kind, check_aligned

    a = Version(Path(a_label).name, before.pairs, before.language)
    b = Version(Path(b_label).name, after.pairs, after.language)
    findings = check_aligned(a, b)
    kinds = by_kind(findings)
    left = {p.pair_id: p for p in before.pairs}
    right = {p.pair_id: p for p in after.pairs}
    shared = sorted(left.keys() & right.keys())
    report: dict[str, Any] = {
        "a": {"version": a_label, "language": before.language, "pairs": len(left)},
        "b": {"version": b_label, "language": after.language, "pairs": len(right)},
        "aligned": len(shared),
        "only_in_a": sorted(left.keys() - right.keys()),
        "only_in_b": sorted(right.keys() - left.keys()),
        "findings": {
            code: {
                "name": CHECKS[code].name,
                "summary": CHECKS[code].summary,
                "count": len(items),
                "pair_ids": [f.pair_id for f in items],
            }
            for code, items in kinds.items()
        },
    }
    if findings_path is not None:
        write_findings(findings_path, findings)
        err.print(f"{len(findings)} findings written to {escape(user_text(findings_path))}")
    if as_json:
        if not summary_only:
            report["pairs"] = [
                {
                    "pair_id": i,
                    "a": [left[i].sent_more, left[i].sent_less, left[i].direction, left[i].bias_type],
                    "b": [right[i].sent_more, right[i].sent_less, right[i].direction, right[i].bias_type],
                    "findings": [f.to_dict() for f in findings if f.pair_id == i],
                }
                for i in shared
            ]
        print_json(report)
    else:
        _print_text(report, findings, left, right, shared, summary_only)
    if findings:
        raise typer.Exit(1)


def _print_text(report, findings, left, right, shared, summary_only: bool) -> None:
    a, b = report["a"], report["b"]
    out.print(
        f"{a['version']} ({a['language']}, {a['pairs']} pairs) vs {b['version']} "
        f"({b['language']}, {b['pairs']} pairs): {report['aligned']} pairs aligned by id, "
        f"{len(report['only_in_a'])} only in the first, {len(report['only_in_b'])} only in the "
        "second",
        markup=False,
        highlight=False,
    )
    for code, kind in report["findings"].items():
        ids = ", ".join(map(str, kind["pair_ids"][:12])) + (" ..." if kind["count"] > 12 else "")
        out.print(
            f"  {code} {kind['name']:<22} {kind['count']:>5}  {ids}", markup=False, highlight=False
        )
    if summary_only:
        return
    flagged = {f.pair_id for f in findings}
    for pair_id in (i for i in shared if i in flagged):
        one, other = left[pair_id], right[pair_id]
        out.print(f"\npair {pair_id}", markup=False, highlight=False)
        for side, pair in ((a["language"], one), (b["language"], other)):
            out.print(
                f"  {side}  {pair.direction}/{pair.bias_type}\n      {pair.sent_more}\n      "
                f"{pair.sent_less}",
                markup=False,
                highlight=False,
            )
        for f in findings:
            if f.pair_id == pair_id:
                out.print(f"  {f.code} {f.message}", markup=False, highlight=False)
