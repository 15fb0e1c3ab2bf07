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

#: The measured precision of the default rules on the French and Dutch versions (pair level,
#: judged against benchmarks/crows_pairs_multilingual_lint_guidelines.md; recomputed by
#: benchmarks/crows_pairs_multilingual_lint_precision.py, which refuses when the sample moved).
#: How the judges read group contrasts (race vs nationality), stated in both notes. PLACEHOLDER
#: (issue 45): the lead replaces this with the reading of the fresh judged sample, with its figures.
GROUP_CONTRAST_READING = (
    "group contrasts read strictly, as the judging guidelines say: an ethnic or continent-wide "
    "group against one nationality is a defect, a continent-wide group against another is not"
)
LANGUAGE_PRECISION = {
    "fr": (
        "precision on the French CrowS-Pairs (Névéol et al. 2022), measured: 26 of 40 sampled "
        "flagged pairs hold a real defect for both of two judges (65%, Wilson 95% CI 50-78%; "
        f"kappa 0.94 between them; {GROUP_CONTRAST_READING}); most misses are group "
        "words the French lexicon lacks (S005) and colloquial words (W002). G001, G003 and the "
        "English-only typography and spelling rules do not run."
    ),
    "nl": (
        "precision on the Dutch CrowS-Pairs (Strazda & Spanakis 2025), measured: 28 of 40 "
        "sampled flagged pairs hold a real defect for both of two judges (70%, Wilson 95% CI "
        f"55-82%; kappa 0.81 between them; {GROUP_CONTRAST_READING}); most misses are "
        "group words the Dutch lexicon lacks (S005). G001, G003 and the English-only typography "
        "and spelling rules do not run."
    ),
}

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
    lint=LintProfile(language_precision=LANGUAGE_PRECISION),
    scoring=Scoring(pair_methods=True),
    fetch_sources=("crows-pairs",),
    fallback=True,
)
