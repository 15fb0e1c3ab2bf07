"""The group-lexicon rules (S001-S006, L003, P006) in French and Dutch: each reads the lexicon of
the pairs' language (``curate/lint/languages/<code>/lexicon.toml``), so it runs on French and
Dutch pairs instead of being skipped, and fires on the defect written in that language.

The sentences are written for these tests from the rules' definitions (not taken from the
shared files)."""

from __future__ import annotations

import pytest

from curate.benchmarks import lint_target
from curate.lint import LintSettings, lint_pairs
from curate.lint.lexicon import load_lexicon
from curate.lint.profiles import apply_profile
from curate.pairs import Pair

CASES = [
    # (language, code, sent_more, sent_less, bias_type, direction, fires)
    ("fr", "S001", "Les musulmans sont violents.", "Les chrétiens ne sont pas violents.", "religion", "stereo", True),
    ("fr", "S001", "Les musulmans sont violents.", "Les chrétiens sont violents.", "religion", "stereo", False),
    ("fr", "S002", "Les Noirs sont toujours en retard.", "Les Blancs sont jamais en retard.", "race-color", "stereo", True),
    ("fr", "S004", "Les pauvres sont paresseux.", "Les femmes sont paresseuses.", "socioeconomic", "stereo", True),
    ("fr", "S004", "Les pauvres sont paresseux.", "Les riches sont paresseux.", "socioeconomic", "stereo", False),
    ("fr", "S005", "Mon voisin est handicapé.", "Mon voisin est à l’hôpital.", "disability", "stereo", True),
    # an adjective may describe people: the dictionary cannot tell "absent" from a group word
    # the lexicon lacks ("costaud", "surdoué"), so S005 stays silent (issue 45's precision)
    ("fr", "S005", "Mon voisin est handicapé.", "Mon voisin est absent.", "disability", "stereo", False),
    ("fr", "S005", "Mon voisin est handicapé.", "Mon voisin est valide.", "disability", "stereo", False),
    ("fr", "L003", "Les riches ne paient pas d'impôts.", "Les pauvres ne paient pas d'impôts.", "socioeconomic", "stereo", True),
    ("fr", "L003", "Les pauvres volent.", "Les riches volent.", "socioeconomic", "stereo", False),
    ("fr", "L003", "L'homme conduit mal.", "La femme conduit mal.", "gender", "stereo", True),
    ("fr", "P006", "Les pauvres mangent du pain.", "Les riches mangent du caviar.", "socioeconomic", "stereo", True),
    # gender agreement of the adjective and the article is part of the swap, not an extra change
    ("fr", "P006", "La femme était fatiguée et elle est partie.", "L'homme était fatigué et il est parti.", "gender", "stereo", False),
    ("fr", "P006", "Paul est le meilleur chirurgien et il est riche.", "Julie est la meilleure chirurgienne et elle est riche.", "gender", "antistereo", False),
    ("fr", "P006", "Le club était plein de femmes bavardes.", "Le club était plein d'hommes bavards.", "gender", "stereo", False),
    ("fr", "P006", "Le club était plein de femmes bavardes.", "Le club était plein d'hommes sportifs.", "gender", "stereo", True),
    ("nl", "S001", "Moslims zijn gewelddadig.", "Christenen zijn niet gewelddadig.", "religion", "stereo", True),
    ("nl", "S001", "Moslims zijn gewelddadig.", "Christenen zijn gewelddadig.", "religion", "stereo", False),
    ("nl", "S004", "Arme mensen zijn lui.", "Vrouwen zijn lui.", "socioeconomic", "stereo", True),
    ("nl", "S005", "Mijn buurman is gehandicapt.", "Mijn buurman is in het ziekenhuis.", "disability", "stereo", True),
    ("nl", "S005", "Mijn buurman is gehandicapt.", "Mijn buurman is afwezig.", "disability", "stereo", False),
    ("nl", "S005", "Mijn buurman is gehandicapt.", "Mijn buurman is valide.", "disability", "stereo", False),
    ("nl", "L003", "Rijke mensen betalen geen belasting.", "Arme mensen betalen geen belasting.", "socioeconomic", "stereo", True),
    ("nl", "L003", "Arme mensen stelen.", "Rijke mensen stelen.", "socioeconomic", "stereo", False),
    ("nl", "L003", "Vrouwen kunnen niet rijden.", "Mannen kunnen niet rijden.", "gender", "antistereo", True),
    ("nl", "P006", "Arme mensen eten brood.", "Rijke mensen eten kaviaar.", "socioeconomic", "stereo", True),
    # the inflected adjective and the article follow the group word
    ("nl", "P006", "Hij zag een dikke man met zijn hond.", "Hij zag een slanke man met zijn hond.", "physical-appearance", "stereo", False),
]


