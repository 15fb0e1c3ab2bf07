"""A SQLite cache of masked-token log-probabilities, so scoring is resumable and incremental.

One row holds the log-probability of one masked copy of one sentence:
``(context, sentence, position) -> logprob``. The *context* is a hash of everything else the
number depends on: the model fingerprint (config + weights), the tokenizer fingerprint, the
scoring method and the dtype. The *sentence* is a hash of its token ids (after lower-casing
for uncased models), so two spellings that tokenise alike share their rows.

Why one row per masked position rather than one per sentence score: a sentence's score is the
sum over its *masked position set*, which depends on the partner sentence (only tokens that the
two sentences share are masked). Storing positions lets any position set be assembled from
rows, lets a revision that edits one sentence of a pair reuse every unchanged position of the
other, and lets a run that is killed midway keep every finished batch: each batch is committed
in its own transaction, and the database runs in WAL mode so a ``kill -9`` loses at most the
batch in flight.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from curate.errors import CurateError

#: Bumped when the table layout changes; an old cache is then refused, not misread.
SCHEMA_VERSION = "1"
#: The folder of the default cache (commands/common.py DEFAULT_SCORE_CACHE): what is in it
#: is curate's own, so a damaged file there may be deleted.
CACHE_DIR_NAME = ".curate-cache"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS contexts (id TEXT PRIMARY KEY, description TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS logprobs (
    context TEXT NOT NULL,
    sentence TEXT NOT NULL,
    position INTEGER NOT NULL,
    logprob REAL NOT NULL,
    PRIMARY KEY (context, sentence, position)
) WITHOUT ROWID;
"""

#: SQLite limits the number of host parameters per statement; stay well below it.
_CHUNK = 500


class CacheError(CurateError):
    """The cache file cannot be opened or is not a curate score cache."""


