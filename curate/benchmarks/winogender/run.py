"""WinoGender's own scoring route: the sentence scores of every triple, the paper's measure and
the harness's multiple-choice accuracy, written beside the shared score files.

``winogender-clm`` (causal LMs) scores the three sentences of every template as ``clm-sum``
does, and the 720 multiple-choice items as lm-evaluation-harness' ``winogender_*`` tasks do
(the same tokenisation and log-likelihood, :func:`choice_loglikelihoods`); ``winogender-mlm``
(masked LMs) scores the sentences as ``pll`` does (no multiple choice: the harness has no
masked-LM route). Both write, under ``<out>/<model>/<method>/``:

* ``scores.csv`` and ``summary.json`` in the shared shape (one row per pair: the BLS-majority
  pronoun's sentence against the other gendered one; the metric is the share of pairs where
  the model prefers the stereotypical pronoun, 50 ideal), so ``curate explore``, ``instrument``
  and the cross-benchmark readers read them as any score column; ``summary.json`` adds
  ``winogender``: the paper's correlations with their intervals, the female preference per
  occupation and (causal) the accuracies;
* ``winogender.csv``: per template and variant, the three sentence scores and the female
  preference; ``choices.csv`` (causal): per sentence, the two choices' log-likelihoods.

Sentence pairs with any shared method (``--method pll`` ...) are scored by the shared route.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.benchmarks.winogender.evaluation import (
    ChoiceItem,
    TemplateScores,
    accuracy,
    choice_items,
    paper_measure,
    per_occupation,
)
from curate.benchmarks.winogender.io import GENDERS, sentence_of, triple_of
from curate.benchmarks.winogender.methods import OWN_METHODS, SENTENCE_METHOD
from curate.errors import InputError, UsageError
from curate.fileio import write_file_set
from curate.formats.dataset import Dataset
from curate.pairs import Pair
from curate.score.cache import ScoreCache, open_cache
from curate.score.files import write_score_column
from curate.score.methods import METHODS
from curate.score.models import LoadedModel, load_model
from curate.score.outputs import output_directory, score_summary
from curate.score.run import ScoreHooks, plan_models
from curate.score.settings import ScoreSettings

#: The own method of each kind of model (what ``curate score`` runs without ``--method``).
BY_KIND = {"causal": "winogender-clm", "masked": "winogender-mlm"}


@dataclass(frozen=True)
class WinoGenderOutput:
    """One (model, method) result of the own route: its summary and where it was written."""

    slug: str
    method: str
    summary: dict[str, Any]
    directory: Path


def own_methods(requested: Sequence[str], kind: str, model: str) -> tuple[str, ...]:
    """The own methods to run on a model: the requested ones (which must fit its kind), else
    its kind's one."""
    own = [m for m in requested if m in OWN_METHODS]
    if not requested:
        return (BY_KIND[kind],)
    unfit = [m for m in own if METHODS[m].kind != kind]
    if unfit:
        raise UsageError(
            f"{model} is a {kind} language model: method {', '.join(unfit)} does not apply; "
            f"use {BY_KIND[kind]}"
        )
    return tuple(own)


def _neutral_pairs(pairs: Sequence[Pair]) -> list[Pair]:
    """Pairs whose ``sent_more`` is the neutral sentence, so that the pair engine (and its
    cache) scores it; the other side is the pair's own ``sent_more``, served from the cache."""
    out = []
    for pair in pairs:
        neutral = sentence_of(pair, "neutral")
        if neutral is not None:
            out.append(pair.with_changes(sent_more=neutral, sent_less=pair.sent_more))
    return out


def template_scores(
    pairs: Sequence[Pair], lm: LoadedModel, method: str, store: ScoreCache, settings: ScoreSettings,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Any, list[TemplateScores]]:
    """The shared pair result (``sent_more`` vs ``sent_less``) and the three sentence scores
    of every triple, with the pair method behind ``method``."""
    from curate.score.engine import score_pairs

    sentence_method = SENTENCE_METHOD[method]
    result = score_pairs(pairs, lm, sentence_method, cache=store, settings=settings, progress=progress)
    neutral = score_pairs(_neutral_pairs(pairs), lm, sentence_method, cache=store, settings=settings)
    neutral_by_id = {s.pair_id: s.sent_more_score for s in neutral.scores}
    templates = []
    by_id = result.by_id()
    for pair in pairs:
        score = by_id[pair.pair_id]
        triple = triple_of(pair)
        assert triple is not None
        by_gender = {triple.more: score.sent_more_score, triple.less: score.sent_less_score,
                     "neutral": neutral_by_id.get(pair.pair_id)}
        templates.append(TemplateScores(pair.pair_id, triple, tuple(by_gender[g] for g in GENDERS)))  # type: ignore[arg-type]
    return result, templates


