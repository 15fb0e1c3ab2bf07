"""Render findings: ruff-like text, JSON, JSON lines, CSV, and per-rule statistics."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence

from curate.cells import neutralise_formula
from curate.findings import Finding
from curate.lint.fix import AppliedFix


def format_text(findings: Sequence[Finding]) -> str:
    """One line per finding: ``pair 15  S001 negation-asymmetry  "n't" only in sent_more``
    (``item <id>`` for an item with its own id, as StereoSet's)."""
    lines = []
    for f in findings:
        marker = " [*]" if f.fix else ""
        where = f"item {f.item_id}" if f.item_id else f"pair {f.pair_id:<5}"
        lines.append(f"{where} {f.code} {f.rule}  {f.message}{marker}")
    return "\n".join(lines) + ("\n" if lines else "")


def format_json(findings: Sequence[Finding]) -> str:
    return json.dumps([f.to_dict() for f in findings], indent=2, ensure_ascii=False) + "\n"


def format_jsonl(findings: Sequence[Finding]) -> str:
    return "".join(json.dumps(f.to_dict(), ensure_ascii=False) + "\n" for f in findings)


def format_csv(findings: Sequence[Finding]) -> str:
    """CSV for people: spreadsheet formulas in messages are neutralised."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    items = any(f.item_id for f in findings)  # items with their own id (StereoSet): a column
    writer.writerow(["pair_id", *(["item_id"] if items else []), "code", "rule", "message", "fixable"])
    for f in findings:
        own = [f.item_id or ""] if items else []
        writer.writerow([f.pair_id, *own, f.code, f.rule, neutralise_formula(f.message), bool(f.fix)])
    return out.getvalue()


FORMATTERS = {"text": format_text, "json": format_json, "jsonl": format_jsonl, "csv": format_csv}


def statistics(findings: Sequence[Finding]) -> list[dict[str, object]]:
    """Findings and flagged pairs per rule, most frequent first."""
    counts = Counter((f.code, f.rule) for f in findings)
    pairs: dict[str, set[int]] = {}
    fixable: Counter[str] = Counter()
    for f in findings:
        pairs.setdefault(f.code, set()).add(f.pair_id)
        fixable[f.code] += bool(f.fix)
    return [
        {
            "code": code,
            "rule": rule,
            "findings": n,
            "pairs": len(pairs[code]),
            "fixable": fixable[code],
        }
        for (code, rule), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def format_statistics(
    findings: Sequence[Finding], total_pairs: int, notes: Sequence[str] = ()
) -> str:
    """Counts per rule, a total line, then ``notes`` (e.g. rules skipped for want of a column)."""
    rows = statistics(findings)
    flagged = len({f.pair_id for f in findings})
    lines = [
        f"{r['findings']:>6}  {r['code']}  {r['rule']:<28} {r['pairs']:>5} pairs"
        + (f"  [*] {r['fixable']} fixable" if r["fixable"] else "")
        for r in rows
    ]
    share = 100 * flagged / total_pairs if total_pairs else 0.0
    lines.append(f"{len(findings):>6}  findings in {flagged} of {total_pairs} pairs ({share:.1f}%)")
    lines += [f"note: {note}" for note in notes]
    return "\n".join(lines) + "\n"


def format_fixes(applied: Sequence[AppliedFix]) -> str:
    """What ``--fix`` changed, one line per field."""
    return "".join(
        f"{f'item {a.item_id}' if a.item_id else f'pair {a.pair_id:<5}'} {a.code} {a.rule}  "
        f"{a.field}: {a.old!r} -> {a.new!r}\n"
        for a in applied
    )
