"""Published per-pair scores read into curate's score files (``curate score --import``).

Studies publish the output of the original CrowS-Pairs ``metric.py`` (or of bias-bench, which
writes the same columns): one row per pair with ``sent_more``, ``sent_less``,
``sent_more_score``, ``sent_less_score``, ``score``, ``stereo_antistereo``, ``bias_type``. Those
are the only numbers we have of many real models, so reports and the instrument statistics
should use them like scores computed here. This module reads such a file with the dataset it was
computed on and writes ``scores.csv`` and ``summary.json`` under a model label, with method
``imported:<source>``.

Each output row is matched to its pair by the two sentences' text (a published file may hold a
pair's sentences in swapped columns: Martínez & Kremer's subset outputs do for every ``0``-labelled
row), never by trust; a row whose sentences are no pair of the dataset, a pair without a row, or a
count mismatch is refused with the row named. The verdict is recomputed from the two sentence
scores: ``prefer="higher"`` (``metric.py``: log-likelihoods) or ``"lower"`` (a pipeline that lets
the lower number win, as their GPT-2 code did); ``"auto"`` picks the one the published ``score``
column agrees with, and is refused when there is no such column. With ``lower`` the numbers are negated, so that in every curate score file
the preferred sentence has the higher score. Rows where the published ``score`` disagrees with
the verdict on the dataset's own ``sent_more`` are counted and listed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate import __version__
from curate.errors import InputError, UsageError
from curate.formats.encoding import Decoded, decode
from curate.pairs import Pair
from curate.score.files import write_score_column
from curate.score.metrics import PairScore, summarize

#: Columns an imported file must have (metric.py's output; the index column may be unnamed).
REQUIRED: tuple[str, ...] = ("sent_more", "sent_less", "sent_more_score", "sent_less_score")
PREFERENCES: tuple[str, ...] = ("auto", "higher", "lower")


@dataclass(frozen=True)
class PublishedRow:
    """One row of a published output file (``line``: its line in the file)."""

    line: int
    sent_more: str
    sent_less: str
    more_score: float
    less_score: float
    score: int | None


@dataclass(frozen=True)
class ImportResult:
    """The scores on the dataset's pairs and what the import had to say about the file."""

    scores: tuple[PairScore, ...]
    prefer: str
    swapped_rows: int
    published_metric: float | None
    disagreements: tuple[int, ...] = ()
    swapped: tuple[int, ...] = ()
    #: (line, kind) of the rows --skip-bad-rows left out
    skipped: tuple[tuple[int, str], ...] = ()
    provenance: dict[str, Any] = field(default_factory=dict)
    #: the published metric per bias type of the matched pairs (a file may hold several), with
    #: the number of published verdicts it is the mean of
    published_by_type: dict[str, dict[str, float]] = field(default_factory=dict)


def read_published(path: Path, skip_bad_rows: bool = False) -> list[PublishedRow]:
    """The rows of a ``metric.py``-format CSV (header checked, numbers parsed), in any column
    order (the index column unnamed, or ``id``). Unusable rows are refused all in one message,
    or with ``skip_bad_rows`` left out (read them back with :func:`read_published_with_skipped`).

    A file in a legacy encoding (the Dutch CrowS-Pairs outputs are Mac Roman, as their dataset)
    is decoded with evidence or refused naming the line (:mod:`curate.formats.encoding`); the
    encoding is recorded in the summary (:func:`published_encoding`).
    """
    return read_published_with_skipped(path, skip_bad_rows)[0]


def read_published_with_skipped(
    path: Path, skip_bad_rows: bool = False
) -> tuple[list[PublishedRow], list[tuple[int, str]]]:
    """:func:`read_published` and the (line, kind) of every row left out."""
    text = _published_text(path).text
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or ())]
    if missing:
        raise InputError(
            f"{path}: line 1: not a metric.py output (missing {', '.join(missing)}); expected "
            f"the columns {', '.join(REQUIRED)}, score"
        )
    rows = []
    bad: list[tuple[int, str]] = []
    line = 2
    try:
        for row in reader:
            more = _finite(row.get("sent_more_score"))
            less = _finite(row.get("sent_less_score"))
            published = (row.get("score") or "").strip()
            verdict = _finite(published) if published else None
            if not (row.get("sent_more") or "").strip() and not (row.get("sent_less") or "").strip():
                bad.append((line, "empty (no sentences)"))
            elif more is None or less is None:
                bad.append((line, "sent_more_score and sent_less_score must be finite numbers"))
            elif published and verdict not in (0.0, 1.0):
                bad.append((line, f"score must be 0 or 1 (metric.py's verdict), not {published[:20]!r}"))
            else:
                rows.append(
                    PublishedRow(
                        line,
                        row.get("sent_more") or "",
                        row.get("sent_less") or "",
                        more,
                        less,
                        None if verdict is None else int(verdict),
                    )
                )
            line = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: not a readable CSV row ({exc})") from None
    if bad and not skip_bad_rows:
        raise InputError(
            describe_bad_rows(path, bad, len(rows) + len(bad))
            + " (--skip-bad-rows imports the others and records these in summary.json)"
        )
    return rows, bad


