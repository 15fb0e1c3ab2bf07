"""WinoBias as a :class:`~curate.benchmarks.spec.Benchmark`: its pro/anti text files read as
pairs (the pro sentence plays ``sent_more``), a lint profile of its own rules (family ``B``) and
the shared spelling rules, every sentence-pair scoring method, per-subset statistics, and the
10 pinned source files.
"""

from __future__ import annotations

from curate.benchmarks.spec import Benchmark, LintProfile, Scoring
from curate.benchmarks.winobias.columns import COLUMNS
from curate.benchmarks.winobias.io import (
    FORMATS,
    NAME,
    SUBSETS,
    SUFFIXES,
    detect,
    read,
    write,
    write_files,
)
from curate.benchmarks.winobias.metrics import render_stats, type_of, winobias_stats
from curate.benchmarks.winobias.rules import RULES, SHARED_SELECT
from curate.pairs import Pair

#: The sources of ``data/raw/sources.toml`` that ``curate fetch winobias`` gets.
SOURCES: tuple[str, ...] = (
    *(
        f"winobias-{side}-type{t}-{split}"
        for side in ("anti", "pro")
        for t in (1, 2)
        for split in ("dev", "test")
    ),
    "winobias-female-occupations",
    "winobias-male-occupations",
)

BENCHMARK = Benchmark(
    name=NAME,
    title="WinoBias",
    formats=FORMATS,
    output_formats=FORMATS,
    suffixes=SUFFIXES,
    detect=detect,
    read=read,
    write=write,
    write_files=write_files,
    release_note=(
        "lm-evaluation-harness has no task of WinoBias' shape (pro/anti sentence pairs; its "
        "`winogender` tasks are other sentences), so this release has no `lm_eval/` folder. Read the text files with "
        "`curate.benchmarks.winobias.io.read_winobias(FOLDER)`, or pair line i of each "
        "`pro_stereotyped_*` file with line i of its `anti_stereotyped_*` twin (the brackets "
        "mark the mentions), and score them with `curate score`."
    ),
    item_type=Pair,
    columns=COLUMNS,
    labels=SUBSETS,
    lint=LintProfile(select=SHARED_SELECT, rules=RULES),
    scoring=Scoring(pair_methods=True, groups=type_of),
    stats=winobias_stats,
    report_section=render_stats,
    fetch_sources=SOURCES,
)
