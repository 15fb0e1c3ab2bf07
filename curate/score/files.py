"""Score outputs: the per-pair CSV (``metric.py`` columns plus ``pair_id``) and summary.json.

Sentences and bias types that a spreadsheet would run as formulas are neutralised with an
apostrophe (:mod:`curate.cells`) and restored by :func:`read_scores_csv`.

The CSV keeps the column names of the original ``metric.py`` output, so analysis code written
for it keeps working, adds the stable pair id first, and the full-precision scores last:
``sent_more_score`` / ``sent_less_score`` hold the scores as the method's tie rule compares them
(for ``pll`` rounded to 3 decimals, exactly ``metric.py``'s columns), ``sent_more_score_full`` /
``sent_less_score_full`` the unrounded ones (equal to them for the methods that do not round). Floats are written with ``repr`` (the
shortest text that reads back to the same number), so reading the CSV gives the exact scores
and every file is byte-for-byte the same for the same inputs.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from curate.cells import neutralise_formula, restore_formula
from curate.errors import InputError
from curate.fileio import atomic_writer, check_output_members, write_text_atomic
from curate.score.metrics import PairScore

SCORE_COLUMNS: tuple[str, ...] = (
    "pair_id",
    "sent_more",
    "sent_less",
    "sent_more_score",
    "sent_less_score",
    "score",
    "stereo_antistereo",
    "bias_type",
    "sent_more_score_full",
    "sent_less_score_full",
)
#: The columns of files written before the full-precision columns existed (still read).
LEGACY_SCORE_COLUMNS: tuple[str, ...] = SCORE_COLUMNS[:-2]


def format_scores_csv(scores: Iterable[PairScore]) -> str:
    """The per-pair CSV text (LF line endings, minimal quoting)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SCORE_COLUMNS)
    for s in scores:
        more, less = s.compared
        writer.writerow(
            (
                s.pair_id,
                neutralise_formula(s.sent_more),
                neutralise_formula(s.sent_less),
                repr(more),
                repr(less),
                s.score,
                s.direction,
                neutralise_formula(s.bias_type),
                repr(s.sent_more_score),
                repr(s.sent_less_score),
            )
        )
    return out.getvalue()


def write_scores_csv(scores: Iterable[PairScore], path: Path) -> None:
    """Write the per-pair CSV atomically."""
    text = format_scores_csv(scores)
    with atomic_writer(Path(path)) as handle:
        handle.write(text)


def read_scores_csv(path: Path | str) -> list[PairScore]:
    """Read a per-pair scores CSV written by :func:`write_scores_csv`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the scores CSV ({exc})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    columns = tuple(reader.fieldnames or ())
    if columns not in (SCORE_COLUMNS, LEGACY_SCORE_COLUMNS):
        raise InputError(f"{path}: line 1: expected the columns {', '.join(SCORE_COLUMNS)}")
    full = columns == SCORE_COLUMNS
    scores = []
    for row in reader:
        try:
            compared = float(row["sent_more_score"]), float(row["sent_less_score"])
            exact = (
                (float(row["sent_more_score_full"]), float(row["sent_less_score_full"]))
                if full
                else compared
            )
            scores.append(
                PairScore(
                    pair_id=int(row["pair_id"]),
                    sent_more=restore_formula(row["sent_more"]),
                    sent_less=restore_formula(row["sent_less"]),
                    sent_more_score=exact[0],
                    sent_less_score=exact[1],
                    direction=row["stereo_antistereo"],
                    bias_type=restore_formula(row["bias_type"]),
                    rounded=None if compared == exact else compared,
                )
            )
        except (TypeError, ValueError):
            raise InputError(
                f"{path}: line {reader.line_num}: pair_id must be an integer and the two "
                "scores numbers"
            ) from None
    return scores


def write_summary_json(summary: Mapping[str, Any], path: Path) -> None:
    """Write a summary as stable, indented JSON atomically."""
    write_text_atomic(Path(path), json.dumps(summary, indent=2, ensure_ascii=False) + "\n")


#: The files of one score column folder (``<out>/<model>/[<method>/]``).
COLUMN_FILES = ("scores.csv", "summary.json")


def write_score_column(scores: Iterable[PairScore], summary: Mapping[str, Any], target: Path) -> None:
    """Write a score column's ``scores.csv`` and ``summary.json`` into ``target`` as one set
    (staged and swapped in whole, :func:`curate.fileio.staged_output_dir`): ``curate score``,
    ``--import`` and ``curate sweep`` all write their columns through here, so a kill leaves
    either the old pair of files or the new one, never a mix."""
    from curate.fileio import staged_output_dir

    with staged_output_dir(target, COLUMN_FILES) as staged:
        write_scores_csv(scores, staged / "scores.csv")
        write_summary_json(summary, staged / "summary.json")


def check_column_folders(out_dir: Path, slugs: Iterable[str]) -> None:
    """Before any model loads: the score files already under ``<out>/<model>/`` (and its method
    folders) must be files a run may replace (:func:`curate.fileio.check_output_members`, the
    rule :func:`write_score_column` applies when it writes), so a symbolic link there is refused
    now, not after minutes of scoring."""

    members = (*COLUMN_FILES, "stereoset.json")
    for slug in slugs:
        base = Path(out_dir) / slug
        if not base.is_dir():
            continue
        for folder in [base, *sorted(p for p in base.iterdir() if p.is_dir() and not p.is_symlink())]:
            check_output_members(folder, members)
