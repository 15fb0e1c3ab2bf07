"""What a revision of StereoSet changed about a model's LMS, SS and ICAT (``curate diff-report``).

Both versions are scored with each model by StereoSet's own methods (through the score
cache, so unchanged items cost nothing); the report gives, per task (intrasentence,
intersentence) and domain and overall:

* LMS, SS and ICAT before and after, exactly as the official evaluation computes them
  (:func:`curate.benchmarks.stereoset.evaluation.evaluate`), and their change with a **paired bootstrap**
  interval: one resample draws item ids (the union of both versions, keyed by task and id)
  with replacement, and both versions are evaluated on that same draw (an item drawn twice
  counts twice in its term), as the CrowS-Pairs report resamples pairs
  (:func:`curate.report.statistics.resample_indices`, same seed, same draws);
* **flips**: items in both versions whose verdict (stereotype sentence preferred over the
  anti-stereotype one, the SS count) changed.

Rendered as report.json, report.md and a plain report.html (deterministic: fixed seed, no
timings; every sentence and label escaped in the HTML).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from curate.benchmarks.stereoset.columns import DOMAINS as STEREOSET_DOMAINS
from curate.benchmarks.stereoset.evaluation import KINDS, ItemScores, evaluate
from curate.benchmarks.stereoset.io import item_of
from curate.benchmarks.stereoset.items import StereoSetItem
from curate.fileio import write_file_set
from curate.formats.dataset import Dataset
from curate.report.statistics import Settings, resample_indices

REPORT_FORMAT = "curate-stereoset-diff-report/1"
METRICS: tuple[str, ...] = ("lms", "ss", "icat")
#: The files of a StereoSet report, in the order they are written.
REPORT_FILES: tuple[str, ...] = ("report.json", "report.md", "report.html")

Unit = tuple[str, str]  # (task, item id)


def _unit(item: StereoSetItem | ItemScores) -> Unit:
    return (item.kind, item.item_id)


def _content(item: StereoSetItem) -> tuple[str, ...]:
    return (item.target, item.bias_type, item.context, item.stereotype, item.anti_stereotype, item.unrelated)


@dataclass(frozen=True)
class GroupSpec:
    """A group of items the metrics are reported for: a task's domain, a task, or all."""

    task: str  # intrasentence | intersentence | all
    name: str  # a domain or "overall"

    def member(self, item: ItemScores) -> bool:
        if self.task != "all" and item.kind != self.task:
            return False
        return self.name == "overall" or item.bias_type == self.name


def group_specs(*versions: Sequence[ItemScores]) -> list[GroupSpec]:
    """The official table's groups that have items in either version, in its order."""
    items = [i for v in versions for i in v]
    specs = []
    for task in KINDS:
        of_task = [i for i in items if i.kind == task]
        if not of_task:
            continue
        present = {i.bias_type for i in of_task}
        domains = [d for d in STEREOSET_DOMAINS if d in present] + sorted(present - set(STEREOSET_DOMAINS))
        specs.extend(GroupSpec(task, d) for d in domains)
        specs.append(GroupSpec(task, "overall"))
    specs.append(GroupSpec("all", "overall"))
    return specs


def alignment_counts(before: Sequence[StereoSetItem], after: Sequence[StereoSetItem]) -> dict[str, int]:
    """Items matched by (task, id): unchanged, edited (any field differs), dropped, added."""
    old = {_unit(i): _content(i) for i in before}
    new = {_unit(i): _content(i) for i in after}
    shared = old.keys() & new.keys()
    edited = sum(old[u] != new[u] for u in shared)
    return {
        "unchanged": len(shared) - edited,
        "edited": edited,
        "dropped": len(old.keys() - new.keys()),
        "added": len(new.keys() - old.keys()),
    }


def _metrics(items: list[ItemScores]) -> dict[str, float] | None:
    if not items:
        return None
    result = evaluate(items)
    return {"count": result.count, "lms": result.lms, "ss": result.ss, "icat": result.icat}


