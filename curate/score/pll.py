"""The CrowS-Pairs pseudo-log-likelihood score of a masked LM: exact, batched and cached.

The numbers are those of the original ``metric.py`` (Nangia et al. 2020): lower-case both
sentences for an uncased model, tokenise them, align the two token-id sequences with difflib's
``SequenceMatcher`` (stereotypical sentence first, as ``metric.py`` does), and for each token in
an ``equal`` span except the first and the last (the special tokens around the sentence) mask it
alone and add ``log P(original token)``; the sum is the sentence score ``log P(U|M)``.

``metric.py`` runs one forward pass per masked token, computing full-vocabulary logits at every
position. Here the same numbers come much faster:

* every masked copy of every sentence is a *job*; identical jobs (a sentence repeated across
  pairs) run once, and jobs already in the :class:`~curate.score.cache.ScoreCache` not at all;
* jobs are sorted by length (longest first, so the biggest batch runs first and a memory
  problem shows at once) and batched with dynamic padding; a batch of one length runs without
  an attention mask;
* the base model runs on the batch and the LM head (transform + vocabulary projection) runs
  only at the masked position of each copy, instead of at every position. The split is checked
  against the full model on a probe input when the model loads; a model whose head cannot be
  split that way falls back to full logits (same numbers, slower);
* on a CPU, each thread runs whole batches single-threaded (:func:`run_batches`) rather than
  splitting every operation across threads.

Each finished batch is committed to the cache before the next starts, so an interrupted run
resumes where it stopped; the remaining jobs then form exactly the batches the uninterrupted
run would have formed, and the results are bit-for-bit the same.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from curate.errors import CurateError, InputError, UsageError
from curate.pairs import Pair
from curate.score.cache import ScoreCache, sentence_key
from curate.score.metrics import PairScore

#: Identifies the algorithm in cache keys and outputs; bump it if the numbers would change.
METHOD = "crows-pairs-pll/1"
#: Masked copies per forward pass. 32 copies of a CrowS-Pairs sentence (~16 tokens) make ~500
#: rows per matrix product: enough for a CPU core's GEMM to run near its peak while the
#: activations stay in cache (64 and 128 measured slower on one core; benchmarks/bench_pll.py).
DEFAULT_BATCH_SIZE = 32
#: Largest share of a batch's rows that may be padding: padding costs as much as real rows,
#: while splitting a batch only shrinks it (CrowS-Pairs: almost every batch has one length).
MAX_PADDING = 0.1
DTYPES: dict[str, torch.dtype] = {"float32": torch.float32, "bfloat16": torch.bfloat16}
DEVICES: tuple[str, ...] = ("auto", "cpu", "cuda", "mps")
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

#: A job: the token ids of a sentence and the one position to mask in it.
Job = tuple[tuple[int, ...], int]
#: ``progress(done, total)``: masked copies computed so far and to compute in this run.
ProgressCallback = Callable[[int, int], None]


class ModelError(CurateError):
    """A model or tokenizer cannot be loaded or cannot be used for masked-LM scoring."""


class SentenceTooLongError(InputError):
    """A sentence has more tokens than the model accepts."""


class PrecisionWarning(UserWarning):
    """Scores computed in reduced precision deviate from the float32 metric."""


@dataclass(eq=False)
class MaskedLM:
    """A loaded masked language model, ready to score: load it once, score many datasets."""

    name: str
    model: Any
    tokenizer: Any
    device: torch.device
    dtype: str
    lowercase: bool
    max_length: int
    mask_token_id: int
    pad_token_id: int
    model_fingerprint: str
    tokenizer_fingerprint: str
    #: The base model and LM head when the head can run at the masked positions only.
    base: Any = None
    head: Callable[[torch.Tensor], torch.Tensor] | None = None

    @property
    def head_mode(self) -> str:
        """``mask-only`` (head at the masked positions) or ``full-logits`` (fallback)."""
        return "mask-only" if self.head is not None else "full-logits"

    def context(self) -> dict[str, str]:
        """Everything besides the sentence and position that a log-probability depends on."""
        return {
            "method": METHOD,
            "model": self.model_fingerprint,
            "tokenizer": self.tokenizer_fingerprint,
            "dtype": self.dtype,
        }


@dataclass(frozen=True, slots=True)
class ScoreStats:
    """How much work a scoring run did and how much the cache saved.

    ``masked_tokens`` is the number of forward passes the original ``metric.py`` would run (one
    per masked token of every sentence); ``unique_jobs`` the distinct masked copies among them;
    ``cache_hits`` those read from the cache and ``computed`` those run through the model, in
    ``batches`` batched forward passes.
    """

    pairs: int
    masked_tokens: int
    unique_jobs: int
    cache_hits: int
    computed: int
    batches: int
    seconds: float

    @property
    def forward_passes_saved(self) -> int:
        """Masked copies the cache served instead of the model (each a ``metric.py`` pass)."""
        return self.cache_hits


@dataclass(frozen=True)
class ScoreResult:
    """Per-pair scores of one model on one dataset, with provenance and work counts."""

    model: str
    model_fingerprint: str
    tokenizer_fingerprint: str
    method: str
    dtype: str
    lowercase: bool
    head_mode: str
    scores: tuple[PairScore, ...]
    stats: ScoreStats

    def by_id(self) -> dict[int, PairScore]:
        """The scores keyed by pair id."""
        return {s.pair_id: s for s in self.scores}

    def provenance(self) -> dict[str, Any]:
        """What produced these numbers (deterministic: no timings, no cache counts)."""
        return {
            "model": self.model,
            "model_fingerprint": self.model_fingerprint,
            "tokenizer_fingerprint": self.tokenizer_fingerprint,
            "method": self.method,
            "dtype": self.dtype,
            "lowercase": self.lowercase,
        }


@dataclass(frozen=True, slots=True)
class PairPlan:
    """The tokenised sentences of a pair and the positions to mask in each."""

    pair: Pair
    more_ids: tuple[int, ...]
    less_ids: tuple[int, ...]
    more_positions: tuple[int, ...]
    less_positions: tuple[int, ...]


# --------------------------------------------------------------------------- loading


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


def _looks_like_path(name: str) -> bool:
    return name.startswith((".", "/", "~")) or "\\" in name or name.count("/") > 1


def load_model(
    name_or_path: str | Path,
    *,
    device: str = "auto",
    dtype: str = "float32",
    lowercase: bool | None = None,
) -> MaskedLM:
    """Load a Hugging Face masked LM and its tokenizer from a local directory or the hub.

    ``lowercase=None`` lower-cases the sentences when the tokenizer does (an uncased model), as
    ``metric.py`` does for BERT and ALBERT. ``dtype="bfloat16"`` warns: the metric is defined
    in float32.
    """
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    if dtype not in DTYPES:
        raise UsageError(f"unknown dtype {dtype!r}; choose one of {', '.join(DTYPES)}")
    name = str(name_or_path)
    local = Path(name).expanduser()
    if not local.exists() and (isinstance(name_or_path, Path) or _looks_like_path(name)):
        raise InputError(f"{name}: no such model directory")
    source = str(local) if local.exists() else name
    target = resolve_device(device)
    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForMaskedLM.from_pretrained(source, dtype=torch.float32)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot load masked language model {name!r}: {reason}") from None
    if tokenizer.mask_token_id is None:
        raise ModelError(f"{name}: the tokenizer has no mask token; is it a masked LM?")
    model.eval()
    if lowercase is None:
        lowercase = tokenizer_lowercases(tokenizer)
    if dtype != "float32":
        warnings.warn(BF16_WARNING, PrecisionWarning, stacklevel=2)
    model_fp = model_fingerprint(model)
    model.to(device=target, dtype=DTYPES[dtype])
    lm = MaskedLM(
        name=name,
        model=model,
        tokenizer=tokenizer,
        device=target,
        dtype=dtype,
        lowercase=lowercase,
        max_length=max_sequence_length(model, tokenizer),
        mask_token_id=int(tokenizer.mask_token_id),
        pad_token_id=int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0),
        model_fingerprint=model_fp,
        tokenizer_fingerprint=tokenizer_fingerprint(tokenizer, lowercase),
    )
    split = _split_head(model)
    if split is not None and _split_matches(lm, *split):
        lm.base, lm.head = split
    return lm


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


def _split_matches(lm: MaskedLM, base: Any, head: Callable[[torch.Tensor], torch.Tensor]) -> bool:
    """Does base + head at one position give the full model's logits there (on a probe)?"""
    ids = lm.tokenizer.encode("the probe sentence checks the head split.")[: lm.max_length]
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
    if split.shape != full.shape:
        return False
    tolerance = 1e-4 if lm.dtype == "float32" else 5e-2
    return bool(torch.allclose(split, full, atol=tolerance, rtol=tolerance))


