"""Project configuration: ``[tool.curate]`` in the project's ``pyproject.toml``.

The project root is the nearest directory, from the working directory upwards, with a
``pyproject.toml`` that has a ``[tool.curate]`` table; without one the working directory is the
root and the defaults apply. Relative paths in the table are relative to the root. CLI options
override every value.

The table is checked when it is read: a ``pyproject.toml`` on the way up that is not valid TOML
(it might be the project's, so it cannot be skipped), an unknown key, an unknown sub-table or a
value of the wrong type is one :class:`~curate.errors.InputError` (exit 2) naming the file and
the key. Sub-tables whose stage checks them itself (``lint``: :mod:`curate.lint.settings`) are
only required to be tables; :func:`check_keys` is the helper such a stage calls.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationError

from curate import tomltext
from curate.errors import InputError
from curate.fileio import read_input_bytes
from curate.records import Record, check_one_line, describe

DEFAULT_DATA = "data/raw/crows_pairs_anonymized.csv"
DEFAULT_SOURCES = "data/raw/sources.toml"
DEFAULT_OUTPUT_DIR = "build"

#: A relative path in the table: one line, no NUL or control character.
PathText = Annotated[str, Field(max_length=4096), AfterValidator(check_one_line)]


class _Table(Record):
    """A config table: strict types, unknown keys refused, keys spelt with dashes."""

    model_config = ConfigDict(populate_by_name=False)


class ScoreSection(_Table):
    """``[tool.curate.score]``."""

    models: list[Annotated[str, Field(min_length=1)]] | None = None
    methods: list[Annotated[str, Field(min_length=1)]] | None = None
    threads: Annotated[int, Field(ge=1, le=1024)] | None = None
    device: Literal["auto", "cpu", "cuda", "mps"] | None = None
    dtype: Literal["float32", "bfloat16"] | None = None
    batch_size: Annotated[int, Field(ge=1, le=1 << 20)] | None = Field(None, alias="batch-size")
    threshold: Annotated[float, Field(ge=0, le=100)] | None = None
    cache: PathText | None = None


class AnnotationsSection(_Table):
    """``[tool.curate.annotations]``."""

    rounds_dir: PathText | None = Field(None, alias="rounds-dir")
    label_config: PathText | None = Field(None, alias="label-config")


class ReleaseSection(_Table):
    """``[tool.curate.release]``."""

    dir: PathText | None = None


#: The sub-tables config.py checks, and those their stage checks (only: must be a table).
SECTIONS: dict[str, type[_Table]] = {
    "score": ScoreSection,
    "annotations": AnnotationsSection,
    "release": ReleaseSection,
}
SELF_CHECKED_SECTIONS = ("lint",)


class CurateTable(_Table):
    """``[tool.curate]`` itself (sub-tables are checked by :data:`SECTIONS`)."""

    data: PathText | None = None
    sources: PathText | None = None
    output_dir: PathText | None = Field(None, alias="output-dir")


@dataclass(frozen=True)
class Config:
    """Resolved settings; every path is absolute."""

    root: Path
    data: Path
    sources: Path
    output_dir: Path
    #: Raw sub-tables such as ``lint`` (``[tool.curate.lint]``), read by their stage.
    sections: dict[str, Any] = field(default_factory=dict)

    def section(self, name: str) -> dict[str, Any]:
        """The ``[tool.curate.<name>]`` table, or an empty dict."""
        value = self.sections.get(name, {})
        return value if isinstance(value, dict) else {}


def check_keys(table: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    """An InputError naming the unknown keys of ``table`` (``where``: file and table name)."""
    known = sorted(known)
    unknown = sorted(k for k in table if k not in known)
    if unknown:
        raise InputError(
            f"{where}: unknown key{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(k) for k in unknown)}; known keys: {', '.join(known)}"
        )


def _read_toml(path: Path) -> dict[str, Any]:
    data = read_input_bytes(path)
    try:
        return tomltext.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 (invalid byte at offset {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: invalid TOML ({exc})") from None


def find_root(start: Path | None = None) -> Path | None:
    """The nearest ancestor of ``start`` whose pyproject.toml has ``[tool.curate]``.

    A pyproject.toml on the way that cannot be read or parsed is an InputError: it might be
    the project's own, and skipping it would silently apply another project's settings.
    """
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        candidate = directory / "pyproject.toml"
        if not candidate.exists() and not candidate.is_symlink():
            continue
        table = _read_toml(candidate)
        tool = table.get("tool", {})
        if isinstance(tool, dict) and "curate" in tool:
            return directory
    return None


def known_keys(model: type[_Table]) -> list[str]:
    """The keys of a config table model, as spelt in TOML."""
    return [f.alias or name for name, f in model.model_fields.items()]


def _validate(model: type[_Table], table: dict[str, Any], where: str) -> None:
    try:
        model.model_validate(table)
    except ValidationError as exc:
        raise InputError(f"{where} {describe(exc, 'key')}") from None


def _check(table: Any, path: Path) -> dict[str, Any]:
    """The validated ``[tool.curate]`` table (sub-tables included)."""
    where = f"{path}: [tool.curate]"
    if not isinstance(table, dict):
        raise InputError(f"{where} must be a table")
    sections = (*SECTIONS, *SELF_CHECKED_SECTIONS)
    check_keys(table, [*known_keys(CurateTable), *sections], where)
    for name in sections:
        if name in table and not isinstance(table[name], dict):
            raise InputError(f"{path}: [tool.curate.{name}] must be a table")
    _validate(CurateTable, {k: v for k, v in table.items() if k not in sections}, where)
    for name, model in SECTIONS.items():
        if name in table:
            sub = f"{path}: [tool.curate.{name}]"
            check_keys(table[name], known_keys(model), sub)
            _validate(model, table[name], sub)
    return table


def load_config(start: Path | None = None) -> Config:
    """Read ``[tool.curate]`` from the project root found from ``start`` (default: cwd)."""
    root = find_root(start)
    table: dict[str, Any] = {}
    if root is None:
        root = (start or Path.cwd()).resolve()
    else:
        path = root / "pyproject.toml"
        table = _check(_read_toml(path)["tool"]["curate"], path)
    sections = {k: v for k, v in table.items() if isinstance(v, dict)}
    values = {k: v for k, v in table.items() if not isinstance(v, dict)}
    return Config(
        root=root,
        data=root / values.get("data", DEFAULT_DATA),
        sources=root / values.get("sources", DEFAULT_SOURCES),
        output_dir=root / values.get("output-dir", DEFAULT_OUTPUT_DIR),
        sections=sections,
    )


def fetched_data(cfg: Config) -> Path:
    """The configured data file, which ``curate fetch`` must have put in place."""
    if not cfg.data.is_file():
        raise InputError(f"{cfg.data}: no such file; run `curate fetch crows-pairs` first")
    return cfg.data