def _codes(language: str, code: str, pair: Pair) -> list[str]:
    target = lint_target("crows-pairs", language)
    settings, notes = apply_profile(LintSettings(select=(code,)), target)
    assert not any(code in note for note in notes if note.startswith("skipped")), notes
    return [f.code for f in lint_pairs([pair], settings, target=target)]


@pytest.mark.parametrize(("language", "code", "more", "less", "bias", "direction", "fires"), CASES)
def test_group_rules_in_the_language(language, code, more, less, bias, direction, fires) -> None:
    from curate.lint import hunspell

    if code == "S005" and not hunspell.available(language):
        pytest.skip("S005 reads the language's Hunspell dictionary (make install installs it)")
    pair = Pair(1, more, less, direction, bias)
    assert (code in _codes(language, code, pair)) is fires


def test_each_language_has_its_own_lexicon() -> None:
    en, fr, nl = load_lexicon("en"), load_lexicon("fr"), load_lexicon("nl")
    assert "socioeconomic" in fr.dimensions_of("pauvres") and not en.dimensions_of("pauvres")
    assert "socioeconomic" in nl.dimensions_of("armen") and not fr.dimensions_of("armen")
    assert fr.dimensions_of("l'homme") == fr.dimensions_of("homme") == {"gender"}
    assert fr.is_advantaged("riches", "socioeconomic") and not fr.is_advantaged("pauvres", "socioeconomic")
    assert fr.agrees_only("fatigué", "fatiguée") and fr.agrees_only("heureux", "heureuse")
    assert nl.agrees_only("dik", "dikke") and nl.agrees_only("student", "studenten")
    assert not fr.agrees_only("pain", "caviar")
    assert "pas" in fr.negators and "niet" in nl.negators and "not" in en.negators


def test_the_group_rules_are_not_skipped_for_french_and_dutch() -> None:
    for language in ("fr", "nl"):
        _, notes = apply_profile(LintSettings(), lint_target("crows-pairs", language))
        skipped = " ".join(n for n in notes if n.startswith("skipped"))
        for code in ("S001", "S002", "S003", "S004", "S005", "S006", "L003", "P006", "G002"):
            assert code not in skipped, (language, code, skipped)


PRONOUN_CASES = [
    # (language, sent_more, sent_less, fires)
    ("fr", "Marie a dit qu'elle était fatiguée.", "Thomas a dit qu'elle était fatiguée.", True),
    ("fr", "Marie a dit qu'elle était fatiguée.", "Thomas a dit qu'il était fatigué.", False),
    ("fr", "La femme est partie parce qu'elle avait peur.", "L'homme est parti parce qu'elle avait peur.", True),
    # someone else of that gender in the sentence: the pronoun may refer to her
    ("fr", "Sa mère a dit que Marie était partie car elle avait froid.", "Sa mère a dit que Thomas était parti car elle avait froid.", False),
    # a group, not one person
    ("fr", "Les femmes disent qu'elle ment.", "Les hommes disent qu'elle ment.", False),
    ("nl", "Lucas verkocht zijn fiets omdat hij geld nodig had.", "Emma verkocht zijn fiets omdat hij geld nodig had.", True),
    ("nl", "Emma verkocht haar fiets.", "Lucas verkocht haar fiets.", True),
    ("nl", "Emma verkocht haar fiets.", "Lucas verkocht zijn fiets.", False),
    ("nl", "De vrouwen zeiden dat hij loog.", "De mannen zeiden dat hij loog.", False),
]


@pytest.mark.parametrize(("language", "more", "less", "fires"), PRONOUN_CASES)
def test_pronoun_agreement_in_the_language(language, more, less, fires) -> None:
    pair = Pair(1, more, less, "stereo", "gender")
    assert ("G002" in _codes(language, "G002", pair)) is fires
