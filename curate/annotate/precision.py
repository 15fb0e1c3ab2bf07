"""Rule precision as the annotators measured it: how often a rule's flag was a real defect.

After a round is tallied every flagged pair has a human decision. A rule's precision is the
share of the pairs it flagged *and* that were decided (keep, fix, drop or relabel; undecided
pairs carry no verdict and are left out) whose decision was fix, drop or relabel: the pair
needed a change. Each share comes with a Wilson score interval (statsmodels'
``proportion_confint(method="wilson")``), which stays inside [0, 1] and remains meaningful for
the handful of pairs a round gives one rule, where the normal approximation does not.

Several rounds are pooled pair by pair, in the order given: each pair counts once, with the
decision of the last round that decided it and the rule codes that round's task recorded; a
pair no round decided counts as flagged but not decided, with the codes of the last round that
had it. Re-annotating a pair in a later round thus replaces its evidence instead of doubling it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from curate.annotate import rounds
from curate.annotate.export import Snapshot
from curate.config import Config
from curate.decisions import ACTIONS, Decision, read_decisions
from curate.errors import InputError, UsageError

#: Decisions that say the flagged pair needed a change: the flag was right.
DEFECT_ACTIONS = ("fix", "drop", "relabel")
#: Decisions that carry a verdict on the flag (``undecided`` does not).
DECIDED_ACTIONS = ("keep", *DEFECT_ACTIONS)
#: Coverage of the Wilson intervals.
CONFIDENCE = 0.95
#: Figures are rounded so that agreement.json is byte-stable across platforms.
DIGITS = 6


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """One flagged pair of a round: the rules that flagged it and the decision it got."""

    pair_id: int
    round: str
    codes: tuple[str, ...]
    #: ``undecided`` also when the round's decisions have no record of the pair.
    action: str

    @property
    def decided(self) -> bool:
        return self.action in DECIDED_ACTIONS

    @property
    def defective(self) -> bool:
        return self.action in DEFECT_ACTIONS


def round_outcomes(snapshot: Snapshot, decisions: Iterable[Decision]) -> list[PairOutcome]:
    """The outcome of every pair of a round: its task's rule codes and its decision."""
    actions = {d.pair_id: d.action for d in decisions}
    return [
        PairOutcome(t.pair_id, snapshot.round, t.finding_codes, actions.get(t.pair_id, "undecided"))
        for t in snapshot.tasks
    ]


def pool(per_round: Sequence[Sequence[PairOutcome]]) -> list[PairOutcome]:
    """One outcome per pair: from the last round that decided it, else the last that had it."""
    latest: dict[int, PairOutcome] = {}
    for outcomes in per_round:
        for outcome in outcomes:
            kept = latest.get(outcome.pair_id)
            if kept is None or outcome.decided or not kept.decided:
                latest[outcome.pair_id] = outcome
    return [latest[k] for k in sorted(latest)]


def _clean(value: float) -> float:
    return round(min(1.0, max(0.0, float(value))), DIGITS)


@dataclass(frozen=True)
class Precision:
    """Flagged, decided and defective pairs of one rule (or of all rules) and the share."""

    flagged: int
    decided: int
    defective: int
    #: Pairs per decision, in the fixed action order.
    actions: dict[str, int]
    #: defective / decided; None when nothing was decided.
    precision: float | None
    low: float | None
    high: float | None

    @property
    def rank(self) -> tuple[float, float]:
        """What the push order compares: the interval's lower bound, then the share.

        A rule without a decided pair has the interval [0, 1], so it ranks as (0, 0).
        """
        return (self.low or 0.0, self.precision or 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "flagged": self.flagged,
            "decided": self.decided,
            "defective": self.defective,
            "actions": dict(self.actions),
            "precision": self.precision,
            "ci_low": self.low,
            "ci_high": self.high,
        }


