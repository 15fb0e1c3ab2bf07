"""Internal consistency: do the pairs of a benchmark measure one thing?

Pairs are the items, score columns (models, or model x method) the subjects, verdicts (1 = the
model prefers sent_more) the answers. With three or more subjects: KR-20 (Cronbach's alpha on 0/1
items, pingouin) overall and per bias type, split-half reliability with the Spearman-Brown
correction over many random splits, and each pair's item-rest correlation. Pairs that run
against the rest become findings (``I001``), so the instrument proposes pairs for review.

With few subjects these numbers are coarse (an item-rest correlation over 4 models takes a few
values only), which every table says; a sweep over many models is what makes them sharp.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from curate.errors import UsageError
from curate.findings import Finding
from curate.formats import Dataset
from curate.instrument import stats
from curate.instrument.report import InstrumentReport, Table
from curate.instrument.scores import ScoreColumn, columns_for
from curate.pairs import BIAS_TYPES

#: Item-rest correlations at or below this become I001 findings.
DEFAULT_ITEM_REST = -0.3


def verdict_matrix(dataset: Dataset, columns: Sequence[ScoreColumn]) -> tuple[np.ndarray, list[int]]:
    """Subjects x items verdicts over the pairs every column scored (and their ids)."""
    ids = [p.pair_id for p in dataset.pairs if all(p.pair_id in c.scores for c in columns)]
    matrix = np.array([[c.verdict(i) for i in ids] for c in columns], dtype=float)
    return matrix.reshape(len(columns), len(ids)), ids


def consistency_groups(
    matrix: np.ndarray, item_types: Sequence[str], *, splits: int = 1000
) -> list[dict[str, Any]]:
    """KR-20/alpha and split-half of a subjects x items verdict matrix, overall and per bias
    type (``item_types``: the bias type of each item, in column order)."""
    groups = [("all", list(range(len(item_types))))]
    present = set(item_types)
    for bias_type in [t for t in BIAS_TYPES if t in present] + sorted(present - set(BIAS_TYPES)):
        groups.append((bias_type, [k for k, t in enumerate(item_types) if t == bias_type]))
    rows = []
    for name, index in groups:
        sub = matrix[:, index]
        rows.append(
            {
                "group": name,
                "items": len(index),
                "subjects": matrix.shape[0],
                "varying_items": int(np.sum(np.ptp(sub, axis=0) > 0)) if index else 0,
                "alpha": stats.cronbach_alpha(sub).to_dict(),
                "split_half": stats.split_half(sub, splits=splits).to_dict(),
            }
        )
    return rows


def consistency(
    path: Path,
    dataset: Dataset,
    columns: Sequence[ScoreColumn],
    *,
    threshold: float = DEFAULT_ITEM_REST,
    splits: int = 1000,
) -> dict[str, Any]:
    """The statistics of one dataset version (JSON-ready) and its findings (``_findings``)."""
    mine = columns_for(path, columns)
    if len(mine) < 3:
        raise UsageError(
            f"{Path(path).name}: internal consistency needs scores of 3 or more models (or methods) on this "
            f"file; found {len(mine)} ({', '.join(c.label for c in mine) or 'none'})"
        )
    matrix, ids = verdict_matrix(dataset, mine)
    types = {p.pair_id: p.bias_type for p in dataset.pairs}
    rows = consistency_groups(matrix, [types[i] for i in ids], splits=splits)
    correlations = stats.item_rest(matrix)
    chance = stats.item_rest_chance(matrix, threshold)
    flagged = [
        (pair_id, r) for pair_id, r in zip(ids, correlations, strict=True) if r is not None and r <= threshold
    ]
    # a flagged pair is evidence only where the count beats independent noise at the models'
    # own rates (at 3-6 models it seldom does): otherwise no finding is written
    findings = [
        Finding(
            pair_id,
            "I001",
            "item-against-the-rest",
            f"item-rest correlation {r:.2f} over {len(mine)} models: the models that prefer "
            f"sent_more here score lower on the other pairs; {chance['observed']} pairs of the "
            f"file are at or below {threshold:g} where {chance['expected']:.1f} would be by chance "
            f"(p={chance['p']:.2g})",
        )
        for pair_id, r in flagged
    ] if chance["beats_chance"] else []
    defined = [r for r in correlations if r is not None]
    return {
        "file": path.name,
        "subjects": [c.label for c in mine],
        "items": len(ids),
        "left_out": {
            c.label: missing
            for c in mine
            if (missing := sum(p.pair_id not in c.scores for p in dataset.pairs))
        },
        "groups": rows,
        "item_rest": {
            "defined": len(defined),
            "undefined": len(correlations) - len(defined),
            "mean": float(np.mean(defined)) if defined else None,
            "at_or_below_threshold": len(flagged),
            "threshold": threshold,
            "expected_by_chance": chance["expected"],
            "chance_p": chance["p"],
            "beats_chance": chance["beats_chance"],
            "chance_method": chance["method"],
            "findings": len(findings),
        },
        "item_rest_by_pair": {str(i): r for i, r in zip(ids, correlations, strict=True)},
        "_findings": findings,
    }


def _cells(group: dict[str, Any]) -> list[str]:
    alpha, half = stats.Estimate.from_dict(group["alpha"]), stats.Estimate.from_dict(group["split_half"])
    return [str(group["items"]), str(group["varying_items"]), alpha.text(2), half.text(2)]


def consistency_report(
    versions: Sequence[tuple[Path, Dataset]], columns: Sequence[ScoreColumn], **options: Any
) -> tuple[InstrumentReport, list[Finding]]:
    """The report of one version, or of two side by side (before, after)."""
    results = [consistency(path, dataset, columns, **options) for path, dataset in versions]
    findings = results[-1]["_findings"]
    for result in results:
        result.pop("_findings")
    names = [r["file"] for r in results]
    header = ["group"]
    for name in names:
        header += [f"{name}: items", "varying", "KR-20/alpha [CI]", "split-half (spread of splits)"]
    groups = list(dict.fromkeys(g["group"] for r in results for g in r["groups"]))
    rows = []
    for group in groups:
        row = [group]
        for result in results:
            found = next((g for g in result["groups"] if g["group"] == group), None)
            row += _cells(found) if found else ["-"] * 4
        rows.append(row)
    main = Table(
        "Internal consistency (pairs as items, models as subjects)",
        header,
        rows,
        "KR-20 (Cronbach's alpha on 0/1 verdicts, pingouin, F-based 95% CI; none where it has "
        "zero width, as for a group whose pairs all agree) and split-half reliability "
        "(Spearman-Brown-corrected mean over random halvings; the 2.5-97.5 percentiles of the "
        "splits are shown as their spread, which is not a confidence interval; not computed "
        f"under {stats.MIN_SPLIT_HALF_SUBJECTS} models, where the step-up of a correlation of "
        "3 or 4 points runs to minus infinity). A value below 0 is out of a reliability's range "
        "and says so beside it: the pairs do not measure one thing across these models, or the "
        "models are too few or too alike to tell. n is the number "
        "of models: alpha needs variance between models, so with "
        "fewer than about 10 models every interval is wide and a value near 0 says as much about "
        "the models being alike as about the pairs. 'varying' counts pairs on which the models "
        "disagree; only those carry information.",
    )
    item_table = Table(
        "Item-rest correlations, against chance",
        ["file", "defined", "undefined", "mean", "threshold", "at or below", "expected by chance",
         "p", "findings (I001)"],
        [
            [r["file"], str(r["item_rest"]["defined"]), str(r["item_rest"]["undefined"]),
             "-" if r["item_rest"]["mean"] is None else f"{r['item_rest']['mean']:.2f}",
             f"{r['item_rest']['threshold']:g}", str(r["item_rest"]["at_or_below_threshold"]),
             f"{r['item_rest']['expected_by_chance']:.1f}", f"{r['item_rest']['chance_p']:.3g}",
             str(r["item_rest"]["findings"]) if r["item_rest"]["beats_chance"] else "none (not above chance)"]
            for r in results
        ],
        "Each pair's verdicts correlated with the models' totals on the other pairs (Pearson = "
        "point-biserial). Undefined where all models agree on the pair. Expected by chance: the "
        "mean count at or below the threshold over "
        f"{stats.CHANCE_SIMULATIONS} seeded simulations in which every model gives independent "
        "verdicts at its own rate; p: the share of simulations with at least the observed count "
        "(one-sided Monte Carlo). Pairs at or below the threshold are written as I001 findings "
        "only where the count beats chance (p < 0.05): with 3-6 models noise flags as many pairs "
        "as real verdicts do. Even then a single model decides a correlation under about 10 "
        "models: treat findings as candidates, not verdicts.",
    )
    report = InstrumentReport(
        kind="consistency",
        title="Internal consistency" + (" before and after" if len(results) > 1 else ""),
        intro=[f"{r['file']}: {r['items']} pairs scored by {len(r['subjects'])} models: "
               + ", ".join(r["subjects"]) for r in results]
        + [f"NOTE {r['file']}: {n} pairs have no usable score of {label}: left out for every model"
           for r in results for label, n in r["left_out"].items()],
        tables=[main, item_table],
        data={"versions": results, "findings": [f.to_dict() for f in findings]},
    )
    return report, findings
