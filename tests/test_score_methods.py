"""Every scoring method equals an independent reference implementation, per sentence.

* ``clm-sum`` / ``clm-shared`` / ``clm-mean-prefixed``: a literal port of lm-evaluation-harness's
  log-likelihood (BOS prefix) on a tiny GPT-2 with a byte-level BPE tokenizer; ``clm-mean``: a
  port of bias-bench's ``_joint_log_probability`` (tests/test_score_peers.py compares every
  method with its peer through the CLI, with the peers' tie rules);
* ``aul`` / ``aula``: a literal port of Kaneko & Bollegala's ``calculate_aul``;
* ``pll-word-l2r``: minicons' own ``within_word_l2r`` scorer, on models whose small vocabulary
  splits most words (so the method differs from ``pll``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from curate.datasets import read_pairs
from curate.errors import UsageError
from curate.pairs import Pair
from curate.score.engine import score_pairs
from curate.score.kinds import model_kind
from curate.score.methods import METHODS, methods_for_model, parse_methods
from curate.score.models import CausalLM, MaskedLM, load_model
from tests.support import reference_aul, reference_clm, reference_l2r
from tests.support.reference_pll import get_span
from tests.support.tiny_models import FAMILIES, SAMPLE_PAIRS, single_thread, tiny_model_dir

UNCASED = {"bert": True, "roberta": False, "albert": True}
TOLERANCE = 1e-4


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def crows_sample(crows_pairs_path: Path) -> list[Pair]:
    """Every 60th real CrowS-Pairs pair (26 pairs of all bias types and both directions)."""
    return read_pairs(crows_pairs_path)[::60]


@pytest.fixture(scope="module")
def gpt2() -> CausalLM:
    lm = load_model(tiny_model_dir("gpt2"), device="cpu")
    assert isinstance(lm, CausalLM)
    return lm


def _assert_close(result, expected) -> None:
    for score, (more, less) in zip(result.scores, expected, strict=True):
        assert score.sent_more_score == pytest.approx(more, abs=TOLERANCE), score.pair_id
        assert score.sent_less_score == pytest.approx(less, abs=TOLERANCE), score.pair_id


# --------------------------------------------------------------------------- causal LMs


def _harness(path: Path, pairs: list[Pair]):
    """Per pair: the harness's (sum, per-token list) for sent_more and sent_less."""
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    model.eval()
    max_length = model.config.n_positions
    return [
        (
            reference_clm.loglikelihood(model, tokenizer, p.sent_more, max_length),
            reference_clm.loglikelihood(model, tokenizer, p.sent_less, max_length),
        )
        for p in pairs
    ]


def _shared_sums(pair: Pair, path: Path, more_tokens: list[float], less_tokens: list[float]):
    """clm-shared from the harness's per-token numbers and metric.py's get_span alignment."""
    tokenizer = AutoTokenizer.from_pretrained(path)
    more_ids = torch.tensor(reference_clm.tok_encode(tokenizer, pair.sent_more))
    less_ids = torch.tensor(reference_clm.tok_encode(tokenizer, pair.sent_less))
    if pair.direction == "stereo":
        more_span, less_span = get_span(more_ids, less_ids)
    else:
        less_span, more_span = get_span(less_ids, more_ids)
    return sum(more_tokens[i] for i in more_span), sum(less_tokens[i] for i in less_span)


@pytest.mark.parametrize("source", ["sample", "crows"])
def test_causal_methods_match_the_harness_port(gpt2, source, crows_sample):
    pairs = list(SAMPLE_PAIRS) if source == "sample" else crows_sample
    path = tiny_model_dir("gpt2")
    expected = _harness(path, pairs)
    assert gpt2.prefix_token_id == gpt2.tokenizer.convert_tokens_to_ids("<|endoftext|>")
    # batch size 3 mixes lengths in a batch, so right padding is exercised
    total = score_pairs(pairs, gpt2, "clm-sum", batch_size=3)
    _assert_close(total, [(m[0], s[0]) for m, s in expected])
    prefixed = score_pairs(pairs, gpt2, "clm-mean-prefixed", batch_size=3)
    _assert_close(
        prefixed, [(sum(m[1]) / len(m[1]), sum(s[1]) / len(s[1])) for m, s in expected]
    )
    # clm-mean is bias-bench's: no prefix token before the sentence's second token on
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    bias_bench = reference_clm.likelihood_score_generative(pairs, model, gpt2.tokenizer)
    mean = score_pairs(pairs, gpt2, "clm-mean", batch_size=3)
    for score, (more, less, verdict) in zip(mean.scores, bias_bench["rows"], strict=True):
        assert score.sent_more_score == pytest.approx(more, rel=1e-5), score.pair_id
        assert score.sent_less_score == pytest.approx(less, rel=1e-5), score.pair_id
        assert score.score == verdict, score.pair_id
    shared = score_pairs(pairs, gpt2, "clm-shared", batch_size=3)
    _assert_close(
        shared, [_shared_sums(p, path, m[1], s[1]) for p, (m, s) in zip(pairs, expected, strict=True)]
    )
    # the shared-token sum is a different number whenever the sentences differ
    assert any(
        abs(a.sent_more_score - b.sent_more_score) > 1e-3
        for a, b in zip(total.scores, shared.scores, strict=True)
    )
    verdicts = [reference_clm.process_results(m[0], s[0])["pct_stereotype"] for m, s in expected]
    assert [s.score for s in total.scores] == verdicts


