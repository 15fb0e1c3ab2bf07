"""``curate diff-report raw REVISION --scores DIR``: the full report from score sets on disk.

Issue 47: a study that has the published per-pair outputs of 22 models on the raw and the
revised version (imported with ``curate score DATA --import OUTPUT.csv -m LABEL``) gets its
flips, McNemar, robust flips and per-bias-type deltas with no model loaded. The versions are a
real project's: ``raw`` (the registered, checksummed file) and a release (1.0.0-test, its
``dist/crows_pairs_revised.csv``), at the issue's scale (22 models x 2 versions).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from curate.pairs import Pair
from tests.support.many_columns import MODELS, pairs
from tests.support.release_project import make_project

runner = CliRunner()
RELEASE = "1.0.0-test"
REPO = Path(__file__).resolve().parents[1]


def _scores(model: str, pair: Pair) -> tuple[float, float]:
    """A published output's two scores for a pair: fixed per (model, pair text), so an edited
    pair may flip and an unchanged one never does."""
    digest = hashlib.sha256(f"{model}|{pair.sent_more}|{pair.sent_less}".encode()).digest()
    more, less = -20 - digest[0] / 50, -20 - digest[1] / 50
    return more, less


def _write_published(path: Path, model: str, version: tuple[Pair, ...]) -> None:
    """A metric.py-format output (its columns, an unnamed index column first) for ``version``."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["", "sent_more", "sent_less", "sent_more_score", "sent_less_score",
                         "score", "stereo_antistereo", "bias_type"])  # fmt: skip
        for index, pair in enumerate(version):
            more, less = _scores(model, pair)
            writer.writerow([index, pair.sent_more, pair.sent_less, f"{more:.3f}", f"{less:.3f}",
                             int(round(more, 3) > round(less, 3)), pair.direction,
                             pair.bias_type])  # fmt: skip


