"""The occupations WinoBias treats as female- or male-dominated, and the pronouns' genders.

WinoBias ships the two lists (``female_occupations.txt`` / ``male_occupations.txt``, from US
labour statistics) beside its sentences. They are read from the data's folder, never copied
into the code: the stereotype check then follows whatever lists the dataset version carries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from curate.fileio import read_text_utf8

if TYPE_CHECKING:
    from curate.benchmarks.winobias.reader import Line

FEMALE_FILE = "female_occupations.txt"
MALE_FILE = "male_occupations.txt"
#: The gender of each third-person pronoun ("her" is both object and possessive).
PRONOUN_GENDER: dict[str, str] = {
    "he": "male",
    "him": "male",
    "his": "male",
    "himself": "male",
    "she": "female",
    "her": "female",
    "hers": "female",
    "herself": "female",
}
_ARTICLES = ("the ", "a ", "an ")


def mention_head(text: str) -> str:
    """A mention without its article, lower-cased ("The developer" -> "developer")."""
    lowered = text.lower().strip()
    for article in _ARTICLES:
        if lowered.startswith(article):
            return lowered[len(article):].strip()
    return lowered


@dataclass(frozen=True)
class Occupations:
    """Occupation (lower-cased) -> ``female`` or ``male``."""

    gender: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.gender)

    @classmethod
    def beside(cls, folder: Path) -> Occupations:
        """The lists in ``folder`` (empty when either file is absent)."""
        female, male = folder / FEMALE_FILE, folder / MALE_FILE
        if not (female.is_file() and male.is_file()):
            return cls()
        return cls.from_lists(read_text_utf8(female).splitlines(), read_text_utf8(male).splitlines())

    @classmethod
    def from_lists(cls, female: list[str], male: list[str]) -> Occupations:
        table = {w.strip().lower(): "female" for w in female if w.strip()}
        table.update({w.strip().lower(): "male" for w in male if w.strip()})
        return cls(table)

    def referent(self, line: Line) -> tuple[str | None, str | None]:
        """The occupation the line's pronoun refers to (its first bracketed mention that names
        a listed occupation) and that occupation's stereotyped gender."""
        for start, end in line.mentions:
            head = mention_head(line.text[start:end])
            if head in self.gender:
                return head, self.gender[head]
        return None, None
