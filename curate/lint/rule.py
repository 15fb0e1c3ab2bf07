"""The rule protocol and the per-pair context rules read from.

A rule is a small class with a stable ``code``, a kebab-case ``name``, a one-line ``summary``, a
docstring explaining the defect (first line: what it finds; the rest: why that is bad), ``bad``
and ``good`` example pairs (shown by ``curate rules CODE`` and run as test cases), a default
on/off and optionally a safe fix. All mechanics (tokenising, aligning, word lists, selection,
reporting) live outside the rules: a rule only looks at a :class:`PairContext` and yields
:class:`Violation` objects. The rules themselves are listed in :mod:`curate.lint.rules`; this
module never imports them.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import operator
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from curate.align import Alignment, Edit, Token, align
from curate.findings import TextSpan
from curate.lint.lexicon import Lexicon, load_lexicon
from curate.lint.settings import LintSettings
from curate.pairs import Pair

T = TypeVar("T")


_LOWER = operator.itemgetter(3)  # Token.lower, read in C


def is_word(token: Token) -> bool:
    """A token with at least one letter or digit (not bare punctuation)."""
    return token.is_word


@dataclass(frozen=True, slots=True)
class Example:
    """An example pair for documentation and tests."""

    sent_more: str
    sent_less: str
    bias_type: str = "race-color"
    direction: str = "stereo"
    annotations: tuple[tuple[str, ...], ...] | None = None
    #: A StereoSet-like item: its context (with BLANK), target term and third option.
    context: str | None = None
    target: str | None = None
    unrelated: str | None = None
    #: What the benchmark keeps beside the pair (``PairContext.item``, e.g. validators' labels).
    item: Any = None

    def to_pair(self, pair_id: int = 0) -> Pair:
        return Pair(
            pair_id,
            self.sent_more,
            self.sent_less,
            self.direction,
            self.bias_type,
            self.annotations,
            item_id=f"example-{pair_id}" if self.context is not None else None,
            target=self.target,
            context=self.context,
            unrelated=self.unrelated,
        )


@dataclass(frozen=True, slots=True)
class Violation:
    """What a rule reports: a message, where, and optionally a safe fix (new field texts)."""

    message: str
    spans: tuple[TextSpan, ...] = ()
    fix: dict[str, str] | None = field(default=None, hash=False)


class PairContext:
    """Everything a rule may want to know about one pair, computed once and shared."""

    def __init__(
        self, pair: Pair, settings: LintSettings, lexicon: Lexicon | None = None, item: Any = None
    ) -> None:
        self.pair = pair
        self.settings = settings
        #: The language of the pair set (its rules and dictionary; :mod:`curate.lint.languages`).
        self.language = settings.language
        #: What the pair's benchmark keeps beside it (:attr:`LintProfile.items`), or None.
        self.item = item
        self.lexicon = lexicon or load_lexicon(settings.language)
        self._memo: dict[str, object] = {}
        self._dimensions: dict[int, frozenset[str]] = {}

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """A value computed once per pair and shared by the rules that need it."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[return-value]

    @functools.cached_property
    def alignment(self) -> Alignment:
        return align(self.pair.sent_more, self.pair.sent_less)

    @functools.cached_property
    def word_edits(self) -> tuple[Edit, ...]:
        """Edits that change at least one word (punctuation-only edits left out)."""
        return tuple(
            e
            for e in self.alignment.edits
            if any(is_word(t) for t in (*e.more.tokens, *e.less.tokens))
        )

    def lower_words(self, field_name: str) -> frozenset[str]:
        """The lower-cased tokens of one sentence, as a set (for cheap "does it contain" tests)."""
        key = f"words-{field_name}"
        words = self._memo.get(key)
        if words is None:
            tokens = self.alignment.more if field_name == "sent_more" else self.alignment.less
            words = self._memo[key] = frozenset(map(_LOWER, tokens))
        return words  # type: ignore[return-value]

    def sentence(self, field_name: str) -> str:
        return self.pair.sent_more if field_name == "sent_more" else self.pair.sent_less

    def group_dimensions(self, tokens: Sequence[Token]) -> frozenset[str]:
        """Union of the bias dimensions named by ``tokens``.

        spaCy splits hyphenated words ("Afro-American" -> "Afro", "-", "American"); a compound
        that the lexicon knows as a whole is looked up whole, so its parts do not add the
        dimensions of "American" alone. Computed once per token sequence of the pair (the
        rules ask for the dimensions of the same changed words over and over).
        """
        found = self._dimensions.get(id(tokens))
        if found is None:
            found = self._dimensions[id(tokens)] = frozenset(self._group_dimensions(tokens))
        return found

    @functools.cached_property
    def _following(self) -> dict[int, Token]:
        """The token after each token of either sentence, by the token's identity."""
        a = self.alignment
        return {id(t): n for sentence in (a.more, a.less) for t, n in itertools.pairwise(sentence)}

    def _in_fixed_phrase(self, token: Token) -> bool:
        following = self._following.get(id(token))
        return following is not None and (token.lower, following.lower) in self.lexicon.fixed_phrases

    def _group_dimensions(self, tokens: Sequence[Token]) -> set[str]:
        dims: set[str] = set()
        if self.lexicon.fixed_phrases:
            tokens = [t for t in tokens if not self._in_fixed_phrase(t)]
        for word in compound_words(tokens):
            found = self.lexicon.dimensions_of(word)
            if not found and "-" in word:
                for part in word.split("-"):
                    found |= self.lexicon.dimensions_of(part)
            dims |= found
        return dims


