"""The benchmarks curate knows, listed as plain data, and the questions commands ask them.

Each entry of :data:`BENCHMARKS` is the module that defines one benchmark's ``BENCHMARK``
(a :class:`~curate.benchmarks.spec.Benchmark`). Adding a benchmark means adding its package and
one line here, as adding a lint rule means listing its class in :mod:`curate.lint.rules`.
Nothing here imports a benchmark until it is asked for. This registry sits above the benchmark
packages (which never import it) and below the commands, :mod:`curate.datasets` and the
release and sweep workflows, which ask it; the stages below (formats, lint, score, annotate,
report, instrument) receive what a benchmark declares as arguments instead.

Layer: above the stages (formats, lint, score, annotate, report, instrument), below
:mod:`curate.datasets`, release, sweep and the commands. The plugin packages (``crows_pairs``,
``stereoset``, ``winobias``, ``winogender``) and ``spec`` never import this registry, :mod:`curate.datasets` or
each other (import contracts in pyproject.toml).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from curate.benchmarks.spec import Benchmark, Frontend, LintProfile, Scoring
from curate.columns import Column, Schema

if TYPE_CHECKING:
    from curate.formats.dataset import Dataset
    from curate.lint.profiles import LintTarget
    from curate.lint.rule import Rule
    from curate.pairs import Pair

#: The benchmark definitions, in detection order (the fallback benchmark is asked last).
BENCHMARKS: list[str] = [
    "curate.benchmarks.crows_pairs.benchmark",
    "curate.benchmarks.stereoset.benchmark",
    "curate.benchmarks.winobias.benchmark",
    "curate.benchmarks.winogender.benchmark",
]

#: The name of the benchmark a dataset belongs to when nothing else says (pair files).
DEFAULT = "crows-pairs"

__all__ = [
    "BENCHMARKS",
    "DEFAULT",
    "Benchmark",
    "Column",
    "Frontend",
    "LintProfile",
    "Scoring",
    "all_benchmarks",
    "all_rules",
    "benchmark_of",
    "detect",
    "for_format",
    "get",
    "input_formats",
    "lint_target",
    "of_pairs",
    "output_formats",
    "own_codes",
    "shared_schema",
    "suffixes",
]

_loaded: dict[str, Benchmark] = {}


def _load(module: str) -> Benchmark:
    if module not in _loaded:
        benchmark = importlib.import_module(module).BENCHMARK
        if not isinstance(benchmark, Benchmark):
            raise TypeError(f"{module}.BENCHMARK is not a Benchmark")
        _loaded[module] = benchmark
    return _loaded[module]


def all_benchmarks() -> dict[str, Benchmark]:
    """Every listed benchmark by name, in list order; names and formats must be unique."""
    result: dict[str, Benchmark] = {}
    owner: dict[str, str] = {}
    for module in BENCHMARKS:
        benchmark = _load(module)
        if benchmark.name in result:
            raise TypeError(f"two benchmarks are named {benchmark.name!r}")
        for fmt in benchmark.formats:
            if fmt in owner:
                raise TypeError(f"format {fmt!r} is read by {owner[fmt]} and {benchmark.name}")
            owner[fmt] = benchmark.name
        result[benchmark.name] = benchmark
    return result


def get(name: str) -> Benchmark:
    """The benchmark called ``name`` (a programming error if unknown)."""
    return all_benchmarks()[name]


def _detection_order() -> Iterator[Benchmark]:
    benchmarks = list(all_benchmarks().values())
    yield from (b for b in benchmarks if not b.fallback)
    yield from (b for b in benchmarks if b.fallback)


def detect(data: bytes, path: Path | None = None) -> tuple[Benchmark, str]:
    """The benchmark and input format of a file, from its content (never its extension)."""
    for benchmark in _detection_order():
        fmt = benchmark.detect(data, path)
        if fmt is not None:
            return benchmark, fmt
    raise LookupError("no benchmark claims this file and none is the fallback")


def for_format(fmt: str) -> Benchmark:
    """The benchmark whose reader takes input format ``fmt``."""
    for benchmark in all_benchmarks().values():
        if fmt in benchmark.formats:
            return benchmark
    raise KeyError(fmt)


def benchmark_of(dataset: Dataset, *, by_columns: bool = False) -> Benchmark:
    """The benchmark a dataset was read as.

    ``by_columns``: when it was read by the fallback (a CSV, JSONL or Parquet file), the
    benchmark whose own columns every pair fills instead (StereoSet pairs written to CSV are
    counted per domain by ``curate stats``, but scored as pairs).
    """
    own = get(dataset.benchmark)
    if by_columns and own.fallback:
        return of_pairs(dataset.pairs, default=own)
    return own


def of_pairs(pairs: Sequence[Pair], default: Benchmark | None = None) -> Benchmark:
    """The non-fallback benchmark whose own columns (beyond the fallback's) every pair fills,
    else ``default`` (the fallback when not given)."""
    benchmarks = list(all_benchmarks().values())
    fallback = next(b for b in benchmarks if b.fallback)
    shared = {c.field for c in fallback.columns}
    if pairs:
        for benchmark in benchmarks:
            own = [c.field for c in benchmark.columns if c.field not in shared]
            if own and not benchmark.fallback and all(
                getattr(p, f, None) is not None for p in pairs for f in own
            ):
                return benchmark
    return default or fallback


def input_formats() -> tuple[str, ...]:
    """Every ``--input-format`` value, benchmark by benchmark."""
    return tuple(f for b in all_benchmarks().values() for f in b.formats)


def output_formats() -> tuple[str, ...]:
    """Every ``--output-format`` value, benchmark by benchmark (no duplicates)."""
    return tuple(
        dict.fromkeys(f for b in all_benchmarks().values() for f in (*b.output_formats, *b.formats))
    )


def suffixes() -> dict[str, str]:
    """The file suffix of every one-file shape any benchmark writes, by format name."""
    return {f: s for b in all_benchmarks().values() for f, s in b.suffixes.items()}


def shared_schema() -> Schema:
    """The columns the shared column-based shapes (CSV, TSV, JSONL, Parquet) know: the
    fallback benchmark's table, then every other benchmark's own columns (optional there), so
    that any benchmark's pairs written to such a file read back whole. The fallback's reader
    and writer are given it (``schema=``)."""
    benchmarks = list(all_benchmarks().values())
    fallback = next(b for b in benchmarks if b.fallback)
    others = tuple(c for b in benchmarks if b is not fallback for c in b.columns)
    return Schema(fallback.columns, others)


def read_with(benchmark: Benchmark, path: Path, source: str, fmt: str) -> Dataset:
    """``benchmark``'s reader on ``path`` (the fallback's given :func:`shared_schema`)."""
    if benchmark.fallback:
        return benchmark.read(path, source, fmt, schema=shared_schema())  # type: ignore[call-arg]
    return benchmark.read(path, source, fmt)


def write_with(benchmark: Benchmark, dataset: Dataset, fmt: str) -> bytes:
    """``benchmark``'s writer for ``dataset`` (the fallback's given :func:`shared_schema`)."""
    if benchmark.fallback:
        return benchmark.write(dataset, fmt, schema=shared_schema())  # type: ignore[call-arg]
    return benchmark.write(dataset, fmt)


def own_rules() -> tuple[type[Rule], ...]:
    """Every benchmark's own lint rules, benchmark by benchmark."""
    return tuple(rule for b in all_benchmarks().values() for rule in b.lint.rules)


def all_rules() -> dict[str, type[Rule]]:
    """Every lint rule by code: the shared ones and every benchmark's own."""
    from curate.lint.rules import all_rules as rules_with

    return rules_with(own_rules())


def own_codes() -> dict[str, str]:
    """The code of every benchmark's own rule -> the benchmark's name."""
    return {
        rule.code: benchmark.name
        for benchmark in all_benchmarks().values()
        for rule in benchmark.lint.rules
    }


def lint_target(benchmark: Benchmark | str | None = None, language: str | None = None) -> LintTarget:
    """What a lint run on ``benchmark``'s pairs is told (default: the pair files'), with the
    other benchmarks' own rules; ``language``: the pairs' (default English)."""
    chosen = get(benchmark or DEFAULT) if not isinstance(benchmark, Benchmark) else benchmark
    others = tuple(r for b in all_benchmarks().values() if b is not chosen for r in b.lint.rules)
    return chosen.lint_target(others, language or "en")
