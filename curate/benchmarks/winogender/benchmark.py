"""WinoGender as a :class:`~curate.benchmarks.spec.Benchmark`: its schema folder read as pairs
(the occupation's BLS-majority pronoun plays ``sent_more``), a lint profile of its own rules
(family ``R``) and the shared spelling rules, every sentence-pair scoring method plus its own
route (the pronoun preference per template, the correlation with % women, the harness's
multiple-choice accuracy), per-occupation statistics, and the 3 pinned source files.
"""

from __future__ import annotations

from typing import Any

from curate.benchmarks.spec import Benchmark, LintProfile, Scoring
from curate.benchmarks.winogender.columns import COLUMNS
from curate.benchmarks.winogender.io import (
    FORMATS,
    NAME,
    REFERENTS,
    SUFFIXES,
    detect,
    read,
    write,
    write_files,
)
from curate.benchmarks.winogender.methods import OWN_METHODS
from curate.benchmarks.winogender.rules import RULES, SHARED_SELECT, triple_items
from curate.benchmarks.winogender.stats import render_stats, winogender_stats
from curate.pairs import Pair

#: The sources of ``data/raw/sources.toml`` that ``curate fetch winogender`` gets.
SOURCES: tuple[str, ...] = ("winogender-templates", "winogender-sentences", "winogender-occupations")


def _score_file(*args: Any, **kwargs: Any) -> None:
    # the front end loads the scoring stack (torch): imported only when WinoGender is scored
    from curate.benchmarks.winogender.frontend import score_winogender_file

    score_winogender_file(*args, **kwargs)


BENCHMARK = Benchmark(
    name=NAME,
    title="WinoGender",
    formats=FORMATS,
    output_formats=FORMATS,
    suffixes=SUFFIXES,
    detect=detect,
    read=read,
    write=write,
    write_files=write_files,
    release_note=(
        "lm-evaluation-harness' `winogender_*` tasks read the Hugging Face copy "
        "`oskarvanderwal/winogender`, not these files, so this release has no `lm_eval/` folder. "
        "Read the folder with `curate.benchmarks.winogender.io.read_winogender(FOLDER)`, or "
        "`all_sentences.tsv` (`sentid<TAB>sentence`, the id `occupation.participant.answer."
        "gender.txt`) with any TSV reader, and score it with `curate score` (winogender-clm or "
        "winogender-mlm for the paper's measure and the harness's accuracy)."
    ),
    item_type=Pair,
    columns=COLUMNS,
    labels=REFERENTS,
    lint=LintProfile(select=SHARED_SELECT, rules=RULES, items=triple_items),
    scoring=Scoring(
        pair_methods=True,
        methods=OWN_METHODS,
        choice="winogender-clm (causal LMs) or winogender-mlm (masked LMs), chosen by the model",
        score_file=_score_file,
    ),
    stats=winogender_stats,
    report_section=render_stats,
    fetch_sources=SOURCES,
)
