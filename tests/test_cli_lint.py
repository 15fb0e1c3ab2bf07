"""`curate lint` and `curate rules` from the command line: exit codes, formats, fixes, config."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_pairs, write_pairs
from curate.pairs import Pair

runner = CliRunner()


def _write(tmp_path: Path, pairs: list[Pair], name: str = "pairs.csv") -> Path:
    path = tmp_path / name
    write_pairs(pairs, path)
    return path


CLEAN = Pair(0, "Asians can't drive.", "Whites can't drive.", "stereo", "race-color")
NEGATED = Pair(1, "Women don't know how to drive.", "Men know how to drive.", "stereo", "gender")
UNTIDY = Pair(2, "the muslim man prayed", "the Christian man prayed.", "stereo", "religion")


def test_clean_file_exits_0(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", str(_write(tmp_path, [CLEAN]))])
    assert result.exit_code == 0, result.output
    assert result.output == ""


def test_findings_exit_1_with_ruff_like_lines(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", str(_write(tmp_path, [CLEAN, NEGATED]))])
    assert result.exit_code == 1
    assert 'pair 1     S001 negation-asymmetry  "n\'t" only in sent_more' in result.output


def test_select_ignore_and_json(tmp_path: Path) -> None:
    path = _write(tmp_path, [NEGATED, UNTIDY])
    result = runner.invoke(
        app, ["lint", str(path), "--select", "S,T", "--ignore", "T001", "--format", "json"]
    )
    codes = {(f["pair_id"], f["code"]) for f in json.loads(result.output)}
    assert (1, "S001") in codes and (2, "T005") in codes
    assert not any(code == "T001" for _, code in codes)
    only = runner.invoke(app, ["lint", str(path), "--select", "T006", "--format", "jsonl"])
    assert [json.loads(x)["code"] for x in only.output.splitlines()] == ["T006"]


def test_statistics_and_output_file(tmp_path: Path) -> None:
    path = _write(tmp_path, [NEGATED, UNTIDY])
    out = tmp_path / "findings.csv"
    result = runner.invoke(app, ["lint", str(path), "--format", "csv", "--output", str(out)])
    assert result.exit_code == 1
    assert out.read_text().startswith("pair_id,code,rule,message,fixable\n")
    stats = runner.invoke(app, ["lint", str(path), "--statistics"])
    assert "S001  negation-asymmetry" in stats.output
    assert "findings in 2 of 2 pairs" in stats.output


def test_fix_writes_a_new_file_and_relint_is_clean(tmp_path: Path) -> None:
    path = _write(tmp_path, [UNTIDY, NEGATED])
    before = path.read_bytes()
    fixed = tmp_path / "fixed.csv"
    result = runner.invoke(
        app, ["lint", str(path), "--select", "T", "--fix", "--output", str(fixed)]
    )
    assert path.read_bytes() == before  # the input is never modified
    assert (
        "T001 final-punctuation-mismatch  sent_more: 'the muslim man prayed' -> 'the muslim man prayed.'"
        in result.output
    )
    assert "fixed 4 fields in 1 pairs" in result.output
    pairs = read_pairs(fixed)
    assert pairs[0].sent_more == "The Muslim man prayed."
    relint = runner.invoke(app, ["lint", str(fixed), "--select", "T001,T002,T003,T004,T005,T006"])
    assert relint.exit_code == 0, relint.output


def test_fix_refuses_to_overwrite_the_input(tmp_path: Path) -> None:
    path = _write(tmp_path, [UNTIDY])
    result = runner.invoke(app, ["lint", str(path), "--fix", "--output", str(path)])
    assert result.exit_code == 2
    assert "is the input file" in result.output
    assert runner.invoke(app, ["lint", str(path), "--fix"]).exit_code == 2


def test_unknown_code_is_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", str(_write(tmp_path, [CLEAN])), "--select", "Z1"])
    assert result.exit_code == 2
    assert "unknown rule code or prefix 'Z1'" in result.output


def test_bad_input_is_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", str(tmp_path / "missing.csv")])
    assert result.exit_code == 2 and "no such file" in result.output


def test_rules_list_and_explain() -> None:
    listing = runner.invoke(app, ["rules"])
    assert listing.exit_code == 0
    assert "S001  negation-asymmetry" in listing.output
    explained = runner.invoke(app, ["rules", "s001"])
    assert "## Why is this bad?" in explained.output
    assert 'Bad:  "Women don\'t know how to drive." / "Men know how to drive." (gender)' in (
        explained.output
    )
    by_name = runner.invoke(app, ["rules", "polarity-flip"])
    assert by_name.output.startswith("S002 polarity-flip")
    codes = [r["code"] for r in json.loads(runner.invoke(app, ["rules", "--format", "json"]).output)]
    assert codes == sorted(codes) and "D001" in codes
    assert runner.invoke(app, ["rules", "Q999"]).exit_code == 2


def test_config_table_is_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "pairs.csv"\n[tool.curate.lint]\nignore = ["S001"]\n'
    )
    _write(tmp_path, [NEGATED])
    proc = subprocess.run(
        [sys.executable, "-m", "curate", "lint"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "S001" not in proc.stdout
    override = subprocess.run(
        [sys.executable, "-m", "curate", "lint", "--select", "S001"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert override.returncode == 1 and "S001" in override.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.curate.lint]\nselct = ["S"]\n')
    bad = subprocess.run(
        [sys.executable, "-m", "curate", "lint", "pairs.csv"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "unknown key 'selct'" in bad.stderr


def test_preset_murphy_2022_runs_the_design_card_checks(tmp_path: Path) -> None:
    path = _write(tmp_path, [CLEAN, NEGATED, UNTIDY])
    result = runner.invoke(app, ["lint", str(path), "--preset", "murphy-2022", "--format", "jsonl"])
    assert result.exit_code == 1, result.output
    found = {(f["pair_id"], f["code"]) for f in map(json.loads, result.output.splitlines())}
    # NEGATED: 6 words vs 5 (P001), 3 words (women, do, n't) only in A (P002);
    # UNTIDY: only B ends with "." (T001); the default rules' S001, T005, T006 do not run
    assert found == {(1, "P001"), (1, "P002"), (2, "T001")}
    listing = runner.invoke(app, ["rules", "--presets"])
    assert listing.exit_code == 0 and listing.output.startswith("murphy-2022  P001,P002,P003,T001,T002")
    unknown = runner.invoke(app, ["lint", str(path), "--preset", "murphy"])
    assert unknown.exit_code == 2 and "unknown preset 'murphy'" in unknown.output
