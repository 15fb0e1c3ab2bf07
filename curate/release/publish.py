"""Publish: build ``data/clean/<version>/dist/``, a versioned, immutable, checksummed release.

A release is built entirely in memory from its recipe (see :mod:`curate.release.recipe`), then written
to a temporary directory beside ``dist/``, checked (the CSV and Parquet load with pandas and
pyarrow and hold the same rows; every checksum matches) and renamed into place, so a failure
leaves nothing half-written. Outputs carry no timestamps or machine paths: the same inputs give
the same bytes.

A published version is immutable. Its ``manifest.json`` records the hashes of everything it was
built from (raw file, canonical recipe, decision files, previous release); publishing the version
again with different inputs is refused. With the same inputs the release is rebuilt and compared
byte for byte: missing files are restored, identical files are left alone, and a file that would
come out different (a different tool version, or an edited file) is refused rather than replaced.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate import __version__
from curate.benchmarks import Benchmark
from curate.benchmarks.crows_pairs.upstream import COLUMNS
from curate.config import Config
from curate.datasets import dataset_files, read_dataset, read_pairs
from curate.errors import CurateError, InputError
from curate.fileio import check_output_dir, sha256_file, write_bytes_atomic
from curate.pairs import Pair
from curate.release.card import changelog_entry, release_title, render_card, render_changelog
from curate.release.lm_eval_task import task_files as lm_eval_task_files
from curate.release.lm_eval_task import task_name
from curate.release.pairdiff import diff_pairs
from curate.release.recipe import Recipe, load_recipe
from curate.release.revise import (
    CHANGES_NAME,
    ProgressCallback,
    Revision,
    revise,
    summarize_changes,
)
from curate.release.staging import remove_stale, staging_dir
from curate.release.versions import (
    CSV_NAME,
    PARQUET_COLUMNS,
    PARQUET_NAME,
    dist_dir,
    own_data_path,
    own_stem,
    pairs_to_table,
    read_parquet_pairs,
    recipe_path,
    version_dir,
)

CARD_NAME = "README.md"
CHANGELOG_NAME = "CHANGELOG.md"
MANIFEST_NAME = "manifest.json"
SUMS_NAME = "SHA256SUMS"
#: Every file of a release, in the order they are listed.
#: The release file in the Hugging Face ``crows_pairs`` layout (class-label integers), which the
#: card's YAML header declares for ``datasets.load_dataset``.
HF_PARQUET_NAME = "crows_pairs_revised_hf.parquet"
#: The files every release has; a CrowS-Pairs-shaped release also has :data:`HF_PARQUET_NAME`
#: (when its labels are all Hugging Face class labels) and the ``lm_eval/`` task folder.
RELEASE_FILES = (CSV_NAME, PARQUET_NAME, CHANGES_NAME, CARD_NAME, CHANGELOG_NAME, MANIFEST_NAME, SUMS_NAME)
DATASET_NAME = "crows-pairs-revised"


class ReleaseError(CurateError):
    """A release cannot be published as asked (immutability, a broken previous release)."""


@dataclass(frozen=True)
class Build:
    """A release built in memory: file name -> bytes, plus what it was built from."""

    version: str
    files: dict[str, bytes]
    manifest: dict[str, Any]
    revision: Revision


@dataclass(frozen=True)
class PublishResult:
    """What ``publish`` did: ``built`` (new), ``unchanged`` or ``restored`` (missing files)."""

    version: str
    dist: Path
    status: str
    build: Build
    restored: tuple[str, ...] = field(default=())


# -- files -----------------------------------------------------------------------------------


def parquet_bytes(pairs: list[Pair], version: str) -> bytes:
    """The pairs as Parquet, deterministically (fixed options, one row group, no timestamps)."""
    return _deterministic_parquet(pairs_to_table(pairs), version, "crows-pairs", len(pairs))


def hf_parquet_bytes(pairs: list[Pair], version: str) -> bytes | None:
    """The pairs in the Hugging Face ``crows_pairs`` layout as Parquet; None when some label has
    no Hugging Face class (e.g. a bias type outside the nine), so the release still builds."""
    import pyarrow.parquet as pq

    from curate.datasets import format_dataset
    from curate.formats import Dataset, Shape

    dataset = Dataset(tuple(pairs), Shape("csv", "upstream", COLUMNS, id_column=COLUMNS[0]), "release")
    try:
        data = format_dataset(dataset, "hf-parquet")
    except InputError:
        return None
    table = pq.read_table(io.BytesIO(data)).replace_schema_metadata(None)
    return _deterministic_parquet(table, version, "crows-pairs-hf", len(pairs))


def _deterministic_parquet(table: Any, version: str, schema: str, rows: int) -> bytes:
    import pyarrow.parquet as pq

    table = table.replace_schema_metadata(
        {"dataset": DATASET_NAME, "version": version, "schema": schema}
    )
    buffer = io.BytesIO()
    pq.write_table(
        table,
        buffer,
        row_group_size=max(rows, 1),
        compression="zstd",
        compression_level=9,
        use_dictionary=True,
        write_statistics=True,
        version="2.6",
        data_page_version="1.0",
        store_schema=True,
    )
    return buffer.getvalue()


def format_sums(files: dict[str, bytes]) -> str:
    """``sha256sum`` format: ``<hex>  <name>`` per file, sorted by name."""
    import hashlib

    return "".join(
        f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())
    )


def _dumps(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _rule_summaries(codes: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    from curate.benchmarks import all_rules

    rules = all_rules()
    return {c: (rules[c].name, rules[c].summary) for c in codes if c in rules}


# -- previous versions -----------------------------------------------------------------------


def _release_name(name: str) -> bool:
    """A file name of a release: relative, inside it (``lm_eval/x.yaml`` is, ``../x`` is not)."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def read_sums(dist: Path) -> dict[str, str]:
    """The digests a release's SHA256SUMS records, by file name (a line that is not
    ``<sha256>  <file name>`` inside the release, or a file that is not UTF-8 text, is an
    edited release)."""
    sums = dist / SUMS_NAME
    if not sums.is_file():
        raise ReleaseError(f"{dist}: no {SUMS_NAME}; the release is incomplete")
    try:
        text = sums.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ReleaseError(f"{sums}: not UTF-8 text; the release was edited") from None
    digests: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        digest, sep, name = line.partition("  ")
        if not sep or not _release_name(name) or "\x00" in name:
            raise ReleaseError(f"{sums}: line {number}: expected '<sha256>  <file name>'")
        digests[name] = digest
    return digests


