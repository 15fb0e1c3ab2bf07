"""[tool.curate.score] is read once into ScoreSettings; CLI options override it."""

from __future__ import annotations

import pytest

from curate.errors import InputError
from curate.score.settings import DEFAULT_BATCH_SIZE, ScoreSettings, settings_from_table


def test_defaults_and_a_full_table():
    assert settings_from_table({}) == ScoreSettings()
    assert ScoreSettings().batch_size == DEFAULT_BATCH_SIZE
    settings = settings_from_table(
        {
            "models": ["a", "b"],
            "methods": ["pll,aul"],
            "batch-size": 8,
            "threads": 2,
            "device": "cpu",
            "dtype": "float32",
            "threshold": 3,
            "cache": "c.sqlite",
        }
    )
    assert settings.models == ("a", "b")
    assert settings.methods == ("pll", "aul")
    assert (settings.batch_size, settings.threads, settings.device) == (8, 2, "cpu")
    assert settings.threshold == 3.0 and isinstance(settings.threshold, float)
    assert settings.cache == "c.sqlite"


def test_overrides_replace_only_given_values():
    base = settings_from_table({"batch-size": 8, "models": ["a"]})
    over = base.with_overrides(batch_size=None, models=("b",), threads=3)
    assert (over.batch_size, over.models, over.threads) == (8, ("b",), 3)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"modles": ["a"]}, "unknown key 'modles'"),
        ({"models": "a"}, "models must be a list of strings"),
        ({"batch-size": 0}, "batch-size must be a positive integer"),
        ({"batch-size": True}, "batch-size must be a positive integer"),
        ({"threshold": -1}, "threshold must be a non-negative number"),
        ({"device": "tpu"}, "device must be one of auto, cpu, cuda, mps"),
        ({"methods": ["ppl"]}, "unknown scoring method 'ppl'"),
        ({"cache": 3}, "cache must be a string"),
    ],
)
def test_bad_values_name_the_table_and_key(table, message):
    with pytest.raises(InputError, match=message):
        settings_from_table(table, "pyproject.toml: [tool.curate.score]")
