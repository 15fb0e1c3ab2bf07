"""The group lexicon and the word lists the rules share (negators, antonyms, function words).

Word lists are data, not logic: the group lexicon lives in ``lexicon.toml`` beside this module;
the short closed-class lists below are English grammar, documented where they are defined.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources

#: Tokens that negate a clause. spaCy splits "don't" into "do" + "n't" and "cannot" into
#: "can" + "not", so contractions appear as "n't".
NEGATORS = frozenset(
    {
        "not",
        "n't",
        "nt",
        "never",
        "no",
        "nobody",
        "nothing",
        "none",
        "neither",
        "nor",
        "nowhere",
        "cannot",
        "without",
        "dont",
        "didnt",
        "doesnt",
        "cant",
        "wont",
        "isnt",
        "arent",
        "wasnt",
        "werent",
        "couldnt",
        "shouldnt",
        "wouldnt",
        "hardly",
        "barely",
        "lack",
        "lacks",
        "lacked",
    }
)

#: Pairs of opposite-polarity words. A swap of one for the other across the modification
#: reverses the claim; when both words are also group words of the pair's dimension (rich/poor
#: in a socioeconomic pair) the swap is the group change itself and is not flagged.
ANTONYMS: tuple[tuple[str, str], ...] = (
    ("always", "never"),
    ("good", "bad"),
    ("better", "worse"),
    ("best", "worst"),
    ("can", "cannot"),
    ("right", "wrong"),
    ("easy", "hard"),
    ("easy", "difficult"),
    ("smart", "stupid"),
    ("smart", "dumb"),
    ("intelligent", "stupid"),
    ("clever", "stupid"),
    ("love", "hate"),
    ("loved", "hated"),
    ("loves", "hates"),
    ("like", "dislike"),
    ("liked", "disliked"),
    ("happy", "sad"),
    ("happy", "unhappy"),
    ("kind", "cruel"),
    ("nice", "mean"),
    ("polite", "rude"),
    ("honest", "dishonest"),
    ("safe", "dangerous"),
    ("clean", "dirty"),
    ("lazy", "hardworking"),
    ("lazy", "hard-working"),
    ("lazy", "diligent"),
    ("strong", "weak"),
    ("success", "failure"),
    ("succeeded", "failed"),
    ("win", "lose"),
    ("won", "lost"),
    ("accept", "reject"),
    ("accepted", "rejected"),
    ("allow", "forbid"),
    ("allowed", "forbidden"),
    ("agree", "disagree"),
    ("all", "none"),
    ("everyone", "no one"),
    ("everybody", "nobody"),
    ("everything", "nothing"),
    ("yes", "no"),
    ("with", "without"),
    ("able", "unable"),
    ("capable", "incapable"),
    ("competent", "incompetent"),
    ("legal", "illegal"),
    ("responsible", "irresponsible"),
    ("friendly", "hostile"),
    ("calm", "angry"),
    ("quiet", "loud"),
    ("quiet", "noisy"),
    ("helped", "hurt"),
    ("helped", "hassled"),
    ("praised", "criticized"),
    ("praised", "teased"),
    ("cheered", "yelled"),
    ("attended", "skipped"),
    ("more", "less"),
    ("most", "least"),
    ("many", "few"),
    ("high", "low"),
    ("higher", "lower"),
    ("fast", "slow"),
    ("early", "late"),
    ("true", "false"),
    ("innocent", "guilty"),
    ("peaceful", "violent"),
    ("gentle", "violent"),
    ("generous", "greedy"),
    ("generous", "stingy"),
    ("brave", "cowardly"),
    ("trust", "distrust"),
    ("trusted", "distrusted"),
    ("respect", "disrespect"),
    ("respected", "disrespected"),
    ("ample", "meager"),
    ("criminal", "clean"),
    ("fairly", "unfairly"),
    ("nicely", "unfairly"),
    ("for", "against"),
    ("great", "bad"),
    ("great", "terrible"),
    ("good", "terrible"),
    ("good", "awful"),
    ("beautiful", "ugly"),
    ("pretty", "ugly"),
    ("rich", "poor"),
    ("young", "old"),
    ("young", "elderly"),
    ("fat", "thin"),
    ("fat", "skinny"),
    ("tall", "short"),
    ("big", "small"),
    ("big", "little"),
    ("gifted", "retarded"),
    ("sane", "insane"),
)

#: Closed-class words that change only to agree with a group word: articles ("a Asian" ->
#: "an Asian"), forms of "be"/"have"/"do" (number agreement) and possessive/plural clitics.
AGREEMENT_WORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "does",
        "do",
        "'s",
        "s",
        "'",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "who",
        "whom",
        "whose",
        "one",
        "ones",
        "person",
        "people",
        "group",
        "groups",
        "family",
        "families",
        "folks",
        "guy",
        "kid",
        "kids",
    }
)

#: Pronouns and titles that follow the gender of a person named elsewhere in the sentence.
GENDERED_AGREEMENT = frozenset(
    {
        "he",
        "she",
        "him",
        "her",
        "his",
        "hers",
        "himself",
        "herself",
        "mr",
        "mr.",
        "mrs",
        "mrs.",
        "ms",
        "ms.",
        "sir",
        "ma'am",
        "man",
        "woman",
        "men",
        "women",
        "boy",
        "girl",
        "guy",
        "lady",
        "husband",
        "wife",
        "boyfriend",
        "girlfriend",
        "brother",
        "sister",
        "son",
        "daughter",
        "father",
        "mother",
        "dad",
        "mom",
        "uncle",
        "aunt",
        "king",
        "queen",
        "gentleman",
        "gentlemen",
        "ladies",
        "male",
        "female",
    }
)

#: Closed-class words: articles, determiners, pronouns, conjunctions, common prepositions and
#: auxiliaries. They are never names when capitalised, and never content on their own.
FUNCTION_WORDS = frozenset(
    [
        "the", "a", "an", "this", "that", "these", "those", "he", "she", "it", "they", "we",
        "i", "you", "his", "her", "their", "our", "my", "your", "its", "him", "them", "us",
        "me", "but", "and", "or", "so", "if", "when", "while", "as", "because", "after",
        "before", "then", "there", "here", "what", "who", "whom", "whose", "which", "why",
        "how", "all", "some", "no", "not", "every", "many", "most", "one", "any", "each",
        "both", "either", "neither", "of", "in", "on", "at", "to", "for", "from", "with",
        "by", "about", "into", "onto", "over", "under", "than", "like", "as", "up", "down",
        "out", "off", "is", "are", "was", "were", "be", "been", "being", "am", "has",
        "have", "had", "do", "does", "did", "will", "would", "shall", "should", "can",
        "could", "may", "might", "must", "'s", "'", "n't", "not", "non"
    ]
)

#: Words for a person or people, and personal pronouns: a group swapped for one of these still
#: stands for someone ("the black man" / "the person").
PERSON_WORDS = frozenset(
    [
        "person", "persons", "people", "folk", "folks", "individual", "individuals",
        "someone", "somebody", "anyone", "anybody", "everyone", "everybody", "one", "ones",
        "human", "humans", "guy", "guys", "kid", "kids", "he", "she", "him", "her", "his",
        "hers", "himself", "herself", "they", "them", "their", "theirs", "themselves", "i",
        "me", "my", "we", "us", "our", "you", "your", "who", "whom", "whose"
    ]
)

#: Bias-type labels validators could not tell apart: race-color and nationality are the most
#: confused pair of CrowS-Pairs' annotations column, so neither label is wrong for the other's
#: group words.
CONFUSABLE_LABELS = frozenset({"race-color", "nationality"})


#: Dimensions whose group words English capitalises ("Muslim", "Mexican", "Texan").
PROPER_DIMENSIONS = frozenset({"nationality", "religion", "race-color", "region"})


#: Negators that name a group together with the next word ("people with no legs").
GROUP_NEGATORS = frozenset({"no", "without", "non"})

#: Endings that only mark number in English ("group" / "groups", "class" / "classes").
INFLECTIONS: tuple[tuple[str, str], ...] = (("", "s"), ("", "es"))


@dataclass(frozen=True)
class Lexicon:
    """Group words by dimension; ``proper`` words must be capitalised in English;
    ``advantaged`` words name the historically advantaged group of their dimension.

    A lexicon is of one language (English: ``lexicon.toml`` and the lists of this module; French
    and Dutch: ``curate/lint/languages/<code>/lexicon.toml``): the group words and the closed-class
    words the group-lexicon rules read (negators, antonyms, agreement, function and person words,
    the endings that only agree), so the same rules run on each language's pairs.
    """

    dimensions: dict[str, frozenset[str]]
    proper: frozenset[str]
    advantaged: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Aspects of a dimension ("weight", "height" of physical appearance): a group's counterpart
    #: names the same aspect.
    aspects: dict[str, frozenset[str]] = field(default_factory=dict)
    language: str = "en"
    negators: frozenset[str] = NEGATORS
    group_negators: frozenset[str] = GROUP_NEGATORS
    antonyms: tuple[tuple[str, str], ...] = ANTONYMS
    agreement_words: frozenset[str] = AGREEMENT_WORDS
    gendered_agreement: frozenset[str] = GENDERED_AGREEMENT
    function_words: frozenset[str] = FUNCTION_WORDS
    person_words: frozenset[str] = PERSON_WORDS
    #: (ending, ending) pairs of forms that differ only in agreement (number, gender).
    inflections: tuple[tuple[str, str], ...] = INFLECTIONS
    #: Elided clitics written onto a word ("l'homme"): stripped before a look-up.
    elisions: frozenset[str] = frozenset()
    #: Word pairs whose first word is part of a fixed phrase, not a group word ("petite amie"
    #: is a girlfriend, "grand âge" old age): the first word names no group there.
    fixed_phrases: frozenset[tuple[str, str]] = frozenset()
    _dimension_cache: dict[str, frozenset[str]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def dimensions_of(self, word: str) -> frozenset[str]:
        """The bias dimensions a (case-insensitive) word names; empty if it names none."""
        found = self._dimension_cache.get(word)
        if found is None:
            found = self._dimension_cache[word] = _dimensions_of(self, word.lower())
        return found

    def is_group_word(self, word: str) -> bool:
        return bool(self.dimensions_of(word))

    def is_advantaged(self, word: str, dimension: str) -> bool:
        """True for a word naming the advantaged group of ``dimension`` ("white", "men")."""
        words = self.advantaged.get(dimension, frozenset())
        lower = self.bare(word.lower())
        return lower in words or (lower.endswith("s") and lower[:-1] in words)

    def aspects_of(self, word: str) -> frozenset[str]:
        """The aspects (of a dimension) a word names; empty if none is recorded."""
        lower = word.lower()
        return frozenset(a for a, words in self.aspects.items() if lower in words)

    def is_proper(self, word: str) -> bool:
        """True for a word of a proper-adjective dimension that English capitalises."""
        return word.lower() in self.proper_forms

    @functools.cached_property
    def proper_forms(self) -> frozenset[str]:
        """The proper words and their regular plurals, lower-case (one set lookup per word)."""
        return self.proper | {w + "s" for w in self.proper}

    def bare(self, lower: str) -> str:
        """``lower`` without an elided clitic in front ("l'homme" -> "homme")."""
        if self.elisions:
            head, sep, tail = lower.replace("’", "'").partition("'")
            if sep and tail and head in self.elisions:
                return tail
        return lower

    @functools.cached_property
    def opposites(self) -> dict[str, frozenset[str]]:
        """Each word of :attr:`antonyms` mapped to its opposites."""
        return _opposites(self.antonyms)

    def agrees_only(self, a: str, b: str) -> bool:
        """Whether two forms differ only by an agreement ending ("groups" / "group",
        "fatigué" / "fatiguée", "dik" / "dikke")."""
        a, b = self.bare(a), self.bare(b)
        for x, y in ((a, b), (b, a)):
            for short, long in self.inflections:
                if x.endswith(short) and y.endswith(long):
                    stem = x[: len(x) - len(short)]
                    if y[: len(y) - len(long)] == stem and stem:
                        return True
                    # a doubled consonant before the ending (Dutch "dik" / "dikke")
                    if self.language == "nl" and short == "" and y == stem + stem[-1:] + long:
                        return True
                    # French doubles l, n, t, s before the feminine e ("nul" / "nulle", "nuls" /
                    # "nulles", "gentil" / "gentille", "muet" / "muette")
                    if (
                        self.language == "fr"
                        and short in ("", "s")
                        and long in ("e", "es")
                        and stem[-1:] in ("l", "n", "t", "s")
                        and y == stem + stem[-1:] + long
                    ):
                        return True
        return False

    def __hash__(self) -> int:
        return id(self)


def _dimensions_of(lexicon: Lexicon, lower: str) -> frozenset[str]:
    lower = lexicon.bare(lower)
    found = {dim for dim, words in lexicon.dimensions.items() if lower in words}
    if not found and lower.endswith("s") and len(lower) > 3:
        stem = lower[:-1]
        found = {dim for dim, words in lexicon.dimensions.items() if stem in words}
    return frozenset(found)


@functools.cache
def load_lexicon(language: str = "en") -> Lexicon:
    """The packaged group lexicon of ``language`` (``lexicon.toml`` for English; the
    ``lexicon.toml`` of ``curate/lint/languages/<code>/`` for another); English when the
    language has none."""
    if language != "en":
        path = resources.files("curate.lint.languages").joinpath(language, "lexicon.toml")
        if path.is_file():
            return _language_lexicon(language, tomllib.loads(path.read_text(encoding="utf-8")))
    text = resources.files("curate.lint").joinpath("lexicon.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    aspects = {name: frozenset(words) for name, words in table.pop("aspects", {}).items()}
    dimensions = {
        dim: frozenset(
            w.lower()
            for key in ("proper", "words", "advantaged")
            for w in entry.get(key, ())
        )
        for dim, entry in table.items()
    }
    proper = frozenset(
        w.lower()
        for dim, entry in table.items()
        if dim in PROPER_DIMENSIONS
        for w in entry.get("proper", ())
    )
    advantaged = {
        dim: frozenset(w.lower() for w in entry.get("advantaged", ())) for dim, entry in table.items()
    }
    return Lexicon(dimensions, proper, advantaged, aspects)


def _language_lexicon(language: str, table: dict) -> Lexicon:
    """A lexicon of another language from its table: the same bias-type tables as English
    (``words`` and ``advantaged``; no ``proper``: capitalisation is English's rule) and a
    ``[grammar]`` table of its closed-class words."""
    grammar = table.pop("grammar")
    aspects = {name: frozenset(words) for name, words in table.pop("aspects", {}).items()}
    dimensions = {
        dim: frozenset(w.lower() for key in ("words", "advantaged") for w in entry.get(key, ()))
        for dim, entry in table.items()
    }
    advantaged = {
        dim: frozenset(w.lower() for w in entry.get("advantaged", ())) for dim, entry in table.items()
    }

    def words(key: str) -> frozenset[str]:
        return frozenset(w.lower() for w in grammar[key])

    return Lexicon(
        dimensions,
        frozenset(),
        advantaged,
        aspects,
        language=language,
        negators=words("negators"),
        group_negators=words("group_negators"),
        antonyms=tuple((a, b) for a, b in grammar["antonyms"]),
        agreement_words=words("agreement_words"),
        gendered_agreement=words("gendered_agreement"),
        function_words=words("function_words"),
        person_words=words("person_words"),
        inflections=tuple((a, b) for a, b in grammar["inflections"]),
        elisions=words("elisions"),
        fixed_phrases=frozenset((a.lower(), b.lower()) for a, b in grammar.get("fixed_phrases", ())),
    )


@functools.cache
def antonym_map() -> dict[str, frozenset[str]]:
    """Each word of :data:`ANTONYMS` mapped to its opposites."""
    return _opposites(ANTONYMS)


def _opposites(antonyms: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for a, b in antonyms:
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in table.items()}