def test_causal_methods_share_one_cached_pass(gpt2, tmp_path):
    cache = tmp_path / "cache.sqlite"
    first = score_pairs(SAMPLE_PAIRS, gpt2, "clm-sum", cache=cache)
    assert first.stats.computed == first.stats.unique_jobs > 0
    assert first.stats.unit == "sentences"
    for method in ("clm-mean-prefixed", "clm-shared", "clm-sum"):
        again = score_pairs(SAMPLE_PAIRS, gpt2, method, cache=cache)
        assert again.stats.computed == 0, method
    assert score_pairs(SAMPLE_PAIRS, gpt2, "clm-sum", cache=cache).scores == first.scores
    # bias-bench's clm-mean conditions otherwise: its own pass, never the prefixed numbers
    mean = score_pairs(SAMPLE_PAIRS, gpt2, "clm-mean", cache=cache)
    assert mean.stats.computed == mean.stats.unique_jobs > 0
    assert score_pairs(SAMPLE_PAIRS, gpt2, "clm-mean", cache=cache).stats.computed == 0


def test_shared_prefix_equals_the_unshared_computation(gpt2, crows_sample):
    """Packing a pair's two sentences into one row (common prefix once) changes nothing."""
    from curate.score.passes import next_token_logprobs
    from curate.score.plan import encode, plan_jobs, plan_pairs

    assert gpt2.packs_pairs  # checked on a probe at load
    pairs = [*SAMPLE_PAIRS, *crows_sample]
    jobs = plan_jobs(plan_pairs(pairs, gpt2, "clm-sum"), "clm-sum")
    assert sum(bool(j.partner) for j in jobs) >= len(jobs) - 2  # () only for identical pairs
    sequences = [j.ids for j in jobs]
    for start in (0, 1):  # after the prefix token (clm-sum) and without it (clm-mean)
        trimmed = [s[start:] for s in sequences]
        packed = next_token_logprobs(gpt2, trimmed, pack=True)
        alone = [next_token_logprobs(gpt2, [s], pack=False)[0] for s in trimmed]
        for p, a in zip(packed, alone, strict=True):
            assert p == pytest.approx(a, abs=1e-5)
    # partners sit side by side, so pairs share their prefix (the prefix token at least)
    ids, _ = encode(gpt2, pairs[0].sent_more, METHODS["clm-sum"])
    index = sequences.index(ids)
    assert jobs[index].partner in (sequences[index - 1], sequences[index + 1])


# --------------------------------------------------------------------------- AUL / AULA


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("method", ["aul", "aula"])
def test_aul_and_aula_match_kaneko_and_bollegala(family, method, crows_sample):
    path = tiny_model_dir(family)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = reference_aul.load_reference_model(path)
    pairs = [*SAMPLE_PAIRS, *crows_sample]
    expected = [
        reference_aul.reference_pair_scores(p, model, tokenizer, UNCASED[family], method == "aula")
        for p in pairs
    ]
    lm = load_model(path, device="cpu")
    attention = lm.model.config._attn_implementation
    result = score_pairs(pairs, lm, method, batch_size=7)
    _assert_close(result, expected)
    assert result.stats.unique_jobs <= 2 * len(pairs)  # one pass per distinct sentence
    assert lm.model.config._attn_implementation == attention  # AULA's eager switch undone


def test_aula_is_not_aul(tmp_path):
    lm = load_model(tiny_model_dir("bert"), device="cpu")
    aul = score_pairs(SAMPLE_PAIRS, lm, "aul")
    aula = score_pairs(SAMPLE_PAIRS, lm, "aula")
    assert all(
        abs(a.sent_more_score - b.sent_more_score) > 1e-3
        for a, b in zip(aul.scores, aula.scores, strict=True)
    )


# --------------------------------------------------------------------------- PLL within-word l2r