def _resampled(
    weights: np.ndarray, units: Sequence[Unit], scores: dict[Unit, ItemScores], spec: GroupSpec
) -> dict[str, np.ndarray]:
    """LMS, SS and ICAT of one version's group on every resample (NaN where it is empty)."""
    rows = weights.shape[0]
    members = [(k, scores[u]) for k, u in enumerate(units) if u in scores and spec.member(scores[u])]
    if not members:
        return {m: np.full(rows, np.nan) for m in METRICS}
    terms = sorted({s.target for _, s in members})
    column = {t: c for c, t in enumerate(terms)}
    index = np.array([k for k, _ in members])
    onehot = np.zeros((len(members), len(terms)))
    onehot[np.arange(len(members)), [column[s.target] for _, s in members]] = 1.0
    pro = np.array([float(s.stereotype > s.anti_stereotype) for _, s in members])
    related = np.array(
        [float(s.stereotype > s.unrelated) + float(s.anti_stereotype > s.unrelated) for _, s in members]
    )
    w = weights[:, index]
    n = w @ onehot
    with np.errstate(invalid="ignore", divide="ignore"):
        ss_terms = np.where(n > 0, 100.0 * (w @ (onehot * pro[:, None])) / n, np.nan)
        lms_terms = np.where(n > 0, 100.0 * (w @ (onehot * related[:, None])) / (2.0 * n), np.nan)
    defined = (n > 0).sum(axis=1)
    ss = np.where(defined > 0, np.nansum(ss_terms, axis=1) / np.maximum(defined, 1), np.nan)
    lms = np.where(defined > 0, np.nansum(lms_terms, axis=1) / np.maximum(defined, 1), np.nan)
    icat = lms * np.minimum(ss, 100.0 - ss) / 50.0
    return {"lms": lms, "ss": ss, "icat": icat}


def bootstrap_weights(n_units: int, settings: Settings) -> np.ndarray:
    """How often each unit is drawn in each resample (rows: resamples)."""
    if n_units == 0:
        return np.zeros((0, 0))
    idx = resample_indices(n_units, settings.bootstrap_samples, settings.seed)
    rows = settings.bootstrap_samples
    flat = (idx + n_units * np.arange(rows)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_units).reshape(rows, n_units).astype(np.float64)


def compare_items(
    before: Sequence[ItemScores], after: Sequence[ItemScores], settings: Settings
) -> list[dict[str, Any]]:
    """Per group: before/after counts and, per metric, the values, the delta and its interval."""
    old = {_unit(i): i for i in before}
    new = {_unit(i): i for i in after}
    units = list(dict.fromkeys([*old, *new]))
    weights = bootstrap_weights(len(units), settings)
    alpha = (1.0 - settings.confidence) / 2.0
    rows = []
    for spec in group_specs(before, after):
        b = _metrics([i for i in before if spec.member(i)])
        a = _metrics([i for i in after if spec.member(i)])
        rb = _resampled(weights, units, old, spec)
        ra = _resampled(weights, units, new, spec)
        row: dict[str, Any] = {
            "task": spec.task,
            "group": spec.name,
            "before_count": b["count"] if b else 0,
            "after_count": a["count"] if a else 0,
        }
        for metric in METRICS:
            d = ra[metric] - rb[metric]
            d = d[np.isfinite(d)]
            low = high = None
            if d.size:
                low, high = (float(v) for v in np.percentile(d, [100 * alpha, 100 * (1 - alpha)]))
            vb = b[metric] if b else None
            va = a[metric] if a else None
            row[metric] = {
                "before": vb,
                "after": va,
                "delta": None if vb is None or va is None else va - vb,
                "ci_low": low,
                "ci_high": high,
                "defined": int(d.size),
            }
        rows.append(row)
    return rows


def verdict(item: ItemScores) -> str:
    """``stereotype`` when the stereotype sentence scores higher (the SS count), else ``anti``."""
    return "stereotype" if item.stereotype > item.anti_stereotype else "anti-stereotype"


def stereoset_flips(
    before: Sequence[ItemScores],
    after: Sequence[ItemScores],
    before_items: Sequence[StereoSetItem],
    after_items: Sequence[StereoSetItem],
) -> dict[str, Any]:
    """Items in both versions whose verdict changed, with their sentences before and after."""
    new = {_unit(i): i for i in after}
    old_text = {_unit(i): i for i in before_items}
    new_text = {_unit(i): i for i in after_items}
    flipped = []
    compared = 0
    for item in before:
        other = new.get(_unit(item))
        if other is None:
            continue
        compared += 1
        if verdict(item) != verdict(other):
            was, now = old_text[_unit(item)], new_text[_unit(item)]
            flipped.append(
                {
                    "task": item.kind,
                    "item_id": item.item_id,
                    "target": other.target,
                    "bias_type": other.bias_type,
                    "before": verdict(item),
                    "after": verdict(other),
                    "stereotype_before": was.stereotype,
                    "stereotype_after": now.stereotype,
                    "anti_stereotype_before": was.anti_stereotype,
                    "anti_stereotype_after": now.anti_stereotype,
                }
            )
    return {
        "count": len(flipped),
        "compared": compared,
        "to_stereotype": sum(f["after"] == "stereotype" for f in flipped),
        "to_anti_stereotype": sum(f["after"] == "anti-stereotype" for f in flipped),
        "items": flipped,
    }


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class VersionRun:
    """How one (model, version) scoring went (printed, never written into the report)."""

    model: str
    version: str
    items: int
    cache_hits: int
    computed: int


