"""Lint quality against a review set: pair-level precision, recall and F1 against the reviewers.

A review set (``crows_pairs_review_dev.jsonl``, format in its guidelines file) holds, per pair,
how many reviewers judged it, how many called it defective (verdict fix or drop), the majority
verdict ``defective`` (null on a tie) and the defect labels named by more than half of them.
The majority is the target: a flagged pair is right when the majority calls it defective, and
recall is broken down by the kind of defect the majority named. Ties are left out of every
figure. The number of reviewers is read from each record, never assumed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.errors import InputError
from curate.findings import Finding
from curate.jsonl import read_jsonl_objects
from curate.pairs import BIAS_TYPES, DIRECTIONS, Pair

#: The review labels grouped by the kind of defect they name (issue 15): invalid perturbations,
#: surface defects, and wrong labels. ``no_stereotype`` and ``other`` belong to no group.
DEFECT_GROUPS: dict[str, frozenset[str]] = {
    "perturbation": frozenset({"non_minimal", "negation", "group_mismatch", "non_group"}),
    "surface": frozenset({"spelling", "grammar", "capitalisation", "punctuation"}),
    "labels": frozenset({"wrong_label"}),
}
LABELS: frozenset[str] = frozenset(
    {*(label for group in DEFECT_GROUPS.values() for label in group), "no_stereotype", "other"}
)
VERDICTS = frozenset({"ok", "fix", "drop"})


@dataclass(frozen=True, slots=True)
class Review:
    """The reviewers' judgement of one pair, with the pair as the review set quotes it."""

    pair: Pair
    reviews: int
    votes_defective: int
    #: True / False by majority; None on a tie.
    defective: bool | None
    labels: frozenset[str]

    @property
    def pair_id(self) -> int:
        return self.pair.pair_id


def _review(value: Mapping[str, Any]) -> Review:
    """One record, checked: counts consistent with the verdicts, the majority with the counts."""
    pair_id, reviews, votes = value["id"], value["reviews"], value["votes_defective"]
    for name, number in (("id", pair_id), ("reviews", reviews), ("votes_defective", votes)):
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise ValueError(f"{name} must be a non-negative integer")
    if not 0 <= votes <= reviews or reviews == 0:
        raise ValueError(f"votes_defective {votes} does not fit {reviews} reviews")
    verdicts = [v for v in value.get("verdicts", ()) if v is not None]
    if verdicts and (
        len(verdicts) != reviews
        or not set(verdicts) <= VERDICTS
        or sum(v != "ok" for v in verdicts) != votes
    ):
        raise ValueError(f"verdicts {verdicts} do not match reviews/votes_defective")
    expected = None if 2 * votes == reviews else 2 * votes > reviews
    if value["defective"] is not expected:
        raise ValueError(f"defective is {value['defective']} but {votes} of {reviews} said defective")
    labels = value.get("labels", [])
    if not isinstance(labels, list) or not set(labels) <= LABELS:
        raise ValueError(f"unknown labels {sorted(set(labels) - LABELS)}")
    bias_type, direction = value["bias_type"], value["stereo_antistereo"]
    if bias_type not in BIAS_TYPES or direction not in DIRECTIONS:
        raise ValueError(f"bias_type {bias_type!r} / stereo_antistereo {direction!r} unknown")
    pair = Pair(pair_id, value["sent_more"], value["sent_less"], direction, bias_type)
    return Review(pair, reviews, votes, expected, frozenset(labels))


def read_reviews(path: Path) -> list[Review]:
    """The records of a review-set file; a malformed record is an InputError naming its line."""
    reviews: list[Review] = []
    seen: set[int] = set()
    for number, value in read_jsonl_objects(path):
        try:
            review = _review(value)
        except (KeyError, TypeError, ValueError) as exc:
            detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise InputError(f"{path}: line {number}: {detail}") from None
        if review.pair_id in seen:
            raise InputError(f"{path}: line {number}: pair id {review.pair_id} repeated")
        seen.add(review.pair_id)
        reviews.append(review)
    return reviews


def with_upstream(reviews: Sequence[Review], upstream: Iterable[Pair]) -> list[Review]:
    """The reviews with their pairs taken from the upstream file (the source of truth, which
    also holds the validators' bias-type annotations); a pair whose sentences differ from the
    quoted ones is a sign of a different file and stops the measurement."""
    by_id = {p.pair_id: p for p in upstream}
    merged = []
    for review in reviews:
        pair = by_id.get(review.pair_id)
        if pair is None or (pair.sent_more, pair.sent_less) != (
            review.pair.sent_more,
            review.pair.sent_less,
        ):
            raise ValueError(f"pair {review.pair_id} differs between the review set and upstream")
        merged.append(Review(pair, review.reviews, review.votes_defective, review.defective, review.labels))
    return merged


@dataclass(frozen=True, slots=True)
class Ratio:
    """``hits`` of ``total``; the value is 0 for an empty total."""

    hits: int
    total: int

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.value:.2f} ({self.hits}/{self.total})"


@dataclass(frozen=True, slots=True)
class RuleQuality:
    """One rule on the review set: the judged pairs it flags, how many the majority calls
    defective, and the ids of those it does not (its disagreements with the reviewers)."""

    code: str
    name: str
    flagged: int
    defective: int
    disagreements: tuple[int, ...]
    #: Defective pairs no other selected rule flags.
    only_rule: int

    @property
    def precision(self) -> float:
        return self.defective / self.flagged if self.flagged else 0.0


