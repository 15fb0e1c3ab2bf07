"""English: the language the shared rules and ``curate/lint/lexicon.toml`` were written for."""

from curate.lint.languages import Language

LANGUAGE = Language("en", "English", "en", suffixes=frozenset({"s", "t", "d", "ll", "re", "ve", "m"}))
