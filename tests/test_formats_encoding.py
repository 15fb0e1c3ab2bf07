"""UTF-16 / UTF-32 files and binary files (issue 46): read whole, by their byte-order mark or
``--encoding``, never line by line; the advice for a file that is not UTF-8 names what it is;
a one-line binary file is not echoed whole in the header error."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.datasets import read_dataset
from curate.errors import InputError
from curate.formats.encoding import decode, forced_encoding

ROWS = [
    ",sent_more,sent_less,stereo_antistereo,bias_type",
    "0,Poor people are lazy.,Rich people are lazy.,stereo,socioeconomic",
    "1,Women can't drive well.,Men can't drive well.,stereo,gender",
    "2,The café owner was Mexican and rude.,The café owner was American and rude.,stereo,"
    "race-color",
]
CRLF_TEXT = "\r\n".join(ROWS) + "\r\n"


def _curate(project: Path, *args: str) -> tuple[int, str, str]:
    from curate.cli import app

    with contextlib.chdir(project):
        result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_stats_and_lint_read_utf16_and_utf32_with_crlf_given_the_encoding(
    tmp_path: Path, codec: str
) -> None:
    """``--encoding utf-16`` said ``line 1: byte 0x0d is not utf-16``: the file was cut at the
    byte 0x0a, which is half of a UTF-16 character."""
    path = _write(tmp_path, "pairs.csv", CRLF_TEXT.encode(codec))
    code, stdout, stderr = _curate(tmp_path, "stats", str(path), "--encoding", codec)
    assert code == 0, stderr
    assert "3 pairs" in stdout
    assert f"decoded from {codec}" in stderr  # the change of encoding is said
    code, _, stderr = _curate(tmp_path, "lint", str(path), "--encoding", codec)
    assert code in (0, 1) and "error" not in stderr, stderr
    with forced_encoding(codec):
        pairs = read_dataset(path).pairs
    assert [p.sent_less for p in pairs][2] == "The café owner was American and rude."
    assert not any("\r" in p.sent_more + p.sent_less for p in pairs)


@pytest.mark.parametrize("codec", ["utf-16", "utf-32", "utf-16-be"])
def test_a_file_with_a_utf16_or_utf32_byte_order_mark_is_read_without_encoding(
    tmp_path: Path, codec: str
) -> None:
    """Without ``--encoding`` the advice was ``likely cp1252``: the mark is evidence enough."""
    data = CRLF_TEXT.encode(codec)
    if codec == "utf-16-be":
        data = b"\xfe\xff" + data
    path = _write(tmp_path, "pairs.csv", data)
    code, stdout, stderr = _curate(tmp_path, "stats", str(path))
    assert code == 0, stderr
    assert "3 pairs" in stdout and "byte-order mark" in stderr
    assert "cp1252" not in stderr
    decoded = decode(data, "pairs.csv")
    assert decoded.text == CRLF_TEXT


def test_utf16_tsv_and_jsonl_are_detected_as_such(tmp_path: Path) -> None:
    """The container is detected on the text, not on the UTF-16 bytes (a tab is 09 00)."""
    tsv = "\r\n".join(r.replace(",", "\t") for r in ROWS[:3]) + "\r\n"
    record = {"id": 7, "sent_more": "A b.", "sent_less": "C b.", "stereo_antistereo": "stereo",
              "bias_type": "gender"}
    tsv_path = _write(tmp_path, "pairs.tsv", tsv.encode("utf-16"))
    jsonl_path = _write(tmp_path, "pairs.jsonl", (json.dumps(record) + "\n").encode("utf-16"))
    assert read_dataset(tsv_path).shape.name == "tsv"
    assert len(read_dataset(tsv_path).pairs) == 2
    assert [p.pair_id for p in read_dataset(jsonl_path).pairs] == [7]


@pytest.mark.parametrize("text", [CRLF_TEXT, CRLF_TEXT.replace("é", "e")])
def test_utf16_without_its_mark_gets_the_right_advice(tmp_path: Path, text: str) -> None:
    """Also when all ASCII, which is valid UTF-8 (with NULs) and gave a header error."""
    path = _write(tmp_path, "pairs.csv", text.encode("utf-16-le"))
    code, _, stderr = _curate(tmp_path, "stats", str(path))
    assert code == 2
    assert "--encoding utf-16-le" in stderr and "cp1252" not in stderr


def test_utf32_read_as_utf16_is_refused_naming_the_mark() -> None:
    with pytest.raises(InputError, match=r"not utf-16 \(its byte-order mark says utf-32\)"):
        decode(CRLF_TEXT.encode("utf-32"), "pairs.csv", "utf-16")


@pytest.mark.parametrize("content", [b"\x00" * 20_000, bytes(range(1, 9)) * 2_500])
def test_a_one_line_binary_file_is_not_echoed_whole(tmp_path: Path, content: bytes) -> None:
    """A 20 KB one-line binary file was quoted whole (80 KB of ``\\x00``) in the header error."""
    path = _write(tmp_path, "binary.csv", content)
    code, _, stderr = _curate(tmp_path, "stats", str(path))
    assert code == 2
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr[:500]
    assert len(stderr) < 1_000
    assert "looks binary" in stderr
    assert "20,000 characters" in stderr


def test_random_bytes_are_called_binary_not_likely_cp1252(tmp_path: Path) -> None:
    import random

    data = random.Random(46).randbytes(20_000)
    path = _write(tmp_path, "noise.csv", data.replace(b"\n", b"x"))
    code, _, stderr = _curate(tmp_path, "stats", str(path))
    assert code == 2 and "looks binary" in stderr and len(stderr) < 1_000