def _temporary(name: str, expected: set[str]) -> bool:
    """Whether ``name`` is the temporary file of an atomic write of an expected file (a
    concurrent publish restoring it, or a killed one; the next write sweeps it)."""
    folder, _, base = name.rpartition("/")
    return base.startswith(".") and base.endswith((".tmp", ".new")) and any(
        e.rpartition("/")[0] == folder and base.startswith(f".{e.rpartition('/')[2]}.")
        for e in expected
    )


def check_release_tree(dist: Path, names: Iterable[str], remedy: str) -> None:
    """Every entry of a release folder is one of its files, or a folder holding some, and
    none is a symbolic link. A file added to a published release (a task YAML lm-eval would
    offer beside the release's own, a fifth WinoBias file) or a file replaced by a link to
    one elsewhere (whose bytes may match today and change tomorrow) is an edit, as a changed
    byte is: comparing the listed files alone would call such a folder unchanged."""
    expected = set(names)
    folders = {"/".join(n.split("/")[:i]) for n in expected for i in range(1, n.count("/") + 1)}
    for dirpath, dirnames, filenames in os.walk(dist):  # never into a linked folder
        here = Path(dirpath)
        for entry in sorted([*dirnames, *filenames]):
            path = here / entry
            name = path.relative_to(dist).as_posix()
            if path.is_symlink():
                raise ReleaseError(
                    f"{path}: is a symbolic link; a release holds its own files, never links "
                    f"to others; {remedy}"
                )
            if name in (folders if entry in dirnames else expected) or _temporary(name, expected):
                continue
            raise ReleaseError(
                f"{path}: is not a file of the release (added after publishing); {remedy}"
            )


