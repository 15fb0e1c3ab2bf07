"""JSON documents of the user nested 100,000 deep (issue 46): the json module recurses once per
level and died with RecursionError; every reader of such a document parses it through
:func:`curate.jsonl.loads_document`, so it gets the sentence other unreadable files get."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

DEEP = "[" * 100_000 + "]" * 100_000


def _curate(project: Path, *args: str) -> tuple[int, str]:
    from curate.cli import app

    with contextlib.chdir(project):
        result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stderr


@pytest.fixture()
def deep_sweep(tmp_path: Path) -> Path:
    root = tmp_path / "out"
    root.mkdir()
    (root / "sweep.json").write_text(DEEP, encoding="utf-8")
    return root


def _one_sentence(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_across_refuses_a_deep_sweep_json_in_one_sentence(deep_sweep: Path) -> None:
    code, stderr = _curate(deep_sweep.parent, "across", str(deep_sweep))
    assert code == 2
    line = _one_sentence(stderr)
    assert "sweep.json: not a readable JSON document (nested deeper than" in line


def test_diff_report_sweep_refuses_a_deep_sweep_json_in_one_sentence(
    deep_sweep: Path, tmp_path: Path
) -> None:
    data = tmp_path / "pairs.csv"
    data.write_text(
        ",sent_more,sent_less,stereo_antistereo,bias_type\n"
        "0,Poor people are lazy.,Rich people are lazy.,stereo,socioeconomic\n",
        encoding="utf-8",
    )
    code, stderr = _curate(tmp_path, "diff-report", "--sweep", str(deep_sweep), str(data), str(data))
    assert code == 2
    line = _one_sentence(stderr)
    assert "sweep.json: not readable as a sweep document (nested deeper than" in line


def test_cached_and_configuration_files_too_deep_are_ignored_not_a_traceback(
    tmp_path: Path,
) -> None:
    """The token cache and a model folder's config.json are read where a bad file means "no
    answer from it": a deep one is that too, not a RecursionError."""
    from curate.score.kinds import config_json_kind
    from curate.tokencache import _load

    (tmp_path / "config.json").write_text(DEEP, encoding="utf-8")
    assert config_json_kind(tmp_path) is None
    assert _load(tmp_path / "config.json") == {}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.jsonl", DEEP),  # a JSON-lines data file (parse_jsonl)
        ("deep_object.jsonl", '{"sent_more": ' + DEEP + "}"),  # sniffed as StereoSet first
        ("deep.json", '{"data": ' + DEEP + "}"),  # a StereoSet document
    ],
)
def test_a_deep_data_file_is_refused_in_one_sentence(tmp_path: Path, name: str, text: str) -> None:
    """Data files read through the JSON-lines and StereoSet readers died with RecursionError."""
    (tmp_path / name).write_text(text + "\n", encoding="utf-8")
    code, stderr = _curate(tmp_path, "stats", name)
    assert code == 2
    assert "nested deeper than" in _one_sentence(stderr)


def test_deep_findings_and_decisions_lines_are_refused_in_one_sentence(tmp_path: Path) -> None:
    """The findings and decisions readers share read_jsonl_objects (loads_record): no traceback."""
    from curate.errors import CurateError
    from curate.jsonl import read_jsonl_objects

    path = tmp_path / "findings.jsonl"
    path.write_text(DEEP + "\n", encoding="utf-8")
    with pytest.raises(CurateError, match="nested deeper than"):
        read_jsonl_objects(path)
