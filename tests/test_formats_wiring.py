"""Every command that reads or writes a dataset, on every shape: --input-format/--output-format,
comparisons over the columns both versions have, and rules skipped (and said so) for want of a
column. Files are written by the tests; the upstream-like file has all eight columns."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import pairs_only, read_dataset, write_pairs
from tests.support.stereoset_data import write_stereoset
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()
VALIDATORS = ("a1", "a2", "a3", "a4", "a5")
#: Upstream-like pairs: validators' annotations, writer and annotators filled in.
RAW = tuple(
    p.with_changes(
        annotations=((p.bias_type,),) * 4 + (("nationality",),),
        writer=f"w{p.pair_id}",
        annotators=VALIDATORS,
    )
    for p in SAMPLE_PAIRS[:6]
)
#: A revision: one sentence edited, one relabelled, one dropped, one added.
REVISED = (
    RAW[0],
    RAW[1].with_changes(sent_more="The poor are ignorant about money."),
    RAW[2].with_changes(bias_type="nationality"),
    RAW[4],
    RAW[5],
    SAMPLE_PAIRS[7].with_changes(pair_id=20),
)
FIVE_COLUMNS = ("", "sent_more", "sent_less", "stereo_antistereo", "bias_type")


def five_column_csv(pairs, path: Path, extra: dict[int, str] | None = None) -> Path:
    """``pairs`` as a published five-column revision (no annotations, writer or annotators);
    with ``extra``, a sixth column ``note`` (pair id -> cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIVE_COLUMNS + (("note",) if extra else ()))
    for p in pairs:
        row = [p.pair_id, p.sent_more, p.sent_less, p.direction, p.bias_type]
        writer.writerow(row + ([extra[p.pair_id]] if extra else []))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "data/raw/pairs.csv"\n', encoding="utf-8"
    )
    write_pairs(RAW, tmp_path / "data" / "raw" / "pairs.csv")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the five-column helper itself --------------------------------------------------------------


def test_the_five_column_copy_has_five_columns_and_unknown_annotations(tmp_path: Path) -> None:
    dataset = read_dataset(five_column_csv(RAW, tmp_path / "five.csv"))
    assert dataset.shape.columns == ("", "sent_more", "sent_less", "stereo_antistereo", "bias_type")
    assert dataset.lacks(("annotations", "writer", "annotators")) == (
        "annotations",
        "writer",
        "annotators",
    )
    assert [p.sent_more for p in dataset.pairs] == [p.sent_more for p in RAW]


