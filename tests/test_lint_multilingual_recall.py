"""Defects French and Dutch lint missed on random unflagged pairs (issue 45's recall side), each
on a real pair of the shared files (read from ``$CURATE_DATA_MIRROR``, checksum-verified;
skipped without it), with the pairs the same rules must leave alone.

Each test lints one pair with one rule selected, in the file's language."""

from __future__ import annotations

import dataclasses

import pytest

from curate.benchmarks import lint_target
from curate.lint import LintSettings, grammalecte
from curate.lint.names import name_race_side
from curate.lint.profiles import apply_profile
from curate.pairs import Pair
from tests.support.shared_pairs import lint_one, registered_pairs


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return registered_pairs("crows-pairs-french", tmp_path_factory)


@pytest.fixture(scope="module")
def dutch(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return registered_pairs("crows-pairs-dutch", tmp_path_factory)


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Pair]:
    return registered_pairs("crows-pairs", tmp_path_factory)


def _messages(language: str, code: str, pair: Pair) -> list[str]:
    return [f.message for f in lint_one(language, code, pair) if f.code == code]


# G006: Grammalecte ------------------------------------------------------------------------------

needs_grammalecte = pytest.mark.skipif(
    not grammalecte.available(), reason="Grammalecte is not installed (make install)"
)


@needs_grammalecte
@pytest.mark.parametrize(
    ("pair_id", "words", "where"),
    [
        (154, "fière", "sent_less"),  # "Benoît était fière": agreement left by the swap
        (376, "arrivée", "sent_less"),  # "Jules est arrivée"
        (779, "jours", "sent_more and sent_less"),  # "Chaque jours"
        (1241, "gens là", "sent_more and sent_less"),  # "ces gens-là"
        (1123, "si ", "sent_more and sent_less"),  # "si il" for "s'il"
    ],
)
def test_g006_grammalecte_reads_french_grammar(french, pair_id: int, words: str, where: str) -> None:
    messages = _messages("fr", "G006", french[pair_id])
    assert any(m.startswith(f"{words!r} in {where}:") for m in messages), messages


@needs_grammalecte
@pytest.mark.parametrize("pair_id", [236, 609, 1005])
def test_g006_is_silent_on_typography_and_correct_sentences(french, pair_id: int) -> None:
    # 236 writes "qu'il" with a straight apostrophe: typography is the T rules' business
    assert _messages("fr", "G006", french[pair_id]) == []


def test_g006_without_grammalecte_is_skipped_in_one_line(french, monkeypatch) -> None:
    monkeypatch.setenv(grammalecte.PATH_ENV, "")
    grammalecte._checker.cache_clear()
    grammalecte.grammar_errors.cache_clear()
    try:
        target = lint_target("crows-pairs", "fr")
        _, notes = apply_profile(LintSettings(), target)
        assert any("no Grammalecte found" in n and "G006" in n for n in notes)
        assert _messages("fr", "G006", french[154]) == []
    finally:
        monkeypatch.delenv(grammalecte.PATH_ENV)
        grammalecte._checker.cache_clear()
        grammalecte.grammar_errors.cache_clear()


def test_g006_hostile_input_is_bounded() -> None:
    assert grammalecte.grammar_errors("a" * (grammalecte.MAX_SENTENCE + 1)) == ()
    if grammalecte.available():
        assert isinstance(grammalecte.grammar_errors("\x00\u202e" * 500), tuple)


# S009: two group dimensions swapped at once ----------------------------------------------------


@pytest.mark.parametrize(("language", "pair_id"), [("fr", 991), ("nl", 991), ("en", 991)])
def test_s009_race_and_class_swapped_together(french, dutch, english, language, pair_id) -> None:
    pair = {"fr": french, "nl": dutch, "en": english}[language][pair_id]
    (message,) = _messages(language, "S009", pair)
    assert "ethnicity, socioeconomic" in message


@pytest.mark.parametrize(
    ("language", "pair_id"),
    [
        ("fr", 645),  # "petite" / "petit": agreement with the swapped gender, not appearance
        ("fr", 896),  # "jeune fille" / "vieille femme": both women, one age contrast
        ("fr", 952),  # "femmes démunies" / "hommes démunis": class kept, agreed
        ("nl", 306),  # "jonge jongen" / "oude man": both men
    ],
)
def test_s009_agreement_and_one_dimension_are_no_second_swap(french, dutch, language, pair_id) -> None:
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    assert _messages(language, "S009", pair) == []


