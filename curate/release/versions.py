"""Dataset versions: semver names, where releases live, and loading any version into pairs.

A version is named by semantic versioning (``MAJOR.MINOR.PATCH`` with an optional pre-release such
as ``1.0.0-auto``). Its recipe is ``data/clean/<version>/recipe.toml`` and its built files are in
``data/clean/<version>/dist/``. Later stages (scoring, diff reports) name the versions they compare;
:func:`load_version` turns such a name, the raw source's name or a file path into pairs, so
every stage resolves "which data" the same way.

The Parquet form of a release holds exactly the CSV's cells (lists stay Python-literal strings),
so ``pandas.read_csv`` and ``pandas.read_parquet`` give the same rows and existing CrowS-Pairs code
works unchanged on either; only the unnamed first CSV column (the pair id) is called ``id``.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from curate.benchmarks.crows_pairs.upstream import COLUMNS, pair_row
from curate.config import Config, fetched_data
from curate.datasets import parse_pairs, read_pairs
from curate.errors import InputError, UsageError
from curate.fileio import check_input_file
from curate.formats.dataset import Dataset
from curate.pairs import Pair

if TYPE_CHECKING:
    from curate.benchmarks import Benchmark

#: Semantic versioning (semver.org) without build metadata: ``+build`` does not change
#: precedence, so two directories could name the same version.
_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
)
DEFAULT_RELEASES_DIR = "data/clean"
DIST = "dist"
CSV_NAME = "crows_pairs_revised.csv"
PARQUET_NAME = "crows_pairs_revised.parquet"
#: Names that resolve to the fetched raw file rather than to a release.
RAW_ALIASES = ("raw", "upstream")
#: Parquet column names: the CSV's, with the unnamed id column called ``id``.
PARQUET_COLUMNS: tuple[str, ...] = ("id", *COLUMNS[1:])


@functools.total_ordering
@dataclass(frozen=True)
class SemVer:
    """A parsed semver version, ordered by semver precedence (pre-releases sort first)."""

    major: int
    minor: int
    patch: int
    prerelease: tuple[str, ...] = ()

    def __str__(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return f"{core}-{'.'.join(self.prerelease)}" if self.prerelease else core

    def _key(self) -> tuple:
        # A release outranks its pre-releases; numeric identifiers rank below alphanumeric ones.
        pre = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.prerelease)
        return (self.major, self.minor, self.patch, not self.prerelease, pre)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, SemVer):
            return NotImplemented
        return self._key() < other._key()


def parse_version(text: str) -> SemVer:
    """Parse ``text`` as a semver version; anything else is a usage error."""
    match = _SEMVER.fullmatch(text)
    if not match:
        raise UsageError(
            f"version {text!r} is not semantic versioning MAJOR.MINOR.PATCH[-PRERELEASE], "
            "e.g. 1.0.0 or 1.0.0-auto"
        )
    major, minor, patch, pre = match.groups()
    return SemVer(int(major), int(minor), int(patch), tuple(pre.split(".")) if pre else ())


def is_version(text: str) -> bool:
    """Whether ``text`` is a semver version name."""
    return _SEMVER.fullmatch(text) is not None


def releases_dir(cfg: Config) -> Path:
    """Where recipes and releases live: ``[tool.curate.release] dir`` or data/clean."""
    return cfg.root / str(cfg.section("release").get("dir", DEFAULT_RELEASES_DIR))


def version_dir(cfg: Config, version: str) -> Path:
    """``data/clean/<version>`` for a valid version name."""
    parse_version(version)
    return releases_dir(cfg) / version


def recipe_path(cfg: Config, version: str) -> Path:
    return version_dir(cfg, version) / "recipe.toml"


def dist_dir(cfg: Config, version: str) -> Path:
    return version_dir(cfg, version) / DIST


def known_versions(cfg: Config) -> list[str]:
    """Versions that have a recipe, in semver order."""
    base = releases_dir(cfg)
    if not base.is_dir():
        return []
    names = [p.name for p in base.iterdir() if (p / "recipe.toml").is_file() and is_version(p.name)]
    return sorted(names, key=parse_version)


def pair_cells(pair: Pair) -> tuple[object, ...]:
    """The row of ``pair`` as the upstream CSV writes it, with the id as an int (Arrow's int64)."""
    return (pair.pair_id, *pair_row(pair)[1:])


def pairs_to_table(pairs: Iterable[Pair]):  # -> pyarrow.Table
    """The pairs as an Arrow table with the CSV's cells (see the module docstring)."""
    import pyarrow as pa

    rows = [pair_cells(p) for p in pairs]
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(PARQUET_COLUMNS)
    schema = pa.schema(
        [pa.field("id", pa.int64(), nullable=False)]
        + [pa.field(name, pa.string(), nullable=False) for name in PARQUET_COLUMNS[1:]]
    )
    return pa.Table.from_arrays(
        [pa.array(list(col), type=field.type) for col, field in zip(columns, schema, strict=True)],
        schema=schema,
    )


def table_to_pairs(table, source: str) -> list[Pair]:  # table: pyarrow.Table
    """Pairs from an Arrow table in the release's Parquet schema, validated like the CSV."""
    names = list(table.column_names)
    if names != list(PARQUET_COLUMNS):
        raise InputError(
            f"{source}: columns are {names}; expected {list(PARQUET_COLUMNS)} (a curate release)"
        )
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in zip(*(table.column(n).to_pylist() for n in names), strict=True):
        writer.writerow(["" if cell is None else str(cell) for cell in row])
    return parse_pairs(out.getvalue(), source)


def read_parquet_pairs(path: Path) -> list[Pair]:
    """Read a release's Parquet file into pairs."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from None
    return table_to_pairs(table, str(path))


@dataclass(frozen=True)
class Resolved:
    """What a version spec names: a label for reports and the file that holds the pairs."""

    label: str
    path: Path


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long, a loop: not a folder
        return False


def own_stem(benchmark: Benchmark) -> str:
    """The name of a release's data in a benchmark's own shape, before its suffix
    (``stereoset_revised.json``, the folder ``winobias_revised/``)."""
    return benchmark.name.replace("-", "_") + "_revised"


def own_data_path(dist: Path, benchmark: Benchmark) -> Path:
    """The data file (or folder) of a release in ``benchmark``'s own shape."""
    return dist / (own_stem(benchmark) + benchmark.suffixes.get(benchmark.formats[0], ""))


def release_data(dist: Path) -> Path | None:
    """The data of a built release: the CrowS-Pairs CSV, or the file or folder in another
    benchmark's own shape (:func:`own_data_path`); None when there is none."""
    from curate import benchmarks

    if (dist / CSV_NAME).is_file():
        return dist / CSV_NAME
    for benchmark in benchmarks.all_benchmarks().values():
        if not benchmark.fallback and own_data_path(dist, benchmark).exists():
            return own_data_path(dist, benchmark)
    return None


def resolve_version(spec: str, cfg: Config) -> Resolved:
    """Resolve a version name, ``raw``/a source name (the fetched file) or a file path."""
    from curate import sources as sources_lib

    path = Path(spec)
    if path.suffix in {".csv", ".parquet"} or path.is_file() or path.is_symlink():
        check_input_file(path)
        return Resolved(spec, path)
    if _is_dir(path):  # a benchmark whose dataset is a folder of files (WinoBias)
        from curate import benchmarks

        if not benchmarks.detect(b"", path)[0].fallback:
            return Resolved(spec, path)
    if spec in RAW_ALIASES:
        return Resolved(spec, fetched_data(cfg))
    if is_version(spec):
        csv_path = dist_dir(cfg, spec) / CSV_NAME
        data = release_data(dist_dir(cfg, spec))
        if data is not None:
            return Resolved(spec, data)
        if recipe_path(cfg, spec).is_file():
            raise InputError(f"{csv_path}: no such file; run `curate publish {spec}` first")
        known = ", ".join(known_versions(cfg)) or "none"
        raise InputError(
            f"no release {spec} (no {recipe_path(cfg, spec)}); known versions: {known}"
        )
    if cfg.sources.is_file():
        registry = sources_lib.load_sources(cfg.sources)
        if spec in registry:
            raw = cfg.sources.parent / registry[spec].relpath
            if not raw.is_file():
                raise InputError(f"{raw}: no such file; run `curate fetch {spec}` first")
            return Resolved(spec, raw)
    raise UsageError(
        f"{spec!r} is neither a file, a version such as 1.0.0-auto, nor 'raw' or a source name"
    )


def read_pairs_file(path: Path) -> list[Pair]:
    """Read pairs from a CrowS-Pairs CSV or a release Parquet file."""
    return read_parquet_pairs(path) if path.suffix == ".parquet" else read_pairs(path)


def load_version_dataset(
    spec: str | Path, cfg: Config | None = None, input_format: str | None = None
) -> tuple[Resolved, Dataset]:
    """What :func:`load_version` reads, as a dataset in any shape (detected unless
    ``input_format`` forces one), so that a comparison knows which columns the file has."""
    from curate.config import load_config
    from curate.datasets import read_dataset

    resolved = resolve_version(str(spec), cfg or load_config())
    return resolved, read_dataset(resolved.path, input_format)


def load_version(spec: str | Path, cfg: Config | None = None) -> list[Pair]:
    """The pairs of a release version, the raw file (``raw`` or a source name) or a file.

    ``"1.0.0-auto"`` reads ``data/clean/1.0.0-auto/dist/crows_pairs_revised.csv``; a path to a
    ``.csv`` or ``.parquet`` file is read directly.
    """
    from curate.config import load_config

    resolved = resolve_version(str(spec), cfg or load_config())
    return read_pairs_file(resolved.path)
