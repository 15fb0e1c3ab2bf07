"""French: pyspellchecker's French word list, and the elided clitics of French spelling.

An elided article, pronoun or conjunction is written onto the next word with an apostrophe
(l'enfant, qu'il, jusqu'à, aujourd'hui is one word): the word is checked without it.
"""

from curate.lint.languages import Language

ELISIONS = frozenset(["l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu", "quelqu"])

#: Plural and feminine endings (docteur -> docteure(s), boulot -> boulots).
INFLECTIONS = ("es", "s", "x", "e")

#: Forms of first-group verbs (-er), the commonest, by ending: participles, the simple past,
#: the imperfect and the present plural.
VERB_FORMS = tuple(
    (ending, "er")
    for ending in ("ant", "ées", "és", "ée", "é", "èrent", "aient", "ait", "ais", "a", "ent", "ons", "ez")
)

LANGUAGE = Language(
    "fr",
    "French",
    "fr",
    elisions=ELISIONS,
    min_suggestion=1000,
    inflections=INFLECTIONS,
    verb_forms=VERB_FORMS,
    loans_from=("en",),
)

#: Determiners that mark the gender of the noun after them (l', les, leur, son: either).
MASCULINE_DETERMINERS = frozenset(["le", "un", "ce", "cet", "du", "au", "mon", "ton"])
FEMININE_DETERMINERS = frozenset(["la", "une", "cette", "ma", "ta"])


def gendered_nouns() -> tuple[frozenset[str], frozenset[str]]:
    """The masculine and feminine person nouns of ``nouns.toml``."""
    import tomllib
    from importlib import resources

    table = tomllib.loads(resources.files(__name__).joinpath("nouns.toml").read_text("utf-8"))
    return frozenset(table["masculine"]), frozenset(table["feminine"])


#: Pronouns that name one person of a gender (G002, pronoun agreement). French possessives
#: (son, sa, ses) agree with the thing owned, not the owner, and "lui" is also the indirect
#: object of either gender ("je lui ai dit"), so the subject pronouns are the ones that tell.
MALE_PRONOUNS = frozenset(["il"])
FEMALE_PRONOUNS = frozenset(["elle"])
#: Gendered person nouns that are singular although they end like a plural.
SINGULAR_ENDING_IN_S = frozenset(["fils", "gars", "époux", "mec", "nounou"])
