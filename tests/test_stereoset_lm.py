"""StereoSet sentence scores on tiny random models equal the literal port of the official code,
and so do the LMS/SS/ICAT computed from them (to 1e-6)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from curate.benchmarks.stereoset.evaluation import stereoset_results
from curate.benchmarks.stereoset.io import item_of
from curate.benchmarks.stereoset.score_lm import (
    causal_continuation_scores,
    causal_sentence_scores,
    item_scores,
    masked_sentence_scores,
    template_word,
    uses_leading_space,
)
from curate.datasets import read_dataset
from tests.support import reference_stereoset as ref
from tests.support.stereoset_data import stereoset_document, write_stereoset
from tests.support.tiny_models import CORPUS, single_thread, tiny_model_dir


@pytest.fixture(scope="module")
def gold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An intrasentence-only file: the official evaluator needs scores for every item."""
    document = stereoset_document()
    document["data"]["intersentence"] = []
    return write_stereoset(tmp_path_factory.mktemp("stereoset") / "intra.json", document)


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_stereoset(tmp_path_factory.mktemp("stereoset") / "dev.json")


def _sentence_ids(path: Path) -> dict[tuple[str, str], str]:
    document = json.loads(path.read_text())
    return {
        (item["id"], s["gold_label"]): s["id"]
        for item in document["data"]["intrasentence"]
        for s in item["sentences"]
    }


def _check_chain(gold: Path, ours: dict[tuple[str, str], float], reference: list[dict]) -> None:
    ids = _sentence_ids(gold)
    by_sentence = {r["id"]: float(r["score"]) for r in reference}
    assert len(by_sentence) == len(ours) == len(ids)
    for key, sentence_id in ids.items():
        assert ours[key] == pytest.approx(by_sentence[sentence_id], rel=1e-5, abs=1e-7), key
    items = [item_of(p) for p in read_dataset(gold).pairs]
    results = stereoset_results(item_scores(items, ours))
    official = ref.ScoreEvaluator(str(gold), {"intrasentence": reference}).get_overall_results()
    for name, group in results.tasks["intrasentence"].items():
        expected = official["intrasentence"][name]
        assert group.lms == pytest.approx(expected["LM Score"], abs=1e-6)
        assert group.ss == pytest.approx(expected["SS Score"], abs=1e-6)
        assert group.icat == pytest.approx(expected["ICAT Score"], abs=1e-6)
    # a random model is not a perfect language model: the figures are not trivial
    assert 0 < results.overall.lms < 100 or 0 < results.overall.ss < 100


@pytest.mark.parametrize(
    ("context", "sentence", "word"),
    [
        ("The chess player was BLANK.", "The chess player was asian.", "asian"),
        ("The gentlemen were BLANK, (as always).", "The gentlemen were polite, (as always).", "polite"),
        ("BLANK people are here BLANK", "Many people are here today!", "today"),  # the last BLANK
        ("It is BLANK-ish.", "It is blue-ish.", "blueish"),  # all punctuation goes, as upstream
    ],
)
def test_template_word(context: str, sentence: str, word: str) -> None:
    assert template_word(context, sentence) == word


def test_template_word_errors() -> None:
    with pytest.raises(ValueError, match="no BLANK"):
        template_word("No blank here.", "No blank here.")
    with pytest.raises(ValueError, match="has no word where"):
        template_word("A b c BLANK", "A b")


@pytest.mark.parametrize("family", ["bert", "roberta"])
def test_masked_lm_scores_equal_the_official_loader(gold: Path, family: str) -> None:
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    directory = tiny_model_dir(family)
    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForMaskedLM.from_pretrained(directory).eval()
    items = [item_of(p) for p in read_dataset(gold).pairs]
    # template words the tiny vocabulary does not know split into several tokens
    lengths = [len(tokenizer.encode(template_word(i.context, i.unrelated), add_special_tokens=False)) for i in items]
    assert max(lengths) > 1
    with single_thread():
        ours = masked_sentence_scores(items, model, tokenizer, batch_size=7)
        reference = ref.evaluate_intrasentence_discriminative(model, tokenizer, str(gold))
    _check_chain(gold, ours, reference)


@pytest.mark.parametrize("family", ["bert", "roberta"])
def test_the_leading_space_variant_equals_bias_bench(gold: Path, family: str) -> None:
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    directory = tiny_model_dir(family)
    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForMaskedLM.from_pretrained(directory).eval()
    items = [item_of(p) for p in read_dataset(gold).pairs]
    with single_thread():
        ours = masked_sentence_scores(
            items, model, tokenizer, batch_size=7, leading_space=uses_leading_space(model)
        )
        bias_bench = ref.evaluate_intrasentence_discriminative(
            model, tokenizer, str(gold), bias_bench_model_name=f"tiny-{family}"
        )
        official = masked_sentence_scores(items, model, tokenizer, batch_size=7)
    _check_chain(gold, ours, bias_bench)
    # RoBERTa: the two loaders disagree on every sentence; BERT: they are the same computation
    same = [ours[k] == pytest.approx(official[k], rel=1e-5) for k in ours]
    assert all(same) if family == "bert" else not any(same)


def _tiny_gpt2():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Tokenizer

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS, trainer)
    tokenizer = GPT2Tokenizer(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>"
    )
    assert len(tokenizer) == tok.get_vocab_size() == 400
    assert tokenizer.encode(tokenizer.bos_token) == [0]
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=400, n_positions=128, n_embd=32, n_layer=2, n_head=2, initializer_range=0.3, bos_token_id=0, eos_token_id=0)
    return GPT2LMHeadModel(config).eval(), tokenizer


def test_causal_lm_scores_equal_the_official_generative_code(gold: Path) -> None:
    model, tokenizer = _tiny_gpt2()
    items = [item_of(p) for p in read_dataset(gold).pairs]
    with single_thread():
        ours = causal_sentence_scores(items, model, tokenizer, batch_size=4)
        reference = ref.evaluate_intrasentence_generative(model, tokenizer, str(gold))
    _check_chain(gold, ours, reference)


def test_causal_continuation_scores_condition_on_the_context(full: Path) -> None:
    model, tokenizer = _tiny_gpt2()
    items = list(read_dataset(full).intersentence)
    assert items
    with single_thread():
        scores = causal_continuation_scores(items, model, tokenizer, batch_size=2)
    item = items[0]
    context = tokenizer.encode(item.context)
    tokens = tokenizer.encode(f"{item.context} {item.stereotype}")
    with torch.no_grad():
        probs = model(torch.tensor([tokens])).logits[0].softmax(-1)
    expected = [probs[i - 1, tokens[i]].item() for i in range(len(context), len(tokens))]
    geometric = 2 ** (sum(math.log2(p) for p in expected) / len(expected))
    assert scores[(item.item_id, "stereotype")] == pytest.approx(geometric, rel=1e-6)
    assert len(scores) == 3 * len(items)
