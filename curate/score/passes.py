"""The forward passes that produce per-token numbers, one batch of jobs at a time.

Each pass turns a batch of :class:`~curate.score.plan.Job` rows into cache rows
``(quantity, sentence key, position, value)``; the quantity is ``logprob`` for every method,
plus ``attention`` (the attention a token receives) for ``aula``.

* :func:`masked_copies` (``pll``, ``pll-word-l2r``): mask the job's position (and, for
  ``pll-word-l2r``, the rest of its word) and take ``log P(original token)`` there. The base
  model runs on the batch and the LM head only at the masked position of each copy.
* :func:`unmasked_pass` (``aul``, ``aula``): one pass over the unmasked sentence; the head runs
  at the sentence's own tokens (not at the special tokens or the padding).
* :func:`causal_pass` (``clm-sum``, ``clm-shared``, ``clm-mean-prefixed``): one pass over
  prefix token + sentence; the head runs at every real position but the last, giving
  ``log P(token_i | tokens_<i)`` for each sentence token. The two sentences of a pair are packed
  into one row that computes their common prefix once (:func:`curate.score.packing.next_token_logprobs`).
* :func:`bias_bench_pass` (``clm-mean``): bias-bench's conditioning, the first token given the
  prefix token alone, the others given the sentence's tokens without it.

:func:`run_batches` runs batches on CPU worker threads, each single-threaded.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import torch

from curate.errors import UsageError
from curate.score.methods import CLM_BIAS_BENCH_PASS, Method
from curate.score.models import CausalLM, LoadedModel, MaskedLM
from curate.score.packing import next_token_logprobs, token_logprobs
from curate.score.plan import Job

#: The name of :func:`run_batches`' worker threads (``curate-batch_0``...): a profile, or the
#: sweep benchmark's clock of the scoring's CPU, tells them from other threads by it.
BATCH_THREADS = "curate-batch"
LOGPROB = "logprob"
ATTENTION = "attention"
#: ``(quantity, sentence key, position, value)``: one number for the cache.
Row = tuple[str, str, int, float]
PassFunction = Callable[[LoadedModel, Sequence[Job]], list[Row]]


def _padded(lm: LoadedModel, batch: Sequence[Job]) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The batch's ids padded on the right, and an attention mask when any row is padded."""
    width = max(len(job.ids) for job in batch)
    input_ids = torch.full((len(batch), width), lm.pad_token_id, dtype=torch.long)
    padded = False
    for row, job in enumerate(batch):
        input_ids[row, : len(job.ids)] = torch.tensor(job.ids, dtype=torch.long)
        padded |= len(job.ids) < width
    if not padded:
        return input_ids, None
    lengths = torch.tensor([len(job.ids) for job in batch])
    return input_ids, (torch.arange(width)[None, :] < lengths[:, None]).long()


def masked_copies(lm: MaskedLM, batch: Sequence[Job]) -> list[Row]:
    """``log P(original token | sentence with it masked)`` for each job, in one forward pass."""
    input_ids, attention_mask = _padded(lm, batch)
    rows = len(batch)
    positions = torch.tensor([job.position for job in batch], dtype=torch.long)
    targets = input_ids[torch.arange(rows), positions].clone()
    input_ids[torch.arange(rows), positions] = lm.mask_token_id
    for row, job in enumerate(batch):
        if job.also_masked:
            input_ids[row, list(job.also_masked)] = lm.mask_token_id
    if attention_mask is not None:
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
    return [
        (LOGPROB, job.key, job.position, value)
        for job, value in zip(batch, chosen.cpu().tolist(), strict=True)
    ]


def _index(batch: Sequence[Job], start: int, stop_offset: int) -> tuple[list[int], list[int]]:
    rows: list[int] = []
    positions: list[int] = []
    for row, job in enumerate(batch):
        span = range(start, len(job.ids) - stop_offset)
        rows.extend([row] * len(span))
        positions.extend(span)
    return rows, positions


def unmasked_pass(lm: MaskedLM, batch: Sequence[Job], attention: bool = False) -> list[Row]:
    """AUL's numbers: ``log P(token_i | unmasked sentence)`` at every non-special position,
    and with ``attention`` the attention each token receives (AULA)."""
    input_ids, attention_mask = _padded(lm, batch)
    device_mask = attention_mask.to(lm.device) if attention_mask is not None else None
    device_ids = input_ids.to(lm.device)
    rows, positions = _index(batch, 1, 1)
    targets = input_ids[rows, positions].to(lm.device)
    with torch.inference_mode():
        hidden = logits = None
        kwargs = {"output_attentions": True} if attention else {}
        if lm.head is not None:
            output = lm.base(input_ids=device_ids, attention_mask=device_mask, **kwargs)
            hidden = output[0]
        else:
            output = lm.model(input_ids=device_ids, attention_mask=device_mask, **kwargs)
            logits = output.logits
        values = token_logprobs(
            lm,
            hidden,
            logits,
            torch.tensor(rows, device=lm.device),
            torch.tensor(positions, device=lm.device),
            targets,
        )
        received: list[float] = []
        if attention:
            stacked = torch.stack(output.attentions).float()  # layers x batch x heads x W x W
            for row, job in enumerate(batch):
                n = len(job.ids)
                per_token = stacked[:, row, :, :n, :n].mean(0).mean(0).mean(0)
                received.extend(per_token[1 : n - 1].cpu().tolist())
    keys = [batch[row].key for row in rows]
    out: list[Row] = [(LOGPROB, k, p, v) for k, p, v in zip(keys, positions, values, strict=True)]
    if attention:
        out += [(ATTENTION, k, p, a) for k, p, a in zip(keys, positions, received, strict=True)]
    return out


