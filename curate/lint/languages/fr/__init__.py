"""French: pyspellchecker's French word list, and the elided clitics of French spelling.

An elided article, pronoun or conjunction is written onto the next word with an apostrophe
(l'enfant, qu'il, jusqu'à, aujourd'hui is one word): the word is checked without it.
"""

from curate.lint.languages import Language

ELISIONS = frozenset(["l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu", "quelqu"])

LANGUAGE = Language("fr", "French", "fr", elisions=ELISIONS, min_suggestion=1000)
