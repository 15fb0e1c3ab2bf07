"""Decoding a text file that may not be UTF-8, with evidence, never silently wrong.

Benchmark files adapted to other languages were often saved by spreadsheet programs in a legacy
8-bit encoding: the Dutch CrowS-Pairs (Strazda & Spanakis 2025) is Mac Roman (``0x8e`` é,
``0x91`` ë, ``0xd5`` ’) with one line of UTF-8 pasted in. A general-purpose guesser is not
evidence: charset-normalizer 3.x names cp1250 for that file, which turns "één" into "ŽŽn" and
"siësta" into "si‘sta" without an error. So the choice here is made by two rules a reader can
check, and refused when they do not single one encoding out:

1. *Characters in place*: each non-ASCII character a candidate produces must be a letter
   (lower-case inside a word after a lower-case letter) or typographic punctuation outside a
   word (’ inside one); a C1 control character, a symbol, a quotation mark or bullet inside a
   word, or a capital after a lower-case letter is out of place. Candidates with the fewest
   misplaced characters stay.
2. *Words in the dictionary*: of the distinct words holding a non-ASCII character, the share
   found in the language's dictionary (pyspellchecker's, for the language of the file's ASCII
   words); the best share wins when it is at least :data:`MIN_KNOWN` and no other candidate
   ties it.

Lines that are valid UTF-8 with multi-byte sequences are decoded as UTF-8 whatever the file's
encoding (a legacy byte run forms valid UTF-8 by chance almost never: "√©√©n" is not Dutch),
and named in the note. :meth:`Decoded.encode` gives the original bytes back (tests check that
the Dutch file round-trips byte for byte); writers write UTF-8, and the reader's note records
the change.
"""

from __future__ import annotations

import codecs
import functools
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from curate.errors import InputError, UsageError
from curate.fileio import bom_encoding, decode_wide

#: Legacy encodings tried, most common first (ties are refused, so the order never decides).
CANDIDATES: tuple[str, ...] = (
    "cp1252",
    "mac_roman",
    "iso8859_15",
    "latin_1",
    "cp1250",
    "cp850",
    "cp437",
)
#: Text codecs that no file is saved in: they decode bytes to text, but as an escape syntax
#: (``\\xe9``, ``+AOk-``, punycode), not as a character set.
_NOT_FILE_ENCODINGS = frozenset(
    {"idna", "punycode", "raw-unicode-escape", "unicode-escape", "undefined", "utf-7"}
)
#: The least share of dictionary words (among words with a non-ASCII letter) to accept.
MIN_KNOWN = 0.6

_forced: ContextVar[str | None] = ContextVar("curate_encoding", default=None)


@contextmanager
def forced_encoding(encoding: str | None) -> Iterator[None]:
    """Within the block, readers decode legacy bytes with ``encoding`` (``--encoding``)
    instead of detecting it; ``None`` changes nothing."""
    if encoding is not None:
        check_encoding(encoding)
    token = _forced.set(encoding)
    try:
        yield
    finally:
        _forced.reset(token)


def check_encoding(name: str) -> str:
    """The codec's canonical name, or one sentence saying the name is unknown."""
    try:
        codec = codecs.lookup(name)
    except LookupError:
        raise UsageError(
            f"unknown encoding {name!r}; give a Python codec name such as mac_roman, cp1252, "
            "latin_1 or utf-8"
        ) from None
    # rot13, hex, base64 are codecs, but not of bytes to text (bytes.decode refuses them)
    if not getattr(codec, "_is_text_encoding", True) or codec.name in _NOT_FILE_ENCODINGS:
        raise UsageError(
            f"{name!r} is not an encoding of text files; give a Python codec name such as "
            "mac_roman, cp1252, latin_1 or utf-8"
        )
    return codec.name