def _sequences(batch: Sequence[Job], start: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """The batch's sentences from ``start`` on, each next to its partner when both are in
    the batch (the plan sorts partners side by side; this makes sure of it)."""
    by_ids: dict[tuple[int, ...], list[int]] = {}
    for i, job in enumerate(batch):
        by_ids.setdefault(job.ids, []).append(i)
    used: set[int] = set()
    order: list[int] = []
    for i in range(len(batch)):
        if i in used:
            continue
        used.add(i)
        order.append(i)
        mates = [j for j in by_ids.get(batch[i].partner, []) if j not in used]
        if batch[i].partner and mates:
            used.add(mates[0])
            order.append(mates[0])
    return [batch[i].ids[start:] for i in order], order


def causal_pass(lm: CausalLM, batch: Sequence[Job]) -> list[Row]:
    """``log P(token_i | prefix, tokens_<i)`` for every token after the prefix token
    (``clm-sum``, ``clm-shared``, ``clm-mean-prefixed``); the two sentences of a pair share
    one packed row (:func:`curate.score.packing.next_token_logprobs`)."""
    sequences, order = _sequences(batch, 0)
    numbers = next_token_logprobs(lm, sequences)
    return [
        (LOGPROB, batch[i].key, t, value)
        for i, values in zip(order, numbers, strict=True)
        for t, value in enumerate(values, start=1)
    ]


def bias_bench_pass(lm: CausalLM, batch: Sequence[Job]) -> list[Row]:
    """bias-bench's GPT-2 numbers (``clm-mean``, ``crows.py`` ``_joint_log_probability``):
    the sentence's first token from the model run on the prefix token alone, every later token
    from a run on the sentence's own tokens *without* the prefix token (positions from 0).

    Rows are at the positions of the job's ids (the prefix token at 0), as for
    :func:`causal_pass`, so every reader of the causal passes reads both.
    """
    sequences, order = _sequences(batch, 1)
    numbers = next_token_logprobs(lm, sequences)
    firsts = sorted({seq[0] for seq in sequences if seq})
    start: dict[int, float] = {}
    if firsts:
        with torch.inference_mode():
            ids = torch.tensor([[lm.prefix_token_id]], device=lm.device)
            logits = lm.model(input_ids=ids).logits[0, 0].float()
            logprobs = torch.log_softmax(logits, dim=-1)[torch.tensor(firsts, device=lm.device)]
        start = dict(zip(firsts, logprobs.cpu().tolist(), strict=True))
    rows: list[Row] = []
    for i, sequence, values in zip(order, sequences, numbers, strict=True):
        if not sequence:
            continue
        key = batch[i].key
        rows.append((LOGPROB, key, 1, start[sequence[0]]))
        rows += [(LOGPROB, key, t, value) for t, value in enumerate(values, start=2)]
    return rows


def pass_for(method: Method) -> PassFunction:
    """The forward pass that gives ``method`` its per-token numbers."""
    if not method.one_pass:
        return masked_copies  # type: ignore[return-value]
    if method.pass_id == CLM_BIAS_BENCH_PASS:
        return bias_bench_pass  # type: ignore[return-value]
    if method.kind == "causal":
        return causal_pass  # type: ignore[return-value]
    if method.name == "aula":
        return lambda lm, batch: unmasked_pass(lm, batch, attention=True)  # type: ignore[arg-type]
    return unmasked_pass  # type: ignore[return-value]


def run_batches(
    lm: LoadedModel,
    batches: Sequence[Sequence[Job]],
    forward: PassFunction,
    threads: int | None = None,
) -> Iterator[tuple[Sequence[Job], list[Row]]]:
    """Run ``forward`` on the batches, yielding ``(batch, rows)`` in order.

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
            yield batch, forward(lm, batch)
        return
    torch.set_num_threads(1)
    pool = ThreadPoolExecutor(
        workers,
        thread_name_prefix=BATCH_THREADS,
        initializer=torch.set_num_threads,
        initargs=(1,),
    )
    try:
        pending: deque[tuple[Sequence[Job], Future[list[Row]]]] = deque()
        upcoming = iter(batches)
        for batch in itertools.islice(upcoming, workers):
            pending.append((batch, pool.submit(forward, lm, batch)))
        while pending:
            batch, future = pending.popleft()
            rows = future.result()
            following = next(upcoming, None)
            if following is not None:
                pending.append((following, pool.submit(forward, lm, following)))
            yield batch, rows
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        torch.set_num_threads(before)
