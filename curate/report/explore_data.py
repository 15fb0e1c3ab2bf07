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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.errors import InputError
from curate.fileio import input_exists
from curate.findings import Finding
from curate.formats.language import LANGUAGES
from curate.jsonl import loads_document
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
    #: The file it was read from as ``curate score`` records it in summary.json's ``data``
    #: (name, SHA-256): a score set made from it serves this version (``None``: not known).
    data: tuple[str, str] | None = None


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
    #: Pair ids of the rows left out because a score is NaN or infinite (never shown: a NaN
    #: makes every comparison false, an infinity wins every one).
    non_finite: tuple[int, ...] = ()

    @property
    def model_key(self) -> tuple[str, ...]:
        """What makes two score sets the same column: weights, tokenizer, method, dtype."""
        p = self.provenance
        return tuple(
            str(p.get(k, "")) for k in ("model_fingerprint", "tokenizer_fingerprint", "method", "dtype")
        )

    @property
    def data(self) -> tuple[str, str] | None:
        """The data file it was made from, (name, SHA-256), as its summary.json records it."""
        record = self.provenance.get("data")
        if not isinstance(record, dict) or not isinstance(record.get("sha256"), str):
            return None
        return str(record.get("file", "")), record["sha256"]


@dataclass(frozen=True)
class Column:
    """One score column of the page: the score sets of one model, method and dtype.

    A score row fills a version's cell by its text alone (scores of the raw file serve the
    unchanged pairs of a release), which is right while the sets agree wherever their texts
    meet. Sets that give one text different scores (two seeds, two imports under one label) are
    different measurements: then ``own`` names, per version, the only set that fills it (the
    one made from that version's file), or the sets are columns of their own, each told apart
    by ``tag`` (the part of its folder that differs)."""

    sets: tuple[ScoreSet, ...]
    own: tuple[ScoreSet | None, ...] | None = None
    tag: str = ""

    @property
    def first(self) -> ScoreSet:
        """The set whose provenance names the column (model, method, kind)."""
        return self.sets[0]

    def serving(self, version: int) -> tuple[ScoreSet, ...]:
        """The sets whose rows may fill version ``version``'s cells."""
        if self.own is None:
            return self.sets
        chosen = self.own[version] if version < len(self.own) else None
        return () if chosen is None else (chosen,)


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
            summary = loads_document(summary_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # UnicodeDecodeError, JSONDecodeError, too deep
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
        finite = {s.pair_id: s for s in rows if _finite(s)}
        non_finite = tuple(s.pair_id for s in rows if not _finite(s))
        if rows and not finite:
            warnings.append(f"{scores_path}: skipped, every score is NaN or infinite")
            continue
        sets.append(
            ScoreSet(
                model_display_name(provenance),
                provenance,
                finite,
                str(summary_path),
                non_finite,
            )
        )
    if not sets:  # the user asked for these scores: a site without them is not what they asked
        shown = warnings[0] if len(warnings) == 1 else f"{len(warnings)} skipped, first {warnings[0]}"
        raise InputError(f"{directory}: no usable score set in it or below it ({shown})")
    return sets, warnings


def _finite(score: PairScore) -> bool:
    """Both scores (and the compared ones of a rounding method) are finite numbers."""
    numbers = (score.sent_more_score, score.sent_less_score, *(score.rounded or ()))
    return all(math.isfinite(x) for x in numbers)


def group_models(sets: Sequence[ScoreSet], versions: Sequence[VersionData] = ()) -> list[Column]:
    """Score sets grouped into columns (same fingerprints, method and dtype): one column holds a
    (model, method) over every version it scored; models in first-seen order.

    Sets of one column that disagree on the scores of one text (two seeds imported under one
    label) are never mixed: each version takes the set made from its own file (summary.json's
    ``data`` against :attr:`VersionData.data`) when that pairs them one to one, else each set is
    a column of its own, tagged with its folder (:class:`Column`)."""
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
    columns: list[Column] = []
    for key in sorted(groups, key=rank):
        group = groups[key]
        if len(group) == 1 or _consistent(group):
            columns.append(Column(tuple(group)))
            continue
        own = _own_sets(group, versions)
        if own is not None:
            columns.append(Column(tuple(group), own))
            continue
        tags = folder_tags([s.source for s in group])
        columns.extend(Column((s,), tag=tag) for s, tag in zip(group, tags, strict=True))
    return columns


def _consistent(sets: Sequence[ScoreSet]) -> bool:
    """No two of the sets give one pair text different scores."""
    seen: dict[tuple[Any, ...], tuple[float, float]] = {}
    for s in sets:
        for score in s.scores.values():
            key = (score.pair_id, score.sent_more, score.sent_less, score.direction)
            if seen.setdefault(key, (score.sent_more_score, score.sent_less_score)) != (
                score.sent_more_score,
                score.sent_less_score,
            ):
                return False
    return True


def _claimed(s: ScoreSet, versions: Sequence[VersionData]) -> list[int]:
    """The versions a set was made from: same file name and SHA-256, else same SHA-256."""
    if s.data is None:
        return []
    exact = [i for i, v in enumerate(versions) if v.data is not None and v.data == s.data]
    if exact:
        return exact
    return [i for i, v in enumerate(versions) if v.data is not None and v.data[1] == s.data[1]]


def _own_sets(
    sets: Sequence[ScoreSet], versions: Sequence[VersionData]
) -> tuple[ScoreSet | None, ...] | None:
    """Per version the one set made from its file, when every set names exactly one version
    and no two name the same; else ``None``."""
    claims = [_claimed(s, versions) for s in sets]
    if any(len(c) != 1 for c in claims) or len({c[0] for c in claims}) != len(claims):
        return None
    by_version = {c[0]: s for c, s in zip(claims, sets, strict=True)}
    return tuple(by_version.get(i) for i in range(len(versions)))


def folder_tags(sources: Sequence[str]) -> list[str]:
    """What tells score sets apart by where they are: the part of each summary.json's folder
    that differs from the others' (``sa`` and ``sb`` for ``sa/m/x/summary.json`` and
    ``sb/m/x/summary.json``); the whole folder when that is not unique."""
    parts = [Path(s).parent.parts for s in sources]
    lead = 0
    while all(len(p) > lead for p in parts) and len({p[lead] for p in parts}) == 1:
        lead += 1
    trail = 0
    while (
        all(len(p) - lead > trail for p in parts)
        and len({p[len(p) - 1 - trail] for p in parts}) == 1
    ):
        trail += 1
    tags = ["/".join(p[lead : len(p) - trail]) for p in parts]
    if any(not t for t in tags) or len(set(tags)) != len(tags):
        return [str(Path(s).parent) for s in sources]
    return tags


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
    """"N columns from M models" (a column is a model scored with one method), and the number
    of score sets when it is not the number of columns (two sets under one label)."""
    n_models = len({m.get("name", "") for m in models})
    columns = f"{len(models)} column{'s' if len(models) != 1 else ''}"
    text = f"{columns} from {n_models} model{'s' if n_models != 1 else ''}"
    owned = [m for m in models if "version_sources" in m]
    if owned:  # each version of these columns has a set of its own: say how many sets
        text += f", {sum(len(m.get('sources', ())) or 1 for m in models)} score sets"
    return text


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
    models = group_models(score_sets, versions)
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
        for column in models:
            per_version = []
            for v, pairs in enumerate(by_version):
                pair = pairs.get(pair_id)
                score = _matching_score(pair, column.serving(v)) if pair is not None else None
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
                "name": column.first.label,
                "method": str(column.first.provenance.get("method", "")),
                "model": str(column.first.provenance.get("model", "")),
                "kind": str(column.first.provenance.get("model_kind", "")),
                # how the method reads tokens and reduces them, from summary.json (the page
                # words its captions from these, so a new method needs no page change)
                "reduction": str(column.first.provenance.get("reduction", "")),
                "scope": str(column.first.provenance.get("tokens", "")),
                "counted": str(column.first.provenance.get("counted", "")),
                # the summary.json files whose rows fill the column (per version when each
                # version has its own set), and what tells it from a column of the same model
                "sources": [s.source for s in column.sets],
                **({"version_sources": [None if s is None else s.source for s in column.own]}
                   if column.own is not None else {}),
                **({"tag": column.tag} if column.tag else {}),
                # set by the caller that writes tokens/<i>.js for the model
                "tokens": False,
                # curate score --corpus: the model's (pseudo-)perplexity beside its metric
                **_capability(column.first.provenance),
                # colour, marker and glyph, as report.html draws the column too
                **styles[i],
            }
            for i, column in enumerate(models)
        ],
        # what the reader must know to trust the numbers: rows left out, sets told apart
        "notes": column_notes(models, versions),
        "codes": codes,
        "families": _families(codes),
        "rounds": [r.name for r in rounds],
        "threshold": {"default": DEFAULT_THRESHOLD, "min": 0.0, "max": 20.0, "step": 0.5},
        "rows": rows,
    }


