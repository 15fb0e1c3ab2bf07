"""Planning a scoring run: tokenise, align, choose the scored tokens, list and batch the jobs.

A *job* is one forward-pass row: a masked copy of a sentence (``pll``, ``pll-word-l2r``: one
per scored token) or a whole sentence (``aul``, ``aula``, ``clm-*``: one pass gives every
token's number). Identical jobs (a sentence repeated across pairs) run once. Jobs are sorted by
length, longest first, so the biggest batch runs first and a memory problem shows at once, and
cut into batches greedily from the front, so the batches left after any prefix of batches are
the ones a fresh run over the remaining jobs forms: a resumed run is bit-for-bit the same.

The causal passes (``clm-*``) give each sentence job its *partner*, the other sentence of its
pair: the two sort next to each other (by the length of the row that packs them) and a pass
packs the two into one row that computes their common prefix once
(:func:`curate.score.passes.causal_pass`).

Alignment is ``metric.py``'s: difflib's ``SequenceMatcher`` over the token ids (as strings),
the stereotypical sentence first; tokens in ``equal`` spans are *unmodified*.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from curate.errors import InputError, UsageError
from curate.pairs import Pair
from curate.score.cache import sentence_key
from curate.score.kinds import ModelError
from curate.score.methods import CAUSAL_PASSES, METHODS, PLL_L2R_PASS, Method
from curate.score.models import CausalLM, LoadedModel
from curate.score.packing import common_prefix

#: Largest share of a batch's rows that may be padding: padding costs as much as real rows,
#: while splitting a batch only shrinks it (CrowS-Pairs: almost every batch has one length).
MAX_PADDING = 0.1
#: The last batch is cut into pieces of ``ceil(batch_size / TAIL_PIECES)``: with few batches
#: (a one-pass method on a small dataset: 80 sentences are 3 batches of 32) the last one would
#: otherwise run alone while the other CPU workers wait.
TAIL_PIECES = 4
#: ``Job.position`` of a whole-sentence pass.
WHOLE = -1


class SentenceTooLongError(InputError):
    """A sentence has more tokens than the model accepts."""


class Job(NamedTuple):
    """One row of a forward pass, and the cache key of the sentence it belongs to."""

    ids: tuple[int, ...]
    #: The masked (scored) position, or :data:`WHOLE` for a pass over the whole sentence.
    position: int
    #: Further positions masked with it (``pll-word-l2r``: the rest of the word).
    also_masked: tuple[int, ...]
    key: str
    #: The other sentence of the pair (causal passes: packed with it into one row when both
    #: are in a batch, so their common prefix is computed once); () for the other passes.
    partner: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SentencePlan:
    """A tokenised sentence, its cache key and the positions whose numbers make its score."""

    ids: tuple[int, ...]
    key: str
    positions: tuple[int, ...]
    #: Word index of every token (``pll-word-l2r`` only; None for special tokens).
    words: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class PairPlan:
    """The two planned sentences of a pair."""

    pair: Pair
    more: SentencePlan
    less: SentencePlan

    @property
    def more_ids(self) -> tuple[int, ...]:
        return self.more.ids

    @property
    def less_ids(self) -> tuple[int, ...]:
        return self.less.ids

    @property
    def more_positions(self) -> tuple[int, ...]:
        return self.more.positions

    @property
    def less_positions(self) -> tuple[int, ...]:
        return self.less.positions


def equal_positions(first: Sequence[int], second: Sequence[int]) -> tuple[list[int], list[int]]:
    """Positions in ``equal`` opcodes of difflib over the two id sequences, in each."""
    matcher = difflib.SequenceMatcher(None, [str(i) for i in first], [str(i) for i in second])
    a: list[int] = []
    b: list[int] = []
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            a.extend(range(a1, a2))
            b.extend(range(b1, b2))
    return a, b


def unmodified_positions(
    stereo_ids: Sequence[int], antistereo_ids: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Positions of the tokens the two sentences share, in each, as ``metric.py`` finds them.

    The first and last of them (the special tokens around the sentence) are never masked.
    """
    first, second = equal_positions(stereo_ids, antistereo_ids)
    return first[1:-1], second[1:-1]


def encode(lm: LoadedModel, text: str, method: Method) -> tuple[tuple[int, ...], tuple]:
    """Token ids (and word indices for ``pll-word-l2r``) of a sentence as the method sees it.

    Masked LMs: the tokenizer's ids with its special tokens, after lower-casing for an uncased
    model. Causal LMs: the prefix token, then the sentence's ids without special tokens.
    """
    if lm.lowercase:
        text = text.lower()
    if isinstance(lm, CausalLM):
        ids = lm.tokenizer(text, add_special_tokens=False)["input_ids"]
        return (lm.prefix_token_id, *ids), ()
    if method.pass_id != PLL_L2R_PASS:
        return tuple(lm.tokenizer.encode(text)), ()
    if not getattr(lm.tokenizer, "is_fast", False):
        raise ModelError(f"{lm.name}: pll-word-l2r needs a fast tokenizer (word_ids)")
    encoded = lm.tokenizer(text)
    return tuple(encoded["input_ids"]), tuple(encoded.word_ids())


