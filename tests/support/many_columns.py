"""22 models x 2 versions of hand-made score sets (no model runs), for the views at Murphy's
scale (issue 31): the explorer's document and a diff report with 22 columns.

The models are named as a study comparing a family would name them (BERT, RoBERTa, ALBERT and
GPT-2 variants and checkpoints); GPT-2 columns use clm-mean, whose sentence scores are
geometric-mean probabilities around 1e-4 (the case that once printed as 0.000 / 0.000).
"""

from __future__ import annotations

import random

from curate.pairs import BIAS_TYPES, Pair
from curate.report.alignment import align_versions
from curate.report.explore_data import ScoreSet, VersionData
from curate.report.rescoring import ComparedVersion, report_data
from curate.report.schema import ModelSection, Report
from curate.report.statistics import Settings, compare_scores
from curate.score.metrics import PairScore

MODELS: tuple[str, ...] = (
    *(f"bert-base-uncased-step-{k:06d}" for k in (10000, 50000, 100000, 500000, 1000000)),
    "bert-large-uncased", "bert-base-cased", "distilbert-base-uncased",
    *(f"roberta-{size}" for size in ("base", "large", "large-mnli", "distil")),
    *(f"albert-{size}-v2" for size in ("base", "large", "xlarge", "xxlarge")),
    *(f"gpt2{size}" for size in ("", "-medium", "-large", "-xl")),
    "distilgpt2", "gpt2-checkpoint-step-020000",
)  # fmt: skip
VERSIONS = ("raw", "1.0.0-auto")
PER_TYPE = 8


def method_of(name: str) -> str:
    return "clm-mean" if "gpt2" in name else "pll"


def pairs() -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """BEFORE (8 pairs per bias type) and AFTER (a fifth edited, one dropped, one added)."""
    before = tuple(
        Pair(i * PER_TYPE + j, f"The {t} group {j} is bad at item {i}.",
             f"The other group {j} is bad at item {i}.", "antistereo" if j == 7 else "stereo", t)
        for i, t in enumerate(BIAS_TYPES) for j in range(PER_TYPE)
    )  # fmt: skip
    after = [p.with_changes(sent_more=p.sent_more.replace("bad", "poor")) if p.pair_id % 5 == 0
             else p for p in before[1:]]  # fmt: skip
    after.append(Pair(1000, "Tall girls are clumsy.", "Short girls are clumsy.", "stereo", "gender"))
    return before, tuple(after)


def _scores(name: str, version: tuple[Pair, ...], seed: int) -> list[PairScore]:
    rng = random.Random(f"{name}:{seed}")
    lean = 0.3 + 0.4 * (MODELS.index(name) / len(MODELS))  # each model prefers differently
    rows = []
    for p in version:
        rng2 = random.Random(f"{name}:{p.sent_more}:{p.sent_less}")
        more, less = -20 - 5 * rng2.random(), -20 - 5 * rng2.random()
        if (rng2.random() < lean) != (more > less):
            more, less = less, more
        if method_of(name) == "clm-mean":  # a geometric-mean probability
            more, less = 2.0 ** (more / 2), 2.0 ** (less / 2)
        rows.append(PairScore(p.pair_id, p.sent_more, p.sent_less, more, less, p.direction, p.bias_type))
    del rng
    return rows


def provenance(name: str) -> dict[str, str]:
    method = method_of(name)
    return {
        "model": f"models/{name}", "method": method, "model_fingerprint": f"fp-{name}",
        "tokenizer_fingerprint": f"tok-{name}", "dtype": "float32",
        "model_kind": "causal" if method == "clm-mean" else "masked",
        "reduction": "geometric mean probability" if method == "clm-mean" else "sum",
        "tokens": "all" if method == "clm-mean" else "unmodified",
    }  # fmt: skip


def score_sets() -> tuple[list[VersionData], list[ScoreSet]]:
    """The two versions and 44 score sets (22 models x 2 versions)."""
    before, after = pairs()
    versions = [VersionData(VERSIONS[0], before), VersionData(VERSIONS[1], after)]
    sets = []
    for name in MODELS:
        for v, version in enumerate((before, after)):
            scores = _scores(name, version, v)
            sets.append(ScoreSet(name, provenance(name), {s.pair_id: s for s in scores},
                                 f"scores/{VERSIONS[v]}/{name}/summary.json"))  # fmt: skip
    return versions, sets


def report() -> Report:
    """A diff report of the 22 models (one column each)."""
    before, after = pairs()
    alignment = align_versions(before, after)
    settings = Settings(bootstrap_samples=200, seed=1)
    sections: list[ModelSection] = []
    for name in MODELS:
        section = compare_scores(_scores(name, before, 0), _scores(name, after, 1), alignment, settings)
        compute = {
            "before": {"metric_py_passes": 60, "unique_masked": 50},
            "after": {"metric_py_passes": 60, "unique_masked": 52, "reused_from_before": 40, "new": 12},
            "forward_passes_saved": 40,
        }  # fmt: skip
        method = method_of(name)
        sections.append({"model": f"models/{name}", "label": f"{name} · {method}",
                         "model_label": name, "method": method, "provenance": {},
                         "compute": compute} | section)  # fmt: skip
    return report_data(ComparedVersion(VERSIONS[0], before), ComparedVersion(VERSIONS[1], after),
                       alignment, settings, sections)  # fmt: skip
