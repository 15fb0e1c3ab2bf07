"""Fake imported score sets for the edge tests of `curate instrument` (issue 44).

Every score set here is written as `curate score` writes one (``write_score_column``), with
verdicts chosen by the test: a pair's verdict is 1 when ``sent_more_score > sent_less_score``.
The sentence scores also carry a per-pair gap of varying size, so the rank correlation of the
gaps is defined. The tests recompute every figure from the verdicts they chose here, never from
what curate wrote, so a test compares curate with the libraries on the same raw data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from curate.datasets import read_dataset, write_dataset
from curate.score.files import write_score_column
from curate.score.metrics import PairScore
from curate.score.outputs import data_info

#: Bias types and how many pairs of each the small data file takes: one large enough for every
#: interval, one near the bootstrap's minimum, and the 5-6-pair types of the issue.
SIZES: dict[str, int] = {"race-color": 24, "gender": 12, "religion": 6, "age": 5}


def small_pairs(source: Path, target: Path, sizes: Mapping[str, int] = SIZES) -> Path:
    """A CrowS-Pairs file of the first ``sizes[type]`` pairs of each bias type of ``source``
    (the real shared file), ids kept."""
    dataset = read_dataset(source)
    taken: dict[str, int] = {}
    pairs = []
    for pair in dataset.pairs:
        if taken.get(pair.bias_type, 0) < sizes.get(pair.bias_type, 0):
            taken[pair.bias_type] = taken.get(pair.bias_type, 0) + 1
            pairs.append(pair)
    write_dataset(dataset.with_pairs(pairs), target)
    return target


def alternate_file(data: Path, target: Path, *, with_id: bool = True) -> Path:
    """A paraphrased form of every pair of ``data``: both sentences lightly reworded (a
    text similarity well above 50), ``id`` the original pair's id (or no id column, so the
    pairs are linked by text)."""
    pairs = read_dataset(data).pairs
    frame = pd.DataFrame(
        {
            "sent_more": [f"In fact, {p.sent_more[0].lower()}{p.sent_more[1:]}" for p in pairs],
            "sent_less": [f"In fact, {p.sent_less[0].lower()}{p.sent_less[1:]}" for p in pairs],
            "stereo_antistereo": [p.direction for p in pairs],
            "bias_type": [p.bias_type for p in pairs],
        }
    )
    if with_id:
        frame.insert(0, "id", [p.pair_id for p in pairs])
    frame.to_csv(target, index=False)
    return target


def write_verdicts(
    root: Path,
    model: str,
    data: Path,
    verdicts: Mapping[int, int],
    *,
    method: str = "pll",
    seed: int = 0,
) -> Path:
    """A score set of ``model`` on ``data`` whose verdict on each pair is ``verdicts[pair_id]``
    (pairs not in ``verdicts`` get no row). Returns the folder written."""
    rng = np.random.default_rng(seed)
    scores = []
    for pair in read_dataset(data).pairs:
        if pair.pair_id not in verdicts:
            continue
        gap = float(rng.uniform(0.1, 3.0)) * (1 if verdicts[pair.pair_id] else -1)
        scores.append(
            PairScore(pair.pair_id, pair.sent_more, pair.sent_less, -10.0 + gap, -10.0,
                      pair.direction, pair.bias_type)
        )
    summary = {"model": model, "method": method, "data": data_info(data), "summary": {}}
    target = root / Path(data).stem / model / method
    write_score_column(scores, summary, target)
    return target


def damage(folder: Path, pair_id: int, value: str = "nan", columns: Sequence[str] = (
    "sent_more_score", "sent_more_score_full")) -> None:
    """Write ``value`` (``nan``, ``inf``) into ``columns`` of one pair's row of a scores.csv."""
    path = folder / "scores.csv"
    frame = pd.read_csv(path, keep_default_na=False, dtype=str)
    row = frame.index[frame["pair_id"] == str(pair_id)]
    assert len(row) == 1, pair_id
    for column in columns:
        frame.loc[row, column] = value
    frame.to_csv(path, index=False)


def noisy_verdicts(
    ids: Sequence[int], models: int, *, seed: int, flip: float = 0.2
) -> tuple[np.ndarray, np.ndarray]:
    """Original and alternate verdicts (models x pairs) of ``models`` fake models: a latent
    verdict per pair, each model flipping it with probability ``flip``, and each alternate
    flipping its original's verdict with probability ``flip``."""
    rng = np.random.default_rng(seed)
    latent = rng.integers(0, 2, size=len(ids))
    original = np.where(rng.random((models, len(ids))) < flip, 1 - latent, latent)
    alternate = np.where(rng.random((models, len(ids))) < flip, 1 - original, original)
    return original, alternate


def published_output(data: Path, verdicts: Mapping[int, int], published: Mapping[int, int], target: Path) -> Path:
    """A ``metric.py``-format output of ``data`` whose sentence scores give ``verdicts`` and
    whose ``score`` column is ``published`` (what an imported study printed)."""
    pairs = read_dataset(data).pairs
    frame = pd.DataFrame(
        {
            "sent_more": [p.sent_more for p in pairs],
            "sent_less": [p.sent_less for p in pairs],
            "sent_more_score": [-10.0 + (1.0 if verdicts[p.pair_id] else -1.0) for p in pairs],
            "sent_less_score": [-10.0 for _ in pairs],
            "score": [published[p.pair_id] for p in pairs],
            "stereo_antistereo": [p.direction for p in pairs],
            "bias_type": [p.bias_type for p in pairs],
        }
    )
    frame.to_csv(target)
    return target
