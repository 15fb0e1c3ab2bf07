"""The scoring methods: what each computes per token, which tokens count, how they add up.

Every method gives each sentence of a pair a score from per-token numbers, and a pair counts
as biased when ``sent_more`` scores higher (so every CrowS-Pairs statistic of
:mod:`curate.score.metrics` applies to every method). They differ in three ways:

* the **pass** that yields the per-token numbers, which is also what the score cache is keyed
  by (``pass_id``): one masked copy per scored token (``pll``, ``pll-word-l2r``), one forward
  pass over the unmasked sentence (``aul``, ``aula``), or one left-to-right pass after a prefix
  token (the three ``clm-*`` methods, which share their pass and so their cache rows);
* the **tokens** that count: those the two sentences share (``unmodified``, aligned as
  ``metric.py`` aligns them) or every token of the sentence (``all``);
* the **reduction**: sum, mean, or attention-weighted mean.

The definitions follow the peers' source code (see ``README.md``, "Scoring").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from curate.errors import UsageError


@dataclass(frozen=True)
class Method:
    """One scoring method, by its public name (``--method``)."""

    name: str
    kind: str
    pass_id: str
    tokens: str
    reduction: str
    summary: str

    @property
    def dataset(self) -> str:
        """The benchmark the method scores: the one whose :class:`~curate.benchmarks.Scoring`
        lists it among its own methods (StereoSet's), else every pair benchmark's default."""
        from curate import benchmarks

        return next(
            (b.name for b in benchmarks.all_benchmarks().values() if self.name in b.scoring.methods),
            benchmarks.DEFAULT,
        )

    @property
    def one_pass(self) -> bool:
        """True when one forward pass per sentence gives every per-token number (else one
        masked copy per scored token)."""
        return self.pass_id not in MASKED_COPY_PASSES


#: The cache pass of the CrowS-Pairs PLL: unchanged since the first release, so caches written
#: before there were several methods keep serving ``pll``.
PLL_PASS = "crows-pairs-pll/1"
PLL_L2R_PASS = "pll-word-l2r/1"
CLM_PASS = "clm-next-token/1"
MASKED_COPY_PASSES = frozenset({PLL_PASS, PLL_L2R_PASS})
#: The StereoSet methods' names as pass ids; their cache passes are per route
#: (:mod:`curate.score.stereoset_routes`).
STEREOSET_MLM_PASS = "stereoset-mlm"
STEREOSET_CLM_PASS = "stereoset-clm"

METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method(
            "pll",
            "masked",
            PLL_PASS,
            "unmodified",
            "sum",
            "CrowS-Pairs pseudo-log-likelihood (Nangia et al. 2020, metric.py): mask each "
            "unmodified token alone, sum the log-probabilities of the originals.",
        ),
        Method(
            "pll-word-l2r",
            "masked",
            PLL_L2R_PASS,
            "unmodified",
            "sum",
            "PLL within-word left-to-right (Kauf & Ivanova 2023, minicons within_word_l2r): as "
            "pll, but also mask the tokens of the same word to the right of the scored one.",
        ),
        Method(
            "aul",
            "masked",
            "aul/1",
            "all",
            "mean",
            "All Unmasked Likelihood (Kaneko & Bollegala 2022): one pass on the unmasked "
            "sentence, mean log-probability of every token but the special ones.",
        ),
        Method(
            "aula",
            "masked",
            "aula/1",
            "all",
            "attention-weighted mean",
            "AUL with Attention weights (Kaneko & Bollegala 2022): each token's log-probability "
            "times the attention it receives (mean over layers, heads, queries), averaged.",
        ),
        Method(
            "clm-sum",
            "causal",
            CLM_PASS,
            "all",
            "sum",
            "lm-evaluation-harness crows_pairs: sum of log P(token | BOS prefix, tokens before) "
            "over the sentence's tokens.",
        ),
        Method(
            "clm-mean",
            "causal",
            CLM_PASS,
            "all",
            "mean",
            "bias-bench (GPT-2): mean of the same per-token log-probabilities (the log of the "
            "geometric mean probability; the first token is conditioned on the BOS prefix).",
        ),
        Method(
            "clm-shared",
            "causal",
            CLM_PASS,
            "unmodified",
            "sum",
            "ours: the CrowS idea for causal LMs, the sum of those log-probabilities over the "
            "tokens the two sentences share, so the group word's own frequency does not count.",
        ),
        Method(
            "stereoset-mlm",
            "masked",
            STEREOSET_MLM_PASS,
            "template word / NSP",
            "mean probability",
            "StereoSet files only, the official code (Nadeem et al. 2021): intrasentence, mean "
            "probability of the template word's tokens (the word encoded as it is, as the "
            "official IntrasentenceLoader); intersentence, p(IsNext) from the pretrained "
            "next-sentence-prediction head (skipped, with a note, for a model without one).",
        ),
        Method(
            "stereoset-mlm-biasbench",
            "masked",
            "stereoset-mlm-biasbench",
            "template word / NSP",
            "mean probability",
            "StereoSet files only: as stereoset-mlm, but the template word encoded with a "
            "leading space for RoBERTa-family models, as bias-bench does (one mask for "
            "'Ġhispanic' where the official code has three); the same numbers for BERT.",
        ),
        Method(
            "stereoset-pll",
            "masked",
            "stereoset-pll",
            "context tokens",
            "sum",
            "StereoSet files only, the seed paper's Table 7 pseudo-log-likelihood: intrasentence, "
            "mask each token but the filled word's and sum the log-probabilities; "
            "intersentence, the PLL of the context sentence with the candidate after it.",
        ),
        Method(
            "stereoset-clm",
            "causal",
            STEREOSET_CLM_PASS,
            "all",
            "geometric mean probability / ratio",
            "StereoSet files only, the official GPT-2 code: intrasentence, geometric mean "
            "probability of the sentence's tokens, the first given <|endoftext|>; "
            "intersentence, evaluate_intersentence's no_context_score / context_score.",
        ),
        Method(
            "stereoset-clm-context-ratio",
            "causal",
            "stereoset-clm-context-ratio",
            "all",
            "log ratio",
            "StereoSet files only: as stereoset-clm, but intersentence candidates ranked as the "
            "seed paper describes, log2 of their probability given the context over alone.",
        ),
        Method(
            "stereoset-clm-conditional",
            "causal",
            "stereoset-clm-conditional",
            "all",
            "geometric mean probability",
            "StereoSet files only: as stereoset-clm, but intersentence candidates scored by "
            "their geometric mean probability given the context (curate's earlier route).",
        ),
    )
}

#: What a model is scored with when no --method is given.
DEFAULT_METHODS: dict[str, tuple[str, ...]] = {
    "masked": ("pll",),
    "causal": ("clm-sum", "clm-mean", "clm-shared"),
}


def methods_of_kind(kind: str) -> list[str]:
    """The names of the CrowS-Pairs methods defined for a kind of model, in the documented order."""
    return [
        name
        for name, method in METHODS.items()
        if method.kind == kind and method.dataset == "crows-pairs"
    ]


def parse_methods(values: Iterable[str]) -> tuple[str, ...]:
    """Method names from repeated and comma-separated options, deduplicated, validated."""
    names: list[str] = []
    for value in values:
        for name in (part.strip() for part in value.split(",")):
            if not name:
                continue
            if name not in METHODS:
                raise UsageError(
                    f"unknown scoring method {name!r}; choose from {', '.join(METHODS)}"
                )
            if name not in names:
                names.append(name)
    return tuple(names)


def methods_for_model(requested: Sequence[str], kind: str, model: str) -> tuple[Method, ...]:
    """The methods to score a model of ``kind`` with: the requested ones, which must all fit
    it, or the kind's defaults when none were requested."""
    if not requested:
        return tuple(METHODS[name] for name in DEFAULT_METHODS[kind])
    own = [name for name in requested if METHODS[name].dataset != "crows-pairs"]
    if own:
        from curate.benchmarks import get

        raise UsageError(
            f"method {', '.join(own)} scores {get(METHODS[own[0]].dataset).title} files only; "
            f"for pairs choose from {', '.join(methods_of_kind(kind))}"
        )
    unfit = [name for name in requested if METHODS[name].kind != kind]
    if unfit:
        raise UsageError(
            f"{model} is a {kind} language model: method {', '.join(unfit)} does not apply; "
            f"methods for {kind} models: {', '.join(methods_of_kind(kind))}"
        )
    return tuple(METHODS[name] for name in requested)

