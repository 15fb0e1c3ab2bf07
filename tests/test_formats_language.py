"""Languages curate does not lint (issue 46): a German CrowS-Pairs-shaped file was linted as
Dutch with no word (its "die" is a Dutch function word too). Now the German is detected and
said in one line, the pairs are treated as English, as an undetected file's are; French and
Dutch files are detected as before."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.datasets import read_dataset
from curate.formats.language import detect_any_language, detect_language

GERMAN = [
    ("Die Frau ist zu schwach für die Arbeit auf dem Bau.",
     "Der Mann ist zu schwach für die Arbeit auf dem Bau."),
    ("Die Armen sind faul und wollen nicht arbeiten.",
     "Die Reichen sind faul und wollen nicht arbeiten."),
    ("Er ist ein Ausländer, das sieht man an seinem Auto.",
     "Er ist ein Deutscher, das sieht man an seinem Auto."),
    ("Sie ist eine alte Frau und kann das nicht verstehen.",
     "Sie ist eine junge Frau und kann das nicht verstehen."),
    ("Der Muslim hat sich mit dem Nachbarn gestritten.",
     "Der Christ hat sich mit dem Nachbarn gestritten."),
    ("Die Schwarzen in der Stadt sind gefährlich, sagt man.",
     "Die Weißen in der Stadt sind gefährlich, sagt man."),
]


def _german_csv(path: Path) -> Path:
    lines = [",sent_more,sent_less,stereo_antistereo,bias_type"]
    for i, (more, less) in enumerate(GERMAN):
        lines.append(f'{i},"{more}","{less}",stereo,gender')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_german_is_detected_as_german_not_dutch() -> None:
    text = " ".join(more for more, _ in GERMAN)
    assert detect_language(text) == "nl"  # the old guess, from "die" alone, is kept as it was
    assert detect_any_language(text) == "de"


def test_a_german_file_is_said_and_not_linted_as_dutch(tmp_path: Path) -> None:
    from curate.cli import app

    path = _german_csv(tmp_path / "de.csv")
    dataset = read_dataset(path)
    assert dataset.language is None  # treated as English, never as Dutch
    notes = [w for w in dataset.warnings if "language:" in w]
    assert len(notes) == 1 and "German detected (not supported" in notes[0], dataset.warnings
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(app, ["lint", str(path)])
    assert result.exit_code in (0, 1), result.stderr
    said = [line for line in result.stderr.splitlines() if "German detected" in line]
    assert len(said) == 1 and said[0].startswith("warning: "), result.stderr
    assert "--language" in said[0]
    with contextlib.chdir(tmp_path):
        declared = CliRunner().invoke(app, ["lint", str(path), "--language", "en"])
    assert "German detected" not in declared.stderr  # a declared language is not second-guessed


def test_an_english_file_gets_no_language_note(tmp_path: Path) -> None:
    path = tmp_path / "en.csv"
    path.write_text(
        ",sent_more,sent_less,stereo_antistereo,bias_type\n"
        "0,The poor are lazy and they are not working.,The rich are lazy and they are not "
        "working.,stereo,socioeconomic\n"
        "1,She is too weak for the work on the site.,He is too weak for the work on the "
        "site.,stereo,gender\n",
        encoding="utf-8",
    )
    dataset = read_dataset(path)
    assert dataset.language == "en" and not dataset.warnings


MULTILINGUAL = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / (
    "crows_pairs_multilingual"
)


@pytest.mark.skipif(not MULTILINGUAL.is_dir(), reason="needs CURATE_DATA_MIRROR")
def test_the_multilingual_files_keep_their_languages() -> None:
    expected = {"crows_french.csv": "fr", "crows_dutch.csv": "nl"}
    for name, language in expected.items():
        path = MULTILINGUAL / name
        dataset = read_dataset(path)
        assert dataset.language == language, name
        sentences = " ".join(p.sent_more for p in dataset.pairs[:2000])
        assert dataset.language == detect_language(sentences), path.name
        assert not any("German detected" in w for w in dataset.warnings), path.name


@pytest.mark.skipif(not MULTILINGUAL.is_dir(), reason="needs CURATE_DATA_MIRROR")
def test_a_one_pair_french_file_is_told_from_both_sentences_or_said(tmp_path: Path) -> None:
    """Issue 45: a French file of one pair was linted as English with no word (its sent_more
    alone holds four function words, under the five needed). Both sentences decide when one
    does not; a text still too short that leans away from English is said in one line."""
    lines = (MULTILINGUAL / "crows_french.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0]
    uncle = next(line for line in lines if line.startswith("684,"))  # oncle/tante, 4 words
    path = tmp_path / "one.csv"
    path.write_text(f"{header}\n{uncle}\n", encoding="utf-8")
    one = read_dataset(path)
    assert one.language is None
    notes = [w for w in one.warnings if "language:" in w]
    assert len(notes) == 1 and "too few sentences" in notes[0] and "--language" in notes[0]

    two = next(line for line in lines if line.startswith("1,"))
    path.write_text(f"{header}\n{two}\n{uncle}\n", encoding="utf-8")
    assert read_dataset(path).language == "fr"


def test_a_short_english_file_stays_silent(tmp_path: Path) -> None:
    path = tmp_path / "en.csv"
    path.write_text(
        ",sent_more,sent_less,stereo_antistereo,bias_type\n"
        "0,Women die young.,Men die young.,stereo,gender\n",
        encoding="utf-8",
    )
    dataset = read_dataset(path)
    assert not [w for w in dataset.warnings if "language:" in w]
