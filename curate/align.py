"""Word tokenisation and alignment of the two sentences of a pair.

A valid minimal pair differs only in the words that identify the group. To see which words
differ, both sentences are tokenised with spaCy's rule-based English tokenizer (``spacy.blank``:
no model download; it splits "don't" into "do" + "n't" and detaches punctuation) and the token
sequences are aligned with difflib's opcodes. ``equal`` runs are the shared spans; every other
opcode is an :class:`Edit` pairing the modified tokens of ``sent_more`` with those of
``sent_less``. Rules, Label Studio highlighting and reports all use this one alignment.
"""

from __future__ import annotations

import difflib
import functools
import html
import re
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from spacy.tokenizer import Tokenizer


class Token(NamedTuple):
    """A word or punctuation token with its character offset and trailing whitespace.

    A named tuple rather than a dataclass: linting 100,000 pairs builds millions of tokens,
    and the lower-cased form and the word test are computed once here instead of in every rule.
    """

    text: str
    start: int
    whitespace: str
    lower: str
    #: True when the token has a letter or digit (is not bare punctuation).
    is_word: bool

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True, slots=True)
class Span:
    """Tokens ``[start, end)`` of one sentence."""

    start: int
    end: int
    tokens: tuple[Token, ...]

    @property
    def text(self) -> str:
        """The span's text with its inner whitespace."""
        if not self.tokens:
            return ""
        return "".join(t.text + t.whitespace for t in self.tokens[:-1]) + self.tokens[-1].text

    @property
    def char_start(self) -> int | None:
        return self.tokens[0].start if self.tokens else None

    @property
    def char_end(self) -> int | None:
        return self.tokens[-1].end if self.tokens else None

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Edit:
    """One modified region: ``more`` in sent_more was replaced by ``less`` in sent_less."""

    tag: Literal["replace", "delete", "insert"]
    more: Span
    less: Span


@dataclass(frozen=True, slots=True)
class Alignment:
    """The token-level alignment of a pair."""

    more: tuple[Token, ...]
    less: tuple[Token, ...]
    shared: tuple[tuple[Span, Span], ...]
    edits: tuple[Edit, ...]
    #: Tokens of sent_more / sent_less that are not shared with the other sentence (computed
    #: once here: most lint rules read them).
    modified_more: tuple[Token, ...] = ()
    modified_less: tuple[Token, ...] = ()

    @property
    def identical(self) -> bool:
        return not self.edits


def _import_spacy_without_torch() -> ModuleType:
    """Import spaCy without the parts a rule-based tokenizer never uses.

    ``curate lint`` must lint CrowS-Pairs in under 2 s including start-up, and importing spaCy
    is most of that. Two of its imports are pure overhead here:

    - thinc (spaCy's ML layer) imports torch when it is installed (~1.4 s). While spaCy is
      imported, ``torch`` is made unimportable; afterwards the block is lifted, so the scorer
      imports torch normally. If torch is already loaded, spaCy simply sees it.
    - ``spacy/__init__`` imports ``spacy.cli`` (download, train, ... ~0.25 s) only to re-export
      ``spacy.info``. A placeholder module stands in during the import and is removed after,
      so a later ``import spacy.cli`` loads the real one.
    """
    placeholders: dict[str, ModuleType | None] = {}
    if "torch" not in sys.modules:
        placeholders["torch"] = None
    if "spacy.cli" not in sys.modules:
        cli, info = ModuleType("spacy.cli"), ModuleType("spacy.cli.info")
        info.info = _spacy_info  # type: ignore[attr-defined]
        cli.info = info  # type: ignore[attr-defined]
        placeholders.update({"spacy.cli": cli, "spacy.cli.info": info})
    sys.modules.update(placeholders)  # type: ignore[arg-type]
    try:
        import spacy
    finally:
        for name, module in placeholders.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return spacy


