"""A deterministic subword learner for the tiny test tokenizers.

The ``tokenizers`` WordPiece and Unigram trainers learn from a hash map whose order changes
from one process to the next: on the same corpus they gave different token ids (and, on ties,
different tokens) in every test process, so a random tiny model's scores moved between runs and
a tie-counting test failed in CI. This learner is byte-pair merging with every tie broken by
the text of the pair, so one corpus always gives one vocabulary in one order.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable


def learn_merges(
    words: Counter[str],
    split: Callable[[str], list[str]],
    join: Callable[[str, str], str],
    budget: int,
) -> list[str]:
    """Up to ``budget`` merged pieces, most frequent adjacent pair first, ties by pair text.

    ``split`` turns a word into its first pieces (characters, with any continuation mark);
    ``join`` makes the piece that replaces two adjacent ones.
    """
    parts = {word: split(word) for word in sorted(words)}
    counts: Counter[tuple[str, str]] = Counter()
    holders: defaultdict[tuple[str, str], set[str]] = defaultdict(set)
    for word, pieces in parts.items():
        for pair in itertools.pairwise(pieces):
            counts[pair] += words[word]
            holders[pair].add(word)
    merged: list[str] = []
    while len(merged) < budget:
        live = [(pair, count) for pair, count in counts.items() if count > 0]
        if not live:
            break
        best, _ = min(live, key=lambda item: (-item[1], item[0]))
        piece = join(*best)
        merged.append(piece)
        for word in sorted(holders.pop(best)):
            pieces = parts[word]
            for pair in itertools.pairwise(pieces):
                counts[pair] -= words[word]
            out: list[str] = []
            index = 0
            while index < len(pieces):
                if index + 1 < len(pieces) and (pieces[index], pieces[index + 1]) == best:
                    out.append(piece)
                    index += 2
                else:
                    out.append(pieces[index])
                    index += 1
            parts[word] = out
            for pair in itertools.pairwise(out):
                counts[pair] += words[word]
                holders[pair].add(word)
        del counts[best]
    return merged


def wordpiece_vocab(words: Counter[str], specials: Iterable[str], size: int) -> dict[str, int]:
    """A WordPiece vocabulary (``##`` marks a piece inside a word) of at most ``size`` tokens."""
    specials = list(specials)
    alphabet = sorted(
        {word[0] for word in words} | {f"##{char}" for word in words for char in word[1:]}
    )
    merges = learn_merges(
        words,
        split=lambda word: [word[0], *(f"##{char}" for char in word[1:])],
        join=lambda left, right: left + right.removeprefix("##"),
        budget=max(0, size - len(specials) - len(alphabet)),
    )
    tokens = list(dict.fromkeys([*specials, *alphabet, *merges]))
    return {token: index for index, token in enumerate(tokens)}


def unigram_vocab(
    words: Counter[str], specials: Iterable[str], size: int
) -> list[tuple[str, float]]:
    """Unigram pieces with log-frequency scores, specials first (score 0), at most ``size``.

    Each piece's score is the log of how often it is used when the corpus is split into the
    learned pieces (plus one), so the model's best split of a known word is its learned one.
    """
    specials = list(specials)
    alphabet = sorted({char for word in words for char in word})
    merges = learn_merges(
        words,
        split=list,
        join=lambda left, right: left + right,
        budget=max(0, size - len(specials) - len(alphabet)),
    )
    pieces = list(dict.fromkeys([*alphabet, *merges]))
    uses: Counter[str] = Counter()
    known = set(pieces)
    for word, count in sorted(words.items()):
        for piece in _longest_first(word, known):
            uses[piece] += count
    total = sum(uses[piece] + 1 for piece in pieces)
    scored = [(piece, math.log((uses[piece] + 1) / total)) for piece in pieces]
    return [*((special, 0.0) for special in specials), *scored]


def _longest_first(word: str, known: set[str]) -> list[str]:
    """``word`` split greedily into the longest known pieces (every character is known)."""
    out: list[str] = []
    start = 0
    while start < len(word):
        end = len(word)
        while end > start + 1 and word[start:end] not in known:
            end -= 1
        out.append(word[start:end])
        start = end
    return out