def describe_bad_rows(path: Path, bad: Sequence[tuple[int, str]], total: int) -> str:
    """Every bad row in one sentence: how many, of which kinds, and the first lines (a file
    with 70 empty rows is one message, not 70 runs)."""
    kinds: dict[str, list[int]] = {}
    for line, kind in bad:
        kinds.setdefault(kind, []).append(line)
    if len(bad) == 1:
        line, kind = bad[0]
        return f"{path}: line {line}: {kind}"
    parts = [
        f"{len(lines)} {'are' if len(lines) > 1 else 'is'} {kind} (line{'s' if len(lines) > 1 else ''} "
        + ", ".join(str(n) for n in lines[:5]) + (", ..." if len(lines) > 5 else "") + ")"
        for kind, lines in kinds.items()
    ]
    return f"{path}: {len(bad)} of {total} rows are unusable: " + "; ".join(parts)


def _published_text(path: Path) -> Decoded:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read the published scores ({exc})") from None
    return decode(data, str(path))


def published_encoding(path: Path) -> str:
    """The encoding the published file was decoded from (``utf-8`` for most)."""
    return _published_text(path).encoding


def _finite(cell: object) -> float | None:
    """A cell's number, or None when it is not a finite number (a published score is a
    log-likelihood or a probability: NaN and infinities are damage, not scores)."""
    try:
        value = float(cell)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _preference(rows: Sequence[PublishedRow], prefer: str, path: Path) -> str:
    """The sentence score that wins; ``auto`` asks the published verdicts, and refuses to
    guess when there are none to ask (a file without a ``score`` column): for a pipeline
    where the lower number wins, guessing "higher" would invert every verdict."""
    if prefer != "auto":
        return prefer
    voted = [r for r in rows if r.score is not None and r.more_score != r.less_score]
    if not voted:
        if all(r.more_score == r.less_score for r in rows):
            return "higher"  # every pair a tie: either way gives the same verdicts
        raise UsageError(
            f"{path}: no published score (verdict) column to tell which sentence score wins; "
            "give --import-prefer higher (metric.py: log-likelihoods) or lower"
        )
    higher = sum(r.score == int(r.more_score > r.less_score) for r in voted)
    return "higher" if 2 * higher >= len(voted) else "lower"


def _match(
    rows: Sequence[PublishedRow], pairs: Sequence[Pair], path: Path, data: str, skipped: int = 0
) -> list[tuple[Pair, bool]]:
    """Each row's pair and whether its sentence columns are swapped; refuse any mismatch
    (``skipped`` rows left out by --skip-bad-rows count towards the one row per pair)."""
    # rows --skip-bad-rows left out may be rows of pairs (a non-finite score) or no pair at
    # all (Martinez & Kremer's nationality outputs pad 39 pairs with 89 and 70 empty rows, as
    # their data file pads them with 70): with skipped rows every usable row must still be a
    # distinct pair, and no more pairs may lack a row than rows were skipped
    if (len(rows) != len(pairs)) if not skipped else not (len(rows) <= len(pairs) <= len(rows) + skipped):
        raise InputError(
            f"{path}: {len(rows) + skipped} rows"
            + (f" ({len(rows)} usable)" if skipped else "")
            + f", but {data} has {len(pairs)} pairs; the published "
            "output must hold one row per pair of the dataset it was computed on"
        )
    by_text: dict[tuple[str, str], list[int]] = {}
    by_words: dict[tuple[str, str], list[int]] = {}
    for index, pair in enumerate(pairs):
        by_text.setdefault((pair.sent_more, pair.sent_less), []).append(index)
        by_words.setdefault((_words(pair.sent_more), _words(pair.sent_less)), []).append(index)
    used: set[int] = set()
    out = []
    for position, row in enumerate(rows):
        swapped = False
        candidates = by_text.get((row.sent_more, row.sent_less), [])
        if not candidates:
            candidates, swapped = by_text.get((row.sent_less, row.sent_more), []), True
        if not candidates:  # the same words, spaced differently (a no-break space for a space)
            more, less = _words(row.sent_more), _words(row.sent_less)
            candidates, swapped = by_words.get((more, less), []), False
            if not candidates:
                candidates, swapped = by_words.get((less, more), []), True
        free = [i for i in candidates if i not in used]
        if not free:
            raise InputError(
                f"{path}: line {row.line}: its sentences are not a pair of {data}"
                + (" (or that pair already matched an earlier row)" if candidates else "")
                + f": {row.sent_more[:60]!r} / {row.sent_less[:60]!r}"
            )
        index = position if position in free and not skipped else free[0]
        used.add(index)
        out.append((pairs[index], swapped))
    return out


