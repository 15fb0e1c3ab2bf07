"""Offline spell checking for the W rules (pyspellchecker's bundled word list of the pair's
language: English, French or Dutch; :mod:`curate.lint.languages`).

Names and proper nouns are not misspellings: capitalised words, group-lexicon words, numbers and
the pieces spaCy splits off contractions ("ca" + "n't") are never checked; but spaCy splits
"didnt" into "did" + "nt", and that "nt" is reported as a contraction without its apostrophe. Suggestions use
rapidfuzz over the same word list (pyspellchecker's own ``correction`` takes ~1 s per long word):
the most frequent word at the smallest optimal-string-alignment distance (at most 2; a transposition counts 1).
"""

from __future__ import annotations

import functools
import re

from rapidfuzz import process
from rapidfuzz.distance import OSA
from spellchecker import SpellChecker

from curate.align import Token
from curate.lint import hunspell
from curate.lint.languages import MIN_PART, Language
from curate.lint.languages import language as language_of
from curate.lint.lexicon import Lexicon
from curate.lint.names import english_first_names, is_rare_spelling

_ALPHA = re.compile(r"^[a-z]+(?:[-'][a-z]+)*$")
_CONTRACTION_PIECES = frozenset({"ca", "wo", "sha", "ai", "gon", "na", "wan", "ta", "lem", "me"})


@functools.cache
def _checker(language: str = "en") -> SpellChecker:
    return SpellChecker(language=language, distance=2)


@functools.lru_cache(maxsize=65536)
def _known(word: str) -> bool:
    checker = _checker()
    if word in checker:
        return True
    # hyphenated or apostrophised compounds are fine when every part is a word
    parts = [p for p in re.split(r"[-']", word) if p]
    return len(parts) > 1 and all(
        p in checker or p in {"s", "t", "d", "ll", "re", "ve", "m"} for p in parts
    )


@functools.lru_cache(maxsize=8192)
def suggestion(word: str, language: str = "en") -> str | None:
    """The most likely correction of ``word`` in ``language``'s dictionary, or None."""
    if language == "en" and word == "nt":
        return "n't"
    if language == "en" and word in _BARE_CONTRACTIONS:
        return _BARE_CONTRACTIONS[word]
    code = language_of(language).dictionary
    checker = _checker(code)
    near = checker.known(checker.edit_distance_1(word))
    if near:  # most typos are one edit away; this is ~50x cheaper than scanning the vocabulary
        return min(near, key=lambda w: (-checker.word_frequency[w], w))
    matches = process.extract(
        word, _frequent_words(code), scorer=OSA.distance, score_cutoff=2, limit=50
    )
    if not matches:
        return None
    frequency = checker.word_frequency
    best = min(matches, key=lambda m: (m[1], -frequency[m[0]], m[0]))
    return best[0]


@functools.cache
def _frequent_words(code: str = "en") -> list[str]:
    """Corrections two edits away are only looked for among frequent words.

    One edit away every dictionary word counts, so that a valid rare word ("hoodie") finds its
    rare neighbour ("goodie") and stays unreported; two edits away only a frequent neighbour
    could make the word reportable, and scanning 19,000 words instead of 160,000 is what keeps
    the first lint of a dataset fast.
    """
    frequency = _checker(code).word_frequency
    return sorted(w for w, n in frequency.items() if n >= MIN_SUGGESTION_FREQUENCY)


#: Contractions written without their apostrophe, and their spelling.
_BARE_CONTRACTIONS = {
    **{
        f"{verb}nt": f"{verb}n't"
        for verb in (
            "do",
            "did",
            "does",
            "is",
            "are",
            "was",
            "were",
            "could",
            "should",
            "would",
            "has",
            "have",
            "had",
        )
    },
    "cant": "can't",
    "wont": "won't",
    "im": "I'm",
    "ive": "I've",
    "youre": "you're",
    "theyre": "they're",
}

#: Words shorter than this are not checked: short unknown words are mostly abbreviations and
#: slang ("tv", "std", "cis") whose nearest dictionary word is a wrong guess.
MIN_LENGTH = 5
#: A word is reported only when a close dictionary word is at least this frequent in
#: pyspellchecker's corpus: real typos ("suprised", "becasue") sit next to common words, valid
#: rare words ("zumba", "uncaged") next to rare ones. Measured on CrowS-Pairs.
MIN_SUGGESTION_FREQUENCY = 1000