def sentence_key(token_ids: Sequence[int], words: Sequence[int | None] = ()) -> str:
    """The cache key of a tokenised sentence: a hash of its token ids, and of the word index
    of each token when the method's numbers depend on the word grouping."""
    text = ",".join(map(str, token_ids))
    if words:
        text += "|" + ",".join("-" if w is None else str(w) for w in words)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def context_key(description: Mapping[str, Any]) -> str:
    """The cache key of a scoring context (model, tokenizer, method, dtype fingerprints)."""
    canonical = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ScoreCache:
    """Masked-token log-probabilities in a SQLite file (WAL mode), or in memory for ``None``.

    Use as a context manager or call :meth:`close`. Safe to share between processes: SQLite
    serialises the writers and readers see only committed batches.
    """

    def __init__(self, path: Path | str | None) -> None:
        self.path = Path(path) if path is not None else None
        existed = self.path is not None and _refuse_foreign(self.path)
        try:
            if self.path is None:
                self._db = sqlite3.connect(":memory:")
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, timeout=60.0)
                self._db.execute("PRAGMA journal_mode=WAL")
                # WAL + NORMAL: a committed batch survives a killed process (not a power cut).
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                with self._db:
                    self._db.execute(
                        "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)",
                        (SCHEMA_VERSION,),
                    )
            elif row[0] != SCHEMA_VERSION:
                raise CacheError(
                    f"{self.path}: score cache schema {row[0]} is not the supported "
                    f"{SCHEMA_VERSION}; delete the file or choose another --cache"
                )
            if existed:
                self._probe()
        except sqlite3.DatabaseError as exc:
            assert self.path is not None  # an in-memory database does not fail to open
            if (full := _disk_problem(exc, self.path)) is not None:
                raise CacheError(full) from None
            if not existed:
                raise CacheError(
                    f"{self.path}: the score cache cannot be created "
                    f"({_why_not_writable(self.path.parent)})"
                ) from None
            raise CacheError(
                f"{self.path}: not a usable score cache ({exc}); delete it or choose another --cache"
            ) from None
        except OSError as exc:
            raise CacheError(f"{self.path}: cannot create the score cache ({exc})") from None

    def _probe(self) -> None:
        """Check every page of the file (SQLite's ``PRAGMA quick_check``: B-tree structure,
        cell bounds, free list), so that a cache damaged anywhere, deep inside a large table
        too, is refused when it is opened, before any model loads (15-37 s for a big one),
        rather than at the first lookup that reaches the bad page after the load.

        Why quick_check rather than a checksum of the file: the file changes with every
        committed batch and is shared by concurrent runs, so a stored checksum would need
        rewriting (and locking) at each batch; quick_check needs nothing stored and reads each
        page once, sequentially (about 0.6 s per 175 MB, a million rows, from the page cache).
        It skips only the cross-check of index entries against table rows, and the cache has
        no index but each table's own key. What no structural check sees: a flipped bit inside
        a row's number, which keeps every page well-formed (SQLite stores no checksums)."""
        with self._reading():
            problems = [row[0] for row in self._db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            lines = [line.strip() for line in problems[0].splitlines()]
            first = "; ".join(line for line in lines if line and not line.startswith("***"))
            raise CacheError(
                f"{self.path}: the score cache is damaged ({first}); delete it "
                "(the next run rebuilds it) or choose another --cache"
            )

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Damage SQLite finds only when it reaches a bad page (mid-run, not at open) becomes
        one sentence naming the file; the cache only saves work, so deleting it is safe."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if self.path is not None and (full := _disk_problem(exc, self.path)) is not None:
                raise CacheError(full) from None
            raise CacheError(
                f"{self.path}: the score cache is damaged ({exc}); delete it (the next run "
                "rebuilds it) or choose another --cache"
            ) from None

    def __enter__(self) -> ScoreCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection; committed rows stay on disk."""
        self._db.close()

    def register_context(self, fields: Mapping[str, Any], label: str = "") -> str:
        """Return the key of a scoring context, recording it with a label for inspection.

        Only ``fields`` make the key: the same weights loaded from another path share rows.
        """
        key = context_key(fields)
        description = json.dumps({**fields, "label": label}, sort_keys=True)
        with self._reading(), self._db:
            self._db.execute(
                "INSERT OR IGNORE INTO contexts (id, description) VALUES (?, ?)",
                (key, description),
            )
        return key

    def lookup(self, context: str, sentences: Iterable[str]) -> dict[tuple[str, int], float]:
        """Every cached ``(sentence, position) -> logprob`` of the given sentences."""
        found: dict[tuple[str, int], float] = {}
        keys = sorted(set(sentences))
        with self._reading():
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT sentence, position, logprob FROM logprobs "
                    f"WHERE context = ? AND sentence IN ({marks})",
                    (context, *chunk),
                )
                for sentence, position, logprob in rows:
                    found[(sentence, position)] = logprob
        return found

    def related_contexts(self, fields: Mapping[str, Any]) -> list[str]:
        """Keys of the registered contexts equal to ``fields`` but for the batch size: the
        exact one first (when ``fields`` names a batch size), then in registration order.

        For reading numbers back for inspection (token charts), where any batch size's
        numbers serve: they differ in the last float digits only."""
        wanted = {k: v for k, v in fields.items() if k != "batch_size"}
        exact = context_key(fields) if "batch_size" in fields else None
        keys: list[str] = []
        with self._reading():
            for key, description in self._db.execute(
                "SELECT id, description FROM contexts ORDER BY rowid"
            ):
                known = json.loads(description)
                known.pop("label", None)
                known.pop("batch_size", None)
                if known == wanted:
                    keys.append(key)
        return sorted(keys, key=lambda k: k != exact)

    def lookup_related(
        self, fields: Mapping[str, Any], sentences: Iterable[str]
    ) -> dict[tuple[str, int], float]:
        """:meth:`lookup` over :meth:`related_contexts`; an earlier context's number wins."""
        keys = list(sentences)
        found: dict[tuple[str, int], float] = {}
        for context in self.related_contexts(fields):
            for slot, value in self.lookup(context, keys).items():
                found.setdefault(slot, value)
        return found

    def export(
        self, label: str | Callable[[str], bool]
    ) -> list[tuple[str, list[tuple[str, int, float]]]]:
        """Every context registered under ``label`` (or whose label it accepts, when a
        function) as its description JSON, with its rows.

        What a driver ships to a worker that has no access to this file (``curate sweep`` on
        Ray): the worker registers the descriptions again, which gives the same keys."""
        accepts = label if callable(label) else label.__eq__
        out = []
        with self._reading():
            contexts = self._db.execute(
                "SELECT id, description FROM contexts ORDER BY rowid"
            ).fetchall()
            for key, description in contexts:
                if not accepts(json.loads(description).get("label", "")):
                    continue
                rows = self._db.execute(
                    "SELECT sentence, position, logprob FROM logprobs WHERE context = ? "
                    "ORDER BY sentence, position",
                    (key,),
                ).fetchall()
                out.append((description, rows))
        return out

    def store(self, context: str, rows: Iterable[tuple[str, int, float]]) -> None:
        """Write one batch of ``(sentence, position, logprob)`` rows in one transaction."""
        with self._reading(), self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO logprobs (context, sentence, position, logprob) "
                "VALUES (?, ?, ?, ?)",
                ((context, s, p, lp) for s, p, lp in rows),
            )

    def count(self, context: str | None = None) -> int:
        """Number of cached log-probabilities (of one context, or of all)."""
        with self._reading():
            if context is None:
                return self._db.execute("SELECT COUNT(*) FROM logprobs").fetchone()[0]
            return self._db.execute(
                "SELECT COUNT(*) FROM logprobs WHERE context = ?", (context,)
            ).fetchone()[0]


