"""The WinoGender route of ``curate score`` (a thin front end over :mod:`.run`).

``curate score`` dispatches here for a WinoGender folder. Shared sentence-pair methods asked
for with ``--method`` go through the shared pair route (:func:`curate.score.run.score_dataset`,
the same files as any pair benchmark's); the own methods (``winogender-clm`` /
``winogender-mlm``, the model kind's one when no method is named) through :mod:`.run`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from curate.benchmarks.spec import Frontend
from curate.benchmarks.winogender.methods import OWN_METHODS
from curate.formats.dataset import Dataset
from curate.score.settings import ScoreSettings
from curate.terminal import print_table


def score_winogender_file(
    dataset: Dataset,
    path: Path,
    settings: ScoreSettings,
    slugs: Sequence[str],
    out_dir: Path,
    cache_path: Path | None,
    fmt: str,
    *,
    frontend: Frontend,
) -> None:
    """``curate score`` on a WinoGender folder: per model, the pair metric, the correlations
    with % women and (causal) the harness's accuracies; files and a table (``fmt``: ``text``
    or ``json``)."""
    from curate.benchmarks.winogender.run import score_winogender
    from curate.score.outputs import data_info
    from curate.score.run import score_dataset

    frontend.print_warnings(dataset)
    frontend.prepare_scoring(settings.dtype)
    models = dict(zip(slugs, settings.models, strict=True))
    shared = tuple(m for m in settings.methods if m not in OWN_METHODS)
    own = tuple(m for m in settings.methods if m in OWN_METHODS)
    documents: list[dict[str, Any]] = []
    if shared:
        outputs = frontend.run_scoring(
            lambda hooks: score_dataset(
                list(dataset.pairs), models, settings.with_overrides(methods=shared),
                data=data_info(path), out_dir=out_dir, cache=cache_path, hooks=hooks,
            ),
            unit="batches",
        )
        documents += [{"slug": o.slug, **o.summary} for o in outputs]
    if own or not shared:
        outputs = frontend.run_scoring(
            lambda hooks: score_winogender(
                dataset, models, settings.with_overrides(methods=own) if own else settings,
                data=data_info(path), out_dir=out_dir, cache=cache_path, hooks=hooks,
            ),
            unit="sentences",
        )
        for o in outputs:
            frontend.err.print(f"{escape(o.slug)} {o.method}: wrote {escape(str(o.directory))}")
        documents += [{"slug": o.slug, **o.summary} for o in outputs]
    if fmt == "json":
        frontend.print_json({"models": documents})
        return
    render_results(documents, path.name, frontend.out)


def _number(value: float | None, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def render_results(documents: Sequence[dict[str, Any]], source: str, out: Any) -> None:
    """One table of every (model, method): the pair metric, the paper's correlations with
    their 95% intervals, and the multiple-choice accuracies where computed."""
    table = Table(
        title=f"WinoGender on {escape(source)} (metric: % pairs preferring the BLS-majority "
        "pronoun, 50 ideal; r: female preference vs % women per occupation)",
        title_justify="left",
    )
    columns = ("model", "method", "pairs", "metric", "r BLS [95% CI]", "r B&L [95% CI]",
               "acc all", "acc male", "acc female", "acc neutral", "acc gotcha")
    for column in columns:
        table.add_column(column, justify="left" if column in ("model", "method") else "right")
    for doc in documents:
        section = doc.get("winogender", {})
        corr = section.get("correlation", {})

        def r(key: str, corr: dict[str, Any] = corr) -> str:
            c = corr.get(key)
            if not c or c.get("r") is None:
                return "-"
            return f"{c['r']:+.3f} [{c['ci_low']:+.3f}, {c['ci_high']:+.3f}]"

        mc = section.get("multiple_choice", {})
        accs = [_number(mc[k]["acc"], ".3f") if k in mc else "-" for k in ("all", "male", "female", "neutral", "gotcha")]
        table.add_row(
            escape(doc["slug"]),
            escape(section.get("method", doc.get("method", ""))),
            str(doc["summary"]["pairs"]),
            _number(doc["summary"]["metric_score"]),
            r("bls"),
            r("bergsma"),
            *accs,
        )
    print_table(table, out)
