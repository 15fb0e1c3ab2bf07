"""The fast scorer gives the numbers of the original metric.py on three tokenizer families."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import torch
from transformers import AutoModelForMaskedLM, AutoTokenizer

from curate.datasets import read_pairs
from curate.errors import InputError, UsageError
from curate.pairs import Pair
from curate.score import pll
from curate.score.pll import (
    PrecisionWarning,
    SentenceTooLongError,
    batch_jobs,
    load_model,
    plan_jobs,
    plan_pairs,
    score_pairs,
    unmodified_positions,
)
from tests.support.reference_pll import reference_pair_scores
from tests.support.tiny_models import FAMILIES, SAMPLE_PAIRS, single_thread, tiny_model_dir

#: metric.py hard-codes the casing per model: BERT and ALBERT uncased, RoBERTa cased.
UNCASED = {"bert": True, "roberta": False, "albert": True}
TOLERANCE = 1e-4


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def models() -> dict[str, Path]:
    return {family: tiny_model_dir(family) for family in FAMILIES}


@pytest.fixture(scope="module")
def crows_sample(crows_pairs_path: Path) -> list[Pair]:
    """Every 60th real CrowS-Pairs pair (26 pairs of all bias types and both directions)."""
    return read_pairs(crows_pairs_path)[::60]


def _reference(path: Path, pairs: list[Pair], uncased: bool) -> list[tuple[float, float]]:
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForMaskedLM.from_pretrained(path, dtype=torch.float32)
    model.eval()
    return [reference_pair_scores(p, model, tokenizer, uncased) for p in pairs]


def _assert_matches(result, expected) -> None:
    for score, (more, less) in zip(result.scores, expected, strict=True):
        assert score.sent_more_score == pytest.approx(more, abs=TOLERANCE), score.pair_id
        assert score.sent_less_score == pytest.approx(less, abs=TOLERANCE), score.pair_id


@pytest.mark.parametrize("family", FAMILIES)
def test_matches_reference_on_sample_pairs(models, family):
    lm = load_model(models[family], device="cpu")
    assert lm.head_mode == "mask-only"
    assert lm.lowercase is UNCASED[family]
    pairs = list(SAMPLE_PAIRS)
    # batch size 7 mixes lengths in a batch, so padding and attention masks are exercised
    result = score_pairs(pairs, lm, batch_size=7)
    _assert_matches(result, _reference(models[family], pairs, UNCASED[family]))
    assert all(s.sent_more_score < 0 for s in result.scores if s.n_masked)


@pytest.mark.parametrize("family", FAMILIES)
def test_matches_reference_on_real_crows_pairs(models, family, crows_sample):
    result = score_pairs(crows_sample, load_model(models[family], device="cpu"), batch_size=16)
    _assert_matches(result, _reference(models[family], crows_sample, UNCASED[family]))


def test_full_logits_fallback_gives_the_same_numbers(models):
    lm = load_model(models["bert"], device="cpu")
    fast = score_pairs(SAMPLE_PAIRS, lm, batch_size=5)
    lm.head = None
    assert lm.head_mode == "full-logits"
    slow = score_pairs(SAMPLE_PAIRS, lm, batch_size=5)
    for a, b in zip(fast.scores, slow.scores, strict=True):
        assert a.sent_more_score == pytest.approx(b.sent_more_score, abs=1e-5)
        assert a.sent_less_score == pytest.approx(b.sent_less_score, abs=1e-5)


def test_batch_size_does_not_change_scores(models):
    lm = load_model(models["roberta"], device="cpu")
    one = score_pairs(SAMPLE_PAIRS[:4], lm, batch_size=1)
    many = score_pairs(SAMPLE_PAIRS[:4], lm, batch_size=128)
    for a, b in zip(one.scores, many.scores, strict=True):
        assert a.sent_more_score == pytest.approx(b.sent_more_score, abs=1e-5)
    assert one.stats.batches == one.stats.computed
    assert many.stats.batches < one.stats.computed / 4


def test_worker_threads_do_not_change_a_single_bit(models):
    lm = load_model(models["albert"], device="cpu")
    one = score_pairs(SAMPLE_PAIRS, lm, batch_size=8, threads=1)
    two = score_pairs(SAMPLE_PAIRS, lm, batch_size=8, threads=2)
    assert one.scores == two.scores
    assert torch.get_num_threads() == 1  # restored after the run (the module runs on one)
    with pytest.raises(UsageError, match="threads"):
        score_pairs(SAMPLE_PAIRS[:1], lm, threads=0)


def test_model_accepts_a_name_and_reports_provenance(models):
    result = score_pairs(SAMPLE_PAIRS[:2], str(models["albert"]), device="cpu")
    assert result.model == str(models["albert"])
    assert result.method == "pll"
    assert result.provenance()["method_pass"] == pll.METHOD == "crows-pairs-pll/1"
    assert result.dtype == "float32"
    assert len(result.model_fingerprint) == len(result.tokenizer_fingerprint) == 64
    assert set(result.provenance()) >= {"model", "model_fingerprint", "dtype", "lowercase"}
    assert result.by_id()[1].pair_id == 1


def test_unmodified_positions_follow_metric_py():
    # [CLS] women don't drive [SEP] vs [CLS] men don't drive [SEP]
    a, b = unmodified_positions([101, 7, 8, 9, 102], [101, 6, 8, 9, 102])
    assert (a, b) == ([2, 3], [2, 3])
    # an inserted token shifts the positions of the second sentence
    a, b = unmodified_positions([101, 7, 8, 9, 102], [101, 7, 5, 8, 9, 102])
    assert (a, b) == ([1, 2, 3], [1, 3, 4])
    # identical sentences: every token but the special ones
    assert unmodified_positions([1, 2, 3, 4], [1, 2, 3, 4]) == ([1, 2], [1, 2])
    # nothing shared but the special tokens: nothing to mask
    assert unmodified_positions([1, 5, 2], [1, 6, 2]) == ([], [])


def test_alignment_uses_the_stereotypical_sentence_first(models):
    lm = load_model(models["bert"], device="cpu")
    pair = SAMPLE_PAIRS[3]  # an antistereo pair: sent_less is the stereotypical sentence
    assert pair.direction == "antistereo"
    (plan,) = plan_pairs([pair], lm)
    less, more = unmodified_positions(plan.less_ids, plan.more_ids)
    assert (plan.more_positions, plan.less_positions) == (tuple(more), tuple(less))


def test_identical_sentences_tie(models):
    result = score_pairs([SAMPLE_PAIRS[6]], load_model(models["bert"], device="cpu"))
    (score,) = result.scores
    assert score.tie and score.score == 0
    assert result.stats.unique_jobs == score.n_masked  # the two sentences share their jobs


def test_jobs_are_deduplicated_and_sorted_longest_first(models):
    lm = load_model(models["bert"], device="cpu")
    plans = plan_pairs([*SAMPLE_PAIRS, *SAMPLE_PAIRS], lm)
    jobs = plan_jobs(plans)
    assert len(jobs) == len(set(jobs)) == len(plan_jobs(plans[: len(SAMPLE_PAIRS)]))
    lengths = [len(job.ids) for job in jobs]
    assert lengths == sorted(lengths, reverse=True)
    batches = batch_jobs(jobs, 10)
    assert [j for b in batches for j in b] == jobs
    assert all(1 <= len(b) <= 10 for b in batches)
    # at most 10% of a batch's rows are padding
    assert all(len(job.ids) >= 0.9 * len(b[0].ids) for b in batches for job in b)
    # without the padding rule: full batches, then the last one cut in pieces of ceil(10 / 4)
    sizes = [len(b) for b in batch_jobs(jobs, 10, max_padding=1.0)]
    tail = len(jobs) % 10 or 10
    assert sizes == [10] * ((len(jobs) - tail) // 10) + [3] * (tail // 3) + [tail % 3] * bool(
        tail % 3
    )
    # a suffix of the batches is what batching the remaining jobs gives (resume exactness)
    rest = [j for b in batches[3:] for j in b]
    assert batch_jobs(rest, 10) == batches[3:]
    with pytest.raises(UsageError):
        batch_jobs(jobs, 0)


def test_too_long_sentence_names_the_pair(models):
    lm = load_model(models["bert"], device="cpu")
    long = Pair(7, "word " * 300 + "end.", "short sentence.", "stereo", "age")
    with pytest.raises(SentenceTooLongError, match=r"pair 7: sent_more is \d+ tokens long"):
        score_pairs([SAMPLE_PAIRS[0], long], lm)
    assert issubclass(SentenceTooLongError, InputError)


@pytest.mark.parametrize("family", FAMILIES)
def test_longest_accepted_sentence_scores_and_one_more_token_fails(models, family):
    lm = load_model(models[family], device="cpu")
    assert lm.max_length == 128  # RoBERTa: 130 position embeddings minus the padding offset

    def sentence(total: int) -> str:
        words = ["the"] * (total - 2)
        while len(lm.tokenizer.encode(" ".join(words))) < total:
            words.append("the")
        return " ".join(words)

    longest = sentence(lm.max_length)
    assert len(lm.tokenizer.encode(longest)) == lm.max_length
    ok = Pair(1, longest, longest.replace("the", "a", 1), "stereo", "age")
    (score,) = score_pairs([ok], lm, batch_size=64).scores
    assert score.n_masked > 100
    too_long = Pair(2, "x", longest + " the", "stereo", "age")
    with pytest.raises(SentenceTooLongError, match=r"pair 2: sent_less is 129 tokens long"):
        score_pairs([too_long], lm)


def test_bfloat16_is_opt_in_and_warns(models):
    with pytest.warns(PrecisionWarning, match="bfloat16"):
        lm16 = load_model(models["bert"], device="cpu", dtype="bfloat16")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lm32 = load_model(models["bert"], device="cpu")
    r16 = score_pairs(SAMPLE_PAIRS[:3], lm16)
    r32 = score_pairs(SAMPLE_PAIRS[:3], lm32)
    assert r16.dtype == "bfloat16" and r32.dtype == "float32"
    for a, b in zip(r16.scores, r32.scores, strict=True):
        assert a.sent_more_score == pytest.approx(b.sent_more_score, abs=2.0)
    assert r16.model_fingerprint == r32.model_fingerprint  # dtype is a separate cache key


def test_bad_options_and_missing_models_are_user_errors(tmp_path):
    with pytest.raises(UsageError, match="dtype"):
        load_model(tmp_path, dtype="float16")
    with pytest.raises(UsageError, match="device"):
        pll.resolve_device("tpu")
    with pytest.raises(InputError, match="no such model directory"):
        load_model(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(pll.ModelError, match="cannot load"):
        load_model(tmp_path / "empty")


def test_fingerprints_are_stable_and_follow_the_weights(models, tmp_path):
    a = load_model(models["bert"], device="cpu")
    b = load_model(models["bert"], device="cpu")
    assert a.model_fingerprint == b.model_fingerprint
    assert a.tokenizer_fingerprint == b.tokenizer_fingerprint
    with torch.no_grad():
        b.model.cls.predictions.decoder.bias[0] += 1.0
    assert pll.model_fingerprint(b.model) != a.model_fingerprint