def stereoset_diff_report(
    versions: Sequence[tuple[str, Dataset]],
    models: Sequence[str],
    *,
    cache: Any = None,
    batch_size: int = 32,
    device: str = "auto",
    threads: int | None = None,
    settings: Settings = Settings(),
    progress: Callable[[str, str, int, int], None] | None = None,
    on_loading: Callable[[str], None] | None = None,
) -> tuple[dict[str, Any], list[VersionRun]]:
    """Score both versions (``[(label, dataset), (label, dataset)]``) with every model and
    build the report document. Every model is checked for its kind before any is loaded."""
    from curate.benchmarks.stereoset.run import STEREOSET_METHODS, score_items, scored_items
    from curate.report.rescoring import unique_labels
    from curate.score.cache import open_cache
    from curate.score.kinds import model_kind
    from curate.score.methods import METHODS
    from curate.score.models import load_model

    (before_label, before_ds), (after_label, after_ds) = versions
    labels = unique_labels(list(models))
    kinds = [model_kind(m) for m in models]
    runs: list[VersionRun] = []
    sections = []
    with open_cache(cache) as store:
        for name, label, kind in zip(models, labels, kinds, strict=True):
            if on_loading is not None:
                on_loading(label)
            lm = load_model(name, device=device)
            method = METHODS[STEREOSET_METHODS[kind]]
            scored = []
            texts = []
            notes: list[str] = []
            for version_label, dataset in ((before_label, before_ds), (after_label, after_ds)):
                items, skipped = scored_items(dataset, kind, lm=lm)
                notes.extend(n for n in skipped if n not in notes)

                def report(done: int, total: int, v: str = version_label, m: str = label) -> None:
                    if progress is not None:
                        progress(m, v, done, total)

                result, stats = score_items(
                    items,
                    lm,
                    method,
                    store,
                    batch_size=batch_size,
                    threads=threads,
                    progress=report,
                    source=dataset.source,
                )
                runs.append(VersionRun(label, version_label, stats.items, stats.cache_hits, stats.computed))
                scored.append(result)
                texts.append(items)
            sections.append(
                {
                    "model": name,
                    "label": label,
                    "method": method.name,
                    "notes": notes,
                    "groups": compare_items(scored[0], scored[1], settings),
                    "flips": stereoset_flips(scored[0], scored[1], texts[0], texts[1]),
                }
            )
            del lm
    before_items = [*map(item_of, before_ds.pairs), *before_ds.intersentence]
    after_items = [*map(item_of, after_ds.pairs), *after_ds.intersentence]
    data = {
        "format": REPORT_FORMAT,
        "benchmark": "stereoset",
        "before": {"label": before_label, "items": len(before_items)},
        "after": {"label": after_label, "items": len(after_items)},
        "alignment": {"counts": alignment_counts(before_items, after_items)},
        "settings": {
            "bootstrap_samples": settings.bootstrap_samples,
            "seed": settings.seed,
            "confidence": settings.confidence,
        },
        "models": sections,
    }
    return data, runs


# --------------------------------------------------------------------------- rendering


def _num(value: float | None, sign: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" if sign else f"{value:.2f}"


def _interval(delta: dict[str, Any]) -> str:
    if delta["ci_low"] is None:
        return "-"
    return f"[{delta['ci_low']:+.2f}, {delta['ci_high']:+.2f}]"


def _cell(text: str) -> str:
    """A Markdown table cell: pipes and line breaks of user text cannot break the table."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("\r", " ")


def render_markdown(data: dict[str, Any]) -> str:
    """The report as Markdown: a metrics table per model and its flipped items."""
    counts = data["alignment"]["counts"]
    s = data["settings"]
    lines = [
        f"# StereoSet: {_cell(data['before']['label'])} -> {_cell(data['after']['label'])}",
        "",
        f"{data['before']['items']} items before, {data['after']['items']} after: "
        f"{counts['unchanged']} unchanged, {counts['edited']} edited, {counts['dropped']} dropped, "
        f"{counts['added']} added.",
        "",
        f"LMS (ideal 100), SS (ideal 50) and ICAT (ideal 100) as the official evaluation computes "
        f"them; intervals: {100 * s['confidence']:g}% paired bootstrap over items "
        f"({s['bootstrap_samples']} resamples, seed {s['seed']}).",
    ]
    for m in data["models"]:
        lines += ["", f"## {_cell(m['label'])} ({m['method']})", ""]
        lines += [f"Note: {_cell(n)}" for n in m["notes"]]
        if m["notes"]:
            lines.append("")
        lines.append(
            "| task | group | items before | items after | "
            + " | ".join(f"{x} before | {x} after | {x} delta | {x} CI" for x in ("LMS", "SS", "ICAT"))
            + " |"
        )
        lines.append("|" + "---|" * 16)
        for g in m["groups"]:
            cells = [g["task"], _cell(g["group"]), str(g["before_count"]), str(g["after_count"])]
            for metric in METRICS:
                d = g[metric]
                cells += [_num(d["before"]), _num(d["after"]), _num(d["delta"], sign=True), _interval(d)]
            lines.append("| " + " | ".join(cells) + " |")
        f = m["flips"]
        lines += [
            "",
            f"Flips: {f['count']} of {f['compared']} items in both versions changed verdict "
            f"({f['to_stereotype']} to stereotype, {f['to_anti_stereotype']} to anti-stereotype).",
        ]
        if f["items"]:
            lines += [
                "",
                "| task | item | target | before | after | stereotype (after) | anti-stereotype (after) |",
                "|---|---|---|---|---|---|---|",
            ]
            for x in f["items"]:
                lines.append(
                    "| "
                    + " | ".join(
                        _cell(v)
                        for v in (
                            x["task"],
                            x["item_id"],
                            x["target"],
                            x["before"],
                            x["after"],
                            x["stereotype_after"],
                            x["anti_stereotype_after"],
                        )
                    )
                    + " |"
                )
    return "\n".join(lines) + "\n"


def render_json(data: dict[str, Any]) -> str:
    """Every number of the report, as indented JSON (undefined values are null)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:90em}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .5em}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
)


