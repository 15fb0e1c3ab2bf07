"""The persistent cache of spaCy's word splits: same tokens, no spaCy on a warm run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from curate import align, tokencache
from curate.datasets import write_pairs
from curate.pairs import Pair

SENTENCES = ["Women don't know how to drive.", "The \"poor\" man's car, it's broken..."]


def _fresh_tokens(sentence: str) -> list[tuple[str, int, str]]:
    align.tokenize.cache_clear()
    return [(t.text, t.start, t.whitespace) for t in align.tokenize(sentence)]


def test_splits_are_saved_and_reused(tmp_path: Path) -> None:
    reference = [_fresh_tokens(s) for s in SENTENCES]
    with tokencache.persistent_splits(tmp_path):
        for s in SENTENCES:
            _fresh_tokens(s)
    saved = json.loads(tokencache.cache_path(tmp_path).read_text())
    assert saved["don't"] == ["do", "n't"]
    assert saved["broken..."] == ["broken", "..."]
    with tokencache.persistent_splits(tmp_path):
        assert [_fresh_tokens(s) for s in SENTENCES] == reference


def test_saved_even_when_the_block_fails(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), tokencache.persistent_splits(tmp_path):
        _fresh_tokens("Unusual-words here!")
        raise RuntimeError("findings")
    assert "here!" in json.loads(tokencache.cache_path(tmp_path).read_text())


@pytest.mark.parametrize("content", ["{not json", '{"x": "not a list"}', "[1, 2]"])
def test_a_corrupt_cache_is_ignored_and_rewritten(tmp_path: Path, content: str) -> None:
    path = tokencache.cache_path(tmp_path)
    path.write_text(content)
    with tokencache.persistent_splits(tmp_path):
        assert _fresh_tokens("Fine words.") == [("Fine", 0, " "), ("words", 5, ""), (".", 10, "")]
    assert json.loads(path.read_text())["words."] == ["words", "."]


def test_disabled_writes_nothing(tmp_path: Path) -> None:
    with tokencache.persistent_splits(None):
        _fresh_tokens("Nothing saved.")
    assert list(tmp_path.iterdir()) == []


def test_a_warm_lint_run_does_not_load_spacy(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.curate]\ndata = "pairs.csv"\n')
    write_pairs(
        [Pair(0, "Women don't drive.", "Men drive.", "stereo", "gender")], tmp_path / "pairs.csv"
    )
    probe = (
        "import sys\nfrom curate.cli import app\n"
        "try:\n    app(['lint'])\nexcept SystemExit as exit:\n    code = exit.code\n"
        "print(code, 'spacy' in sys.modules, file=sys.stderr)\n"
    )

    def run():
        return subprocess.run(
            [sys.executable, "-c", probe],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )

    cold, warm = run(), run()
    assert cold.stderr.strip().endswith("1 True"), cold.stderr
    assert warm.stderr.strip().endswith("1 False"), warm.stderr
    assert cold.stdout == warm.stdout and "S001" in warm.stdout
    no_cache = subprocess.run(
        [sys.executable, "-m", "curate", "lint", "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert no_cache.stdout == warm.stdout
