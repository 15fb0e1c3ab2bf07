"""StereoSet as a :class:`~curate.benchmarks.spec.Benchmark`: its JSON release (intrasentence
items read as pairs, intersentence items kept), its own scoring route and metrics (LMS, SS,
ICAT: stereoset-mlm / stereoset-clm), its diff-report, its per-domain statistics, and a lint
profile without the CrowS-Pairs rules whose premise is a group swap.
"""

from __future__ import annotations

from typing import Any

from curate.benchmarks.spec import Benchmark, Scoring
from curate.benchmarks.stereoset.columns import COLUMNS, DOMAINS
from curate.benchmarks.stereoset.headline import stereoset_headline
from curate.benchmarks.stereoset.io import FORMATS, SUFFIXES, detect, read, write
from curate.benchmarks.stereoset.items import StereoSetItem
from curate.benchmarks.stereoset.lint import PROFILE
from curate.benchmarks.stereoset.methods import OWN_METHODS
from curate.benchmarks.stereoset.stats import render_stats, stereoset_stats


def _score_file(*args: Any, **kwargs: Any) -> None:
    # the front end loads the scoring stack (torch); import it only when a StereoSet file is scored
    from curate.benchmarks.stereoset.frontend import score_stereoset_file

    score_stereoset_file(*args, **kwargs)


def _diff_report(*args: Any, **kwargs: Any) -> None:
    from curate.benchmarks.stereoset.frontend import diff_report_stereoset

    diff_report_stereoset(*args, **kwargs)


BENCHMARK = Benchmark(
    name="stereoset",
    title="StereoSet",
    formats=FORMATS,
    output_formats=FORMATS,
    suffixes=SUFFIXES,
    detect=detect,
    read=read,
    write=write,
    release_note=(
        "lm-evaluation-harness has no task of StereoSet's shape (a context with three options "
        "and the LMS/SS/ICAT metrics), so this release has no `lm_eval/` folder; 🤗 datasets "
        "reads the JSON document but not as items, since every item nests its sentences. Read "
        "it with `json.load` (the upstream `dev.json` layout: `data.intrasentence` and "
        "`data.intersentence`, each item with its `sentences` and their `gold_label`), or with "
        "`curate.datasets.read_dataset(FILE)`, and score it with `curate score` (stereoset-mlm "
        "or stereoset-clm)."
    ),
    item_type=StereoSetItem,
    columns=COLUMNS,
    labels=DOMAINS,
    lint=PROFILE,
    scoring=Scoring(
        pair_methods=False,
        # its own methods (curate.score.methods.METHODS), each kind's official one first
        methods=OWN_METHODS,
        choice="stereoset-mlm (masked LMs) or stereoset-clm (causal LMs), chosen by the model",
        score_file=_score_file,
        diff_report=_diff_report,
        headline=stereoset_headline,
    ),
    stats=stereoset_stats,
    report_section=render_stats,
    fetch_sources=("stereoset-dev",),
)
