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
        "precision on the French CrowS-Pairs (Névéol et al. 2022), measured: 43 of 50 sampled "
        "flagged pairs hold a real defect for both of two judges (86%, Wilson 95% CI 74-93%; "
        f"kappa 0.70 between them; {GROUP_CONTRAST_READING}); the rest are 'indien' read as a "
        "race against a nationality (S006, twice), an impersonal 'il' read as a man (G002), a "
        "group phrase swapped whole (P006: 'sains d'esprit') and three pairs the judges split "
        "on. The three samples before gave 46, 40 and 42 of 50. W001/W002 read Debian's "
        "Hunspell dictionary, S005/S008/P006 its word classes and lemmas, G006 Grammalecte. "
        "G001, G003, S007 and the English-only typography and spelling rules do not run."
    ),
    "nl": (
        "precision on the Dutch CrowS-Pairs (Strazda & Spanakis 2025), measured: 45 of 50 "
        "sampled flagged pairs hold a real defect for both of two judges (90%, Wilson 95% CI "
        f"79-96%; kappa 0.88 between them; {GROUP_CONTRAST_READING}); the rest are 'slaven' "
        "read as a race against an occupation and 'leraar' as a gender (S003/S004), a group "
        "phrase swapped whole (P006), a man for a woman in a statement of no clear stereotype "
        "(L003) and one pair the judges split on. The two samples before gave 47 of 50 each. "
        "W001/W002 read Debian's Hunspell dictionary, W004 its compounding, G007 its adjective "
        "flags, S005/S008/P006 its adjective flags and simplemma's lemmas. G001, G003, S007 and "
        "the English-only typography and spelling rules do not run."
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