# S002: the English opposites ported, read by lemma ----------------------------------------------


@pytest.mark.parametrize(
    ("language", "pair_id", "flip"),
    [
        ("fr", 1008, "'plus' became its opposite 'moins'"),
        ("fr", 319, "'refusé' became its opposite 'accepté'"),
        ("nl", 106, "'alles' became its opposite 'niets'"),
        ("nl", 1313, "'Iedereen' became its opposite 'Niemand'"),
        ("fr", 728, "'rarement' became its opposite 'toujours'"),  # how often, reversed
        ("nl", 728, "'zelden' became its opposite 'altijd'"),
    ],
)
def test_s002_french_and_dutch_flips(french, dutch, language, pair_id, flip) -> None:
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    assert _messages(language, "S002", pair) == [flip]


@pytest.mark.parametrize(
    ("language", "pair_id"),
    [
        ("fr", 1117),  # "bon ... mauvais" / "bonne ... mauvaise": re-inflected, not flipped
        ("fr", 131),  # "gros salaire" / "maigre salaire": the class, not an attribute
        ("nl", 290),  # "ouder" / "jonger" in an age pair: the group, read by its lemma
        ("nl", 968),  # "lelijkste" / "mooiste" in an appearance pair
    ],
)
def test_s002_inflections_sizes_and_group_lemmas_are_no_flip(french, dutch, language, pair_id) -> None:
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    assert _messages(language, "S002", pair) == []


# L003 and G002: names of the file's language ---------------------------------------------------


@pytest.mark.parametrize(
    ("language", "pair_id", "name", "expected"),
    [
        ("nl", 558, "Imani", "stereo"),  # names kept from the English original
        ("nl", 1451, "Rajeev", "stereo"),
        ("fr", 1106, "Martha", "stereo"),  # gender from the census where no list has the name
        ("nl", 1076, "Helena", "stereo"),
        ("nl", 612, "dikke", "stereo"),  # "mager" is the advantaged side, as English "skinny"
    ],
)
def test_l003_reads_names_and_thinness_in_french_and_dutch(
    french, dutch, language, pair_id, name, expected
) -> None:
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    (message,) = _messages(language, "L003", pair)
    assert repr(name) in message and f"so the pair is {expected}," in message


def test_census_race_reads_no_local_name_as_hispanic_nor_a_mena_name_as_white() -> None:
    # "Johan" is mostly Hispanic in the U.S. (70%), a Dutch name in a Dutch file: no answer
    assert name_race_side("Johan", "en") == "disadvantaged"
    assert name_race_side("Johan", "nl") is None
    # the census counts people from the Middle East and North Africa as white
    assert name_race_side("Rachid") is None and name_race_side("Michael") == "advantaged"


def test_g002_french_name_of_the_file_language(french) -> None:
    # "Béatrice ... elle" / "Jonathan ... elle": Béatrice is read (census, accents folded)
    (message,) = _messages("fr", "G002", french[1258])
    assert "'elle' in sent_less" in message


@pytest.mark.parametrize(
    ("language", "pair_id"),
    [
        ("nl", 555),  # "zijn telefoon ... hem weg te gooien": hem is the phone
        ("nl", 1067),  # "Lisa pakte hem op": hem is someone else
        ("fr", 867),  # "dit à Sarah qu'il savait ... où elle avait": il is the inspector
    ],
)
def test_g002_silent_where_the_pronouns_changed_or_hem_is_a_thing(
    french, dutch, language, pair_id
) -> None:
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    assert _messages(language, "G002", pair) == []


# S006: a continent-wide group against one nationality -------------------------------------------


@pytest.mark.parametrize(
    ("language", "pair_id", "words"),
    [("fr", 1281, "'européens'"), ("nl", 1281, "'Europeaan'"), ("nl", 618, "'Europese'")],
)
def test_s006_continent_wide_group_against_one_nationality(french, dutch, language, pair_id, words) -> None:
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    (message,) = _messages(language, "S006", pair)
    assert message.startswith(f"the continent-wide group {words} is contrasted with a nationality")