def verify_release(dist: Path) -> None:
    """Check every file of a built release against its SHA256SUMS, and that it holds nothing
    else (:func:`check_release_tree`)."""
    sums = read_sums(dist)
    check_release_tree(
        dist, [*sums, SUMS_NAME], "the release was edited; restore it as published"
    )
    for name, digest in sums.items():
        path = dist / name
        if not path.is_file():
            raise ReleaseError(f"{path}: missing; listed in {SUMS_NAME}")
        if sha256_file(path) != digest:
            raise ReleaseError(f"{path}: sha256 does not match {SUMS_NAME}; the release was edited")


def _edited_after_publishing(dist: Path, name: str) -> bool:
    """Whether ``dist/name`` differs from the digest its release's SHA256SUMS records (a
    SHA256SUMS that is unreadable or no longer lists the file was edited too)."""
    if name == SUMS_NAME or not (dist / SUMS_NAME).is_file():
        return False
    try:
        digest = read_sums(dist).get(name)
    except ReleaseError:
        return True
    return digest is None or sha256_file(dist / name) != digest


def _read_manifest(path: Path) -> dict[str, Any]:
    """A published manifest: a JSON object whose ``inputs`` and ``tool`` are objects."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        manifest = None
    if not isinstance(manifest, dict) or not all(
        isinstance(manifest.get(key, {}), dict) for key in ("inputs", "tool")
    ):
        raise ReleaseError(f"{path}: not a curate release manifest; the release was edited")
    return manifest


def _previous(
    cfg: Config, recipe: Recipe, revision: Revision
) -> tuple[str, list[Pair], str | None, dict[str, Any]]:
    """The version to compare with: (label, pairs, its CHANGELOG text, its input record)."""
    if recipe.previous is None:
        source = revision.inputs["source"]
        label = f"upstream {source['name']} (`{source['file']}`, sha256 `{source['sha256'][:12]}…`)"
        return label, revision.raw, None, {"version": None, "source_sha256": source["sha256"]}
    version = recipe.previous
    dist = dist_dir(cfg, version)
    if not (dist / MANIFEST_NAME).is_file():
        raise ReleaseError(
            f"previous version {version} is not built ({dist / MANIFEST_NAME} is missing); "
            f"run `curate publish {version}` first"
        )
    verify_release(dist)
    own = revision.benchmark()
    pairs = read_pairs(dist / CSV_NAME) if own.fallback else _read_own(dist, own)
    try:
        changelog = (dist / CHANGELOG_NAME).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReleaseError(
            f"{dist / CHANGELOG_NAME}: cannot be read ({getattr(exc, 'strerror', None) or exc}); "
            f"the previous release {version} is incomplete or was edited"
        ) from None
    record = {"version": version, "manifest_sha256": sha256_file(dist / MANIFEST_NAME)}
    return f"version {version}", pairs, changelog, record


# -- the benchmark's own shape ---------------------------------------------------------------


def _read_own(dist: Path, benchmark: Benchmark) -> list[Pair]:
    path = own_data_path(dist, benchmark)
    if not path.exists():
        raise ReleaseError(f"{path}: missing; the previous release is not a {benchmark.title} one")
    return list(read_dataset(path, benchmark.formats[0]).pairs)


def _pair_key(pair: Pair) -> tuple[Any, ...]:
    # the id too: every pair, a StereoSet item included (its id derives from the item's own
    # id, issue 35), must read back under the id the change log and later versions name
    return (pair.pair_id, pair.item_id, pair.sent_more, pair.sent_less, pair.direction, pair.bias_type)


def check_reads(path: Path, benchmark: Benchmark, expected: list[Pair]) -> int:
    """Read a release's own-shape data back: it must hold the revised pairs, in order, under
    their ids (ids, item ids, sentences and labels). Returns the number of pairs."""
    pairs = read_dataset(path, benchmark.formats[0]).pairs
    if [_pair_key(p) for p in pairs] != [_pair_key(p) for p in expected]:
        raise ReleaseError(f"{path}: does not read back as the revised pairs")
    return len(pairs)


# -- build -----------------------------------------------------------------------------------


def build_release(
    cfg: Config,
    version: str,
    raw: Path | None = None,
    progress: ProgressCallback | None = None,
    recipe: Recipe | None = None,
) -> Build:
    """Build every file of ``version`` in memory from ``data/clean/<version>/recipe.toml``."""
    import pyarrow

    recipe = recipe or load_recipe(recipe_path(cfg, version), cfg, version)
    revision = revise(recipe, cfg, raw, progress)
    prev_label, prev_pairs, prev_changelog, prev_record = _previous(cfg, recipe, revision)
    inputs = {**revision.inputs, "previous": prev_record}

    counts = {
        "raw_pairs": len(revision.raw),
        "pairs": len(revision.pairs),
        **summarize_changes(revision.changes),
        "decisions_read": revision.decisions_read,
    }
    diff = diff_pairs(prev_pairs, revision.pairs, prev_label, f"version {version}")
    entry = changelog_entry(version, recipe.title, recipe.summary, diff)
    card = {
        "version": version,
        "recipe": recipe.canonical(),
        "inputs": inputs,
        "counts": counts,
        "rule_summaries": _rule_summaries(recipe.fixes),
        "tool_version": __version__,
        "previous_label": prev_label,
        "language": (revision.dataset.language if revision.dataset else None) or "en",
    }
    changelog = render_changelog(entry, prev_changelog).encode("utf-8")
    own = revision.benchmark()
    if own.fallback:
        files = _pair_files(revision, version, card, changelog)
    else:
        files = _own_files(revision, own, card, changelog)
    manifest = {
        "dataset": DATASET_NAME if own.fallback else f"{own.name}-revised",
        "version": version,
        "tool": {"name": "curate", "version": __version__, "pyarrow": pyarrow.__version__},
        "inputs": inputs,
        "recipe": recipe.canonical(),
        "counts": {**counts, "against_previous": diff.summary()},
        "files": {name: {"sha256": _sha(data), "bytes": len(data)} for name, data in files.items()},
    }
    files[MANIFEST_NAME] = _dumps(manifest)
    files[SUMS_NAME] = format_sums(files).encode("utf-8")
    return Build(version, files, manifest, revision)


def _arrow_bytes(parquet: bytes | None) -> int:
    """The size of a Parquet file's rows as Arrow data (a split's ``num_bytes``); 0 for none."""
    if not parquet:
        return 0
    import io

    import pyarrow.parquet as pq

    return int(pq.read_table(io.BytesIO(parquet)).nbytes)


def _pair_files(
    revision: Revision, version: str, card: dict[str, Any], changelog: bytes
) -> dict[str, bytes]:
    """The data files and card of a pair-file release: the upstream CSV, its Parquet, the
    🤗 layout and the lm-evaluation-harness task."""
    hf_data = hf_parquet_bytes(revision.pairs, version)
    task_files = lm_eval_task_files(
        version=version,
        title=release_title(card["recipe"]),
        tool_version=__version__,
        data_file=PARQUET_NAME,
        bias_types=(p.bias_type for p in revision.pairs),
        language=card["language"],
    )
    return {
        CSV_NAME: revision.csv_text().encode("utf-8"),
        PARQUET_NAME: parquet_bytes(revision.pairs, version),
        **({HF_PARQUET_NAME: hf_data} if hf_data is not None else {}),
        CHANGES_NAME: revision.changes_text().encode("utf-8"),
        CARD_NAME: render_card(
            **card,
            hf_data_file=HF_PARQUET_NAME if hf_data is not None else None,
            hf_data_bytes=len(hf_data or b""),
            hf_split_bytes=_arrow_bytes(hf_data),
            lm_eval_task=task_name(version, card["language"]),
        ).encode("utf-8"),
        CHANGELOG_NAME: changelog,
        **task_files,
    }


def _own_files(
    revision: Revision, own: Benchmark, card: dict[str, Any], changelog: bytes
) -> dict[str, bytes]:
    """The data files and card of a release in its benchmark's own shape (StereoSet JSON,
    WinoBias text files), written by the benchmark's own writer with every field it read."""
    assert revision.dataset is not None
    data = dataset_files(revision.dataset.with_pairs(revision.pairs), own_stem(own))
    return {
        **data,
        CHANGES_NAME: revision.changes_text().encode("utf-8"),
        CARD_NAME: render_card(
            **card,
            benchmark_title=own.title,
            own_files=own_data_path(Path(), own).as_posix() + ("/" if own.write_files else ""),
            release_note=own.release_note,
        ).encode("utf-8"),
        CHANGELOG_NAME: changelog,
    }


