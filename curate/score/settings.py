"""Score settings: ``[tool.curate.score]``, read once, then overridden by CLI options.

``models``, ``methods``, ``batch-size``, ``threads``, ``device``, ``threshold`` and ``cache`` may
be set in the project's ``pyproject.toml``; every option of ``curate score`` overrides them.
The same settings object drives every scoring entry point (``curate score``, ``curate
diff-report``, the library), so a setting means the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from curate.errors import InputError, UsageError
from curate.score.defaults import DEFAULT_BATCH_SIZE
from curate.score.methods import parse_methods
from curate.score.metrics import DEFAULT_THRESHOLD

#: ``--device`` and ``--dtype`` values. They live here, not in :mod:`curate.score.models` (which
#: builds the torch dtypes from these names), so that a command's help and its usage errors,
#: which read the defaults above, do not import torch.
DEVICES: tuple[str, ...] = ("auto", "cpu", "cuda", "mps")
DTYPE_NAMES: tuple[str, ...] = ("float32", "bfloat16")


@dataclass(frozen=True)
class ScoreSettings:
    """How to score: which models and methods, in what batches, where, in what precision."""

    models: tuple[str, ...] = ()
    #: Method names; empty: each model's defaults (``pll`` for masked LMs, ``clm-*`` for causal).
    methods: tuple[str, ...] = ()
    batch_size: int = DEFAULT_BATCH_SIZE
    #: CPU worker threads; None: as many as torch uses.
    threads: int | None = None
    device: str = "auto"
    dtype: str = "float32"
    #: None: lower-case when the tokenizer does (an uncased model).
    lowercase: bool | None = None
    threshold: float = DEFAULT_THRESHOLD
    #: The cache file relative to the project root, when configured.
    cache: str | None = None

    def with_overrides(self, **values: Any) -> ScoreSettings:
        """A copy with the non-None values replaced (CLI options over the config)."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


#: Config key -> (field, check, what the value must be).
_KEYS: dict[str, tuple[str, Any, str]] = {
    "models": ("models", _strings, "a list of strings"),
    "methods": ("methods", _strings, "a list of method names"),
    "batch-size": ("batch_size", _positive_int, "a positive integer"),
    "threads": ("threads", _positive_int, "a positive integer"),
    "device": ("device", lambda v: v in DEVICES, f"one of {', '.join(DEVICES)}"),
    "dtype": ("dtype", lambda v: v in DTYPE_NAMES, f"one of {', '.join(DTYPE_NAMES)}"),
    "threshold": (
        "threshold",
        lambda v: isinstance(v, int | float) and not isinstance(v, bool) and v >= 0,
        "a non-negative number",
    ),
    "cache": ("cache", lambda v: isinstance(v, str), "a string"),
}


def settings_from_table(
    table: Mapping[str, Any], source: str = "[tool.curate.score]"
) -> ScoreSettings:
    """Settings from a config table; unknown keys and wrong values are input errors naming
    the table and the key."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise InputError(f"{source}: unknown key {key!r}; known keys: {', '.join(_KEYS)}")
        name, check, what = _KEYS[key]
        if not check(value):
            raise InputError(f"{source}: {key} must be {what}")
        if name == "models":
            value = tuple(value)
        elif name == "methods":
            try:
                value = parse_methods(value, required=True)
            except UsageError as exc:
                raise InputError(f"{source}: {exc}") from None
        elif name == "threshold":
            value = float(value)
        values[name] = value
    return ScoreSettings(**values)