def _tr(cells: Sequence[str], header: bool = False, numeric_from: int = 99) -> str:
    tag = "th" if header else "td"
    out = []
    for i, cell in enumerate(cells):
        attribute = ' class="n"' if i >= numeric_from and not header else ""
        out.append(f"<{tag}{attribute}>{html.escape(cell)}</{tag}>")
    return "<tr>" + "".join(out) + "</tr>"


def render_html(data: dict[str, Any]) -> str:
    """The report as one self-contained HTML page (no scripts); user text is escaped."""
    counts = data["alignment"]["counts"]
    s = data["settings"]
    title = f"StereoSet: {data['before']['label']} -> {data['after']['label']}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{data['before']['items']} items before, {data['after']['items']} after: "
        f"{counts['unchanged']} unchanged, {counts['edited']} edited, {counts['dropped']} dropped, "
        f"{counts['added']} added. LMS (ideal 100), SS (ideal 50), ICAT (ideal 100); intervals: "
        f"{100 * s['confidence']:g}% paired bootstrap over items ({s['bootstrap_samples']} "
        f"resamples, seed {s['seed']}).</p>",
    ]
    header = ["task", "group", "items before", "items after"] + [
        f"{x} {w}" for x in ("LMS", "SS", "ICAT") for w in ("before", "after", "delta", "CI")
    ]
    for m in data["models"]:
        parts.append(f"<h2>{html.escape(m['label'])} ({html.escape(m['method'])})</h2>")
        parts += [f"<p>Note: {html.escape(n)}</p>" for n in m["notes"]]
        parts.append("<table>" + _tr(header, header=True))
        for g in m["groups"]:
            cells = [g["task"], g["group"], str(g["before_count"]), str(g["after_count"])]
            for metric in METRICS:
                d = g[metric]
                cells += [_num(d["before"]), _num(d["after"]), _num(d["delta"], sign=True), _interval(d)]
            parts.append(_tr(cells, numeric_from=2))
        parts.append("</table>")
        f = m["flips"]
        parts.append(
            f"<p>Flips: {f['count']} of {f['compared']} items in both versions changed verdict "
            f"({f['to_stereotype']} to stereotype, {f['to_anti_stereotype']} to anti-stereotype).</p>"
        )
        if f["items"]:
            parts.append(
                "<table>"
                + _tr(
                    ["task", "item", "target", "before", "after", "stereotype (before -> after)",
                     "anti-stereotype (before -> after)"],
                    header=True,
                )
            )
            for x in f["items"]:
                parts.append(
                    _tr(
                        [
                            x["task"], x["item_id"], x["target"], x["before"], x["after"],
                            f"{x['stereotype_before']} -> {x['stereotype_after']}",
                            f"{x['anti_stereotype_before']} -> {x['anti_stereotype_after']}",
                        ]
                    )
                )
            parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_stereoset_report(data: dict[str, Any], out_dir: Path) -> list[Path]:
    """Render every format first, then write them as one set; return the paths."""
    rendered = {
        "report.json": render_json(data),
        "report.md": render_markdown(data),
        "report.html": render_html(data),
    }
    return write_file_set(out_dir, {name: rendered[name] for name in REPORT_FILES})