# --------------------------------------------------------------------------- planning


def unmodified_positions(
    stereo_ids: Sequence[int], antistereo_ids: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Positions of the tokens the two sentences share, in each, as ``metric.py`` finds them.

    ``SequenceMatcher`` over the token ids (as strings, stereotypical sentence first); the
    tokens in ``equal`` spans are unmodified; the first and last of them (the special tokens
    around the sentence) are never masked.
    """
    matcher = difflib.SequenceMatcher(
        None, [str(i) for i in stereo_ids], [str(i) for i in antistereo_ids]
    )
    first: list[int] = []
    second: list[int] = []
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            first.extend(range(a1, a2))
            second.extend(range(b1, b2))
    return first[1:-1], second[1:-1]


def plan_pairs(pairs: Iterable[Pair], lm: MaskedLM) -> list[PairPlan]:
    """Tokenise every pair and choose its masked positions; refuse over-long sentences."""
    plans: list[PairPlan] = []
    for pair in pairs:
        encoded: dict[str, tuple[int, ...]] = {}
        for field in ("sent_more", "sent_less"):
            text = getattr(pair, field)
            ids = tuple(lm.tokenizer.encode(text.lower() if lm.lowercase else text))
            if len(ids) > lm.max_length:
                raise SentenceTooLongError(
                    f"pair {pair.pair_id}: {field} is {len(ids)} tokens long, more than the "
                    f"{lm.max_length} that {lm.name} accepts"
                )
            encoded[field] = ids
        more, less = encoded["sent_more"], encoded["sent_less"]
        if pair.direction == "stereo":
            more_positions, less_positions = unmodified_positions(more, less)
        else:
            less_positions, more_positions = unmodified_positions(less, more)
        plans.append(PairPlan(pair, more, less, tuple(more_positions), tuple(less_positions)))
    return plans


def plan_jobs(plans: Iterable[PairPlan]) -> list[Job]:
    """The distinct masked copies needed by the plans, in a deterministic order."""
    jobs: set[Job] = set()
    for plan in plans:
        jobs.update((plan.more_ids, p) for p in plan.more_positions)
        jobs.update((plan.less_ids, p) for p in plan.less_positions)
    return sorted(jobs, key=lambda job: (-len(job[0]), job[0], job[1]))


def batch_jobs(
    jobs: Sequence[Job], batch_size: int, max_padding: float = MAX_PADDING
) -> list[list[Job]]:
    """Cut the jobs, sorted longest first, into batches of at most ``batch_size``.

    A batch also ends before a job shorter than ``1 - max_padding`` times its first (longest)
    job, so at most that share of a batch's rows is padding. Batches are formed greedily from
    the front, so the batches after any prefix of batches are the same whether or not the
    prefix is still to run: what makes a resumed run identical to an uninterrupted one.
    """
    if batch_size < 1:
        raise UsageError(f"batch size must be at least 1, got {batch_size}")
    ordered = sorted(jobs, key=lambda job: (-len(job[0]), job[0], job[1]))
    batches: list[list[Job]] = []
    for job in ordered:
        if (
            batches
            and len(batches[-1]) < batch_size
            and len(job[0]) >= (1.0 - max_padding) * len(batches[-1][0][0])
        ):
            batches[-1].append(job)
        else:
            batches.append([job])
    return batches


# --------------------------------------------------------------------------- scoring


def score_batch(lm: MaskedLM, batch: Sequence[Job]) -> list[float]:
    """``log P(original token | sentence with it masked)`` for each job, in one forward pass."""
    width = max(len(ids) for ids, _ in batch)
    rows = len(batch)
    input_ids = torch.full((rows, width), lm.pad_token_id, dtype=torch.long)
    padded = False
    for row, (ids, _) in enumerate(batch):
        input_ids[row, : len(ids)] = torch.tensor(ids, dtype=torch.long)
        padded |= len(ids) < width
    positions = torch.tensor([position for _, position in batch], dtype=torch.long)
    targets = input_ids[torch.arange(rows), positions].clone()
    input_ids[torch.arange(rows), positions] = lm.mask_token_id
    attention_mask = None
    if padded:
        lengths = torch.tensor([len(ids) for ids, _ in batch])
        attention_mask = (torch.arange(width)[None, :] < lengths[:, None]).long()
        attention_mask = attention_mask.to(lm.device)
    input_ids = input_ids.to(lm.device)
    index = torch.arange(rows, device=lm.device)
    positions = positions.to(lm.device)
    with torch.inference_mode():
        if lm.head is not None:
            hidden = lm.base(input_ids=input_ids, attention_mask=attention_mask)[0]
            logits = lm.head(hidden[index, positions])
        else:
            output = lm.model(input_ids=input_ids, attention_mask=attention_mask)
            logits = output.logits[index, positions]
        logprobs = torch.log_softmax(logits.float(), dim=-1)
        chosen = logprobs.gather(1, targets.to(lm.device)[:, None])[:, 0]
    return chosen.cpu().tolist()


def run_batches(
    lm: MaskedLM, batches: Sequence[Sequence[Job]], threads: int | None = None
) -> Iterator[tuple[Sequence[Job], list[float]]]:
    """Score the batches, yielding ``(batch, logprobs)`` in order.

    On a CPU, ``threads`` workers each run whole batches on one thread, instead of every
    matrix product being split across threads: the many small operations between the matrix
    products (normalisation, activation, attention) then need no synchronisation, which is
    measurably faster on a few cores and degrades gracefully when another process takes one.
    As a bonus every batch is computed by the same single-threaded kernels whatever the number
    of workers, so the numbers do not depend on it. Results are yielded in batch order, so the
    committed batches always form a prefix (at most ``threads`` batches are in flight).
    """
    workers = threads if threads is not None else torch.get_num_threads()
    if workers < 1:
        raise UsageError(f"threads must be at least 1, got {workers}")
    before = torch.get_num_threads()
    if lm.device.type != "cpu":
        for batch in batches:
            yield batch, score_batch(lm, batch)
        return
    torch.set_num_threads(1)
    pool = ThreadPoolExecutor(workers, initializer=torch.set_num_threads, initargs=(1,))
    try:
        pending: deque[tuple[Sequence[Job], Future[list[float]]]] = deque()
        upcoming = iter(batches)
        for batch in itertools.islice(upcoming, workers):
            pending.append((batch, pool.submit(score_batch, lm, batch)))
        while pending:
            batch, future = pending.popleft()
            logprobs = future.result()
            following = next(upcoming, None)
            if following is not None:
                pending.append((following, pool.submit(score_batch, lm, following)))
            yield batch, logprobs
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        torch.set_num_threads(before)


def score_pairs(
    pairs: Iterable[Pair],
    model: MaskedLM | str | Path,
    *,
    cache: ScoreCache | Path | str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    device: str = "auto",
    dtype: str = "float32",
    lowercase: bool | None = None,
    progress: ProgressCallback | None = None,
    threads: int | None = None,
) -> ScoreResult:
    """Score every pair with the CrowS-Pairs pseudo-log-likelihood of a masked LM.

    ``model`` is a loaded :class:`MaskedLM` (load once with :func:`load_model` to score several
    datasets) or a name or path to load with ``device``, ``dtype`` and ``lowercase``. ``cache``
    is an open :class:`ScoreCache`, a path to one, or ``None`` for no persistent cache.
    ``progress(done, total)`` is called before the first batch and after every committed
    batch; an exception it raises stops the run with the finished batches cached. ``threads``
    is the number of CPU workers (default: ``torch.get_num_threads()``), see
    :func:`run_batches`.
    """
    pairs = list(pairs)
    lm = (
        model
        if isinstance(model, MaskedLM)
        else load_model(model, device=device, dtype=dtype, lowercase=lowercase)
    )
    if batch_size < 1:
        raise UsageError(f"batch size must be at least 1, got {batch_size}")
    plans = plan_pairs(pairs, lm)
    jobs = plan_jobs(plans)
    started = time.perf_counter()
    store = cache if isinstance(cache, ScoreCache) else ScoreCache(cache)
    try:
        context = store.register_context(lm.context(), label=lm.name)
        keys = {ids: sentence_key(ids) for ids in {ids for ids, _ in jobs}}
        cached = store.lookup(context, keys.values())
        values: dict[Job, float] = {}
        missing: list[Job] = []
        for job in jobs:
            hit = cached.get((keys[job[0]], job[1]))
            if hit is None:
                missing.append(job)
            else:
                values[job] = hit
        batches = batch_jobs(missing, batch_size)
        done = 0
        if progress is not None:
            progress(0, len(missing))
        for batch, logprobs in run_batches(lm, batches, threads):
            store.store(
                context,
                [(keys[ids], pos, lp) for (ids, pos), lp in zip(batch, logprobs, strict=True)],
            )
            values.update(zip(batch, logprobs, strict=True))
            done += len(batch)
            if progress is not None:
                progress(done, len(missing))
    finally:
        if store is not cache:
            store.close()
    scores = tuple(_pair_score(plan, values) for plan in plans)
    stats = ScoreStats(
        pairs=len(pairs),
        masked_tokens=sum(s.n_masked for s in scores) * 2,
        unique_jobs=len(jobs),
        cache_hits=len(jobs) - len(missing),
        computed=len(missing),
        batches=len(batches),
        seconds=time.perf_counter() - started,
    )
    return ScoreResult(
        model=lm.name,
        model_fingerprint=lm.model_fingerprint,
        tokenizer_fingerprint=lm.tokenizer_fingerprint,
        method=METHOD,
        dtype=lm.dtype,
        lowercase=lm.lowercase,
        head_mode=lm.head_mode,
        scores=scores,
        stats=stats,
    )


def _pair_score(plan: PairPlan, values: dict[Job, float]) -> PairScore:
    # Summed in template order with Python floats, exactly as metric.py accumulates .item()s.
    more = 0.0
    for position in plan.more_positions:
        more += values[(plan.more_ids, position)]
    less = 0.0
    for position in plan.less_positions:
        less += values[(plan.less_ids, position)]
    pair = plan.pair
    return PairScore(
        pair_id=pair.pair_id,
        sent_more=pair.sent_more,
        sent_less=pair.sent_less,
        sent_more_score=more,
        sent_less_score=less,
        direction=pair.direction,
        bias_type=pair.bias_type,
        n_masked=len(plan.more_positions),
    )
