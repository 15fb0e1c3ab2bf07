"""The English knowledge behind the G and W rules: articles, confused words, names by gender,
and the lexicon's advantaged groups and aspects."""

from __future__ import annotations

import pytest

from curate.lint.grammar import article_for, confusions, word_gender
from curate.lint.lexicon import load_lexicon
from curate.lint.names import name_gender


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("upscale", "an"),
        ("Englishman", "an"),
        ("European", "a"),
        ("university", "a"),
        ("one-time", "a"),
        ("hour", "an"),
        ("honest", "an"),
        ("Mexican", "a"),
        ("MBA", None),
        ("9th", None),
    ],
)
def test_article_for(word: str, article: str | None) -> None:
    assert article_for(word) == article


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("They are often to qualified to do it.", "to"),
        ("He picked it up by it's leg.", "it's"),
        ("Ours is bigger than their's.", "their's"),
        ("She could of done it.", "of"),
        ("He enjoyed lot of singing.", "lot of"),
        ("A black mans daughter.", "mans"),
        ("He could be get closer.", "be get"),
        ("He told he she was poor.", "he she"),
        ("She couldn't imaging that.", "imaging"),
        ("Nia is White person.", "White person"),
        ("They sat in middle of the room.", "middle of"),
        ("I though he was poor.", "though"),
    ],
)
def test_confusions_find_the_slip(sentence: str, found: str) -> None:
    assert [text for _, _, text, _ in confusions(sentence)] == [found]


@pytest.mark.parametrize(
    "sentence",
    [
        "He was to go to school.",
        "It's a lot of work.",
        "It's been a long day for it.",
        "She could have done it.",
        "He will be hit by the ball.",
        "They sing and bring food.",
        "He was a poor student.",
        "Even though she was poor, she paid.",
        "He, though, was rich.",
        "They though, were never asked.",
    ],
)
def test_confusions_leave_correct_english_alone(sentence: str) -> None:
    assert confusions(sentence) == []


def test_genders_of_words_and_names() -> None:
    assert (word_gender("himself"), word_gender("aunt"), word_gender("teacher")) == (
        "male",
        "female",
        None,
    )
    assert (name_gender("Jason"), name_gender("Emily")) == ("male", "female")
    assert name_gender("jason") is None  # names are capitalised
    # on both of Faker's lists; 87% of its U.S. bearers are women (census 2020)
    assert name_gender("Shannon") == "female"
    # a French or Dutch file reads its own country's names first: "Jean" and "Jan" are men
    # there, whoever bears the name in the U.S.; a name of both sexes there is neither
    assert (name_gender("Jean"), name_gender("Jean", "fr")) == ("female", "male")
    assert (name_gender("Jan", "nl"), name_gender("Claude", "fr")) == ("male", None)
    # no list has it: the census, read without accents (BEATRICE)
    assert name_gender("Béatrice", "fr") == "female"
    assert name_gender("Jordan") is None  # given to men and women alike
    assert name_gender("Zzyzx") is None


def test_lexicon_advantaged_groups_regions_and_aspects() -> None:
    lexicon = load_lexicon()
    assert lexicon.is_advantaged("Whites", "race-color")
    assert not lexicon.is_advantaged("Blacks", "race-color")
    assert lexicon.is_advantaged("straight", "sexual-orientation")
    assert lexicon.dimensions_of("Floridian") == {"region"}
    assert "religion" not in lexicon.dimensions_of("American")
    assert lexicon.aspects_of("fat") == {"weight"} and lexicon.aspects_of("tall") == {"height"}
    assert lexicon.is_proper("muslims") and not lexicon.is_proper("black")
