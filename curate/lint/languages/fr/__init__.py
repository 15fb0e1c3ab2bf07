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
    checks_accents=True,
)

#: Determiners that mark the gender of the noun after them (l', les, leur, son: either).
MASCULINE_DETERMINERS = frozenset(["le", "un", "ce", "cet", "du", "au", "mon", "ton"])
FEMININE_DETERMINERS = frozenset(["la", "une", "cette", "ma", "ta"])
#: Determiners after which a word is a noun, never the name of a language: plural ones, the
#: indefinite singular, and "de"/"d'" before a plural ("le français" may be the language).
NOUN_DETERMINERS = frozenset(
    ["les", "des", "aux", "ces", "nos", "vos", "leurs", "mes", "tes", "ses", "quelques",
     "plusieurs", "certains", "certaines", "un", "une", "de", "d"]
)
#: Group words of the lexicon that name no people, so French writes them lower-case as nouns
#: too: colours and slang for race ("les noirs", "les blacks"), a status ("les immigrés", "les
#: citoyens", "les esclaves") and words for the notion itself ("race", "minorité").
NOT_PEOPLES = frozenset(
    ["noir", "noire", "noirs", "noires", "blanc", "blanche", "blancs", "blanches", "black",
     "blacks", "métis", "métisse", "métisses", "basané", "basanée", "basanés", "basanées",
     "beur", "beurs", "beurette", "beurettes", "rebeu", "rebeus", "renoi", "renois", "noiche",
     "nègre", "nègres", "négresse", "jaune", "jaunes", "bridé", "bridée", "bridés", "bridées",
     "esclave", "esclaves", "autochtone", "autochtones", "race", "races", "racial", "raciale",
     "raciaux", "ethnie", "ethnies", "ethnique", "ethniques", "minorité", "minorités",
     "couleur", "étranger", "étrangère", "étrangers", "étrangères", "immigré", "immigrée",
     "immigrés", "immigrées", "immigrant", "immigrante", "immigrants", "immigrantes", "migrant",
     "migrante", "migrants", "migrantes", "réfugié", "réfugiée", "réfugiés", "réfugiées",
     "clandestin", "clandestine", "clandestins", "clandestines", "sans-papiers", "expatrié",
     "expatriée", "expatriés", "citoyen", "citoyenne", "citoyens", "citoyennes", "touriste",
     "touristes", "accent", "nationalité", "natif", "native", "natifs", "natives",
     # regions: the words that name no people ("les provinciaux") and the places
     "provincial", "provinciale", "provinciaux", "provinciales", "méridional", "méridionale",
     "méridionaux", "méridionales", "sudiste", "sudistes", "nordiste", "nordistes",
     "banlieusard", "banlieusarde", "banlieusards", "banlieusardes", "paris", "marseille",
     "lyon", "bretagne", "province"]
)


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
#: Third-person pronouns of a gender: one among the changed words shows that the pronouns were
#: changed with the person ("il" / "elle"), so a shared one of the old gender names someone else
#: (G002).
PERSON_PRONOUNS = frozenset(["il", "elle", "lui-même", "elle-même"])
#: Verbs whose subject "il" is impersonal and refers to no one: always ("il faut", "il pleut",
#: "il s'agit", "il y a") ...
IMPERSONAL_VERBS = frozenset(["falloir", "pleuvoir", "neiger", "agir", "avoir"])
#: ... or with an indirect object before them or "de"/"que" after ("il lui arrivait de",
#: "il semble que", "il lui reste"), where "il arrive demain" has a person for subject.
IMPERSONAL_WITH_OBJECT = frozenset(
    ["arriver", "sembler", "paraître", "suffire", "rester", "manquer", "valoir", "exister", "importer",
     "convenir", "advenir", "falloir"]
)
#: The clitics that may stand between an impersonal "il" and its verb ("il ne lui en faut").
IMPERSONAL_CLITICS = frozenset(["ne", "n'", "lui", "leur", "me", "m'", "te", "t'", "nous", "vous", "se", "s'", "y", "en"])
#: Gendered person nouns that are singular although they end like a plural.
SINGULAR_ENDING_IN_S = frozenset(["fils", "gars", "époux", "mec", "nounou"])


#: Words for a grown man or woman: in an age pair, against a child ("un homme de ton âge" /
#: "un enfant de ton âge") they are the adult side of the age contrast, not a gender (S004).
ADULT_WORDS = frozenset(["homme", "hommes", "femme", "femmes", "monsieur", "messieurs", "dame", "dames"])
