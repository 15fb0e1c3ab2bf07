"""A model's kind from its config.json without transformers (issue 32), checked against the
answer (or the error) of transformers' ``AutoConfig``, which decided it before: for the test
suite's tiny models, the config.json of the real architectures, and odd or broken configs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from curate.errors import InputError
from curate.score import kinds
from curate.score.kinds import (
    KNOWN_MODEL_TYPES,
    ModelError,
    config_json_kind,
    kind_of_config,
    model_kind,
)
from tests.support.tiny_models import CAUSAL_FAMILIES, FAMILIES, tiny_model_dir


def through_auto_config(path: Path) -> str:
    """What ``model_kind`` answered before issue 32 (``AutoConfig``): the kind, or the error."""
    try:
        return kinds._auto_config_kind(str(path), str(path))
    except ModelError as exc:
        return f"error: {exc}"


def answer(path: Path) -> str:
    try:
        return model_kind(path)
    except ModelError as exc:
        return f"error: {exc}"


def save_config(folder: Path, document: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


@pytest.mark.parametrize("family", [*FAMILIES, *CAUSAL_FAMILIES])
def test_the_tiny_models_kind_is_read_from_config_json(family: str) -> None:
    folder = tiny_model_dir(family)
    expected = "causal" if family in CAUSAL_FAMILIES else "masked"
    assert config_json_kind(folder) == expected
    assert through_auto_config(folder) == expected


def test_a_local_folder_is_decided_without_transformers(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str, source: str) -> str:
        raise AssertionError(f"AutoConfig was asked about {name}")

    monkeypatch.setattr(kinds, "_auto_config_kind", refuse)
    assert model_kind(tiny_model_dir("bert")) == "masked"
    assert model_kind(str(tiny_model_dir("gpt2"))) == "causal"


#: (transformers config class, the head saved in ``architectures``, its kind).
REAL_ARCHITECTURES = [
    ("BertConfig", "BertForMaskedLM", "masked"),
    ("RobertaConfig", "RobertaForMaskedLM", "masked"),
    ("AlbertConfig", "AlbertForMaskedLM", "masked"),
    ("DistilBertConfig", "DistilBertForMaskedLM", "masked"),
    ("XLMRobertaConfig", "XLMRobertaForMaskedLM", "masked"),
    ("ElectraConfig", "ElectraForMaskedLM", "masked"),
    ("GPT2Config", "GPT2LMHeadModel", "causal"),
    ("GPTNeoConfig", "GPTNeoForCausalLM", "causal"),
    ("OPTConfig", "OPTForCausalLM", "causal"),
    ("LlamaConfig", "LlamaForCausalLM", "causal"),
    ("MistralConfig", "MistralForCausalLM", "causal"),
    ("BertConfig", "BertLMHeadModel", "causal"),
    ("RobertaConfig", "RobertaForCausalLM", "causal"),
]


@pytest.mark.parametrize(("config_class", "head", "kind"), REAL_ARCHITECTURES)
@pytest.mark.parametrize("with_architectures", [True, False])
def test_real_architectures_config_json_give_auto_configs_kind(
    tmp_path: Path, config_class: str, head: str, kind: str, with_architectures: bool
) -> None:
    """Each family's config.json as ``save_pretrained`` writes it, with and without
    ``architectures`` (then the model type decides: masked when registered as such)."""
    import transformers

    config = getattr(transformers, config_class)(
        architectures=[head] if with_architectures else None
    )
    folder = tmp_path / "model"
    config.save_pretrained(folder)
    expected = through_auto_config(folder)
    if with_architectures:
        assert expected == kind
    assert config_json_kind(folder) == expected
    assert answer(folder) == expected


@pytest.mark.parametrize("model_type", sorted(KNOWN_MODEL_TYPES))
def test_every_known_model_type_is_registered_by_transformers_as_said(model_type: str) -> None:
    """The table must give transformers' own decision: a type it knows, whose config class has
    that type, and masked/causal as ``kind_of_config`` registers it."""
    from transformers import CONFIG_MAPPING

    config = CONFIG_MAPPING[model_type]()
    assert config.model_type == model_type
    config.architectures = None
    assert kind_of_config(config) == KNOWN_MODEL_TYPES[model_type]


@pytest.mark.parametrize(
    ("name", "document"),
    [
        # a head that is neither: the model type decides
        ("bert", {"model_type": "bert", "architectures": ["BertModel"]}),
        ("gpt2", {"model_type": "gpt2", "architectures": ["GPT2Model"]}),
        ("bert-next", {"model_type": "bert", "architectures": ["BertForNextSentencePrediction"]}),
        # no model type: AutoConfig guesses it from the folder's name, or fails
        ("bert", {"architectures": ["BertForMaskedLM"], "vocab_size": 10}),
        ("nothing", {"architectures": ["BertForMaskedLM"], "vocab_size": 10}),
        # a type the table does not hold: transformers decides (T5: neither kind)
        ("t5", {"model_type": "t5", "architectures": ["T5ForConditionalGeneration"]}),
        ("t5-bare", {"model_type": "t5"}),
        # a type nobody knows
        ("unknown", {"model_type": "no-such-type", "architectures": ["BertForMaskedLM"]}),
        # architectures as one string, not a list
        ("string", {"model_type": "bert", "architectures": "GPT2LMHeadModel"}),
    ],
)
def test_configs_config_json_does_not_settle_get_auto_configs_answer(
    tmp_path: Path, name: str, document: dict
) -> None:
    folder = save_config(tmp_path / name, document)
    assert answer(folder) == through_auto_config(folder)


def test_a_config_without_architectures_is_decided_by_its_model_type(tmp_path: Path) -> None:
    masked = save_config(tmp_path / "a", {"model_type": "distilbert"})
    causal = save_config(tmp_path / "b", {"model_type": "opt"})
    assert config_json_kind(masked) == "masked" == through_auto_config(masked)
    assert config_json_kind(causal) == "causal" == through_auto_config(causal)


@pytest.mark.parametrize(
    "text",
    [
        '{"model_type": "bert", "architectures": ["BertForMaskedLM"]',  # cut short
        "not json at all",
        '["BertForMaskedLM"]',
        "",
    ],
)
def test_a_malformed_config_json_gives_auto_configs_error(tmp_path: Path, text: str) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "config.json").write_text(text, encoding="utf-8")
    assert config_json_kind(folder) is None
    expected = through_auto_config(folder)
    assert expected.startswith("error: cannot load language model")
    with pytest.raises(ModelError) as caught:
        model_kind(folder)
    assert f"error: {caught.value}" == expected


def test_remote_code_and_a_folder_without_config_go_to_transformers(tmp_path: Path) -> None:
    remote = save_config(
        tmp_path / "remote",
        {
            "model_type": "bert",
            "architectures": ["BertForMaskedLM"],
            "auto_map": {"AutoConfig": "configuration_x.XConfig"},
        },
    )
    assert config_json_kind(remote) is None
    assert answer(remote) == through_auto_config(remote)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert config_json_kind(empty) is None
    assert answer(empty).startswith("error: cannot load language model")
    assert answer(empty) == through_auto_config(empty)


def test_a_missing_local_folder_is_an_input_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="models/bret: no such model directory"):
        model_kind("./models/bret")


def test_a_copied_folder_keeps_its_kind(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(tiny_model_dir("roberta"), copy)
    assert model_kind(copy) == "masked" == through_auto_config(copy)
