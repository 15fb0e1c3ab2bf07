"""CrowS-Pairs as a :class:`~curate.benchmarks.spec.Benchmark`: pair files in every shape
(upstream CSV byte for byte, TSV, JSON lines, Parquet, the Hugging Face layout), every shared
lint rule, every sentence-pair scoring method. It is the fallback of detection: delimited text
no other benchmark claims is read as CrowS-Pairs (and refused with its header's message).
"""

from __future__ import annotations

from curate.benchmarks.crows_pairs.columns import COLUMNS
from curate.benchmarks.crows_pairs.io import FORMATS, OUTPUT_FORMATS, SUFFIXES, detect, read, write
from curate.benchmarks.spec import Benchmark, LintProfile, Scoring
from curate.pairs import BIAS_TYPES, Pair

BENCHMARK = Benchmark(
    name="crows-pairs",
    title="CrowS-Pairs",
    formats=FORMATS,
    output_formats=OUTPUT_FORMATS,
    suffixes=SUFFIXES,
    detect=detect,
    read=read,
    write=write,
    item_type=Pair,
    columns=COLUMNS,
    labels=BIAS_TYPES,
    lint=LintProfile(),
    scoring=Scoring(pair_methods=True),
    fetch_sources=("crows-pairs",),
    fallback=True,
)