def _verdict(model: str, pair: Pair) -> int:
    more, less = _scores(model, pair)
    return int(round(more, 3) > round(less, 3))


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with raw and release 1.0.0-test, and 22 imported score sets of each."""
    root = tmp_path_factory.mktemp("study")
    before, after = pairs()
    make_project(root, before)
    release = root / "data" / "clean" / RELEASE
    (release / "dist").mkdir(parents=True)
    (release / "recipe.toml").write_text("# test release\n", encoding="utf-8")
    write_pairs(after, release / "dist" / "crows_pairs_revised.csv")
    published = root / "published"
    published.mkdir()
    cwd = Path.cwd()
    os.chdir(root)
    try:
        for spec, version in (("raw", before), (RELEASE, after)):
            for model in MODELS:
                output = published / f"{model}-{spec}.csv"
                _write_published(output, model, version)
                result = runner.invoke(
                    app,
                    ["score", spec, "--import", str(output), "-m", model, "-o", f"scores/{spec}",
                     "--format", "json"],
                )  # fmt: skip
                assert result.exit_code == 0, result.output
    finally:
        os.chdir(cwd)
    return root


def _run_counting_model_loads(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run ``curate diff-report`` in a fresh interpreter and say which of torch and
    transformers it imported (none: no model can have been loaded, no from_pretrained called)."""
    probe = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: sys.stderr.write('IMPORTED ' + json.dumps(sorted(\n"
        "    m for m in ('torch', 'transformers') if m in sys.modules)) + '\\n'))\n"
        f"sys.argv = ['curate', 'diff-report', *{list(args)!r}]\n"
        "from curate.__main__ import main\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    line = next(x for x in done.stderr.splitlines() if x.startswith("IMPORTED "))
    return done, json.loads(line.removeprefix("IMPORTED "))


def test_22_imported_score_sets_per_version_give_the_full_report_with_no_model(
    study: Path,
) -> None:
    done, imported = _run_counting_model_loads(
        study, "raw", RELEASE, "--scores", "scores/raw", "--scores", f"scores/{RELEASE}",
        "-o", "report", "--bootstrap", "200",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert imported == []  # neither torch nor transformers: zero model loads
    data = json.loads((study / "report" / "report.json").read_text(encoding="utf-8"))
    before, after = pairs()
    assert data["before"] == {"label": "raw", "pairs": len(before)}
    assert data["after"] == {"label": RELEASE, "pairs": len(after)}
    assert data["alignment"]["counts"] == {"unchanged": 57, "edited": 14, "dropped": 1, "added": 1}
    columns = data["models"]
    assert sorted(c["model"] for c in columns) == sorted(MODELS)
    assert {c["method"] for c in columns} == {"imported:metric.py"}
    assert all("compute" not in c for c in columns)
    old = {p.pair_id: p for p in before}
    edited = [p for p in after if p.pair_id in old and p != old[p.pair_id]]
    assert len(edited) == 14
    for column in columns:
        model = column["model"]
        # the flips are the edited pairs whose published verdict changed, pair by pair
        expected = sorted(
            p.pair_id for p in edited if _verdict(model, old[p.pair_id]) != _verdict(model, p)
        )
        assert sorted(f["pair_id"] for f in column["flips"]["pairs"]) == expected, model
        assert column["flips"]["count"] == len(expected)
        # McNemar on the 71 pairs of both versions; the metric on every version's pairs
        shared = [p for p in after if p.pair_id in old]
        table = column["mcnemar"]["table"]
        assert column["mcnemar"]["pairs"] == len(shared) == sum(map(sum, table))
        assert table[0][1] == sum(
            _verdict(model, old[p.pair_id]) == 1 and _verdict(model, p) == 0 for p in shared
        )
        assert column["before"]["metric_score"] == pytest.approx(
            100 * sum(_verdict(model, p) for p in before) / len(before)
        )
        assert len(column["delta"]["bias_types"]) == 9
        assert column["provenance"]["before"]["imported"]["file"] == f"{model}-raw.csv"
    # robust flips: the pairs that flip under all 22 columns, and under one only
    flipped = {c["label"]: {f["pair_id"] for f in c["flips"]["pairs"]} for c in columns}
    every = set.intersection(*flipped.values())
    assert [r["pair_id"] for r in data["robust_flips"]["every"]] == sorted(every)
    once = {
        pair_id for label, ids in flipped.items() for pair_id in ids
        if sum(pair_id in other for other in flipped.values()) == 1
    }  # fmt: skip
    assert {r["pair_id"] for r in data["robust_flips"]["only_one"]} == once
    assert "instrument" in data  # 22 columns: the instrument-quality section is built too
    assert "22 of the 22 columns read from score sets" in done.stderr
    # one method for all 22 columns: said once, never in each column's name (issue 47)
    assert done.stdout.count("imported:metric.py") == 1
    assert "every column scored with imported:metric.py" in done.stdout
    assert all(model in done.stdout for model in MODELS)
    for name in ("report.md", "report.html"):
        text = (study / "report" / name).read_text(encoding="utf-8")
        assert "· imported:metric.py" not in text and "every column scored with imported:metric.py" in text
        assert "(unknown method)" not in text
    assert all(c["label"] == f"{c['model']} · imported:metric.py" for c in columns)  # the JSON keeps them
    assert (study / "report" / "report.html").is_file()


def test_a_score_set_of_one_version_only_is_named_and_left_out(
    study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(study)
    result = runner.invoke(
        app,
        ["diff-report", "raw", RELEASE, "--scores", "scores", "--scores", "published",
         "-o", str(tmp_path / "out"), "--bootstrap", "50", "--format", "json"],
    )  # fmt: skip
    # "published" holds no score set: a warning, not a failure; the 22 columns are complete
    assert result.exit_code == 0, result.output
    assert "published: no score set of raw or 1.0.0-test below it" in " ".join(result.stderr.split())
    assert len(json.loads(result.stdout)) == 22
    only_raw = runner.invoke(
        app,
        ["diff-report", "raw", RELEASE, "--scores", "scores/raw", "-o", str(tmp_path / "o2")],
    )  # fmt: skip
    assert only_raw.exit_code == 2
    stderr = " ".join(only_raw.stderr.split())
    assert "a score set of raw but none of 1.0.0-test; not compared" in stderr
    assert "no model and method has a score set of both raw and 1.0.0-test" in stderr
    assert "Traceback" not in only_raw.output and not (tmp_path / "o2").exists()


def _export_metric_py(scores_csv: Path, target: Path) -> Path:
    """A ``curate score`` output rewritten as ``metric.py`` writes its own: the two compared
    scores (pll's, rounded to three decimals) and the verdict, one row per pair."""
    from curate.score.files import read_scores_csv

    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sent_more", "sent_less", "sent_more_score", "sent_less_score", "score",
                         "stereo_antistereo", "bias_type"])  # fmt: skip
        for s in read_scores_csv(scores_csv):
            more, less = s.compared
            writer.writerow([s.sent_more, s.sent_less, repr(more), repr(less), s.score,
                             s.direction, s.bias_type])  # fmt: skip
    return target


def _verdicts(report: Path) -> dict[str, object]:
    """What the report says about its one column that scores decide (not labels, provenance)."""
    (column,) = json.loads(report.read_text(encoding="utf-8"))["models"]
    return {
        "flips": [(f["pair_id"], f["change"]) for f in column["flips"]["pairs"]],
        "mcnemar": column["mcnemar"]["table"],
        "metric": (column["before"]["metric_score"], column["after"]["metric_score"]),
        "delta": column["delta"],
    }


def test_imported_scores_of_a_tiny_model_give_the_flips_of_scoring_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

    raw = SAMPLE_PAIRS
    revised = (
        raw[0],
        raw[1].with_changes(sent_more="Poor people are really ignorant about money."),
        raw[2].with_changes(sent_more=raw[2].sent_less, sent_less=raw[2].sent_more),
        raw[3].with_changes(sent_less="The old woman was too frail to climb the stairs."),
        raw[4].with_changes(bias_type="nationality"),
        raw[5], raw[6],
        raw[7].with_changes(sent_more=raw[7].sent_less, sent_less=raw[7].sent_more),
        raw[9],
        SAMPLE_PAIRS[0].with_changes(pair_id=40, sent_more="Girls can't drive."),
    )  # fmt: skip
    make_project(tmp_path, raw)
    release = tmp_path / "data" / "clean" / RELEASE
    (release / "dist").mkdir(parents=True)
    (release / "recipe.toml").write_text("# test release\n", encoding="utf-8")
    write_pairs(revised, release / "dist" / "crows_pairs_revised.csv")
    monkeypatch.chdir(tmp_path)
    model = str(tiny_model_dir("bert"))

    def run(*args: str) -> None:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output

    with single_thread():
        for spec in ("raw", RELEASE):
            run("score", spec, "-m", model, "-o", f"scored/{spec}", "--format", "json")
            (scores_csv,) = (tmp_path / "scored" / spec).rglob("scores.csv")
            published = _export_metric_py(scores_csv, tmp_path / f"bert-{spec}.csv")
            run("score", spec, "--import", str(published), "-m", "tiny-bert", "-o",
                f"imported/{spec}", "--format", "json")  # fmt: skip
        common = ("raw", RELEASE, "--bootstrap", "300", "--format", "json")
        run("diff-report", *common, "-m", model, "-o", "by-model")
        # both routes in one report: the model scored (from the cache) beside its import
        run("diff-report", *common, "-m", model, "--scores", "imported", "-o", "both")
    run("diff-report", *common, "--scores", "imported", "-o", "by-import")
    run("diff-report", *common, "--scores", "scored", "-o", "by-score-sets")
    scored = _verdicts(tmp_path / "by-model" / "report.json")
    assert len(scored["flips"]) >= 2  # type: ignore[arg-type]  # the two swapped pairs at least
    assert _verdicts(tmp_path / "by-import" / "report.json") == scored
    assert _verdicts(tmp_path / "by-score-sets" / "report.json") == scored
    both = json.loads((tmp_path / "both" / "report.json").read_text(encoding="utf-8"))
    assert [c["label"] for c in both["models"]] == ["tiny-bert · imported:metric.py", "bert · pll"]
    imported, by_model = both["models"]
    assert [(f["pair_id"], f["change"]) for f in imported["flips"]["pairs"]] == scored["flips"]
    assert "compute" in by_model and "compute" not in imported
    flipped = [f["pair_id"] for f in by_model["flips"]["pairs"]]
    assert [f["pair_id"] for f in both["robust_flips"]["every"]] == flipped
