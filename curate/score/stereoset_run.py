"""Scoring a StereoSet file with language models: what ``curate score`` runs on StereoSet.

A StereoSet file is not a list of CrowS-Pairs-style pairs to compare but items of three
sentences, scored by StereoSet's own rules (:mod:`curate.score.stereoset_lm`) and summarised by
its own metrics (:mod:`curate.score.stereoset`: LMS, SS, ICAT per term, domain and task). So
it has its own two methods: ``stereoset-mlm`` (masked LMs, the official template-word
likelihood) and ``stereoset-clm`` (causal LMs, the geometric-mean sentence probability, and
the continuation given the context for intersentence items). Masked LMs skip the
intersentence items: the official route for them is the next-sentence-prediction head, which
is not implemented; the note says so in the output.

Every sentence score is cached (one row per sentence, keyed by method, model, tokenizer and
dtype through :func:`curate.score.cache.open_cache`; the row at position 0 holds the sentence
score itself, a probability, under the method's own pass id), items are scored in chunks and each
chunk is committed, so an interrupted run resumes and a revised file recomputes only the items
whose sentences changed.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate import __version__
from curate.errors import InputError, UsageError
from curate.fileio import write_file_set
from curate.formats.dataset import Dataset, StereoSetItem
from curate.score.cache import ScoreCache, open_cache
from curate.score.methods import METHODS, Method
from curate.score.models import LoadedModel, load_model
from curate.score.run import ScoreHooks, plan_models
from curate.score.settings import ScoreSettings
from curate.score.stereoset import ItemScores, StereoSetResults, stereoset_results
from curate.score.stereoset_lm import (
    GOLD_FIELDS,
    causal_continuation_scores,
    causal_sentence_scores,
    item_scores,
    masked_sentence_scores,
    template_word,
)

#: The StereoSet method of each kind of model.
STEREOSET_METHODS: dict[str, str] = {"masked": "stereoset-mlm", "causal": "stereoset-clm"}
#: Items scored between two cache commits (and progress updates).
CHUNK_ITEMS = 64
NSP_NOTE = (
    "intersentence items not scored: the official route for masked LMs is the next-sentence-"
    "prediction head, which is not implemented; score them with a causal LM (stereoset-clm)"
)
SCORES_COLUMNS: tuple[str, ...] = (
    "item_id",
    "kind",
    "target",
    "bias_type",
    "stereotype",
    "anti_stereotype",
    "unrelated",
)


@dataclass
class StereoSetStats:
    """What one (model, method) run on one file did."""

    items: int = 0
    sentences: int = 0
    cache_hits: int = 0
    computed: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class StereoSetOutput:
    """One model's StereoSet results, the document written for it and where."""

    slug: str
    method: str
    items: tuple[ItemScores, ...]
    results: StereoSetResults
    document: dict[str, Any]
    directory: Path
    stats: StereoSetStats


def is_stereoset(dataset: Dataset) -> bool:
    """True when ``dataset`` was read from a StereoSet JSON file."""
    return dataset.shape.format == "stereoset"


def stereoset_methods(requested: Sequence[str], kind: str, model: str) -> Method:
    """The StereoSet method for a model of ``kind``: ``--method`` may only name it."""
    own = STEREOSET_METHODS[kind]
    wrong = [name for name in requested if name != own]
    if wrong:
        raise UsageError(
            f"a StereoSet file is scored with stereoset-mlm (masked LMs) or stereoset-clm "
            f"(causal LMs); {model} is a {kind} LM, so --method {', '.join(wrong)} does not apply"
        )
    return METHODS[own]


def scored_items(dataset: Dataset, kind: str) -> tuple[list[StereoSetItem], list[str]]:
    """The items a model of ``kind`` scores, and notes on what it leaves out."""
    from curate.formats import item_of

    items = [item_of(p) for p in dataset.pairs]
    notes = []
    if dataset.intersentence:
        if kind == "causal":
            items.extend(dataset.intersentence)
        else:
            notes.append(f"{len(dataset.intersentence)} {NSP_NOTE}")
    return items, notes


