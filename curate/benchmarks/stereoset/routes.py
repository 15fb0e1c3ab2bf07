"""The scoring routes of StereoSet: which computation each method runs on each task.

A StereoSet method (``--method``) is one route for the intrasentence items and one for the
intersentence items. Each route says what it computes, which peer's code it equals and how it
differs from the others; that text goes into every output (``stereoset.json``, the terminal).
Each route has its own cache pass, so two methods sharing a route share its cached scores
(``stereoset-clm`` and ``stereoset-clm-conditional`` share the intrasentence one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from curate.benchmarks.stereoset.items import StereoSetItem
from curate.benchmarks.stereoset.score_lm import (
    causal_context_ratio_scores,
    causal_continuation_scores,
    causal_official_ratio_scores,
    causal_sentence_scores,
    masked_sentence_scores,
    official_context,
    template_word,
    uses_leading_space,
)
from curate.score.models import LoadedModel

Scores = dict[tuple[str, str], float]


@dataclass(frozen=True)
class Route:
    """One way of scoring the three sentences of one kind of StereoSet item."""

    name: str
    task: str
    #: The score cache's pass id (with the model, tokenizer, dtype and batch size).
    pass_id: str
    description: str
    compute: Callable[[Sequence[StereoSetItem], LoadedModel, int], Scores]
    #: The model inputs of one candidate, for the length check: (text, text pair or None).
    inputs: Callable[[StereoSetItem, str, LoadedModel], tuple[str, str | None]]
    #: True when a score does not depend on the item's context (the cache key leaves it out).
    context_free: bool = False
    #: Needs the model's pretrained next-sentence-prediction head.
    needs_nsp: bool = False


def _masked_word(space: str) -> Callable[[Sequence[StereoSetItem], LoadedModel, int], Scores]:
    def compute(items: Sequence[StereoSetItem], lm: LoadedModel, batch_size: int) -> Scores:
        leading = space == "biasbench" and uses_leading_space(lm.model)
        return masked_sentence_scores(items, lm.model, lm.tokenizer, batch_size=batch_size, leading_space=leading)

    return compute


def _masked_word_input(item: StereoSetItem, sentence: str, lm: LoadedModel) -> tuple[str, str | None]:
    word = template_word(item.context, sentence)
    return item.context.replace("BLANK", f" {word}{lm.tokenizer.mask_token}"), None


def _nsp(items: Sequence[StereoSetItem], lm: LoadedModel, batch_size: int) -> Scores:
    from curate.benchmarks.stereoset.score_nsp import nsp_head, nsp_scores

    head = nsp_head(lm)
    if head.model is None:
        raise ValueError(f"{lm.name} has no pretrained next-sentence-prediction head")
    return nsp_scores(items, head.model, lm.tokenizer, batch_size=batch_size)


def _pll(items: Sequence[StereoSetItem], lm: LoadedModel, batch_size: int) -> Scores:
    from curate.benchmarks.stereoset.score_pll import pll_scores

    return pll_scores(items, lm.model, lm.tokenizer, batch_size=batch_size)


def _causal(function: Callable[..., Scores]) -> Callable[[Sequence[StereoSetItem], LoadedModel, int], Scores]:
    def compute(items: Sequence[StereoSetItem], lm: LoadedModel, batch_size: int) -> Scores:
        return function(items, lm.model, lm.tokenizer, batch_size=batch_size)

    return compute


def _pair(item: StereoSetItem, sentence: str, lm: LoadedModel) -> tuple[str, str | None]:
    return item.context, sentence


def _alone(item: StereoSetItem, sentence: str, lm: LoadedModel) -> tuple[str, str | None]:
    return sentence, None


def _after_context(item: StereoSetItem, sentence: str, lm: LoadedModel) -> tuple[str, str | None]:
    return f"{item.context} {sentence}", None


def _after_official_context(item: StereoSetItem, sentence: str, lm: LoadedModel) -> tuple[str, str | None]:
    return f"{official_context(item.context)} {sentence}", None


MLM_WORD = Route(
    "official template word",
    "intrasentence",
    "stereoset-mlm/2",
    "mean softmax probability of the template word's tokens, each masked in the context with the "
    "tokens before it filled in; the word encoded as it is, as the official code's "
    "IntrasentenceLoader does (RoBERTa: 'hispanic' -> h, is, panic: three masks); bias-bench's "
    "loader adds a leading space for RoBERTa (stereoset-mlm-biasbench); BERT-family results are "
    "the same in both",
    _masked_word("official"),
    _masked_word_input,
)
MLM_WORD_BIASBENCH = Route(
    "bias-bench template word",
    "intrasentence",
    "stereoset-mlm/1",
    "as the official template-word route, but the word encoded with a leading space for "
    "RoBERTa-family models (bias-bench's IntrasentenceLoader: 'Ġhispanic', one mask); equals "
    "bias-bench's StereoSetRunner, not the official numbers, for RoBERTa",
    _masked_word("biasbench"),
    _masked_word_input,
)
NSP = Route(
    "official next-sentence prediction",
    "intersentence",
    "stereoset-nsp/1",
    "p(IsNext | context, candidate) from the model's pretrained next-sentence-prediction head, "
    "the pair encoded as [CLS] context [SEP] candidate [SEP]: the official code's "
    "BertNextSentence route (eval_discriminative_models.py); bias-bench does not score "
    "intersentence items",
    _nsp,
    _pair,
    needs_nsp=True,
)
PLL_INTRA = Route(
    "pseudo-log-likelihood of the context",
    "intrasentence",
    "stereoset-pll/1",
    "the seed paper's Table 7 PLL: the filled word never masked, every other token masked alone, "
    "the log-probabilities of the originals summed (no official code; like CrowS-Pairs' pll "
    "without its alignment)",
    _pll,
    _alone,
)
PLL_INTER = Route(
    "pseudo-log-likelihood of the context given the candidate",
    "intersentence",
    "stereoset-pll/1",
    "the seed paper's Table 7 PLL: the context sentence's tokens masked one at a time with the "
    "candidate unmasked after it ([CLS] context [SEP] candidate [SEP]), the log-probabilities "
    "summed (no official code)",
    _pll,
    _pair,
)
CLM_SENTENCE = Route(
    "official geometric-mean probability",
    "intrasentence",
    "stereoset-clm/1",
    "geometric mean probability of the sentence's tokens, the first given <|endoftext|> alone, "
    "the others from a run on the sentence without it: the official eval_generative_models.py "
    "(GPT2LM) and bias-bench's generative runner, which agree",
    _causal(causal_sentence_scores),
    _alone,
    context_free=True,
)
CLM_OFFICIAL_RATIO = Route(
    "official GPT-2 ratio",
    "intersentence",
    "stereoset-clm-ratio/1",
    "the official eval_generative_models.py evaluate_intersentence (GPT2LM): no_context_score / "
    "context_score, the mean log2 probabilities of the candidate alone and of the context; as "
    "in the official code the candidate given the context plays no part (context_score is the "
    "same for an item's three candidates), and all items are scored (the official code stops "
    "after the first 1,000)",
    _causal(causal_official_ratio_scores),
    _after_official_context,
)
CLM_CONTEXT_RATIO = Route(
    "paper's context ratio",
    "intersentence",
    "stereoset-clm-context-ratio/1",
    "the seed paper's description of the GPT-2 route: log2 of the candidate's geometric-mean "
    "probability given the context minus log2 of it alone (no peer code does this; the official "
    "code's ratio ignores the candidate given the context)",
    _causal(causal_context_ratio_scores),
    _after_context,
)
CLM_CONDITIONAL = Route(
    "continuation given the context",
    "intersentence",
    "stereoset-clm/1",
    "geometric mean probability of the candidate's tokens given the context (context + ' ' + "
    "candidate, the candidate's tokens after the context's): curate's own route, as "
    "lm-evaluation-harness scores a continuation; not the official ratio",
    _causal(causal_continuation_scores),
    _after_context,
)

#: Each StereoSet method: its (intrasentence, intersentence) routes.
METHOD_ROUTES: dict[str, tuple[Route, Route]] = {
    "stereoset-mlm": (MLM_WORD, NSP),
    "stereoset-mlm-biasbench": (MLM_WORD_BIASBENCH, NSP),
    "stereoset-pll": (PLL_INTRA, PLL_INTER),
    "stereoset-clm": (CLM_SENTENCE, CLM_OFFICIAL_RATIO),
    "stereoset-clm-context-ratio": (CLM_SENTENCE, CLM_CONTEXT_RATIO),
    "stereoset-clm-conditional": (CLM_SENTENCE, CLM_CONDITIONAL),
}


def routes_of(method: str) -> dict[str, Route]:
    """``{task: route}`` of a StereoSet method."""
    intra, inter = METHOD_ROUTES[method]
    return {"intrasentence": intra, "intersentence": inter}


def nsp_missing(lm: LoadedModel) -> str:
    """Why the model cannot take the NSP route ("" when it can)."""
    from curate.benchmarks.stereoset.score_nsp import nsp_head

    return nsp_head(lm).missing
