"""Whose partner a sentence names: "his wife", "haar man", "Jans vrouw".

A sexual-orientation pair often swaps only the partner ("Jim's wife" / "Jim's husband"): no
orientation word changes, yet the partner's gender against the possessor's says which
sentence is about a straight couple. A possessor's gender is read from a possessive pronoun
that marks it (English "his"/"her", Dutch "zijn"/"haar"; French "son"/"sa" agree with the
thing possessed and say nothing) or from a first name in the possessive ("Jim's", "Jans").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from curate.align import Token
from curate.lint.names import name_gender

Gender = Literal["male", "female"]

#: Possessive pronouns that mark the possessor's gender.
POSSESSIVES: dict[str, dict[str, Gender]] = {
    "en": {"his": "male", "her": "female"},
    "nl": {"zijn": "male", "z'n": "male", "haar": "female"},
}

#: The possessive clitic after a name ("Jim's", "Jim' s" as tokenised).
_CLITICS = frozenset(["'s", "’s", "'"])

#: Words for a partner, by the partner's gender.
PARTNERS: dict[str, dict[str, Gender]] = {
    "en": {
        "wife": "female", "husband": "male", "girlfriend": "female", "boyfriend": "male",
        "fiancee": "female", "fiance": "male",
    },
    "nl": {
        "vrouw": "female", "man": "male", "echtgenote": "female", "echtgenoot": "male",
        "vriendin": "female", "vriend": "male", "vriendinnetje": "female", "vriendje": "male",
    },
}  # fmt: skip


def _possessor(tokens: Sequence[Token], index: int, language: str) -> Gender | None:
    """The gender of the possessor right before ``tokens[index]``: a possessive pronoun, a
    first name with a possessive ``s`` ("Jans"), or a name followed by ``'s``."""
    if index == 0:
        return None
    before = tokens[index - 1]
    pronoun = POSSESSIVES.get(language, {}).get(before.lower)
    if pronoun:
        return pronoun
    if before.lower in _CLITICS and index >= 2:
        return name_gender(tokens[index - 2].text, language)
    if language == "nl" and before.text.endswith("s") and len(before.text) > 2:
        return name_gender(before.text[:-1], language)
    return None


def couples(
    sentence: Sequence[Token], changed: Sequence[Token], language: str
) -> list[tuple[Token, str, bool]]:
    """``(partner token, "possessor partner" as written, straight)`` for each changed partner
    word of ``sentence`` whose possessor's gender is known and that no name follows (in "haar
    vriend Pieter" the "vriend" is a friend): straight when the partner's gender differs from
    the possessor's."""
    changed_ids = {id(t) for t in changed}
    found = []
    for i, token in enumerate(sentence):
        partner = PARTNERS.get(language, {}).get(token.lower)
        if partner is None or id(token) not in changed_ids:
            continue
        following = sentence[i + 1] if i + 1 < len(sentence) else None
        if following is not None and following.is_word and following.text[:1].isupper():
            continue
        possessor = _possessor(sentence, i, language)
        if possessor is not None:
            start = i - 2 if sentence[i - 1].lower in _CLITICS else i - 1
            shown = "".join(t.text + t.whitespace for t in sentence[start:i]) + token.text
            found.append((token, shown, partner != possessor))
    return found
