"""The layout of ``report.json``, section by section, as typed dicts.

The report is built and stored as plain JSON-ready dicts (so that it can be written, read back
and rendered again without a model); these types say what each section holds, so that the
builders in :mod:`curate.report.statistics` / :mod:`curate.report.rescoring` and the renderers
in :mod:`curate.report.markdown` / :mod:`curate.report.html_page` agree on it, checked by a type
checker instead of by string paths.
"""

from __future__ import annotations

from typing import Any, NamedTuple, NotRequired, TypedDict


class GroupKey(NamedTuple):
    """Which pairs a metric counts: ``("overall", "")``, ``("direction", "stereo")`` or
    ``("bias_type", "race-color")``."""

    kind: str
    value: str = ""


OVERALL = GroupKey("overall")


class PairText(TypedDict):
    """The fields of a pair a reader needs (no annotator metadata)."""

    sent_more: str
    sent_less: str
    direction: str
    bias_type: str


class EditedEntry(TypedDict):
    pair_id: int
    fields: list[str]
    before: PairText
    after: PairText


class PairEntry(TypedDict, total=False):
    """A dropped or added pair: its id, and its text when the version's pairs were known."""

    pair_id: int
    sent_more: str
    sent_less: str
    direction: str
    bias_type: str


class AlignmentCounts(TypedDict):
    unchanged: int
    edited: int
    dropped: int
    added: int


class AlignmentSection(TypedDict):
    counts: AlignmentCounts
    edited_rescored: int
    edited: list[EditedEntry]
    dropped: list[PairEntry]
    added: list[PairEntry]


class SettingsSection(TypedDict):
    bootstrap_samples: int
    seed: int
    confidence: float
    thresholds: list[float]


class Delta(TypedDict):
    """A metric before and after, their difference and its bootstrap interval."""

    before: float | None
    after: float | None
    delta: float | None
    ci_low: float | None
    ci_high: float | None
    defined: int


class BiasTypeDelta(Delta):
    bias_type: str


class DeltaSection(TypedDict):
    overall: Delta
    directions: dict[str, Delta]
    bias_types: list[BiasTypeDelta]


class ScoredPairView(PairText):
    sent_more_score: float
    sent_less_score: float
    score: int


class Flip(TypedDict):
    pair_id: int
    fields: list[str]
    change: str
    before: ScoredPairView
    after: ScoredPairView


class FlipsSection(TypedDict):
    edited: int
    edited_rescored: int
    count: int
    rate: float | None
    to_biased: int
    to_not_biased: int
    pairs: list[Flip]


class McNemarSection(TypedDict):
    pairs: int
    table: list[list[int]]
    biased_to_not_biased: int
    not_biased_to_biased: int
    statistic: float
    p_value: float


#: Share (percent) of pairs per threshold label, one value per threshold.
ThresholdCurves = dict[str, list[float | None]]


class ThresholdSection(TypedDict):
    before: ThresholdCurves
    after: ThresholdCurves


class ScoreRow(TypedDict):
    pair_id: int
    sent_more_score: float
    sent_less_score: float
    score: int


class ScoresSection(TypedDict):
    before: list[ScoreRow]
    after: list[ScoreRow]


class Comparison(TypedDict):
    """What the report says about one model from its per-pair scores on both versions.

    ``before`` / ``after`` are :func:`curate.score.metrics.summarize` of each version.
    """

    before: dict[str, Any]
    after: dict[str, Any]
    delta: DeltaSection
    flips: FlipsSection
    mcnemar: McNemarSection
    threshold_curves: ThresholdSection
    scores: ScoresSection


class ComputeBefore(TypedDict):
    metric_py_passes: int
    unique_masked: int


class ComputeAfter(ComputeBefore):
    reused_from_before: int
    new: int


class ComputeSection(TypedDict):
    before: ComputeBefore
    after: ComputeAfter
    forward_passes_saved: int


class ModelSection(Comparison):
    """One column's section (a model scored with one method): which model and method, what
    produced its scores, and the comparison.

    Built key by key in the order of report.json (model, label, model_label, method,
    provenance, compute, then the comparison); a column read from score sets
    (``diff-report --scores``, :mod:`curate.report.given_scores`) has no ``compute``. ``label`` names the column; ``model_label`` and
    ``method`` its two coordinates (absent in reports written before there were methods).
    """

    model: str
    label: str
    model_label: NotRequired[str]
    method: NotRequired[str]
    provenance: dict[str, Any]
    #: what scoring cost; absent when the scores were read from score sets (nothing computed)
    compute: NotRequired[ComputeSection]
    #: ``diff-report --corpus``: the model's (pseudo-)perplexity on a corpus.
    capability: NotRequired[dict[str, Any]]


class RobustFlip(TypedDict):
    """A pair that flips under every column, with its change under each (in column order)."""

    pair_id: int
    changes: list[str]


class SingleFlip(TypedDict):
    """A pair that flips under one column only."""

    pair_id: int
    column: str
    change: str


class RobustFlipsSection(TypedDict):
    columns: list[str]
    every: list[RobustFlip]
    only_one: list[SingleFlip]


class VersionSummary(TypedDict):
    label: str
    pairs: int


class Report(TypedDict):
    """The report.json document."""

    format: str
    before: VersionSummary
    after: VersionSummary
    alignment: AlignmentSection
    settings: SettingsSection
    models: list[ModelSection]
    robust_flips: RobustFlipsSection
    instrument: NotRequired[dict[str, Any]]
