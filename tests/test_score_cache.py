"""The score cache: hits and misses, incremental revisions, and resuming interrupted runs."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from curate.score.cache import CacheError, ScoreCache, context_key, open_cache, sentence_key
from curate.score.engine import token_logprobs
from curate.score.pll import batch_jobs, load_model, plan_jobs, plan_pairs, score_pairs
from tests.conftest import repo_env
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

PAIRS = list(SAMPLE_PAIRS)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def lm():
    return load_model(tiny_model_dir("bert"), device="cpu")


def _first_batches(lm, count: int) -> int:
    """Jobs in the first ``count`` batches of size 8 of a fresh run over PAIRS."""
    batches = batch_jobs(plan_jobs(plan_pairs(PAIRS, lm)), 8)
    return sum(len(b) for b in batches[:count])


def _scores(result) -> list[tuple[int, float, float]]:
    return [(s.pair_id, s.sent_more_score, s.sent_less_score) for s in result.scores]


def test_store_and_lookup_round_trip(tmp_path):
    path = tmp_path / "cache.sqlite"
    with ScoreCache(path) as cache:
        ctx = cache.register_context({"model": "m", "dtype": "float32"}, label="tiny")
        assert ctx == context_key({"dtype": "float32", "model": "m"})
        key = sentence_key([101, 7, 102])
        cache.store(ctx, [(key, 1, -2.5), (key, 2, -0.25)])
        assert cache.lookup(ctx, [key]) == {(key, 1): -2.5, (key, 2): -0.25}
        assert cache.lookup("other", [key]) == {}
        assert cache.count(ctx) == cache.count() == 2
    with ScoreCache(path) as cache:  # committed rows persist
        assert cache.count() == 2
        assert cache._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_sentence_key_depends_on_ids_only():
    assert sentence_key([1, 2, 3]) == sentence_key((1, 2, 3))
    assert sentence_key([1, 23]) != sentence_key([12, 3])


def test_unusable_cache_files_are_clear_errors(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CacheError, match="not a score cache") as refused:
        ScoreCache(junk)
    assert "delete" not in str(refused.value)  # curate did not make it (issue 25, item 17)
    own = tmp_path / ".curate-cache" / "scores.sqlite"  # in curate's own folder: damaged
    own.parent.mkdir()
    own.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CacheError, match=r"not a usable score cache.*delete it"):
        ScoreCache(own)
    old = tmp_path / "old.sqlite"
    ScoreCache(old).close()
    with sqlite3.connect(old) as db:
        db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    with pytest.raises(CacheError, match="schema 0"):
        ScoreCache(old)


def test_second_run_does_no_forward_pass(lm, tmp_path):
    path = tmp_path / "cache.sqlite"
    first = score_pairs(PAIRS, lm, cache=path, batch_size=8)
    assert first.stats.cache_hits == 0
    assert first.stats.computed == first.stats.unique_jobs > 0
    assert first.stats.batches == len(batch_jobs(plan_jobs(plan_pairs(PAIRS, lm)), 8))
    seen: list[tuple[int, int]] = []
    second = score_pairs(PAIRS, lm, cache=path, batch_size=8, progress=lambda *a: seen.append(a))
    assert second.stats.computed == 0 and second.stats.batches == 0
    assert second.stats.cache_hits == second.stats.forward_passes_saved == first.stats.unique_jobs
    assert seen == [(0, 0)]
    assert _scores(second) == _scores(first)
    # metric.py's pass count includes jobs shared by the identical sentences of pair 6
    assert first.stats.masked_tokens > first.stats.unique_jobs


def test_cache_serves_a_superset_run_partially(lm, tmp_path):
    with ScoreCache(tmp_path / "cache.sqlite") as cache:
        part = score_pairs(PAIRS[:4], lm, cache=cache)
        full = score_pairs(PAIRS, lm, cache=cache)
    assert full.stats.cache_hits == part.stats.unique_jobs
    assert full.stats.computed == full.stats.unique_jobs - part.stats.unique_jobs


def test_revision_recomputes_only_changed_sentences(lm, tmp_path):
    """Editing one sentence of a pair reuses every unchanged masked copy of the other."""
    with ScoreCache(tmp_path / "cache.sqlite") as cache:
        original = score_pairs(PAIRS, lm, cache=cache)
        edited = PAIRS[1].with_changes(sent_less="The wealthy are really ignorant about money.")
        revised_pairs = [edited if p.pair_id == 1 else p for p in PAIRS]
        revised = score_pairs(revised_pairs, lm, cache=cache)
    (plan,) = plan_pairs([edited], lm)
    new_jobs = {job for job in plan_jobs([plan]) if job.ids == plan.less_ids}
    assert len(new_jobs) == len(plan.less_positions)
    assert revised.stats.computed == len(new_jobs - set(plan_jobs(plan_pairs(PAIRS, lm))))
    assert revised.stats.cache_hits == revised.stats.unique_jobs - revised.stats.computed
    unchanged = [s for s in revised.scores if s.pair_id != 1]
    assert unchanged == [s for s in original.scores if s.pair_id != 1]


def test_dtype_and_weights_are_part_of_the_key(lm, tmp_path):
    path = tmp_path / "cache.sqlite"
    score_pairs(PAIRS[:2], lm, cache=path)
    with pytest.warns(UserWarning):
        lm16 = load_model(tiny_model_dir("bert"), device="cpu", dtype="bfloat16")
    assert score_pairs(PAIRS[:2], lm16, cache=path).stats.cache_hits == 0
    other = load_model(tiny_model_dir("bert", seed=1), device="cpu")
    assert score_pairs(PAIRS[:2], other, cache=path).stats.cache_hits == 0
    with ScoreCache(path) as cache:
        assert cache._db.execute("SELECT COUNT(*) FROM contexts").fetchone()[0] == 3


class _Interrupt(Exception):
    pass


def test_resume_after_an_exception_midway_is_identical(lm, tmp_path):
    path = tmp_path / "cache.sqlite"

    calls = []

    def stop_after_three_batches(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 4:  # called once before the first batch, then after each
            raise _Interrupt

    with pytest.raises(_Interrupt):
        score_pairs(PAIRS, lm, cache=path, batch_size=8, progress=stop_after_three_batches)
    resumed = score_pairs(PAIRS, lm, cache=path, batch_size=8)
    assert resumed.stats.cache_hits == calls[-1] == _first_batches(lm, 3)
    uninterrupted = score_pairs(PAIRS, lm, cache=tmp_path / "fresh.sqlite", batch_size=8)
    assert resumed.stats.computed == uninterrupted.stats.computed - calls[-1]
    assert _scores(resumed) == _scores(uninterrupted)  # bit for bit


_KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    import torch
    torch.set_num_threads(1)
    from curate.score.pll import load_model, score_pairs
    from tests.support.tiny_models import SAMPLE_PAIRS

    calls = []

    def kill_after_two_batches(done, total):
        calls.append(done)
        if len(calls) == 3:  # called once before the first batch, then after each
            os.kill(os.getpid(), signal.SIGKILL)

    lm = load_model(sys.argv[1], device="cpu")
    score_pairs(SAMPLE_PAIRS, lm, cache=sys.argv[2], batch_size=8, progress=kill_after_two_batches)
    """
)


