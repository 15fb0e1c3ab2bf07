"""Registry of source datasets (``data/raw/sources.toml``) and checksummed fetching.

A source is pinned by SHA-256. ``fetch`` downloads it from its URL, or copies it from a local
path or mirror directory, hashing while it writes to a temporary file beside the destination; only
bytes that match the pin are renamed into place, so a failed or interrupted fetch leaves nothing.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import tomllib
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from curate import tomltext
from curate.errors import ChecksumError, FetchError, InputError, UsageError
from curate.fileio import check_output_path, open_input, protect, read_input_bytes, sha256_file

MIRROR_ENV = "CURATE_DATA_MIRROR"
REQUIRED_KEYS = ("file", "url", "sha256", "license", "citation")
#: URL schemes fetch can read; anything else with ``://`` is refused, not taken for a path.
URL_SCHEMES = ("http", "https", "file")
_CHUNK = 1 << 16

#: Called with (bytes done, total bytes or None) while a fetch runs.
ProgressCallback = Callable[[int, int | None], None]


@dataclass(frozen=True)
class Source:
    """One pinned third-party file."""

    name: str
    file: str
    url: str
    sha256: str
    license: str
    citation: str
    description: str = ""
    #: Sub-directory of data/raw (and of a mirror) the file lives in ("" for data/raw itself).
    folder: str = ""
    #: The language of its text when it is a version of a benchmark in another language than
    #: English (``fr``, ``nl``): ``curate fetch`` says it; readers also detect it.
    language: str = ""

    @property
    def relpath(self) -> Path:
        """Where the file lives under data/raw (and under a mirror directory)."""
        return Path(self.folder) / self.file if self.folder else Path(self.file)


@dataclass(frozen=True)
class FetchResult:
    """What ``fetch`` did: where the file is, where it came from, and whether it was copied."""

    path: Path
    origin: str
    action: str  # "downloaded" | "copied" | "already present"


def load_sources(path: Path) -> dict[str, Source]:
    """Read the registry; every entry needs file, url, sha256, license and citation."""
    if not os.path.lexists(path):
        raise InputError(f"{path}: no such file; the source registry is data/raw/sources.toml")
    try:
        table = tomltext.loads(read_input_bytes(path).decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 (byte offset {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: invalid TOML ({exc})") from None
    sources: dict[str, Source] = {}
    for name, entry in table.items():
        if not isinstance(entry, dict):
            raise InputError(f"{path}: [{name}] must be a table")
        missing = [k for k in REQUIRED_KEYS if not isinstance(entry.get(k), str) or not entry[k]]
        if missing:
            raise InputError(f"{path}: [{name}] lacks {', '.join(missing)}")
        if len(entry["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in entry["sha256"]):
            raise InputError(f"{path}: [{name}] sha256 must be 64 lower-case hex digits")
        if Path(entry["file"]).name != entry["file"]:
            raise InputError(
                f"{path}: [{name}] file must be a bare file name, got {entry['file']!r}"
            )
        folder = str(entry.get("folder", ""))
        if folder and (Path(folder).is_absolute() or ".." in Path(folder).parts):
            raise InputError(f"{path}: [{name}] folder must be a relative path inside data/raw")
        sources[name] = Source(
            name=name,
            description=str(entry.get("description", "")),
            folder=folder,
            language=str(entry.get("language", "")),
            **{k: entry[k] for k in REQUIRED_KEYS},
        )
        protect(path.parent / sources[name].relpath)  # no output of this process may replace it
    protect(path)
    return sources


def get_source(sources: dict[str, Source], name: str) -> Source:
    """Look a source up by name, listing the known names when it is absent."""
    try:
        return sources[name]
    except KeyError:
        known = ", ".join(sorted(sources)) or "none"
        raise UsageError(f"unknown source {name!r}; known sources: {known}") from None


def status(source: Source, dest_dir: Path) -> str:
    """``missing``, ``verified`` or ``checksum mismatch`` for the local copy of ``source``."""
    path = dest_dir / source.relpath
    if not path.is_file():
        return "missing"
    try:
        digest = sha256_file(path)
    except OSError:
        return "unreadable"
    return "verified" if digest == source.sha256 else "checksum mismatch"


def _is_url(origin: str) -> bool:
    """Whether ``origin`` is a URL (``scheme://...``); an unsupported scheme is a usage error.

    Only ``://`` makes a URL, so a local file named ``a:b.csv`` stays a path.
    """
    if "://" not in origin:
        return False
    scheme = urllib.parse.urlsplit(origin).scheme.lower()
    if scheme not in URL_SCHEMES:
        shown = scheme or origin.split("://", 1)[0]
        raise UsageError(
            f"--from {origin}: unsupported URL scheme {shown!r}; use "
            f"{', '.join(s + '://' for s in URL_SCHEMES)} or a local path"
        )
    return scheme != "file"


def _file_url_path(origin: str) -> str:
    """The local path of a ``file://`` URL (read like any other local path)."""
    parts = urllib.parse.urlsplit(origin)
    if parts.scheme.lower() != "file":
        return origin
    if parts.netloc not in ("", "localhost"):
        raise UsageError(f"--from {origin}: a file:// URL must name a local file (no host)")
    return urllib.request.url2pathname(parts.path)


def resolve_origin(source: Source, origin: str | None) -> str:
    """Where to take ``source`` from: ``origin`` (path, directory or URL), the mirror, or its URL.

    A directory (given or from ``$CURATE_DATA_MIRROR``) is a mirror holding the file under its
    registry name.
    """
    chosen = origin or os.environ.get(MIRROR_ENV) or source.url
    if _is_url(chosen):
        return chosen
    path = Path(_file_url_path(chosen)).expanduser()
    if path.is_dir():  # a mirror: the file under its folder, or directly in the directory
        nested = path / source.relpath
        path = nested if nested.exists() or not (path / source.file).exists() else path / source.file
    return str(path)


def _copy_stream(
    reader: BinaryIO, writer: BinaryIO, total: int | None, progress: ProgressCallback | None
) -> str:
    digest = hashlib.sha256()
    done = 0
    while chunk := reader.read(_CHUNK):
        writer.write(chunk)
        digest.update(chunk)
        done += len(chunk)
        if progress:
            progress(done, total)
    return digest.hexdigest()


def _copy_local(
    source: Source, path: Path, out: BinaryIO, progress: ProgressCallback | None
) -> str:
    """Copy a local file into ``out``; every reason it cannot be read is one FetchError."""
    try:
        with open_input(path) as src:
            size = os.fstat(src.fileno()).st_size or None
            try:
                return _copy_stream(src, out, size, progress)
            except OSError as exc:
                raise FetchError(f"{source.name}: cannot read {path} ({exc.strerror})") from None
    except InputError as exc:
        raise FetchError(f"{source.name}: cannot copy from {exc}") from None


def fetch(
    source: Source,
    dest_dir: Path,
    origin: str | None = None,
    *,
    timeout: float = 60.0,
    force: bool = False,
    progress: ProgressCallback | None = None,
) -> FetchResult:
    """Fetch ``source`` into ``dest_dir/<file>``, verified against its pinned SHA-256."""
    dest = dest_dir / source.relpath
    resolved = resolve_origin(source, origin)
    if not force and status(source, dest_dir) == "verified":
        return FetchResult(dest, str(dest), "already present")
    # The pinned file itself may be replaced (by verified bytes only), nothing but a file.
    check_output_path(dest, replaces_input=True, replaces_pinned=True)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{source.file}.", suffix=".part", dir=dest.parent)
    except OSError as exc:
        raise FetchError(f"{source.name}: cannot write into {dest.parent} ({exc.strerror})") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            if _is_url(resolved):
                action = "downloaded"
                try:
                    with urllib.request.urlopen(resolved, timeout=timeout) as response:
                        length = response.headers.get("Content-Length")
                        total = int(length) if length and length.isdigit() else None
                        digest = _copy_stream(response, out, total, progress)
                except (urllib.error.URLError, TimeoutError, OSError) as exc:
                    reason = (
                        f"HTTP {exc.code} {exc.reason}"
                        if isinstance(exc, urllib.error.HTTPError)
                        else getattr(exc, "reason", exc)
                    )
                    raise FetchError(
                        f"{source.name}: cannot download {resolved}: {reason}"
                    ) from None
            else:
                action = "copied"
                digest = _copy_local(source, Path(resolved), out, progress)
        if digest != source.sha256:
            raise ChecksumError(
                f"{source.name}: checksum mismatch for {resolved}: got sha256 {digest}, "
                f"expected {source.sha256}; nothing was written"
            )
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return FetchResult(dest, resolved, action)
