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
#: judged against benchmarks/crows_pairs_multilingual_lint_guidelines.md by two blind judges on a
#: seeded sample of 50 flagged pairs per language; recomputed by
#: benchmarks/crows_pairs_multilingual_lint_precision.py, which refuses when the sample moved).
#: How the judges read group contrasts (race vs nationality) is stated in both notes.
GROUP_CONTRAST_READING = (
    "group contrasts read strictly, as the judging guidelines say: an ethnic or continent-wide "
    "group against one nationality is a defect, a continent-wide group against another is not"
)
LANGUAGE_PRECISION = {
    "fr": (
        "precision on the French CrowS-Pairs (Névéol et al. 2022), measured: 46 of 50 sampled "
        "flagged pairs hold a real defect for both of two judges (92%, Wilson 95% CI 81-97%; "
        f"kappa 0.85 between them; {GROUP_CONTRAST_READING}); the rest are group phrases swapped "
        "whole (P006: 'sains d'esprit'), 'vieillit' read as no group (S005), 'petite-fille' read "
        "as a word added (P005) and one pair the judges split on. The four samples before gave "
        "43, 42, 40 and 46 of 50. W001/W002 read Debian's Hunspell dictionary (and its names' "
        "accents), S005/S008/P006 its word classes and lemmas, G006 Grammalecte. G001, G003, "
        "S007 and the English-only typography and spelling rules do not run."
    ),
    "nl": (
        "precision on the Dutch CrowS-Pairs (Strazda & Spanakis 2025), measured: 45 of 50 "
        "sampled flagged pairs hold a real defect for both of two judges (90%, Wilson 95% CI "
        f"79-96%; kappa 1.00 between them; {GROUP_CONTRAST_READING}); the rest are group "
        "phrases swapped whole (P006, twice), 'hetero man' read as a split compound (W004), "
        "'vervallen' read as no group (S005) and a 'haar' of another woman (G002). The three "
        "samples before gave 45, 47 and 47 of 50. W001/W002 read Debian's Hunspell dictionary, "
        "W004 its compounding, G007/G008 its adjective flags, S005/S008/P006 its adjective "
        "flags and simplemma's lemmas. G001, G003, S007 and the English-only typography and "
        "spelling rules do not run."
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