def test_resume_after_kill_9_is_identical(lm, tmp_path):
    path = tmp_path / "cache.sqlite"
    run = subprocess.run(
        [sys.executable, "-c", _KILLED_RUN, str(tiny_model_dir("bert")), str(path)],
        env=repo_env(OMP_NUM_THREADS="1"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == -9, run.stderr
    resumed = score_pairs(PAIRS, lm, cache=path, batch_size=8)
    assert resumed.stats.cache_hits == _first_batches(lm, 2)
    uninterrupted = score_pairs(PAIRS, lm, batch_size=8)
    assert _scores(resumed) == _scores(uninterrupted)


# --------------------------------------------------------------------------- every method

#: (family, method): each method on a model it fits.
EVERY_METHOD = [
    ("bert", "pll"),
    ("bert", "pll-word-l2r"),
    ("roberta", "aul"),
    ("albert", "aula"),
    ("gpt2", "clm-sum"),
    ("gpt2", "clm-mean"),
    ("gpt2", "clm-shared"),
]


@pytest.fixture(scope="module")
def models():
    return {f: load_model(tiny_model_dir(f), device="cpu") for f in ("bert", "roberta", "albert", "gpt2")}


@pytest.mark.parametrize(("family", "method"), EVERY_METHOD)
def test_every_method_is_cached_resumable_and_incremental(models, family, method, tmp_path):
    lm = models[family]
    path = tmp_path / "cache.sqlite"
    calls: list[int] = []

    def stop_after_two_batches(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise _Interrupt

    with pytest.raises(_Interrupt):
        score_pairs(PAIRS, lm, method, cache=path, batch_size=4, progress=stop_after_two_batches)
    resumed = score_pairs(PAIRS, lm, method, cache=path, batch_size=4)
    assert resumed.stats.cache_hits == calls[-1] > 0
    fresh = score_pairs(PAIRS, lm, method, cache=tmp_path / "fresh.sqlite", batch_size=4)
    assert _scores(resumed) == _scores(fresh)  # bit for bit
    again = score_pairs(PAIRS, lm, method, cache=path, batch_size=4)
    assert again.stats.computed == 0 and _scores(again) == _scores(fresh)
    # a revision that rewrites one sentence recomputes that sentence's jobs only
    edited = PAIRS[1].with_changes(sent_less="The wealthy are really ignorant about money.")
    revised = score_pairs(
        [edited if p.pair_id == 1 else p for p in PAIRS], lm, method, cache=path, batch_size=4
    )
    (plan,) = plan_pairs([edited], lm, method)
    per_sentence = 1 if revised.stats.unit == "sentences" else len(plan.less_positions)
    assert revised.stats.computed == per_sentence


def test_methods_do_not_share_cached_numbers_unless_their_pass_is_the_same(models, tmp_path):
    lm = models["bert"]
    with open_cache(tmp_path / "cache.sqlite") as cache:
        pll = score_pairs(PAIRS, lm, "pll", cache=cache)
        for method in ("pll-word-l2r", "aul", "aula"):
            assert score_pairs(PAIRS, lm, method, cache=cache).stats.cache_hits == 0, method
        assert score_pairs(PAIRS, lm, "pll", cache=cache).stats.cache_hits == pll.stats.unique_jobs
        # a borrowed cache stays open for its owner
        assert cache.count() > 0


def test_per_token_logprobs_are_read_back_from_the_cache(models, tmp_path):
    path = tmp_path / "cache.sqlite"
    gpt2 = models["gpt2"]
    sentence = PAIRS[0].sent_more
    empty = token_logprobs(sentence, gpt2, "clm-sum", path)
    assert [t.logprob for t in empty] == [None] * len(empty)
    score_pairs(PAIRS[:1], gpt2, "clm-sum", cache=path)
    tokens = token_logprobs(sentence, gpt2, "clm-shared", path)  # same pass as clm-sum
    assert tokens[0].token == "<|endoftext|>" and tokens[0].logprob is None
    assert "".join(t.token for t in tokens[1:]).replace("Ġ", " ") == sentence
    (score,) = score_pairs(PAIRS[:1], gpt2, "clm-sum", cache=path).scores
    assert sum(t.logprob for t in tokens[1:]) == pytest.approx(score.sent_more_score, abs=1e-9)
    # pll: only the tokens shared with the partner sentence were scored
    bert = models["bert"]
    (pll,) = score_pairs(PAIRS[:1], bert, "pll", cache=path).scores
    masked = token_logprobs(sentence, bert, "pll", path)
    scored = [t.logprob for t in masked if t.logprob is not None]
    assert len(scored) == pll.n_masked
    assert masked[0].token == "[CLS]" and masked[0].logprob is None
    assert sum(scored) == pytest.approx(pll.sent_more_score, abs=1e-9)


def test_damage_past_the_schema_is_found_when_the_cache_opens(tmp_path: Path) -> None:
    """Pages damaged past the schema: opening checks every page, so the damage
    is one error before any model loads (issue 36), not at the first lookup after it."""
    path = tmp_path / "scores.sqlite"
    sentences = [f"{i:064x}" for i in range(2000)]
    with ScoreCache(path) as cache:
        cache.store(cache.register_context({"model": "m"}), [(s, 0, -1.5) for s in sentences])
    data = bytearray(path.read_bytes())
    half = len(data) // 2
    data[half:] = (bytes(range(256)) * (len(data) // 256 + 1))[: len(data) - half]
    path.write_bytes(bytes(data))
    with pytest.raises(CacheError, match=r"scores.sqlite: the score cache is damaged.*delete it"):
        ScoreCache(path)


def _damage_a_leaf_inside(path: Path, sentences: list[str], positions: int) -> str:
    """A cache of ``len(sentences) * positions`` rows whose middle leaf page of logprobs (not
    an edge of the table, which a read of each table's first and last rows would reach) is
    overwritten with garbage; returns the context key."""
    with ScoreCache(path) as cache:
        key = cache.register_context({"model": "m"})
        cache.store(key, [(s, p, -1.5) for s in sentences for p in range(positions)])
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = sorted(
            row[0]
            for row in db.execute(
                "SELECT pageno FROM dbstat WHERE name = 'logprobs' AND pagetype = 'leaf'"
            )
        )
    middle = pages[len(pages) // 2]
    data = bytearray(path.read_bytes())
    start = (middle - 1) * page_size
    data[start : start + page_size] = bytes(range(256)) * (page_size // 256)
    path.write_bytes(bytes(data))
    return key


def test_damage_deep_inside_a_large_table_is_refused_when_the_cache_opens(tmp_path: Path) -> None:
    """Issue 36 item 15: one damaged leaf in the middle of a 60,000-row table (its first and
    last rows intact) is one error naming the file when the cache opens, before any lookup."""
    path = tmp_path / "scores.sqlite"
    _damage_a_leaf_inside(path, [f"{i:064x}" for i in range(20_000)], 3)
    with pytest.raises(CacheError, match=r"scores.sqlite: the score cache is damaged.*delete it"):
        ScoreCache(path)


def test_damage_found_mid_run_names_the_cache(tmp_path: Path) -> None:
    """Damage that appears after the cache opened (another process, the disk) is one error
    naming the file at the first read that reaches it."""
    path = tmp_path / "scores.sqlite"
    sentences = [f"{i:064x}" for i in range(2000)]
    with ScoreCache(path) as cache:
        key = cache.register_context({"model": "m"})
    with ScoreCache(path) as cache:  # intact when opened
        _damage_a_leaf_inside(path, sentences, 3)
        with pytest.raises(CacheError, match=r"scores.sqlite: the score cache is damaged.*delete it"):
            cache.lookup(key, sentences)
        with pytest.raises(CacheError, match="damaged"):
            cache.count()


def test_resume_with_another_batch_size_matches_an_uninterrupted_run(lm, tmp_path):
    """Batch size moves the last float digits, so it is part of the cache key: a run resumed
    with another --batch-size computes its own rows and equals an uninterrupted run of it."""
    path = tmp_path / "cache.sqlite"

    def stop_after_two_batches(done: int, total: int) -> None:
        if done >= _first_batches(lm, 2):
            raise _Interrupt

    with pytest.raises(_Interrupt):
        score_pairs(PAIRS, lm, cache=path, batch_size=8, progress=stop_after_two_batches)
    other = score_pairs(PAIRS, lm, cache=path, batch_size=3)
    assert other.stats.cache_hits == 0
    assert _scores(other) == _scores(score_pairs(PAIRS, lm, batch_size=3))  # bit for bit
    again = score_pairs(PAIRS, lm, cache=path, batch_size=8)
    assert again.stats.cache_hits == _first_batches(lm, 2)
    assert _scores(again) == _scores(score_pairs(PAIRS, lm, batch_size=8))
    assert lm.context("pll", 8) != lm.context("pll", 3)


def test_export_ships_a_models_contexts_that_register_to_the_same_keys(tmp_path):
    """What a sweep driver sends a worker: the contexts of one label with their rows; a
    fresh cache that registers them again gets the same keys and numbers."""
    with ScoreCache(tmp_path / "cache.sqlite") as cache:
        mine = cache.register_context({"method": "pll", "model": "a"}, label="models/bert")
        other = cache.register_context({"method": "pll", "model": "b"}, label="gpt2")
        cache.store(mine, [("s1", 1, -0.5), ("s1", 2, -1.25)])
        cache.store(other, [("s2", 1, -3.0)])
        exported = cache.export("models/bert")
        assert cache.export(lambda label: label.startswith("models/")) == exported
    assert len(exported) == 1
    with ScoreCache(None) as copy:
        description, rows = exported[0]
        fields = json.loads(description)
        key = copy.register_context(fields, fields.pop("label"))
        copy.store(key, rows)
        assert key == mine
        assert copy.lookup(mine, ["s1"]) == {("s1", 1): -0.5, ("s1", 2): -1.25}
