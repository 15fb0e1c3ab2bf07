"""Convergent validity: do measures of the same construct rank the models alike?

A *measure* is one benchmark file scored with one method (CrowS-Pairs with ``pll``, with ``aul``,
a revision of it, the published ``metric.py`` numbers, StereoSet with ``stereoset-mlm``...).
Each model gets one number per measure: the metric (% of pairs preferring sent_more), or
StereoSet's SS (% of items preferring the stereotype; 50 is ideal in both). For every two measures, the models both
scored are ranked by each and the rank correlations (Spearman, Kendall; scipy) are given with a
bootstrap interval over models. Models are the units here: with fewer than 5 models no interval
is informative, and the table says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from curate.errors import UsageError
from curate.instrument import stats
from curate.instrument.report import InstrumentReport, Table
from curate.instrument.scores import ModelLevelScore, ScoreColumn, columns_for, file_sha256
from curate.modelnames import model_label


def metric(column: ScoreColumn, pair_ids: Sequence[int] | None = None) -> float | None:
    """The metric (share preferring sent_more) of a column, optionally over some pairs."""
    ids = list(column.scores) if pair_ids is None else [i for i in pair_ids if i in column.scores]
    return float(np.mean([column.scores[i].score for i in ids])) if ids else None


def measures(
    files: Sequence[Path],
    columns: Sequence[ScoreColumn],
    model_level: Sequence[ModelLevelScore] = (),
) -> dict[str, dict[str, float]]:
    """``{measure: {model: score}}`` for every (file, method) with scores: the CrowS metric of
    pair files, StereoSet's SS (``model_level``) of StereoSet files."""
    out: dict[str, dict[str, float]] = {}
    for path in files:
        for column in columns_for(path, columns):
            value = metric(column)
            if value is not None:
                out.setdefault(f"{Path(path).name} · {column.method}", {})[model_label(column.model)] = value
        digest = file_sha256(path)
        for result in model_level:
            if result.data_sha256 == digest:
                name = f"{Path(path).name} · {result.method} {result.statistic}"
                out.setdefault(name, {})[model_label(result.model)] = result.value
    return out


def convergent_validity(
    files: Sequence[Path], columns: Sequence[ScoreColumn], model_level: Sequence[ModelLevelScore] = ()
) -> InstrumentReport:
    """Rank correlations between every two measures over the models they share."""
    table = measures(files, columns, model_level)
    if len(table) < 2:
        raise UsageError(
            f"convergent validity needs two or more measures (file x method) with scores; found "
            f"{len(table)}: {', '.join(table) or 'none'}"
        )
    rows: list[dict[str, Any]] = []
    for a, b in itertools.combinations(table, 2):
        models = sorted(table[a].keys() & table[b].keys())
        x = np.array([table[a][m] for m in models])
        y = np.array([table[b][m] for m in models])
        rows.append(
            {
                "measure_a": a,
                "measure_b": b,
                "models": models,
                "spearman": stats.spearman(x, y).to_dict(),
                "kendall": stats.kendall(x, y).to_dict(),
            }
        )
    scores = Table(
        "Model scores per measure",
        ["model", *table],
        [[m, *("-" if m not in table[k] else f"{100 * table[k][m]:.2f}" for k in table)]
         for m in sorted({m for v in table.values() for m in v})],
        "% of pairs preferring the more stereotyping sentence, per model and measure (file and "
        "scoring method); for StereoSet files the SS (% of items whose stereotype is preferred). "
        "50 = no preference in every column.",
    )
    correlations = Table(
        "Rank correlations between measures (over models)",
        ["measure A", "measure B", "models", "Spearman rho [CI]", "Kendall tau [CI]"],
        [[r["measure_a"], r["measure_b"], str(len(r["models"])),
          stats.Estimate.from_dict(r["spearman"]).text(2), stats.Estimate.from_dict(r["kendall"]).text(2)]
         for r in rows],
        "Measures of one construct should rank models alike (rho and tau near 1). p: two-sided "
        "permutation test over every ordering of the models (so with 4 models it cannot fall "
        f"below 2/24 = 0.083, and with fewer than 5 models no p can reach 0.05). The interval is "
        f"a bootstrap over models, given from {stats.MIN_BOOTSTRAP} models: with fewer the "
        "resamples hold a handful of values and the table says 'n too small for an interval'.",
    )
    return InstrumentReport(
        kind="validity",
        title="Convergent validity",
        intro=[f"{len(table)} measures, {len({m for v in table.values() for m in v})} models"],
        tables=[scores, correlations],
        data={"measures": table, "correlations": rows},
    )
