"""First names by gender, for rules that check that a name and its pronouns agree.

The lists are Faker's US first names (``faker.providers.person.en_US``, from US census and Social
Security name statistics; MIT licence): common names only, so an unknown or unusual name gives
no answer rather than a guess. A name on both lists ("Shannon") is ambiguous and gives none.
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


def name_gender(word: str) -> Gender | None:
    """"male" or "female" for a capitalised common first name, else None."""
    if not word[:1].isupper() or not word.isalpha():
        return None
    male, female = _names()
    lower = word.lower()
    if lower in male:
        return "male"
    if lower in female:
        return "female"
    return None