def test_s006_continent_wide_groups_against_each_other_are_counterparts(dutch) -> None:
    # "Afrikanen" / "Europeanen" (a continent against a continent) is a fair contrast
    pair = Pair(1, "Afrikanen zijn lui.", "Europeanen zijn lui.", "stereo", "race-color")
    assert _messages("nl", "S006", pair) == []


@needs_grammalecte
@pytest.mark.parametrize("pair_id", [229, 1184])
def test_g006_leaves_the_spoken_register_and_comparatives(french, pair_id: int) -> None:
    # 229 "y'a jamais moyen" writes speech; 1184 "plus forts que" is the adjective
    assert _messages("fr", "G006", french[pair_id]) == []


# W004: Dutch compounds written apart --------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair_id", "words", "joined"),
    [(1421, "maffia leden", "maffialeden"), (1181, "tiener crimineel", "tienercrimineel"),
     (1060, "Homo mannen", "homomannen"), (520, "basis begrafenisdiensten", "basisbegrafenisdiensten"),
     (816, "zigeuner bloed", "zigeunerbloed"),  # "zigeuner": a noun by its diminutive flag
     (739, "wiskunde vraag", "wiskundevraag")],  # "wiskunde": only compounding flags
)  # fmt: skip
def test_w004_dutch_split_compounds(dutch, pair_id: int, words: str, joined: str) -> None:
    messages = _messages("nl", "W004", dutch[pair_id])
    assert any(m.startswith(repr(words)) and m.endswith(repr(joined)) for m in messages), messages


@pytest.mark.parametrize(
    "pair_id",
    [
        991,  # "een taart bakken": an object and its verb
        423,  # "veel geld": a quantity and its noun
        1151,  # "een schoon pak": an adjective
        479,  # "risico loopt": a noun and a verb ("loop" is a noun too)
        630,  # "de tractor rond": an adverb that is also a noun
    ],
)
def test_w004_noun_phrases_are_two_words(dutch, pair_id: int) -> None:
    assert _messages("nl", "W004", dutch[pair_id]) == []


# G007: a Dutch adjective swapped for one with another ending ---------------------------------------


@pytest.mark.parametrize(
    ("pair_id", "more", "less"),
    [(46, "lange", "kort"), (953, "Koreaans", "Franse"), (964, "Russische", "Duits"),
     (704, "Chinees", "Nederlandse"), (1292, "grote", "klein")],
)  # fmt: skip
def test_g007_a_swapped_adjective_keeps_its_ending(dutch, pair_id: int, more: str, less: str) -> None:
    # "het kort nieuwe meisje", "een streng Franse gezin", "Russische bloed", "iemand Nederlandse"
    messages = _messages("nl", "G007", dutch[pair_id])
    assert len(messages) == 1 and messages[0].startswith(f"{more!r} in sent_more and {less!r} in sent_less")


@pytest.mark.parametrize(
    "pair_id",
    [
        1449,  # "Ze was zwart," / "Ze was Chinese,": predicative, "Chinese" names a woman
        784,  # "de gay pride" / "de militaire pride": "gay" has no -e form
        42,  # "Die zwarte man" / "Die witte man": the same ending
    ],
)
def test_g007_leaves_predicates_loans_and_matching_endings(dutch, pair_id: int) -> None:
    assert _messages("nl", "G007", dutch[pair_id]) == []


# G008: a Dutch adjective in the place of a plural noun of people -----------------------------------


@pytest.mark.parametrize("pair_id", [933, 1148])
def test_g008_a_bare_adjective_stands_for_the_noun(dutch, pair_id: int) -> None:
    # "Kinderen hebben ..." / "Volwassen hebben ...": the noun is "Volwassenen"
    (message,) = _messages("nl", "G008", dutch[pair_id])
    assert message.startswith("'Volwassen' in sent_less stands for 'Kinderen'") and "'Volwassenen'" in message


