"""Project configuration: ``[tool.curate]`` in the project's ``pyproject.toml``.

The project root is the nearest directory, from the working directory upwards, whose
``pyproject.toml`` has a ``[tool.curate]`` table; without one the working directory is the root
and the defaults apply. Relative paths in the table are relative to the root. CLI options override
every value.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.errors import InputError

DEFAULT_DATA = "data/raw/crows_pairs_anonymized.csv"
DEFAULT_SOURCES = "data/raw/sources.toml"
DEFAULT_OUTPUT_DIR = "build"


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


def find_root(start: Path | None = None) -> Path | None:
    """The nearest ancestor of ``start`` whose pyproject.toml has ``[tool.curate]``."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                table = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                continue
            if "curate" in table.get("tool", {}):
                return directory
    return None


def load_config(start: Path | None = None) -> Config:
    """Read ``[tool.curate]`` from the project root found from ``start`` (default: cwd)."""
    root = find_root(start)
    table: dict[str, Any] = {}
    if root is None:
        root = (start or Path.cwd()).resolve()
    else:
        path = root / "pyproject.toml"
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8"))["tool"]["curate"]
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"{path}: invalid TOML ({exc})") from None
    sections = {k: v for k, v in table.items() if isinstance(v, dict)}
    values = {k: v for k, v in table.items() if not isinstance(v, dict)}
    for key, value in values.items():
        if key in {"data", "sources", "output-dir"} and not isinstance(value, str):
            raise InputError(f"{root / 'pyproject.toml'}: [tool.curate] {key} must be a string")
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
