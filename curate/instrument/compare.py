"""Before vs after a revision: the instrument statistics of both versions side by side.

Did the revision make the benchmark a better instrument? With the scores of the same models on
both versions (and optionally an alternate form), this puts together: the metric of each model
on each version, whether the versions rank the models alike (convergent validity between them),
internal consistency of both (3+ models) and parallel-form agreement of both (when alternates are
given). Each part is the report of its own subcommand, computed on both versions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from curate.errors import UsageError
from curate.formats import Dataset
from curate.instrument import stats
from curate.instrument.consistency import consistency_report
from curate.instrument.reliability import parallel_forms
from curate.instrument.report import InstrumentReport, Table
from curate.instrument.scores import ScoreColumn
from curate.instrument.validity import convergent_validity


def _reliability_table(
    versions: Sequence[tuple[Path, Dataset]],
    alternates: Sequence[tuple[Path, Dataset]],
    columns: Sequence[ScoreColumn],
) -> tuple[Table, dict[str, Any]]:
    results = [parallel_forms(path, dataset, alternates, columns)[0].data["rows"] for path, dataset in versions]
    keyed = [{(r["bias_type"], r["label"]): r for r in rows} for rows in results]
    keys = list(dict.fromkeys(k for rows in keyed for k in rows))
    table_rows = []
    for key in keys:
        cells = [key[0], key[1]]
        for rows in keyed:
            row = rows.get(key)
            if row is None:
                cells += ["-", "-"]
            else:
                cells += [
                    stats.Estimate.from_dict(row["agreement"]).text(1, 100.0),
                    stats.Estimate.from_dict(row["kappa"]).text(2),
                ]
        table_rows.append(cells)
    names = [path.name for path, _ in versions]
    table = Table(
        "Parallel forms, before and after",
        ["bias type", "model · method", f"{names[0]}: agreement %", "kappa", f"{names[1]}: agreement %", "kappa"],
        table_rows,
        "Verdict agreement between each version's pairs and their alternate form (Wilson 95% "
        "CI), and Cohen's kappa (percentile bootstrap 95% CI over pairs, inside [-1, 1]; none "
        f"under {stats.MIN_BOOTSTRAP} pairs or at perfect agreement). A revision that fixed broken pairs should raise both; with n under "
        "about 30 per bias type the intervals overlap and say nothing either way.",
    )
    return table, {"before": results[0], "after": results[1]}


def compare_versions(
    before: tuple[Path, Dataset],
    after: tuple[Path, Dataset],
    columns: Sequence[ScoreColumn],
    alternates: Sequence[tuple[Path, Dataset]] = (),
    *,
    splits: int = 1000,
) -> InstrumentReport:
    """Every statistic that applies, on both versions, side by side."""
    versions = [before, after]
    report = InstrumentReport(
        kind="compare",
        title=f"Instrument before and after: {before[0].name} → {after[0].name}",
    )
    validity = convergent_validity([before[0], after[0]], columns)
    report.tables += validity.tables
    report.data["validity"] = validity.data
    try:
        consistency, _ = consistency_report(versions, columns, splits=splits)
    except UsageError as exc:
        report.intro.append(f"internal consistency skipped: {exc}")
    else:
        report.tables += consistency.tables
        report.data["consistency"] = consistency.data
    if alternates:
        table, data = _reliability_table(versions, alternates, columns)
        report.tables.append(table)
        report.data["reliability"] = data
    return report