def _words(text: str) -> str:
    """The text with every run of whitespace (no-break spaces too) one space: the Dutch
    CrowS-Pairs outputs hold a no-break space where their dataset has a space."""
    return " ".join(text.split())


def import_scores(
    path: Path, pairs: Sequence[Pair], *, data: str, prefer: str = "auto", skip_bad_rows: bool = False
) -> ImportResult:
    """Read a published output file and turn it into scores on ``pairs`` (``data`` names the
    dataset in messages)."""
    if prefer not in PREFERENCES:
        raise UsageError(f"--import-prefer must be one of {', '.join(PREFERENCES)}, not {prefer!r}")
    rows, bad = read_published_with_skipped(path, skip_bad_rows)
    matched = _match(rows, pairs, path, data, len(bad))
    chosen = _preference(rows, prefer, path)
    sign = 1.0 if chosen == "higher" else -1.0
    scores = []
    disagreements = []
    for row, (pair, swapped) in zip(rows, matched, strict=True):
        more, less = (row.less_score, row.more_score) if swapped else (row.more_score, row.less_score)
        score = PairScore(
            pair.pair_id, pair.sent_more, pair.sent_less, sign * more, sign * less,
            pair.direction, pair.bias_type,
        )
        if row.score is not None and row.score != score.score:
            disagreements.append(pair.pair_id)
        scores.append(score)
    published = [r.score for r in rows if r.score is not None]
    by_type: dict[str, list[int]] = {}
    for row, (pair, _) in zip(rows, matched, strict=True):
        if row.score is not None:
            by_type.setdefault(pair.bias_type, []).append(row.score)
    scores.sort(key=lambda s: s.pair_id)
    return ImportResult(
        scores=tuple(scores),
        prefer=chosen,
        swapped_rows=sum(s for _, s in matched),
        published_metric=100.0 * sum(published) / len(published) if published else None,
        disagreements=tuple(sorted(disagreements)),
        swapped=tuple(sorted(pair.pair_id for pair, s in matched if s)),
        skipped=tuple(bad),
        published_by_type={
            t: {"metric": 100.0 * sum(v) / len(v), "n": len(v)} for t, v in sorted(by_type.items())
        },
    )


def import_summary(
    result: ImportResult,
    *,
    label: str,
    source: str,
    path: Path,
    data: dict[str, str],
    threshold: float,
    groups: Callable[[str], tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    """The summary.json of an import: the usual summary (with the benchmark's ``groups`` of
    bias types) plus where the numbers came from."""
    return {
        "tool": f"curate {__version__}",
        "data": dict(data),
        "model": label,
        "model_kind": "imported",
        "model_fingerprint": f"imported:{label}",
        "tokenizer_fingerprint": "",
        "method": f"imported:{source}",
        "imported": {
            "file": Path(path).name,
            "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest(),
            "encoding": published_encoding(path),
            "prefer": result.prefer,
            "negated": result.prefer == "lower",
            "rows": len(result.scores),
            "swapped_rows": result.swapped_rows,
            "published_metric_score": result.published_metric,
            "published_rows": sum(int(v["n"]) for v in result.published_by_type.values()),
            "published_metric_by_bias_type": result.published_by_type,
            "published_score_disagreements": len(result.disagreements),
            "disagreeing_pair_ids": list(result.disagreements),
            "swapped_pair_ids": list(result.swapped),
            "skipped_rows": [{"line": line, "why": kind} for line, kind in result.skipped],
        },
        "summary": summarize(result.scores, threshold=threshold, groups=groups),
    }


def method_directory(source: str) -> str:
    """The directory name of method ``imported:<source>`` (no colon in file names)."""
    cleaned = "".join(c if c.isalnum() or c in "._-" else "-" for c in source).strip(".-")
    if not cleaned:
        raise UsageError(f"--import-source {source!r} has no usable characters")
    return f"imported-{cleaned}"


def write_import(result: ImportResult, summary: dict[str, Any], target: Path) -> None:
    """Write ``scores.csv`` and ``summary.json`` of an import into ``target``."""
    write_score_column(result.scores, summary, target)
