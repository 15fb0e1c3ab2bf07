"""What a benchmark is, as data: the one interface commands and stages ask instead of branching.

A benchmark package (``curate.benchmarks.<name>``) exposes ``BENCHMARK``, a :class:`Benchmark`
built from the pieces below. Commands never test a benchmark's name or a file's shape: they
detect the benchmark of an input (:func:`curate.benchmarks.detect`) and call what it declares.

Everything optional has a shared default, so a benchmark of sentence pairs (CrowS-Pairs,
WinoBias) declares little beyond its reader, its columns and its lint profile; a benchmark with
its own design (StereoSet: three options per context, its own LMS/SS/ICAT metrics) plugs its own
scoring route, diff-report and statistics in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curate.columns import Column
from curate.lint.profiles import LintProfile, LintTarget

if TYPE_CHECKING:
    from curate.formats.dataset import Dataset
    from curate.lint.rule import Rule
    from curate.pairs import Pair


@dataclass(frozen=True, slots=True)
class Frontend:
    """What the command layer lends a benchmark's own ``curate score`` / ``diff-report`` route.

    A benchmark package sits below the commands, so its route never imports the CLI: the
    command that dispatches to it hands over its consoles (``out`` for results, ``err`` for
    progress and notes), how it prints JSON and a reader's warnings, and its progress runners
    (``prepare_scoring(dtype)``, ``run_scoring(run, unit=)``, ``run_comparison(run, unit=,
    cached=)`` of :mod:`curate.commands.scoring`), and the corpus of ``--corpus``.
    """

    out: Any
    err: Any
    print_json: Callable[[Any], None]
    print_warnings: Callable[[Dataset], Any]
    prepare_scoring: Callable[[str | None], None]
    run_scoring: Callable[..., Any]
    run_comparison: Callable[..., Any]
    #: ``curate score --corpus``: the corpus (:class:`curate.score.corpus.Corpus`) whose
    #: (pseudo-)perplexity a route writes beside its metrics as ``capability``; a route that
    #: does not measure it ignores it (the command then says so).
    corpus: Any = None


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a benchmark is scored and compared across versions.

    ``methods``: the scoring methods (:data:`curate.score.methods.METHODS`) that fit it;
    ``pair_methods``: whether every sentence-pair method applies too (then the shared pair route
    of ``curate score`` / ``diff-report`` is used). ``score_file`` / ``diff_report``: the
    benchmark's own route (``None``: the shared pair route), each given a :class:`Frontend` as
    ``frontend=``. Their signatures are those of
    :func:`curate.benchmarks.stereoset.frontend.score_stereoset_file` and
    :func:`curate.benchmarks.stereoset.frontend.diff_report_stereoset`.
    ``groups``: the larger groups a ``bias_type`` label belongs to, each reported as one more
    row of the metric (``summary.json``'s ``groups``, rows of ``curate score``'s table), e.g.
    WinoBias' subset ``type1-dev`` in ``type1`` (dev and test together); ``None``: none.
    """

    pair_methods: bool = True
    methods: tuple[str, ...] = ()
    #: How the own route chooses among ``methods`` (for messages).
    choice: str = ""
    score_file: Callable[..., None] | None = None
    diff_report: Callable[..., None] | None = None
    groups: Callable[[str], tuple[str, ...]] | None = None
    #: The headline metrics of one output document (summary.json, or the own route's file),
    #: for the cross-benchmark view (``curate across``): a list of :func:`headline` records.
    #: ``None``: :func:`pair_headline`, which reads the shared pair route's summary.json (and
    #: a document's own ``headline`` list, for a route that writes one).
    headline: Callable[[dict[str, Any]], list[dict[str, Any]]] | None = None


def headline(
    metric: str,
    value: float | None,
    n: int,
    *,
    low: float | None = None,
    high: float | None = None,
    no_interval: str = "",
    interval: str = "",
    ideal: float | None = None,
    better: str = "closer",
    kind: str = "bias",
) -> dict[str, Any]:
    """One headline metric of a benchmark's output, as the cross-benchmark view reads it:
    ``better`` is ``closer`` (to ``ideal``: a bias score, 50 for a preference rate),
    ``higher`` or ``lower``; ``kind``: ``bias`` (combined across benchmarks), ``capability``
    or ``mixed`` (StereoSet's ICAT); ``interval``: how the interval was computed."""
    record: dict[str, Any] = {
        "metric": metric, "value": value, "n": n, "better": better, "kind": kind,
    }
    if ideal is not None:
        record["ideal"] = ideal
    if low is not None and high is not None:
        record.update(low=low, high=high, interval=interval)
    elif no_interval:
        record["no_interval"] = no_interval
    return record


