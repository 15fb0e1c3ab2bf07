"""Fake score sets and sweep outputs for the edge tests of ``explore`` and ``across`` (issue 44):
2 to 22 models, perfect agreement, non-finite rows, two score sets under one label, benchmarks
that share no model.

Score sets are made as a user makes them without a model run: a metric.py-style output per
model, imported with ``curate score --import`` through the CLI (cheap: no weights). Sweep outputs
are written by hand in the shape ``curate sweep`` writes (``sweep.json`` naming each column's
``summary.json`` or ``stereoset.json``), as tests/test_across_report.py does. Nothing here
computes a figure the tests check: they recompute each with numpy and scipy.
"""

from __future__ import annotations

import csv
import json
import math
import random
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from curate.pairs import BIAS_TYPES, Pair

runner = CliRunner()
#: Pairs per data file: enough for a Wilson interval, small enough for 44 imports in seconds.
N_PAIRS = 30


def label(i: int) -> str:
    return f"model-{i:02d}"


def project(root: Path) -> Path:
    """A project folder (explore writes under [tool.curate] output-dir)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[tool.curate]\noutput-dir = "build"\n', encoding="utf-8")
    return root


def pairs(n: int = N_PAIRS) -> list[Pair]:
    return [
        Pair(i, f"The {BIAS_TYPES[i % len(BIAS_TYPES)]} person number {i} is lazy.",
             f"The other person number {i} is lazy.", "stereo" if i % 4 else "antistereo",
             BIAS_TYPES[i % len(BIAS_TYPES)])
        for i in range(n)
    ]  # fmt: skip


def write_data(root: Path, name: str = "a.csv") -> Path:
    path = root / name
    write_pairs(pairs(), path)
    return path


def _published(path: Path, model: int, seed: int, perfect: bool) -> None:
    """A metric.py output: per pair two sentence scores and the verdict. ``perfect``: every
    model prefers the same sentence of every pair (only the magnitudes differ)."""
    rng = random.Random(f"{model}:{seed}")
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sent_more", "sent_less", "sent_more_score", "sent_less_score", "score"])
        for p in pairs():
            more, less = -20 - 5 * rng.random(), -20 - 5 * rng.random()
            if perfect and (more > less) != (p.pair_id % 3 != 0):
                more, less = less, more
            writer.writerow([p.sent_more, p.sent_less, repr(more), repr(less), int(more > less)])


def import_sets(
    root: Path, data: Path, out: str, n_models: int, seed: int, perfect: bool = False
) -> Path:
    """``n_models`` score sets (model-00, model-01, ...) imported for ``data`` into ``out``."""
    for i in range(n_models):
        published = root / f"published-{out}-{i:02d}.csv"
        _published(published, i, seed, perfect)
        result = runner.invoke(
            app, ["score", str(data), "--import", str(published), "-m", label(i),
                  "--out", str(root / out), "--format", "json"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    return root / out


def set_dir(scores: Path, i: int) -> Path:
    """The folder of model i's score set under a ``--out`` directory."""
    (summary,) = (scores / label(i)).rglob("summary.json")
    return summary.parent


def spoil(scores: Path, i: int, pair_ids: dict[int, str]) -> None:
    """Write a non-finite score ("nan", "inf", "-inf") into model i's scores.csv for each
    pair id given (both the compared and the full columns, as a damaged file would have)."""
    path = set_dir(scores, i) / "scores.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    fields = list(rows[0])
    for row in rows:
        bad = pair_ids.get(int(row["pair_id"]))
        if bad is not None:
            for key in ("sent_more_score", "sent_more_score_full"):
                if key in row:
                    row[key] = bad
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def own_scores(scores: Path, i: int) -> dict[int, tuple[float, float]]:
    """Model i's finite scores as its scores.csv holds them (read with csv, not curate)."""
    with (set_dir(scores, i) / "scores.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    out = {}
    for row in rows:
        more, less = float(row["sent_more_score_full"]), float(row["sent_less_score_full"])
        if math.isfinite(more) and math.isfinite(less):
            out[int(row["pair_id"])] = (more, less)
    return out


def summary_metric(scores: Path, i: int) -> float:
    return json.loads((set_dir(scores, i) / "summary.json").read_text("utf-8"))["summary"][
        "metric_score"
    ]


def site_document(site: Path) -> dict[str, Any]:
    """The explorer's data as the page reads it (the JSON block of index.html)."""
    text = (site / "index.html").read_text(encoding="utf-8")
    match = re.search(r'<script id="curate-data" type="application/json">(.*?)</script>', text, re.S)
    assert match, "no data block in index.html"
    return json.loads(match.group(1))


def column_cells(document: dict[str, Any], column: int, version: int) -> dict[int, tuple[float, float]]:
    """A column's score cells of one version, by pair id."""
    return {
        row["id"]: (row["s"][column][version][0], row["s"][column][version][1])
        for row in document["rows"]
        if row["s"][column][version] is not None
    }


# ------------------------------------------------------------------ across: sweep outputs


def _pair_summary(method: str, biased: int, n: int) -> dict[str, Any]:
    return {"method": method, "summary": {"pairs": n, "biased": biased, "ties": 0,
                                          "metric_score": 100.0 * biased / n}}  # fmt: skip


def _stereoset(method: str, ss: float) -> dict[str, Any]:
    """A stereoset.json whose overall SS is ``ss``, over 4 target terms (LMS 90)."""
    terms = [{"ss": ss + d, "lms": 90.0 + d} for d in (-1.5, -0.5, 0.5, 1.5)]
    icat = 90.0 * min(ss, 100 - ss) / 50
    return {"method": method, "results": {"overall": {"ss": ss, "lms": 90.0, "icat": icat,
                                                      "terms": terms}}}  # fmt: skip


def sweep(root: Path, columns: list[tuple[str, str, str, dict[str, Any]]], n: int = 200) -> Path:
    """A sweep output: one column entry per (benchmark, version, method, {model: value}).
    A pair benchmark's value is the number of biased pairs of ``n`` (or any JSON value written
    as the metric score, e.g. NaN); StereoSet's is its SS."""
    entries = []
    for benchmark, version, method, values in columns:
        for model, value in values.items():
            path = root / version / model / method
            path.mkdir(parents=True, exist_ok=True)
            if benchmark == "stereoset":
                name, document = "stereoset.json", _stereoset(method, float(value))
            elif isinstance(value, int):
                name, document = "summary.json", _pair_summary(method, value, n)
            else:  # a damaged summary: the value as its metric score
                name, document = "summary.json", _pair_summary(method, 100, n)
                document["summary"]["metric_score"] = value
            (path / name).write_text(json.dumps(document), encoding="utf-8")
            entries.append({"version": version, "model": model, "method": method, "status": "ok",
                            "benchmark": benchmark, "path": f"{version}/{model}/{method}",
                            "file": name})  # fmt: skip
    (root / "sweep.json").write_text(json.dumps({"columns": entries}), encoding="utf-8")
    return root


def strict_json(text: str) -> Any:
    """JSON as a browser's JSON.parse reads it: NaN and Infinity are refused."""
    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)
