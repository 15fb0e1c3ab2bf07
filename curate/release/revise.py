"""Revise: raw pairs + safe lint autofixes + curation decisions -> revised pairs + change records.

Order is fixed: the recipe's autofixes first, then its decision sources in recipe order. A
decision's sentences are final (a person wrote or approved them), so they replace the autofixed
text of the fields they set. Two decisions for one pair must agree (lead to the same pair); if
they do not, revising stops with an error naming both sources, unless the later source is marked
``override``, which is how an adjudication file settles a disagreement on purpose. ``undecided``
decisions change nothing and never conflict.

Every pair whose sentences or labels end up different from the raw file gets a change record
(``changes.jsonl``), and only those::

    {"pair_id": 3, "item_id"?, "change": "edited" | "relabelled" | "edited+relabelled" | "dropped",
     "old": {"sent_more": ...}, "new": {"sent_more": ...} | null,
     "lint": [{"code", "rule", "field", "old", "new"}, ...],
     "decisions": [{"source", "file", "line", "action", "round", "reason"?, "votes", "n_annotators"}]}

``old``/``new`` hold the changed fields under the upstream column names (``stereo_antistereo``
for the direction); ``item_id`` is the item's own id where it has one (StereoSet, whose pair
ids derive from it); a dropped pair keeps its id and ``old`` holds all four fields. ``lint`` lists
the fixes whose result survives into the release (a fix whose field a decision then rewrote, or
of a pair that was dropped, is not a reason for the final text); ``decisions`` lists the decisions
that changed the pair (agreeing duplicates included).

The raw file may be in any shape :mod:`curate.formats` reads (``[source] format`` of the recipe
forces one); :meth:`Revision.dataset_bytes` writes the revised pairs in the raw file's shape,
extra columns and StereoSet fields included, or in another shape on request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate import sources as sources_lib
from curate.benchmarks import Benchmark
from curate.benchmarks.crows_pairs.upstream import COLUMN_OF
from curate.config import Config
from curate.datasets import dataset_files, format_dataset, format_pairs, pairs_only, read_dataset
from curate.decisions import ACTIONS, Decision
from curate.errors import ChecksumError, InputError
from curate.fileio import input_exists, sha256_file
from curate.formats import Dataset, log_warnings
from curate.jsonl import dumps_line, read_jsonl_objects
from curate.lint import AppliedFix, LintSettings, fix_pairs
from curate.pairs import BY_POSITION_NOTE, EDITABLE_FIELDS, TEXT_FIELDS, Pair
from curate.release.recipe import DecisionSource, Recipe, recipe_source

#: The upstream columns of the sentences (what a correction edits).
TEXT_COLUMNS = frozenset(COLUMN_OF[name] for name in TEXT_FIELDS)

#: Called with (pairs done, total pairs) while the autofixes run.
ProgressCallback = Callable[[int, int], None]
_CHUNK = 64
CHANGE_KINDS = ("edited", "relabelled", "edited+relabelled", "dropped")
CHANGES_NAME = "changes.jsonl"


class DecisionConflict(InputError):
    """Two decisions for one pair disagree."""


@dataclass(frozen=True)
class SourcedDecision:
    """A decision with the file and line it came from."""

    decision: Decision
    source: DecisionSource
    line: int

    @property
    def where(self) -> str:
        return f"{self.source.file or self.source.label} line {self.line}"

    def to_dict(self) -> dict[str, Any]:
        d = self.decision
        record: dict[str, Any] = {
            "source": self.source.label,
            "file": self.source.file,
            "line": self.line,
            "action": d.action,
            "round": d.round,
        }
        if d.reason is not None:
            record["reason"] = d.reason
        record.update(votes=d.votes, n_annotators=d.n_annotators)
        return record


@dataclass(frozen=True)
class Change:
    """What happened to one pair between the raw file and the release, and why."""

    pair_id: int
    change: str
    old: dict[str, str]
    new: dict[str, str] | None
    lint: tuple[AppliedFix, ...] = ()
    decisions: tuple[SourcedDecision, ...] = ()
    #: The item's own id (StereoSet); None for pairs without one.
    item_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        own = {"item_id": self.item_id} if self.item_id is not None else {}
        return {
            "pair_id": self.pair_id,
            **own,
            "change": self.change,
            "old": self.old,
            "new": self.new,
            "lint": [
                {"code": f.code, "rule": f.rule, "field": f.field, "old": f.old, "new": f.new}
                for f in self.lint
            ],
            "decisions": [d.to_dict() for d in self.decisions],
        }


@dataclass(frozen=True)
class Revision:
    """The outcome of a recipe: revised pairs (raw order, dropped ones removed) and changes."""

    recipe: Recipe
    source: sources_lib.Source
    raw: list[Pair]
    pairs: list[Pair]
    changes: list[Change]
    #: Decisions read from every source, per action (including keep and undecided).
    decisions_read: dict[str, int] = field(default_factory=dict)
    #: Hashes of everything the revision read: the raw file, the recipe, the decision files.
    inputs: dict[str, Any] = field(default_factory=dict)
    #: The raw file as read (its shape, extra columns, StereoSet document); None: bare pairs.
    dataset: Dataset | None = field(default=None, compare=False, repr=False)

    @property
    def warnings(self) -> list[str]:
        """What the commands show before writing: revised sentences a spreadsheet would run."""
        return formula_edits(self.changes)

    def csv_text(self) -> str:
        """The revised pairs in the upstream CSV schema (what a release publishes)."""
        return format_pairs(self.pairs)

    def dataset_bytes(self, output_format: str | None = None) -> bytes:
        """The revised pairs in ``output_format``, by default the raw file's own shape; every
        column the raw file had is kept (upstream input gives the upstream CSV)."""
        base = self.dataset if self.dataset is not None else pairs_only(self.raw)
        return format_dataset(base.with_pairs(self.pairs), output_format)

    def benchmark(self) -> Benchmark:
        """The benchmark the raw file was read as: the pair-file benchmark (CrowS-Pairs, the
        fallback) for bare pairs, which gets the CSV/Parquet/🤗/lm_eval release; any other
        benchmark gets its own shape."""
        from curate import benchmarks

        if self.dataset is None:
            return benchmarks.get(benchmarks.DEFAULT)
        return benchmarks.benchmark_of(self.dataset)

    def data_stem(self) -> str:
        """The revised data's name before its suffix, as a release names it:
        ``crows_pairs_revised`` for the pair-file benchmark, ``<benchmark>_revised``
        (``stereoset_revised``, ``winobias_revised``) for one with its own shape."""
        from curate.release.versions import CSV_NAME, own_stem

        own = self.benchmark()
        return Path(CSV_NAME).stem if own.fallback else own_stem(own)

    def dataset_files(self, stem: str, output_format: str | None = None) -> dict[str, bytes]:
        """:meth:`dataset_bytes` as files by relative name (a WinoBias folder: ``stem/`` and
        its text files; any one-file shape: ``stem`` + its suffix)."""
        base = self.dataset if self.dataset is not None else pairs_only(self.raw)
        return dataset_files(base.with_pairs(self.pairs), stem, output_format)

    def output_shape(self, output_format: str | None = None) -> str:
        """The shape :meth:`dataset_bytes` writes (``upstream`` for the upstream CSV)."""
        base = self.dataset if self.dataset is not None else pairs_only(self.raw)
        return output_format or base.shape.name

    def changes_text(self) -> str:
        return format_changes(self.changes)


def format_changes(changes: Sequence[Change]) -> str:
    """changes.jsonl text: one record per changed pair, by pair id."""
    return "".join(dumps_line(c.to_dict()) + "\n" for c in sorted(changes, key=lambda c: c.pair_id))


def read_changes(path: Path) -> list[dict[str, Any]]:
    """The records of a changes.jsonl file as dicts."""
    return [record for _, record in read_jsonl_objects(path)]


# -- decisions -------------------------------------------------------------------------------


def read_decision_source(source: DecisionSource) -> list[SourcedDecision]:
    """Read one decision file; hand-written files need a non-empty ``reason`` per entry."""
    path = source.path
    if not input_exists(path):
        hint = (
            f"; run `curate annotations tally --round {source.name}`"
            if source.kind == "round"
            else ""
        )
        raise InputError(f"{source.file or path}: no such decisions file{hint}")
    records: list[SourcedDecision] = []
    for number, value in read_jsonl_objects(path, str(source.file or path)):
        where = f"{source.file or path}: line {number}"
        try:
            decision = Decision.from_dict(value)
        except (ValueError, TypeError) as exc:
            raise InputError(f"{where}: {exc}") from None
        if source.hand_written and not (decision.reason or "").strip():
            raise InputError(
                f"{where}: pair {decision.pair_id}: a hand-written decision needs a "
                '"reason" saying why'
            )
        for name in TEXT_FIELDS:
            value = getattr(decision, name)
            if value is not None and not value.strip():
                raise InputError(f"{where}: pair {decision.pair_id}: {name} is empty")
        records.append(SourcedDecision(decision, source, number))
    return records


def apply_decision(pair: Pair, decision: Decision) -> Pair | None:
    """The pair after ``decision`` (None when dropped)."""
    if decision.action == "drop":
        return None
    if decision.action in {"keep", "undecided"}:
        return pair
    changes = {
        name: getattr(decision, name)
        for name in EDITABLE_FIELDS
        if getattr(decision, name) is not None
    }
    return pair.with_changes(**changes)


def _describe(sd: SourcedDecision) -> str:
    d = sd.decision
    details = [
        f"{name} {getattr(d, name)!r}"
        for name in EDITABLE_FIELDS
        if getattr(d, name) is not None
    ]
    return f"{sd.where} says {d.action}" + (f" ({', '.join(details)})" if details else "")


def _by_position(pairs: dict[int, Pair], decision: Decision) -> str:
    """Why a decision naming a small pair id misses items that have their own ids."""
    if decision.item_id is None and any(p.item_id for p in pairs.values()):
        return f" ({BY_POSITION_NOTE})"
    return ""


def resolve_decisions(
    pairs: dict[int, Pair], sources: Sequence[tuple[DecisionSource, Sequence[SourcedDecision]]]
) -> dict[int, list[SourcedDecision]]:
    """The decisions that apply to each pair, checked for conflicts, in recipe order."""
    chosen: dict[int, list[SourcedDecision]] = {}
    outcome: dict[int, Pair | None] = {}
    for source, decisions in sources:
        for sd in decisions:
            d = sd.decision
            if d.action == "undecided":
                continue
            if d.pair_id not in pairs:
                raise InputError(f"{sd.where}: {d.label} is not in the raw file{_by_position(pairs, d)}")
            result = apply_decision(pairs[d.pair_id], d)
            previous = chosen.get(d.pair_id)
            if previous is None or (source.override and previous[0].source != source):
                chosen[d.pair_id] = [sd]
                outcome[d.pair_id] = result
            elif result == outcome[d.pair_id]:
                previous.append(sd)
            else:
                raise DecisionConflict(
                    f"conflicting decisions for pair {d.pair_id}: {_describe(previous[0])}, "
                    f"but {_describe(sd)}; make them agree, or mark the later source "
                    "override = true in the recipe"
                )
    return chosen


# -- revision --------------------------------------------------------------------------------


def autofix(
    pairs: Sequence[Pair],
    codes: Sequence[str],
    progress: ProgressCallback | None = None,
    language: str = "en",
) -> tuple[list[Pair], list[AppliedFix]]:
    """Apply the selected safe lint fixes, in chunks so a progress bar can follow
    (``language``: the pairs'; a fix written for another language is not applied)."""
    if not codes:
        if progress:
            progress(len(pairs), len(pairs))
        return list(pairs), []
    settings = LintSettings(select=tuple(codes), language=language)
    fixed: list[Pair] = []
    applied: list[AppliedFix] = []
    for start in range(0, len(pairs), _CHUNK):
        result = fix_pairs(pairs[start : start + _CHUNK], settings)
        fixed.extend(result.pairs)
        applied.extend(result.applied)
        if progress:
            progress(len(fixed), len(pairs))
    return fixed, applied


def _values(pair: Pair) -> dict[str, str]:
    """The editable fields of ``pair`` under their upstream column names."""
    return {COLUMN_OF[name]: getattr(pair, name) for name in EDITABLE_FIELDS}


def build_change(
    raw: Pair,
    fixed: Pair,
    final: Pair | None,
    fixes: Sequence[AppliedFix],
    decisions: Sequence[SourcedDecision],
) -> Change | None:
    """The change record of one pair, or None when its fields equal the raw ones."""
    effective = tuple(sd for sd in decisions if sd.decision.action not in {"keep", "undecided"})
    if final is None:
        return Change(
            raw.pair_id, "dropped", _values(raw), None, (), effective, item_id=raw.item_id
        )
    changed = [name for name in EDITABLE_FIELDS if getattr(raw, name) != getattr(final, name)]
    if not changed:
        return None
    edited = any(name in TEXT_FIELDS for name in changed)
    relabelled = any(name not in TEXT_FIELDS for name in changed)
    kind = "edited+relabelled" if edited and relabelled else "edited" if edited else "relabelled"
    surviving = tuple(f for f in fixes if getattr(final, f.field) == getattr(fixed, f.field))
    return Change(
        raw.pair_id,
        kind,
        {COLUMN_OF[name]: getattr(raw, name) for name in changed},
        {COLUMN_OF[name]: getattr(final, name) for name in changed},
        surviving,
        effective if final != fixed else (),
        item_id=raw.item_id,
    )


def revise_pairs(
    raw: Sequence[Pair],
    fixes: Sequence[str] = (),
    decision_sources: Sequence[tuple[DecisionSource, Sequence[SourcedDecision]]] = (),
    progress: ProgressCallback | None = None,
    language: str = "en",
) -> tuple[list[Pair], list[Change]]:
    """The pure core of :func:`revise`: revised pairs and change records, no files."""
    fixed, applied = autofix(raw, fixes, progress, language)
    by_id = {p.pair_id: p for p in fixed}
    chosen = resolve_decisions(by_id, decision_sources)
    fixes_of: dict[int, list[AppliedFix]] = {}
    for f in applied:
        fixes_of.setdefault(f.pair_id, []).append(f)
    revised: list[Pair] = []
    changes: list[Change] = []
    for original, current in zip(raw, fixed, strict=True):
        decisions = chosen.get(current.pair_id, [])
        final = apply_decision(current, decisions[0].decision) if decisions else current
        if final is not None:
            revised.append(final)
        change = build_change(
            original, current, final, fixes_of.get(current.pair_id, []), decisions
        )
        if change is not None:
            changes.append(change)
    return revised, changes


def raw_path(
    recipe: Recipe,
    cfg: Config,
    source: sources_lib.Source,
    raw: Path | None,
    members: tuple[sources_lib.Source, ...] = (),
) -> Path:
    """The raw file to read (``raw`` or data/raw/<file>), verified against the recipe's pin
    (a folder source: each member file against its own pin, the folder against the recipe's)."""
    if members:
        return _raw_folder(recipe, cfg, source, raw, members)
    path = Path(raw) if raw is not None else cfg.sources.parent / source.relpath
    if not path.is_file():
        hint = "" if raw is not None else f"; run `curate fetch {source.name}` first"
        raise InputError(f"{path}: no such file{hint}")
    digest = sha256_file(path)
    if digest != recipe.sha256:
        where = f" ({recipe.path})" if recipe.path else ""
        raise ChecksumError(
            f"{path}: sha256 {digest} does not match the recipe's pinned {recipe.sha256}{where}; "
            f"the release must be built from the pinned {source.name} file"
        )
    return path


def _raw_folder(
    recipe: Recipe,
    cfg: Config,
    source: sources_lib.Source,
    raw: Path | None,
    members: tuple[sources_lib.Source, ...],
) -> Path:
    folder = Path(raw) if raw is not None else cfg.sources.parent / source.file
    if not folder.is_dir():
        hint = "" if raw is not None else f"; run `curate fetch {source.name}` first"
        raise InputError(f"{folder}: no such folder{hint}")
    for member in members:
        path = folder / member.file
        if not path.is_file():
            raise InputError(f"{path}: no such file; run `curate fetch {source.name}` first")
        if sha256_file(path) != member.sha256:
            raise ChecksumError(
                f"{path}: sha256 does not match its pin in the source registry ({member.name}); "
                f"the release must be built from the pinned {source.name} files"
            )
    if source.sha256 != recipe.sha256:
        where = f" ({recipe.path})" if recipe.path else ""
        raise ChecksumError(
            f"{folder}: the pinned files of {source.name} give sha256 {source.sha256}, not the "
            f"recipe's {recipe.sha256}{where}"
        )
    return folder


def formula_edits(changes: Sequence[Change]) -> list[str]:
    """One warning per revised sentence that begins with a spreadsheet formula character: an
    annotator's correction (or a fix) that becomes a release cell a spreadsheet would run.
    The cell is released as written (a dataset cell is data, never altered silently); the
    warning says where it came from, so it can be checked before the release is shared."""
    from curate.cells import starts_formula

    warnings = []
    for change in changes:
        for column, text in (change.new or {}).items():
            if column in TEXT_COLUMNS and starts_formula(text) and text != change.old.get(column):
                origin = "; ".join(sd.where for sd in change.decisions) or "a lint fix"
                warnings.append(
                    f"pair {change.pair_id}: the revised {column} begins with {text[0]!r}, a "
                    f"spreadsheet formula character (from {origin}); a spreadsheet opening the "
                    "release would run it as a formula: check it (lint rule T012)"
                )
    return warnings


def revise(
    recipe: Recipe,
    cfg: Config,
    raw: Path | None = None,
    progress: ProgressCallback | None = None,
) -> Revision:
    """Apply ``recipe``: verify and read the raw file, autofix, apply decisions."""
    registry = sources_lib.load_sources(cfg.sources)
    source, members = recipe_source(registry, recipe.source)
    path = raw_path(recipe, cfg, source, raw, members)
    dataset = read_dataset(path, recipe.input_format)
    log_warnings(dataset.warnings)
    raw_pairs = list(dataset.pairs)
    loaded = [(src, read_decision_source(src)) for src in recipe.decisions]
    pairs, changes = revise_pairs(
        raw_pairs, recipe.fixes, loaded, progress, dataset.language or "en"
    )
    read = Counter(sd.decision.action for _, decisions in loaded for sd in decisions)
    inputs = {
        "source": {
            "name": source.name,
            "file": source.file,
            "sha256": recipe.sha256,
            "url": source.url,
            "license": source.license,
            "citation": source.citation,
        },
        "recipe_sha256": recipe.digest(),
        "decisions": [
            {"source": src.label, "file": src.file, "sha256": sha256_file(src.path)}
            for src in recipe.decisions
        ],
    }
    return Revision(
        recipe=recipe,
        source=source,
        raw=raw_pairs,
        pairs=pairs,
        changes=changes,
        decisions_read={a: read.get(a, 0) for a in ACTIONS},
        inputs=inputs,
        dataset=dataset,
    )


def summarize_changes(changes: Sequence[Change]) -> dict[str, Any]:
    """Counts per change kind, per lint rule (pairs and fixes) and per decision action (pairs).

    The data card and the manifest use exactly these numbers, so they match changes.jsonl.
    """
    return summarize_change_records([c.to_dict() for c in changes])


def summarize_change_records(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """:func:`summarize_changes` over change records as read back from changes.jsonl."""
    kinds = Counter(r["change"] for r in records)
    rules: dict[str, dict[str, Any]] = {}
    for r in records:
        for code in sorted({f["code"] for f in r["lint"]}):
            entry = rules.setdefault(
                code,
                {
                    "rule": next(f["rule"] for f in r["lint"] if f["code"] == code),
                    "pairs": 0,
                    "fixes": 0,
                },
            )
            entry["pairs"] += 1
        for f in r["lint"]:
            rules[f["code"]]["fixes"] += 1
    actions = Counter(r["decisions"][0]["action"] for r in records if r["decisions"])
    rounds = Counter(r["decisions"][0]["source"] for r in records if r["decisions"])
    return {
        "changed_pairs": len(records),
        "changes": {k: kinds.get(k, 0) for k in CHANGE_KINDS},
        "lint": dict(sorted(rules.items())),
        "decisions": {a: actions[a] for a in ACTIONS if actions.get(a)},
        "decision_sources": dict(sorted(rounds.items())),
    }
