"""Loading a language model to score with: masked or causal, detected from its config.

:func:`load_model` returns a :class:`MaskedLM` (``AutoModelForMaskedLM``: BERT, RoBERTa,
ALBERT...) or a :class:`CausalLM` (``AutoModelForCausalLM``: GPT-2...), whichever kind the
model's config declares (:func:`~curate.score.kinds.model_kind`, which needs no torch). Both carry what every scoring method needs: the
model and tokenizer, the device and dtype, the casing rule, the longest input, and fingerprints
of the weights and the tokenizer, which key the score cache (so the same weights loaded from
another path share cached numbers, and changed weights never reuse stale ones).
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from curate.errors import UsageError
from curate.score.kinds import ModelError, first_line, loading_errors, model_kind, model_source
from curate.score.settings import DEVICES, DTYPE_NAMES

DTYPES: dict[str, torch.dtype] = {name: getattr(torch, name) for name in DTYPE_NAMES}
#: Measured with benchmarks/bench_pll.py --bf16 on a random BERT-base: see README "Scoring".
BF16_WARNING = (
    "bfloat16 moves sentence scores (by up to 0.085 on a BERT-base, flipping 4 of 40 pair "
    "verdicts) and is only faster on hardware with bfloat16 matrix units (on an AVX2-only CPU "
    "it was 7x slower); use float32, the default, for the metric"
)

#: Config keys that do not change the numbers (paths, versions, loading details).
_VOLATILE_CONFIG_KEYS = frozenset(
    {
        "_name_or_path",
        "_commit_hash",
        "transformers_version",
        "dtype",
        "torch_dtype",
        "_attn_implementation",
        "_attn_implementation_autoset",
        "_attn_implementation_internal",
        "output_hidden_states",
        "output_attentions",
        "return_dict",
    }
)
#: Architectures whose position ids start after the padding index (fairseq heritage).
_PADDING_OFFSET_MODELS = frozenset(
    {"roberta", "xlm-roberta", "xlm-roberta-xl", "camembert", "data2vec-text", "longformer"}
)


_log = logging.getLogger("curate.score")


def cased_lowercase_warning(name: str) -> str:
    """What is said when a cased model is asked to score lower-cased text (``--lowercase``)."""
    return (
        f"{name} is a cased model and --lowercase lower-cases the sentences it scores: it "
        "never saw such text, so its scores are not those of the sentences as written (the "
        "published French/Dutch CrowS-Pairs pipeline lower-cased for cased models too)"
    )


class PrecisionWarning(UserWarning):
    """Scores computed in reduced precision deviate from the float32 metric."""


@dataclass(eq=False)
class LoadedModel:
    """What every method needs of a loaded model: load it once, score many datasets."""

    name: str
    model: Any
    tokenizer: Any
    device: torch.device
    dtype: str
    lowercase: bool
    max_length: int
    pad_token_id: int
    model_fingerprint: str
    tokenizer_fingerprint: str

    kind: str = "masked"

    def context(self, method_id: str, batch_size: int | None = None) -> dict[str, str | int]:
        """Everything besides the sentence and position that a cached number depends on.

        The batch size is part of it: batched matrix products and padding move a score's last
        float digits (up to 4.3e-6 between batch sizes 1/8/32/64 on the sample pairs, measured
        by ``benchmarks/score_batch_drift.py``), so a run resumed with another ``--batch-size``
        starts its own rows instead of mixing numbers of two runs. Worker threads do not
        change the numbers (measured: 0) and are not part of it.
        """
        fields: dict[str, str | int] = {
            "method": method_id,
            "model": self.model_fingerprint,
            "tokenizer": self.tokenizer_fingerprint,
            "dtype": self.dtype,
        }
        if batch_size is not None:
            fields["batch_size"] = batch_size
        return fields


@dataclass(eq=False)
class MaskedLM(LoadedModel):
    """A masked language model (``AutoModelForMaskedLM``)."""

    mask_token_id: int = 0
    #: The base model and LM head when the head can run at chosen positions only.
    base: Any = None
    head: Callable[[torch.Tensor], torch.Tensor] | None = None

    @property
    def head_mode(self) -> str:
        """``mask-only`` (head at the scored positions) or ``full-logits`` (fallback)."""
        return "mask-only" if self.head is not None else "full-logits"


@dataclass(eq=False)
class CausalLM(LoadedModel):
    """A causal (left-to-right) language model (``AutoModelForCausalLM``).

    ``prefix_token_id`` is the one token every sentence is conditioned on, as
    lm-evaluation-harness does for an empty context: the tokenizer's BOS token, else its EOS
    token (GPT-2's ``<|endoftext|>`` is both).
    """

    prefix_token_id: int = 0
    base: Any = None
    head: Callable[[torch.Tensor], torch.Tensor] | None = None
    #: The two sentences of a pair can share one packed row (a 4D mask and position ids give
    #: each sentence its own numbers: checked on a probe at load, see _packing_matches).
    packs_pairs: bool = False

    @property
    def head_mode(self) -> str:
        """``real-tokens`` (head at the non-padding positions) or ``full-logits`` (fallback)."""
        return "real-tokens" if self.head is not None else "full-logits"


def resolve_device(device: str = "auto") -> torch.device:
    """``auto`` picks CUDA, then Apple MPS, then the CPU; other names are checked."""
    if device not in DEVICES:
        raise UsageError(f"unknown device {device!r}; choose one of {', '.join(DEVICES)}")
    if device == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise UsageError("--device cuda was requested but no CUDA device is available")
    if device == "mps" and not torch.backends.mps.is_available():
        raise UsageError("--device mps was requested but Apple MPS is not available")
    return torch.device(device)


def load_model(
    name_or_path: str | Path,
    *,
    device: str = "auto",
    dtype: str = "float32",
    lowercase: bool | None = None,
    partial_vocabulary: bool = False,
) -> MaskedLM | CausalLM:
    """Load a Hugging Face masked or causal LM and its tokenizer (local directory or hub).

    ``lowercase=None`` lower-cases the sentences when the tokenizer does (an uncased model), as
    ``metric.py`` does for BERT and ALBERT. ``dtype="bfloat16"`` warns: the metric is defined
    in float32. ``partial_vocabulary=True`` accepts a tokenizer that covers only part of the
    embedding rows (its ids must still fit): for benchmarks that pair a full-size random model
    with a small trained tokenizer; the CLI never sets it.
    """
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    if dtype not in DTYPES:
        raise UsageError(f"unknown dtype {dtype!r}; choose one of {', '.join(DTYPES)}")
    name = str(name_or_path)
    source = model_source(name_or_path)
    target = resolve_device(device)
    kind = model_kind(name_or_path)
    auto = AutoModelForMaskedLM if kind == "masked" else AutoModelForCausalLM
    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
    except loading_errors() as exc:
        raise ModelError(f"cannot load {kind} language model {name!r}: {first_line(exc)}") from None
    model = _load_weights(auto, name, source, kind)
    model.eval()
    check_tokenizer_fits(name, tokenizer, model, partial_vocabulary=partial_vocabulary)
    if lowercase is None:
        lowercase = tokenizer_lowercases(tokenizer)
    elif lowercase and not tokenizer_lowercases(tokenizer):
        _log.warning("warning: %s", cased_lowercase_warning(name))
    if dtype != "float32":
        warnings.warn(BF16_WARNING, PrecisionWarning, stacklevel=2)
    model_fp = model_fingerprint(model)
    model.to(device=target, dtype=DTYPES[dtype])
    common: dict[str, Any] = {
        "name": name,
        "model": model,
        "tokenizer": tokenizer,
        "device": target,
        "dtype": dtype,
        "lowercase": lowercase,
        "max_length": max_sequence_length(model, tokenizer),
        "model_fingerprint": model_fp,
        "tokenizer_fingerprint": tokenizer_fingerprint(tokenizer, lowercase),
        "kind": kind,
    }
    if kind == "causal":
        prefix = tokenizer.bos_token_id
        if prefix is None:
            prefix = tokenizer.eos_token_id
        if prefix is None:
            raise ModelError(f"{name}: the tokenizer has neither a BOS nor an EOS token to prefix")
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else prefix
        causal = CausalLM(**{**common, "pad_token_id": int(pad)}, prefix_token_id=int(prefix))
        split = _split_head(model)
        if split is not None and _causal_split_matches(causal, *split):
            causal.base, causal.head = split
        causal.packs_pairs = _packing_matches(causal)
        return causal
    if tokenizer.mask_token_id is None:
        raise ModelError(f"{name}: the tokenizer has no mask token; is it a masked LM?")
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    lm = MaskedLM(**{**common, "pad_token_id": int(pad)}, mask_token_id=int(tokenizer.mask_token_id))
    split = _split_head(model)
    if split is not None and _split_matches(lm, *split):
        lm.base, lm.head = split
    return lm


#: A tokenizer must cover at least this share of the model's embedding rows. Real checkpoints
#: pad the matrix a little past the vocabulary (to a multiple of 64 or 128: phi-2 50,295 tokens
#: for 51,200 rows, Qwen2 151,646 for 151,936, T5 32,100 for 32,128), never to twice its size;
#: transformers 5 building a 5-token tokenizer for a directory without tokenizer files falls
#: far below it.
MIN_VOCAB_COVERAGE = 0.5


def check_tokenizer_fits(
    name: str, tokenizer: Any, model: Any, *, partial_vocabulary: bool = False
) -> None:
    """Refuse a tokenizer that does not belong to the model's embeddings.

    Two rules, both about the input embedding matrix of ``rows`` rows: every token id must be a
    row (``max id < rows``, else the forward pass indexes out of range or reads another token's
    row), and the vocabulary must cover at least :data:`MIN_VOCAB_COVERAGE` of the rows (a
    directory saved without its tokenizer files loads, under transformers 5, as a 5-token
    tokenizer that maps every word to the unknown token and scores garbage without an error).
    """
    embeddings = model.get_input_embeddings()
    rows = getattr(embeddings, "num_embeddings", None)
    if not isinstance(rows, int) or rows <= 0:
        return
    ids = [int(i) for i in tokenizer.get_vocab().values()]
    size = len(tokenizer)
    if ids and max(ids) >= rows:
        raise ModelError(
            f"{name}: the tokenizer has token id {max(ids)} but the model has only {rows} "
            "embedding rows; the tokenizer files belong to another model"
        )
    if not partial_vocabulary and size < MIN_VOCAB_COVERAGE * rows:
        raise ModelError(
            f"{name}: the tokenizer has {size} tokens for the model's {rows} embedding rows; "
            "the directory lacks its tokenizer files (tokenizer.json, vocab.txt...) or they "
            "belong to another model"
        )


#: Weight files transformers reads, in the order it prefers them.
_WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin")


def _load_weights(auto: Any, name: str, source: str, kind: str) -> Any:
    """The model from ``source``; a damaged weight file is named, with what to do about it.

    A checkpoint without the weights of the language-model head (a BERT saved only as
    ``BertForNextSentencePrediction`` or ``BertModel``) is refused: transformers would fill the
    head with random numbers and every score would be noise."""
    from safetensors import SafetensorError

    try:
        model, info = auto.from_pretrained(source, dtype=torch.float32, output_loading_info=True)
        _check_head(model, info, name, kind)
        return model
    except loading_errors() as exc:
        raise ModelError(f"cannot load {kind} language model {name!r}: {first_line(exc)}") from None
    except (SafetensorError, RuntimeError, EOFError, pickle.UnpicklingError) as exc:
        local = Path(source)
        found = [local / f for f in _WEIGHT_FILES if (local / f).is_file()]
        what = str(found[0]) if found else f"the weights of {name}"
        raise ModelError(
            f"{what}: the weight file is damaged or truncated ({first_line(exc)}); save or "
            "download the model again"
        ) from None


def _check_head(model: Any, info: dict[str, Any], name: str, kind: str) -> None:
    """Refuse a model whose output head was not in its checkpoint (randomly initialised)."""
    base = f"{getattr(model, 'base_model_prefix', '')}."
    head = sorted(k for k in info.get("missing_keys") or () if not k.startswith(base))
    if head:
        saved = ", ".join(getattr(model.config, "architectures", None) or ()) or "another class"
        more = " ..." if len(head) > 2 else ""
        what = "masked-LM" if kind == "masked" else "causal-LM"
        raise ModelError(
            f"{name}: its checkpoint (saved as {saved}) has no {what} head weights "
            f"({', '.join(head[:2])}{more}), which transformers would initialise at random, "
            f"so it cannot be scored as a {kind} language model"
        )


def tokenizer_lowercases(tokenizer: Any) -> bool:
    """True when the tokenizer lower-cases its input (an uncased model)."""
    flag = getattr(tokenizer, "do_lower_case", None)
    if isinstance(flag, bool):
        return flag
    backend = getattr(tokenizer, "backend_tokenizer", None)
    normalizer = getattr(backend, "normalizer", None)
    if normalizer is not None:
        return normalizer.normalize_str("AZ") == "az"
    return False


def max_sequence_length(model: Any, tokenizer: Any) -> int:
    """The most tokens (special tokens included) the model accepts in one sequence."""
    limits: list[int] = []
    config = model.config
    positions = getattr(config, "max_position_embeddings", None)
    if positions is None:
        positions = getattr(config, "n_positions", None)
    if isinstance(positions, int) and positions > 0:
        offset = 0
        if getattr(config, "model_type", "") in _PADDING_OFFSET_MODELS:
            offset = int(getattr(config, "pad_token_id", 1) or 0) + 1
        limits.append(positions - offset)
    declared = getattr(tokenizer, "model_max_length", None)
    if isinstance(declared, int) and 0 < declared < 1_000_000:
        limits.append(declared)
    return min(limits) if limits else 1_000_000


def model_fingerprint(model: Any) -> str:
    """SHA-256 of the model's configuration and every weight tensor (name, dtype, shape, bytes).

    Hashing the loaded weights rather than a file name or hub revision makes the cache key
    follow what is actually computed, for local directories and hub models alike.
    """
    digest = hashlib.sha256()
    config = {
        k: v for k, v in sorted(model.config.to_dict().items()) if k not in _VOLATILE_CONFIG_KEYS
    }
    digest.update(json.dumps(config, sort_keys=True, default=str).encode("utf-8"))
    for name, tensor in sorted(model.state_dict().items()):
        data = tensor.detach().to("cpu").contiguous().reshape(-1)
        digest.update(f"{name}|{data.dtype}|{tuple(tensor.shape)}|".encode())
        digest.update(data.view(torch.uint8).numpy())
    return digest.hexdigest()


def tokenizer_fingerprint(tokenizer: Any, lowercase: bool) -> str:
    """SHA-256 of the tokenizer's full definition (tokenizer.json), its class and casing."""
    digest = hashlib.sha256()
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is not None:
        digest.update(backend.to_str().encode("utf-8"))
    else:
        vocab = sorted(tokenizer.get_vocab().items())
        digest.update(json.dumps(vocab, ensure_ascii=False).encode("utf-8"))
    digest.update(f"|{type(tokenizer).__name__}|{lowercase}|{tokenizer.mask_token_id}".encode())
    return digest.hexdigest()


def _split_head(model: Any) -> tuple[Any, Callable[[torch.Tensor], torch.Tensor]] | None:
    """The base model and a function mapping its hidden states to vocabulary logits."""
    base = getattr(model, "base_model", None)
    if base is None or base is model:
        return None
    kind = getattr(model.config, "model_type", "")
    if kind == "distilbert":
        return base, lambda h: model.vocab_projector(
            model.vocab_layer_norm(model.activation(model.vocab_transform(h)))
        )
    if kind == "electra":
        return base, lambda h: model.generator_lm_head(model.generator_predictions(h))
    heads = [module for module in model.children() if module is not base]
    if len(heads) != 1:
        return None
    return base, heads[0]


def _probe_ids(lm: LoadedModel) -> list[int]:
    return lm.tokenizer.encode("the probe sentence checks the head split.")[: lm.max_length]


def _close(split: torch.Tensor, full: torch.Tensor, dtype: str) -> bool:
    if split.shape != full.shape:
        return False
    tolerance = 1e-4 if dtype == "float32" else 5e-2
    return bool(torch.allclose(split, full, atol=tolerance, rtol=tolerance))


def _split_matches(lm: MaskedLM, base: Any, head: Callable[[torch.Tensor], torch.Tensor]) -> bool:
    """Does base + head at one position give the full model's logits there (on a probe)?"""
    ids = _probe_ids(lm)
    if len(ids) < 3:
        return False
    position = len(ids) // 2
    ids[position] = lm.mask_token_id
    batch = torch.tensor([ids], device=lm.device)
    try:
        with torch.inference_mode():
            full = lm.model(input_ids=batch).logits[0, position].float()
            hidden = base(input_ids=batch)[0][:, position]
            split = head(hidden)[0].float()
    except Exception:  # any failure means: do not use the split
        return False
    return _close(split, full, lm.dtype)


def _causal_split_matches(
    lm: CausalLM, base: Any, head: Callable[[torch.Tensor], torch.Tensor]
) -> bool:
    """Does base + head give the full causal model's logits at every position of a probe?"""
    ids = [lm.prefix_token_id, *_probe_ids(lm)][: lm.max_length]
    batch = torch.tensor([ids], device=lm.device)
    try:
        with torch.inference_mode():
            full = lm.model(input_ids=batch).logits[0].float()
            split = head(base(input_ids=batch)[0][0]).float()
    except Exception:  # any failure means: do not use the split
        return False
    return _close(split, full, lm.dtype)


def _packing_matches(lm: CausalLM) -> bool:
    """Do two sentences packed into one row (their common prefix once, a 4D attention mask and
    restarting position ids) get the numbers each gets alone? An architecture that ignores a
    custom mask or position ids would not: it is then scored one row per sentence."""
    from curate.score.packing import next_token_logprobs

    probe = [lm.prefix_token_id, *_probe_ids(lm)][: max(lm.max_length // 2, 2)]
    if len(probe) < 5:
        return False
    other = [*probe[:3], *reversed(probe[3:])]
    try:
        packed = next_token_logprobs(lm, [probe, other], pack=True)
        alone = [next_token_logprobs(lm, [seq], pack=False)[0] for seq in (probe, other)]
    except Exception:  # any failure means: do not pack
        return False
    return all(
        _close(torch.tensor(p), torch.tensor(a), lm.dtype) for p, a in zip(packed, alone, strict=True)
    )