# -- unknown format names -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["stats", "--input-format", "xlsx"],
        ["lint", "--input-format", "xlsx"],
        ["lint", "--fix", "-o", "out.csv", "--output-format", "xlsx"],
        ["score", "-m", "nothing", "--input-format", "xlsx"],
        ["diff", "raw", "raw", "--input-format", "xlsx"],
        ["diff", "raw", "raw", "--input-format", "csv,xlsx"],
        ["diff-report", "raw", "-m", "nothing", "--input-format", "xlsx"],
        ["revise", "--input-format", "xlsx"],
        ["revise", "--output-format", "xlsx"],
        ["annotations", "push", "--round", "r1", "--to-file", "--input-format", "xlsx"],
    ],
)
def test_an_unknown_format_is_exit_2_naming_the_valid_ones(project: Path, args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    message = result.stderr.replace("\n", " ")
    assert "'xlsx' is not a known format; expected one of" in message
    assert "tsv" in message and "hf-parquet" in message and "stereoset" in message
    assert "Traceback" not in result.output
    assert not (project / "out.csv").exists() and not (project / "build").exists()


def test_two_versions_take_one_format_or_one_per_side(project: Path) -> None:
    result = runner.invoke(app, ["diff", "raw", "raw", "--input-format", "csv,csv,csv"])
    assert result.exit_code == 2
    assert "give one format, or 2 separated by commas" in result.stderr
    five_column_csv(RAW, project / "five.tsv")
    forced = runner.invoke(app, ["diff", "raw", "five.tsv", "--input-format", "auto,csv"])
    assert forced.exit_code == 0, forced.output
    assert "0 edited" in forced.stdout


# -- curate diff: only the columns both versions have ------------------------------------------


def test_diff_between_upstream_and_its_five_column_copy_edits_nothing(project: Path) -> None:
    five_column_csv(RAW, project / "five.csv")
    result = runner.invoke(app, ["diff", "raw", "five.csv", "--format", "json", "--summary"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["added"], summary["dropped"], summary["edited"]) == (0, 0, 0)
    assert summary["not_compared"] == ["annotations", "anon_writer", "anon_annotators"]
    text = runner.invoke(app, ["diff", "raw", "five.csv"])
    assert "not compared (a version has no such column): annotations" in text.stdout
    # a full copy with empty annotations cells is a real edit of those cells
    write_pairs([p.with_changes(annotations=None) for p in RAW], project / "emptied.csv")
    emptied = json.loads(
        runner.invoke(app, ["diff", "raw", "emptied.csv", "--format", "json", "--summary"]).stdout
    )
    assert emptied["edited"] == len(RAW) and "not_compared" not in emptied


def test_diff_of_a_five_column_revision_finds_its_edits(project: Path) -> None:
    five_column_csv(REVISED, project / "five.csv")
    result = runner.invoke(app, ["diff", "raw", "five.csv", "--format", "json"])
    data = json.loads(result.stdout)
    assert data["summary"]["edited_fields"] == {"sent_more": 1, "bias_type": 1}
    assert [a["pair_id"] for a in data["added"]] == [20]
    assert [d["pair_id"] for d in data["dropped"]] == [3]


# -- curate diff-report: five-column and full-schema revisions give the same numbers ------------


@pytest.fixture(scope="module")
def model() -> str:
    with single_thread():
        yield str(tiny_model_dir("bert"))


def _numbers(report: dict) -> dict:
    """Everything in report.json but the labels of the two versions."""
    return {k: v for k, v in report.items() if k not in ("before", "after")} | {
        "pairs": (report["before"]["pairs"], report["after"]["pairs"])
    }


def test_diff_report_five_column_revision_equals_full_schema(project: Path, model: str) -> None:
    write_pairs(REVISED, project / "full.csv")
    five_column_csv(REVISED, project / "five.csv")
    reports = {}
    for name in ("full.csv", "five.csv"):
        with single_thread():
            result = runner.invoke(
                app, ["diff-report", name, "-m", model, "-o", name + ".out", "--bootstrap", "200"]
            )
        assert result.exit_code == 0, result.output
        reports[name] = json.loads((project / (name + ".out") / "report.json").read_text("utf-8"))
        assert reports[name]["alignment"]["counts"] == {
            "unchanged": 3,
            "edited": 2,
            "dropped": 1,
            "added": 1,
        }
    assert "not compared (a version has no such column)" in result.stderr
    assert _numbers(reports["five.csv"]) == _numbers(reports["full.csv"])
    assert reports["five.csv"]["models"][0]["flips"] == reports["full.csv"]["models"][0]["flips"]


# -- lint: skipped rules, said once; --fix writes the input's shape -----------------------------


def test_lint_says_once_that_label_support_was_skipped(project: Path) -> None:
    five_column_csv(RAW, project / "five.csv")
    stats = runner.invoke(app, ["lint", "--no-cache", "--select", "L", "--statistics", "five.csv"])
    assert stats.exit_code == 0, stats.output
    note = "skipped L001 unsupported-bias-type: the input has no 'annotations' column"
    assert stats.stdout.count(note) == 1 and note not in stats.stderr
    findings = runner.invoke(app, ["lint", "--no-cache", "--select", "L", "--format", "json", "five.csv"])
    assert json.loads(findings.stdout) == []  # stdout stays JSON; the note goes to stderr
    assert findings.stderr.count(note) == 1


def test_lint_with_empty_annotation_cells_runs_label_support(project: Path) -> None:
    """A column that is there but empty is no reason to skip: L001 runs and passes the pair."""
    unsupported = RAW[0].with_changes(annotations=(("race-color",),) * 5)
    write_pairs([unsupported, RAW[1].with_changes(annotations=None)], project / "some.csv")
    result = runner.invoke(app, ["lint", "--no-cache", "--select", "L001", "--format", "jsonl", "some.csv"])
    assert result.exit_code == 1
    assert [json.loads(line)["pair_id"] for line in result.stdout.splitlines()] == [0]
    assert "skipped" not in result.output


def _with_extra_column(path: Path) -> Path:
    """A five-column revision with a ``note`` column; pair 0 lacks its final full stop (T001)."""
    pairs = list(RAW[:3])
    pairs[0] = pairs[0].with_changes(sent_more="Women don't know how to drive")
    return five_column_csv(pairs, path, {0: "n0", 1: "n1", 2: "n2"})


def test_lint_fix_keeps_the_shape_and_every_column(project: Path) -> None:
    source = _with_extra_column(project / "rev.csv")
    assert source.read_text().splitlines()[0] == ",sent_more,sent_less,stereo_antistereo,bias_type,note"
    result = runner.invoke(app, ["lint", "--no-cache", "--fix", "-o", "fixed.csv", str(source)])
    assert "wrote fixed.csv" in result.stderr
    fixed = read_dataset(project / "fixed.csv")
    assert fixed.shape.columns == read_dataset(source).shape.columns
    assert fixed.pairs[0].sent_more == "Women don't know how to drive."
    assert [dict(p.extra)["note"] for p in fixed.pairs] == ["n0", "n1", "n2"]
    as_jsonl = runner.invoke(
        app, ["lint", "--no-cache", "--fix", "-o", "fixed.jsonl", "--output-format", "jsonl", str(source)]
    )
    assert "wrote fixed.jsonl" in as_jsonl.stderr
    records = [json.loads(line) for line in (project / "fixed.jsonl").read_text().splitlines()]
    assert records[0]["note"] == "n0" and records[0]["sent_more"] == "Women don't know how to drive."
    assert "annotations" not in records[0]  # unknown stays unknown, not an empty list


def test_lint_fix_upstream_is_the_upstream_csv(project: Path) -> None:
    raw = project / "data" / "raw" / "pairs.csv"
    nothing = runner.invoke(app, ["lint", "--no-cache", "--fix", "--ignore", "T", "-o", "same.csv"])
    assert "fixed 0 fields" in nothing.stderr, nothing.output
    assert (project / "same.csv").read_bytes() == raw.read_bytes()  # lossless
    runner.invoke(app, ["lint", "--no-cache", "--fix", "--select", "T001", "-o", "fixed.csv"])
    fixed = read_dataset(project / "fixed.csv")
    assert fixed.shape.layout == "upstream"
    assert fixed.pairs[5].sent_less == RAW[5].sent_less + "."  # T001's fix
    assert [p.with_changes(sent_less="") for p in fixed.pairs] == [
        p.with_changes(sent_less="") for p in RAW
    ]  # annotations, writer and annotators kept


def test_lint_fix_on_stereoset_writes_stereoset(project: Path) -> None:
    source = write_stereoset(project / "dev.json")
    result = runner.invoke(
        app, ["lint", "--no-cache", "--fix", "--select", "T001", "-o", "fixed.json", str(source)]
    )
    assert "wrote fixed.json" in result.stderr, result.output
    assert (project / "fixed.json").read_bytes() == source.read_bytes()
    fixed = read_dataset(project / "fixed.json")
    assert fixed.pairs == read_dataset(source).pairs and fixed.intersentence


def test_output_format_without_fix_is_a_usage_error(project: Path) -> None:
    result = runner.invoke(app, ["lint", "--output-format", "jsonl"])
    assert result.exit_code == 2
    assert "--output-format applies to the pairs --fix writes" in result.stderr


# -- stats: absent column vs empty cells --------------------------------------------------------


def test_stats_tells_an_absent_annotations_column_from_empty_cells(project: Path) -> None:
    five_column_csv(RAW, project / "five.csv")
    absent = json.loads(runner.invoke(app, ["stats", "--format", "json", "five.csv"]).stdout)
    assert absent["validator_agreement"]["annotations_column"] is False
    write_pairs([p.with_changes(annotations=None) for p in RAW], project / "empty.csv")
    empty = runner.invoke(app, ["stats", "empty.csv"])
    assert "the 'annotations' cells are empty" in empty.stdout
    forced = runner.invoke(app, ["stats", "--input-format", "tsv", "five.csv"])
    assert forced.exit_code == 2 and "bad header" in forced.stderr


# -- revise: the recipe's [source] format, the raw file's shape out ----------------------------


def _revise_project(project: Path, raw: Path, fmt: str | None, fixes: str = '"T001"') -> Path:
    digest = hashlib.sha256(raw.read_bytes()).hexdigest()
    (project / "data" / "raw" / "sources.toml").write_text(
        f'[rev]\nfile = "{raw.name}"\nurl = "https://example.org/{raw.name}"\nsha256 = "{digest}"\n'
        'license = "CC BY-SA 4.0"\ncitation = "test"\n',
        encoding="utf-8",
    )
    recipe = project / "data" / "clean" / "1.0.0-test" / "recipe.toml"
    recipe.parent.mkdir(parents=True, exist_ok=True)
    format_line = f'format = "{fmt}"\n' if fmt else ""
    recipe.write_text(
        f'[source]\nname = "rev"\nsha256 = "{digest}"\n{format_line}\n[fixes]\nselect = [{fixes}]\n',
        encoding="utf-8",
    )
    return recipe


def test_revise_reads_the_recipe_format_and_writes_the_raw_shape(project: Path) -> None:
    raw = _with_extra_column(project / "data" / "raw" / "rev.tsv")
    recipe = _revise_project(project, raw, "csv")
    result = runner.invoke(app, ["revise", "--recipe", str(recipe), "-o", "out"])
    assert result.exit_code == 0, result.output
    written = read_dataset(project / "out" / "crows_pairs_revised.csv")
    assert written.shape.columns[-1] == "note" and "annotations" not in written.shape.columns
    assert written.pairs[0].sent_more == "Women don't know how to drive."
    as_parquet = runner.invoke(
        app, ["revise", "--recipe", str(recipe), "-o", "pq", "--output-format", "parquet"]
    )
    assert as_parquet.exit_code == 0, as_parquet.output
    parquet = read_dataset(project / "pq" / "crows_pairs_revised.parquet")
    assert parquet.pairs == written.pairs
    wrong = _revise_project(project, raw, "tsv")
    forced = runner.invoke(app, ["revise", "--recipe", str(wrong), "-o", "bad"])
    assert forced.exit_code == 2 and "bad header" in forced.stderr
    assert not (project / "bad").exists()
    both = runner.invoke(app, ["revise", "--recipe", str(recipe), "--input-format", "csv"])
    assert both.exit_code == 2 and "[source] format" in both.stderr


def test_revise_of_upstream_is_the_upstream_csv(project: Path) -> None:
    raw = project / "data" / "raw" / "pairs.csv"
    recipe = _revise_project(project, raw, None, fixes="")
    result = runner.invoke(app, ["revise", "--recipe", str(recipe), "-o", "out"])
    assert result.exit_code == 0, result.output
    assert (project / "out" / "crows_pairs_revised.csv").read_bytes() == raw.read_bytes()


def test_bare_pairs_still_write_the_upstream_schema() -> None:
    assert pairs_only(RAW).fields >= {"annotations", "writer", "annotators"}