def _scored_positions(
    method: Method, more: tuple[int, ...], less: tuple[int, ...], stereo_first: bool, causal: bool
) -> tuple[list[int], list[int]]:
    if method.tokens == "all":
        start, stop = (1, 0) if causal else (1, 1)
        return list(range(start, len(more) - stop)), list(range(start, len(less) - stop))
    if causal:  # the sentence's own tokens after the prefix; none of them is special
        a, b = (more, less) if stereo_first else (less, more)
        first, second = equal_positions(a[1:], b[1:])
        first, second = [p + 1 for p in first], [p + 1 for p in second]
    else:
        a, b = (more, less) if stereo_first else (less, more)
        first, second = unmodified_positions(a, b)
    return (first, second) if stereo_first else (second, first)


def plan_pairs(pairs: Iterable[Pair], lm: LoadedModel, method: str | Method = "pll") -> list[PairPlan]:
    """Tokenise every pair and choose its scored positions; refuse over-long sentences."""
    method = METHODS[method] if isinstance(method, str) else method
    causal = isinstance(lm, CausalLM)
    plans: list[PairPlan] = []
    for pair in pairs:
        encoded = {}
        for field in ("sent_more", "sent_less"):
            ids, words = encode(lm, getattr(pair, field), method)
            if len(ids) > lm.max_length:
                raise SentenceTooLongError(
                    f"pair {pair.pair_id}: {field} is {len(ids)} tokens long, more than the "
                    f"{lm.max_length} that {lm.name} accepts"
                )
            encoded[field] = (ids, words)
        (more, more_words), (less, less_words) = encoded["sent_more"], encoded["sent_less"]
        more_pos, less_pos = _scored_positions(
            method, more, less, pair.direction == "stereo", causal
        )
        plans.append(
            PairPlan(
                pair,
                SentencePlan(more, sentence_key(more, more_words), tuple(more_pos), more_words),
                SentencePlan(less, sentence_key(less, less_words), tuple(less_pos), less_words),
            )
        )
    return plans


def rest_of_word(words: Sequence[int | None], position: int) -> tuple[int, ...]:
    """The positions right of ``position`` in the same word (minicons' ``within_word_l2r``)."""
    word = words[position]
    if word is None:
        return ()
    return tuple(j for j in range(position + 1, len(words)) if words[j] == word)


def row_length(job: Job) -> int:
    """The length of the forward-pass row of a job: the sentence, or for a job with a partner
    the two sentences packed with their common prefix once."""
    if not job.partner:
        return len(job.ids)
    return len(job.ids) + len(job.partner) - common_prefix(job.ids, job.partner)


def plan_jobs(plans: Iterable[PairPlan], method: str | Method = "pll") -> list[Job]:
    """The distinct jobs the plans need, longest first, in a deterministic order."""
    method = METHODS[method] if isinstance(method, str) else method
    jobs: set[Job] = set()
    if method.pass_id in CAUSAL_PASSES:
        partnered: dict[str, Job] = {}
        for plan in plans:
            for sentence, other in ((plan.more, plan.less), (plan.less, plan.more)):
                partner = other.ids if other.ids != sentence.ids else ()
                job = Job(sentence.ids, WHOLE, (), sentence.key, partner)
                # a sentence in several pairs runs once, packed with the first-ordered partner
                if sentence.key not in partnered or _order(job) < _order(partnered[sentence.key]):
                    partnered[sentence.key] = job
        return sorted(partnered.values(), key=_order)
    for plan in plans:
        for sentence in (plan.more, plan.less):
            if method.one_pass:
                jobs.add(Job(sentence.ids, WHOLE, (), sentence.key))
                continue
            for p in sentence.positions:
                extra = rest_of_word(sentence.words, p) if sentence.words else ()
                jobs.add(Job(sentence.ids, p, extra, sentence.key))
    return sorted(jobs, key=_order)


def _order(job: Job) -> tuple:
    # partners share the first two keys, so they sit side by side
    return (-row_length(job), min(job.ids, job.partner or job.ids), job)


def batch_jobs(
    jobs: Sequence[Job], batch_size: int, max_padding: float = MAX_PADDING
) -> list[list[Job]]:
    """Cut the jobs, sorted longest first, into batches of at most ``batch_size``.

    A batch also ends before a job shorter than ``1 - max_padding`` times its first (longest)
    job, so at most that share of a batch's rows is padding (lengths are :func:`row_length`:
    of the packed row, for causal jobs with a partner). The last batch is then cut into
    pieces of ``ceil(batch_size / TAIL_PIECES)`` jobs that the workers share. Both steps work
    from the front with fixed sizes, so the batches left after any prefix of batches are those
    that batching the remaining jobs gives (what makes a resumed run bit-for-bit the same), and
    they do not depend on the number of workers.
    """
    if batch_size < 1:
        raise UsageError(f"batch size must be at least 1, got {batch_size}")
    batches: list[list[Job]] = []
    for job in sorted(jobs, key=_order):
        if (
            batches
            and len(batches[-1]) < batch_size
            and row_length(job) >= (1.0 - max_padding) * row_length(batches[-1][0])
        ):
            batches[-1].append(job)
        else:
            batches.append([job])
    piece = -(-batch_size // TAIL_PIECES)
    if batches and len(batches[-1]) > piece:
        last = batches.pop()
        batches.extend(last[i : i + piece] for i in range(0, len(last), piece))
    return batches
