"""The sweep plan: a TOML file naming the models, methods, dataset versions and output root.

A plan is checked whole before anything is loaded or scored, and every mistake is one
:class:`PlanError` (an input error, exit 2) naming the file, the entry and what is wrong::

    output = "build/sweep"                  # the output root (relative to the plan file)
    cache = ".curate-cache/scores.sqlite"   # optional: the project's score cache by default
    batch-size = 32                         # optional defaults for every model
    threshold = 5
    corpus = "corpus.txt"                   # optional: each model's (pseudo-)perplexity on
                                            # a text file (relative to the plan) or a named
                                            # corpus (stereoset-unrelated), as score --corpus

    [[model]]
    name = "bert-base-uncased"              # hub id or a directory (relative to the plan file)
    label = "bert"                          # optional: the output folder name
    methods = ["pll", "aul"]                # optional: every method that fits the model's kind
    dtype = "float32"                       # optional: float32 | bfloat16
    device = "auto"                         # optional: auto | cpu | cuda | mps
    batch-size = 32                         # optional
    num-cpus = 1                            # optional: CPUs of its Ray task
    num-gpus = 0                            # optional: GPUs of its Ray task (1 when device = cuda)

    [[version]]
    label = "raw"                           # the output folder of this version
    data = "raw"                            # raw, a source name, a release (1.0.0-auto) or a file
    input-format = "crows-pairs"            # optional: forced shape of the file
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate import tomltext
from curate.errors import InputError, UsageError
from curate.modelnames import looks_like_path
from curate.score.settings import DEVICES, DTYPE_NAMES

#: Output folder names: no path separators, no leading dot.
_LABEL = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+=-]*$")


class PlanError(InputError):
    """The sweep plan file is not a valid plan."""


@dataclass(frozen=True)
class ModelSpec:
    """One model of the plan and how to run it."""

    name: str
    label: str
    methods: tuple[str, ...] = ()
    dtype: str = "float32"
    device: str = "auto"
    batch_size: int | None = None
    lowercase: bool | None = None
    num_cpus: float = 1.0
    num_gpus: float = 0.0


@dataclass(frozen=True)
class VersionSpec:
    """One dataset version: its label (output folder), what the plan wrote, the file."""

    label: str
    spec: str
    path: Path
    input_format: str | None = None


@dataclass(frozen=True)
class SweepPlan:
    """A validated plan; paths are resolved against the plan file's directory."""

    source: Path
    models: tuple[ModelSpec, ...]
    versions: tuple[VersionSpec, ...]
    output: Path
    cache: Path | None = None
    batch_size: int | None = None
    threads: int | None = None
    threshold: float | None = None
    max_retries: int = 2
    #: ``corpus`` as the plan wrote it (a file relative to the plan, or a named corpus).
    corpus: str | None = None


def _positive_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and v >= 0


def _string(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


Check = tuple[str, Callable[[Any], bool], str]

_TOP: dict[str, Check] = {
    "output": ("output", _string, "a non-empty string"),
    "cache": ("cache", _string, "a non-empty string"),
    "batch-size": ("batch_size", _positive_int, "a positive integer"),
    "threads": ("threads", _positive_int, "a positive integer"),
    "threshold": ("threshold", _number, "a non-negative number"),
    "max-retries": ("max_retries", lambda v: _number(v) and isinstance(v, int), "an integer >= 0"),
    "corpus": ("corpus", _string, "a text file or a named corpus"),
    "model": ("model", lambda v: isinstance(v, list), "an array of tables ([[model]])"),
    "version": ("version", lambda v: isinstance(v, list), "an array of tables ([[version]])"),
}
_MODEL: dict[str, Check] = {
    "name": ("name", _string, "a non-empty string"),
    "label": ("label", _string, "a non-empty string"),
    "methods": (
        "methods",
        lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        "a list of method names",
    ),
    "dtype": ("dtype", lambda v: isinstance(v, str) and v in DTYPE_NAMES, f"one of {', '.join(DTYPE_NAMES)}"),
    "device": ("device", lambda v: isinstance(v, str) and v in DEVICES, f"one of {', '.join(DEVICES)}"),
    "batch-size": ("batch_size", _positive_int, "a positive integer"),
    "lowercase": ("lowercase", lambda v: isinstance(v, bool), "true or false"),
    "num-cpus": ("num_cpus", lambda v: _number(v) and v > 0, "a positive number"),
    "num-gpus": ("num_gpus", _number, "a non-negative number"),
}
_VERSION: dict[str, Check] = {
    "label": ("label", _string, "a non-empty string"),
    "data": ("data", _string, "a non-empty string"),
    "input-format": ("input_format", _string, "a format name"),
}


def _fields(table: Any, checks: Mapping[str, Check], where: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise PlanError(f"{where}: expected a table")
    values = {}
    for key, value in table.items():
        if key not in checks:
            raise PlanError(f"{where}: unknown key {key!r}; known keys: {', '.join(checks)}")
        field, check, what = checks[key]
        if not check(value):
            raise PlanError(f"{where}: {key} must be {what}")
        values[field] = value
    return values


def _unusable_name(where: str, what: str, text: str, exc: Exception) -> PlanError:
    """One sentence for a name the file system cannot even look up (too long, a NUL byte)."""
    shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text):,} characters)"
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return PlanError(f"{where}: {what} {shown} cannot be a path here: {reason}")