@pytest.mark.parametrize("family", FAMILIES)
def test_pll_word_l2r_matches_minicons(family, crows_sample):
    path = tiny_model_dir(family, vocab_size=200)
    lm = load_model(path, device="cpu")
    mc = reference_l2r.minicons_scorer(path)
    # a 200-token vocabulary makes long sentences longer than the 128 positions: keep the rest
    fits = [
        p
        for p in crows_sample
        if max(len(lm.tokenizer.encode(s)) for s in (p.sent_more, p.sent_less)) <= lm.max_length
    ]
    pairs = [*SAMPLE_PAIRS, *fits[:10]]
    expected = [reference_l2r.reference_pair_scores(mc, p, UNCASED[family]) for p in pairs]
    result = score_pairs(pairs, lm, "pll-word-l2r", batch_size=7)
    _assert_close(result, expected)
    plain = score_pairs(pairs, lm, "pll", batch_size=7)
    # with a 200-token vocabulary words are split, so masking the rest of the word matters
    differ = sum(
        abs(a.sent_more_score - b.sent_more_score) > 1e-3
        for a, b in zip(result.scores, plain.scores, strict=True)
    )
    assert differ >= len(pairs) // 2


# --------------------------------------------------------------------------- kinds and names


def test_model_kind_comes_from_the_config():
    assert model_kind(tiny_model_dir("gpt2")) == "causal"
    for family in FAMILIES:
        assert model_kind(tiny_model_dir(family)) == "masked"
    assert isinstance(load_model(tiny_model_dir("bert"), device="cpu"), MaskedLM)


def test_a_method_that_does_not_fit_names_those_that_do(gpt2):
    with pytest.raises(UsageError, match=r"causal language model.*clm-sum, clm-mean, clm-shared"):
        score_pairs(SAMPLE_PAIRS[:1], gpt2, "pll")
    with pytest.raises(UsageError, match=r"pll, pll-word-l2r, aul, aula"):
        methods_for_model(["aul", "clm-sum"], "masked", "bert")
    assert [m.name for m in methods_for_model([], "causal", "g")] == [
        "clm-sum",
        "clm-mean",
        "clm-shared",
    ]


def test_method_names_parse_from_repeats_and_comma_lists():
    assert parse_methods(["pll,aul", " aula ", "pll"]) == ("pll", "aul", "aula")
    with pytest.raises(UsageError, match="unknown scoring method 'ppl'"):
        parse_methods(["ppl"])
    assert set(METHODS) == {
        "pll",
        "pll-word-l2r",
        "aul",
        "aula",
        "clm-sum",
        "clm-mean",
        "clm-shared",
        "clm-mean-prefixed",
        "stereoset-mlm",  # StereoSet files only (tests/test_stereoset_score.py)
        "stereoset-clm",
        "stereoset-mlm-biasbench",  # (tests/test_stereoset_routes.py)
        "stereoset-pll",
        "stereoset-clm-context-ratio",
        "stereoset-clm-conditional",
        "winogender-clm",  # WinoGender folders only (tests/test_winogender_scoring.py)
        "winogender-mlm",
    }


def test_provenance_names_the_method_and_its_tokens(gpt2):
    result = score_pairs(SAMPLE_PAIRS[:2], gpt2, "clm-shared")
    provenance = result.provenance()
    assert provenance["method"] == "clm-shared"
    assert provenance["model_kind"] == "causal"
    assert provenance["tokens"] == "unmodified" and provenance["reduction"] == "sum"
    assert "shared with the other sentence" in provenance["counted"]
    prefixed = score_pairs(SAMPLE_PAIRS[:2], gpt2, "clm-mean-prefixed").provenance()
    assert prefixed["counted"].startswith(
        "every token of the sentence, each conditioned on the prefix"
    )
    mean = score_pairs(SAMPLE_PAIRS[:2], gpt2, "clm-mean").provenance()
    assert "without the prefix token (bias-bench)" in mean["counted"]
    assert "bias-bench" in mean["equals"] and "exactly equal" in mean["tie_rule"]
    assert mean["method_pass"] != prefixed["method_pass"]
    assert score_pairs(SAMPLE_PAIRS[:2], gpt2).method == "clm-sum"  # the causal default


def test_several_models_get_the_requested_methods_that_fit_them():
    """One --method list for masked and causal models (curate score and diff-report alike)."""
    from curate.score.run import fit_methods

    chosen = fit_methods(["bert", "gpt2"], ["masked", "causal"], ["pll", "aul", "clm-sum"])
    assert [[m.name for m in ms] for ms in chosen] == [["pll", "aul"], ["clm-sum"]]
    with pytest.raises(UsageError, match=r"gpt2 is a causal language model"):
        fit_methods(["bert", "gpt2"], ["masked", "causal"], ["pll"])  # nothing fits gpt2
    with pytest.raises(UsageError, match=r"clm-sum"):
        fit_methods(["bert"], ["masked"], ["pll", "clm-sum"])  # clm-sum fits no model given
