"""Resolve ``--corpus FILE|NAME`` (``curate score``, a sweep plan's ``corpus``) to sentences.

Here, beside :func:`curate.release.versions.resolve_version`, because a named corpus is drawn
from a fetched source file (``stereoset-unrelated`` from ``stereoset-dev``), found the way
every command finds data; a path is read by :func:`curate.score.corpus.read_corpus_file`.
"""

from __future__ import annotations

from pathlib import Path

from curate.config import Config
from curate.datasets import NAMED_CORPORA, named_corpus
from curate.errors import InputError, UsageError
from curate.score.corpusfile import Corpus, read_corpus_file


def load_corpus(spec: str, cfg: Config, base: Path | None = None) -> Corpus:
    """The corpus ``spec`` names: a text file (relative to ``base`` when given and it exists
    there), or a named corpus of :data:`curate.datasets.NAMED_CORPORA`."""
    from curate.release.versions import resolve_version

    path = Path(spec).expanduser()
    if base is not None and not path.is_absolute() and (base / path).exists():
        path = base / path
    if path.exists() or spec not in NAMED_CORPORA:
        if not path.exists():
            raise InputError(
                f"{spec}: no such corpus file, and no named corpus is called so (named: "
                f"{', '.join(NAMED_CORPORA)})"
            )
        return read_corpus_file(path)
    source, _ = NAMED_CORPORA[spec]
    try:
        data = resolve_version(source, cfg).path
    except (InputError, UsageError) as exc:
        raise InputError(f"corpus {spec} is drawn from source {source}: {exc}") from None
    if not data.exists():
        raise InputError(
            f"corpus {spec} is drawn from {source}, which is not fetched; run `curate fetch "
            f"{source}` first"
        )
    return Corpus(spec, named_corpus(spec, data), source)
