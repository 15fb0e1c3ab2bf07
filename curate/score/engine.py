"""Scoring pairs with one model and one method through the cache: plan, look up, run, add up.

:func:`score_pairs` is the one entry point every caller uses (``curate score``, ``curate
diff-report``, the library): it plans the jobs the method needs (:mod:`curate.score.plan`),
takes what the cache already has, runs the rest in batches (:mod:`curate.score.passes`),
committing each finished batch, and reduces the per-token numbers to sentence scores. The
numbers are cached per token and keyed by the method's pass, so every method is resumable and
reuses its work across dataset versions, and :func:`token_logprobs` reads a sentence's
per-token log-probabilities back for charts.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from curate.errors import UsageError
from curate.pairs import Pair
from curate.score.cache import ScoreCache, open_cache, sentence_key
from curate.score.methods import (
    DEFAULT_METHODS,
    METHODS,
    Method,
    methods_for_model,
)
from curate.score.metrics import PairScore
from curate.score.models import CausalLM, LoadedModel, load_model
from curate.score.passes import ATTENTION, LOGPROB, pass_for, run_batches
from curate.score.plan import (
    WHOLE,
    Job,
    PairPlan,
    SentencePlan,
    batch_jobs,
    encode,
    plan_jobs,
    plan_pairs,
)
from curate.score.results import ProgressCallback, ScoreResult, ScoreStats
from curate.score.settings import ScoreSettings


def _method(model: LoadedModel, method: str | Method | None) -> Method:
    if method is None:
        return METHODS[DEFAULT_METHODS[model.kind][0]]
    name = method.name if isinstance(method, Method) else method
    if name not in METHODS:
        raise UsageError(f"unknown scoring method {name!r}; choose from {', '.join(METHODS)}")
    (chosen,) = methods_for_model([name], model.kind, model.name)
    return chosen


def _quantities(method: Method) -> tuple[str, ...]:
    return (LOGPROB, ATTENTION) if method.name == "aula" else (LOGPROB,)


def _contexts(
    store: ScoreCache, lm: LoadedModel, method: Method, batch_size: int
) -> dict[str, str]:
    """The cache context of each quantity the method stores, per batch size (see
    :meth:`~curate.score.models.LoadedModel.context`)."""
    contexts = {}
    for quantity in _quantities(method):
        pass_id = method.pass_id if quantity == LOGPROB else f"{method.pass_id}#{quantity}"
        contexts[quantity] = store.register_context(
            lm.context(pass_id, batch_size), label=lm.name
        )
    return contexts


def sentence_positions(lm: LoadedModel, ids: Sequence[int]) -> range:
    """Every position a one-pass method gives a number for: the tokens after the prefix
    (causal), or all but the special tokens around the sentence (masked)."""
    return range(1, len(ids)) if isinstance(lm, CausalLM) else range(1, len(ids) - 1)


@contextlib.contextmanager
def _attention_outputs(lm: LoadedModel, method: Method) -> Iterator[None]:
    """AULA reads attention weights, which only the eager attention returns."""
    current = getattr(lm.model.config, "_attn_implementation", None)
    if method.name != "aula" or current in (None, "eager"):
        yield
        return
    lm.model.set_attn_implementation("eager")
    try:
        yield
    finally:
        lm.model.set_attn_implementation(current)


def score_pairs(
    pairs: Iterable[Pair],
    model: LoadedModel | str | Path,
    method: str | Method | None = None,
    *,
    cache: ScoreCache | Path | str | None = None,
    settings: ScoreSettings | None = None,
    batch_size: int | None = None,
    device: str | None = None,
    dtype: str | None = None,
    lowercase: bool | None = None,
    progress: ProgressCallback | None = None,
    threads: int | None = None,
) -> ScoreResult:
    """Score every pair with one model and one method (default: ``pll`` for a masked LM,
    ``clm-sum`` for a causal one).

    ``model`` is a loaded model (load once with :func:`~curate.score.models.load_model` to
    score several datasets or methods) or a name or path to load with the settings' device,
    dtype and casing. ``cache`` is an open :class:`ScoreCache` (borrowed), a path to one, or
    ``None`` for no persistent cache. ``settings`` gives batch size, threads, device, dtype and
    casing; the keyword arguments override it. ``progress(done, total)`` is called before the
    first batch and after every committed batch; an exception it raises stops the run with the
    finished batches cached.
    """
    settings = (settings or ScoreSettings()).with_overrides(
        batch_size=batch_size, device=device, dtype=dtype, lowercase=lowercase, threads=threads
    )
    pairs = list(pairs)
    lm = (
        model
        if isinstance(model, LoadedModel)
        else load_model(
            model, device=settings.device, dtype=settings.dtype, lowercase=settings.lowercase
        )
    )
    chosen = _method(lm, method)
    if settings.batch_size < 1:
        raise UsageError(f"batch size must be at least 1, got {settings.batch_size}")
    plans = plan_pairs(pairs, lm, chosen)
    jobs = plan_jobs(plans, chosen)
    started = time.perf_counter()
    quantities = _quantities(chosen)
    with open_cache(cache) as store:
        contexts = _contexts(store, lm, chosen, settings.batch_size)
        keys = {job.key for job in jobs}
        values = {q: store.lookup(contexts[q], keys) for q in quantities}
        missing = [job for job in jobs if not _cached(lm, job, values, quantities)]
        batches = batch_jobs(missing, settings.batch_size)
        done = 0
        if progress is not None:
            progress(0, len(missing))
        with _attention_outputs(lm, chosen):
            for batch, rows in run_batches(lm, batches, pass_for(chosen), settings.threads):
                for quantity in quantities:
                    mine = [(k, p, v) for q, k, p, v in rows if q == quantity]
                    store.store(contexts[quantity], mine)
                    values[quantity].update(((k, p), v) for k, p, v in mine)
                done += len(batch)
                if progress is not None:
                    progress(done, len(missing))
    scores = tuple(_pair_score(plan, chosen, values) for plan in plans)
    stats = ScoreStats(
        pairs=len(pairs),
        masked_tokens=sum(len(p.more_positions) + len(p.less_positions) for p in plans),
        unique_jobs=len(jobs),
        cache_hits=len(jobs) - len(missing),
        computed=len(missing),
        batches=len(batches),
        seconds=time.perf_counter() - started,
        unit="sentences" if chosen.one_pass else "masked copies",
    )
    return ScoreResult(
        model=lm.name,
        model_fingerprint=lm.model_fingerprint,
        tokenizer_fingerprint=lm.tokenizer_fingerprint,
        method=chosen.name,
        dtype=lm.dtype,
        lowercase=lm.lowercase,
        head_mode=lm.head_mode,  # type: ignore[attr-defined]
        scores=scores,
        stats=stats,
        model_kind=lm.kind,
        batch_size=settings.batch_size,
    )


def _cached(
    lm: LoadedModel,
    job: Job,
    values: dict[str, dict[tuple[str, int], float]],
    quantities: Sequence[str],
) -> bool:
    if job.position != WHOLE:
        return (job.key, job.position) in values[LOGPROB]
    positions = sentence_positions(lm, job.ids)
    return all((job.key, p) in values[q] for q in quantities for p in positions)


def sentence_score(
    sentence: SentencePlan, method: Method, values: dict[str, dict[tuple[str, int], float]]
) -> float:
    """The method's reduction of the per-token numbers at the sentence's scored positions."""
    logprobs = values[LOGPROB]
    total = 0.0
    # Summed in position order with Python floats, as metric.py accumulates .item()s.
    if method.name == "aula":
        attention = values[ATTENTION]
        for p in sentence.positions:
            total += logprobs[(sentence.key, p)] * attention[(sentence.key, p)]
    elif method.reduction == "geometric mean probability":
        # bias-bench: 2 ** (sum of log2 p / n), log2 p taken as log p / ln 2 (no underflow)
        for p in sentence.positions:
            total += logprobs[(sentence.key, p)] / math.log(2)
        return 2.0 ** (total / len(sentence.positions)) if sentence.positions else 1.0
    else:
        for p in sentence.positions:
            total += logprobs[(sentence.key, p)]
    if method.reduction != "sum" and sentence.positions:
        total /= len(sentence.positions)
    return total


def _pair_score(
    plan: PairPlan, method: Method, values: dict[str, dict[tuple[str, int], float]]
) -> PairScore:
    pair = plan.pair
    more = sentence_score(plan.more, method, values)
    less = sentence_score(plan.less, method, values)
    return PairScore(
        pair_id=pair.pair_id,
        sent_more=pair.sent_more,
        sent_less=pair.sent_less,
        sent_more_score=more,
        sent_less_score=less,
        direction=pair.direction,
        bias_type=pair.bias_type,
        n_masked=len(plan.more_positions),
        rounded=None
        if method.decimals is None
        else (method.compared(more), method.compared(less)),
    )


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One token of a sentence and its cached log-probability under a method (None when the
    cache has no number for it: not scored by the method, or not scored yet)."""

    position: int
    token: str
    logprob: float | None


def token_logprobs(
    sentence: str, lm: LoadedModel, method: str | Method, cache: ScoreCache | Path | str
) -> list[TokenLogprob]:
    """The per-token log-probabilities of ``sentence`` for (model, method), from the cache.

    Every token of the sentence as the method tokenises it (special and prefix tokens
    included, with None), in order. For ``pll`` and ``pll-word-l2r`` only the tokens the
    sentence shared with its partner were scored; ``aula``'s numbers are the plain
    log-probabilities of its pass (its attention weights are stored beside them).
    """
    chosen = _method(lm, method)
    ids, words = encode(lm, sentence, chosen)
    key = sentence_key(ids, words)
    with open_cache(cache) as store:
        # Any batch size's numbers serve for inspection (they differ in the last digits).
        found = store.lookup_related(lm.context(chosen.pass_id), [key])
    tokens = lm.tokenizer.convert_ids_to_tokens(list(ids))
    return [
        TokenLogprob(position, token, found.get((key, position)))
        for position, token in enumerate(tokens)
    ]

