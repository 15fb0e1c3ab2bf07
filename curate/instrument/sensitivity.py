"""Sensitivity (known groups): does the score follow an order the models are known to have?

The checkpoints of a fine-tuning run on stereotyping text should score higher step by step
(Martínez & Kremer's Figure 1 fine-tunes on hate speech). Given score columns of such a series on
one or more benchmark files and their expected order, per file, method and bias type: Spearman's
rho between order and metric with a one-sided permutation p-value (scipy, every pairing of up to
8 checkpoints) and a bootstrap interval, and a line plot of the metric along the order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from curate.errors import UsageError
from curate.instrument import stats
from curate.instrument.report import InstrumentReport, Table
from curate.instrument.scores import ScoreColumn, columns_for
from curate.instrument.validity import metric
from curate.modelnames import model_label
from curate.pairs import BIAS_TYPES


def natural_key(name: str) -> tuple[Any, ...]:
    """``checkpoint-10`` after ``checkpoint-9``: digits compared as numbers."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def sensitivity(
    files: Sequence[tuple[Path, Any]],
    columns: Sequence[ScoreColumn],
    order: Sequence[str] | None = None,
) -> InstrumentReport:
    """The order test per file, method and bias type (``files``: (path, dataset))."""
    rows: list[dict[str, Any]] = []
    series: list[dict[str, Any]] = []
    for path, dataset in files:
        mine = columns_for(path, columns)
        for method in sorted({c.method for c in mine}):
            by_model = {c.model: c for c in mine if c.method == method}
            names = list(order) if order else sorted(by_model, key=natural_key)
            missing = [n for n in names if n not in by_model]
            if missing:
                raise UsageError(
                    f"{path}: no {method} scores of {', '.join(missing)} (models with scores: "
                    f"{', '.join(sorted(by_model))})"
                )
            if len(names) < 3:
                raise UsageError(f"{path}: the order test needs 3 or more checkpoints, got {len(names)}")
            types = {p.pair_id: p.bias_type for p in dataset.pairs}
            present = set(types.values())
            groups = [("all", None)] + [
                (t, [i for i, b in types.items() if b == t])
                for t in [t for t in BIAS_TYPES if t in present] + sorted(present - set(BIAS_TYPES))
            ]
            for group, ids in groups:
                values = [metric(by_model[n], ids) for n in names]
                intervals = [_share(by_model[n], ids) for n in names]
                usable = [(k, v) for k, v in enumerate(values) if v is not None]
                test = stats.order_test([k for k, _ in usable], [v for _, v in usable])
                rows.append(
                    {
                        "file": Path(path).name, "method": method, "group": group,
                        "pairs": len(ids) if ids is not None else len(types),
                        "order": [model_label(n) for n in names], "metric": values,
                        "metric_ci": [e.to_dict() for e in intervals],
                        "first_to_last": _first_to_last(by_model[names[0]], by_model[names[-1]], ids).to_dict(),
                        "test": test.to_dict(),
                    }
                )
                series.append(
                    {"name": f"{Path(path).name} · {method} · {group}", "x": names, "y": values,
                     "ci": intervals}
                )
    if not rows:
        raise UsageError(
            "no score sets of these files under --scores (score every checkpoint on each file first)"
        )
    table = Table(
        "Score along the expected order",
        ["file", "method", "group", "pairs", "first → last %", "Δ pp [CI]", "rho [CI] p"],
        [[r["file"], r["method"], r["group"], str(r["pairs"]),
          " → ".join("-" if v is None else f"{100 * v:.1f}" for v in (r["metric"][0], r["metric"][-1])),
          stats.Estimate.from_dict(r["first_to_last"]).text(1, 100.0),
          stats.Estimate.from_dict(r["test"]).text(2)] for r in rows],
        "Δ: last minus first checkpoint over the same pairs (Tango's score 95% CI for paired "
        "shares, valid down to one pair). rho: Spearman correlation between the position in the "
        "expected order and the metric; p: one-sided permutation p-value (every ordering of the "
        "checkpoints), so with 5 checkpoints it cannot go below 1/120 and with 3 below 1/6. "
        f"rho has no interval under {stats.MIN_BOOTSTRAP} checkpoints (a bootstrap of a handful "
        "of points is degenerate). A sensitive instrument gives rho near 1 and a small p; small "
        "bias types move by chance from one checkpoint to the next. The plot's error bars are "
        "Wilson 95% intervals of each checkpoint's metric.",
    )
    report = InstrumentReport(
        kind="sensitivity",
        title="Sensitivity to a known order",
        intro=[f"order: {' < '.join(model_label(n) for n in rows[0]['order'])}"],
        tables=[table],
        data={"rows": rows},
    )
    report.figures.append(_figure(series))
    return report


def _share(column: ScoreColumn, pair_ids: Sequence[int] | None) -> stats.Estimate:
    """A checkpoint's metric with its Wilson interval (the plot's error bars)."""
    ids = list(column.scores) if pair_ids is None else [i for i in pair_ids if i in column.scores]
    return stats.proportion(sum(column.scores[i].score for i in ids), len(ids))


def _first_to_last(first: ScoreColumn, last: ScoreColumn, pair_ids: Sequence[int] | None) -> stats.Estimate:
    """The paired change of the verdicts from the first to the last checkpoint."""
    ids = list(first.scores) if pair_ids is None else list(pair_ids)
    ids = [i for i in ids if i in first.scores and i in last.scores]
    return stats.paired_difference([last.scores[i].score for i in ids], [first.scores[i].score for i in ids])


def _figure(series: Sequence[dict[str, Any]]) -> Any:
    import plotly.graph_objects as go

    figure = go.Figure()
    for s in series:
        ys = [None if v is None else 100 * v for v in s["y"]]
        figure.add_scatter(
            x=[model_label(n) for n in s["x"]], y=ys, mode="lines+markers",
            name=s["name"], visible=True if s["name"].endswith(" all") else "legendonly",
            error_y={
                "type": "data", "symmetric": False,
                "array": [0 if e.high is None or y is None else 100 * e.high - y for e, y in zip(s["ci"], ys, strict=True)],
                "arrayminus": [0 if e.low is None or y is None else y - 100 * e.low for e, y in zip(s["ci"], ys, strict=True)],
            },
        )
    figure.add_hline(y=50, line_dash="dot")
    figure.update_layout(
        title="Metric along the expected order (click the legend for the bias types)",
        xaxis_title="checkpoint", yaxis_title="% preferring sent_more", template="plotly_white",
    )
    return figure