def choice_loglikelihoods(lm: LoadedModel, items: Sequence[ChoiceItem]) -> list[tuple[float, float]]:
    """The log-likelihood of each choice (`` OCCUPATION``, `` PARTICIPANT``) after the prompt,
    as lm-evaluation-harness' ``HFLM.loglikelihood`` computes it: the continuation's tokens are
    those of ``tokenize(context + continuation)`` past ``tokenize(context)``, the input is the
    two joined (left-truncated to the model's length) without its last token, and the score
    is the sum of the continuation tokens' log-softmax."""
    import torch

    tokenizer, model = lm.tokenizer, lm.model
    results = []
    with torch.inference_mode():
        for item in items:
            context_enc = tokenizer.encode(item.context)
            lls = []
            for choice in item.choices:
                whole = tokenizer.encode(item.context + " " + choice)
                continuation = whole[len(context_enc):]
                tokens = (context_enc + continuation)[-(lm.max_length + 1):][:-1]
                ids = torch.tensor([tokens], device=lm.device)
                logprobs = torch.log_softmax(model(ids).logits[0], dim=-1)[-len(continuation):]
                target = torch.tensor(continuation, device=lm.device).unsqueeze(1)
                lls.append(float(logprobs.gather(1, target).sum()))
            results.append((lls[0], lls[1]))
    return results


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def winogender_csv(templates: Sequence[TemplateScores]) -> str:
    """Per template and variant: ids, the three sentence scores (full precision) and the female
    preference."""
    return _csv(
        ("pair_id", "occupation", "participant", "someone", "answer", "male_score",
         "female_score", "neutral_score", "female_preference"),
        [
            (t.pair_id, t.triple.occupation, t.triple.participant, int(t.triple.someone),
             t.triple.answer, *(repr(s) if s is not None else "" for s in t.scores),
             repr(t.female_preference))
            for t in templates
        ],
    )


def choices_csv(items: Sequence[ChoiceItem], lls: Sequence[tuple[float, float]]) -> str:
    """Per sentence: the multiple-choice item and its two choices' log-likelihoods."""
    return _csv(
        ("sentid", "gender", "label", "gotcha", "occupation_ll", "participant_ll", "correct"),
        [
            (i.sentid, i.gender, i.label, int(i.gotcha), repr(a), repr(b),
             int((0 if a >= b else 1) == i.label))
            for i, (a, b) in zip(items, lls, strict=True)
        ],
    )


def score_winogender(
    dataset: Dataset,
    models: Mapping[str, str],
    settings: ScoreSettings,
    *,
    data: Mapping[str, str],
    out_dir: Path,
    cache: ScoreCache | Path | str | None = None,
    hooks: ScoreHooks | None = None,
) -> list[WinoGenderOutput]:
    """Score a WinoGender dataset with every model (``{output name: model}``) and its own
    methods, writing the files of the module's docstring."""
    hooks = hooks or ScoreHooks()
    pairs = [p for p in dataset.pairs if triple_of(p) is not None]
    if not pairs:
        raise InputError(f"{dataset.source}: no WinoGender triples to score")
    plans = plan_models(models, ())
    chosen = [own_methods(settings.methods, p.kind, p.name) for p in plans]
    outputs = []
    with open_cache(cache) as store:
        for plan, methods in zip(plans, chosen, strict=True):
            loading = hooks.loading(plan.name) if hooks.loading else contextlib.nullcontext()
            with loading:
                lm = load_model(plan.name, device=settings.device, dtype=settings.dtype, lowercase=settings.lowercase)
            for method in methods:
                outputs.append(_score_one(pairs, lm, plan.slug, method, store, settings, data, out_dir, hooks))
            del lm
    return outputs


def _score_one(
    pairs: Sequence[Pair],
    lm: LoadedModel,
    slug: str,
    method: str,
    store: ScoreCache,
    settings: ScoreSettings,
    data: Mapping[str, str],
    out_dir: Path,
    hooks: ScoreHooks,
) -> WinoGenderOutput:
    progress = hooks.start(slug, method, "sentences") if hooks.start else None
    result, templates = template_scores(pairs, lm, method, store, settings, progress)
    summary = score_summary(result, data, settings.threshold)
    section: dict[str, Any] = {
        "method": method,
        "sentence_method": SENTENCE_METHOD[method],
        "female_preference": "100 * P(female) / (P(female) + P(male)) per template and variant, "
        "averaged per occupation (50: no preference)",
        "correlation": paper_measure(templates),
        "occupations": per_occupation(templates),
    }
    files: dict[str, str] = {"winogender.csv": winogender_csv(templates)}
    if lm.kind == "causal":
        items = choice_items(
            [t.triple for t in templates],
            [{g: sentence_of(p, g) for g in GENDERS} for p in pairs],
        )
        lls = choice_loglikelihoods(lm, items)
        section["multiple_choice"] = {
            "route": "lm-evaluation-harness winogender_* (0-shot, acc)",
            **accuracy(items, lls),
        }
        files["choices.csv"] = choices_csv(items, lls)
    summary = {**summary, "method": method, "winogender": section}
    target = output_directory(out_dir, slug, method)
    write_score_column(result.scores, summary, target)
    write_file_set(target, files)
    output = WinoGenderOutput(slug, method, summary, target)
    return output


def summary_text(summary: Mapping[str, Any]) -> str:
    """The summary as JSON (for tests and ``--format json``)."""
    return json.dumps(summary, indent=2, ensure_ascii=False)