def pair_headline(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The shared pair route's headline: the metric score (% of pairs preferring the more
    stereotyping sentence, ideal 50) with the Wilson interval of biased / pairs, named by the
    method; a document that lists its own ``headline`` records gives those instead."""
    if isinstance(document.get("headline"), list):
        return list(document["headline"])
    summary = document.get("summary")
    if not isinstance(summary, dict) or "metric_score" not in summary:
        return []
    from curate.intervals import proportion

    interval = proportion(int(summary.get("biased", 0)), int(summary.get("pairs", 0)))
    return [
        headline(
            str(document.get("method", "metric")),
            summary["metric_score"],
            int(summary.get("pairs", 0)),
            low=None if interval.low is None else 100 * interval.low,
            high=None if interval.high is None else 100 * interval.high,
            no_interval=interval.no_interval,
            interval="wilson (biased / pairs)",
            ideal=50.0,
        )
    ]


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One benchmark: how its files are read, checked, counted, scored and fetched.

    - ``name`` (kebab-case, stable: stored in datasets and reports), ``title`` (for people).
    - ``formats``: the input formats (``--input-format`` values) its reader takes; the first is
      what detection returns for its native files.
    - ``detect(data, path)``: the format of a file's bytes if it is this benchmark's, else
      ``None``. Detection asks every benchmark in registry order; the ``fallback`` benchmark
      (CrowS-Pairs: any delimited text) is asked last, and takes what no other claims.
    - ``read(path, source, fmt)`` -> :class:`~curate.formats.dataset.Dataset`;
      ``write(dataset, fmt)`` -> bytes; ``output_formats``: formats ``write`` produces.
      ``write_files(dataset, fmt)`` -> {relative file name: bytes}: for a format that is a
      folder of files (WinoBias' text files), which ``write`` cannot return as one file;
      ``None``: every format is one file (:func:`curate.formats.dataset_files` asks this).
    - ``release_note``: what a release's card says about loading the benchmark's own files
      with 🤗 datasets or lm-evaluation-harness when the release is in its own shape (no
      ``lm_eval/`` task fits it); empty for the pair-file benchmark, whose release has both.
    - ``item_type``: what one item is (``Pair``, or e.g. ``StereoSetItem``).
    - ``columns``: the column table every reader and writer of the benchmark uses.
    - ``labels``: the known ``bias_type`` values, in the order reports list them.
    - ``lint``: its :class:`LintProfile`; ``scoring``: its :class:`Scoring`.
    - ``stats(pairs, items)``: extra figures for ``curate stats`` (a JSON-able dict stored under
      the benchmark's name; ``items``: what the reader kept beside the pairs, e.g. StereoSet's
      intersentence items); ``report_section(figures, console)``: renders them. The shared
      figures (bias types and directions, lengths, validator agreement) need nothing.
    - ``fetch_sources``: names in ``data/sources.toml`` that ``curate fetch`` gets for it.
    """

    name: str
    title: str
    formats: tuple[str, ...]
    detect: Callable[[bytes, Path | None], str | None]
    read: Callable[[Path, str, str], Dataset]
    write: Callable[[Dataset, str], bytes]
    item_type: type
    columns: tuple[Column, ...]
    labels: tuple[str, ...] = ()
    output_formats: tuple[str, ...] = ()
    suffixes: dict[str, str] = field(default_factory=dict)
    lint: LintProfile = field(default_factory=LintProfile)
    scoring: Scoring = field(default_factory=Scoring)
    stats: Callable[[Sequence[Pair], Sequence[Any]], dict[str, Any]] | None = None
    report_section: Callable[[dict[str, Any], Any], None] | None = None
    fetch_sources: tuple[str, ...] = ()
    fallback: bool = False
    write_files: Callable[[Dataset, str], dict[str, bytes]] | None = None
    release_note: str = ""

    def lint_target(
        self, others: tuple[type[Rule], ...] = (), language: str = "en"
    ) -> LintTarget:
        """What a lint run on this benchmark's pairs is told (``others``: the other
        benchmarks' own rules; ``language``: the pairs' language)."""
        return LintTarget(self.name, self.title, self.labels, self.lint, others, language)

    def column_of(self, field_name: str) -> str:
        """The column that holds a :class:`~curate.pairs.Pair` field in this benchmark."""
        return next(c.name for c in self.columns if c.field == field_name)