#: The first bytes of every SQLite database file.
_SQLITE_MAGIC = b"SQLite format 3\x00"


def _refuse_foreign(path: Path) -> bool:
    """Whether a file is at ``path``; a CacheError when what is there is no cache of ours.

    A folder, or a file that is neither empty nor an SQLite database nor in a ``.curate-cache``
    folder (the user's CSV given as ``--cache`` by mistake), was not made by curate: the
    message never tells the user to delete it.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise CacheError(f"{path}: cannot be used as the score cache ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise CacheError(f"{path}: is a directory, not a score cache file; choose another --cache")
    if not stat.S_ISREG(st.st_mode):
        raise CacheError(f"{path}: is not a regular file; choose another --cache")
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise CacheError(f"{path}: cannot be read as the score cache ({exc.strerror})") from None
    if head and head != _SQLITE_MAGIC and path.parent.name != CACHE_DIR_NAME:
        raise CacheError(
            f"{path}: not a score cache (not an SQLite database, so curate did not make it); "
            "choose another --cache"
        )
    return True


def _why_not_writable(folder: Path) -> str:
    """Why a file cannot be created in ``folder``, found by trying (root ignores modes)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"the folder {folder} is not writable: {exc.strerror}"
    return f"SQLite cannot create a database in {folder}"


def _disk_problem(exc: sqlite3.DatabaseError, path: Path) -> str | None:
    """One sentence for a full disk or a read-only cache; the cache itself is intact then."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL:
        return (
            f"{path}: cannot be written (No space left on device); the score cache is intact "
            "and keeps every finished batch: free some space and rerun"
        )
    if code is not None and code & 0xFF == sqlite3.SQLITE_READONLY:
        return f"{path}: cannot be written (the score cache or its folder is read-only)"
    return None


@contextlib.contextmanager
def open_cache(cache: ScoreCache | Path | str | None) -> Iterator[ScoreCache]:
    """The cache to score through: ``cache`` itself when it is open (borrowed: left open for
    its owner), else one opened on the path (or in memory for ``None``) and closed afterwards.

    As lm-evaluation-harness's ``CachingLM`` wraps a model, this keeps caching out of the
    scorers: they receive an open cache and never decide its lifetime.
    """
    if isinstance(cache, ScoreCache):
        yield cache
        return
    owned = ScoreCache(cache)
    try:
        yield owned
    finally:
        owned.close()