def _sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


# -- checks ----------------------------------------------------------------------------------


def check_loads(csv_path: Path, parquet_path: Path, expected: list[Pair] | None = None) -> int:
    """Load the CSV and Parquet with pandas and with pyarrow; they must hold the same rows.

    Returns the number of rows. Also reads both back into pairs, which must equal ``expected``.
    """
    import pandas as pd
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    text_columns = list(COLUMNS[1:])
    frame_csv = pd.read_csv(
        csv_path, keep_default_na=False, na_values=[], dtype=dict.fromkeys(text_columns, str)
    )
    frame_csv = frame_csv.rename(columns={frame_csv.columns[0]: "id"})
    frame_parquet = pd.read_parquet(parquet_path)
    if list(frame_csv.columns) != list(frame_parquet.columns):
        raise ReleaseError(
            f"{parquet_path}: columns {list(frame_parquet.columns)} differ from the CSV's"
        )
    for column in frame_csv.columns:
        if frame_csv[column].tolist() != frame_parquet[column].tolist():
            raise ReleaseError(
                f"{parquet_path}: pandas reads column {column!r} differently from {csv_path.name}"
            )

    table_csv = pacsv.read_csv(
        csv_path,
        parse_options=pacsv.ParseOptions(newlines_in_values=True),
        convert_options=pacsv.ConvertOptions(
            column_types={"": pa.int64(), **{c: pa.string() for c in text_columns}},
            strings_can_be_null=False,
        ),
    ).rename_columns(list(PARQUET_COLUMNS))
    table_parquet = pq.read_table(parquet_path).replace_schema_metadata(None)
    # Compare column by column: the Parquet schema also says the columns are non-null.
    if table_csv.column_names != table_parquet.column_names or not all(
        table_csv.column(n).equals(table_parquet.column(n)) for n in table_csv.column_names
    ):
        raise ReleaseError(
            f"{parquet_path}: pyarrow reads different rows than from {csv_path.name}"
        )

    if expected is not None:
        for path, pairs in (
            (csv_path, read_pairs(csv_path)),
            (parquet_path, read_parquet_pairs(parquet_path)),
        ):
            if pairs != expected:
                raise ReleaseError(f"{path}: does not read back as the revised pairs")
    return len(frame_csv)


