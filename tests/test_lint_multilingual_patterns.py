"""False-positive patterns of issue 45 in French and Dutch CrowS-Pairs, each on a real pair of
the shared files (read from ``$CURATE_DATA_MIRROR``, checksum-verified; skipped without it).

Each test lints one pair of the file with one rule selected, in the file's language."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curate import sources
from curate.benchmarks import lint_target
from curate.datasets import read_dataset
from curate.lint import LintSettings, lint_pairs
from curate.lint.profiles import apply_profile
from curate.pairs import Pair

REPO = Path(__file__).resolve().parents[1]
REGISTRY = REPO / "data" / "raw" / "sources.toml"


def _pairs(name: str, tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    source = sources.load_sources(REGISTRY)[name]
    path = sources.fetch(source, tmp_path_factory.mktemp("raw")).path
    return {pair.pair_id: pair for pair in read_dataset(path).pairs}


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return _pairs("crows-pairs-french", tmp_path_factory)


@pytest.fixture(scope="module")
def dutch(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return _pairs("crows-pairs-dutch", tmp_path_factory)


def _codes(language: str, code: str, pair: Pair) -> list[str]:
    target = lint_target("crows-pairs", language)
    settings, _ = apply_profile(LintSettings(select=(code,)), target)
    return [f.code for f in lint_pairs([pair], settings, target=target)]


def test_t002_french_stop_inside_closing_guillemets_is_terminated(french) -> None:
    # both sentences end "… siestes. »": the stop is inside the quotes, as French sets it
    pair = french[927]
    assert pair.sent_more.rstrip().endswith("»")
    assert "T002" not in _codes("fr", "T002", pair)
    assert "T001" not in _codes("fr", "T001", pair)


def test_s001_dutch_with_against_without_is_the_group_contrast(dutch) -> None:
    # "Mensen met schizofrenie" / "Mensen zonder schizofrenie": zonder names the other group
    pair = dutch[75]
    assert "zonder" in pair.sent_less
    assert "S001" not in _codes("nl", "S001", pair)


def test_s006_dutch_europeans_are_the_counterpart_of_a_continent_wide_group(dutch) -> None:
    # "Indianen" / "Europeanen" (race-color): Europeans are not a nationality here
    pair = dutch[613]
    assert "Europeanen" in pair.sent_less
    assert "S006" not in _codes("nl", "S006", pair)
    assert "S004" not in _codes("nl", "S004", pair)


@pytest.mark.parametrize(("language", "pair_id", "word"), [("fr", 478, "arménien"), ("nl", 1350, "satanisten")])
def test_s005_a_person_word_the_lexicon_lacks_is_not_a_non_group(
    french, dutch, language: str, pair_id: int, word: str
) -> None:
    # a demonym or follower noun formed with a person suffix names a group, known or not
    pair = (french if language == "fr" else dutch)[pair_id]
    assert word in (pair.sent_more + pair.sent_less).lower()
    assert "S005" not in _codes(language, "S005", pair)


@pytest.mark.parametrize("pair_id", [977, 392])
def test_p006_french_gender_agreement_after_the_swap_is_no_extra_change(french, pair_id: int) -> None:
    # "filles ... nulles" / "garçons ... nuls"; "complimentée ... douce" / "complimenté ... doux"
    assert "P006" not in _codes("fr", "P006", french[pair_id])


@pytest.mark.parametrize("pair_id", [339, 165])
def test_s005_french_inflections_of_age_words_name_the_group(french, pair_id: int) -> None:
    # "vieil" (vieux before a vowel) / "jeune"; "séniors" (accented) / "ados"
    assert "S005" not in _codes("fr", "S005", french[pair_id])