def _spacy_info(*args: object, **kwargs: object) -> object:
    """``spacy.info`` loading the real ``spacy.cli`` on first use."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


@functools.cache
def _tokenizer() -> Tokenizer:
    """spaCy's English rule-based tokenizer, on a vocabulary without lexical attributes.

    ``spacy.blank("en").tokenizer`` computes a dozen lexical attributes (shape, stop word,
    number-likeness, ...) for every new word it meets; tokenisation never reads them. The same
    rules on a bare ``Vocab`` give the same tokens at half the cost per new word.
    """
    spacy = _import_spacy_without_torch()
    from spacy.tokenizer import Tokenizer
    from spacy.vocab import Vocab

    english = spacy.blank("en").tokenizer
    return Tokenizer(
        Vocab(),
        rules=english.rules,
        prefix_search=english.prefix_search,
        suffix_search=english.suffix_search,
        infix_finditer=english.infix_finditer,
        token_match=english.token_match,
        url_match=english.url_match,
    )


_WORD_CHAR = re.compile(r"\w")
_CHUNK = re.compile(r"(\S+)(\s*)")


#: How spaCy splits chunks, as loaded from a persistent cache (see curate.tokencache), and the
#: splits computed in this process that such a cache does not hold yet.
_known_splits: dict[str, list[str]] = {}
_new_splits: dict[str, list[str]] = {}


def remember_splits(splits: dict[str, list[str]]) -> None:
    """Use chunk splits computed earlier (by the same spaCy version) instead of spaCy."""
    _known_splits.update(splits)
    _chunk_pieces.cache_clear()


def new_splits() -> dict[str, list[str]]:
    """Chunk splits computed by spaCy in this process and not given to remember_splits."""
    return dict(_new_splits)


@functools.lru_cache(maxsize=262144)
def _chunk_pieces(chunk: str) -> tuple[tuple[str, int, str, bool], ...]:
    """spaCy's tokens of one whitespace-free chunk: (text, offset, lower, is_word)."""
    split = _known_splits.get(chunk)
    if split is None:
        split = [t.text for t in _tokenizer()(chunk) if not t.text.isspace()]
        _new_splits[chunk] = split
    pieces = []
    offset = 0
    for text in split:  # token texts are slices of the chunk, in order
        offset = chunk.index(text, offset)
        pieces.append((text, offset, text.lower(), bool(_WORD_CHAR.search(text))))
        offset += len(text)
    return tuple(pieces)


@functools.lru_cache(maxsize=65536)
def tokenize(sentence: str) -> tuple[Token, ...]:
    """spaCy rule-based tokens of ``sentence`` (whitespace-only tokens dropped).

    spaCy splits on whitespace first and applies its prefix, suffix, infix and exception rules
    to each whitespace-free chunk on its own, so tokenising chunk by chunk gives the same tokens;
    caching the chunks (words repeat across a dataset) makes linting ~3x faster. A token's
    ``whitespace`` is the whitespace that really follows it in the sentence.
    """
    tokens: list[Token] = []
    append = tokens.append
    base = len(sentence) - len(sentence.lstrip())
    for chunk, space in _CHUNK.findall(sentence):
        pieces = _chunk_pieces(chunk)
        if len(pieces) == 1:  # the common case: a plain word
            text, offset, lower, word = pieces[0]
            append(Token(text, base + offset, space, lower, word))
        else:
            last = len(pieces) - 1
            for i, (text, offset, lower, word) in enumerate(pieces):
                gap = space if i == last else " " * (pieces[i + 1][1] - offset - len(text))
                append(Token(text, base + offset, gap, lower, word))
        base += len(chunk) + len(space)
    return tuple(tokens)


def _span(tokens: tuple[Token, ...], start: int, end: int) -> Span:
    return Span(start, end, tokens[start:end])


@functools.lru_cache(maxsize=65536)
def align(sent_more: str, sent_less: str) -> Alignment:
    """Align the tokens of two sentences; case-sensitive, so "muslim"/"Muslim" is an edit."""
    more, less = tokenize(sent_more), tokenize(sent_less)
    matcher = difflib.SequenceMatcher(
        None, [t.text for t in more], [t.text for t in less], autojunk=False
    )
    shared: list[tuple[Span, Span]] = []
    edits: list[Edit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        pair = (_span(more, i1, i2), _span(less, j1, j2))
        if tag == "equal":
            shared.append(pair)
        else:
            edits.append(Edit(tag, *pair))  # type: ignore[arg-type]
    return Alignment(
        more,
        less,
        tuple(shared),
        tuple(edits),
        tuple(t for e in edits for t in e.more.tokens),
        tuple(t for e in edits for t in e.less.tokens),
    )


def highlight_html(tokens: tuple[Token, ...], spans: list[Span], sentence: str) -> str:
    """``sentence`` as HTML with the given spans wrapped in ``<mark>``; all text escaped."""
    parts: list[str] = []
    cursor = 0
    for span in sorted((s for s in spans if s.tokens), key=lambda s: s.start):
        start, end = span.char_start, span.char_end
        assert start is not None and end is not None
        parts.append(html.escape(sentence[cursor:start]))
        parts.append(f"<mark>{html.escape(sentence[start:end])}</mark>")
        cursor = end
    parts.append(html.escape(sentence[cursor:]))
    return "".join(parts)


def diff_html(sent_more: str, sent_less: str) -> tuple[str, str]:
    """Both sentences as escaped HTML with their modified spans marked."""
    alignment = align(sent_more, sent_less)
    return (
        highlight_html(alignment.more, [e.more for e in alignment.edits], sent_more),
        highlight_html(alignment.less, [e.less for e in alignment.edits], sent_less),
    )
