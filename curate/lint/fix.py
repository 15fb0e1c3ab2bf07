"""Safe automatic fixes: apply the fixes of fixable rules until none is left.

Like ruff's fix loop: lint a pair with the selected fixable rules, apply the first fix, lint
again (a fix can change offsets another fix relies on), at most ``MAX_PASSES`` times. A fix is
applied only if it leaves the set of changed words (case-folded, punctuation ignored) exactly as
it was, so fixes can never alter what the pair contrasts; and, for a pair read from a template
(StereoSet: a context with ``BLANK``), only if each sentence still has the same word where the
context has ``BLANK`` (StereoSet finds the filled-in word by its index among single-space-split
words, so collapsing a double space before it would make the item unscorable).
"""

from __future__ import annotations

import difflib
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from curate.lint.engine import selected_rules
from curate.lint.lexicon import load_lexicon
from curate.lint.profiles import PAIRS, LintTarget
from curate.lint.rule import DatasetRule, PairContext
from curate.lint.settings import LintSettings
from curate.pairs import Pair

MAX_PASSES = 10
_WORDS = re.compile(r"[\w'’-]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class AppliedFix:
    """One field of one pair rewritten by one rule."""

    pair_id: int
    code: str
    rule: str
    field: str
    old: str
    new: str
    #: The item's own id (StereoSet); None for pairs without one.
    item_id: str | None = None

    def to_dict(self) -> dict[str, object]:
        own = {"item_id": self.item_id} if self.item_id is not None else {}
        return {
            "pair_id": self.pair_id,
            **own,
            "code": self.code,
            "rule": self.rule,
            "field": self.field,
            "old": self.old,
            "new": self.new,
        }


@dataclass(frozen=True)
class FixResult:
    """The fixed pairs (same order and ids) and every change made."""

    pairs: list[Pair]
    applied: list[AppliedFix]

    @property
    def changed_pairs(self) -> int:
        return len({a.pair_id for a in self.applied})


def changed_words(
    sent_more: str, sent_less: str
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The case-folded words that differ between the sentences, edit by edit."""
    more = [w.casefold() for w in _WORDS.findall(sent_more)]
    less = [w.casefold() for w in _WORDS.findall(sent_less)]
    matcher = difflib.SequenceMatcher(None, more, less, autojunk=False)
    return tuple(
        (tuple(more[i1:i2]), tuple(less[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


_PUNCTUATION = str.maketrans("", "", string.punctuation)


def template_words(pair: Pair) -> tuple[str | None, ...] | None:
    """The word of each sentence at the index of the context's ``BLANK`` (case-folded,
    punctuation stripped; None where the sentence has no word there), or None for a pair
    without a template context."""
    if not pair.context:
        return None
    positions = [i for i, word in enumerate(pair.context.split(" ")) if "BLANK" in word]
    if not positions:
        return None
    index = positions[-1]
    found: list[str | None] = []
    for sentence in (pair.sent_more, pair.sent_less):
        words = sentence.split(" ")
        found.append(words[index].translate(_PUNCTUATION).casefold() if index < len(words) else None)
    return tuple(found)


def _keeps_the_pair(current: Pair, candidate: Pair) -> bool:
    """Whether a fix keeps what the pair contrasts and where its template word stands."""
    return changed_words(candidate.sent_more, candidate.sent_less) == changed_words(
        current.sent_more, current.sent_less
    ) and template_words(candidate) == template_words(current)


def fix_pairs(
    pairs: Sequence[Pair], settings: LintSettings | None = None, *, target: LintTarget = PAIRS
) -> FixResult:
    """Apply the safe fixes of the selected fixable rules to every pair (``target``: the
    benchmark the settings were profiled for, whose rules they may name)."""
    settings = settings or LintSettings()
    selected = selected_rules(settings, target.own_and_others())
    rules = [
        r
        for r in selected
        if r.fixable
        and not isinstance(r, DatasetRule)
        and (r.languages is None or settings.language in r.languages)  # never another language's
    ]
    lexicon = load_lexicon(settings.language)
    fixed: list[Pair] = []
    applied: list[AppliedFix] = []
    for pair in pairs:
        current = pair
        rejected: set[tuple[str, str]] = set()
        for _ in range(MAX_PASSES):
            ctx = PairContext(current, settings, lexicon)
            change = None
            for rule in rules:
                for violation in rule.check(ctx):
                    if (
                        violation.fix
                        and (rule.code, repr(sorted(violation.fix.items()))) not in rejected
                    ):
                        change = (rule, violation.fix)
                        break
                if change:
                    break
            if change is None:
                break
            rule, fields = change
            candidate = current.with_changes(**fields)
            if not _keeps_the_pair(current, candidate):
                rejected.add((rule.code, repr(sorted(fields.items()))))
                continue
            for name, new in fields.items():
                old = getattr(current, name)
                if old != new:
                    applied.append(
                        AppliedFix(pair.pair_id, rule.code, rule.name, name, old, new, pair.item_id)
                    )
            current = candidate
        fixed.append(current)
    return FixResult(fixed, applied)
