"""``curate diff-report --scores``: the columns of a diff report from score sets on disk.

Score sets are found and matched to the versions' files as the instrument commands do it
(:func:`curate.instrument.scores.find_score_columns`, by the data SHA-256 each summary.json
records), so a score set of another file, or of an older copy of the same version, is never
compared. A (model, method) becomes a column when it has a score set of both versions that
covers every pair; every score set left out is named in a warning, and no usable column at all
is one sentence (exit 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from curate.commands.common import err
from curate.errors import InputError

if TYPE_CHECKING:
    from curate.instrument.scores import ScoreColumn
    from curate.report.given_scores import GivenColumn
    from curate.report.rescoring import ComparedVersion


def _warn(text: str) -> None:
    err.print(f"[yellow]warning:[/] {escape(text)}")


def given_columns(
    roots: Sequence[Path], versions: Sequence[ComparedVersion], paths: Sequence[Path]
) -> list[GivenColumn]:
    """The columns of ``--scores`` for BEFORE and AFTER (``versions``, read from ``paths``)."""
    from curate.instrument.scores import file_sha256, find_score_columns
    from curate.report.explore_data import model_display_name
    from curate.report.given_scores import GivenColumn, missing_pairs

    for root in roots:
        if Path(root).is_file():
            raise InputError(f"{root}: is a file; --scores takes a directory of score sets")
    found = find_score_columns(roots)
    digests = [file_sha256(path) for path in paths]
    sides: dict[tuple[str, str], list[ScoreColumn | None]] = {}
    for column in found:
        for side, digest in enumerate(digests):
            if column.data_sha256 != digest:
                continue
            slot = sides.setdefault(column.key, [None, None])
            kept = slot[side]
            if kept is None:
                slot[side] = column
            elif kept.scores != column.scores:
                _warn(
                    f"{column.directory}: skipped, {column.label} already has a score set of "
                    f"{versions[side].label} ({kept.directory}) with other scores"
                )
    used = [c.directory.resolve() for slot in sides.values() for c in slot if c is not None]
    for root in roots:
        inside = Path(root).resolve()
        if not any(inside in (d, *d.parents) for d in used):
            _warn(
                f"{root}: no score set of {versions[0].label} or {versions[1].label} below it "
                "(score sets of another file?)"
            )
    columns = []
    for (model, method), (before, after) in sides.items():
        label = f"{model} · {method}"
        if before is None or after is None:
            has, lacks = (versions[0], versions[1]) if after is None else (versions[1], versions[0])
            _warn(f"{label}: a score set of {has.label} but none of {lacks.label}; not compared")
            continue
        gaps = [
            (version.label, missing)
            for version, column in zip(versions, (before, after), strict=True)
            if (missing := missing_pairs(version.pairs, column.scores))
        ]
        if gaps:
            _warn(
                f"{label}: no usable score for "
                + " and ".join(f"{len(ids)} pairs of {name} (e.g. {ids[0]})" for name, ids in gaps)
                + " (rows an import skipped, or non-finite scores); not compared"
            )
            continue
        provenance: dict[str, Any] = {"before": before.provenance, "after": after.provenance}
        columns.append(
            GivenColumn(
                model=model,
                model_label=model_display_name(before.provenance),
                method=method,
                before=before.scores,
                after=after.scores,
                provenance=provenance,
                sources=(str(before.directory), str(after.directory)),
            )
        )
    if not columns:
        raise InputError(
            f"{', '.join(str(r) for r in roots)}: no model and method has a score set of both "
            f"{versions[0].label} and {versions[1].label} (score sets are matched to a version "
            "by the SHA-256 of its data file in summary.json: score or import each version's file)"
        )
    return columns