def _capability(provenance: dict[str, Any]) -> dict[str, Any]:
    """The model's capability on a corpus (``curate score --corpus``), as the page shows it."""
    record = provenance.get("capability")
    if not isinstance(record, dict) or not _number(record.get("value")):
        return {}  # a NaN would make the page's JSON invalid, and says nothing
    corpus = record.get("corpus") if isinstance(record.get("corpus"), dict) else {}
    keys = ("measure", "value", "no_interval")
    interval = (
        {"low": record["low"], "high": record["high"]}
        if _number(record.get("low")) and _number(record.get("high"))
        and record["low"] <= record["value"] <= record["high"]
        else {}
    )
    return {
        "capability": {
            **{k: record[k] for k in keys if k in record},
            **interval,
            "corpus": str(corpus.get("name", "")),
        }
    }


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def model_labels(models: Sequence[Column]) -> list[str]:
    """A label per column, "model · method", unique: two models that share a short name (two
    directories called gpt2) are numbered in first-seen order, a model scored twice with one
    method in two precisions gets the dtype, and two score sets of one model and method that
    disagree (:class:`Column`) get their folder."""
    identities: list[tuple[str, str, str]] = []
    for column in models:
        ident = _identity(column.first)
        if ident not in identities:
            identities.append(ident)
    names: dict[tuple[str, str, str], str] = {}
    for ident in identities:
        same = [i for i in identities if i[0] == ident[0]]
        names[ident] = ident[0] if len(same) == 1 else f"{ident[0]} ({same.index(ident) + 1})"
    labels = []
    for column in models:
        label = f"{names[_identity(column.first)]} \u00b7 {column.first.provenance.get('method', '')}"
        labels.append(f"{label} ({column.tag})" if column.tag else label)
    return [
        f"{label} ({column.first.provenance.get('dtype', '')})" if labels.count(label) > 1 else label
        for label, column in zip(labels, models, strict=True)
    ]


