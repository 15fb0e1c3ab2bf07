"""English grammar knowledge the G and W rules share: articles, gendered words, noun number,
verb agreement and commonly confused words.

These are small closed lists and patterns of English, not of any dataset: which article a word
takes, which pronouns and person nouns are male or female, which forms of "be"/"have"/"do" are
singular or plural, and real-word errors that a dictionary cannot see ("to lazy to", "by it's
leg", "their's", "could of").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Words starting with a vowel letter that are read with a consonant sound ("a European").
_CONSONANT_SOUND = re.compile(r"^(?:eu|ewe|one|once|uni|use|usu|ura|uro|uti|ubi|uga)", re.I)
#: Words starting with a consonant letter that are read with a vowel sound ("an hour").
_VOWEL_SOUND = re.compile(r"^(?:hour|honest|honor|honour|heir|herb)", re.I)


def article_for(word: str) -> str | None:
    """"a" or "an" for ``word``; None when unsure (acronyms, digits, symbols)."""
    if not word[:1].isalpha() or (len(word) > 1 and word.isupper()):
        return None
    if _VOWEL_SOUND.match(word):
        return "an"
    if _CONSONANT_SOUND.match(word):
        return "a"
    if word[0].lower() == "u" and not re.match(r"^u(?:n|p|g|m|l|s|t)", word, re.I):
        return None  # "u" + vowel ("uo...") is rare and unclear
    return "an" if word[0].lower() in "aeiou" else "a"


#: Pronouns by gender (the words that must change when a person's gender changes).
MALE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
#: Person nouns by gender (kinship, titles, gendered nouns).
MALE_NOUNS = frozenset(
    [
        "man", "men", "boy", "boys", "guy", "gentleman", "gentlemen", "husband",
        "boyfriend", "brother", "son", "father", "dad", "daddy", "uncle", "nephew",
        "grandfather", "grandpa", "grandson", "king", "prince", "sir", "mr", "mr.",
        "mister", "groom", "widower", "bachelor", "businessman", "fiance", "stepfather"
    ]
)
FEMALE_NOUNS = frozenset(
    [
        "woman", "women", "girl", "girls", "lady", "ladies", "gal", "wife", "girlfriend",
        "sister", "daughter", "mother", "mom", "mommy", "mum", "aunt", "niece",
        "grandmother", "grandma", "granddaughter", "queen", "princess", "madam", "mrs",
        "mrs.", "ms", "ms.", "miss", "bride", "widow", "spinster", "businesswoman",
        "fiancee", "stepmother"
    ]
)


def word_gender(lower: str) -> str | None:
    """"male" / "female" for a gendered pronoun or person noun (lower-case), else None."""
    if lower in MALE_PRONOUNS or lower in MALE_NOUNS:
        return "male"
    if lower in FEMALE_PRONOUNS or lower in FEMALE_NOUNS:
        return "female"
    return None


#: Person nouns whose number is not marked by a final "s".
SINGULAR_PERSON_NOUNS = frozenset(
    [
        "man", "woman", "child", "kid", "person", "guy", "lady", "gentleman", "boy", "girl",
        "businessman", "businesswoman", "fireman", "policeman", "chairman", "salesman"
    ]
)
PLURAL_PERSON_NOUNS = frozenset(
    [
        "men", "women", "children", "people", "gentlemen", "ladies", "businessmen",
        "businesswomen", "firemen", "policemen", "folks", "kids", "boys", "girls", "guys"
    ]
)
#: Verbs that show number right after their subject.
SINGULAR_VERBS = frozenset({"is", "was", "has", "does", "doesn't", "isn't", "wasn't", "hasn't"})
PLURAL_VERBS = frozenset({"are", "were", "have", "do", "don't", "aren't", "weren't", "haven't"})


@dataclass(frozen=True, slots=True)
class Confusion:
    """A real-word error: a pattern, what it should be, and a label for messages."""

    pattern: re.Pattern[str]
    correction: str
    #: Lower-case words one of which the sentence must contain for the pattern to be tried
    #: (most sentences contain none, and a set test is much cheaper than the pattern).
    triggers: frozenset[str]



#: Adjectives after "to" in "BE to ADJ to ..." (a misspelled "too"); adjective suffixes cover
#: most of them, this list the short common ones.
_ADJECTIVE_WORDS = (
    "fat|old|big|tall|short|weak|dumb|smart|young|poor|rich|slow|fast|late|early|much|many|"
    "little|hard|sick|tired|busy|lazy|scared|afraid|proud|good|bad|small|thin|dark|loud|quiet|"
    "cheap|stupid|strong|ugly|pretty|shy|stubborn|cheap|drunk|high|low|far|close|hot|cold|"
    "sensitive|emotional|violent|greedy|ignorant|arrogant|dangerous|careful|sure|young"
)
_ADJECTIVE = rf"(?:{_ADJECTIVE_WORDS}|\w+(?:ous|ful|ive|able|ible|ic|ish|less|ied|ated|ent|ant))"
_ADVERB = r"(?:\w+ly|often|always|never|sometimes|just|so|still|even|way|far|much|all)"
_BE = r"(?:is|are|was|were|be|been|being|am|seem|seems|seemed|get|gets|got|feel|feels|felt)"

CONFUSIONS: tuple[Confusion, ...] = (
    Confusion(
        re.compile(rf"\b{_BE}\s+(?:{_ADVERB}\s+)?(to)\s+{_ADJECTIVE}\s+to\b", re.I), "'too'", frozenset({"to"})
    ),
    Confusion(
        re.compile(
            r"\b(?:by|of|on|in|with|for|from|at|about|into|onto|under|over|to)\s+(it's|it’s)\s+(?!been\b|a\b|the\b|not\b|just\b|all\b)\w",
            re.I,
        ),
        "'its'", frozenset({"it"}),
    ),
    Confusion(re.compile(r"\b(it's|it’s)\s+own\b", re.I), "'its'", frozenset({"it"})),
    Confusion(re.compile(r"\b(their's|their’s|your's|her's|our's)", re.I), "no apostrophe", frozenset({"their", "your", "her", "our"})),
    Confusion(re.compile(r"\b(?:could|should|would|must|might)\s+(of)\b", re.I), "'have'", frozenset({"of"})),
    Confusion(
        re.compile(
            r"(?<![Aa] )(?<!\bwhole )(?<!\bthe )(?<!\bthis )(?<!\bthat )\b(lot of)\b"
        ),
        "'a lot of'", frozenset({"lot"}),
    ),
    Confusion(re.compile(r"\b(?:[Hh]e|[Ss]he|I|[Tt]hey|[Ww]e|[Yy]ou)\s+(though)\b(?!\s*,)"), "'thought'", frozenset({"though"})),
    Confusion(
        re.compile(
            r"\b(be\s+(?:get|go|make|take|give|come|see|know|have|do|say|find|tell|become|eat|"
            r"write|drive|steal|speak|break|choose|fall|bite|hide|wear|tear|forget|throw|grow|draw|"
            r"fly|drink|begin|ride|rise|sing|swim))\b",
            re.I,
        ),
        "one verb", frozenset({"be"}),
    ),
    Confusion(re.compile(r"\b((he|she|they|we)\s+(?!\2\b)(?:he|she|they|we))\b", re.I), "one pronoun", frozenset({"he", "she", "they", "we"})),
    Confusion(
        re.compile(
            r"\b(?:is|was)\s+(?!(?:a|an|the|his|her|my|your|our|their|its|this|that|one|no|every|each|another|any|some|such|quite|what)\b)"
            r"([A-Za-z]+\s+(?:person|man|woman|boy|girl|guy|lady|kid|child|cook|driver|student|worker|teacher|doctor|nurse|lawyer|mother|father|wife|husband|friend|neighbor|neighbour))\b"
        ),
        "an article before it",
        frozenset({"is", "was"}),
    ),
    Confusion(
        re.compile(
            r"\b(?:with|in|at|on|for|from|to|by|into)\s+((?:middle|end|bottom|rest|bunch|couple|number|group|pair|piece)\s+of)\b"
        ),
        "'the' or 'a' before the noun",
        frozenset({"of"}),
    ),
    Confusion(re.compile(r"\b(mans|womans|mens|womens|childrens|peoples')\b"), "an apostrophe", frozenset({"mans", "womans", "mens", "womens", "childrens", "peoples"})),
    Confusion(re.compile(r"(?<![\w'’-])(re)\s+[a-z]+ing\b"), "'re-' joined to its verb", frozenset({"re"})),
    Confusion(
        re.compile(
            r"\b(?:can|could|would|should|will|must|might|may|cannot)(?:n't|n’t| not)?\s+"
            r"(?!(?:sing|bring|ring|sting|swing|spring|string|cling|fling|sling|wring|wing|thing|king)\b)"
            r"([a-z]+ing)\b",
        ),
        "the base form of the verb",
        frozenset({"can", "could", "would", "should", "will", "must", "might", "may", "ca", "wo", "cannot", "couldn't", "wouldn't", "shouldn't", "can't", "won't"}),
    ),
)


#: Words that English may double ("he had had enough", "I said that that was fine").
MAY_DOUBLE = frozenset({"had", "that", "is", "very", "bye", "ha", "no", "so", "far", "really"})


_WORDS = re.compile(r"[\w']+")


def confusions(
    sentence: str, words: frozenset[str] | None = None
) -> list[tuple[int, int, str, str]]:
    """Real-word errors in ``sentence``: (start, end, text, correction) of each.

    ``words`` are the sentence's lower-case words (spaCy tokens or a plain word split); a
    pattern is tried only when one of its trigger words occurs.
    """
    if words is None:
        words = frozenset(
            part for w in _WORDS.findall(sentence.lower()) for part in (w, *w.split("'"))
        )
    found = []
    for confusion in CONFUSIONS:
        if confusion.triggers.isdisjoint(words):
            continue
        for match in confusion.pattern.finditer(sentence):
            found.append((match.start(1), match.end(1), match.group(1), confusion.correction))
    return sorted(found)
