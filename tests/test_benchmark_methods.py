"""Scoring methods ask the benchmark they belong to (its Scoring.methods), never a name."""

from __future__ import annotations

import pytest

from curate import benchmarks
from curate.benchmarks.stereoset.run import stereoset_methods, stereoset_of_kind
from curate.errors import UsageError
from curate.score.methods import METHODS, methods_for_model


def test_a_method_belongs_to_the_benchmark_whose_scoring_lists_it() -> None:
    stereoset = benchmarks.get("stereoset")
    own = {name for name, m in METHODS.items() if m.dataset == "stereoset"}
    assert own == set(stereoset.scoring.methods)
    assert METHODS["pll"].dataset == benchmarks.DEFAULT
    assert METHODS["clm-sum"].dataset == benchmarks.DEFAULT


def test_stereoset_methods_per_kind_official_first() -> None:
    assert stereoset_of_kind("masked")[0] == "stereoset-mlm"
    assert stereoset_of_kind("causal")[0] == "stereoset-clm"
    assert set(stereoset_of_kind("masked")) | set(stereoset_of_kind("causal")) == set(
        benchmarks.get("stereoset").scoring.methods
    )
    with pytest.raises(UsageError, match="StereoSet's own methods"):
        stereoset_methods(("pll",), "masked", "bert")


def test_a_benchmark_method_is_refused_for_pairs_naming_its_benchmark() -> None:
    with pytest.raises(UsageError, match="scores StereoSet files only; for pairs choose from pll"):
        methods_for_model(("stereoset-pll",), "masked", "bert")


def test_winogender_methods_belong_to_winogender_and_are_refused_for_pairs() -> None:
    own = {name for name, m in METHODS.items() if m.dataset == "winogender"}
    assert own == set(benchmarks.get("winogender").scoring.methods) == {"winogender-clm", "winogender-mlm"}
    assert {METHODS[n].kind for n in own} == {"causal", "masked"}
    with pytest.raises(UsageError, match="scores WinoGender files only; for pairs choose from clm-sum"):
        methods_for_model(("winogender-clm",), "causal", "gpt2")


def test_winogender_own_method_must_fit_the_model() -> None:
    from curate.benchmarks.winogender.run import own_methods

    assert own_methods((), "causal", "gpt2") == ("winogender-clm",)
    assert own_methods((), "masked", "bert") == ("winogender-mlm",)
    with pytest.raises(UsageError, match="bert is a masked language model: method winogender-clm"):
        own_methods(("winogender-clm",), "masked", "bert")