def misspelled(token: Token, lexicon: Lexicon, language: str = "en") -> bool:
    """True for a likely typo: a lower-case word missing from the dictionary and the lexicon,
    with a frequent dictionary word nearby; a contraction without its apostrophe; or a
    capitalised misspelling of a group word (:func:`misspelled_group_word`).

    In another language than English (``language``) only the first holds, with that
    language's dictionary: the English lexicon and contractions are not its words, and an
    elided clitic in front ("l'", "qu'") or a suffix after an apostrophe ("auto's") is
    checked apart from the word.
    """
    if language != "en":
        return _misspelled_in(token.text, language)
    return _misspelled(token.text, lexicon)


def checked_word(text: str, language: str) -> str:
    """The word of ``text`` a dictionary of ``language`` is asked about: lower-case, without
    an elided clitic in front ("l'école" -> "école") or an apostrophe suffix ("auto's")."""
    lang = language_of(language)
    word = text.lower().replace("’", "'")
    head, apostrophe, tail = word.partition("'")
    if apostrophe and head in lang.elisions:
        return tail
    if apostrophe and tail in lang.suffixes:
        return head
    return word


def _in_dictionary(word: str, lang: Language, checker: SpellChecker) -> bool:
    """Whether ``word`` is a word of ``lang``: in its list, an inflected form of a listed word,
    a hyphenated compound of listed words, or (Dutch) two listed words written as one."""
    if word in checker:
        return True
    if "-" in word:
        return all(_in_dictionary(part, lang, checker) for part in word.split("-") if part)
    for ending in lang.inflections:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= MIN_PART - 1 and stem in checker:
            return True
    for ending, infinitive in lang.verb_forms:
        if word.endswith(ending) and word[: -len(ending)] + infinitive in checker:
            return True
    if lang.compounds:
        for i in range(MIN_PART, len(word) - MIN_PART + 1):
            head, tail = word[:i], word[i:]
            if head in checker and (tail in checker or _in_dictionary(tail, lang, checker)):
                return True
            if head.endswith("s") and head[:-1] in checker and tail in checker:
                return True  # the Dutch linking s (arbeidsmarkt)
    return False


_LETTERS = re.compile(r"^[^\W\d_]+(?:-[^\W\d_]+)*$")


@functools.lru_cache(maxsize=65536)
def dutch_plural_fix(word: str) -> str | None:
    """The Dutch plural that a plural wrongly written with ``-s`` stands for ("euros" ->
    "euro's", "siëstas" -> "siësta's", "christens" -> "christenen"), or None.

    Such a word passes a word list: the Dutch word plus a plural ending, or an English word
    ("euros", "christens"). It is wrong when the Dutch dictionary (Hunspell) knows the word
    without its ``-s`` but not with it, and knows the plural of Dutch spelling: ``'s`` after a
    vowel, ``-en`` after most consonants."""
    if len(word) < MIN_LENGTH or not word.endswith("s") or hunspell.knows(word, "nl") is not False:
        return None
    stem = word[:-1]
    if not hunspell.knows(stem, "nl"):
        return None
    for plural in (stem + "'s", stem + "en", stem + stem[-1] + "en"):
        if hunspell.knows(plural, "nl"):
            return plural
    return None


@functools.lru_cache(maxsize=65536)
def misaccented_name(text: str, language: str) -> str | None:
    """The dictionary's name that a capitalised word writes with wrong or missing accents
    ("Jerôme", "Stephane" -> "Jérôme", "Stéphane"), or None.

    Names are otherwise never checked: most are not in any dictionary. A word unknown to
    Hunspell that equals a name of the dictionary but for its accents is that name misspelled,
    unless the language's registries of first names show it borne by many
    (``names.is_rare_spelling``: "Andréa" is a name of its own), or it is written without
    accents as a U.S. first name ("Jerome", "Andre"): an English spelling may be kept on
    purpose. Only in a language whose names carry accents (``Language.checks_accents``).
    """
    if not language_of(language).checks_accents:
        return None
    if not text[:1].isupper() or text.isupper() or not text.isalpha():
        return None
    if text.isascii() and text.lower() in english_first_names():
        return None
    if hunspell.knows(text, language) is not False:
        return None
    folded = hunspell.fold_accents(text).lower()
    standard = hunspell.proper_nouns_by_folding(language).get(folded, ())
    if not standard or text in standard:
        return None
    return standard[0] if is_rare_spelling(text, standard[0], language) else None


#: Accents the 1990 French spelling reform lets a writer drop (the circumflex on i and u:
#: "diner", "paraitre"): a word without them is no slip.
_OPTIONAL_ACCENTS = frozenset("îû")
#: At most this many letters may lack their accent (two: "eleve" -> "élève").
_MAX_ACCENTS = 2


