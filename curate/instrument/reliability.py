"""Parallel-form reliability: do paraphrased pairs (an alternate form) give the same verdicts?

An alternate form is a dataset whose pairs rewrite pairs of the original (Martínez & Kremer 2023:
one paraphrased subset per bias type, each row's ``id`` the original CrowS-Pairs pair). With the
scores of one or more models on both, per bias type and model: the metric on the original pairs
that have an alternate, the metric on the alternates, their paired difference with a bootstrap
interval, verdict agreement, Cohen's kappa, McNemar's test and the rank correlation of the
per-pair score gaps. The study's own comparison (the alternate subset against the metric of the
whole bias type) is given separately and labelled as the weaker one: it compares different
pairs, so it confounds the rewording with the choice of pairs.

Links: by the alternate's ``id`` column when it has one, else by text within the bias type (an
optimal one-to-one assignment on rapidfuzz similarity, scipy's ``linear_sum_assignment``). Every
link carries its similarity (0-100), so a broken subset (pairs linked to the wrong original)
shows as low similarity instead of as a surprising metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from curate.findings import Finding
from curate.formats import Dataset
from curate.instrument import stats
from curate.instrument.report import InstrumentReport, Table
from curate.instrument.scores import ScoreColumn, columns_for
from curate.pairs import BIAS_TYPES, Pair

#: Below this similarity (0-100) a link is reported as uncertain.
UNCERTAIN_LINK = 50.0
#: A text link whose next-best original is within this many points is reported as close.
CLOSE_MARGIN = 10.0


@dataclass(frozen=True)
class Link:
    """An alternate pair and the original pair it rewrites."""

    alternate_id: int
    original_id: int
    similarity: float
    by: str  # "id" | "text"
    #: text links: the similarity of the next-best original (how sure the match is)
    runner_up: float | None = None


@dataclass(frozen=True)
class Form:
    """An alternate-form file: its dataset, path and score columns."""

    path: Path
    dataset: Dataset
    columns: list[ScoreColumn]


def _text(pair: Pair) -> str:
    return f"{pair.sent_more}\n{pair.sent_less}"


def _similarity(a: Pair, b: Pair) -> float:
    from rapidfuzz import fuzz

    return float(fuzz.token_sort_ratio(_text(a), _text(b)))


def link_pairs(original: Sequence[Pair], alternate: Dataset) -> list[Link]:
    """Link every alternate pair to its original (by ``id`` if the file has the column)."""
    by_id = {p.pair_id: p for p in original}
    if alternate.shape.id_column == "id":
        return [
            Link(p.pair_id, p.pair_id, _similarity(p, by_id[p.pair_id]), "id")
            for p in alternate.pairs
            if p.pair_id in by_id
        ]
    from rapidfuzz import fuzz, process
    from scipy.optimize import linear_sum_assignment

    links = []
    for bias_type in sorted({p.bias_type for p in alternate.pairs}):
        alts = [p for p in alternate.pairs if p.bias_type == bias_type]
        candidates = [p for p in original if p.bias_type == bias_type]
        if not candidates:
            continue
        matrix = process.cdist(
            [_text(p) for p in alts], [_text(p) for p in candidates], scorer=fuzz.token_sort_ratio
        )
        rows, cols = linear_sum_assignment(np.asarray(matrix), maximize=True)
        for r, c in zip(rows, cols, strict=True):
            others = np.delete(np.asarray(matrix[r]), c)
            runner_up = float(others.max()) if others.size else None
            links.append(Link(alts[r].pair_id, candidates[c].pair_id, float(matrix[r, c]), "text", runner_up))
    return sorted(links, key=lambda link: link.alternate_id)


def _ordered_types(types: set[str]) -> list[str]:
    return [t for t in BIAS_TYPES if t in types] + sorted(types - set(BIAS_TYPES))


def _pct(e: stats.Estimate) -> str:
    return e.text(1, 100.0)


def parallel_forms(
    original_path: Path,
    original: Dataset,
    alternates: Sequence[tuple[Path, Dataset]],
    columns: Sequence[ScoreColumn],
) -> tuple[InstrumentReport, list[Finding]]:
    """The parallel-form report and the pairs whose verdict flips under every model."""
    base_columns = {c.key: c for c in columns_for(original_path, columns)}
    pairs = {p.pair_id: p for p in original.pairs}
    rows: list[dict[str, Any]] = []
    link_rows: list[dict[str, Any]] = []
    every_link: list[dict[str, Any]] = []
    flips: dict[int, list[str]] = {}
    checked: dict[int, int] = {}
    for path, dataset in alternates:
        alt_columns = {c.key: c for c in columns_for(path, columns)}
        links = link_pairs(original.pairs, dataset)
        every_link += [{"file": path.name, **asdict(link)} for link in links]
        alt_pairs = {p.pair_id: p for p in dataset.pairs}
        for bias_type in _ordered_types({p.bias_type for p in dataset.pairs}):
            typed = [link for link in links if alt_pairs[link.alternate_id].bias_type == bias_type]
            sims = [link.similarity for link in typed]
            link_rows.append(
                {
                    "file": path.name,
                    "bias_type": bias_type,
                    "alternates": sum(p.bias_type == bias_type for p in dataset.pairs),
                    "linked": len(typed),
                    "by": typed[0].by if typed else "-",
                    "similarity_mean": float(np.mean(sims)) if sims else None,
                    "similarity_min": float(np.min(sims)) if sims else None,
                    "uncertain": sum(s < UNCERTAIN_LINK for s in sims),
                    "cross_type": sum(pairs[link.original_id].bias_type != bias_type for link in typed),
                    "close_runner_up": sum(
                        link.runner_up is not None and link.similarity - link.runner_up < CLOSE_MARGIN
                        for link in typed
                    ),
                }
            )
            for key in sorted(alt_columns.keys() & base_columns.keys()):
                alt, base = alt_columns[key], base_columns[key]
                row = _compare(bias_type, dataset, alt, base, typed, original)
                rows.append(row)
                for original_id, same in row.pop("_same"):
                    checked[original_id] = checked.get(original_id, 0) + 1
                    if not same:
                        flips.setdefault(original_id, []).append(alt.model)
    findings = [
        Finding(
            pair_id,
            "I002",
            "parallel-form-flip",
            f"the paraphrased version gets the opposite verdict under all {len(models)} models "
            f"({', '.join(models)}): the verdict depends on the wording, not on the groups",
        )
        for pair_id, models in sorted(flips.items())
        if len(models) == checked[pair_id] and len(models) >= 2
    ]
    report = _report(rows, link_rows, original_path, alternates, findings)
    report.data["every_link"] = every_link
    return report, findings


def _compare(
    bias_type: str,
    dataset: Dataset,
    alt: ScoreColumn,
    base: ScoreColumn,
    links: Sequence[Link],
    original: Dataset,
) -> dict[str, Any]:
    alt_ids = [p.pair_id for p in dataset.pairs if p.bias_type == bias_type and p.pair_id in alt.scores]
    alt_metric = stats.proportion(sum(alt.verdict(i) or 0 for i in alt_ids), len(alt_ids))
    paired = [link for link in links if link.alternate_id in alt.scores and link.original_id in base.scores]
    v_alt = [alt.verdict(link.alternate_id) or 0 for link in paired]
    v_orig = [base.verdict(link.original_id) or 0 for link in paired]
    gaps_alt = [alt.gap(link.alternate_id) or 0.0 for link in paired]
    gaps_orig = [base.gap(link.original_id) or 0.0 for link in paired]
    same = [a == b for a, b in zip(v_alt, v_orig, strict=True)]
    whole = [p.pair_id for p in original.pairs if p.bias_type == bias_type and p.pair_id in base.scores]
    baseline = stats.proportion(sum(base.verdict(i) or 0 for i in whole), len(whole))
    study = _two_sample(alt_metric, baseline)
    published = (alt.provenance.get("imported") or {}).get("published_metric_score")
    return {
        "bias_type": bias_type,
        "model": alt.model,
        "method": alt.method,
        "alternate_file": dataset.source,
        "alternate_metric": alt_metric.to_dict(),
        "alternate_metric_as_published": published,
        "original_metric_linked": stats.proportion(sum(v_orig), len(v_orig)).to_dict(),
        "difference": stats.mean_difference(v_alt, v_orig).to_dict(),
        "agreement": stats.proportion(sum(same), len(same)).to_dict(),
        "kappa": stats.kappa(v_orig, v_alt).to_dict(),
        "mcnemar_p": stats.mcnemar_p(v_orig, v_alt),
        "gap_correlation": stats.spearman(gaps_orig, gaps_alt).to_dict(),
        "baseline_whole_type": baseline.to_dict(),
        "study_view_difference": study.to_dict(),
        "_same": [(link.original_id, s) for link, s in zip(paired, same, strict=True)],
    }


def _two_sample(a: stats.Estimate, b: stats.Estimate) -> stats.Estimate:
    """Difference of two independent proportions with Newcombe's interval (statsmodels)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    if a.value is None or b.value is None:
        return stats.Estimate(None, a.n + b.n)
    low, high = confint_proportions_2indep(
        round(a.value * a.n), a.n, round(b.value * b.n), b.n, method="newcomb", compare="diff"
    )
    return stats.Estimate(a.value - b.value, a.n + b.n, float(low), float(high), method="newcombe")


