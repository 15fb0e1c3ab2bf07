"""Release recipes: ``data/clean/<version>/recipe.toml``, curation as code.

A release is a deterministic function of its recipe: the raw source (pinned by SHA-256), the safe
lint autofixes to apply, and the decision files to apply after them, in order::

    [release]
    version = "1.1.0"                 # optional; must equal the directory name
    title = "CrowS-Pairs, revalidated"
    summary = "Typographic fixes plus the decisions of annotation round r1."
    previous = "1.0.0-auto"           # optional: the CHANGELOG compares with it (default: raw)

    [source]
    name = "crows-pairs"              # entry of data/raw/sources.toml
    sha256 = "dfb36986..."            # the raw bytes this release is built from
    format = "tsv"                    # optional: force the raw file's shape (csv, tsv, jsonl,
                                      # parquet, hf-jsonl, hf-parquet, stereoset); default:
                                      # detected from the content

    [fixes]
    select = ["T001", "T003"]         # exact codes of fixable lint rules (no prefixes)

    [[decisions]]
    round = "r1"                      # annotations/rounds/r1/decisions.jsonl (from a tally)

    [[decisions]]
    file = "data/clean/1.1.0/decisions.jsonl"   # hand-written: every entry needs a reason
    override = true                   # replaces earlier decisions instead of conflicting

Fix codes must be exact because a prefix such as ``T`` would silently pick up rules added later
and change what an old recipe builds. Decision-file paths are relative to the project root.
The recipe's identity (:meth:`Recipe.digest`) hashes its parsed content, so comments and
formatting can be edited without touching a published version.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from curate import sources as sources_lib
from curate import tomltext
from curate.annotate.rounds import check_round_name, round_files
from curate.benchmarks import input_formats
from curate.config import Config
from curate.errors import InputError, UsageError
from curate.fileio import real_path
from curate.release.versions import RAW_ALIASES, is_version, parse_version

_TOP = {"release", "source", "fixes", "decisions"}
_RELEASE = {"version", "title", "summary", "previous"}
_SOURCE = {"name", "sha256", "format"}
_FIXES = {"select"}
_DECISION = {"round", "file", "override"}


@dataclass(frozen=True)
class DecisionSource:
    """One entry of ``[[decisions]]``: a round's tally or a hand-written file."""

    kind: str  # "round" | "file"
    name: str  # the round name, or the file path relative to the project root (POSIX)
    path: Path
    override: bool = False
    #: The file relative to the project root (POSIX), for change records and the manifest.
    file: str = ""

    @property
    def hand_written(self) -> bool:
        return self.kind == "file"

    @property
    def label(self) -> str:
        """How change records and errors name this source (never an absolute path)."""
        return f"round {self.name}" if self.kind == "round" else self.name

    def canonical(self) -> dict[str, Any]:
        return {self.kind: self.name, "override": self.override}