@pytest.mark.parametrize(("pair_id", "noun"), [(1095, "Chinezen"), (1440, "Griek")])
def test_g008_a_peoples_adjective_stands_for_its_noun(dutch, pair_id: int, noun: str) -> None:
    # "alle andere Chinezen," / "alle andere Noors,"; "de typische Griek," / "de typische Noors,"
    (message,) = _messages("nl", "G008", dutch[pair_id])
    assert message.startswith(f"'Noors' in sent_less stands for {noun!r}")


def test_g008_leaves_a_predicate_and_an_attribute(dutch) -> None:
    # 1449 "Ze was zwart," / "Ze was Chinese,": a predicate; 953 "een streng Koreaans gezin"
    assert _messages("nl", "G008", dutch[1449]) == [] and _messages("nl", "G008", dutch[953]) == []


# S004 and L003: an adult against a child; Western nationalities ---------------------------------


@pytest.mark.parametrize(("language", "pair_id"), [("fr", 209), ("fr", 720), ("nl", 209), ("nl", 720)])
def test_s004_an_adult_is_the_age_counterpart_of_a_child(french, dutch, language, pair_id) -> None:
    # "un homme de ton âge" / "un enfant de ton âge"
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    assert _messages(language, "S004", pair) == []


def test_s004_english_keeps_its_judged_output(english) -> None:
    (message,) = _messages("en", "S004", english[209])
    assert message == "sent_more names gender, sent_less names age: not both age"


@pytest.mark.parametrize(("language", "pair_id"), [("nl", 940), ("nl", 1281), ("fr", 1300)])
def test_l003_dutch_american_and_european_are_one_side(french, dutch, language, pair_id) -> None:
    # "Hij was Nederlander" / "Hij was Amerikaans": both Western, no disadvantaged side
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    assert _messages(language, "L003", pair) == []


# L003: a Dutch compound read by its last part; a partner read by its possessor ----------------


@pytest.mark.parametrize(
    ("pair_id", "named", "expected"),
    [(475, "handarbeider", "stereo"), (584, "speerman", "antistereo")],
)
def test_l003_reads_a_dutch_compound_by_its_last_part(dutch, pair_id: int, named: str, expected: str) -> None:
    # "handarbeider" is a worker ("arbeider"), a "speerman" a man
    (message,) = _messages("nl", "L003", dutch[pair_id])
    assert f"({named!r})" in message and f"so the pair is {expected}," in message


@pytest.mark.parametrize(
    ("pair_id", "couple"), [(847, "Jans vrouw"), (883, "zijn vrouw"), (1283, "zijn vriendin"), (667, "haar man")]
)
def test_l003_reads_a_partner_by_its_possessor(dutch, pair_id: int, couple: str) -> None:
    # "Jans vrouw" / "Jans man" labelled stereo: sent_more is the straight couple
    (message,) = _messages("nl", "L003", dutch[pair_id])
    assert message.startswith(f"sent_more names the advantaged sexual-orientation group ({couple!r})")


def test_l003_a_friend_named_beside_is_no_partner(dutch) -> None:
    # 687 "haar vriend Pieter" / "haar vriendin Marieke": a friend, of no orientation
    assert _messages("nl", "L003", dutch[687]) == []


@pytest.mark.parametrize("pair_id", [847, 883, 1283, 667])
def test_l003_english_partners_with_the_right_label_stay_silent(english, pair_id: int) -> None:
    # the English pairs are labelled antistereo, as "Jim's wife" / "Jim's husband" are
    assert english[pair_id].direction == "antistereo"
    assert _messages("en", "L003", english[pair_id]) == []


# The Dutch group lexicon: socioeconomic words of the English lexicon, regional adjectives -------


def test_l003_dutch_ghetto_against_suburbs(dutch) -> None:
    (message,) = _messages("nl", "L003", dutch[602])  # "in het getto" / "in de buitenwijken"
    assert "disadvantaged socioeconomic group ('getto')" in message


def test_s004_a_city_adjective_is_no_nationality(dutch) -> None:
    (message,) = _messages("nl", "S004", dutch[237])  # "een Italiaanse" / "een Amsterdamse makelaar"
    assert message == "sent_more names nationality, sent_less names region: not both nationality"


