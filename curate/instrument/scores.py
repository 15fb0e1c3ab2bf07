"""The score columns an instrument statistic works on: one (model, method) on one data file.

``curate score`` (and ``curate score --import``) write ``scores.csv`` + ``summary.json`` per
(model, method); the summary names the data file and its SHA-256. The instrument commands take
any number of such output directories, find every score set below them and match each to a
dataset by that checksum, so a stale score set of another version of the file is never used.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from curate.errors import InputError
from curate.jsonl import loads_document
from curate.modelnames import model_label
from curate.score.metrics import PairScore


@dataclass(frozen=True)
class ScoreColumn:
    """The per-pair scores of one model with one method on one data file."""

    model: str
    method: str
    data_file: str
    data_sha256: str
    directory: Path
    provenance: dict[str, Any] = field(default_factory=dict, compare=False)
    scores: dict[int, PairScore] = field(default_factory=dict, compare=False)
    #: pair ids of rows left out because a score is NaN or infinite (never used by a statistic)
    non_finite: tuple[int, ...] = field(default=(), compare=False)
    #: the --scores folder this set was found under (to tell two sets of one label apart)
    found_under: Path | None = field(default=None, compare=False)
    #: the folder tag added to ``model`` when another set has the same label (see
    #: :func:`told_apart`); empty when the label alone names the set
    tag: str = field(default="", compare=False)

    @property
    def key(self) -> tuple[str, str]:
        """What makes two columns the same measurement on different files."""
        return (self.model, self.method)

    @property
    def label(self) -> str:
        """``name · method``: a local model by its directory's name (as the other reports)."""
        return f"{model_label(self.model)} · {self.method}"

    def verdict(self, pair_id: int) -> int | None:
        """1 when the model prefers sent_more, 0 otherwise, None without a score."""
        score = self.scores.get(pair_id)
        return None if score is None else score.score

    def gap(self, pair_id: int) -> float | None:
        """``sent_more_score - sent_less_score`` (positive: sent_more preferred)."""
        score = self.scores.get(pair_id)
        return None if score is None else score.sent_more_score - score.sent_less_score


def file_sha256(path: Path) -> str:
    """The SHA-256 ``curate score`` records for a data path: of the file, or of a folder dataset
    (WinoBias) as the checksum list of its files (:func:`curate.score.outputs.data_info`)."""
    path = Path(path)
    if path.is_dir():
        from curate.score.outputs import data_info

        return data_info(path)["sha256"]
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _finite_scores(scores: Iterable[PairScore]) -> tuple[dict[int, PairScore], tuple[int, ...]]:
    """The scores whose two numbers are finite, and the pair ids of the others (a NaN makes
    every comparison false, an infinity wins every one: both are damage, not verdicts)."""
    kept: dict[int, PairScore] = {}
    dropped = []
    for score in scores:
        # the verdict comes from ``compared`` (the rounded columns where the method rounds, the
        # full ones otherwise): a NaN in either pair of columns is damage, not a verdict
        numbers = (score.sent_more_score, score.sent_less_score, *score.compared)
        if all(math.isfinite(x) for x in numbers):
            kept[score.pair_id] = score
        else:
            dropped.append(score.pair_id)
    return kept, tuple(dropped)


def unused_inputs(columns: Iterable[ScoreColumn]) -> list[dict[str, Any]]:
    """What the statistics could not use of these score sets and why (JSON-ready)."""
    return [
        {
            "score_set": column.label,
            "directory": column.directory.name,
            "reason": "non-finite scores",
            "pair_ids": list(column.non_finite),
        }
        for column in columns
        if column.non_finite
    ]