def _e(d: dict[str, Any]) -> stats.Estimate:
    return stats.Estimate.from_dict(d)


def _report(
    rows: list[dict[str, Any]],
    links: list[dict[str, Any]],
    original_path: Path,
    alternates: Sequence[tuple[Path, Dataset]],
    findings: Sequence[Finding],
) -> InstrumentReport:
    main = Table(
        "Parallel forms: the same pairs in two wordings",
        ["bias type", "model", "n", "original % [CI]", "alternate % [CI]", "Δ pp [CI]",
         "agreement % [CI]", "kappa [CI]", "gap rho [CI]", "McNemar p", "as published %"],
        [
            [
                r["bias_type"], r["model"], str(r["agreement"]["n"]),
                _pct(_e(r["original_metric_linked"])), _pct(_e(r["alternate_metric"])),
                _pct(_e(r["difference"])), _pct(_e(r["agreement"])), _e(r["kappa"]).text(2),
                _e(r["gap_correlation"]).text(2),
                "-" if r["mcnemar_p"] is None else f"{r['mcnemar_p']:.3g}",
                "-" if r["alternate_metric_as_published"] is None else f"{r['alternate_metric_as_published']:.2f}",
            ]
            for r in rows
        ],
        "Metric = % of pairs whose more stereotyping sentence the model prefers (50 = none); "
        "original % is over the original pairs that have an alternate, alternate % over the "
        "alternates (as the scores imply on the dataset's own sent_more; 'as published' is the "
        "mean of the file's score column). A reliable instrument gives a Δ near 0, high agreement "
        "and kappa, and a positive gap correlation. Wilson / bootstrap 95% intervals; with n "
        "under about 30 the intervals span tens of points and a kappa means little.",
    )
    study = Table(
        "The study's view (weaker comparison: different pairs)",
        ["bias type", "model", "alternate % [CI]", "whole type % [CI]", "Δ pp [CI]"],
        [
            [r["bias_type"], r["model"], _pct(_e(r["alternate_metric"])),
             _pct(_e(r["baseline_whole_type"])), _pct(_e(r["study_view_difference"]))]
            for r in rows
        ],
        "The alternate subset against the metric of all original pairs of its bias type, as "
        "Martínez & Kremer compared them. It mixes the effect of the rewording with the choice "
        "of the pairs that were rewritten; prefer the paired table above. Newcombe 95% intervals.",
    )
    link_table = Table(
        "Links from alternates to original pairs",
        ["file", "bias type", "alternates", "linked", "by", "mean similarity", "min", "uncertain",
         "close runner-up", "other type"],
        [
            [l_["file"], l_["bias_type"], str(l_["alternates"]), str(l_["linked"]), l_["by"],
             "-" if l_["similarity_mean"] is None else f"{l_['similarity_mean']:.1f}",
             "-" if l_["similarity_min"] is None else f"{l_['similarity_min']:.1f}",
             str(l_["uncertain"]), str(l_["close_runner_up"]) if l_["by"] == "text" else "-",
             str(l_["cross_type"])]
            for l_ in links
        ],
        f"Similarity: rapidfuzz token-sort ratio (0-100) of the two sentences of an alternate and "
        f"its original (the paraphrases here average about 70-80). Links below {UNCERTAIN_LINK:g} "
        "are uncertain: a paraphrase seldom moves that far, a wrong link or a broken row does. Links 'by text' were assigned one-to-one "
        "within the bias type because the file has no id column; 'close runner-up' counts those whose "
        f"next-best original is within {CLOSE_MARGIN:g} points (report.json lists every link).",
    )
    report = InstrumentReport(
        kind="reliability",
        title="Parallel-form reliability",
        intro=[
            f"original: {original_path.name}; alternate forms: {', '.join(p.name for p, _ in alternates)}",
            f"{len(findings)} pairs get the opposite verdict in their alternate form under every "
            "model (finding I002).",
            *alerts(rows, links),
        ],
        tables=[main, study, link_table],
        data={"rows": rows, "links": links, "findings": [f.to_dict() for f in findings],
              "alerts": alerts(rows, links)},
    )
    report.figures.append(_figure(rows))
    return report