@functools.cache
def _accented_words(code: str) -> dict[str, str]:
    """The word list's words that carry an accent, by their spelling without it (the most
    frequent one of each spelling)."""
    frequency = _checker(code).word_frequency
    words: dict[str, str] = {}
    for word in sorted(frequency.keys(), key=lambda w: (-frequency[w], w)):
        if not word.isascii():
            words.setdefault(hunspell.fold_accents(word), word)
    return words


@functools.lru_cache(maxsize=65536)
def missing_accents(word: str, language: str) -> str | None:
    """The word that ``word`` writes without one or two of its accents ("eleve" -> "élève",
    "enervait" -> "énervait"), or None: a word of the language's list with those accents that
    Hunspell knows, where it rejects ``word`` (the frequency list keeps such slips as words).
    Only in a language whose words carry accents (``Language.checks_accents``)."""
    lang = language_of(language)
    if not lang.checks_accents or not word.isascii():
        return None
    accented = _accented_words(lang.dictionary).get(word)
    if accented is None or len(accented) != len(word):
        return None
    changed = [a for a, b in zip(accented, word, strict=True) if a != b]
    if len(changed) > _MAX_ACCENTS or _OPTIONAL_ACCENTS & set(changed):
        return None
    if hunspell.knows(word, language) is not False or not hunspell.knows(accented, language):
        return None
    return accented


@functools.lru_cache(maxsize=262144)
def _misspelled_in(text: str, language: str) -> bool:
    if not text.islower():  # names and capitalised words are checked for accents only
        return misaccented_name(text, language) is not None
    lang = language_of(language)
    word = checked_word(text, language)
    if len(word) < MIN_LENGTH or not _LETTERS.match(word) or lang.is_group_word(word):
        return False
    if missing_accents(word, language):
        return True
    if language == "nl" and dutch_plural_fix(word):
        return True
    checker = _checker(lang.dictionary)
    word = word.replace("œ", "oe").replace("æ", "ae")  # the word lists spell ligatures out
    if _in_dictionary(word, lang, checker):
        return False
    if any(word in _checker(loan) for loan in lang.loans_from):
        return False  # a loanword ("coach", "feeling"), spelled as in its language
    fix = suggestion(word, language)
    if fix is None or checker.word_frequency[fix] < lang.min_suggestion:
        return False
    # Hunspell derives every inflection and lists the familiar register ("allocs", "radin"),
    # which the frequency list lacks: its word is not a typo (curate.lint.hunspell)
    return not hunspell.knows(checked_word(text, language), language)


@functools.lru_cache(maxsize=262144)
def _misspelled(text: str, lexicon: Lexicon) -> bool:
    if text.lower() == "nt":
        return True
    if not text.islower():
        return _misspelled_group_word(text, lexicon) is not None
    if len(text) < MIN_LENGTH or text in _CONTRACTION_PIECES:
        return False
    word = text.replace("’", "'")
    if not _ALPHA.match(word) or _known(word) or lexicon.is_group_word(word):
        return False
    fix = suggestion(word)
    return fix is not None and _checker().word_frequency[fix.lower()] >= MIN_SUGGESTION_FREQUENCY


def word_frequency(word: str) -> int:
    """How often ``word`` (lower-case) occurs in the dictionary's corpus (0 if unknown)."""
    return int(_checker().word_frequency[word])


@functools.cache
def _group_words(lexicon: Lexicon) -> list[str]:
    return sorted({w for words in lexicon.dimensions.values() for w in words if len(w) >= 5})


def misspelled_group_word(token: Token, lexicon: Lexicon) -> str | None:
    """The group word a capitalised or mixed-case unknown word misspells ("Mexians",
    "Hetrosexuals", "rAmericans"), or None.

    :func:`misspelled` never checks capitalised words, since most are names; a capitalised word
    one edit away from a group word of the lexicon (two for long words) is a typo of that word,
    not a name.
    """
    return _misspelled_group_word(token.text, lexicon)


@functools.lru_cache(maxsize=65536)
def _misspelled_group_word(text: str, lexicon: Lexicon) -> str | None:
    if text.islower() or len(text) < 6 or not text.isalpha() or text.isupper():
        return None
    lower = text.lower()
    if _known(lower) or lexicon.is_group_word(lower):
        return None
    limit = 2 if len(lower) >= 10 else 1
    match = process.extractOne(
        lower, _group_words(lexicon), scorer=OSA.distance, score_cutoff=limit
    )
    return match[0] if match else None