def unused_lines(unused: Sequence[dict[str, Any]]) -> list[str]:
    """One sentence per unusable input, for a report's introduction."""
    lines = []
    for item in unused:
        ids = item["pair_ids"]
        shown = ", ".join(str(i) for i in ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
        lines.append(
            f"NOTE {item['score_set']}: {len(ids)} rows with non-finite scores (NaN or infinite) "
            f"left out of every statistic: pairs {shown}"
        )
    return lines


def find_score_columns(roots: Iterable[Path]) -> list[ScoreColumn]:
    """Every score set (``summary.json`` next to ``scores.csv``) below the given directories."""
    from curate.score.files import read_scores_csv

    columns = []
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            raise InputError(f"{root}: no such directory (expected a `curate score --out` one)")
        for summary_path in files_named(root):
            if not (summary_path.parent / "scores.csv").is_file():
                continue
            try:
                summary = loads_document(summary_path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                raise InputError(f"{summary_path}: not a readable summary.json ({exc})") from None
            data = summary.get("data") if isinstance(summary, dict) else None
            if not isinstance(data, dict) or "method" not in summary or "sha256" not in data:
                continue  # not a `curate score` summary (e.g. a StereoSet one): not a pair score
            wrong = [
                key
                for key, value in (
                    ("model", summary.get("model", "")), ("method", summary["method"]),
                    ("data.file", data.get("file", "")), ("data.sha256", data["sha256"]),
                )
                if not isinstance(value, str)
            ]
            if wrong:
                raise InputError(
                    f"{summary_path}: not a summary.json of `curate score` ({', '.join(wrong)} "
                    "must be text)"
                )
            scores, non_finite = _finite_scores(read_scores_csv(summary_path.parent / "scores.csv"))
            columns.append(
                ScoreColumn(
                    model=summary.get("model", summary_path.parent.name),
                    method=summary["method"],
                    data_file=data.get("file", ""),
                    data_sha256=data["sha256"],
                    directory=summary_path.parent,
                    provenance={k: v for k, v in summary.items() if k != "summary"},
                    scores=scores,
                    non_finite=non_finite,
                    found_under=root,
                )
            )
    return columns


def told_apart(columns: Sequence[ScoreColumn]) -> list[ScoreColumn]:
    """The score sets with every two sets of one label on one file told apart by their folder.

    A label (model, method) is not an identity: two seeds of one model imported twice, or two
    runs under two --scores folders, give two sets named alike on the same file. Keeping the
    first one silently (as a label-keyed table does) shows one set's numbers for both. Here
    each set of such a label, on every file, becomes ``model (folder)``: the --scores folder
    it was found under, or the folders between that and the set when the --scores folders share
    a name. The same folder reached twice (``-s out -s out/pairs``) is one set, kept once.
    Raises InputError when no folder tells them apart.
    """
    unique: dict[Path, ScoreColumn] = {}
    for column in columns:
        unique.setdefault(column.directory.resolve(), column)
    kept = list(unique.values())
    measures: dict[tuple[str, str, str], list[ScoreColumn]] = {}
    for column in kept:
        measures.setdefault((column.data_sha256, *column.key), []).append(column)
    clashing = {(model, method) for (_, model, method), sets in measures.items() if len(sets) > 1}
    if not clashing:
        return kept
    out = []
    for column in kept:
        if column.key not in clashing:
            out.append(column)
            continue
        group = [c for c in kept if c.key == column.key]
        tag = _folder_tag(column, group)
        out.append(replace(column, model=f"{model_label(column.model)} ({tag})", tag=tag))
    for (_, model, method), sets in measures.items():
        tags = [c for c in out if c.directory.resolve() in {s.directory.resolve() for s in sets}]
        if len({c.tag for c in tags}) < len(tags):
            raise InputError(
                f"{len(sets)} score sets of {model_label(model)} · {method} on {sets[0].data_file} "
                "that no folder tells apart: "
                + ", ".join(str(s.directory) for s in sets)
                + "; pass only one of them to --scores, or import one under another label"
            )
    return out


def _folder_tag(column: ScoreColumn, group: Sequence[ScoreColumn]) -> str:
    """The --scores folder's name, or the path from it to the set's data folder when the
    --scores folders of ``group`` share a name."""
    def path_of(c: ScoreColumn) -> str:
        if c.found_under is None:
            return str(c.directory)
        root = c.found_under
        inner = c.directory.relative_to(root).parts[:-3]  # minus <data>/<model>/<method>
        return "/".join((root.name, *inner))

    def root_name(c: ScoreColumn) -> str:
        return c.found_under.name if c.found_under else str(c.directory)

    per_file = [(c.data_sha256, root_name(c)) for c in group]
    if len(set(per_file)) == len(per_file):  # the --scores folder alone tells them apart
        return root_name(column)
    return path_of(column)


def told_apart_lines(columns: Iterable[ScoreColumn]) -> list[str]:
    """One sentence per method and set of folders for the labels that name two or more score
    sets (22 models imported twice are one line, not 22), for a report's introduction."""
    tags: dict[tuple[str, str], set[str]] = {}
    for column in columns:
        if column.tag:
            base = column.model[: -len(column.tag) - 3]
            tags.setdefault((base, column.method), set()).add(column.tag)
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for (model, method), found in tags.items():
        groups.setdefault((method, tuple(sorted(found))), []).append(model)
    return [
        f"NOTE {len(models)} model label(s) with {method} name {len(folders)} score sets each, "
        f"told apart by their folder ({', '.join(folders)}), e.g. {models[0]} ({folders[0]}): "
        + ", ".join(models)
        for (method, folders), models in groups.items()
    ]


def files_named(root: Path, name: str = "summary.json") -> list[Path]:
    """Every file ``name`` below ``root``, following symlinked folders (``Path.rglob`` does
    not, so a score folder linked into --scores was silently empty), each real folder once."""
    import os

    found = []
    seen: set[Path] = set()
    for folder, dirs, files in os.walk(root, followlinks=True):
        real = Path(folder).resolve()
        if real in seen:  # a link back up the tree, or two links to one folder
            dirs[:] = []
            continue
        seen.add(real)
        dirs.sort()
        if name in files:
            found.append(Path(folder) / name)
    return sorted(found)


def columns_for(path: Path, columns: Sequence[ScoreColumn]) -> list[ScoreColumn]:
    """The score columns computed on exactly this file (same SHA-256), one per (model, method)."""
    digest = file_sha256(path)
    out: dict[tuple[str, str], ScoreColumn] = {}
    for column in columns:
        if column.data_sha256 == digest:
            out.setdefault(column.key, column)
    return list(out.values())


@dataclass(frozen=True)
class ModelLevelScore:
    """One model's overall result on a benchmark that has no per-pair CrowS-Pairs metric
    (StereoSet's ``stereoset.json``): the SS, as a share, and where it came from."""

    model: str
    method: str
    data_file: str
    data_sha256: str
    value: float
    statistic: str


def find_stereoset_results(roots: Iterable[Path]) -> list[ModelLevelScore]:
    """Every ``stereoset.json`` of ``curate score`` below the directories: the overall SS
    (% of items whose stereotype is preferred; 50 = none), comparable with the CrowS metric."""
    out = []
    for root in roots:
        for path in files_named(Path(root), "stereoset.json"):
            out.append(_stereoset_result(path))
    return out


def _stereoset_result(path: Path) -> ModelLevelScore:
    """The overall SS of one ``stereoset.json``; any other content is one sentence."""
    def refuse(why: str) -> InputError:
        return InputError(f"{path}: not a readable stereoset.json of `curate score` ({why})")

    try:
        document = loads_document(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise refuse(str(exc)) from None
    data = document.get("data") if isinstance(document, dict) else None
    results = document.get("results") if isinstance(document, dict) else None
    overall = results.get("overall") if isinstance(results, dict) else None
    if not isinstance(data, dict) or not isinstance(overall, dict):
        raise refuse("expected the keys data and results.overall")
    ss = overall.get("ss")
    if isinstance(ss, bool) or not isinstance(ss, int | float) or not math.isfinite(ss):
        raise refuse("results.overall.ss must be a number")
    if not isinstance(data.get("sha256"), str):
        raise refuse("data.sha256 must be a string")
    model, method, file = (
        document.get("model", path.parent.parent.name), document.get("method", ""),
        data.get("file", ""),
    )
    if not all(isinstance(v, str) for v in (model, method, file)):
        raise refuse("model, method and data.file must be text")
    return ModelLevelScore(model, method, file, data["sha256"], float(ss) / 100.0, "SS")
