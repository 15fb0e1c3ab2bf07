"""WinoGender's own scoring methods, as plain data: the names its benchmark declares
(:class:`~curate.benchmarks.spec.Scoring`) and its runner accepts, the causal one first.

A module of its own, below the runner and the benchmark definition, so that both can name the
list without either importing the other.
"""

from __future__ import annotations

OWN_METHODS: tuple[str, ...] = ("winogender-clm", "winogender-mlm")
#: The sentence-pair method whose sentence scores each own method uses, by its name.
SENTENCE_METHOD: dict[str, str] = {"winogender-clm": "clm-sum", "winogender-mlm": "pll"}
