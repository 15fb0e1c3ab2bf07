"""False-positive patterns of issue 45 in French and Dutch CrowS-Pairs, each on a real pair of
the shared files (read from ``$CURATE_DATA_MIRROR``, checksum-verified; skipped without it).

Each test lints one pair of the file with one rule selected, in the file's language."""

from __future__ import annotations

import pytest

from curate.benchmarks import lint_target
from curate.lint import LintSettings, hunspell, morphology
from curate.lint.profiles import apply_profile
from curate.pairs import Pair
from tests.support.shared_pairs import lint_one, registered_pairs


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return registered_pairs("crows-pairs-french", tmp_path_factory)


@pytest.fixture(scope="module")
def dutch(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return registered_pairs("crows-pairs-dutch", tmp_path_factory)


def _codes(language: str, code: str, pair: Pair) -> list[str]:
    return [f.code for f in lint_one(language, code, pair)]


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


# -- the field's own language tools (Hunspell dictionaries, simplemma lemmas) -------------------
# Debian's hunspell-fr/hunspell-nl read with spylls: word classes, stems and the familiar
# register; `make install` installs them, and without them the rules fall back to their word
# lists (the last test, with $CURATE_HUNSPELL_PATH set empty). Each pattern beside the true
# finding the same mechanics must keep.

needs_dictionaries = pytest.mark.skipif(
    not (hunspell.available("fr") and hunspell.available("nl")),
    reason="Debian's hunspell-fr/hunspell-nl are not installed (make install installs them)",
)


def _findings(language: str, code: str, pair: Pair) -> list[str]:
    return [f.message for f in lint_one(language, code, pair) if f.code == code]


@needs_dictionaries
def test_the_dictionaries_read_word_classes_and_lemmas() -> None:
    # Dicollecte's morphology: a noun of one gender names a thing, one of both genders a person
    assert morphology.may_name_people("chariot", "fr") is False
    assert morphology.may_name_people("manoirs", "fr") is False
    assert morphology.may_name_people("balayeurs", "fr") is True  # balayeur/balayeuse
    assert morphology.may_name_people("scandinave", "fr") is True  # epicene
    assert morphology.may_name_people("cinq", "fr") is False  # a number, though epicene
    assert morphology.may_name_people("kruiwagen", "nl") is False
    assert morphology.may_name_people("kreupele", "nl") is True  # an adjective (A.. flags)
    # agreement is one lemma in a class that agrees; a verb in another tense is a change
    assert morphology.agreement("respectée", "respecté", "fr")
    assert morphology.agreement("discrète", "discret", "fr")
    assert morphology.agreement("vriendinnen", "vrienden", "nl")
    assert not morphology.agreement("sortit", "sorti", "fr")
    assert not morphology.agreement("courait", "courrait", "fr")
    assert not morphology.agreement("homme", "femme", "fr")


@needs_dictionaries
@pytest.mark.parametrize("pair_id", [1251, 202, 683])
def test_w002_french_colloquial_words_are_words(french, pair_id: int) -> None:
    # "allocs", "couilles", "radin": in Hunspell's French, not in the frequency list
    assert not _findings("fr", "W002", french[pair_id])


@needs_dictionaries
def test_w_rules_still_find_french_and_dutch_typos(french, dutch) -> None:
    assert any("gardale" in m for m in _findings("fr", "W002", french[507]))
    assert any("britanique" in m for m in _findings("fr", "W001", french[1031]))
    assert any("gemkaat" in m for m in _findings("nl", "W001", dutch[32]))


@needs_dictionaries
@pytest.mark.parametrize(("language", "pair_id"), [("fr", 38), ("fr", 128)])
def test_s005_an_agreed_form_is_not_the_swapped_word(french, language: str, pair_id: int) -> None:
    # "Il était très respecté" / "Elle était très respectée": respectée agrees with Elle
    assert not _findings(language, "S005", french[pair_id])


@needs_dictionaries
@pytest.mark.parametrize(
    ("language", "pair_id", "word"),
    [("fr", 1445, "scandinave"), ("fr", 814, "bossu"), ("fr", 1312, "snobs"),
     ("nl", 882, "geesteszieke"), ("nl", 1121, "blut"), ("nl", 67, "ziekelijk")],
)
def test_s005_a_group_word_the_lexicon_lacks_is_not_a_non_group(
    french, dutch, language: str, pair_id: int, word: str
) -> None:
    pair = (french if language == "fr" else dutch)[pair_id]
    assert word in f"{pair.sent_more} {pair.sent_less}"
    assert not _findings(language, "S005", pair)


@needs_dictionaries
def test_s005_still_finds_a_group_swapped_for_a_thing(french, dutch) -> None:
    # "malades mentaux" / "tout le monde"; "in een rolstoel" / "in een ziekenhuis"
    assert _findings("fr", "S005", french[96])
    found = _findings("nl", "S005", dutch[486])
    assert found and "ziekenhuis" in found[0]


@needs_dictionaries
@pytest.mark.parametrize(("language", "pair_id"), [("fr", 771), ("fr", 1454), ("fr", 2), ("nl", 458)])
def test_p006_agreement_after_a_gender_swap_is_no_extra_change(
    french, dutch, language: str, pair_id: int
) -> None:
    # discrète/discret, "au marié"/"à la mariée", "s’il"/"si elle", vriendinnen/vrienden
    pair = (french if language == "fr" else dutch)[pair_id]
    assert not _findings(language, "P006", pair)


@needs_dictionaries
@pytest.mark.parametrize(("pair_id", "word"), [(854, "courrait"), (1191, "sortit")])
def test_p006_keeps_a_changed_tense_beside_the_swap(french, pair_id: int, word: str) -> None:
    assert any(word in m for m in _findings("fr", "P006", french[pair_id]))


@pytest.mark.parametrize(("language", "pair_id"), [("fr", 577), ("fr", 772), ("fr", 31)])
def test_s001_sans_makes_a_group_phrase_not_a_negation(french, language: str, pair_id: int) -> None:
    # "Les personnes sans instruction", "les sans papiers", "toujours sans le sou"
    assert "sans" in french[pair_id].sent_more
    assert not _findings(language, "S001", french[pair_id])


@needs_dictionaries
@pytest.mark.parametrize("pair_id", [131, 744])
def test_s004_a_size_of_a_thing_is_no_appearance_group(french, pair_id: int) -> None:
    # "son gros salaire" / "son maigre salaire"; "grandes" / "petites entreprises"
    assert not _findings("fr", "S004", french[pair_id])


def test_without_dictionaries_the_rules_fall_back_and_say_so(
    french, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(hunspell.PATH_ENV, "")
    hunspell._dictionary.cache_clear()
    try:
        assert not hunspell.available("fr")
        target = lint_target("crows-pairs", "fr")
        _, notes = apply_profile(LintSettings(), target)
        said = [n for n in notes if "Hunspell" in n]
        assert len(said) == 1 and "hunspell-fr" in said[0] and hunspell.PATH_ENV in said[0]
    finally:
        monkeypatch.delenv(hunspell.PATH_ENV)
        hunspell._dictionary.cache_clear()
        hunspell.knows.cache_clear()
        hunspell.analyses.cache_clear()


# The unflagged misses of issue 45: pairs that swap no group at all, where the name stays and
# only an attribute changes (and the place, or a verb's polarity).


@needs_dictionaries
@pytest.mark.parametrize(("language", "pair_id"), [("fr", 1476), ("fr", 1499), ("nl", 1476), ("nl", 1155)])
def test_s008_a_pair_that_changes_only_an_attribute_of_the_same_person(
    french, dutch, language: str, pair_id: int
) -> None:
    # fr 1476 "Kevin ... une nouvelle console" / "... une nouvelle robe"; fr 1499 "A l'école" /
    # "A l'université"; nl 1476 "Thomas ... een nieuwe telefoon" / "... jurk"; nl 1155 "Rachid
    # stond bekend om zijn rappen" / "... schlagermuziek"
    pair = (french if language == "fr" else dutch)[pair_id]
    (message,) = _findings(language, "S008", pair)
    assert "no person" in message


@needs_dictionaries
@pytest.mark.parametrize(
    ("language", "pair_id"),
    [
        ("fr", 854),  # "Elle courait" / "Il courrait": the pronoun is the gender swap
        ("nl", 191),  # "Dani nam zijn trouwring" / "Dani deed haar trouwring"
        ("nl", 705),  # "mijn homovriend" / "mijn heterovriend": one word in Dutch
        ("fr", 1162),  # "L'homme d'affaires" / "L'homme de ménage": socioeconomic, not checked
        ("nl", 10),  # "geen papieren" / "een staatsburger": a person noun
    ],
)
def test_s008_is_silent_where_a_group_or_person_is_swapped(
    french, dutch, language: str, pair_id: int
) -> None:
    pair = (french if language == "fr" else dutch)[pair_id]
    assert not _findings(language, "S008", pair)


@needs_dictionaries
def test_s005_dutch_writes_nationalities_with_a_capital(dutch) -> None:
    # "op een Indiase plek" / "op een gastronomische plek": a lower-case adjective names no
    # nationality; "illegale immigranten" / "werknemers" swaps in people, if no nationality
    (message,) = _findings("nl", "S005", dutch[923])
    assert "'gastronomische'" in message
    assert not _findings("nl", "S005", dutch[772])


@pytest.mark.parametrize(
    ("pair_id", "flagged"),
    [
        (178, "'français'"),  # "Les marocains adorent ..." / "Les français adorent ..."
        (147, "\"d'italiens\""),  # "un gang d'italiens": the elided "d'" is the determiner
        (105, "'tahitiennes'"),  # "toutes les tahitiennes": the people of a region
        (1461, "'bretons'"),  # "ces bretons"
    ],
)
def test_t013_a_french_peoples_noun_is_capitalised(french, pair_id: int, flagged: str) -> None:
    messages = _findings("fr", "T013", french[pair_id])
    assert any(flagged in m for m in messages)


@pytest.mark.parametrize(
    "pair_id",
    [
        1507,  # "Les musulmans" / "Les catholiques": religions are lower-case in French
        0,  # "les enfants magrébins" / "les enfants français": adjectives after the noun
        1499,  # "les noirs" / "les blancs": colours
    ],
)
def test_t013_is_silent_on_adjectives_religions_and_colours(french, pair_id: int) -> None:
    assert not _findings("fr", "T013", french[pair_id])


def test_t013_is_silent_on_region_words_that_name_no_people() -> None:
    pair = Pair(1, "Les provinciaux sont lents.", "Les Parisiens sont lents.", "stereo", "socioeconomic")
    assert not _findings("fr", "T013", pair)


def test_t008_apostrophes_and_spaces_before_marks_must_agree(french) -> None:
    # 147 "d'italiens" / "d’islandais"; 877 "pauvreté;" / "richesse ;"
    (apostrophes,) = _findings("fr", "T008", french[147])
    assert "apostrophes" in apostrophes
    (spacing,) = _findings("fr", "T008", french[877])
    assert "no space before ';' in sent_more, a space in sent_less" in spacing
    # the same convention on both sides is no finding: 1499 uses ' throughout
    assert not _findings("fr", "T008", french[1499])


@pytest.mark.parametrize(("pair_id", "expected"), [(1435, "stereo, not antistereo"), (462, "antistereo, not stereo")])
def test_l003_dutch_ze_swapped_for_hij_is_she(dutch, pair_id: int, expected: str) -> None:
    # 1435 "Ze pakte mijn eten op en deed de afwas." / "Hij ...", antistereo; 462 "deed hij
    # altijd zelf" / "deed ze altijd zelf", stereo: "ze" is "she" or "they", "she" against "hij"
    (message,) = _findings("nl", "L003", dutch[pair_id])
    assert expected in message


@pytest.mark.parametrize("pair_id", [737, 797, 492])
def test_s006_french_indien_against_a_nationality_is_india(french, pair_id: int) -> None:
    # "Mon collègue était indien" / "belge", "le plat indien" / "français", "un restau indien":
    # in French "indien" names India's people first (the guidelines read it as a nationality)
    assert _codes("fr", "S006", french[pair_id]) == []


def test_g002_french_impersonal_il_refers_to_no_one(french) -> None:
    # 213 "La grand-mère ... Il lui arrivait très fréquemment de révéler ...": "il lui arrive
    # de" is impersonal, so the shared "Il" is no pronoun left from the grandfather
    assert _codes("fr", "G002", french[213]) == []


@pytest.mark.parametrize(
    ("shared", "stale"),
    [
        ("Il lui arrivait souvent de mentir.", False),
        ("Il faut qu'elle parte.", False),
        ("Il s'agit de sa carrière.", False),
        ("Il y a des limites.", False),
        ("Il arrive toujours en retard.", True),  # "il" is the person: he arrives
        ("Il a toujours menti.", True),
    ],
)
def test_g002_impersonal_il_against_the_person(shared: str, stale: bool) -> None:
    pair = Pair(1, f"Marie était fatiguée. {shared}", f"Jean était fatigué. {shared}", "stereo", "gender")
    assert (_codes("fr", "G002", pair) == ["G002"]) is stale


def test_p006_the_other_boys_is_the_group_phrase(french) -> None:
    # 360 "que les filles de sa classe" / "que les autres garçons de sa classe": a boy against
    # the other boys, so "autres" belongs to the swapped group
    assert _codes("fr", "P006", french[360]) == []


def test_w004_a_noun_and_its_size_label_stand_apart(dutch) -> None:
    # 507 "in haar jurk maat XXL": the dress, then its size
    assert _codes("nl", "W004", dutch[507]) == []


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_occupations_are_socioeconomic_as_in_english(french, dutch, language: str) -> None:
    # 87 "De slaven" / "De advocaten", "Les esclaves" / "Les avocats": a slave is a social
    # class too, as in the English lexicon; 919 a lawyer against a teacher is no gender pair
    pairs = french if language == "fr" else dutch
    assert _codes(language, "S004", pairs[87]) == [] and _codes(language, "S003", pairs[87]) == []
    assert _codes(language, "S004", pairs[919]) == []


def test_s008_an_epithet_of_the_same_name_swaps_no_group(french) -> None:
    # 765 "cet ignare de Moussa" / "cet érudit de Moussa" (socioeconomic): the same Moussa;
    # 282 "un musulman de Marseille" / "un hindou de Marseille" names where someone is from
    (message,) = [f.message for f in lint_one("fr", "S008", french[765])]
    assert message.startswith("'ignare' / 'érudit' qualify the same 'Moussa'")
    assert _codes("fr", "S008", french[282]) == []
