"""Dutch: pyspellchecker's Dutch word list, and the apostrophe forms of Dutch spelling.

Dutch writes the plural or genitive of a word ending in a vowel with an apostrophe (auto's,
baby's, opa's) and elides a few words ('t, 's avonds, z'n, m'n, d'r): neither is a typo.
"""

from curate.lint.languages import Language

ELISIONS = frozenset(["z", "m", "d", "'t", "'s"])
SUFFIXES = frozenset(["s", "tje", "tjes", "je"])

#: Plural, inflected-adjective and diminutive endings (minuut -> minuten, euro -> euros).
INFLECTIONS = ("en", "s", "e", "je", "tje", "jes", "tjes")

LANGUAGE = Language(
    "nl",
    "Dutch",
    "nl",
    elisions=ELISIONS,
    suffixes=SUFFIXES,
    min_suggestion=1000,
    inflections=INFLECTIONS,
    compounds=True,
    loans_from=("en",),
)

#: The diminutive endings: a diminutive is a het-word.
DIMINUTIVES = ("tje", "pje", "kje", "je")


def article_nouns() -> tuple[frozenset[str], frozenset[str]]:
    """The de-nouns and het-nouns of people of ``nouns.toml``."""
    import tomllib
    from importlib import resources

    table = tomllib.loads(resources.files(__name__).joinpath("nouns.toml").read_text("utf-8"))
    return frozenset(table["de"]), frozenset(table["het"])


#: Pronouns that name one person of a gender (G002, pronoun agreement). "ze" and "zij" are also
#: "they", "zijn" also the verb "to be", and "hem" also stands for any de-word thing ("zijn
#: trouwring ... stopte hem in zijn zak"), so they are left out: "hij" and "z'n" name a man,
#: "haar" (her) a woman.
MALE_PRONOUNS = frozenset(["hij", "z'n"])
FEMALE_PRONOUNS = frozenset(["haar"])
#: Third-person pronouns of either gender: one among the changed words shows that the pronouns
#: were changed with the person ("zijn telefoon" / "haar telefoon"), so a shared one of the old
#: gender names someone or something else (G002).
PERSON_PRONOUNS = frozenset(["hij", "zij", "ze", "hem", "haar", "zijn", "z'n", "zichzelf"])
#: Gendered person nouns that are singular although they end like a plural.
SINGULAR_ENDING_IN_S = frozenset(["jongen", "zus"])


#: Words for a grown man or woman: in an age pair, against a child ("un homme de ton âge" /
#: "un enfant de ton âge") they are the adult side of the age contrast, not a gender (S004).
ADULT_WORDS = frozenset(["man", "mannen", "vrouw", "vrouwen", "meneer", "mevrouw", "heer", "heren", "dame", "dames"])


#: Words after which an adjective stands alone as a partitive ("iemand Nederlands", "iets
#: moois"): there it takes no -e, so a swap that inflects it is an error although no noun follows.
PARTITIVE_WORDS = frozenset(["iemand", "niemand", "iets", "niets", "wat", "zoiets", "veel", "weinig", "allerlei"])

