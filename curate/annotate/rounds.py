"""The files of one annotation round, kept together in ``annotations/rounds/<round>/``.

- ``tasks.json``: the round's tasks, as a list Label Studio imports as is (``push`` writes it,
  also without a server with ``--to-file``).
- ``round.json``: which project holds the round (id and title; never the URL or the key) and
  which task holds which pair.
- ``annotations.json``: the validated snapshot of the answers (``pull``).
- ``decisions.jsonl`` and ``agreement.json``: the outcome (``tally``).

Each file is written atomically and deterministically (no timestamps, sorted records), so a
rerun with the same inputs changes nothing and a round can be reviewed in a diff.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.config import Config
from curate.errors import InputError, UsageError
from curate.fileio import input_exists, read_text_utf8, write_text_atomic
from curate.jsonl import loads_document

_ROUND_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
DEFAULT_ROUNDS_DIR = "annotations/rounds"
DEFAULT_LABEL_CONFIG = "annotations/crows_validation.xml"
#: The labeling config shipped in the source tree, used when the project root has none.
_SHIPPED_LABEL_CONFIG = Path(__file__).resolve().parents[2] / DEFAULT_LABEL_CONFIG


@dataclass(frozen=True)
class RoundFiles:
    """Paths of one round's files."""

    name: str
    directory: Path

    @property
    def tasks(self) -> Path:
        return self.directory / "tasks.json"

    @property
    def info(self) -> Path:
        return self.directory / "round.json"

    @property
    def annotations(self) -> Path:
        return self.directory / "annotations.json"

    @property
    def decisions(self) -> Path:
        return self.directory / "decisions.jsonl"

    @property
    def agreement(self) -> Path:
        return self.directory / "agreement.json"


def is_round_name(name: str) -> bool:
    """Whether ``name`` is safe as a round's directory name."""
    return _ROUND_NAME.fullmatch(name) is not None


def check_round_name(name: str) -> str:
    """``name`` if it is safe as a directory name; a usage error otherwise."""
    if not is_round_name(name):
        raise UsageError(
            f"round name {name!r} must be 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


def rounds_dir(cfg: Config) -> Path:
    """Where rounds live: ``[tool.curate.annotations] rounds-dir`` or annotations/rounds."""
    value = cfg.section("annotations").get("rounds-dir", DEFAULT_ROUNDS_DIR)
    return cfg.root / str(value)


def round_files(cfg: Config, name: str) -> RoundFiles:
    """The files of round ``name`` under the project's rounds directory."""
    return RoundFiles(check_round_name(name), rounds_dir(cfg) / name)


def label_config_path(cfg: Config, path: Path | None = None) -> Path:
    """The labeling config: ``path``, else the project's, else the one shipped with curate."""
    if path is not None:
        return path
    configured = cfg.section("annotations").get("label-config")
    if configured:
        return cfg.root / str(configured)
    local = cfg.root / DEFAULT_LABEL_CONFIG
    return (
        local if local.is_file() or not _SHIPPED_LABEL_CONFIG.is_file() else _SHIPPED_LABEL_CONFIG
    )


def dumps(value: Any) -> str:
    """Stable, human-diffable JSON text with a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as JSON atomically."""
    write_text_atomic(path, dumps(value), replaces_input=True)  # a round updates its own state


def read_json(path: Path, hint: str = "") -> Any:
    """Parse a JSON file; a missing or malformed file is one clear input error."""
    if not input_exists(path):
        raise InputError(f"{path}: no such file{'; ' + hint if hint else ''}")
    text = read_text_utf8(path)
    try:
        return loads_document(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except ValueError as exc:
        raise InputError(f"{path}: {exc}") from None


def read_round_tasks(files: RoundFiles) -> list[dict[str, Any]] | None:
    """The round's tasks.json, or None when the round was never pushed."""
    if not files.tasks.exists():
        return None
    value = read_json(files.tasks)
    if not isinstance(value, list) or not all(
        isinstance(t, dict) and isinstance(t.get("data"), dict) for t in value
    ):
        raise InputError(f'{files.tasks}: expected a list of tasks like {{"data": {{...}}}}')
    return value


def read_round_info(files: RoundFiles) -> dict[str, Any]:
    """The round's round.json, or an empty dict."""
    if not files.info.exists():
        return {}
    value = read_json(files.info)
    if not isinstance(value, dict):
        raise InputError(f"{files.info}: expected a JSON object")
    return value
