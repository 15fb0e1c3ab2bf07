"""How many Ray workers a sweep starts at once: the model's size decides, read from its weight
files without loading it (issue 32: a second node idled through the first worker's start)."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.modelnames import local_weight_bytes

pytest.importorskip("ray")

from curate.sweep.ray_executor import GROW_AFTER_S, LARGE_MODEL_BYTES, initial_width, pool_may_grow

BIG = LARGE_MODEL_BYTES
SMALL = LARGE_MODEL_BYTES - 1


def test_models_of_a_real_size_start_one_worker_each_up_to_the_capacity() -> None:
    assert initial_width([BIG, BIG, BIG, BIG], capacity=2) == 2
    assert initial_width([BIG, BIG], capacity=8) == 2
    assert initial_width([BIG], capacity=8) == 1


def test_a_hub_id_counts_as_a_model_of_a_real_size() -> None:
    assert initial_width([None, None, BIG], capacity=3) == 3


def test_small_models_start_one_worker_and_let_the_pool_grow() -> None:
    """A few-second job is cheaper on the worker already started than on a new one."""
    assert initial_width([SMALL, SMALL, SMALL], capacity=4) == 1
    assert initial_width([BIG, SMALL, BIG], capacity=4) == 1


def test_an_empty_pool_starts_nothing() -> None:
    assert initial_width([], capacity=4) == 0


def test_weight_bytes_sum_every_weight_file_of_a_local_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    assert local_weight_bytes(str(model)) is None  # no weights: not measured
    (model / "model-00001-of-00002.safetensors").write_bytes(b"x" * 300)
    (model / "model-00002-of-00002.safetensors").write_bytes(b"x" * 200)
    (model / "pytorch_model.bin").write_bytes(b"x" * 7)
    assert local_weight_bytes(str(model)) == 507


@pytest.mark.parametrize("name", ["bert-base-uncased", "org/model", "", "\x00", "a" * 5000])
def test_a_hub_id_or_an_impossible_path_has_no_local_size(name: str) -> None:
    assert local_weight_bytes(name) is None


def test_the_tiny_test_models_are_small(tmp_path: Path) -> None:
    """The suite's Ray tests run tiny models on one worker, as a user's few-second jobs do."""
    from tests.support.tiny_models import build_tiny_model

    path = build_tiny_model("bert", tmp_path / "bert", ["a small corpus of words"] * 4)
    size = local_weight_bytes(str(path))
    assert size is not None and size < LARGE_MODEL_BYTES


def test_a_pool_grows_only_after_its_models_ran_long_since_their_load() -> None:
    """A worker still starting or loading (None) is not a long job: the clock of growth starts
    at the model's load, so a first worker's imports never make tiny jobs take a second one."""
    now = 100.0
    assert not pool_may_grow([None], now)  # the first worker is importing torch
    assert not pool_may_grow([now - GROW_AFTER_S / 2], now)  # loaded, running briefly
    assert pool_may_grow([now - GROW_AFTER_S], now)
    assert not pool_may_grow([now - 10 * GROW_AFTER_S, None], now)  # one still loading
    assert pool_may_grow([now - 10 * GROW_AFTER_S, now - GROW_AFTER_S - 1], now)
    assert pool_may_grow([], now)  # no actor left while models wait: one more
