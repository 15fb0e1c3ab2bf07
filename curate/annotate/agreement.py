"""How much the annotators of a round agree: Fleiss' kappa, Krippendorff's alpha, % agreement.

Label Studio's community edition computes no agreement, so it is computed here, from maintained
implementations (statsmodels' ``fleiss_kappa``, the ``krippendorff`` package) rather than our
own formulas.

Per question (sent_more's and sent_less's stereotype label, minimal distance, bias type):

- **percent agreement**: the mean, over pairs with two or more answers, of the share of
  agreeing annotator pairs, sum n_k (n_k - 1) / (n (n - 1)), as a percentage;
- **Fleiss' kappa**: needs the same number of answers for every pair; it is computed on the
  pairs with the most common number of answers (``fleiss_items`` pairs, ``fleiss_raters``
  answers each; on a tie the larger number);
- **Krippendorff's alpha** (nominal): handles any number of answers per pair.

Overall: Krippendorff's alpha over every (pair, question) unit, each question's labels kept
distinct, and the pooled percent agreement. A figure is ``None`` where it is undefined (fewer
than two answers anywhere, or every answer the same, which makes chance agreement 1).
"""

from __future__ import annotations

import math
import warnings
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import krippendorff
import numpy as np
from statsmodels.stats.inter_rater import fleiss_kappa

from curate.annotate.export import Answer
from curate.annotate.form import QUESTION_LABELS, QUESTIONS

#: Figures are rounded so that agreement.json is byte-stable across platforms.
DIGITS = 6


def _clean(value: float | None) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return round(float(value), DIGITS)


def percent_agreement(units: Sequence[Sequence[str]]) -> float | None:
    """Mean pairwise agreement over units with two or more ratings, in percent."""
    shares = []
    for ratings in units:
        n = len(ratings)
        if n < 2:
            continue
        counts = Counter(ratings).values()
        shares.append(sum(c * (c - 1) for c in counts) / (n * (n - 1)))
    return _clean(100 * sum(shares) / len(shares)) if shares else None


def fleiss(units: Sequence[Sequence[str]], categories: Sequence[str]) -> dict[str, Any]:
    """Fleiss' kappa over the units with the most common number (>= 2) of ratings."""
    sizes = Counter(len(r) for r in units if len(r) >= 2)
    if not sizes:
        return {"fleiss_kappa": None, "fleiss_items": 0, "fleiss_raters": 0}
    raters = max(sizes, key=lambda size: (sizes[size], size))
    index = {c: i for i, c in enumerate(categories)}
    table = np.zeros((sizes[raters], len(categories)))
    row = 0
    for ratings in units:
        if len(ratings) == raters:
            for label in ratings:
                table[row, index[label]] += 1
            row += 1
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = fleiss_kappa(table, method="fleiss")
    return {
        "fleiss_kappa": _clean(kappa),
        "fleiss_items": int(table.shape[0]),
        "fleiss_raters": raters,
    }


def alpha(
    coded: Mapping[Any, Mapping[Any, int]], annotators: Sequence[Any], n_codes: int
) -> float | None:
    """Nominal Krippendorff's alpha; ``coded[unit][annotator]`` is a category code."""
    units = list(coded)
    if not units or n_codes < 2:
        return None
    data = np.full((len(annotators), len(units)), np.nan)
    row_of = {a: i for i, a in enumerate(annotators)}
    for column, unit in enumerate(units):
        for annotator, code in coded[unit].items():
            data[row_of[annotator], column] = code
    if sum(1 for u in units if len(coded[u]) >= 2) == 0:
        return None
    try:
        with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            value = krippendorff.alpha(
                reliability_data=data,
                value_domain=list(range(n_codes)),
                level_of_measurement="nominal",
            )
    except ValueError:  # e.g. "There has to be more than one value in the domain."
        return None
    return _clean(value)


def agreement(answers: Sequence[Answer]) -> dict[str, Any]:
    """Agreement figures per question and overall for a round's usable answers."""
    annotators = sorted({a.annotator for a in answers}, key=str)
    per_question: dict[str, Any] = {}
    pooled_units: list[list[str]] = []
    pooled_codes: dict[tuple[int, str], dict[Any, int]] = {}
    offsets: dict[str, int] = {}
    offset = 0
    for question in QUESTIONS:
        offsets[question] = offset
        offset += len(QUESTION_LABELS[question])
    for question in QUESTIONS:
        labels = QUESTION_LABELS[question]
        code = {label: i for i, label in enumerate(labels)}
        by_pair: dict[int, dict[Any, str]] = defaultdict(dict)
        for a in answers:
            by_pair[a.pair_id][a.annotator] = getattr(a, question)
        units = [list(by_pair[p].values()) for p in sorted(by_pair)]
        coded = {p: {k: code[v] for k, v in by_pair[p].items()} for p in sorted(by_pair)}
        per_question[question] = {
            "items": sum(1 for u in units if len(u) >= 2),
            "percent_agreement": percent_agreement(units),
            **fleiss(units, labels),
            "krippendorff_alpha": alpha(coded, annotators, len(labels)),
        }
        pooled_units.extend(units)
        for p, ratings in coded.items():
            pooled_codes[(p, question)] = {k: v + offsets[question] for k, v in ratings.items()}
    return {
        "answers": len(answers),
        "annotators": len(annotators),
        "pairs": len({a.pair_id for a in answers}),
        "questions": per_question,
        "overall": {
            "items": sum(1 for u in pooled_units if len(u) >= 2),
            "percent_agreement": percent_agreement(pooled_units),
            "krippendorff_alpha": alpha(pooled_codes, annotators, offset),
        },
    }
