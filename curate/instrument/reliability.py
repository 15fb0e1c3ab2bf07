"""Parallel-form reliability: do paraphrased pairs (an alternate form) give the same verdicts?

A version of the pairs in another language (the French and Dutch CrowS-Pairs, whose ``id`` is the
English pair id) is a cross-lingual parallel form: no model scores both languages, so each model
of the original's language is compared with each model of the alternate's (rows labelled
``original model / alternate model``), with the same statistics.

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

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from curate.errors import InputError
from curate.findings import Finding
from curate.formats import Dataset
from curate.instrument import stats
from curate.instrument.report import InstrumentReport, Table
from curate.instrument.scores import ScoreColumn, columns_for
from curate.modelnames import model_label
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


def link_pairs(
    original: Sequence[Pair], alternate: Dataset, given: Mapping[int, int] | None = None
) -> list[Link]:
    """Link every alternate pair to its original: ``given`` links (alternate id -> original
    id, from ``--links``) first, then by ``id`` if the file has the column, else by text."""
    by_id = {p.pair_id: p for p in original}
    if given:
        alt_by_id = {p.pair_id: p for p in alternate.pairs}
        fixed = [
            Link(a, o, _similarity(alt_by_id[a], by_id[o]), "file") for a, o in sorted(given.items())
        ]
        rest = alternate.with_pairs([p for p in alternate.pairs if p.pair_id not in given])
        taken = set(given.values())
        if rest.shape.id_column == "id":
            return sorted(fixed + link_pairs(original, rest), key=lambda link: link.alternate_id)
        free = [p for p in original if p.pair_id not in taken]
        return sorted(fixed + link_pairs(free, rest), key=lambda link: link.alternate_id)
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


@dataclass(frozen=True)
class LinkOptions:
    """How alternates are linked: ``given`` links per alternate file name (``--links``), and
    the similarity below which a *text* link is dropped (``--min-similarity``)."""

    given: dict[str, dict[int, int]] = field(default_factory=dict)
    min_similarity: float = UNCERTAIN_LINK


def read_links(path: Path, alternates: Sequence[tuple[Path, Dataset]], original: Dataset) -> dict[str, dict[int, int]]:
    """A links CSV (``alternate_id,original_id``, plus ``file`` naming the alternate file when
    several are given): ``{alternate file name: {alternate id: original id}}``. Every id must
    exist; a wrong one is named with its line."""
    import csv

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file (--links)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the links file ({exc})") from None
    try:
        return _parse_links(path, text, alternates, original)
    except csv.Error as exc:  # a field over csv's size limit, a NUL byte in older Pythons
        raise InputError(f"{path}: not readable as a links CSV ({exc})") from None


def _parse_links(
    path: Path, text: str, alternates: Sequence[tuple[Path, Dataset]], original: Dataset
) -> dict[str, dict[int, int]]:
    import csv

    reader = csv.DictReader(text.splitlines())
    header = reader.fieldnames or []
    if "alternate_id" not in header or "original_id" not in header:
        raise InputError(f"{path}: line 1: a links file has the columns alternate_id,original_id (and file)")
    names = {p.name: d for p, d in alternates}
    originals = {p.pair_id for p in original.pairs}
    out: dict[str, dict[int, int]] = {}
    for line, row in enumerate(reader, start=2):
        name = (row.get("file") or "").strip()
        if not name:
            if len(names) != 1:
                raise InputError(f"{path}: line {line}: name the alternate file in a `file` column (several are given)")
            name = next(iter(names))
        if name not in names:
            raise InputError(f"{path}: line {line}: {name!r} is none of the alternate files given")
        try:
            alternate, target = int(row["alternate_id"]), int(row["original_id"])
        except (TypeError, ValueError):
            raise InputError(f"{path}: line {line}: alternate_id and original_id must be integers") from None
        if alternate not in {p.pair_id for p in names[name].pairs}:
            raise InputError(f"{path}: line {line}: {name} has no pair {alternate}")
        if target not in originals:
            raise InputError(f"{path}: line {line}: the original has no pair {target}")
        mine = out.setdefault(name, {})
        if alternate in mine or target in mine.values():
            raise InputError(f"{path}: line {line}: pair {alternate} or {target} is linked twice")
        mine[alternate] = target
    if not out:
        raise InputError(
            f"{path}: no links given (a header without rows); add alternate_id,original_id rows, "
            "or leave out --links to link by id or by text"
        )
    return out


def _ordered_types(types: set[str]) -> list[str]:
    return [t for t in BIAS_TYPES if t in types] + sorted(types - set(BIAS_TYPES))


def _pct(e: stats.Estimate) -> str:
    return e.text(1, 100.0)


def parallel_forms(
    original_path: Path,
    original: Dataset,
    alternates: Sequence[tuple[Path, Dataset]],
    columns: Sequence[ScoreColumn],
    options: LinkOptions | None = None,
) -> tuple[InstrumentReport, list[Finding]]:
    """The parallel-form report and the pairs whose verdict flips under every model (where
    such flips beat chance). ``report.data["unused"]`` lists every input that contributed
    nothing (an alternate file without scores, a model missing on one side) and why."""
    options = options or LinkOptions()
    base_columns = {c.key: c for c in columns_for(original_path, columns)}
    pairs = {p.pair_id: p for p in original.pairs}
    rows: list[dict[str, Any]] = []
    link_rows: list[dict[str, Any]] = []
    every_link: list[dict[str, Any]] = []
    unused: list[dict[str, Any]] = []
    chance: list[dict[str, Any]] = []
    findings: list[Finding] = []
    for path, dataset in alternates:
        alt_columns = {c.key: c for c in columns_for(path, columns)}
        if _crosslingual(original, dataset):
            couples = [
                (alt_columns[a], base_columns[b])
                for b in sorted(base_columns)
                for a in sorted(alt_columns)
            ]
            if not couples:
                unused.append({"input": path.name, "score_set": "",
                               "reason": "no model is scored on this file, or none on the original: it contributes nothing",
                               "contributes_nothing": True})
        else:
            couples = [(alt_columns[k], base_columns[k]) for k in sorted(alt_columns.keys() & base_columns.keys())]
        for key in sorted(alt_columns.keys() - base_columns.keys()) if not _crosslingual(original, dataset) else ():
            unused.append({"input": path.name, "score_set": alt_columns[key].label,
                           "reason": f"no scores of {alt_columns[key].label} on {original_path.name}"})
        for key in sorted(base_columns.keys() - alt_columns.keys()) if not _crosslingual(original, dataset) else ():
            unused.append({"input": path.name, "score_set": base_columns[key].label,
                           "reason": f"no scores of {base_columns[key].label} on {path.name}"})
        if not _crosslingual(original, dataset) and not alt_columns.keys() & base_columns.keys():
            unused.append({"input": path.name, "score_set": "",
                           "reason": "no model is scored on both this file and the original: it contributes nothing",
                           "contributes_nothing": True})
        links = link_pairs(original.pairs, dataset, options.given.get(path.name))
        excluded = [link for link in links if link.by == "text" and link.similarity < options.min_similarity]
        used = [link for link in links if link not in excluded]
        every_link += [
            {"file": path.name, **asdict(link), "used": link not in excluded} for link in links
        ]
        alt_pairs = {p.pair_id: p for p in dataset.pairs}
        flips: dict[int, list[str]] = {}
        checked: dict[int, list[str]] = {}
        rates: dict[str, list[bool]] = {}
        for bias_type in _ordered_types({p.bias_type for p in dataset.pairs}):
            typed_all = [link for link in links if alt_pairs[link.alternate_id].bias_type == bias_type]
            typed = [link for link in used if alt_pairs[link.alternate_id].bias_type == bias_type]
            sims = [link.similarity for link in typed_all]
            link_rows.append(
                {
                    "file": path.name,
                    "bias_type": bias_type,
                    "alternates": sum(p.bias_type == bias_type for p in dataset.pairs),
                    "linked": len(typed_all),
                    "used": len(typed),
                    "excluded": len(typed_all) - len(typed),
                    "by": "/".join(sorted({link.by for link in typed_all})) or "-",
                    "by_counts": {
                        by: sum(link.by == by for link in typed_all) for by in sorted({link.by for link in typed_all})
                    },
                    "crosslingual": _crosslingual(original, dataset),
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
            for alt, base in couples:
                row = _compare(bias_type, dataset, alt, base, typed, original)
                if alt.key != base.key:  # a cross-lingual form: a model of each language
                    row["label"] = f"{base.label} / {alt.label}"
                    row["original_label"] = base.label
                rows.append(row)
                for original_id, same in row.pop("_same"):
                    checked.setdefault(original_id, []).append(alt.label)
                    rates.setdefault(alt.label, []).append(not same)
                    if not same:
                        flips.setdefault(original_id, []).append(alt.label)
        baseline = _flip_chance(path.name, flips, checked, rates)
        if baseline is not None:
            chance.append(baseline)
            if baseline["beats_chance"]:
                findings += [
                    Finding(
                        pair_id,
                        "I002",
                        "parallel-form-flip",
                        f"the paraphrased version ({path.name}) gets the opposite verdict under all "
                        f"{len(models)} models ({', '.join(models)}); {baseline['observed']} pairs of "
                        f"the file flip under every model where {baseline['expected']:.1f} would by "
                        f"chance (p={baseline['p']:.2g}): review whether the wording decides the verdict",
                    )
                    for pair_id, models in sorted(flips.items())
                    if len(models) == len(checked[pair_id]) and len(models) >= 2
                ]
    report = _report(rows, link_rows, original_path, alternates, findings, options, chance, unused)
    report.data["every_link"] = every_link
    report.data["unused"] = unused
    report.data["flip_chance"] = chance
    return report, findings


def _crosslingual(original: Dataset, alternate: Dataset) -> bool:
    """Whether ``alternate`` is the same pairs in another language (the French and Dutch
    CrowS-Pairs, aligned by the English pair id): its forms are scored by the models of each
    language, so every model of one is compared with every model of the other."""
    return (
        original.language is not None
        and alternate.language is not None
        and original.language != alternate.language
    )


def _flip_chance(
    name: str, flips: Mapping[int, list[str]], checked: Mapping[int, list[str]], rates: Mapping[str, list[bool]]
) -> dict[str, Any] | None:
    """How many pairs flip under every model, and how many would if each model flipped its
    pairs independently at its own rate (the sum over pairs of the product of the rates); a
    one-sided binomial test (scipy) of the observed count against that expectation."""
    from scipy.stats import binomtest

    rate = {label: float(np.mean(v)) for label, v in rates.items() if v}
    eligible = [pid for pid, models in checked.items() if len(models) >= 2]
    if not eligible:
        return None
    chances = [float(np.prod([rate[m] for m in checked[pid]])) for pid in eligible]
    observed = sum(len(flips.get(pid, [])) == len(checked[pid]) for pid in eligible)
    expected = float(np.sum(chances))
    mean_chance = expected / len(eligible)
    p = float(binomtest(observed, len(eligible), mean_chance, alternative="greater").pvalue) if 0 < mean_chance < 1 else 1.0
    return {
        "file": name, "pairs": len(eligible), "observed": observed, "expected": expected,
        "rates": rate, "p": p, "beats_chance": p < 0.05 and observed > expected,
    }


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
    # the whole type holds the originals of the linked alternates: the two shares overlap
    in_whole = set(whole)
    overlap = [(a, o) for link, a, o in zip(paired, v_alt, v_orig, strict=True) if link.original_id in in_whole]
    study = overlapping_difference(
        [alt.verdict(i) or 0 for i in alt_ids], [base.verdict(i) or 0 for i in whole], overlap
    )
    imported = alt.provenance.get("imported") or {}
    published, published_n, published_note = published_for(
        imported, bias_type, {p.bias_type for p in dataset.pairs}
    )
    return {
        "bias_type": bias_type,
        "model": model_label(alt.model),
        "method": alt.method,
        "label": alt.label,
        "alternate_file": Path(dataset.source).name,
        "alternate_metric": alt_metric.to_dict(),
        "alternate_metric_linked": stats.proportion(sum(v_alt), len(v_alt)).to_dict(),
        "alternate_metric_as_published": published,
        "as_published_n": published_n,
        "as_published_note": published_note,
        "original_metric_linked": stats.proportion(sum(v_orig), len(v_orig)).to_dict(),
        "difference": stats.paired_difference(v_alt, v_orig).to_dict(),
        "agreement": stats.proportion(sum(same), len(same)).to_dict(),
        "kappa": stats.kappa(v_orig, v_alt).to_dict(),
        "mcnemar_p": stats.mcnemar_p(v_orig, v_alt),
        "gap_correlation": stats.spearman(gaps_orig, gaps_alt).to_dict(),
        "baseline_whole_type": baseline.to_dict(),
        "study_view_difference": study.to_dict(),
        "published_explained": explain_published(imported, alt_metric, dataset, bias_type, published)
        or published_note,
        "_same": [(link.original_id, s) for link, s in zip(paired, same, strict=True)],
    }


def published_for(
    imported: Mapping[str, Any], bias_type: str, types: set[str]
) -> tuple[float | None, int | None, str]:
    """The published metric of one bias type of an imported score set, the number of published
    verdicts it is the mean of, and, where there is none, why. An alternate file that holds
    several bias types has one published mean per type (recorded by the import); an import
    made before that was recorded holds the whole file's mean only, which is no type's number
    and is not shown."""
    by_type = imported.get("published_metric_by_bias_type")
    if isinstance(by_type, Mapping):
        entry = by_type.get(bias_type)
        if isinstance(entry, Mapping) and entry.get("metric") is not None:
            return float(entry["metric"]), int(entry.get("n", 0)) or None, ""
        return None, None, ""
    whole = imported.get("published_metric_score")
    if whole is None:
        return None, None, ""
    if len(types) == 1:
        return float(whole), imported.get("published_rows") or imported.get("rows"), ""
    return None, None, (
        f"the import holds only the whole file's published mean ({len(types)} bias types): "
        "import the file again to see it per bias type"
    )


#: How the study's view (the alternate subset against the whole type) gets its interval.
STUDY_METHOD = "difference of overlapping shares, MOVER-Wilson CI with the overlap's correlation"


def overlapping_difference(
    first: Sequence[int], second: Sequence[int], overlap: Sequence[tuple[int, int]]
) -> stats.Estimate:
    """``mean(first) - mean(second)`` of two 0/1 samples that share units in part (the
    alternates of a bias type, and all original pairs of the type, which hold the originals of
    the linked alternates; ``overlap``: the (first, second) verdicts of each linked pair).

    Newcombe's square-and-add interval assumes independent samples; here the linked pairs make
    the shares correlated. The MOVER interval (Zou & Donner 2008, Newcombe's method with a
    correlation) takes each share's Wilson limits (statsmodels) and their estimated
    correlation, ``m cov(a, o) / (n1 n2)`` over the share's standard errors (``m`` linked
    pairs); with no overlap it is Newcombe's independent interval exactly."""
    from statsmodels.stats.proportion import proportion_confint

    n1, n2 = len(first), len(second)
    if n1 == 0 or n2 == 0:
        return stats.Estimate(None, n1 + n2, method=STUDY_METHOD)
    p1, p2 = float(np.mean(first)), float(np.mean(second))
    l1, u1 = (float(v) for v in proportion_confint(sum(first), n1, alpha=1 - stats.LEVEL, method="wilson"))
    l2, u2 = (float(v) for v in proportion_confint(sum(second), n2, alpha=1 - stats.LEVEL, method="wilson"))
    r = 0.0
    if len(overlap) >= 2 and 0 < p1 < 1 and 0 < p2 < 1:
        pairs = np.asarray(overlap, dtype=float)
        covariance = len(overlap) * float(np.cov(pairs[:, 0], pairs[:, 1], ddof=0)[0, 1]) / (n1 * n2)
        r = float(np.clip(covariance / np.sqrt(p1 * (1 - p1) / n1 * p2 * (1 - p2) / n2), -1.0, 1.0))
    d = p1 - p2
    low = d - np.sqrt(max((p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * r * (p1 - l1) * (u2 - p2), 0.0))
    high = d + np.sqrt(max((u1 - p1) ** 2 + (p2 - l2) ** 2 - 2 * r * (u1 - p1) * (p2 - l2), 0.0))
    return stats.Estimate(
        d, n1 + n2, float(max(low, -1.0)), float(min(high, 1.0)),
        method=f"{STUDY_METHOD} ({r:.2f} over {len(overlap)} linked pairs)",
    )


def explain_published(
    imported: Mapping[str, Any], recomputed: stats.Estimate, dataset: Dataset, bias_type: str,
    published: float | None = None,
) -> str:
    """Why the published number of an imported score set differs from the one recomputed here,
    in words, from what the import found (``summary.json``'s ``imported``): rows whose sentence
    columns were swapped, rows whose published verdict disagrees with their own sentence
    scores, and the direction labels of those rows. ``published`` is this bias type's published
    number (:func:`published_for`); without one nothing is explained."""
    if published is None or recomputed.value is None:
        return ""
    directions = {p.pair_id: p.direction for p in dataset.pairs if p.bias_type == bias_type}

    def labels(ids: Sequence[int]) -> str:
        counts: dict[str, int] = {}
        for i in ids:
            if i in directions:
                counts[directions[i]] = counts.get(directions[i], 0) + 1
        return ", ".join(f"{n} labelled {d}" for d, n in sorted(counts.items()))

    gap = published - 100 * recomputed.value
    disagree = [i for i in imported.get("disagreeing_pair_ids", []) if i in directions]
    swapped = [i for i in imported.get("swapped_pair_ids", []) if i in directions]
    parts = [f"published {published:.1f}, recomputed {100 * recomputed.value:.1f} ({gap:+.1f} points)"]
    if disagree:
        parts.append(
            f"the file's score column contradicts the verdict of its own two sentence scores on "
            f"{len(disagree)} of {recomputed.n} rows ({labels(disagree)})"
        )
    if swapped:
        parts.append(
            f"{len(swapped)} rows hold the pair's two sentences in each other's columns "
            f"({labels(swapped)}): the pipeline read those rows' direction the other way round"
        )
    if imported.get("negated"):
        parts.append("the lower sentence score wins in that pipeline (numbers negated on import)")
    if not disagree and not swapped:
        parts.append("the file's verdicts agree with its sentence scores")
    return "; ".join(parts)


def _e(d: dict[str, Any]) -> stats.Estimate:
    return stats.Estimate.from_dict(d)


def _report(
    rows: list[dict[str, Any]],
    links: list[dict[str, Any]],
    original_path: Path,
    alternates: Sequence[tuple[Path, Dataset]],
    findings: Sequence[Finding],
    options: LinkOptions,
    chance: Sequence[dict[str, Any]],
    unused: Sequence[dict[str, Any]],
) -> InstrumentReport:
    main = Table(
        "Parallel forms: the same pairs in two wordings",
        ["bias type", "model · method", "n", "original % [CI]", "alternate % [CI]", "Δ pp [CI]",
         "agreement % [CI]", "kappa [CI]", "gap rho [CI]", "McNemar p", "as published %"],
        [
            [
                r["bias_type"], r["label"], str(r["agreement"]["n"]),
                _pct(_e(r["original_metric_linked"])), _pct(_e(r["alternate_metric_linked"])),
                _pct(_e(r["difference"])), _pct(_e(r["agreement"])), _e(r["kappa"]).text(2),
                _e(r["gap_correlation"]).text(2),
                "-" if r["mcnemar_p"] is None else f"{r['mcnemar_p']:.3g}",
                _published_cell(r),
            ]
            for r in rows
        ],
        "Metric = % of pairs whose more stereotyping sentence the model prefers (50 = none); "
        "original % and alternate % are over the same linked pairs (n), as the scores imply on "
        "the dataset's own sent_more; 'as published' is the mean of the file's score column "
        "over that bias type's rows (its own n), explained in the table 'Published numbers'. A "
        "reliable instrument gives a Δ near 0, high agreement and kappa, and a positive gap "
        "correlation. 95% intervals: shares Wilson; Δ Tango's score interval for paired shares "
        "(valid down to one pair; it inverts the asymptotic score test, so near p = 0.05 it "
        "may exclude 0 where the exact McNemar p is just above 0.05); kappa a percentile bootstrap over pairs (inside [-1, 1]; none "
        f"under {stats.MIN_BOOTSTRAP} pairs, nor at perfect agreement, where every resample "
        "gives 1); gap rho a bootstrap from "
        f"{stats.MIN_BOOTSTRAP} pairs. With n under about 30 the intervals span tens of points "
        "and a kappa means little.",
    )
    explained = Table(
        "Published numbers: why they differ from the recomputed ones",
        ["bias type", "model · method", "explanation"],
        [[r["bias_type"], r["label"], r["published_explained"]] for r in rows if r["published_explained"]],
        "From what `curate score --import` found in each published file (summary.json, "
        "'imported'): the published % is the mean of the file's score column; the recomputed % "
        "takes each verdict from the two sentence scores on the dataset's own sent_more.",
    )
    study = Table(
        "The study's view (weaker comparison: different pairs)",
        ["bias type", "model · method", "alternate % [CI]", "whole type % [CI]", "Δ pp [CI]"],
        [
            [r["bias_type"], r["label"], _pct(_e(r["alternate_metric"])),
             _pct(_e(r["baseline_whole_type"])), _pct(_e(r["study_view_difference"]))]
            for r in rows
        ],
        "The alternate subset (all its rows of the type, linked or not) against the metric of "
        "all original pairs of its bias type, as Martínez & Kremer compared them. It mixes the "
        "effect of the rewording with the choice of the pairs that were rewritten; prefer the "
        "paired table above. The whole type holds the originals of the linked alternates, so "
        "the two shares are not independent: Δ's 95% interval is MOVER-Wilson with their "
        "estimated correlation (Newcombe's square-and-add interval when they share no pair); "
        "Δ's n is the two samples' sizes added.",
    )
    link_table = Table(
        "Links from alternates to original pairs",
        ["file", "bias type", "alternates", "linked", "used", "excluded", "by", "mean similarity",
         "min", "uncertain", "close runner-up", "other type"],
        [
            [l_["file"], l_["bias_type"], str(l_["alternates"]), str(l_["linked"]), str(l_["used"]),
             str(l_["excluded"]), l_["by"],
             _similarity_cell(l_, "similarity_mean"), _similarity_cell(l_, "similarity_min"),
             "-" if l_.get("crosslingual") else str(l_["uncertain"]),
             str(l_["close_runner_up"]) if "text" in l_["by"] else "-",
             str(l_["cross_type"])]
            for l_ in links
        ],
        f"Similarity: rapidfuzz token-sort ratio (0-100) of the two sentences of an alternate and "
        f"its original (the paraphrases here average about 70-80). Links below {UNCERTAIN_LINK:g} "
        "are uncertain: a paraphrase seldom moves that far, a wrong link or a broken row does. "
        "Links 'by text' were assigned one-to-one within the bias type because the file has no "
        f"id column; those below --min-similarity ({options.min_similarity:g}) are excluded from "
        "every statistic ('excluded'); links 'by file' come from --links. 'close runner-up' "
        f"counts text links whose next-best original is within {CLOSE_MARGIN:g} points "
        "(report.json lists every link). Between two languages the similarity of the texts "
        "says nothing of the link (a translation shares few tokens with its original): it is "
        "not shown, and no alert is drawn from it.",
    )
    flip_table = Table(
        "Pairs flipping under every model, against chance",
        ["file", "pairs", "flip under every model", "expected by chance", "p", "findings"],
        [
            [c["file"], str(c["pairs"]), str(c["observed"]), f"{c['expected']:.1f}", f"{c['p']:.3g}",
             "I002" if c["beats_chance"] else "none (not above chance)"]
            for c in chance
        ],
        "Expected by chance: each model flipping its pairs independently at its own rate (the "
        "sum over pairs of the product of the models' flip rates); p: one-sided binomial test "
        "(scipy). Findings I002 are written only for files where the count beats chance: with "
        "2 models a flip under both is common, and says nothing of a pair by itself.",
    )
    notes = [f"NOTE {u['input']}: {u['reason']}" for u in [*unused, *_excluded(links)]]
    notes += _link_notes(links) + small_n_notes(rows)
    report = InstrumentReport(
        kind="reliability",
        title="Parallel-form reliability",
        intro=[
            f"original: {original_path.name}; alternate forms: {', '.join(p.name for p, _ in alternates)}",
            f"{len(findings)} pairs get the opposite verdict in their alternate form under every "
            "model where that beats chance (finding I002).",
            *notes,
            *alerts(rows, links),
        ],
        tables=[main, explained, study, link_table, flip_table],
        data={"rows": rows, "links": links, "findings": [f.to_dict() for f in findings],
              "alerts": alerts(rows, links)},
    )
    report.figures.append(_figure(rows))
    return report


def _excluded(links: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    """Links excluded for low similarity, said in the introduction."""
    out = []
    for link in links:
        if link["excluded"]:
            out.append({"input": f"{link['file']} ({link['bias_type']})",
                        "reason": f"{link['excluded']} of {link['linked']} text links below "
                        "--min-similarity excluded from every statistic"})
    return out


#: A file whose share of uncertain links exceeds this is called out.
ALERT_UNCERTAIN_SHARE = 0.2


def alerts(rows: Sequence[dict[str, Any]], links: Sequence[dict[str, Any]]) -> list[str]:
    """Sentences that call out an alternate form that looks broken, not merely unreliable:
    many links to originals that do not resemble it (same-language text only: a translation
    never resembles its original), links into another bias type, or agreement no better than
    chance under every model. The last needs evidence: every model's kappa has an interval
    (:data:`~curate.intervals.MIN_BOOTSTRAP` pairs or more, not every resample at one value)
    and it reaches 0. A kappa with no interval is never counted as reaching 0; where the pairs
    are too few, :func:`small_n_notes` says so instead."""
    out = []
    for link in links:
        where = f"ALERT {link['file']} ({link['bias_type']})"
        if (
            not link.get("crosslingual")
            and link["linked"]
            and link["uncertain"] > ALERT_UNCERTAIN_SHARE * link["linked"]
        ):
            out.append(
                f"{where}: {link['uncertain']} of {link['linked']} alternates barely resemble the "
                f"pair they are linked to (similarity < {UNCERTAIN_LINK:g}); check the file for "
                "shifted ids or a pre-processing error before reading its numbers"
            )
        if link["cross_type"]:
            out.append(f"{where}: {link['cross_type']} alternates are linked to pairs of another bias type")
        mine = _rows_of(rows, link)
        kappas = [r["kappa"] for r in mine]
        if kappas and all(k.get("low") is not None and k["low"] <= 0 for k in kappas):
            out.append(
                f"{where}: verdict agreement with the original pairs is not distinguishable from "
                f"chance under any of the {len(mine)} models (kappa's 95% interval reaches 0 for "
                f"each, n={', '.join(str(k['n']) for k in kappas)})"
            )
    return out


def _rows_of(rows: Sequence[dict[str, Any]], link: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in rows if r["bias_type"] == link["bias_type"] and r["alternate_file"] == link["file"]]


def small_n_notes(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Where kappa has no interval for want of pairs: whether agreement beats chance cannot be
    told there, said once per file and bias type (instead of an alert either way)."""
    out = []
    seen = set()
    for r in rows:
        key = (r["alternate_file"], r["bias_type"])
        n = r["kappa"]["n"]
        if key in seen or not 0 < n < stats.MIN_BOOTSTRAP:
            continue
        seen.add(key)
        out.append(
            f"NOTE {key[0]} ({key[1]}): {n} linked pairs: too few pairs to tell whether verdict "
            f"agreement beats chance (kappa gets an interval from {stats.MIN_BOOTSTRAP} pairs)"
        )
    return out


def _link_notes(links: Sequence[dict[str, Any]]) -> list[str]:
    """How the pairs of a file were linked when ``--links`` covered only part of it."""
    out = []
    for link in links:
        counts = link.get("by_counts") or {}
        if counts.get("file") and len(counts) > 1:
            rest = ", ".join(f"{n} by {by}" for by, n in counts.items() if by != "file")
            out.append(
                f"NOTE {link['file']} ({link['bias_type']}): {counts['file']} of {link['linked']} "
                f"pairs linked by --links, the other {rest}"
            )
    return out


def _similarity_cell(link: dict[str, Any], key: str) -> str:
    if link.get("crosslingual"):
        return "- (other language)"
    return "-" if link[key] is None else f"{link[key]:.1f}"


def _published_cell(row: dict[str, Any]) -> str:
    if row["alternate_metric_as_published"] is None:
        return "-"
    n = row.get("as_published_n")
    return f"{row['alternate_metric_as_published']:.2f}" + (f" n={n}" if n else "")


def _figure(rows: Sequence[dict[str, Any]]) -> Any:
    import plotly.graph_objects as go

    figure = go.Figure()
    for side, key in (("original pairs", "original_metric_linked"), ("alternate form", "alternate_metric_linked")):
        for model in sorted({r["label"] for r in rows}):
            mine = [r for r in rows if r["label"] == model]
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
