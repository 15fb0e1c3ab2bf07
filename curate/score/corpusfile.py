"""A corpus to measure a model's language-modelling quality on: its sentences, read from a
user's file, and each sentence as a pair of itself (:mod:`curate.score.corpus` measures it).

Apart from the measuring, which imports torch, because a sweep's driver reads the plan's
corpus and ships it to the workers: it must not import torch for that (issue 32).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.errors import InputError
from curate.pairs import Pair


@dataclass(frozen=True)
class Corpus:
    """Sentences to measure a model on, with where they came from (``name``: a named corpus or
    the file's name) and their SHA-256 (of the sentences joined by newlines)."""

    name: str
    sentences: tuple[str, ...]
    source: str = ""

    @property
    def sha256(self) -> str:
        return hashlib.sha256("\n".join(self.sentences).encode("utf-8")).hexdigest()

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source or self.name,
            "sentences": len(self.sentences),
            "sha256": self.sha256,
        }


def read_corpus_file(path: Path) -> Corpus:
    """A user's corpus: UTF-8 text, one sentence a line (blank lines skipped).

    Refused with one sentence each: a missing or unreadable file, a binary file (a NUL byte),
    text that is not UTF-8 (naming the line), and a file without a sentence.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such corpus file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder; give a text file, one sentence a line") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read the corpus ({exc.strerror or exc})") from None
    if b"\x00" in data:
        raise InputError(f"{path}: is a binary file, not text with one sentence a line")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{path}: line {line} is not UTF-8 (byte 0x{data[exc.start]:02x}); save the corpus "
            "as UTF-8"
        ) from None
    sentences = tuple(s for s in (line.strip() for line in text.splitlines()) if s)
    if not sentences:
        raise InputError(f"{path}: has no sentence (one sentence a line)")
    return Corpus(path.name, sentences, path.name)


def corpus_pairs(corpus: Corpus) -> list[Pair]:
    """Each sentence as a pair of itself (every token unmodified: see the module doc)."""
    return [
        Pair(pair_id=i, sent_more=s, sent_less=s, direction="stereo", bias_type="corpus")
        for i, s in enumerate(corpus.sentences)
    ]