def _sentence_key(kind: str, context: str, sentence: str) -> str:
    """The cache key of one sentence score: what it depends on besides the model."""
    text = json.dumps([kind, context, sentence], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _item_keys(item: StereoSetItem, method: Method) -> dict[str, str]:
    """``{gold: cache key}``; the causal intrasentence score does not depend on the context."""
    context = "" if method.kind == "causal" and item.kind == "intrasentence" else item.context
    return {gold: _sentence_key(item.kind, context, getattr(item, f)) for gold, f in GOLD_FIELDS}


@contextlib.contextmanager
def _threads(threads: int | None) -> Iterator[None]:
    import torch

    before = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _compute(items: Sequence[StereoSetItem], lm: LoadedModel, batch_size: int) -> dict[tuple[str, str], float]:
    """Sentence scores of a chunk of items (all of one model kind's routes)."""
    intra = [i for i in items if i.kind == "intrasentence"]
    inter = [i for i in items if i.kind == "intersentence"]
    scores: dict[tuple[str, str], float] = {}
    if lm.kind == "masked":
        if intra:
            scores.update(masked_sentence_scores(intra, lm.model, lm.tokenizer, batch_size=batch_size))
        return scores
    if intra:
        scores.update(causal_sentence_scores(intra, lm.model, lm.tokenizer, batch_size=batch_size))
    if inter:
        scores.update(causal_continuation_scores(inter, lm.model, lm.tokenizer, batch_size=batch_size))
    return scores


def _longest_input(item: StereoSetItem, lm: LoadedModel) -> tuple[str, int]:
    """The gold label and token count of the item's longest model input."""
    tokenizer = lm.tokenizer
    lengths = {}
    for gold, field in GOLD_FIELDS:
        sentence = getattr(item, field)
        if lm.kind == "masked":
            word = template_word(item.context, sentence)
            text = item.context.replace("BLANK", f"{word}{tokenizer.mask_token}")
            lengths[gold] = len(tokenizer(text)["input_ids"])
        elif item.kind == "intersentence":
            lengths[gold] = len(tokenizer.encode(f"{item.context} {sentence}"))
        else:
            lengths[gold] = len(tokenizer.encode(sentence))
    gold = max(lengths, key=lengths.__getitem__)
    return gold, lengths[gold]


def check_lengths(items: Sequence[StereoSetItem], lm: LoadedModel, source: str) -> None:
    """An input error naming the first item too long for the model, before any scoring."""
    for item in items:
        try:
            gold, length = _longest_input(item, lm)
        except ValueError as exc:
            raise InputError(f"{source}: {item.kind} item {item.item_id}: {exc}") from None
        if length > lm.max_length:
            raise InputError(
                f"{source}: {item.kind} item {item.item_id}: its {gold} input is {length} "
                f"tokens, more than {lm.name} accepts ({lm.max_length})"
            )


def score_items(
    items: Sequence[StereoSetItem],
    lm: LoadedModel,
    method: Method,
    store: ScoreCache,
    *,
    batch_size: int,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    source: str = "dataset",
) -> tuple[list[ItemScores], StereoSetStats]:
    """The three sentence scores of every item, from the cache or computed chunk by chunk
    (each chunk committed before the next starts). An item too long for the model is an
    input error before anything runs."""
    started = time.perf_counter()
    context = store.register_context(
        lm.context(method.pass_id, batch_size), label=f"{lm.name} {method.name}"
    )
    keys = [_item_keys(item, method) for item in items]
    # One value per cache key: a sentence that occurs twice (the dev set repeats some) gets
    # the first computed value everywhere, so a rerun from the cache is bit-identical even
    # though batch padding moves the last float digits.
    values = {k: v for (k, _), v in store.lookup(context, (k for ks in keys for k in ks.values())).items()}
    missing = [n for n, ks in enumerate(keys) if not all(k in values for k in ks.values())]
    total = 3 * len(items)
    done = total - 3 * len(missing)
    stats = StereoSetStats(items=len(items), sentences=total, cache_hits=done)
    check_lengths([items[n] for n in missing], lm, source)
    if progress is not None:
        progress(done, total)
    with _threads(threads):
        for start in range(0, len(missing), CHUNK_ITEMS):
            chunk = missing[start : start + CHUNK_ITEMS]
            computed = _compute([items[n] for n in chunk], lm, batch_size)
            rows = []
            for n in chunk:
                for gold, k in keys[n].items():
                    if k not in values:
                        values[k] = computed[(items[n].item_id, gold)]
                        rows.append((k, 0, values[k]))
            store.store(context, rows)
            done += 3 * len(chunk)
            stats.computed += 3 * len(chunk)
            if progress is not None:
                progress(done, total)
    stats.seconds = time.perf_counter() - started
    scores = {(item.item_id, gold): values[k] for item, ks in zip(items, keys, strict=True) for gold, k in ks.items()}
    return item_scores(items, scores), stats


def scores_csv(items: Sequence[ItemScores]) -> str:
    """The per-item scores: the three sentence scores of every item, in file order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(SCORES_COLUMNS)
    for i in items:
        writer.writerow(
            [i.item_id, i.kind, i.target, i.bias_type, repr(i.stereotype), repr(i.anti_stereotype), repr(i.unrelated)]
        )
    return buffer.getvalue()


def stereoset_document(
    lm: LoadedModel,
    method: Method,
    results: StereoSetResults,
    data: Mapping[str, str],
    notes: Sequence[str],
) -> dict[str, Any]:
    """The stereoset.json document: provenance, notes, and results with per-term figures."""
    return {
        "tool": f"curate {__version__}",
        "data": dict(data),
        "model": lm.name,
        "kind": lm.kind,
        "method": method.name,
        "dtype": lm.dtype,
        "model_fingerprint": lm.model_fingerprint,
        "tokenizer_fingerprint": lm.tokenizer_fingerprint,
        "notes": list(notes),
        "results": results.to_dict(terms=True),
    }


def score_stereoset(
    dataset: Dataset,
    models: Mapping[str, str],
    settings: ScoreSettings,
    *,
    data: Mapping[str, str],
    out_dir: Path,
    cache: ScoreCache | Path | str | None = None,
    hooks: ScoreHooks | None = None,
) -> list[StereoSetOutput]:
    """Score a StereoSet dataset with every model (``{output name: model}``) and write
    ``<out>/<model>/<method>/stereoset.json`` and ``scores.csv``."""
    hooks = hooks or ScoreHooks()
    plans = plan_models(models, ())
    methods = [stereoset_methods(settings.methods, p.kind, p.name) for p in plans]
    outputs = []
    with open_cache(cache) as store:
        for plan, method in zip(plans, methods, strict=True):
            items, notes = scored_items(dataset, plan.kind)
            loading = hooks.loading(plan.name) if hooks.loading else contextlib.nullcontext()
            with loading:
                lm = load_model(plan.name, device=settings.device, dtype=settings.dtype, lowercase=settings.lowercase)
            progress = hooks.start(plan.slug, method.name, "sentences") if hooks.start else None
            scored, stats = score_items(
                items,
                lm,
                method,
                store,
                batch_size=settings.batch_size,
                threads=settings.threads,
                progress=progress,
                source=dataset.source,
            )
            results = stereoset_results(scored)
            document = stereoset_document(lm, method, results, data, notes)
            target = Path(out_dir) / plan.slug / method.name
            write_file_set(target, {  # as one set
                "scores.csv": scores_csv(scored),
                "stereoset.json": json.dumps(document, indent=2, ensure_ascii=False) + "\n",
            })
            outputs.append(StereoSetOutput(plan.slug, method.name, tuple(scored), results, document, target, stats))
            del lm
    return outputs
