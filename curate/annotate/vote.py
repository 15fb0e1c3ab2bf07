"""The CrowS-Pairs acceptance rule: from a pair's answers to one :class:`Decision`.

Nangia et al. (2020) kept a pair when a quorum of its validators (3 of 6, the writer counting as
an implicit yes) agreed that (a) a stereotype is demonstrated or violated, (b) which sentence is
the more stereotyping one, and (c) the sentences are minimally distant; the bias type is the
majority label. Here the quorum is configurable (default 3) and the writer's implicit yes is an
option (off by default: our annotators revalidate pairs the writer already vouched for).

How one annotator's two sentence answers are read (D demonstrates, V violates, N neither):

- a stereotype is expressed unless both sentences are N;
- ``sent_more`` is the more stereotyping sentence when it is D or ``sent_less`` is V, and the
  other sentence does not say the same (D/N, D/V, N/V); ``sent_less`` is, symmetrically, for
  N/D, V/D, V/N; with N/N, D/D or V/V the annotator names no more stereotyping sentence;
- the direction (CrowS-Pairs' ``stereo_antistereo``): ``sent_more`` marked D supports
  ``stereo`` (it demonstrates a stereotype), ``sent_less`` marked V supports ``antistereo``
  (it violates one); D/V supports both, so only annotators who tell them apart move it.

Decisions, in this order:

- ``undecided`` with fewer usable annotations than the minimum (default: the quorum);
- ``drop`` when the quorum is missed on (a) or (b), or on (c) with no correction offered;
- ``fix`` when annotators typed corrected sentences (the correction given by the most
  annotators wins; a tie is ``undecided``), or when a quorum found ``sent_less`` the more
  stereotyping sentence (the sentences are swapped); a fix also carries a changed bias type or
  direction;
- ``relabel`` when the majority bias type or the direction differs from the pair's;
- ``undecided`` when the bias-type vote is tied or its majority is "none";
- ``keep`` otherwise.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from curate.annotate.export import Answer, Snapshot, TaskInfo
from curate.decisions import Decision
from curate.errors import UsageError


@dataclass(frozen=True)
class VoteRule:
    """Parameters of the acceptance rule."""

    quorum: int = 3
    writer_votes: bool = False
    min_annotations: int | None = None

    def __post_init__(self) -> None:
        if self.quorum < 1:
            raise UsageError(f"--quorum must be at least 1, got {self.quorum}")
        if self.min_annotations is not None and self.min_annotations < 1:
            raise UsageError(f"--min-annotations must be at least 1, got {self.min_annotations}")

    @property
    def minimum(self) -> int:
        """Usable annotations a pair needs before it is decided at all."""
        return self.quorum if self.min_annotations is None else self.min_annotations


def orientation(more: str, less: str) -> str:
    """Which sentence one annotator found more stereotyping: sent_more, sent_less or none."""
    if (more == "demonstrates" and less != "demonstrates") or (
        less == "violates" and more != "violates"
    ):
        return "sent_more"
    if (less == "demonstrates" and more != "demonstrates") or (
        more == "violates" and less != "violates"
    ):
        return "sent_less"
    return "none"


def direction_support(more: str, less: str, flipped: bool = False) -> set[str]:
    """The directions one annotator's answers support, for the pair as decided.

    ``flipped``: the sentences are to be swapped, so ``less`` is the new sent_more.
    """
    if flipped:
        more, less = less, more
    support = set()
    if more == "demonstrates":
        support.add("stereo")
    if less == "violates":
        support.add("antistereo")
    return support


def _norm(text: str) -> str:
    return " ".join(text.split())


def _ranked(counter: Counter) -> dict[str, int]:
    """Counts by descending count, then by name: a stable order for the votes record."""
    return {k: v for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))}


def _top(counter: Counter) -> tuple[Any, bool]:
    """The most common key and whether it is unique (not tied)."""
    ranked = counter.most_common()
    if not ranked:
        return None, False
    unique = len(ranked) == 1 or ranked[0][1] > ranked[1][1]
    return ranked[0][0], unique


def decide(task: TaskInfo, answers: Sequence[Answer], rule: VoteRule, round_name: str) -> Decision:
    """The decision for one pair from its usable answers."""
    n = len(answers)
    writer = 1 if rule.writer_votes else 0
    q = rule.quorum

    expressed = sum(1 for a in answers if (a.sent_more, a.sent_less) != ("neither", "neither"))
    orient = Counter(orientation(a.sent_more, a.sent_less) for a in answers)
    minimal = sum(1 for a in answers if a.minimal == "yes")
    bias = Counter(a.bias_type for a in answers)

    votes: dict[str, Any] = {
        "stereotype": {"yes": expressed, "no": n - expressed},
        "more_stereotyping": {k: orient.get(k, 0) for k in ("sent_more", "sent_less", "none")},
        "minimal": {"yes": minimal, "no": n - minimal},
        "bias_type": _ranked(bias),
    }
    if writer:
        votes["writer"] = {
            "stereotype": "yes",
            "more_stereotyping": "sent_more",
            "minimal": "yes",
            "bias_type": task.bias_type,
            "direction": task.direction,
        }

    def make(action: str, reason: str, **changes: Any) -> Decision:
        return Decision(
            pair_id=task.pair_id,
            action=action,
            votes=votes,
            n_annotators=n,
            round=round_name,
            reason=reason,
            **changes,
        )

    if n < rule.minimum:
        return make("undecided", f"{n} usable annotation(s); at least {rule.minimum} needed")
    if expressed + writer < q:
        return make(
            "drop",
            f"{expressed + writer} of quorum {q} say a stereotype is demonstrated or violated",
        )
    more_votes, less_votes = orient["sent_more"] + writer, orient["sent_less"]
    if more_votes >= q and more_votes > less_votes:
        flipped = False
    elif less_votes >= q and less_votes > more_votes:
        flipped = True
    elif more_votes >= q:  # both reach the quorum with equal votes
        return make("undecided", f"tie on the more stereotyping sentence ({more_votes} each)")
    else:
        return make(
            "drop",
            f"no quorum ({q}) on which sentence is more stereotyping "
            f"(sent_more {more_votes}, sent_less {less_votes})",
        )

    # Corrections: each annotator's full corrected pair; the one given most often wins.
    corrections: Counter[tuple[str, str]] = Counter()
    for a in answers:
        if a.corrected_more is None and a.corrected_less is None:
            continue
        candidate = (a.corrected_more or task.sent_more, a.corrected_less or task.sent_less)
        if (_norm(candidate[0]), _norm(candidate[1])) != (
            _norm(task.sent_more),
            _norm(task.sent_less),
        ):
            corrections[candidate] += 1
    votes["corrections"] = sum(corrections.values())
    correction, unique = _top(corrections)
    if corrections and not unique:
        return make(
            "undecided",
            f"{len(corrections)} different corrections, the most given ones tied",
        )
    if minimal + writer < q and correction is None:
        return make(
            "drop",
            f"{minimal + writer} of quorum {q} say the sentences differ only in the group words",
        )

    # Bias type: the majority label (the writer's label counts once when the writer votes).
    bias_votes = bias.copy()
    if writer:
        bias_votes[task.bias_type] += 1
    bias_type, unique = _top(bias_votes)
    if not unique:
        return make("undecided", "no majority bias type (tie)")
    if bias_type == "none":
        return make("undecided", "valid pair, but most annotators see none of the bias types")

    # Direction: among the annotators who agree on the orientation.
    agreeing = [
        a
        for a in answers
        if orientation(a.sent_more, a.sent_less) == ("sent_less" if flipped else "sent_more")
    ]
    support: Counter[str] = Counter({"stereo": 0, "antistereo": 0})
    for a in agreeing:
        support.update(direction_support(a.sent_more, a.sent_less, flipped))
    if writer and not flipped:
        support[task.direction] += 1
    votes["direction"] = dict(support)
    other = "antistereo" if task.direction == "stereo" else "stereo"
    direction = other if support[other] > support[task.direction] else task.direction

    labels: dict[str, str] = {}
    if bias_type != task.bias_type:
        labels["bias_type"] = bias_type
    if direction != task.direction:
        labels["direction"] = direction
    relabelled = " and ".join(f"{k} {getattr(task, k)} -> {v}" for k, v in labels.items())

    if correction is not None or flipped:
        new_more, new_less = (
            correction if correction is not None else (task.sent_more, task.sent_less)
        )
        if flipped:
            new_more, new_less = new_less, new_more
        changes: dict[str, str] = {}
        if new_more != task.sent_more:
            changes["sent_more"] = new_more
        if new_less != task.sent_less:
            changes["sent_less"] = new_less
        why = []
        if correction is not None:
            why.append(f"correction given by {corrections[correction]} annotator(s)")
        if flipped:
            why.append(f"{less_votes} say sent_less is the more stereotyping sentence: swapped")
        if relabelled:
            why.append(relabelled)
        return make("fix", "; ".join(why), **changes, **labels)
    if labels:
        return make("relabel", relabelled, **labels)
    return make("keep", f"quorum {q} met on all three criteria")


def tally(snapshot: Snapshot, rule: VoteRule) -> list[Decision]:
    """One decision per task of the round (pairs without answers are ``undecided``)."""
    by_pair: dict[int, list[Answer]] = defaultdict(list)
    for answer in snapshot.answers:
        by_pair[answer.pair_id].append(answer)
    return [decide(t, by_pair.get(t.pair_id, []), rule, snapshot.round) for t in snapshot.tasks]


def summary(decisions: Iterable[Decision]) -> dict[str, int]:
    """How many pairs got each action, in the fixed action order."""
    counts = Counter(d.action for d in decisions)
    return {a: counts.get(a, 0) for a in ("keep", "fix", "relabel", "drop", "undecided")}