@pytest.mark.parametrize("pair_id", [1460, 1079])
def test_s005_the_place_of_a_group_names_a_group(dutch, pair_id: int) -> None:
    # "het asielzoekerscentrum" / "het landhuis": the asylum seekers' centre
    assert _messages("nl", "S005", dutch[pair_id]) == []


def test_s005_a_hospital_is_still_no_group(dutch) -> None:
    # 486 "in een rolstoel" / "in een ziekenhuis": "zieken" is no plural in -s, "ziekenhuis" a thing
    (message,) = _messages("nl", "S005", dutch[486])
    assert "'ziekenhuis' instead, which names no group" in message


# W001/W002: a Dutch plural written with -s ----------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "pair_id", "word", "plural"),
    [("W001", 615, "christens", "christenen"), ("W002", 1233, "euros", "euro's"), ("W002", 927, "siëstas", "siësta's")],
)
def test_w00x_a_dutch_plural_written_with_s(dutch, code: str, pair_id: int, word: str, plural: str) -> None:
    (message,) = _messages("nl", code, dutch[pair_id])
    assert f"{word!r} (did you mean {plural!r}?)" in message


# W001/W002: a French name with wrong accents ---------------------------------------------------


@pytest.mark.parametrize(
    ("code", "pair_id", "word", "name"),
    [("W001", 761, "Jerôme", "Jérôme"), ("W002", 95, "Jerémie", "Jérémie"), ("W001", 1395, "Stephane", "Stéphane"),
     ("W002", 1317, "Joelle", "Joëlle")],
)  # fmt: skip
def test_w00x_a_french_name_with_wrong_accents(french, code: str, pair_id: int, word: str, name: str) -> None:
    (message,) = _messages("fr", code, french[pair_id])
    assert f"{word!r} (did you mean {name!r}?)" in message


def test_w001_a_french_word_without_its_accent(french) -> None:
    # 17 "l'enervait": Hunspell knows "énervait" only; 1473 "paraitrait", 1393 "diner" follow
    # the 1990 spelling reform, which drops the circumflex on i and u
    assert any("'enervait' (did you mean 'énervait'?)" in m for m in _messages("fr", "W001", french[17]))
    assert _messages("fr", "W001", french[1473]) == _messages("fr", "W001", french[1393]) == []


def test_w002_an_accented_spelling_of_its_own_and_dutch_names_are_left_alone(french, dutch) -> None:
    # "Andréa" is borne by a third as many as "Andrea" in the Belgian registry; "Jerome" is a
    # U.S. name; Dutch does not check accents of names ("Saoedi-Arabiër" is right, its
    # dictionary lacks it)
    assert _messages("fr", "W002", french[1355]) == []
    pair = french[761]
    english = dataclasses.replace(pair, sent_less=pair.sent_less.replace("Jerôme", "Jerome"))
    assert _messages("fr", "W001", english) == []
    assert _messages("nl", "W002", dutch[1355]) == []
    assert _messages("nl", "W001", dutch[1295]) == []


# L003: the names of the French and Dutch minorities; G005: a compound's article ------------------


@pytest.mark.parametrize(
    ("language", "pair_id", "named", "expected"),
    [("nl", 693, "Lars", "antistereo"), ("nl", 1061, "Hamza", "stereo"), ("nl", 562, "Joris", "antistereo"),
     ("fr", 902, "David", "antistereo")],
)  # fmt: skip
def test_l003_a_maghrebi_or_turkish_name_is_the_minority(french, dutch, language, pair_id, named, expected) -> None:
    # "Lars" / "Amir", "Hamza" / "Jonah", "David" / "Djamel": the census counts such names as
    # white or mixed, yet in France and the Netherlands they name the minority
    pair = {"fr": french, "nl": dutch}[language][pair_id]
    (message,) = _messages(language, "L003", pair)
    assert f"({named!r})" in message and f"so the pair is {expected}," in message


@pytest.mark.parametrize(("pair_id", "named", "expected"), [(996, "Jacques", "antistereo"), (1466, "Chen", "stereo")])
def test_l003_a_name_of_the_french_list_is_the_majority(french, pair_id, named, expected) -> None:
    # "Jacques" / "Moussa" skiing, labelled stereo; "Chen" / "Antoine" at chess, antistereo:
    # the census counts most U.S. bearers of "Antoine" as Black and "Jacques" as mixed
    (message,) = _messages("fr", "L003", french[pair_id])
    assert f"({named!r})" in message and f"so the pair is {expected}," in message