@dataclass(frozen=True)
class Recipe:
    """A validated recipe."""

    source: str
    sha256: str
    fixes: tuple[str, ...] = ()
    decisions: tuple[DecisionSource, ...] = ()
    version: str | None = None
    title: str = ""
    summary: str = ""
    previous: str | None = None
    #: The raw file's shape when forced (``[source] format``); None: detected from its content.
    input_format: str | None = None
    path: Path | None = field(default=None, compare=False)

    def canonical(self) -> dict[str, Any]:
        """The recipe's content as plain data: what the manifest records and the digest hashes."""
        return {
            "release": {
                "version": self.version,
                "title": self.title,
                "summary": self.summary,
                "previous": self.previous,
            },
            # the format key only when set, so that older recipes keep their digest
            "source": {
                "name": self.source,
                "sha256": self.sha256,
                **({"format": self.input_format} if self.input_format else {}),
            },
            "fixes": {"select": list(self.fixes)},
            "decisions": [d.canonical() for d in self.decisions],
        }

    def digest(self) -> str:
        """SHA-256 of the canonical JSON of :meth:`canonical`."""
        text = json.dumps(
            self.canonical(), sort_keys=True, ensure_ascii=False, separators=(",", ":")
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def recorded_path(path: Path, root: Path) -> str:
    """``path`` as a release records it: POSIX and relative to the project root, or only the
    file name outside it, so that a manifest never holds a path of the machine that built it
    (unlike the paths in messages, which may be absolute)."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _table(value: Any, where: str, keys: set[str], source: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{source}: {where} must be a table")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise InputError(
            f"{source}: {where}: unknown key {unknown[0]!r}; known keys: {', '.join(sorted(keys))}"
        )
    return value


def _string(table: dict[str, Any], key: str, where: str, source: str) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(f"{source}: {where}.{key} must be a string")
    return value


def check_fix_codes(codes: list[str] | tuple[str, ...], source: str) -> tuple[str, ...]:
    """Validate exact, fixable lint rule codes; return them sorted and unique."""
    from curate.benchmarks import all_rules

    rules = all_rules()
    fixable = sorted(code for code, rule in rules.items() if rule.fixable)
    for code in codes:
        if code not in rules:
            raise UsageError(
                f"{source}: unknown rule code {code!r}; fixable rules: {', '.join(fixable)} "
                "(exact codes, see `curate rules`)"
            )
        if not rules[code].fixable:
            raise UsageError(
                f"{source}: rule {code} has no safe autofix; fixable rules: {', '.join(fixable)}"
            )
    return tuple(sorted(set(codes)))


def _decision_source(entry: Any, index: int, cfg: Config, source: str) -> DecisionSource:
    where = f"[[decisions]] #{index}"
    entry = _table(entry, where, _DECISION, source)
    override = entry.get("override", False)
    if not isinstance(override, bool):
        raise InputError(f"{source}: {where}.override must be true or false")
    round_name, file_name = (
        _string(entry, "round", where, source),
        _string(entry, "file", where, source),
    )
    if (round_name is None) == (file_name is None):
        raise InputError(f'{source}: {where} needs exactly one of round = "NAME" or file = "PATH"')
    if round_name is not None:
        try:
            check_round_name(round_name)
        except UsageError as exc:
            raise InputError(f"{source}: {where}: {exc}") from None
        path = round_files(cfg, round_name).decisions
        return DecisionSource("round", round_name, path, override, recorded_path(path, cfg.root))
    assert file_name is not None
    posix = PurePosixPath(file_name)
    if posix.is_absolute() or ".." in posix.parts or "\\" in file_name or not file_name:
        raise InputError(
            f"{source}: {where}.file must be a relative path inside the project, got {file_name!r}"
        )
    root = real_path(cfg.root)
    if not real_path(cfg.root / posix).is_relative_to(root):
        raise InputError(
            f"{source}: {where}.file {file_name!r} is a symbolic link that leads outside the "
            "project; decisions must be files inside the project"
        )
    return DecisionSource("file", posix.as_posix(), cfg.root / posix, override, posix.as_posix())


def parse_recipe(text: str, cfg: Config, source: str = "<recipe>") -> Recipe:
    """Parse and validate recipe TOML; ``source`` names it in error messages."""
    try:
        data = tomltext.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{source}: invalid TOML ({exc})") from None
    _table(data, "the recipe", _TOP, source)
    release = _table(data.get("release", {}), "[release]", _RELEASE, source)
    src = _table(data.get("source", {}), "[source]", _SOURCE, source)
    fixes = _table(data.get("fixes", {}), "[fixes]", _FIXES, source)

    version = _string(release, "version", "[release]", source)
    if version is not None:
        try:
            parse_version(version)
        except UsageError as exc:
            raise InputError(f"{source}: [release].version: {exc}") from None
    previous = _string(release, "previous", "[release]", source)
    if previous is not None and previous not in RAW_ALIASES and not is_version(previous):
        raise InputError(
            f"{source}: [release].previous must be a version such as 1.0.0-auto or 'raw', "
            f"got {previous!r}"
        )
    if previous is not None and previous in RAW_ALIASES:
        previous = None
    if (
        previous is not None
        and version is not None
        and not parse_version(previous) < parse_version(version)
    ):
        raise InputError(f"{source}: [release].previous {previous} is not older than {version}")

    name = _string(src, "name", "[source]", source)
    sha256 = _string(src, "sha256", "[source]", source)
    if not name:
        raise InputError(f"{source}: [source].name is required (an entry of data/raw/sources.toml)")
    if not sha256 or len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise InputError(
            f"{source}: [source].sha256 is required: the 64 lower-case hex digits of the raw file"
        )

    input_format = _string(src, "format", "[source]", source)
    formats = input_formats()
    if input_format is not None and input_format not in formats:
        raise InputError(
            f"{source}: [source].format {input_format!r} is not a known format; expected one of "
            f"{', '.join(formats)}"
        )

    select = fixes.get("select", [])
    if not isinstance(select, list) or not all(isinstance(c, str) for c in select):
        raise InputError(f"{source}: [fixes].select must be a list of rule codes")
    try:
        codes = check_fix_codes(select, f"{source}: [fixes].select")
    except UsageError as exc:
        raise InputError(str(exc)) from None

    entries = data.get("decisions", [])
    if not isinstance(entries, list):
        raise InputError(f"{source}: decisions must be an array of tables ([[decisions]])")
    decisions = tuple(_decision_source(e, i, cfg, source) for i, e in enumerate(entries, 1))
    seen: set[tuple[str, str]] = set()
    for d in decisions:
        if (d.kind, d.name) in seen:
            raise InputError(f"{source}: decisions list {d.label} twice")
        seen.add((d.kind, d.name))

    return Recipe(
        source=name,
        sha256=sha256,
        fixes=codes,
        decisions=decisions,
        version=version,
        title=_string(release, "title", "[release]", source) or "",
        summary=_string(release, "summary", "[release]", source) or "",
        previous=previous,
        input_format=input_format,
    )


def load_recipe(path: Path, cfg: Config, version: str | None = None) -> Recipe:
    """Read a recipe file; ``version`` (or the directory name, if it is a version) must match."""
    from curate.fileio import read_text_utf8

    path = Path(path)
    if not path.is_file():
        hint = f"; write data/clean/{version}/recipe.toml" if version else ""
        raise InputError(f"{path}: no such recipe{hint}")
    recipe = parse_recipe(read_text_utf8(path), cfg, str(path))
    expected = version or (path.parent.name if is_version(path.parent.name) else None)
    if recipe.version is not None and expected is not None and recipe.version != expected:
        raise InputError(
            f"{path}: [release].version is {recipe.version} but the recipe is for {expected}"
        )
    version_name = recipe.version or expected
    if (
        recipe.previous is not None
        and version_name is not None
        and not parse_version(recipe.previous) < parse_version(version_name)
    ):
        raise InputError(
            f"{path}: [release].previous {recipe.previous} is not older than {version_name}"
        )
    return replace(recipe, version=version_name, path=path)


def recipe_from_options(
    cfg: Config,
    source: str = "crows-pairs",
    fixes: tuple[str, ...] = (),
    rounds: tuple[str, ...] = (),
    files: tuple[Path, ...] = (),
    input_format: str | None = None,
) -> Recipe:
    """A recipe from command-line options: rounds first, then hand-written files, in order.

    The raw file is pinned by the registry's SHA-256 for ``source``.
    """
    registry = sources_lib.load_sources(cfg.sources)
    entry = recipe_source(registry, source)[0]
    decisions: list[DecisionSource] = []
    for name in rounds:
        path = round_files(cfg, name).decisions
        decisions.append(DecisionSource("round", name, path, False, recorded_path(path, cfg.root)))
    for file in files:
        resolved = real_path(file)
        try:
            shown = resolved.relative_to(cfg.root).as_posix()
        except ValueError:
            shown = str(file)
        decisions.append(DecisionSource("file", shown, resolved, False, shown))
    return Recipe(
        source=entry.name,
        sha256=entry.sha256,
        fixes=check_fix_codes(fixes, "--fix"),
        decisions=tuple(decisions),
        input_format=input_format,
    )


def recipe_source(
    registry: dict[str, sources_lib.Source], name: str
) -> tuple[sources_lib.Source, tuple[sources_lib.Source, ...]]:
    """The source a recipe names, and its member files when it is a benchmark fetched as
    several files into one folder (``winobias``: its pro/anti files and occupation lists).

    Such a source is the folder (``file`` = the folder's name), pinned by the SHA-256 of the
    ``sha256sum`` lines of its members (their pinned digests, by file name), so that a release
    is built from every subset at once, each file still verified against its own pin.
    """
    from curate import benchmarks

    if name not in registry and name in benchmarks.all_benchmarks():
        members = tuple(registry[m] for m in benchmarks.get(name).fetch_sources if m in registry)
        folders = {m.folder for m in members}
        if len(members) > 1 and len(folders) == 1 and members[0].folder:
            sums = "".join(f"{m.sha256}  {m.file}\n" for m in sorted(members, key=lambda m: m.file))
            first = members[0]
            folder = sources_lib.Source(
                name=name,
                file=first.folder,
                url=first.url.rsplit("/", 1)[0] + "/",
                sha256=hashlib.sha256(sums.encode("utf-8")).hexdigest(),
                license=first.license,
                citation=first.citation,
            )
            return folder, members
    return sources_lib.get_source(registry, name), ()