@dataclass(frozen=True)
class Quality:
    """Pair-level figures of a lint run against the majority of the reviewers."""

    judged: int
    ties: int
    precision: Ratio
    recall: Ratio
    group_recall: dict[str, Ratio]
    label_recall: dict[str, Ratio]
    rules: tuple[RuleQuality, ...]
    missed: tuple[int, ...]
    false_alarms: tuple[int, ...]
    reviewers: Counter[int]

    @property
    def f1(self) -> float:
        p, r = self.precision.value, self.recall.value
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def flagged(self) -> int:
        return self.precision.total

    def last_line(self) -> str:
        return (
            f"recall={self.recall.value:.2f} precision={self.precision.value:.2f} "
            f"f1={self.f1:.2f} flagged={self.flagged}"
        )


def measure(reviews: Sequence[Review], findings: Iterable[Finding]) -> Quality:
    """Compare the pairs the findings flag with the reviewers' majority (ties left out)."""
    judged = {r.pair_id: r for r in reviews if r.defective is not None}
    by_rule: dict[str, set[int]] = defaultdict(set)
    names: dict[str, str] = {}
    for f in findings:
        if f.pair_id in judged:
            by_rule[f.code].add(f.pair_id)
            names[f.code] = f.rule
    flagged = set().union(*by_rule.values()) if by_rule else set()
    defective = {i for i, r in judged.items() if r.defective}
    flag_count = Counter(i for ids in by_rule.values() for i in ids)

    def recall_of(ids: set[int]) -> Ratio:
        return Ratio(len(ids & flagged), len(ids))

    groups = {
        group: recall_of({i for i in defective if judged[i].labels & labels})
        for group, labels in DEFECT_GROUPS.items()
    }
    label_recall = {
        label: recall_of({i for i in defective if label in judged[i].labels})
        for label in sorted(LABELS)
    }
    rules = tuple(
        RuleQuality(
            code,
            names[code],
            len(ids),
            len(ids & defective),
            tuple(sorted(ids - defective)),
            sum(1 for i in ids & defective if flag_count[i] == 1),
        )
        for code, ids in sorted(by_rule.items())
    )
    return Quality(
        judged=len(judged),
        ties=len(reviews) - len(judged),
        precision=Ratio(len(flagged & defective), len(flagged)),
        recall=recall_of(defective),
        group_recall=groups,
        label_recall=label_recall,
        rules=rules,
        missed=tuple(sorted(defective - flagged)),
        false_alarms=tuple(sorted(flagged - defective)),
        reviewers=Counter(r.reviews for r in reviews),
    )


def format_quality(
    quality: Quality,
    reviews: Sequence[Review],
    findings: Sequence[Finding],
    *,
    top: int = 3,
    show_missed: int = 0,
) -> str:
    """The benchmark's report; the last line is :meth:`Quality.last_line`."""
    by_id = {r.pair_id: r for r in reviews}
    messages: dict[tuple[int, str], str] = {}
    for f in findings:
        messages.setdefault((f.pair_id, f.code), f.message)
    reviewers = ", ".join(f"{n} pairs by {k}" for k, n in sorted(quality.reviewers.items()))
    lines = [
        f"review set: {len(reviews)} pairs ({reviewers}); {quality.judged} judged by a majority, "
        f"{quality.ties} ties left out; majority defective: {quality.recall.total}",
        f"precision {quality.precision}  recall {quality.recall}  f1 {quality.f1:.2f}",
        "recall by defect group: "
        + "  ".join(f"{g} {r}" for g, r in quality.group_recall.items()),
        "recall by label: "
        + "  ".join(f"{label} {r}" for label, r in quality.label_recall.items() if r.total),
        "",
        f"{'rule':<34} {'flagged':>7} {'defective':>9} {'share':>6} {'only':>5}",
    ]
    for rule in quality.rules:
        lines.append(
            f"{rule.code} {rule.name:<29} {rule.flagged:>7} {rule.defective:>9} "
            f"{rule.precision:>6.2f} {rule.only_rule:>5}"
        )
    for rule in quality.rules:
        if not rule.disagreements or top <= 0:
            continue
        lines.append(f"{rule.code}: flagged, majority says ok ({len(rule.disagreements)}):")
        for pair_id in rule.disagreements[:top]:
            lines.extend(_pair_lines(by_id[pair_id], messages.get((pair_id, rule.code), "")))
    if show_missed:
        lines.append(f"missed: defective, not flagged ({len(quality.missed)}):")
        for pair_id in quality.missed[:show_missed]:
            lines.extend(_pair_lines(by_id[pair_id], ""))
    lines.append(quality.last_line())
    return "\n".join(lines) + "\n"


def _pair_lines(review: Review, message: str) -> list[str]:
    pair = review.pair
    labels = ",".join(sorted(review.labels)) or "-"
    head = f"  pair {pair.pair_id} [{pair.bias_type}, {pair.direction}; {review.votes_defective}/{review.reviews} defective; {labels}]"
    return [
        head + (f" {message}" if message else ""),
        f"    A: {pair.sent_more}",
        f"    B: {pair.sent_less}",
    ]