def compound_words(tokens: Sequence[Token]) -> list[str]:
    """Words of ``tokens`` with hyphenated compounds rejoined ("Afro", "-", "American")."""
    words: list[str] = []
    glue = False
    for i, token in enumerate(tokens):
        joined = (
            words
            and i > 0
            and not tokens[i - 1].whitespace
            and tokens[i - 1].end == token.start
            and (token.text == "-" or glue)
        )
        if joined:
            words[-1] += token.text
        elif is_word(token):
            words.append(token.text)
        glue = token.text == "-" and bool(joined)
    return words


def token_span(field_name: str, tokens: Sequence[Token]) -> tuple[TextSpan, ...]:
    """A TextSpan covering ``tokens`` (empty tuple for no tokens)."""
    if not tokens:
        return ()
    return (TextSpan(field_name, tokens[0].start, tokens[-1].end),)


def edit_spans(edit: Edit) -> tuple[TextSpan, ...]:
    """TextSpans of both sides of an edit."""
    return token_span("sent_more", edit.more.tokens) + token_span("sent_less", edit.less.tokens)


class Rule:
    """Base class of pair rules; subclasses set the class attributes and implement ``check``."""

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    default: ClassVar[bool] = True
    fixable: ClassVar[bool] = False
    #: The languages the rule is written for (``None``: language-neutral, it reads only the
    #: shape of the pair: characters, token alignment, labels). A rule that reads words
    #: (English word lists, grammar) names its languages; on a pair set of another language it
    #: is skipped with a note, never run (:func:`curate.lint.profiles.apply_profile`).
    languages: ClassVar[tuple[str, ...] | None] = None
    #: Pairs the rule must flag, and pairs it must not; also shown by ``curate rules CODE``.
    #: For a :class:`DatasetRule` each tuple is one small dataset (flagged somewhere / nowhere).
    bad: ClassVar[tuple[Example, ...]] = ()
    good: ClassVar[tuple[Example, ...]] = ()

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        raise NotImplementedError

    @classmethod
    def family(cls) -> str:
        return cls.code.rstrip("0123456789")

    @classmethod
    def explanation(cls) -> str:
        """The documentation of ``curate rules CODE``, under ruff's headings.

        "What it does" is the docstring's first paragraph, "Why is this bad?" the rest of it;
        the examples are rendered from ``bad`` and ``good`` (so they are the pairs the tests
        run), and "Fix safety" from ``fixable``.
        """
        what, _, why = inspect.cleandoc(cls.__doc__ or "").partition("\n\n")
        sections = [("What it does", what), ("Why is this bad?", why)]
        sections.append(("Example", _examples_text(cls)))
        sections.append(("Fix safety", FIX_SAFE if cls.fixable else NO_FIX))
        return "\n\n".join(f"## {title}\n{body.strip()}" for title, body in sections if body)


#: "Fix safety" of fixable rules: what makes their fixes safe (enforced by curate.lint.fix).
FIX_SAFE = (
    "Safe automatic fix (`curate lint --fix`): it is applied only when the words that differ "
    "between the two sentences stay exactly the same, so a fix never changes what the pair "
    "contrasts."
)
NO_FIX = "No automatic fix: the right edit depends on the sentence; a reviewer decides."


def _example_text(example: Example) -> str:
    text = f'"{example.sent_more}" / "{example.sent_less}" ({example.bias_type}'
    if example.annotations is not None:
        votes = Counter(label for labels in example.annotations for label in labels)
        shown = ", ".join(f"{label} x{n}" for label, n in votes.most_common())
        text += f"; validators: {shown or 'none'}"
    if example.context is not None:  # a StereoSet-like item: context, target, third option
        text += f'; context "{example.context}", target "{example.target}"'
        if example.unrelated is not None:
            text += f', unrelated "{example.unrelated}"'
    if isinstance(example.item, dict) and example.item.get("sentences"):
        votes = "; ".join(
            f"{s.get('gold_label')}: " + ", ".join(x.get("label", "?") for x in s.get("labels", []))
            for s in example.item["sentences"]
        )
        text += f"; validators {votes}"
    return text + ")"


def _examples_text(rule: type[Rule]) -> str:
    """``Bad:``/``Good:`` lines from the rule's example pairs.

    A dataset rule's examples are one small dataset each, so their pairs are listed together.
    """
    lines: list[str] = []
    for label, examples in (("Bad: ", rule.bad), ("Good:", rule.good)):
        if not examples:
            continue
        if issubclass(rule, DatasetRule):
            lines.append(f"{label.strip()} (one dataset)")
            lines.extend(f"  pair {i}: {_example_text(e)}" for i, e in enumerate(examples))
        else:
            lines.extend(f"{label} {_example_text(e)}" for e in examples)
    return "\n".join(lines)


class DatasetRule(Rule):
    """A rule that needs every pair at once (duplicates); yields (pair_id, violation)."""

    def check(self, ctx: PairContext) -> Iterator[Violation]:
        return iter(())

    def check_dataset(self, contexts: Sequence[PairContext]) -> Iterator[tuple[int, Violation]]:
        raise NotImplementedError
