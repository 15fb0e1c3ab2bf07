"""The explorer's data: every pair of one or two versions with its findings, decisions, answers,
change history and per-model scores, as one JSON-ready document the page reads.

Everything comes from files the pipeline already writes (versions, ``findings.jsonl``, round
``decisions.jsonl`` / ``annotations.json``, a release's ``changes.jsonl``, ``curate score``
output directories); nothing is recomputed here that the page can compute itself: the verdicts,
flips, metric and threshold shares are arithmetic on the per-pair scores, done in the browser so
the slider and the filters can move them. Scores are written with full precision (JSON floats
round-trip exactly), so the page's threshold view equals :mod:`curate.score.metrics`. A method
that compares rounded scores (``pll`` rounds to 3 decimals, as ``metric.py`` does) adds the two
compared values to the cell, ``[more, less, compared_more, compared_less]``: the page shows the
full scores and decides verdicts, ties and threshold classes on the compared ones, as Python does.

A score row belongs to a version's pair only when its text matches (both sentences and the
direction): scores of the raw file never stand in for an edited pair of a release.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.errors import InputError
from curate.fileio import input_exists
from curate.findings import Finding
from curate.formats.language import LANGUAGES
from curate.pairs import Pair
from curate.report.palette import column_styles
from curate.score.metrics import DEFAULT_THRESHOLD, PairScore

#: Identifies the layout of the page's data; bump it when the page would misread the new one.
EXPLORE_FORMAT = "curate-explore/1"
#: Human names of the rule families (the letter prefix of a rule code).
FAMILY_NAMES: dict[str, str] = {
    "B": "WinoBias pairs",
    "D": "duplicates",
    "E": "StereoSet gold labels",
    "G": "grammar",
    "I": "instrument (models disagree)",
    "L": "labels",
    "P": "perturbation",
    "S": "semantics / polarity",
    "T": "typography",
    "W": "spelling",
}


@dataclass(frozen=True)
class VersionData:
    """One version: its label, pairs, (for a release) its change records and the language of its
    text (``en``, ``fr``, ``nl``; ``None``: not known). Two versions in different languages are
    translations aligned by pair id: the page shows them side by side as such, never as edits."""

    label: str
    pairs: tuple[Pair, ...]
    changes: tuple[dict[str, Any], ...] = ()
    language: str | None = None


@dataclass(frozen=True)
class RoundData:
    """One annotation round: its decisions and the validated answers of its snapshot."""

    name: str
    decisions: tuple[dict[str, Any], ...] = ()
    answers: tuple[dict[str, Any], ...] = ()


@dataclass
class ScoreSet:
    """The per-pair scores of one ``curate score`` output (one model, one method, one data file)."""

    label: str
    provenance: dict[str, Any]
    scores: dict[int, PairScore] = field(default_factory=dict)
    #: Where its summary.json is (for warnings and for a model path relative to it).
    source: str = ""

    @property
    def model_key(self) -> tuple[str, ...]:
        """What makes two score sets the same column: weights, tokenizer, method, dtype."""
        p = self.provenance
        return tuple(
            str(p.get(k, "")) for k in ("model_fingerprint", "tokenizer_fingerprint", "method", "dtype")
        )


def _score_cell(score: PairScore) -> list[float]:
    """A pair's scores as the page reads them: the full ones, then the compared ones when the
    method rounds before comparing (so a rounded tie is neutral on the page as in the report)."""
    cell = [score.sent_more_score, score.sent_less_score]
    if score.rounded is not None:
        cell.extend(score.rounded)
    return cell


def model_display_name(provenance: dict[str, Any]) -> str:
    """The model's short name: a local directory's own name (from the absolute ``model_path``
    that ``curate score`` records, so it does not depend on the working directory), else the
    hub id as given. An imported score set (``curate score --import``) names no model to find:
    its label is the one the user gave, as given (never taken for a directory)."""
    if provenance.get("imported"):
        return str(provenance.get("model", ""))
    recorded = provenance.get("model_path")
    if isinstance(recorded, str) and recorded:
        return Path(recorded).name
    name = str(provenance.get("model", ""))
    path = Path(name).expanduser()
    if path.exists() or name.startswith((".", "/", "~")):
        return path.resolve().name if path.exists() else path.name
    return name


def read_score_dir(directory: Path) -> tuple[list[ScoreSet], list[str]]:
    """Every score set below ``directory``: each ``summary.json`` of ``curate score`` (or
    ``curate sweep``) found at any depth with its ``scores.csv`` beside it, and one warning per
    summary that cannot be used, naming it and why. Nothing is dropped silently; a directory
    with no usable score set at all is an InputError (the user asked for its scores)."""
    from curate.score.files import read_scores_csv

    directory = Path(directory)
    if not input_exists(directory):
        raise InputError(f"{directory}: no such directory (expected a `curate score --out` one)")
    if not directory.is_dir():
        raise InputError(
            f"{directory}: is a file, expected a directory (a `curate score --out` one)"
        )
    summaries = sorted(directory.rglob("summary.json"))
    orphans = sorted(
        p for p in directory.rglob("scores.csv") if not (p.parent / "summary.json").is_file()
    )
    if not summaries:
        raise InputError(f"{directory}: no summary.json of `curate score` in it or below it")
    sets: list[ScoreSet] = []
    warnings = [
        f"{p}: skipped, StereoSet scores have no pairs to show"
        if (p.parent / "stereoset.json").is_file()
        else f"{p}: skipped, no summary.json beside it (which model and method?)"
        for p in orphans
    ]
    for summary_path in summaries:
        try:
            summary = json.loads(summary_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            warnings.append(f"{summary_path}: skipped, not readable JSON ({exc})")
            continue
        if not isinstance(summary, dict) or not summary.get("method"):
            warnings.append(f"{summary_path}: skipped, not a `curate score` summary (no method)")
            continue
        scores_path = summary_path.parent / "scores.csv"
        if (summary_path.parent / "stereoset.json").is_file():
            warnings.append(
                f"{summary_path}: skipped, StereoSet scores ({summary['method']}) have no pairs "
                "to show"
            )
            continue
        if not scores_path.is_file():
            warnings.append(f"{summary_path}: skipped, no scores.csv beside it")
            continue
        try:
            rows = read_scores_csv(scores_path)
        except InputError as exc:
            warnings.append(f"{summary_path}: skipped, {exc}")
            continue
        provenance = {k: v for k, v in summary.items() if k != "summary"}
        sets.append(
            ScoreSet(
                model_display_name(provenance),
                provenance,
                {s.pair_id: s for s in rows},
                str(summary_path),
            )
        )
    if not sets:  # the user asked for these scores: a site without them is not what they asked
        shown = warnings[0] if len(warnings) == 1 else f"{len(warnings)} skipped, first {warnings[0]}"
        raise InputError(f"{directory}: no usable score set in it or below it ({shown})")
    return sets, warnings


def group_models(sets: Sequence[ScoreSet]) -> list[list[ScoreSet]]:
    """Score sets grouped into columns (same fingerprints, method and dtype): one column holds a
    (model, method) over every version it scored; models in first-seen order."""
    from curate.score.methods import METHODS

    groups: dict[tuple[str, ...], list[ScoreSet]] = {}
    for s in sets:
        groups.setdefault(s.model_key, []).append(s)
    models = list(dict.fromkeys(key[:2] for key in groups))
    order = list(METHODS)

    def rank(key: tuple[str, ...]) -> tuple[int, int, str]:
        method = key[2]
        return (models.index(key[:2]), order.index(method) if method in order else len(order), method)

    # a model's columns together, its methods in the registry's order
    return [groups[key] for key in sorted(groups, key=rank)]


def identical_sets(sets: Sequence[ScoreSet]) -> list[list[ScoreSet]]:
    """Groups of two or more score sets with the same column key and the very same scores
    (e.g. one model scored into several folders): the page keeps one of each, and the command
    says which folders were the same instead of merging them without a word."""
    same: dict[tuple[Any, ...], list[ScoreSet]] = {}
    for s in sets:
        scores = tuple(sorted((k, v.sent_more, v.sent_less, v.sent_more_score, v.sent_less_score)
                              for k, v in s.scores.items()))  # fmt: skip
        same.setdefault((s.model_key, scores), []).append(s)
    return [group for group in same.values() if len(group) > 1]


def column_count_text(models: Sequence[dict[str, Any]]) -> str:
    """"N columns from M models" (a column is a model scored with one method)."""
    n_models = len({m.get("name", "") for m in models})
    columns = f"{len(models)} column{'s' if len(models) != 1 else ''}"
    return f"{columns} from {n_models} model{'s' if n_models != 1 else ''}"


def _matching_score(pair: Pair, sets: Sequence[ScoreSet]) -> PairScore | None:
    for s in sets:
        score = s.scores.get(pair.pair_id)
        if (
            score is not None
            and score.sent_more == pair.sent_more
            and score.sent_less == pair.sent_less
            and score.direction == pair.direction
        ):
            return score
    return None


def unmatched_sets(versions: Sequence[VersionData], sets: Sequence[ScoreSet]) -> list[ScoreSet]:
    """The score sets none of whose rows matches the text of a pair of the versions given
    (scores of another file): the command names each in a warning instead of hiding it."""
    pairs = [p for v in versions for p in v.pairs]
    return [s for s in sets if not any(_matching_score(p, [s]) is not None for p in pairs)]


def highlight_spans(sent_more: str, sent_less: str) -> tuple[list[list[int]], list[list[int]]]:
    """Character ranges ``[start, end)`` of the words that differ, in each sentence."""
    from curate.align import align

    alignment = align(sent_more, sent_less)

    def spans(side: str) -> list[list[int]]:
        out = []
        for edit in alignment.edits:
            span = getattr(edit, side)
            if span.tokens and span.char_start is not None and span.char_end is not None:
                out.append([span.char_start, span.char_end])
        return sorted(out)

    return spans("more"), spans("less")


def _pair_cells(pair: Pair) -> list[Any]:
    hl_more, hl_less = highlight_spans(pair.sent_more, pair.sent_less)
    return [pair.sent_more, pair.sent_less, pair.direction, pair.bias_type, hl_more, hl_less]


def _families(codes: Sequence[str]) -> list[dict[str, str]]:
    from curate.lint import all_rules

    letters = sorted(
        {r.family() for r in all_rules().values()} | {c.rstrip("0123456789") for c in codes}
    )
    # a family without a name here is still named, never "X X" (issue 31)
    return [{"code": f, "name": FAMILY_NAMES.get(f, f"other {f} rules")} for f in letters if f]


def build_explore_data(
    versions: Sequence[VersionData],
    findings: Sequence[Finding] = (),
    rounds: Sequence[RoundData] = (),
    score_sets: Sequence[ScoreSet] = (),
    title: str = "",
) -> dict[str, Any]:
    """The page's document: one row per pair id of the union of the versions, in id order.

    Row keys are short (``v`` versions, ``f`` findings, ``d`` decisions, ``a`` answers, ``c``
    changes, ``s`` scores, ``item`` the item's own id where it has one, as StereoSet's) because
    a StereoSet-sized page holds 20,000 of them.
    """
    if not 1 <= len(versions) <= 2:
        raise InputError(f"give one or two versions to explore, got {len(versions)}")
    models = group_models(score_sets)
    by_version = [{p.pair_id: p for p in v.pairs} for v in versions]
    ids = sorted(set().union(*by_version))
    by_finding: dict[int, list[list[str]]] = {}
    for f in findings:
        by_finding.setdefault(f.pair_id, []).append([f.code, f.rule, f.message])
    decisions: dict[int, list[dict[str, Any]]] = {}
    answers: dict[int, list[dict[str, Any]]] = {}
    for r in rounds:
        for d in r.decisions:
            decisions.setdefault(int(d["pair_id"]), []).append({**d, "round": d.get("round") or r.name})
        for a in r.answers:
            answers.setdefault(int(a["pair_id"]), []).append({**a, "round": r.name})
    changes: dict[int, list[dict[str, Any]]] = {}
    for v in versions:
        for c in v.changes:
            changes.setdefault(int(c["pair_id"]), []).append({"version": v.label, **c})
    rows = []
    for pair_id in ids:
        cells: list[Any] = []
        for i, pairs in enumerate(by_version):
            pair = pairs.get(pair_id)
            if pair is None:
                cells.append(None)
            elif i and by_version[0].get(pair_id) == pair:
                cells.append(0)  # same as the first version
            else:
                cells.append(_pair_cells(pair))
        scores = []
        for sets in models:
            per_version = []
            for pairs in by_version:
                pair = pairs.get(pair_id)
                score = _matching_score(pair, sets) if pair is not None else None
                per_version.append(None if score is None else _score_cell(score))
            scores.append(per_version)
        row: dict[str, Any] = {"id": pair_id, "v": cells, "s": scores}
        item = next((p[pair_id].item_id for p in by_version if pair_id in p), None)
        if item:  # an item with its own id (StereoSet): the page names it by that
            row["item"] = item
        if pair_id in by_finding:
            row["f"] = by_finding[pair_id]
        if pair_id in decisions:
            row["d"] = decisions[pair_id]
        if pair_id in answers:
            row["a"] = answers[pair_id]
        if pair_id in changes:
            row["c"] = changes[pair_id]
        rows.append(row)
    codes = sorted({f.code for f in findings})
    labels = model_labels(models)
    styles = column_styles(len(models))
    return {
        "format": EXPLORE_FORMAT,
        "title": title or " vs ".join(v.label for v in versions),
        "versions": [v.label for v in versions],
        "languages": [v.language for v in versions],
        "language_names": {
            v.language: LANGUAGES.get(v.language, v.language) for v in versions if v.language
        },
        "models": [
            {
                "label": labels[i],
                "name": sets[0].label,
                "method": str(sets[0].provenance.get("method", "")),
                "model": str(sets[0].provenance.get("model", "")),
                "kind": str(sets[0].provenance.get("model_kind", "")),
                # how the method reads tokens and reduces them, from summary.json (the page
                # words its captions from these, so a new method needs no page change)
                "reduction": str(sets[0].provenance.get("reduction", "")),
                "scope": str(sets[0].provenance.get("tokens", "")),
                "counted": str(sets[0].provenance.get("counted", "")),
                # set by the caller that writes tokens/<i>.js for the model
                "tokens": False,
                # curate score --corpus: the model's (pseudo-)perplexity beside its metric
                **_capability(sets[0].provenance),
                # colour, marker and glyph, as report.html draws the column too
                **styles[i],
            }
            for i, sets in enumerate(models)
        ],
        "codes": codes,
        "families": _families(codes),
        "rounds": [r.name for r in rounds],
        "threshold": {"default": DEFAULT_THRESHOLD, "min": 0.0, "max": 20.0, "step": 0.5},
        "rows": rows,
    }


def _capability(provenance: dict[str, Any]) -> dict[str, Any]:
    """The model's capability on a corpus (``curate score --corpus``), as the page shows it."""
    record = provenance.get("capability")
    if not isinstance(record, dict) or record.get("value") is None:
        return {}
    corpus = record.get("corpus") if isinstance(record.get("corpus"), dict) else {}
    keys = ("measure", "value", "low", "high", "no_interval")
    return {
        "capability": {
            **{k: record[k] for k in keys if k in record},
            "corpus": str(corpus.get("name", "")),
        }
    }


def model_labels(models: Sequence[Sequence[ScoreSet]]) -> list[str]:
    """A label per column, "model · method", unique: two models that share a short name (two
    directories called gpt2) are numbered in first-seen order, and a model scored twice with one
    method in two precisions gets the dtype."""
    identities: list[tuple[str, str, str]] = []
    for sets in models:
        p = sets[0].provenance
        ident = (sets[0].label, str(p.get("model_fingerprint", "")), str(p.get("tokenizer_fingerprint", "")))
        if ident not in identities:
            identities.append(ident)
    names: dict[tuple[str, str, str], str] = {}
    for ident in identities:
        same = [i for i in identities if i[0] == ident[0]]
        names[ident] = ident[0] if len(same) == 1 else f"{ident[0]} ({same.index(ident) + 1})"
    labels = []
    for sets in models:
        p = sets[0].provenance
        ident = (sets[0].label, str(p.get("model_fingerprint", "")), str(p.get("tokenizer_fingerprint", "")))
        labels.append(f"{names[ident]} \u00b7 {p.get('method', '')}")
    return [
        f"{label} ({sets[0].provenance.get('dtype', '')})" if labels.count(label) > 1 else label
        for label, sets in zip(labels, models, strict=True)
    ]
