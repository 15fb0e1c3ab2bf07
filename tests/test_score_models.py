"""Model loading guards: which names are local paths, and which tokenizers fit a model."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from curate.errors import InputError
from curate.modelnames import looks_like_path
from curate.score.kinds import ModelError
from curate.score.models import check_tokenizer_fits, load_model
from tests.support.tiny_models import tiny_model_dir


@pytest.mark.parametrize(
    "name",
    ["./bert", "../models/bert", "~/bert", "/opt/bert", "a/b/c", "models\\bert", ".bert"],
)
def test_names_shaped_like_paths_are_paths(name: str) -> None:
    assert looks_like_path(name)


@pytest.mark.parametrize("name", ["bert-base-uncased", "google-bert/bert-base-uncased", "gpt2"])
def test_hub_ids_are_not_paths(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert not looks_like_path(name)


def test_first_component_an_existing_directory_makes_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert not looks_like_path("models/bret")
    (tmp_path / "models").mkdir()
    assert looks_like_path("models/bret")


def test_mistyped_local_path_fails_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models").mkdir()
    with pytest.raises(InputError, match="models/bret: no such model directory"):
        load_model("models/bret", device="cpu")


def _copy_without_tokenizer(source: Path, target: Path) -> Path:
    target.mkdir()
    for item in source.iterdir():
        if "token" not in item.name and item.name not in {"vocab.txt", "special_tokens_map.json"}:
            shutil.copy2(item, target / item.name)
    return target


def test_directory_without_tokenizer_files_is_refused(tmp_path: Path) -> None:
    target = _copy_without_tokenizer(tiny_model_dir("bert"), tmp_path / "notok")
    with pytest.raises(ModelError, match=r"notok: the tokenizer has \d+ tokens"):
        load_model(target, device="cpu")


def test_tokenizer_rule_on_real_model_and_tokenizers() -> None:
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    model = AutoModelForMaskedLM.from_pretrained(tiny_model_dir("bert"))
    own = AutoTokenizer.from_pretrained(tiny_model_dir("bert"))
    check_tokenizer_fits("own", own, model)  # the model's own tokenizer fits
    small = AutoTokenizer.from_pretrained(tiny_model_dir("bert", vocab_size=200))
    assert len(small) < model.get_input_embeddings().num_embeddings / 2
    with pytest.raises(ModelError, match="embedding rows"):
        check_tokenizer_fits("small", small, model)
    small_model = AutoModelForMaskedLM.from_pretrained(tiny_model_dir("bert", vocab_size=200))
    with pytest.raises(ModelError, match="has token id"):
        check_tokenizer_fits("big", own, small_model)


def test_every_tiny_family_passes_the_rule() -> None:
    for family in ("bert", "roberta", "albert", "gpt2"):
        load_model(tiny_model_dir(family), device="cpu")


def test_partial_vocabulary_is_an_explicit_opt_in() -> None:
    """A benchmark may pair a full-size model with a smaller trained tokenizer whose ids fit."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    model = AutoModelForMaskedLM.from_pretrained(tiny_model_dir("bert"))
    small = AutoTokenizer.from_pretrained(tiny_model_dir("bert", vocab_size=200))
    check_tokenizer_fits("small", small, model, partial_vocabulary=True)
    small_model = AutoModelForMaskedLM.from_pretrained(tiny_model_dir("bert", vocab_size=200))
    own = AutoTokenizer.from_pretrained(tiny_model_dir("bert"))
    with pytest.raises(ModelError, match="has token id"):  # ids past the rows never fit
        check_tokenizer_fits("big", own, small_model, partial_vocabulary=True)


def test_a_checkpoint_without_the_mlm_head_is_refused(tmp_path: Path) -> None:
    """A BERT saved only as BertForNextSentencePrediction has no MLM head weights: loading it
    for MLM scoring would give a randomly initialised head, so it is refused in one sentence;
    the same weights with their MLM head (BertForPreTraining) load."""
    from transformers import AutoTokenizer, BertConfig, BertForNextSentencePrediction

    from tests.support.tiny_models import single_thread

    source = tiny_model_dir("bert")
    config = BertConfig.from_pretrained(source)
    config.architectures = ["BertForNextSentencePrediction"]
    target = tmp_path / "nsp-only"
    AutoTokenizer.from_pretrained(source).save_pretrained(target)
    BertForNextSentencePrediction(config).save_pretrained(target)
    with single_thread(), pytest.raises(ModelError) as caught:
        load_model(target)
    message = str(caught.value)
    assert "saved as BertForNextSentencePrediction" in message
    assert "no masked-LM head weights (cls.predictions." in message
    assert message.count(". ") == 0 and "\n" not in message
    with single_thread():
        assert load_model(source).kind == "masked"  # a checkpoint with its head still loads
