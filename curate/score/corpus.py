"""A model's language-modelling quality on a corpus: capability beside the bias metrics.

A low bias score alone does not choose a model (Murphy's study; StereoSet's ICAT is the one
published way of weighing the two, and only for StereoSet). ``curate score --corpus`` gives
every model, beside its bias metrics, its quality on a corpus of sentences:

* **perplexity** for a causal LM: ``exp(-sum of log P(token | prefix, tokens before) / number
  of tokens)`` over every sentence, each sentence conditioned on the prefix token as
  ``clm-sum`` conditions it (so its numbers are ``clm-sum``'s, from the same cache rows);
* **pseudo-perplexity** for a masked LM (Salazar et al. 2020): ``exp(-sum of PLL / number of
  tokens)``, where the PLL masks each token but the special ones alone, exactly ``pll``'s pass
  (so the numbers are the cache rows ``pll`` stores for the same sentence).

A sentence is scored as a pair of two identical sentences, so every token is "unmodified" and
the whole engine (planning, batching, the cache, resuming after an interruption) is reused
unchanged; the cache rows are keyed by the sentence, never by its partner.

The interval is a bootstrap over sentences (:func:`curate.intervals.bootstrap`, the instrument's
rules: none under :data:`~curate.intervals.MIN_BOOTSTRAP` sentences, "n too small" said instead).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from curate.errors import InputError
from curate.intervals import Estimate, bootstrap
from curate.score.cache import ScoreCache

# Corpus, read_corpus_file and corpus_pairs lived here before issue 32; they moved to
# corpusfile.py, which needs no torch, and stay importable from here.
from curate.score.corpusfile import Corpus, corpus_pairs
from curate.score.corpusfile import read_corpus_file as read_corpus_file
from curate.score.engine import score_pairs
from curate.score.methods import METHODS
from curate.score.models import LoadedModel
from curate.score.plan import encode
from curate.score.results import ProgressCallback
from curate.score.settings import ScoreSettings

#: The method whose per-token numbers each kind of model is measured with.
CORPUS_METHODS = {"causal": "clm-sum", "masked": "pll"}
MEASURES = {"causal": "perplexity", "masked": "pseudo-perplexity"}


@dataclass(frozen=True)
class CorpusResult:
    """Per-sentence log-likelihoods and token counts of one model on a corpus."""

    corpus: Corpus
    kind: str
    method: str
    logprobs: tuple[float, ...]
    tokens: tuple[int, ...]
    computed: int
    cache_hits: int
    seconds: float

    def document(self) -> dict[str, Any]:
        """The ``capability`` entry of summary.json."""
        return capability(self.corpus, self.kind, self.method, self.logprobs, self.tokens)


def perplexity(logprobs: Sequence[float], tokens: Sequence[int]) -> float | None:
    """``exp(-sum(logprobs) / sum(tokens))``; None without a token."""
    n = sum(tokens)
    return math.exp(-math.fsum(logprobs) / n) if n else None


def capability(
    corpus: Corpus,
    kind: str,
    method: str,
    logprobs: Sequence[float],
    tokens: Sequence[int],
) -> dict[str, Any]:
    """The capability record: (pseudo-)perplexity with a bootstrap interval over sentences."""
    ll = np.asarray(logprobs, dtype=float)
    nt = np.asarray(tokens, dtype=float)
    value = perplexity(list(logprobs), list(tokens))
    used = nt > 0
    low, high = (None, None)
    if value is not None:
        low, high = bootstrap(
            (ll[used], nt[used]),
            lambda a, b, axis=-1: np.exp(-np.sum(a, axis=axis) / np.sum(b, axis=axis)),
            vectorized=True,
        )
    estimate = Estimate(value, int(used.sum()), low, high).to_dict()
    estimate.pop("method", None)  # "method" names the scoring method here
    return {
        "measure": MEASURES[kind],
        "lower_is_better": True,
        "method": method,
        "definition": (
            "exp(-sum over sentences of the log-likelihood / number of scored tokens); "
            + (
                "each token given the prefix token and the tokens before it (clm-sum's numbers)"
                if kind == "causal"
                else "each token but the special ones masked alone (pll's numbers), Salazar "
                "et al. 2020"
            )
        ),
        "corpus": corpus.describe(),
        "tokens": int(nt.sum()),
        "log_likelihood": math.fsum(logprobs),
        **estimate,
        "interval": "bootstrap over sentences (BCa; percentile when BCa is degenerate)",
    }


def score_corpus(
    corpus: Corpus,
    lm: LoadedModel,
    *,
    cache: ScoreCache | Path | str | None,
    settings: ScoreSettings,
    progress: ProgressCallback | None = None,
) -> CorpusResult:
    """Score every sentence of ``corpus`` with ``lm`` through the score cache (resumable)."""
    method = CORPUS_METHODS[lm.kind]
    too_long = [
        i for i, s in enumerate(corpus.sentences) if len(encode(lm, s, METHODS[method])[0]) > lm.max_length
    ]
    if too_long:
        raise InputError(
            f"corpus {corpus.name}: sentence {too_long[0] + 1} is longer than the "
            f"{lm.max_length} tokens that {lm.name} accepts ({len(too_long)} such sentences); "
            "split or leave them out"
        )
    result = score_pairs(
        corpus_pairs(corpus), lm, method, cache=cache, settings=settings, progress=progress
    )
    return CorpusResult(
        corpus=corpus,
        kind=lm.kind,
        method=method,
        logprobs=tuple(s.sent_more_score for s in result.scores),
        tokens=tuple(s.n_masked for s in result.scores),
        computed=result.stats.computed,
        cache_hits=result.stats.cache_hits,
        seconds=result.stats.seconds,
    )
