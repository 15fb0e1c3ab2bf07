"""A diff report from score sets already on disk: no model is loaded, no pair is scored.

A study often has only the published per-pair outputs of its models (``curate score --import``)
or the ``curate score`` outputs of an earlier run: one score set per (model, method) on each
version. The report says the same about them as about models scored here (metric deltas with
their intervals, flips, McNemar, the threshold view, robust flips), because it is built by the
same :func:`curate.report.statistics.compare_scores` on the same alignment; only the sections'
``compute`` is absent (nothing was computed) and their ``provenance`` is the score sets'.

Finding the score sets and matching them to the versions (by the data file's SHA-256 that
``summary.json`` records) is the command's job, with the instrument commands' reader; this
module takes the matched scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from curate.pairs import Pair
from curate.report.alignment import VersionAlignment, align_versions
from curate.report.rescoring import ComparedVersion, numbered, report_data
from curate.report.schema import ModelSection, Report
from curate.report.statistics import Settings, compare_scores
from curate.score.metrics import PairScore


@dataclass(frozen=True)
class GivenColumn:
    """One (model, method) with a score set of each version, as read from disk."""

    #: the model as its summary.json names it (the label given to an import)
    model: str
    #: the model's short name in the report (an imported set: its label, as given)
    model_label: str
    method: str
    before: Mapping[int, PairScore]
    after: Mapping[int, PairScore]
    #: summary.json of each side without its ``summary`` (what made the scores)
    provenance: Mapping[str, Any] = field(default_factory=dict)
    #: where each side's score set is (its directory, as found below a --scores one)
    sources: tuple[str, str] = ("", "")


def missing_pairs(pairs: Sequence[Pair], scores: Mapping[int, PairScore]) -> list[int]:
    """The pair ids of ``pairs`` without a score in ``scores`` (rows an import skipped,
    non-finite scores): a column must cover every pair of its version to be compared."""
    return [p.pair_id for p in pairs if p.pair_id not in scores]


def unique_column_labels(coordinates: Sequence[tuple[str, str]]) -> list[str]:
    """``model · method`` per column, numbered when two columns would read the same."""
    return numbered([f"{model} · {method}" for model, method in coordinates])


def given_section(
    column: GivenColumn,
    label: str,
    before: ComparedVersion,
    after: ComparedVersion,
    alignment: VersionAlignment,
    settings: Settings,
) -> ModelSection:
    """The report's section of one column, from its scores on the versions' pairs."""
    before_scores = [column.before[p.pair_id] for p in before.pairs]
    after_scores = [column.after[p.pair_id] for p in after.pairs]
    return {
        "model": column.model,
        "label": label,
        "model_label": column.model_label,
        "method": column.method,
        "provenance": {
            **column.provenance,
            "score_sets": {"before": column.sources[0], "after": column.sources[1]},
        },
        **compare_scores(before_scores, after_scores, alignment, settings),
    }


def given_report(
    before: ComparedVersion,
    after: ComparedVersion,
    columns: Sequence[GivenColumn],
    settings: Settings = Settings(),
    scored: Sequence[ModelSection] = (),
) -> Report:
    """The report.json document of the given columns, then ``scored`` (the sections of models
    scored in this run by :func:`curate.report.rescoring.score_versions` on the same versions),
    labels kept apart. Every given column must cover every pair of its version
    (:func:`missing_pairs`); a ValueError says which does not."""
    for column in columns:
        for side, version, scores in (("before", before, column.before), ("after", after, column.after)):
            missing = missing_pairs(version.pairs, scores)
            if missing:
                raise ValueError(
                    f"{column.model} · {column.method}: no score for {len(missing)} pairs of "
                    f"{side} ({version.label})"
                )
    alignment = align_versions(before.pairs, after.pairs, before.fields & after.fields)
    scored = list(scored)
    labels = unique_column_labels(
        [(c.model_label, c.method) for c in columns]
        + [(str(s.get("model_label", s["label"])), str(s.get("method", ""))) for s in scored]
    )
    sections = [
        given_section(c, label, before, after, alignment, settings)
        for c, label in zip(columns, labels, strict=False)
    ]
    for section, label in zip(scored, labels[len(columns):], strict=True):
        if "model_label" in section and "method" in section:
            section = {**section, "label": label}  # type: ignore[assignment]
        sections.append(section)
    return report_data(before, after, alignment, settings, sections)
