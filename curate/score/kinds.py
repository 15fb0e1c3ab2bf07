"""A model's kind, masked or causal, told from its config without loading it.

The sweep's driver asks for every model's kind to plan its columns, and it never scores: it
must not import torch or transformers (issue 32: importing them and ``AutoConfig`` cost the
driver of a Ray sweep ~7 s of CPU, more than the tiny jobs it dispatched). A local model folder
(what ``save_pretrained`` writes) says its kind in ``config.json``: :func:`config_json_kind`
reads it with :mod:`json` and makes the decision of :func:`kind_of_config` (the saved
``architectures``, then the model type). Only when that file settles the question beyond doubt
(a model type that transformers registers, no remote code, well-formed fields) is its answer
taken; anything else (a hub id, a malformed or odd config) goes to transformers' ``AutoConfig``
as before, so the answer and the errors are those of ``AutoConfig`` in every case.

No torch here, and transformers only inside the fallback.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from curate.errors import CurateError, InputError
from curate.jsonl import loads_document
from curate.modelnames import looks_like_path

#: The two kinds of language model the scoring methods are defined for.
ModelKind = Literal["masked", "causal"]

#: Model types (``model_type`` of config.json, the keys of transformers' ``CONFIG_MAPPING``)
#: and the kind :func:`kind_of_config` gives them when ``architectures`` does not decide:
#: masked when transformers registers the type with ``AutoModelForMaskedLM`` (BERT and
#: RoBERTa also have a causal head; masked wins, as there), else causal. A config of another
#: type goes to transformers. ``tests/test_score_kinds.py`` checks every entry against the
#: installed transformers' registrations.
KNOWN_MODEL_TYPES: dict[str, ModelKind] = {
    "albert": "masked",
    "bert": "masked",
    "camembert": "masked",
    "deberta": "masked",
    "deberta-v2": "masked",
    "distilbert": "masked",
    "electra": "masked",
    "mobilebert": "masked",
    "modernbert": "masked",
    "mpnet": "masked",
    "roberta": "masked",
    "xlm-roberta": "masked",
    "bloom": "causal",
    "falcon": "causal",
    "gemma": "causal",
    "gpt2": "causal",
    "gpt_neo": "causal",
    "gpt_neox": "causal",
    "gptj": "causal",
    "llama": "causal",
    "mistral": "causal",
    "opt": "causal",
    "phi": "causal",
    "qwen2": "causal",
}


class ModelError(CurateError):
    """A model or tokenizer cannot be loaded or cannot be used for the requested scoring."""


def model_source(name_or_path: str | Path) -> str:
    """The directory or hub name to load from; a missing local path is an input error."""
    name = str(name_or_path)
    local = Path(name).expanduser()
    if not local.exists() and (isinstance(name_or_path, Path) or looks_like_path(name)):
        raise InputError(f"{name}: no such model directory")
    return str(local) if local.exists() else name


def first_line(exc: Exception) -> str:
    """The first line of an exception's text (its type's name when it has none), with the next
    line when the first only announces it ("Validation error for field 'hidden_size':")."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


def _kind_of(
    architectures: Any, model_type: Any, kind_of_type: Callable[[Any], ModelKind | None]
) -> ModelKind | None:
    """The decision of :func:`kind_of_config`; ``kind_of_type``: the kind the auto classes
    register a model type for (masked first), or None."""
    for architecture in architectures or ():
        if architecture.endswith("ForMaskedLM"):
            return "masked"
        if architecture.endswith(("ForCausalLM", "LMHeadModel")):
            return "causal"
    return kind_of_type(model_type)


def kind_of_config(config: Any) -> ModelKind | None:
    """``masked`` or ``causal`` from a transformers config, or None when neither applies.

    The saved ``architectures`` decide (``BertForMaskedLM`` vs ``GPT2LMHeadModel``); without
    them, the model type's registration with the auto classes (a BERT config is registered for
    both, and is taken as masked, the head it is trained with).
    """
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    def registered(model_type: Any) -> ModelKind | None:
        if model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
            return "masked"
        if model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
            return "causal"
        return None

    return _kind_of(
        getattr(config, "architectures", None), getattr(config, "model_type", ""), registered
    )


def config_json_kind(folder: str | Path) -> ModelKind | None:
    """The kind :func:`kind_of_config` gives the config saved in ``folder``/config.json, read
    as JSON; None whenever transformers might answer otherwise or fail: no such file, not
    JSON, not an object, remote code (``auto_map``), a model type outside
    :data:`KNOWN_MODEL_TYPES` (transformers may not know it, or guess it from the folder's
    name), ``architectures`` not a list of names, or neither kind."""
    path = Path(folder) / "config.json"
    try:
        if not path.is_file():
            return None
        document = loads_document(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or "auto_map" in document:
        return None
    model_type = document.get("model_type")
    if not isinstance(model_type, str) or model_type not in KNOWN_MODEL_TYPES:
        return None
    architectures = document.get("architectures")
    if architectures is not None and not (
        isinstance(architectures, list) and all(isinstance(a, str) for a in architectures)
    ):
        return None
    return _kind_of(architectures, model_type, KNOWN_MODEL_TYPES.get)


def model_kind(name_or_path: str | Path) -> ModelKind:
    """The kind of a model from its config alone (cheap: no weights are read): a local
    folder's config.json when it settles it (:func:`config_json_kind`), else transformers'
    ``AutoConfig``."""
    name = str(name_or_path)
    source = model_source(name_or_path)
    if Path(source).is_dir():
        kind = config_json_kind(source)
        if kind is not None:
            return kind
    return _auto_config_kind(name, source)


def loading_errors() -> tuple[type[Exception], ...]:
    """The exceptions by which transformers says a model folder or hub id cannot be read.

    Beside the usual ``OSError``/``ValueError``, transformers 5 checks a config's fields with
    huggingface_hub's strict dataclasses: ``"hidden_size": "abc"`` in config.json raises a
    ``StrictDataclassError``, which is none of them (a traceback before this list had it)."""
    from huggingface_hub.errors import StrictDataclassError

    return (OSError, ValueError, KeyError, TypeError, StrictDataclassError)


def _auto_config_kind(name: str, source: str) -> ModelKind:
    """The kind through transformers' ``AutoConfig`` (hub ids, and configs config.json alone
    does not settle), with its errors as a :class:`ModelError`."""
    from transformers import AutoConfig

    try:
        config = AutoConfig.from_pretrained(source)
    except loading_errors() as exc:
        raise ModelError(f"cannot load language model {name!r}: {first_line(exc)}") from None
    kind = kind_of_config(config)
    if kind is None:
        raise ModelError(
            f"{name}: its config ({getattr(config, 'model_type', '?')}) is neither a masked nor "
            "a causal language model"
        )
    return kind