# -- publish ---------------------------------------------------------------------------------


def _compare_inputs(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Which inputs differ, named for the error message."""
    names = []
    for key in ("source", "recipe_sha256", "decisions", "previous"):
        if old.get(key) != new.get(key):
            names.append({"recipe_sha256": "recipe", "decisions": "decision files"}.get(key, key))
    return names


def publish(
    cfg: Config,
    version: str,
    raw: Path | None = None,
    progress: ProgressCallback | None = None,
) -> PublishResult:
    """Build ``version`` into ``data/clean/<version>/dist/``, honouring immutability."""
    target = version_dir(cfg, version)
    check_output_dir(target / "dist")  # a read-only or full target fails before the build
    build = build_release(cfg, version, raw, progress)
    remove_stale(target)  # staging left by a killed publish
    dist = target / "dist"
    manifest_path = dist / MANIFEST_NAME

    if dist.exists():
        if not manifest_path.is_file():
            raise ReleaseError(
                f"{dist} exists but has no {MANIFEST_NAME}; it is not a curate release, "
                "move it away to publish"
            )
        old = _read_manifest(manifest_path)
        differing = _compare_inputs(old.get("inputs", {}), build.manifest["inputs"])
        if differing:
            raise ReleaseError(
                f"version {version} is already published with different inputs "
                f"({', '.join(differing)} changed); a published version is immutable: "
                "put the new recipe under a new version"
            )
        check_release_tree(
            dist,
            build.files,
            f"a published version is immutable: restore it as published, or remove {dist} to "
            f"publish {version} again",
        )
        missing: list[str] = []
        for name in sorted(build.files, key=lambda n: n == SUMS_NAME):  # SHA256SUMS last
            path = dist / name
            if not path.is_file():
                missing.append(name)
            elif path.read_bytes() != build.files[name]:
                raise _changed_file_error(dist, name, version, old.get("tool", {}), build)
        for name in missing:
            _write_release_file(dist, name, build.files[name])
        if missing:
            verify_release(dist)
        status = "restored" if missing else "unchanged"
        return PublishResult(version, dist, status, build, tuple(missing))

    target.mkdir(parents=True, exist_ok=True)
    with staging_dir(target) as tmp:
        for name, data in build.files.items():
            _write_release_file(tmp, name, data)
        own = build.revision.benchmark()
        if own.fallback:
            check_loads(tmp / CSV_NAME, tmp / PARQUET_NAME, build.revision.pairs)
        else:
            check_reads(own_data_path(tmp, own), own, build.revision.pairs)
        verify_release(tmp)
        os.chmod(tmp, 0o755)
        try:
            os.rename(tmp, dist)
        except OSError:
            raise ReleaseError(
                f"{dist} appeared while {version} was being built (another publish?); "
                "run the command again to check it"
            ) from None
    return PublishResult(version, dist, "built", build)


def _changed_file_error(
    dist: Path, name: str, version: str, was: dict[str, Any], build: Build
) -> ReleaseError:
    """Why a published file differs from its rebuild, in the words a user can act on: edited
    by hand (SHA256SUMS says so, or is itself what changed) or built by another curate."""
    path = dist / name
    immutable = (
        f"a published version is immutable: restore the file, or remove {dist} to publish "
        f"{version} again"
    )
    if name == SUMS_NAME:  # checked last: every file it lists is as the inputs build it
        return ReleaseError(
            f"{path}: edited after publishing (it no longer lists the digests of the release's "
            f"own files); {immutable}"
        )
    if _edited_after_publishing(dist, name):
        return ReleaseError(
            f"{path}: no longer matches its own {SUMS_NAME} (edited after publishing); {immutable}"
        )
    now = build.manifest["tool"]
    if (was.get("version"), was.get("pyarrow")) == (now["version"], now["pyarrow"]):
        return ReleaseError(
            f"{path}: differs from what the same inputs build with the same curate "
            f"{now['version']} and pyarrow {now['pyarrow']}, though {SUMS_NAME} agrees with it: "
            f"it was edited and {SUMS_NAME} updated after publishing; {immutable}"
        )
    return ReleaseError(
        f"{path}: rebuilding {version} from the same inputs gives different bytes "
        f"(published with curate {was.get('version', '?')} and pyarrow "
        f"{was.get('pyarrow', '?')}, now curate {now['version']} and pyarrow "
        f"{now['pyarrow']}); a published version is immutable, so it is left as it "
        f"is (to rebuild it with this curate on purpose, remove {dist} first)"
    )


def _write_release_file(root: Path, name: str, data: bytes) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, data)

