"""Scoring a StereoSet file with language models: what ``curate score`` runs on StereoSet.

A StereoSet file is not a list of CrowS-Pairs-style pairs to compare but items of three
sentences, scored by StereoSet's own rules and summarised by its own metrics
(:mod:`curate.benchmarks.stereoset.evaluation`: LMS, SS, ICAT per term, domain and task). So it has its own
methods, each one route per task (:mod:`curate.benchmarks.stereoset.routes`): ``stereoset-mlm``
(the official code for masked LMs: template-word likelihood, next-sentence prediction),
``stereoset-mlm-biasbench``, ``stereoset-pll`` (the seed paper's pseudo-log-likelihood),
``stereoset-clm`` (the official GPT-2 code) and two causal variants. A masked LM without a
pretrained NSP head skips the intersentence items under the NSP route; the note says so and
names the methods that do apply.

Every sentence score is cached (one row per sentence, keyed by route, model, tokenizer, dtype
and batch size through :func:`curate.score.cache.open_cache`; the row at position 0 holds the
sentence score itself under the route's own pass id), items are scored in chunks and each
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
from curate.benchmarks.stereoset.evaluation import ItemScores, StereoSetResults, stereoset_results
from curate.benchmarks.stereoset.items import StereoSetItem
from curate.benchmarks.stereoset.methods import OWN_METHODS
from curate.benchmarks.stereoset.routes import Route, nsp_missing, routes_of
from curate.benchmarks.stereoset.score_lm import GOLD_FIELDS, item_scores
from curate.errors import InputError, UsageError
from curate.fileio import write_file_set
from curate.formats.dataset import Dataset
from curate.score.cache import ScoreCache, open_cache
from curate.score.corpusfile import Corpus
from curate.score.methods import METHODS, Method
from curate.score.models import LoadedModel, load_model
from curate.score.run import ScoreHooks, measure_corpus, plan_models
from curate.score.settings import ScoreSettings

#: The StereoSet method of each kind of model.
STEREOSET_METHODS: dict[str, str] = {"masked": "stereoset-mlm", "causal": "stereoset-clm"}
#: Items scored between two cache commits (and progress updates).
CHUNK_ITEMS = 64
NSP_NOTE = (
    "intersentence items not scored by {method}: its route is the pretrained next-sentence-"
    "prediction head and {model} has none ({why}); score them with stereoset-pll (masked LMs) "
    "or a causal LM's stereoset-clm"
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


def stereoset_of_kind(kind: str) -> list[str]:
    """The StereoSet methods for a kind of model (those its benchmark's scoring lists), the
    official one first."""
    return [n for n in OWN_METHODS if METHODS[n].kind == kind]


def stereoset_methods(requested: Sequence[str], kind: str, model: str) -> tuple[Method, ...]:
    """The StereoSet methods to score a model of ``kind`` with: the requested ones, which must
    all be StereoSet methods of that kind, or the kind's official one."""
    if not requested:
        return (METHODS[STEREOSET_METHODS[kind]],)
    own = stereoset_of_kind(kind)
    wrong = [name for name in requested if name not in own]
    if wrong:
        raise UsageError(
            f"a StereoSet file is scored with StereoSet's own methods; {model} is a {kind} LM, "
            f"so --method {', '.join(wrong)} does not apply; choose from {', '.join(own)}"
        )
    return tuple(METHODS[name] for name in requested)


def scored_items(
    dataset: Dataset, kind: str, *, method: Method | None = None, lm: LoadedModel | None = None
) -> tuple[list[StereoSetItem], list[str]]:
    """The items a model of ``kind`` scores with ``method`` (default: the kind's official
    one), and notes on what it leaves out: the intersentence items, under the NSP route, when
    the model has no pretrained NSP head (without ``lm`` to check, they are left out). A
    UsageError when that leaves nothing (a file of intersentence items only)."""
    from curate.benchmarks.stereoset.io import item_of

    method = method or METHODS[STEREOSET_METHODS[kind]]
    items = [item_of(p) for p in dataset.pairs]
    notes = []
    if dataset.intersentence:
        route = routes_of(method.name)["intersentence"]
        why = "" if not route.needs_nsp else (nsp_missing(lm) if lm is not None else "not checked")
        if why:
            model = lm.name if lm is not None else "the model"
            note = NSP_NOTE.format(method=method.name, model=model, why=why)
            notes.append(f"{len(dataset.intersentence)} {note}")
        else:
            items.extend(dataset.intersentence)
    if not items and notes:  # nothing left: one sentence, not an empty evaluation
        raise UsageError(f"{dataset.source}: no item left to score: the file's {notes[0]}")
    return items, notes


def _sentence_key(kind: str, context: str, sentence: str) -> str:
    """The cache key of one sentence score: what it depends on besides the model."""
    text = json.dumps([kind, context, sentence], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _item_keys(item: StereoSetItem, route: Route) -> dict[str, str]:
    """``{gold: cache key}``; a context-free route's score does not depend on the context."""
    context = "" if route.context_free else item.context
    return {gold: _sentence_key(item.kind, context, getattr(item, f)) for gold, f in GOLD_FIELDS}


def _route_context(lm: LoadedModel, route: Route, batch_size: int) -> dict[str, str | int]:
    """What a cached score of ``route`` depends on besides the sentence: the NSP route's
    weights are the NSP model's, which the masked LM's fingerprint does not cover."""
    context = lm.context(route.pass_id, batch_size)
    if route.needs_nsp:
        from curate.benchmarks.stereoset.score_nsp import nsp_head

        context["model"] = nsp_head(lm).fingerprint
    return context


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


def _compute(
    items: Sequence[StereoSetItem], lm: LoadedModel, method: Method, batch_size: int
) -> dict[tuple[str, str], float]:
    """Sentence scores of a chunk of items, each task by the method's route."""
    scores: dict[tuple[str, str], float] = {}
    for task, route in routes_of(method.name).items():
        of_task = [i for i in items if i.kind == task]
        if of_task:
            scores.update(route.compute(of_task, lm, batch_size))
    return scores


def _longest_input(item: StereoSetItem, lm: LoadedModel, route: Route) -> tuple[str, int]:
    """The gold label and token count of the item's longest model input."""
    lengths = {}
    for gold, field in GOLD_FIELDS:
        text, pair = route.inputs(item, getattr(item, field), lm)
        lengths[gold] = len(lm.tokenizer(text, pair)["input_ids"])
    gold = max(lengths, key=lengths.__getitem__)
    return gold, lengths[gold]


def check_lengths(
    items: Sequence[StereoSetItem], lm: LoadedModel, source: str, method: Method | None = None
) -> None:
    """An input error naming the first item too long for the model, before any scoring."""
    routes = routes_of((method or METHODS[STEREOSET_METHODS[lm.kind]]).name)
    for item in items:
        try:
            gold, length = _longest_input(item, lm, routes[item.kind])
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
    routes = routes_of(method.name)
    contexts = {
        task: store.register_context(
            _route_context(lm, route, batch_size), label=f"{lm.name} {method.name} {task}: {route.name}"
        )
        for task, route in routes.items()
        if any(item.kind == task for item in items)
    }
    keys = [_item_keys(item, routes[item.kind]) for item in items]
    # One value per (task, cache key): a sentence that occurs twice (the dev set repeats some)
    # gets the first computed value everywhere, so a rerun from the cache is bit-identical
    # even though batch padding moves the last float digits.
    values: dict[tuple[str, str], float] = {}
    for task, context in contexts.items():
        wanted = (k for item, ks in zip(items, keys, strict=True) if item.kind == task for k in ks.values())
        values.update({(task, k): v for (k, _), v in store.lookup(context, wanted).items()})
    missing = [n for n, ks in enumerate(keys) if not all((items[n].kind, k) in values for k in ks.values())]
    total = 3 * len(items)
    done = total - 3 * len(missing)
    stats = StereoSetStats(items=len(items), sentences=total, cache_hits=done)
    check_lengths([items[n] for n in missing], lm, source, method)
    if progress is not None:
        progress(done, total)
    with _threads(threads):
        for start in range(0, len(missing), CHUNK_ITEMS):
            chunk = missing[start : start + CHUNK_ITEMS]
            computed = _compute([items[n] for n in chunk], lm, method, batch_size)
            rows: dict[str, list[tuple[str, int, float]]] = {}
            for n in chunk:
                task = items[n].kind
                for gold, k in keys[n].items():
                    if (task, k) not in values:
                        values[(task, k)] = computed[(items[n].item_id, gold)]
                        rows.setdefault(task, []).append((k, 0, values[(task, k)]))
            for task, task_rows in rows.items():
                store.store(contexts[task], task_rows)
            done += 3 * len(chunk)
            stats.computed += 3 * len(chunk)
            if progress is not None:
                progress(done, total)
    stats.seconds = time.perf_counter() - started
    scores = {
        (item.item_id, gold): values[(item.kind, k)]
        for item, ks in zip(items, keys, strict=True)
        for gold, k in ks.items()
    }
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


def route_provenance(method: Method, results: StereoSetResults) -> dict[str, dict[str, str]]:
    """``{task: {route, description}}`` of the tasks that were scored: which computation ran."""
    return {
        task: {"route": route.name, "description": route.description}
        for task, route in routes_of(method.name).items()
        if task in results.tasks
    }


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
        "routes": route_provenance(method, results),
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
    corpus: Corpus | None = None,
) -> list[StereoSetOutput]:
    """Score a StereoSet dataset with every model (``{output name: model}``) and write
    ``<out>/<model>/<method>/stereoset.json`` and ``scores.csv`` (``corpus``: also the model's
    (pseudo-)perplexity on it, as ``capability`` in stereoset.json)."""
    hooks = hooks or ScoreHooks()
    plans = plan_models(models, ())
    methods = [stereoset_methods(settings.methods, p.kind, p.name) for p in plans]
    outputs = []
    with open_cache(cache) as store:
        for plan, model_methods in zip(plans, methods, strict=True):
            loading = hooks.loading(plan.name) if hooks.loading else contextlib.nullcontext()
            with loading:
                lm = load_model(plan.name, device=settings.device, dtype=settings.dtype, lowercase=settings.lowercase)
            ability = (
                measure_corpus(corpus, plan.slug, lm, store, settings, hooks)
                if corpus is not None
                else None
            )
            for method in model_methods:
                outputs.append(
                    _score_one(
                        dataset, lm, plan.slug, method, store, settings, data, out_dir, hooks,
                        ability,
                    )
                )
            del lm
    return outputs


def _score_one(
    dataset: Dataset,
    lm: LoadedModel,
    slug: str,
    method: Method,
    store: ScoreCache,
    settings: ScoreSettings,
    data: Mapping[str, str],
    out_dir: Path,
    hooks: ScoreHooks,
    capability: Mapping[str, Any] | None = None,
) -> StereoSetOutput:
    """Score the dataset with one model and method, and write its two files."""
    items, notes = scored_items(dataset, lm.kind, method=method, lm=lm)
    progress = hooks.start(slug, method.name, "sentences") if hooks.start else None
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
    if capability is not None:
        document["capability"] = dict(capability)
    target = Path(out_dir) / slug / method.name
    write_file_set(target, {  # as one set
        "scores.csv": scores_csv(scored),
        "stereoset.json": json.dumps(document, indent=2, ensure_ascii=False) + "\n",
    })
    return StereoSetOutput(slug, method.name, tuple(scored), results, document, target, stats)
