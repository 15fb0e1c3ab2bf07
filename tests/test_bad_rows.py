"""A damaged dataset file is described whole, and `--skip-bad-rows` goes on without its bad rows.

The held-back nationality subset of Martínez & Kremer (2023) has 70 empty rows of 109; every
command used to stop at the first (`line 42: stereo_antistereo is ''`), so the count was never
seen. These tests damage a published subset of the same study the same way (rows emptied but
for their pandas index) and add the other kinds of damage a reader meets.
"""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_dataset
from curate.errors import InputError
from curate.formats.rows import skipping_bad_rows
from tests.support.tiny_models import single_thread, tiny_model_dir


def _subset(name: str = "age") -> Path:
    mirror = os.environ.get("CURATE_DATA_MIRROR")
    path = Path(mirror or "/nonexistent") / "martinez_kremer_2023" / "rephrased"
    path = path / f"rephrased_subset_{name}.csv"
    if not path.is_file():
        pytest.skip("the Martínez & Kremer files are not in $CURATE_DATA_MIRROR")
    return path


def _damaged(tmp_path: Path, every: int = 3) -> tuple[Path, list[int], int]:
    """The age subset with every ``every``-th row emptied but for its index (as a spreadsheet
    leaves a deleted row): the file, the emptied rows' line numbers in it, and the row count."""
    with _subset().open(newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    rows = [[r[0]] + [""] * (len(r) - 1) if i % every == 1 else r for i, r in enumerate(rows)]
    path = tmp_path / "damaged.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows])
    emptied = []
    with path.open(newline="", encoding="utf-8") as handle:  # lines as the file numbers them
        reader = csv.reader(handle)
        next(reader)
        line = reader.line_num + 1
        for row in reader:
            if not any(row[1:]):
                emptied.append(line)
            line = reader.line_num + 1
    return path, emptied, len(rows)


def test_every_empty_row_is_counted_in_one_message(tmp_path: Path) -> None:
    path, emptied, total = _damaged(tmp_path)
    with pytest.raises(InputError) as caught:
        read_dataset(path)
    message = str(caught.value)
    assert f"{len(emptied)} of {total} rows cannot be read" in message
    shown = ", ".join(str(n) for n in emptied[:5])
    assert f"{len(emptied)} empty rows (lines {shown} and {len(emptied) - 5} more)" in message
    assert f"--skip-bad-rows reads the other {total - len(emptied)}" in message


def test_skipping_reads_the_others_and_records_what_it_left_out(tmp_path: Path) -> None:
    path, emptied, total = _damaged(tmp_path)
    with skipping_bad_rows():
        dataset = read_dataset(path)
    assert len(dataset.pairs) == total - len(emptied)
    assert [row.line for row in dataset.skipped_rows] == emptied
    assert {row.kind for row in dataset.skipped_rows} == {"empty row"}
    assert any("--skip-bad-rows left out" in w for w in dataset.warnings)
    # the pairs read are exactly the undamaged rows of the original
    original = read_dataset(_subset())
    kept = {p.pair_id for p in dataset.pairs}
    assert kept < {p.pair_id for p in original.pairs}
    assert [p for p in original.pairs if p.pair_id in kept] == list(dataset.pairs)


def test_kinds_of_damage_are_told_apart(tmp_path: Path) -> None:
    header = "sent_more,sent_less,stereo_antistereo,bias_type\n"
    rows = [
        "A poor man stole it.,A rich man stole it.,stereo,socioeconomic",
        ",,,",  # empty
        "Old people are slow.,Young people are slow.,sideways,age",  # bad label
        "Too,few,cells",  # wrong number of cells
        "Women cannot drive.,Men cannot drive.,stereo,gender",
        ",,,",
    ]
    path = tmp_path / "pairs.csv"
    path.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_dataset(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: line 3: ")  # the first bad row, as before
    assert "4 of 6 rows cannot be read" in message
    assert "2 empty rows (lines 3, 7)" in message
    assert "1 bad label (line 4)" in message
    assert "1 wrong number of cells (line 5)" in message
    with skipping_bad_rows():
        dataset = read_dataset(path)
    # ids are row positions: a left-out row keeps its number, the others keep theirs
    assert [p.pair_id for p in dataset.pairs] == [0, 4]


def test_a_file_with_no_good_row_is_refused_even_when_skipping(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text("sent_more,sent_less,stereo_antistereo,bias_type\n,,,\n,,,\n", encoding="utf-8")
    with skipping_bad_rows(), pytest.raises(InputError, match="2 of 2 rows cannot be read"):
        read_dataset(path)


def test_one_bad_row_keeps_the_old_message(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text(
        "sent_more,sent_less,stereo_antistereo,bias_type\n"
        "A poor man stole it.,A rich man stole it.,stereo,socioeconomic\n"
        "A,B,sideways,age\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        read_dataset(path)
    assert re.search(r"line 3: stereo_antistereo is 'sideways'.*--skip-bad-rows reads the other 1 ",
                     str(caught.value))


@pytest.mark.parametrize(
    "command", [["stats"], ["lint"], ["instrument", "consistency", "-s", "."]]
)
def test_commands_describe_the_whole_damage(command: list[str], tmp_path: Path) -> None:
    path, emptied, total = _damaged(tmp_path)
    result = CliRunner().invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert f"{len(emptied)} of {total} rows cannot be read" in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_stats_and_lint_go_on_with_skip_bad_rows(tmp_path: Path) -> None:
    path, emptied, total = _damaged(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["stats", str(path), "--skip-bad-rows", "--format", "json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["pairs"] == total - len(emptied)
    assert [r["line"] for r in stats["skipped_rows"]] == emptied
    result = runner.invoke(app, ["lint", str(path), "--skip-bad-rows"])
    assert result.exit_code in (0, 1), result.output
    assert f"{len(emptied)} row(s) of the file were left out" in " ".join(result.stderr.split())
    # --fix would write a copy without the left-out rows: refused, nothing written
    fixed = tmp_path / "fixed.csv"
    result = runner.invoke(app, ["lint", str(path), "--skip-bad-rows", "--fix", "-o", str(fixed)])
    assert result.exit_code == 2, result.output
    assert not fixed.exists()


def test_scores_and_instrument_report_record_the_rows_left_out(tmp_path: Path) -> None:
    path, emptied, total = _damaged(tmp_path)
    runner = CliRunner()
    out = tmp_path / "scores"
    models = [f"{tiny_model_dir(f)}={f}" for f in ("bert", "roberta", "albert")]
    with single_thread():
        result = runner.invoke(
            app,
            ["score", str(path), *[a for m in models for a in ("-m", m)], "-o", str(out),
             "--skip-bad-rows", "--no-cache"],
        )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "bert" / "summary.json").read_text(encoding="utf-8"))
    assert [r["line"] for r in summary["data"]["skipped_rows"]] == emptied
    scored = (out / "bert" / "scores.csv").read_text(encoding="utf-8").splitlines()
    assert len(scored) - 1 == total - len(emptied)
    report_dir = tmp_path / "report"
    result = runner.invoke(
        app,
        ["instrument", "consistency", str(path), "-s", str(out), "-o", str(report_dir),
         "--skip-bad-rows"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert [r["line"] for r in report["skipped_rows"]["damaged.csv"]] == emptied