def _identity(s: ScoreSet) -> tuple[str, str, str]:
    p = s.provenance
    return (s.label, str(p.get("model_fingerprint", "")), str(p.get("tokenizer_fingerprint", "")))


def _ids_text(ids: Sequence[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:10])
    return shown + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")


def _names_text(names: Sequence[str]) -> str:
    shown = ", ".join(names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def column_notes(models: Sequence[Column], versions: Sequence[VersionData]) -> list[str]:
    """Sentences the page and the command show above the numbers: rows left out of a column
    for non-finite scores (each set, with its pair ids), and score sets of one model and method
    that disagree, how they are shown (grouped, so 22 such models make one sentence)."""
    labels = model_labels(models)
    notes = []
    for label, column in zip(labels, models, strict=True):
        for s in column.sets:
            if s.non_finite:
                notes.append(
                    f"{label}: {len(s.non_finite)} row{'s' if len(s.non_finite) != 1 else ''} "
                    f"with a non-finite score (NaN or infinite) left out ({Path(s.source).parent / 'scores.csv'}): pair "
                    f"{_ids_text(s.non_finite)}"
                )
    split: dict[tuple[str, ...], list[str]] = {}
    owned: dict[tuple[str, ...], list[str]] = {}
    for label, column in zip(labels, models, strict=True):
        if column.tag:
            split.setdefault((column.tag,), []).append(label)
        if column.own is not None:
            files = tuple(
                "none" if s is None or s.data is None else s.data[0] for s in column.own
            )
            owned.setdefault(files, []).append(label)
    if split:
        tags = ", ".join(t for (t,) in split)
        names = sorted({n.rsplit(" (", 1)[0] for group in split.values() for n in group})
        many = len(names) != 1
        notes.append(
            f"{len(names)} model{'s' if many else ''} with one method {'have' if many else 'has'} "
            f"several score sets that give the same pairs different scores ({_names_text(names)}): "
            f"each set is a column of its own, told apart by its folder ({tags}), with the "
            "numbers of its own scores.csv"
        )
    for files, names in owned.items():
        which = "; ".join(
            f"{v.label}: the set made from {f}" for v, f in zip(versions, files, strict=True)
        )
        many = len(names) != 1
        notes.append(
            f"{len(names)} column{'s' if many else ''} hold{'' if many else 's'} two score sets "
            f"of one model and method that give the same pairs different scores "
            f"({_names_text(names)}): each version shows only the set made from its own file "
            f"({which})"
        )
    return notes