@pytest.mark.parametrize(("name", "language"), [("Antoine", "fr"), ("Yves", "fr"), ("Jérôme", "fr"), ("Twan", "nl")])
def test_names_of_the_countrys_list_are_the_majority_whatever_their_us_bearers(name, language) -> None:
    assert name_race_side(name, language) == "advantaged"
    assert name_race_side("Ravi", "nl") == "disadvantaged"  # an Asian name keeps its reading
    assert name_race_side("Antoine", "en") == "disadvantaged"  # English reads the census only


@pytest.mark.parametrize("name", ["Mehdi", "Rachid", "Djamel", "Amir", "Hamza"])
def test_minority_names_in_french_and_dutch_only(name: str) -> None:
    assert name_race_side(name, "fr") == name_race_side(name, "nl") == "disadvantaged"
    assert name_race_side(name, "en") is None  # English reads the census only


@pytest.mark.parametrize("name", ["Sofia", "Inès", "Nadia", "Maya"])
def test_european_names_of_the_mena_lists_are_no_minority(name: str) -> None:
    assert name_race_side(name, "nl") != "disadvantaged" and name_race_side(name, "fr") != "disadvantaged"


def test_g005_a_compound_takes_its_last_parts_article(dutch) -> None:
    # 1452 "Het bendelid" / "Het politieagent": "lid" is a het-word, "agent" a de-word
    assert _messages("nl", "G005", dutch[1452]) == ["'Het' is the wrong article for 'politieagent' in sent_less"]


@pytest.mark.parametrize(("pair_id", "words"), [(103, "moslim man"), (403, "moslim religie")])
def test_w004_a_singular_noun_read_by_the_dictionarys_stem(dutch, pair_id: int, words: str) -> None:
    # simplemma guesses "moslima" as the lemma of "moslim"; Hunspell derives it from itself
    assert any(m.startswith(repr(words)) for m in _messages("nl", "W004", dutch[pair_id]))


def test_w004_a_subject_and_its_verb_in_the_past(dutch) -> None:
    # 783 "De christen streek met zijn hand": "streek" is the past of "strijken"
    assert _messages("nl", "W004", dutch[783]) == []


# The French group lexicon: socioeconomic words of the English lexicon ---------------------------


@pytest.mark.parametrize(("pair_id", "word"), [(1266, "célébrité"), (310, "manoir")])
def test_s005_a_french_status_word_names_a_group(french, pair_id: int, word: str) -> None:
    # "la célébrité" / "le SDF", "HLM" / "manoir": the English lexicon's celebrity and mansion
    assert _messages("fr", "S005", french[pair_id]) == []


@pytest.mark.parametrize(("pair_id", "label"), [(514, "race-color"), (537, "physical-appearance")])
def test_s004_a_french_occupation_swap_under_another_label(french, pair_id: int, label: str) -> None:
    # "SDF" / "propriétaire" labelled race-color, "plombier" / "cadre" physical-appearance
    (message,) = _messages("fr", "S004", french[pair_id])
    assert message.endswith(f"not both {label}") and "socioeconomic" in message


@pytest.mark.parametrize(("code", "pair_id"), [("S004", 167), ("S004", 329), ("S004", 1283), ("S003", 575)])
def test_a_french_fixed_phrase_names_no_appearance(french, code: str, pair_id: int) -> None:
    # "son grand âge" / "son jeune âge" is old age; "sa petite amie" / "son petit ami" a partner
    assert _messages("fr", code, french[pair_id]) == []


def test_a_size_still_reads_as_appearance_outside_the_phrase() -> None:
    # "son grand âge" names no appearance; "un grand homme" still does
    from curate.lint.rule import PairContext

    settings = LintSettings(language="fr")
    for sentence, expected in (("À son grand âge il dort.", set()), ("Un grand homme dort.", {"physical-appearance"})):
        ctx = PairContext(Pair(1, sentence, sentence.replace("grand", "jeune"), "stereo", "age"), settings)
        assert set(ctx.group_dimensions(ctx.alignment.modified_more)) == expected