@dataclass(frozen=True)
class Decoded:
    """A file's text and how it was decoded.

    ``encoding``: the codec of the file (``utf-8`` when it is all UTF-8); ``utf8_lines``: the
    1-based lines decoded as UTF-8 in a file of another encoding; ``evidence``: why that
    encoding (empty for UTF-8).
    """

    text: str
    encoding: str = "utf-8"
    utf8_lines: tuple[int, ...] = ()
    evidence: str = ""
    #: The bytes were decoded whole (UTF-16, UTF-32), not line by line.
    whole: bool = False

    @property
    def legacy(self) -> bool:
        return self.encoding != "utf-8"

    def encode(self) -> bytes:
        """The bytes this text was decoded from (every line in its own encoding)."""
        if not self.legacy:
            return self.text.encode("utf-8")
        if self.whole:
            return self.text.encode(self.encoding)
        utf8 = set(self.utf8_lines)
        return b"".join(
            line.encode("utf-8" if number in utf8 else self.encoding)
            for number, line in enumerate(self.text.splitlines(keepends=True), start=1)
        )

    def note(self, source: str) -> str:
        """The reader's note: the encoding, the evidence and that writes are UTF-8."""
        mixed = ""
        if self.utf8_lines:
            lines = ", ".join(map(str, self.utf8_lines[:10]))
            mixed = f"; line(s) {lines} are UTF-8 and were decoded as such"
        return (
            f"{source}: decoded from {self.encoding}, not UTF-8 ({self.evidence}){mixed}; "
            "files written from it are UTF-8"
        )


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _utf8_line(line: bytes) -> str | None:
    """The line as UTF-8 when it is valid UTF-8 (None otherwise)."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


_PUNCTUATION_OUTSIDE = frozenset("‘“”«»•–—…¡¿§°·")
_APOSTROPHES = frozenset("’´")


def misplaced(text: str) -> list[tuple[int, str]]:
    """The non-ASCII characters of ``text`` out of place, with their offsets (rule 1)."""
    bad = []
    for i, char in enumerate(text):
        if char.isascii():
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        inside = before.isalpha() and after.isalpha()
        category = unicodedata.category(char)
        if char == "\u00a0" or char in _APOSTROPHES:
            ok = True
        elif category.startswith("L"):
            latin = unicodedata.name(char, "").startswith("LATIN")
            ok = latin and not (char.isupper() and before.isalpha() and before.islower())
        elif char in _PUNCTUATION_OUTSIDE:
            ok = not inside
        else:  # control characters, symbols (√ © ∂ ...), other scripts' punctuation
            ok = False
        if not ok:
            bad.append((i, char))
    return bad


_WORD = re.compile(r"[^\W\d_]+(?:[’'][^\W\d_]+)*")


@functools.cache
def _dictionary(language: str) -> frozenset[str]:
    from spellchecker import SpellChecker  # loaded only for a file that is not UTF-8

    return frozenset(SpellChecker(language=language, distance=1).word_frequency.dictionary)


def _known_share(words: set[str], language: str | None) -> float:
    """The share of ``words`` in the dictionary of ``language``; when that is below
    :data:`MIN_KNOWN` (a file mixing languages), in the dictionary of any known language."""
    if not words or language is None:
        return 0.0
    share = sum(w.lower() in _dictionary(language) for w in words) / len(words)
    if share >= MIN_KNOWN:
        return share
    from curate.formats.language import LANGUAGES

    known = [w for w in words if any(w.lower() in _dictionary(code) for code in LANGUAGES)]
    return len(known) / len(words)


def decode(data: bytes, source: str, encoding: str | None = None) -> Decoded:
    """The text of a file's bytes (see the module docstring for how a legacy encoding is
    chosen). ``encoding`` (default: ``--encoding`` when given) skips detection; ``utf-8`` is
    then strict."""
    encoding = encoding or _forced.get()
    if encoding is not None and check_encoding(encoding) == "utf-8":
        return Decoded(_strict_utf8(data, source))
    if encoding is not None and wide(encoding):
        return _decoded_whole(data, encoding, source, f"--encoding {encoding}")
    if encoding is None and (marked := bom_encoding(data)):
        return _decoded_whole(data, marked, source, f"its {marked.upper()} byte-order mark")
    if encoding is None:
        if found := _wide_without_bom(data):  # ASCII in UTF-16 is valid UTF-8, NULs and all
            where = _where(data) or "NUL bytes between its characters"
            raise InputError(
                f"{source}: not UTF-8: {where}; its NUL bytes between ASCII letters say "
                f"{found} without a byte-order mark; give --encoding {found} if that is it"
            )
        try:
            return Decoded(data.decode("utf-8"))
        except UnicodeDecodeError:
            pass
        if b"\x00" in data:
            raise InputError(
                f"{source}: not UTF-8: {_where(data)}, and it holds NUL bytes: the file looks "
                "binary, not text"
            )
    lines = _lines(data)
    legacy = [
        (n, line)
        for n, line in enumerate(lines, start=1)
        if not line.isascii() and _utf8_line(line) is None
    ]
    utf8_lines = tuple(
        n for n, line in enumerate(lines, start=1) if not line.isascii() and _utf8_line(line)
    )
    if encoding is not None:
        name = check_encoding(encoding)
        decoded = _decoded(lines, name, utf8_lines, source, f"--encoding {encoding}")
        if found := misplaced(decoded.text):  # said, never silent: the user may be wrong
            i, char = found[0]
            line = decoded.text.count("\n", 0, i) + 1
            evidence = (
                f"--encoding {encoding}, but {len(found)} character(s) look out of place, "
                f"e.g. {char!r} on line {line}"
            )
            return Decoded(decoded.text, name, utf8_lines, evidence)
        return decoded
    return _detect(lines, legacy, utf8_lines, source, _where(data))


def wide(encoding: str) -> bool:
    """Whether ``encoding`` is one whose line ends are not the bytes ``\\n`` / ``\\r\\n``
    (UTF-16, UTF-32 and their byte orders): its files are decoded whole, not line by line."""
    return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))


def sniffable(data: bytes) -> bytes:
    """The bytes the benchmarks' detectors look at: ``data`` itself, or, for a UTF-16 or UTF-32
    file (its byte-order mark, or ``--encoding``), its text as UTF-8, so that the detectors,
    which read the first line as ASCII, see a tab, a ``{`` or a column name."""
    forced = _forced.get()
    name = forced if forced is not None and wide(forced) else bom_encoding(data)
    if name is None:
        return data
    return data.decode(name, errors="replace").lstrip("\ufeff").encode("utf-8")


def _wide_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` / ``utf-16-be`` / ``utf-32-le`` / ``utf-32-be`` when the first bytes are
    ASCII text in that layout (each ASCII byte padded by NULs on one side), else None."""
    head = data[:400]
    for name, width, first in (
        ("utf-32-le", 4, 0), ("utf-32-be", 4, 3), ("utf-16-le", 2, 0), ("utf-16-be", 2, 1),
    ):
        units = [head[i : i + width] for i in range(0, len(head) - width + 1, width)]
        ascii_units = sum(
            0 < u[first] < 0x80 and not any(u[:first] + u[first + 1 :]) for u in units
        )
        if len(units) >= 4 and ascii_units >= 0.9 * len(units):
            return name
    return None


def _decoded_whole(data: bytes, encoding: str, source: str, evidence: str) -> Decoded:
    """``data`` decoded whole as UTF-16 / UTF-32 ``encoding``, the evidence being ``evidence``
    (a byte-order mark or ``--encoding``); a text whose characters are out of place says so,
    as a forced 8-bit encoding does."""
    name = codecs.lookup(encoding).name
    text = decode_wide(data, name, source)
    if text.startswith("\ufeff"):  # utf-16-le given for a file with its mark
        text = text[1:]
    if "\x00" in text:  # UTF-32 read as UTF-16, or the wrong byte order
        marked = bom_encoding(data)
        hint = f" (its byte-order mark says {marked})" if marked and marked != name else ""
        raise InputError(
            f"{source}: decoded as {name} it holds NUL characters: not {name}{hint}; give the "
            "file's encoding with --encoding"
        )
    if found := misplaced(text):
        i, char = found[0]
        line = text.count("\n", 0, i) + 1
        evidence = (
            f"{evidence}, but {len(found)} character(s) look out of place, e.g. {char!r} on "
            f"line {line}"
        )
    return Decoded(text, name, (), evidence, whole=True)


def _where(data: bytes) -> str:
    """Where the first byte that is not UTF-8 is: its value, offset and line."""
    try:
        data.decode("utf-8")
        return ""
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f"invalid byte 0x{data[exc.start]:02x} at byte offset {exc.start} (line {line})"


def _strict_utf8(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{source}: not UTF-8: invalid byte 0x{data[exc.start]:02x} at byte offset "
            f"{exc.start} (line {line}); give its encoding with --encoding"
        ) from None


def _decoded(
    lines: list[bytes], name: str, utf8_lines: tuple[int, ...], source: str, evidence: str
) -> Decoded:
    name = codecs.lookup(name).name
    utf8 = set(utf8_lines)
    parts = []
    for n, line in enumerate(lines, start=1):
        try:
            parts.append(line.decode("utf-8" if n in utf8 else name))
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{source}: line {n}: byte 0x{line[exc.start]:02x} is not {name}"
            ) from None
    return Decoded("".join(parts), name, utf8_lines, evidence)