def _local(base: Path, name: str) -> str:
    """A model name as loading sees it: a path relative to the plan file when it is one,
    made absolute and normal (no ``..``: summary.json records ``models/albert`` as ``curate
    score`` does, not ``sweeps/../models/albert``), so that it names the same cache rows
    (their label) from any directory."""
    candidate = base / Path(name).expanduser()
    if looks_like_path(name) or candidate.exists():
        return os.path.abspath(candidate)
    return name


def _version_path(base: Path, spec: str, where: str) -> Path:
    from curate.config import load_config
    from curate.release.versions import resolve_version

    local = base / spec
    try:
        if local.is_file():
            return local
    except OSError as exc:  # too long a name: pathlib answers only "no such file" itself
        raise _unusable_name(where, "data", spec, exc) from None
    try:
        return resolve_version(spec, load_config()).path
    except (UsageError, InputError) as exc:
        raise PlanError(f"{where}: data {spec!r}: {exc}") from None


def _model(table: Any, index: int, source: Path, labels: set[str]) -> ModelSpec:
    from curate.modelnames import model_slug
    from curate.score.methods import parse_methods

    where = f"{source}: [[model]] {index}"
    values = _fields(table, _MODEL, where)
    if "name" not in values:
        raise PlanError(f"{where}: name is missing (a hub id or a model directory)")
    try:
        name = _local(source.parent.resolve(), values["name"])
        local = looks_like_path(values["name"]) or Path(name).exists()
    except (OSError, ValueError) as exc:  # too long for the file system, a NUL byte
        raise _unusable_name(where, "name", values["name"], exc) from None
    label = values.get("label") or (Path(name).name if local else model_slug(values["name"]))
    if not _LABEL.match(label):
        raise PlanError(f"{where}: label {label!r} must be a folder name (letters, digits, ._+=-)")
    if label in labels:
        raise PlanError(f"{where}: label {label!r} is used twice; give each model its own label")
    labels.add(label)
    try:
        methods = parse_methods(values.get("methods", ()), required="methods" in values)
    except UsageError as exc:
        raise PlanError(f"{where}: {exc}") from None
    device = values.get("device", "auto")
    gpus = values.get("num_gpus", 1.0 if device == "cuda" else 0.0)
    return ModelSpec(
        name=name,
        label=label,
        methods=methods,
        dtype=values.get("dtype", "float32"),
        device=device,
        batch_size=values.get("batch_size"),
        lowercase=values.get("lowercase"),
        num_cpus=float(values.get("num_cpus", 1.0)),
        num_gpus=float(gpus),
    )


def _version(table: Any, index: int, source: Path, labels: set[str]) -> VersionSpec:
    where = f"{source}: [[version]] {index}"
    values = _fields(table, _VERSION, where)
    if "data" not in values:
        raise PlanError(f"{where}: data is missing (raw, a release version or a file)")
    label = values.get("label", values["data"])
    if not _LABEL.match(label):
        raise PlanError(
            f"{where}: label {label!r} must be a folder name (letters, digits, ._+=-); "
            "set label when data is a path"
        )
    if label in labels:
        raise PlanError(f"{where}: label {label!r} is used twice; give each version its own label")
    labels.add(label)
    fmt = values.get("input_format")
    if fmt is not None:
        from curate.datasets import INPUT_FORMATS

        if fmt not in INPUT_FORMATS:
            raise PlanError(f"{where}: input-format must be one of {', '.join(INPUT_FORMATS)}")
    return VersionSpec(
        label, values["data"], _version_path(source.parent, values["data"], where), fmt
    )


def load_plan(path: Path | str) -> SweepPlan:
    """Read and check a plan file; every mistake is one :class:`PlanError`."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlanError(f"{source}: no such plan file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlanError(f"{source}: cannot read the plan ({exc})") from None
    try:
        document = tomltext.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(f"{source}: not valid TOML ({exc})") from None
    values = _fields(document, _TOP, str(source))
    models_raw = values.get("model") or []
    versions_raw = values.get("version") or []
    if not models_raw:
        raise PlanError(f"{source}: no [[model]] entry; name at least one model to score")
    if not versions_raw:
        raise PlanError(f"{source}: no [[version]] entry; name at least one dataset version")
    if "output" not in values:
        raise PlanError(f"{source}: output is missing (the folder the results go to)")
    model_labels: set[str] = set()
    models = tuple(_model(t, i, source, model_labels) for i, t in enumerate(models_raw, 1))
    version_labels: set[str] = set()
    versions = tuple(_version(t, i, source, version_labels) for i, t in enumerate(versions_raw, 1))
    base = source.parent
    return SweepPlan(
        source=source,
        models=models,
        versions=versions,
        output=base / values["output"],
        cache=base / values["cache"] if "cache" in values else None,
        batch_size=values.get("batch_size"),
        threads=values.get("threads"),
        threshold=float(values["threshold"]) if "threshold" in values else None,
        max_retries=values.get("max_retries", 2),
        corpus=values.get("corpus"),
    )
