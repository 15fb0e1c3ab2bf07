"""Run the selected rules over pairs and collect findings."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from curate.findings import Finding
from curate.lint.lexicon import Lexicon, load_lexicon
from curate.lint.profiles import PAIRS, LintTarget, apply_profile
from curate.lint.rule import DatasetRule, PairContext, Rule, Violation
from curate.lint.rules import all_rules
from curate.lint.settings import LintSettings, selected_codes
from curate.pairs import Pair


def selected_rules(settings: LintSettings, own: Iterable[type[Rule]] = ()) -> list[Rule]:
    """Instances of the rules the settings enable, in code order (``own``: a benchmark's own
    rules, beside the shared ones)."""
    rules = all_rules(own)
    return [rules[code]() for code in selected_codes(settings, rules)]


def _finding(pair: Pair, rule: Rule, violation: Violation) -> Finding:
    return Finding(
        pair.pair_id,
        rule.code,
        rule.name,
        violation.message,
        violation.spans,
        violation.fix,
        item_id=pair.item_id,
    )


def lint_pair(ctx: PairContext, rules: Iterable[Rule]) -> list[Finding]:
    """Findings of the per-pair rules for one pair (dataset rules are skipped)."""
    return [
        _finding(ctx.pair, rule, violation)
        for rule in rules
        if not isinstance(rule, DatasetRule)
        for violation in rule.check(ctx)
    ]


def _lint_one(ctx: PairContext, pair_rules: list[Rule]) -> list[Finding]:
    return [
        _finding(ctx.pair, rule, violation) for rule in pair_rules for violation in rule.check(ctx)
    ]


def lint_pairs(
    pairs: Sequence[Pair],
    settings: LintSettings | None = None,
    *,
    progress: Callable[[int], None] | None = None,
    items: Mapping[int, Any] | None = None,
    target: LintTarget = PAIRS,
) -> list[Finding]:
    """Lint every pair; findings are ordered by pair (input order), then rule code.

    ``items``: what the benchmark keeps beside each pair, by pair id (its lint profile's
    ``items``), given to the rules as :attr:`PairContext.item`. Only the rules of
    ``target``'s lint profile run (default: pair files, every shared rule; the registry's
    :func:`curate.benchmarks.lint_target` names a benchmark's), so another benchmark's own
    rules never run on pairs they were not written for.
    """
    settings = settings or LintSettings()
    settings, _ = apply_profile(settings, target)
    rules = selected_rules(settings, target.own_and_others())
    lexicon = load_lexicon(settings.language)
    with _no_gc():
        return _lint(pairs, settings, rules, lexicon, progress, items or {})


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector.

    Linting allocates millions of small tuples (tokens, spans) and keeps them in caches; the
    collector would rescan them over and over (a third of the run time on 100,000 pairs). The
    objects are acyclic, so reference counting frees them anyway.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _lint(
    pairs: Sequence[Pair],
    settings: LintSettings,
    rules: list[Rule],
    lexicon: Lexicon,
    progress: Callable[[int], None] | None,
    items: Mapping[int, Any],
) -> list[Finding]:
    contexts = [PairContext(p, settings, lexicon, items.get(p.pair_id)) for p in pairs]
    per_pair: dict[int, list[Finding]] = {}
    pair_rules = [rule for rule in rules if not isinstance(rule, DatasetRule)]
    for done, ctx in enumerate(contexts, start=1):
        per_pair[ctx.pair.pair_id] = _lint_one(ctx, pair_rules)
        if progress and done % 1000 == 0:
            progress(done)
    by_id = {p.pair_id: p for p in pairs}
    for rule in rules:
        if isinstance(rule, DatasetRule):
            for pair_id, violation in rule.check_dataset(contexts):
                per_pair[pair_id].append(_finding(by_id[pair_id], rule, violation))
    if progress:
        progress(len(contexts))
    return [f for p in pairs for f in sorted(per_pair[p.pair_id], key=lambda f: f.code)]