@dataclass(frozen=True)
class _Candidate:
    name: str
    misplaced: int
    example: str
    known: float
    words: int
    text: str


def _detect(
    lines: list[bytes],
    legacy: list[tuple[int, bytes]],
    utf8_lines: tuple[int, ...],
    source: str,
    where: str,
) -> Decoded:
    from curate.formats.language import detect_language

    # the function words that tell the language are ASCII in every candidate
    language = detect_language(b"".join(lines).decode("ascii", errors="replace"))
    candidates: list[_Candidate] = []
    for name in CANDIDATES:
        try:
            decoded = [(n, line.decode(name)) for n, line in legacy]
        except UnicodeDecodeError:
            continue  # bytes the codec does not define: not this encoding
        bad = 0
        example = ""
        words: set[str] = set()
        for n, text in decoded:
            found = misplaced(text)
            bad += len(found)
            if found and not example:
                i, char = found[0]
                word = _WORD.findall(text[max(0, i - 12) : i + 12]) or [char]
                example = f"{char!r} on line {n} ({' '.join(word)})"
            words.update(w for w in _WORD.findall(text) if not w.isascii())
        text = "".join(t for _, t in decoded)
        candidates.append(
            _Candidate(name, bad, example, _known_share(words, language), len(words), text)
        )
    if not candidates:
        raise InputError(
            f"{source}: not UTF-8: {where}, and no known 8-bit encoding decodes it; give "
            "its encoding with --encoding"
        )
    fewest = min(c.misplaced for c in candidates)
    placed = sorted(
        (c for c in candidates if c.misplaced == fewest), key=lambda c: -c.known
    )
    best = placed[0]
    # encodings that agree on these bytes (cp1252, latin_1 and iso8859_15 on "café") are no
    # ambiguity: only a tie that reads the bytes differently is
    tied = [c.name for c in placed[1:] if c.known == best.known and c.text != best.text]
    if fewest or best.known < MIN_KNOWN or tied:
        if fewest:
            why = f"{best.misplaced} character(s) out of place, e.g. {best.example}"
        elif language is None:
            why = "too little text to tell its language and check its words"
        elif best.known < MIN_KNOWN:
            why = f"only {best.known:.0%} of its accented words are in the {language} dictionary"
        else:
            why = f"{', '.join(tied)} read(s) it as well, differently"
        raise InputError(
            f"{source}: not UTF-8: {where}; likely {best.name}, but the evidence is not "
            f"enough ({why}); give the encoding with --encoding {best.name} if that is it"
        )
    others = ", ".join(
        f"{c.name}: {c.misplaced} out of place" if c.misplaced else f"{c.name}: {c.known:.0%}"
        for c in candidates
        if c is not best
    )
    evidence = (
        f"every non-ASCII character in place and {best.known:.0%} of its {best.words} "
        f"accented words in the {language} dictionary; {others}"
    )
    return _decoded(lines, best.name, utf8_lines, source, evidence)
