"""Pairs + findings -> Label Studio tasks for the validation form.

One task per flagged pair. Its ``data`` holds what the form shows (the two sentences, the
highlighted word diff, the findings) and what the pull and the tally need to read the answers
back (``pair_id``, which sentence is shown first, the current bias type and direction).

Sentences are untrusted data: the HTML fields are built by escaping every sentence and message
with :func:`html.escape` first and only then adding our own tags (``<mark>`` around the
modified words, list markup), so a sentence such as ``<script>`` is shown, never run.

The two sentences are shown in a per-pair order fixed by a hash of the pair id: always showing
``sent_more`` first would tell annotators which sentence the writer thought more stereotyping.
Finding messages name fields as ``sent_more`` / ``sent_less``; on screen they are rewritten to
"sentence 1" / "sentence 2" for the same reason.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from curate.align import diff_html
from curate.errors import InputError
from curate.findings import Finding
from curate.pairs import BY_POSITION_NOTE, Pair, pair_label


def sentence1_role(pair_id: int, shuffle: bool = True) -> str:
    """Which pair field is shown as sentence 1: ``sent_more`` or ``sent_less``.

    Deterministic (same pair, same order in every round and on every machine) yet balanced
    across pairs, so annotators cannot infer the label from the position.
    """
    if not shuffle:
        return "sent_more"
    digest = hashlib.sha256(f"curate-order:{pair_id}".encode()).digest()
    return "sent_more" if digest[0] % 2 == 0 else "sent_less"


_FIELD_NAMES = re.compile(r"\b(sent_more|sent_less)\b")


def _screen_message(message: str, role1: str) -> str:
    """A finding message with field names replaced by the on-screen sentence numbers."""
    return _FIELD_NAMES.sub(
        lambda m: "sentence 1" if m.group(1) == role1 else "sentence 2", message
    )


def findings_html(findings: Sequence[Finding], role1: str) -> str:
    """The findings of one pair as an escaped HTML list (codes, rule names, messages)."""
    if not findings:
        return "<p>No automatic finding: the pair was chosen by hand.</p>"
    items = "".join(
        f"<li><b>{html.escape(f.code)}</b> {html.escape(f.rule)}: "
        f"{html.escape(_screen_message(f.message, role1))}</li>"
        for f in findings
    )
    return f"<ul>{items}</ul>"


def pair_diff_html(pair: Pair, role1: str) -> str:
    """Both sentences, in screen order, with the words that differ wrapped in ``<mark>``.

    :func:`curate.align.diff_html` escapes the sentence text before it adds the tags.
    """
    more_html, less_html = diff_html(pair.sent_more, pair.sent_less)
    first, second = (more_html, less_html) if role1 == "sent_more" else (less_html, more_html)
    return f"<p><b>Sentence 1:</b> {first}</p><p><b>Sentence 2:</b> {second}</p>"


def build_task(
    pair: Pair, findings: Sequence[Finding], round_name: str, shuffle: bool = True
) -> dict[str, Any]:
    """One Label Studio task (``{"data": {...}}``) for ``pair``."""
    role1 = sentence1_role(pair.pair_id, shuffle)
    first, second = (
        (pair.sent_more, pair.sent_less)
        if role1 == "sent_more"
        else (pair.sent_less, pair.sent_more)
    )
    codes = sorted({f.code for f in findings})
    return {
        "data": {
            "pair_id": pair.pair_id,
            **({"item_id": pair.item_id} if pair.item_id else {}),
            "round": round_name,
            "sentence1": first,
            "sentence2": second,
            "sentence1_role": role1,
            "diff_html": pair_diff_html(pair, role1),
            "findings_html": findings_html(findings, role1),
            "finding_codes": " ".join(codes),
            "bias_type": pair.bias_type,
            "direction": pair.direction,
        }
    }


def flagged_pair_ids(findings: Iterable[Finding]) -> list[int]:
    """The ids of pairs with at least one finding, ascending."""
    return sorted({f.pair_id for f in findings})


def build_tasks(
    pairs: Sequence[Pair],
    findings: Sequence[Finding],
    round_name: str,
    shuffle: bool = True,
    source: str = "the data file",
) -> list[dict[str, Any]]:
    """One task per pair that has findings, ordered by pair id.

    A finding about a pair id that is not in ``pairs`` means the findings were made from another
    file: that is an input error, not something to skip.
    """
    by_id = {p.pair_id: p for p in pairs}
    grouped: dict[int, list[Finding]] = defaultdict(list)
    for finding in findings:
        grouped[finding.pair_id].append(finding)
    missing = sorted(set(grouped) - set(by_id))
    if missing:
        named = {f.pair_id: f.item_id for f in findings}
        shown = ", ".join(
            pair_label(i, named[i]) if named.get(i) else str(i) for i in missing[:5]
        ) + (
            " ..." if len(missing) > 5 else ""
        )
        old = any(p.item_id for p in pairs) and not any(named.get(i) for i in missing)
        raise InputError(
            f"{len(missing)} finding(s) name pair ids not in {source} ({shown}); "
            + (f"{source}: {BY_POSITION_NOTE}" if old else "were the findings made from another file?")
        )
    return [
        build_task(by_id[pair_id], grouped[pair_id], round_name, shuffle)
        for pair_id in sorted(grouped)
    ]


def task_pair_id(data: Any) -> int | None:
    """The pair id in a task's data, or None when the task is not one of ours."""
    if not isinstance(data, dict):
        return None
    value = data.get("pair_id")
    if isinstance(value, str) and value.isdecimal():  # a task imported from CSV in the UI
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value