#: A file whose share of uncertain links exceeds this is called out.
ALERT_UNCERTAIN_SHARE = 0.2


def alerts(rows: Sequence[dict[str, Any]], links: Sequence[dict[str, Any]]) -> list[str]:
    """Sentences that call out an alternate form that looks broken, not merely unreliable:
    many links to originals that do not resemble it, links into another bias type, or
    agreement no better than chance under every model (kappa's interval reaching 0)."""
    out = []
    for link in links:
        where = f"ALERT {link['file']} ({link['bias_type']})"
        if link["linked"] and link["uncertain"] > ALERT_UNCERTAIN_SHARE * link["linked"]:
            out.append(
                f"{where}: {link['uncertain']} of {link['linked']} alternates barely resemble the "
                f"pair they are linked to (similarity < {UNCERTAIN_LINK:g}); check the file for "
                "shifted ids or a pre-processing error before reading its numbers"
            )
        if link["cross_type"]:
            out.append(f"{where}: {link['cross_type']} alternates are linked to pairs of another bias type")
        mine = [r for r in rows if r["bias_type"] == link["bias_type"] and r["alternate_file"].endswith(link["file"])]
        if mine and all((r["kappa"].get("low") is None or r["kappa"]["low"] <= 0) for r in mine):
            out.append(
                f"{where}: verdict agreement with the original pairs is not distinguishable from "
                f"chance under any of the {len(mine)} models (kappa's 95% interval reaches 0)"
            )
    return out


def _figure(rows: Sequence[dict[str, Any]]) -> Any:
    import plotly.graph_objects as go

    figure = go.Figure()
    for side, key in (("original pairs", "original_metric_linked"), ("alternate form", "alternate_metric")):
        for model in sorted({r["model"] for r in rows}):
            mine = [r for r in rows if r["model"] == model]
            values = [100 * (r[key].get("value") or 0) for r in mine]
            figure.add_bar(
                name=f"{model}: {side}",
                x=[r["bias_type"] for r in mine],
                y=values,
                error_y={
                    "type": "data", "symmetric": False,
                    "array": [100 * r[key].get("high", 0) - v for r, v in zip(mine, values, strict=True)],
                    "arrayminus": [v - 100 * r[key].get("low", 0) for r, v in zip(mine, values, strict=True)],
                },
            )
    figure.add_hline(y=50, line_dash="dot")
    figure.update_layout(
        title="Metric on the original pairs and on their alternate form (95% CI)",
        barmode="group", yaxis_title="% preferring sent_more", template="plotly_white",
    )
    return figure