def precision_of(outcomes: Sequence[PairOutcome], confidence: float = CONFIDENCE) -> Precision:
    """The precision of a flag over ``outcomes`` (the pairs it flagged), with its interval."""
    actions = Counter(o.action for o in outcomes)
    decided = sum(1 for o in outcomes if o.decided)
    defective = sum(1 for o in outcomes if o.defective)
    share = low = high = None
    if decided:
        from statsmodels.stats.proportion import proportion_confint  # slow import: when used

        share = _clean(defective / decided)
        lower, upper = proportion_confint(
            defective, decided, alpha=1 - confidence, method="wilson"
        )
        low, high = _clean(lower), _clean(upper)
    return Precision(
        flagged=len(outcomes),
        decided=decided,
        defective=defective,
        actions={a: actions.get(a, 0) for a in ACTIONS},
        precision=share,
        low=low,
        high=high,
    )


@dataclass(frozen=True)
class RulePrecision:
    """Every rule's precision over some rounds, and that of the flags of any rule."""

    rounds: tuple[str, ...]
    confidence: float
    rules: dict[str, Precision]
    any_rule: Precision

    def rank(self, code: str) -> tuple[float, float]:
        """The rank of ``code`` (see :attr:`Precision.rank`); (0, 0) for a rule never measured."""
        measured = self.rules.get(code)
        return measured.rank if measured is not None else (0.0, 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": list(self.rounds),
            "confidence": self.confidence,
            "rules": {code: p.to_dict() for code, p in self.rules.items()},
            "any_rule": self.any_rule.to_dict(),
        }


def measure(
    outcomes: Sequence[PairOutcome], round_names: Sequence[str], confidence: float = CONFIDENCE
) -> RulePrecision:
    """Per rule code, the precision of its flags over ``outcomes`` (one per pair)."""
    if not 0 < confidence < 1:
        raise UsageError(f"confidence must be between 0 and 1, got {confidence}")
    by_code: dict[str, list[PairOutcome]] = {}
    for outcome in outcomes:
        for code in outcome.codes:
            by_code.setdefault(code, []).append(outcome)
    return RulePrecision(
        rounds=tuple(round_names),
        confidence=confidence,
        rules={code: precision_of(by_code[code], confidence) for code in sorted(by_code)},
        any_rule=precision_of([o for o in outcomes if o.codes], confidence),
    )


def load_round_outcomes(files: rounds.RoundFiles) -> list[PairOutcome]:
    """A tallied round's outcomes, from its annotations.json and decisions.jsonl."""
    hint = f"run `curate annotations pull --round {files.name}` and `tally` first"
    snapshot = Snapshot.from_dict(rounds.read_json(files.annotations, hint), str(files.annotations))
    if not files.decisions.exists():
        raise InputError(
            f"{files.decisions}: no such file; run `curate annotations tally --round "
            f"{files.name}` first"
        )
    return round_outcomes(snapshot, read_decisions(files.decisions))


def measure_rounds(cfg: Config, names: Sequence[str]) -> RulePrecision:
    """Rule precision pooled over the tallied rounds ``names`` (later rounds win per pair)."""
    if not names:
        raise UsageError("name at least one round")
    if len(set(names)) != len(names):
        raise UsageError(f"a round is named twice: {', '.join(names)}")
    per_round = [load_round_outcomes(rounds.round_files(cfg, name)) for name in names]
    return measure(pool(per_round), names)


def _natural(name: str) -> list[Any]:
    """Sort key putting r2 before r10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def tallied_rounds(cfg: Config, exclude: str | None = None) -> list[str]:
    """The rounds under the rounds directory that were tallied, in natural name order."""
    directory = rounds.rounds_dir(cfg)
    if not directory.is_dir():
        return []
    names = [
        entry.name
        for entry in directory.iterdir()
        if entry.name != exclude
        and rounds.is_round_name(entry.name)
        and (entry / "decisions.jsonl").is_file()
        and (entry / "annotations.json").is_file()
    ]
    return sorted(names, key=_natural)
