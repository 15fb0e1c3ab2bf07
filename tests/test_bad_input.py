"""A corpus of hostile inputs, per command: nothing a user types ends in a traceback or damages a file.

Each case runs one ``curate`` command in a fresh throw-away project and asserts what issue 14
asks of every user mistake:

- the documented exit code (2 for a usage or input error);
- exactly one line on stderr, ``error: <sentence>``, holding the file it is about and what is
  wrong (usage errors that Click itself reports are boxed: for those only the exit code, the
  words and the absence of a traceback are checked);
- no exception other than the exit (the in-process equivalent of a traceback);
- every file that existed before is byte-identical afterwards (symlinks keep their targets) and
  nothing new was written outside the caches.

Cases whose fix is wired in phase 2 of issue 14 (commands, score model loading, annotation pull
checks, cache damage) are marked ``xfail(strict=True)``: they flip to failures, and so must be
un-marked, the day they are fixed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.config import load_config
from curate.datasets import write_pairs
from curate.fileio import sha256_file
from curate.findings import Finding, write_findings
from tests.conftest import GOOD_ROW, HEADER
from tests.support.release_project import PAIRS, make_project, recipe_text, write_recipe

runner = CliRunner()
RAW = "data/raw/crows_pairs_anonymized.csv"
VERSION = "1.0.0-test"
#: Files a failed command may still leave: caches that speed up the next run.
CACHE_DIRS = (".curate-cache",)
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# -- the project every case starts from ------------------------------------------------------


def build_project(root: Path) -> None:
    """A small curate project: pinned raw file, a copy, findings, decisions, a recipe."""
    cfg = make_project(root)
    write_pairs(PAIRS, root / "pairs.csv")
    write_recipe(cfg, VERSION, recipe_text(sha256_file(cfg.data), VERSION))
    write_findings(
        root / "findings.jsonl",
        [
            Finding(
                1, "T001", "missing-final-punctuation", "no final period", fix={"sent_more": "x."}
            )
        ],
    )
    (root / "decisions.jsonl").write_text(
        json.dumps({"pair_id": 3, "action": "drop", "reason": "test"}) + "\n", encoding="utf-8"
    )


def snapshot(root: Path) -> dict[str, tuple[str, str]]:
    """Every entry under ``root``: its kind and content (file hash, link target)."""
    entries: dict[str, tuple[str, str]] = {}
    for directory, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = Path(directory) / name
            rel = str(path.relative_to(root))
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                entries[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                entries[rel] = ("dir", "")
            elif stat.S_ISREG(st.st_mode):
                entries[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
            else:
                entries[rel] = ("special", oct(st.st_mode))
    return entries


# -- setups: small writers the cases share -----------------------------------------------------


def text(name: str, content: str | bytes) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    return setup


def jsonl(name: str, *records: object) -> Callable[[Path], None]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)
    return text(name, lines)


def symlink(name: str, target: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).symlink_to(target)

    return setup


def loop(name: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).symlink_to(name + ".b")
        (root / (name + ".b")).symlink_to(name)

    return setup


def directory(name: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).mkdir(parents=True)

    return setup


def hardlink(name: str, target: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        os.link(root / target, root / name)

    return setup


def append_config(extra: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        path = root / "pyproject.toml"
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")

    return setup


def replace_config(content: str) -> Callable[[Path], None]:
    return text("pyproject.toml", content)


def chain(*setups: Callable[[Path], None] | None) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        for s in setups:
            if s is not None:
                s(root)

    return setup


def no_tokenizer_model(root: Path) -> None:
    """A copy of the tiny BERT without its tokenizer files (transformers builds a 5-token one)."""
    from tests.support.tiny_models import tiny_model_dir

    source = tiny_model_dir("bert")
    target = root / "models" / "notok"
    target.mkdir(parents=True)
    for item in source.iterdir():
        if "token" not in item.name and item.name not in {"vocab.txt", "special_tokens_map.json"}:
            shutil.copy2(item, target / item.name)


def mixed_model(weights_vocab: int, tokenizer_vocab: int) -> Callable[[Path], None]:
    """The tiny BERT's weights (``weights_vocab`` rows) with another tiny BERT's tokenizer."""

    def setup(root: Path) -> None:
        from tests.support.tiny_models import tiny_model_dir

        weights = tiny_model_dir("bert", vocab_size=weights_vocab)
        tokenizer = tiny_model_dir("bert", vocab_size=tokenizer_vocab)
        target = root / "models" / "mixed"
        target.mkdir(parents=True)
        for item in weights.iterdir():
            if "token" not in item.name and item.name != "vocab.txt":
                shutil.copy2(item, target / item.name)
        for item in tokenizer.iterdir():
            if "token" in item.name or item.name == "vocab.txt":
                shutil.copy2(item, target / item.name)

    return setup


def damaged_weights(damage: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    """A copy of the tiny BERT whose model.safetensors went through ``damage``."""

    def setup(root: Path) -> None:
        from tests.support.tiny_models import tiny_model_dir

        target = root / "models" / "broken"
        shutil.copytree(tiny_model_dir("bert"), target)
        weights = target / "model.safetensors"
        weights.write_bytes(damage(weights.read_bytes()))

    return setup


def mistyped_config(root: Path) -> None:
    """A copy of the tiny BERT whose config.json gives ``hidden_size`` as a string: transformers
    5 refuses it with huggingface_hub's StrictDataclassError, not an OSError/ValueError (a
    traceback before; the kind, now read from the file, no longer catches it first)."""
    import json

    from tests.support.tiny_models import tiny_model_dir

    target = root / "models" / "broken"
    shutil.copytree(tiny_model_dir("bert"), target)
    config = json.loads((target / "config.json").read_text(encoding="utf-8"))
    config["hidden_size"] = "abc"
    (target / "config.json").write_text(json.dumps(config), encoding="utf-8")


def truncated_cache(root: Path) -> None:
    """A real score cache (from a real run) cut in the middle of its pages."""
    from tests.support.tiny_models import tiny_model_dir

    result = runner.invoke(app, ["score", "pairs.csv", "-m", str(tiny_model_dir("bert"))])
    assert result.exit_code == 0, result.output
    path = root / ".curate-cache" / "scores.sqlite"
    for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        side.unlink(missing_ok=True)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])
    shutil.rmtree(root / "build")


def cache_damaged_past_its_schema(root: Path) -> None:
    """A real score cache whose logprobs pages are garbage (its schema, meta and
    contexts pages are intact); opening checks every page, so it is refused before any lookup."""
    import sqlite3

    from tests.support.tiny_models import tiny_model_dir

    result = runner.invoke(app, ["score", "pairs.csv", "-m", str(tiny_model_dir("bert"))])
    assert result.exit_code == 0, result.output
    shutil.rmtree(root / "build")
    path = root / ".curate-cache" / "scores.sqlite"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (first,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'logprobs'").fetchone()
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    start = (first - 1) * page_size
    data[start:] = (bytes(range(256)) * (len(data) // 256 + 1))[: len(data) - start]
    path.write_bytes(bytes(data))


def cache_damaged_deep_inside(root: Path) -> None:
    """A real score cache (from a real run), grown to 60,000 more rows of another model, whose
    middle leaf page of logprobs is garbage: the first and last rows of every table are intact,
    so only a check of every page finds it before the lookups."""
    import sqlite3

    from curate.score.cache import ScoreCache
    from tests.support.tiny_models import tiny_model_dir

    result = runner.invoke(app, ["score", "pairs.csv", "-m", str(tiny_model_dir("bert"))])
    assert result.exit_code == 0, result.output
    shutil.rmtree(root / "build")
    path = root / ".curate-cache" / "scores.sqlite"
    with ScoreCache(path) as cache:
        key = cache.register_context({"model": "another"})
        cache.store(key, [(f"{i:064x}", p, -1.5) for i in range(20_000) for p in range(3)])
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        leaves = sorted(
            row[0]
            for row in db.execute(
                "SELECT pageno FROM dbstat WHERE name = 'logprobs' AND pagetype = 'leaf'"
            )
        )
    assert len(leaves) > 100
    data = bytearray(path.read_bytes())
    start = (leaves[len(leaves) // 2] - 1) * page_size
    data[start : start + page_size] = bytes(range(256)) * (page_size // 256)
    path.write_bytes(bytes(data))


def truncated_weights_model(root: Path) -> None:
    """A copy of the tiny BERT whose model.safetensors is cut in half (an interrupted download)."""
    from tests.support.tiny_models import tiny_model_dir

    target = root / "models" / "cut"
    shutil.copytree(tiny_model_dir("bert"), target)
    weights = target / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2])


def damaged_cache(root: Path) -> None:
    """A real score cache (from a real run) whose pages after the first are overwritten."""
    from tests.support.tiny_models import tiny_model_dir

    result = runner.invoke(app, ["score", "pairs.csv", "-m", str(tiny_model_dir("bert"))])
    assert result.exit_code == 0, result.output
    path = root / ".curate-cache" / "scores.sqlite"
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    data[page:] = bytes(range(256)) * ((len(data) - page) // 256 + 1)
    path.write_bytes(bytes(data[: len(data)]))
    shutil.rmtree(root / "build")


# -- the cases ---------------------------------------------------------------------------------

TINY = "{tiny}"  # replaced by the tiny BERT's directory


@dataclass(frozen=True)
class Case:
    """One hostile invocation and what the user must see."""

    id: str
    args: tuple[str, ...]
    expect: tuple[str, ...]
    setup: Callable[[Path], None] | None = None
    code: int = 2
    #: Click reports the error itself (a boxed usage message, not our one sentence).
    usage: bool = False
    #: Why the case fails until phase 2 of issue 14 (then it is an xfail(strict=True)).
    phase2: str | None = None
    marks: tuple = field(default=())
    #: Words that must NOT be in the output (a wrong hint, a Python-internal message).
    absent: tuple[str, ...] = ()


C = Case
BAD_CSV = [
    C("stats-missing", ("stats", "nope.csv"), ("nope.csv", "no such file")),
    C("stats-directory", ("stats", "adir"), ("adir", "is a directory"), directory("adir")),
    C(
        "stats-symlink-loop",
        ("stats", "loop.csv"),
        ("loop.csv", "symbolic link loop"),
        loop("loop.csv"),
    ),
    C(
        "stats-dangling-symlink",
        ("stats", "gone.csv"),
        ("gone.csv", "does not exist"),
        symlink("gone.csv", "nowhere.csv"),
    ),
    C("stats-device", ("stats", "/dev/zero"), ("/dev/zero", "is a device")),
    C("stats-name-too-long", ("stats", "x" * 300 + ".csv"), ("file name too long",)),
    C(
        "stats-path-through-a-file",
        ("stats", "pairs.csv/inner.csv"),
        ("pairs.csv/inner.csv", "not a directory"),
    ),
    C("stats-empty", ("stats", "empty.csv"), ("empty.csv", "empty"), text("empty.csv", "")),
    C("stats-whitespace-only", ("stats", "ws.csv"), ("ws.csv", "empty"), text("ws.csv", " \n\n")),
    C(
        "stats-header-only",
        ("stats", "header.csv"),
        ("header.csv", "no pairs"),
        text("header.csv", HEADER),
    ),
    C(
        "stats-binary",
        ("stats", "bin.csv"),
        ("bin.csv", "not UTF-8"),
        text("bin.csv", b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe"),
    ),
    C(
        "stats-utf16",  # issue 46: read by its byte-order mark, and the decoding said
        ("stats", "u16.csv"),
        ("u16.csv", "decoded from utf-16", "byte-order mark", "1 pairs"),
        text("u16.csv", (HEADER + GOOD_ROW).encode("utf-16")),
        code=0,
    ),
    C(
        "stats-latin1",
        ("stats", "latin.csv"),
        ("latin.csv", "not UTF-8", "line 2"),
        text("latin.csv", (HEADER + GOOD_ROW.replace("Women", "Femmes\xe9")).encode("latin-1")),
    ),
    C(
        "stats-bad-header",
        ("stats", "hdr.csv"),
        ("hdr.csv", "line 1: bad header"),
        text("hdr.csv", "a,b,c\n1,2,3\n"),
    ),
    C(
        "stats-unclosed-quote",
        ("stats", "quote.csv"),
        ("quote.csv", "line 2"),
        text("quote.csv", HEADER + '0,"never closed,x,stereo,gender,,a0,\n'),
    ),
    C(
        "stats-field-over-csv-limit",
        ("stats", "huge.csv"),
        ("huge.csv", "line 2", "field larger than field limit"),
        text("huge.csv", HEADER + "0," + "a" * 200_000 + ",b.,stereo,gender,,a0,\n"),
    ),
    C(
        "stats-too-few-fields",
        ("stats", "few.csv"),
        ("few.csv", "line 2", "3 fields"),
        text("few.csv", HEADER + "0,a.,b.\n"),
    ),
    C(
        "stats-string-id",
        ("stats", "id.csv"),
        ("id.csv", "line 2", "pair id"),
        text("id.csv", HEADER + GOOD_ROW.replace("0,", "zero,", 1)),
    ),
    C(
        "stats-huge-id",
        ("stats", "bigid.csv"),
        ("bigid.csv", "line 2", "pair id"),
        text("bigid.csv", HEADER + GOOD_ROW.replace("0,", "9" * 5000 + ",", 1)),
    ),
    C(
        "stats-duplicate-id",
        ("stats", "dup.csv"),
        ("dup.csv", "line 3", "duplicate pair id 0"),
        text("dup.csv", HEADER + GOOD_ROW + GOOD_ROW),
    ),
    C(
        "stats-code-in-annotations",
        ("stats", "code.csv"),
        ("code.csv", "line 2", "annotations"),
        text("code.csv", HEADER + "0,a.,b.,stereo,gender,\"__import__('os').system('x')\",a0,\n"),
    ),
    C(
        "stats-deep-annotations",
        ("stats", "deep.csv"),
        ("deep.csv", "line 2", "annotations"),
        text("deep.csv", HEADER + '0,a.,b.,stereo,gender,"' + "[" * 5000 + "]" * 5000 + '",a0,\n'),
    ),
    C(
        "stats-nul-in-sentence",
        ("stats", "nul.csv"),
        ("nul.csv", "line 2", "control character"),
        text("nul.csv", HEADER + GOOD_ROW.replace("Women", "Wo\x00men")),
    ),
    C(
        "stats-markup-in-missing-path",
        ("stats", "[red]x[/red].csv"),
        ("[red]x[/red].csv", "no such file"),
    ),
    C("stats-closing-tag-in-path", ("stats", "[/x].csv"), ("[/x].csv", "no such file")),
    C(
        "stats-escape-sequence-in-path",
        ("stats", "a\x1b[31mred.csv"),
        ("a\\x1b[31mred.csv", "no such file"),
    ),
    C(
        "stats-markup-in-bad-cell",
        ("stats", "cell.csv"),
        ("cell.csv", "line 2", "[/bold]"),
        text("cell.csv", HEADER + GOOD_ROW.replace("stereo", "[/bold]")),
    ),
    C("stats-bad-format", ("stats", "pairs.csv", "--format", "yaml"), ("yaml",), usage=True),
]

BAD_OUTPUTS = [
    C(
        "lint-o-onto-its-input",
        ("lint", "pairs.csv", "-o", "pairs.csv"),
        ("pairs.csv", "is an input"),
    ),
    C(
        "lint-o-onto-input-by-another-spelling",
        ("lint", "pairs.csv", "-o", "./data/../pairs.csv"),
        ("pairs.csv", "is an input"),
    ),
    C(
        "lint-o-onto-a-hard-link-of-the-input",
        ("lint", "pairs.csv", "-o", "twin.csv"),
        ("twin.csv", "is an input"),
        hardlink("twin.csv", "pairs.csv"),
    ),
    C(
        "lint-o-onto-the-pinned-raw-file",
        ("lint", "pairs.csv", "-o", RAW),
        (RAW, "pinned raw file"),
    ),
    C(
        "lint-default-input-o-onto-the-raw-file",
        ("lint", "-o", RAW),
        (RAW, "is an input"),
    ),
    C(
        "lint-o-onto-the-source-registry",
        ("lint", "pairs.csv", "-o", "data/raw/sources.toml"),
        ("sources.toml", "pinned"),
    ),
    C(
        "lint-o-onto-pyproject",
        ("lint", "pairs.csv", "-o", "pyproject.toml"),
        ("pyproject.toml", "is an input"),
    ),
    C(
        "lint-o-onto-a-symlink",
        ("lint", "pairs.csv", "-o", "link.jsonl"),
        ("link.jsonl", "symbolic link"),
        chain(text("target.jsonl", "keep me\n"), symlink("link.jsonl", "target.jsonl")),
    ),
    C(
        "lint-o-onto-a-directory",
        ("lint", "pairs.csv", "-o", "adir"),
        ("adir", "is a directory"),
        directory("adir"),
    ),
    C("lint-o-onto-dev-full", ("lint", "pairs.csv", "-o", "/dev/full"), ("/dev/full", "device")),
    C("lint-o-onto-dev-null", ("lint", "pairs.csv", "-o", "/dev/null"), ("/dev/null", "device")),
    C(
        "lint-o-below-a-file",
        ("lint", "pairs.csv", "-o", "findings.jsonl/out.txt"),
        ("findings.jsonl", "is not a directory"),
    ),
    C(
        "lint-o-in-proc",
        ("lint", "pairs.csv", "-o", "/proc/curate-out.txt"),
        ("/proc/curate-out.txt", "cannot be written"),
    ),
    C(
        "lint-o-name-too-long",
        ("lint", "pairs.csv", "-o", "y" * 300 + ".txt"),
        ("too long",),
    ),
    C(
        "lint-fix-o-onto-the-raw-file",
        ("lint", "pairs.csv", "--fix", "-o", RAW),
        (RAW, "pinned raw file"),
    ),
    C(
        "lint-fix-o-onto-a-hard-link-of-the-input",
        ("lint", "pairs.csv", "--fix", "-o", "twin.csv"),
        ("twin.csv", "is an input"),
        hardlink("twin.csv", "pairs.csv"),
    ),
    C(
        "revise-o-is-a-file",
        ("revise", "--fix", "T001", "-o", "pairs.csv"),
        ("pairs.csv", "is not a directory"),
    ),
    C(
        "revise-o-holds-a-symlinked-output",
        ("revise", "--fix", "T001", "-o", "out"),
        ("crows_pairs_revised.csv", "symbolic link"),
        chain(directory("out"), symlink("out/crows_pairs_revised.csv", "../pairs.csv")),
    ),
    C(
        "score-o-is-a-file-found-before-scoring",
        ("score", "pairs.csv", "-m", TINY, "--no-cache", "-o", "pairs.csv"),
        ("pairs.csv", "is not a directory"),
    ),
    C(
        "diff-report-o-is-a-file-found-before-scoring",
        ("diff-report", "pairs.csv", "-m", TINY, "--no-cache", "-o", "pairs.csv"),
        ("pairs.csv", "is not a directory"),
    ),
]

BAD_CONFIG = [
    C(
        "config-malformed-toml",
        ("stats", "pairs.csv"),
        ("pyproject.toml", "invalid TOML"),
        replace_config("[tool.curate\ndata = 'x'\n"),
    ),
    C(
        "config-binary",
        ("stats", "pairs.csv"),
        ("pyproject.toml", "not UTF-8"),
        replace_config(b"[tool.curate]\ndata = '\xff'\n"),  # type: ignore[arg-type]
    ),
    C(
        "config-unknown-key",
        ("stats", "pairs.csv"),
        ("pyproject.toml", "[tool.curate]", "unknown key 'dat'"),
        append_config('dat = "x.csv"\n'),
    ),
    C(
        "config-unknown-table",
        ("stats", "pairs.csv"),
        ("pyproject.toml", "unknown key 'scroe'"),
        append_config("[tool.curate.scroe]\nmodels = []\n"),
    ),
    C(
        "config-unknown-score-key",
        ("stats", "pairs.csv"),
        ("[tool.curate.score]", "unknown key 'batchsize'"),
        append_config("[tool.curate.score]\nbatchsize = 8\n"),
    ),
    C(
        "config-string-batch-size",
        ("stats", "pairs.csv"),
        ("[tool.curate.score]", "batch-size must be an integer"),
        append_config('[tool.curate.score]\nbatch-size = "8"\n'),
    ),
    C(
        "config-list-in-models",
        ("stats", "pairs.csv"),
        ("[tool.curate.score]", "models[1] must be a string"),
        append_config('[tool.curate.score]\nmodels = ["a", ["b"]]\n'),
    ),
    C(
        "config-release-dir-not-a-string",
        ("stats",),
        ("[tool.curate.release]", "dir must be a string"),
        append_config("[tool.curate.release]\ndir = 3\n"),
    ),
    C(
        "config-nul-in-path",
        ("stats",),
        ("[tool.curate]", "output-dir", "control character"),
        replace_config('[tool.curate]\noutput-dir = "a\\u0000b"\n'),
    ),
    C(
        "config-curate-not-a-table",
        ("stats", "pairs.csv"),
        ("[tool.curate] must be a table",),
        replace_config("[tool]\ncurate = 3\n"),
    ),
    C(
        "config-unknown-lint-key",
        ("lint", "pairs.csv"),
        ("[tool.curate.lint]", "unknown key 'selct'"),
        append_config('[tool.curate.lint]\nselct = ["S"]\n'),
    ),
    C(
        "config-pyproject-is-a-directory",
        ("stats", "pairs.csv"),
        ("pyproject.toml", "is a directory"),
        lambda root: ((root / "pyproject.toml").unlink(), (root / "pyproject.toml").mkdir()),
    ),
    C(
        "config-pyproject-symlink-loop",
        ("stats", "pairs.csv"),
        ("pyproject.toml", "symbolic link loop"),
        lambda root: ((root / "pyproject.toml").unlink(), loop("pyproject.toml")(root)),
    ),
]


LINT_RULES = [
    C(
        "lint-binary-input",
        ("lint", "bin.csv"),
        ("bin.csv", "not UTF-8"),
        text("bin.csv", b"\xff\xfe\x00"),
    ),
    C(
        "lint-symlink-loop",
        ("lint", "loop.csv"),
        ("loop.csv", "symbolic link loop"),
        loop("loop.csv"),
    ),
    C(
        "lint-unknown-code-with-markup",
        ("lint", "pairs.csv", "--select", "[/x]"),
        ("'[/x]'", "unknown rule code"),
    ),
    C(
        "lint-markup-code",
        ("lint", "pairs.csv", "--ignore", "[red]S[/red]"),
        ("[red]S[/red]", "unknown rule code"),
    ),
    C("lint-bad-format", ("lint", "pairs.csv", "--format", "xml"), ("xml",), usage=True),
    C(
        "lint-negative-limit",
        ("lint", "pairs.csv", "--max-edit-distance", "-1"),
        ("--max-edit-distance",),
        usage=True,
    ),
    C("lint-fix-without-output", ("lint", "pairs.csv", "--fix"), ("--fix needs --output",)),
    C("rules-unknown-with-markup", ("rules", "[/x]"), ("'[/x]'", "unknown rule")),
    C("rules-bracketed-name", ("rules", "[release]"), ("'[release]'", "unknown rule")),
    C("rules-empty", ("rules", ""), ("unknown rule ''",)),
    C("rules-bad-format", ("rules", "--format", "html"), ("html",), usage=True),
]

FETCH = [
    C(
        "fetch-ftp",
        ("fetch", "crows-pairs", "--from", "ftp://example.org/x.csv"),
        ("ftp://example.org/x.csv", "unsupported URL scheme 'ftp'"),
    ),
    C(
        "fetch-s3",
        ("fetch", "crows-pairs", "--force", "--from", "s3://bucket/x.csv"),
        ("unsupported URL scheme 's3'",),
    ),
    C(
        "fetch-missing-file",
        ("fetch", "crows-pairs", "--force", "--from", "nope.csv"),
        ("nope.csv", "no such file"),
    ),
    C(
        "fetch-missing-file-url",
        ("fetch", "crows-pairs", "--force", "--from", "file:///nonexistent/x.csv"),
        ("/nonexistent/x.csv", "no such file"),
    ),
    C(
        "fetch-remote-file-url",
        ("fetch", "crows-pairs", "--force", "--from", "file://elsewhere/x.csv"),
        ("file://elsewhere/x.csv", "local file"),
    ),
    C(
        "fetch-symlink-loop",
        ("fetch", "crows-pairs", "--force", "--from", "loop.csv"),
        ("loop.csv", "symbolic link loop"),
        loop("loop.csv"),
    ),
    C(
        "fetch-device",
        ("fetch", "crows-pairs", "--force", "--from", "/dev/zero"),
        ("/dev/zero", "is a device"),
    ),
    C(
        "fetch-mirror-without-the-file",
        ("fetch", "crows-pairs", "--force", "--from", "adir"),
        ("adir/crows_pairs_anonymized.csv", "no such file"),
        directory("adir"),
    ),
    C(
        "fetch-wrong-bytes",
        ("fetch", "crows-pairs", "--force", "--from", "pairs2.csv"),
        ("checksum mismatch", "nothing was written"),
        text("pairs2.csv", HEADER + GOOD_ROW),
    ),
    C(
        "fetch-refused-connection",
        ("fetch", "crows-pairs", "--force", "--from", "http://127.0.0.1:9/x.csv", "--timeout", "5"),
        ("cannot download", "127.0.0.1:9"),
    ),
    C("fetch-unknown-source", ("fetch", "[/x]"), ("'[/x]'", "unknown source")),
    C(
        "fetch-registry-malformed",
        ("fetch", "crows-pairs"),
        ("sources.toml", "invalid TOML"),
        text("data/raw/sources.toml", "[crows-pairs\n"),
    ),
    C(
        "fetch-registry-path-escape",
        ("fetch", "crows-pairs"),
        ("sources.toml", "bare file name"),
        text(
            "data/raw/sources.toml",
            '[crows-pairs]\nfile = "../../pyproject.toml"\nurl = "https://x"\nsha256 = "'
            + "0" * 64
            + '"\nlicense = "x"\ncitation = "x"\n',
        ),
    ),
    C(
        "fetch-destination-is-a-directory",
        ("fetch", "crows-pairs", "--from", "pairs.csv"),
        ("crows_pairs_anonymized.csv", "is a directory"),
        lambda root: ((root / RAW).unlink(), (root / RAW).mkdir()),
    ),
    C(
        "fetch-destination-is-a-dangling-symlink",
        ("fetch", "crows-pairs", "--from", "pairs.csv"),
        ("crows_pairs_anonymized.csv", "symbolic link"),
        lambda root: ((root / RAW).unlink(), (root / RAW).symlink_to("/nonexistent")),
    ),
]

BAD_FINDING_LINES = {
    "not-json": ("{pair_id: 1", "not valid JSON"),
    "array": ("[1, 2]", "expected a JSON object"),
    "string-id": (
        '{"pair_id": "1", "code": "T001", "rule": "r", "message": "m"}',
        "pair_id must be an integer",
    ),
    "bool-id": (
        '{"pair_id": true, "code": "T001", "rule": "r", "message": "m"}',
        "pair_id must be an integer",
    ),
    "float-id": (
        '{"pair_id": 1.5, "code": "T001", "rule": "r", "message": "m"}',
        "pair_id must be an integer",
    ),
    "negative-id": (
        '{"pair_id": -1, "code": "T001", "rule": "r", "message": "m"}',
        "pair_id is -1",
    ),
    "huge-id": (
        '{"pair_id": 1' + "0" * 30 + ', "code": "T001", "rule": "r", "message": "m"}',
        "at most",
    ),
    "5000-digit-id": (
        '{"pair_id": ' + "9" * 5000 + ', "code": "T001", "rule": "r", "message": "m"}',
        "not valid JSON",
    ),
    "nan": (
        '{"pair_id": NaN, "code": "T001", "rule": "r", "message": "m"}',
        "NaN is not a JSON number",
    ),
    "list-message": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": ["m"]}',
        "message must be a string",
    ),
    "object-code": (
        '{"pair_id": 1, "code": {"a": 1}, "rule": "r", "message": "m"}',
        "code must be a string",
    ),
    "markup-code": (
        '{"pair_id": 1, "code": "[/x]", "rule": "r", "message": "m"}',
        'code is a string "[/x]"',
    ),
    "missing-fields": ('{"pair_id": 1, "code": "T001"}', "finding lacks rule, message"),
    "span-as-string": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "spans": "0-3"}',
        "spans must be a list",
    ),
    "span-offset-string": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "spans": [{"field": "sent_more", "start": "0", "end": 3}]}',
        "spans[0].start must be an integer",
    ),
    "span-reversed": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "spans": [{"field": "sent_more", "start": 5, "end": 3}]}',
        "start 5 is after end 3",
    ),
    "span-unknown-field": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "spans": [{"field": "bias_type", "start": 0, "end": 3}]}',
        "spans[0].field 'bias_type' is not one of",
    ),
    "fix-list": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "fix": {"sent_more": ["a"]}}',
        "fix.sent_more must be a string",
    ),
    "fix-nul": (
        '{"pair_id": 1, "code": "T001", "rule": "r", "message": "m", "fix": {"sent_more": "a\\u0000b"}}',
        "control character",
    ),
    "deep-nesting": (
        '{"pair_id": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "nested deeper than",
    ),
}

BAD_DECISION_LINES = {
    "string-id": (
        '{"pair_id": "3", "action": "drop", "reason": "x"}',
        "pair_id must be an integer",
    ),
    "unknown-action": (
        '{"pair_id": 3, "action": "burn", "reason": "x"}',
        "action 'burn' is not one of",
    ),
    "list-sentence": (
        '{"pair_id": 3, "action": "fix", "sent_more": ["a", "b"], "reason": "x"}',
        "sent_more must be a string",
    ),
    "nul-sentence": (
        '{"pair_id": 3, "action": "fix", "sent_more": "Bad\\u0000.", "reason": "x"}',
        "sent_more holds the control character(s) \\x00",
    ),
    "newline-sentence": (
        '{"pair_id": 3, "action": "fix", "sent_more": "Bad\\nline.", "reason": "x"}',
        "control character",
    ),
    "sentence-over-csv-limit": (
        '{"pair_id": 3, "action": "fix", "sent_more": "' + "a" * 200_000 + '", "reason": "x"}',
        "characters long",
    ),
    "unknown-field": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "colour": 1}',
        "unknown decision fields: colour",
    ),
    "deep-votes": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "votes": {"a": {"b": {"c": 1}}}}',
        "votes.a",
    ),
    "votes-a-list": (  # issue 36: it named a votes.a.bool field the file does not have
        '{"pair_id": 3, "action": "drop", "reason": "x", "votes": {"a": [1, 2, {"b": [3]}]}}',
        "votes.a must be true or false, an integer, a number, a string or an object, got a list",
    ),
    "votes-a-b-a-list": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "votes": {"a": {"b": [1]}}}',
        "votes.a.b must be true or false, an integer, a number or a string, got a list",
    ),
    "votes-too-long": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "votes": {"a": "' + "v" * 300 + '"}}',
        "votes.a is 300 characters long",
    ),
    "huge-count": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "n_annotators": 1' + "0" * 40 + "}",
        "n_annotators is",
    ),
    "null-round": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "round": null}',
        "round must be a string",
    ),
    "deep-nesting": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "votes": '
        + "[" * 50_000
        + "]" * 50_000
        + "}",
        "nested deeper than",
    ),
    "infinity": (
        '{"pair_id": 3, "action": "drop", "reason": "x", "n_annotators": Infinity}',
        "Infinity is not a JSON number",
    ),
}

ANNOTATIONS = [
    *(
        C(
            f"push-findings-{key}",
            (
                "annotations",
                "push",
                "--round",
                "r1",
                "--to-file",
                "--findings",
                "bad.jsonl",
                "--data",
                "pairs.csv",
            ),
            ("bad.jsonl", "line 2", message),
            jsonl(
                "bad.jsonl", '{"pair_id": 0, "code": "T001", "rule": "r", "message": "ok"}', line
            ),
        )
        for key, (line, message) in BAD_FINDING_LINES.items()
    ),
    C(
        "push-findings-directory",
        ("annotations", "push", "--round", "r1", "--to-file", "--findings", "adir"),
        ("adir", "is a directory"),
        directory("adir"),
    ),
    C(
        "push-findings-empty",
        (
            "annotations",
            "push",
            "--round",
            "r1",
            "--to-file",
            "--findings",
            "e.jsonl",
            "--data",
            "pairs.csv",
        ),
        ("e.jsonl", "no findings"),
        text("e.jsonl", ""),
    ),
    C(
        "push-round-path-escape",
        ("annotations", "push", "--round", "../x", "--to-file", "--findings", "findings.jsonl"),
        ("'../x'", "round name"),
    ),
    C(
        "push-round-markup",
        ("annotations", "push", "--round", "[/x]", "--to-file", "--findings", "findings.jsonl"),
        ("'[/x]'", "round name"),
    ),
    C(
        "pull-from-missing",
        ("annotations", "pull", "--round", "r1", "--from", "nope.json"),
        ("nope.json", "no such file"),
    ),
    C(
        "pull-from-not-json",
        ("annotations", "pull", "--round", "r1", "--from", "x.json"),
        ("x.json", "not valid JSON"),
        text("x.json", "{oops"),
    ),
    C(
        "pull-from-directory",
        ("annotations", "pull", "--round", "r1", "--from", "adir"),
        ("adir", "is a directory"),
        directory("adir"),
    ),
    C(
        "pull-from-symlink-loop",
        ("annotations", "pull", "--round", "r1", "--from", "loop.json"),
        ("loop.json", "symbolic link loop"),
        loop("loop.json"),
    ),
    C(
        "pull-round-never-pushed",
        ("annotations", "pull", "--round", "r9", "--from", "export.json"),
        ("r9", "never pushed"),
        text("export.json", "[]"),
    ),
    C(
        "tally-without-snapshot",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json", "run `curate annotations pull"),
    ),
    C(
        "tally-snapshot-not-json",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json", "not valid JSON"),
        text("annotations/rounds/r1/annotations.json", "nope"),
    ),
    C(
        "tally-snapshot-wrong-shape",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json",),
        text("annotations/rounds/r1/annotations.json", '{"round": ["r1"], "tasks": 3}'),
    ),
]

RELEASE = [
    *(
        C(
            f"revise-decisions-{key}",
            ("revise", "--decisions", "bad.jsonl", "-o", "out"),
            ("bad.jsonl", "line 1", message),
            jsonl("bad.jsonl", line),
        )
        for key, (line, message) in BAD_DECISION_LINES.items()
    ),
    C(
        "revise-decisions-directory",
        ("revise", "--decisions", "adir", "-o", "out"),
        ("adir",),
        directory("adir"),
    ),
    C(
        "revise-decisions-symlink-loop",
        ("revise", "--decisions", "loop.jsonl", "-o", "out"),
        ("loop.jsonl", "symbolic link loop"),
        loop("loop.jsonl"),
    ),
    C(
        "revise-raw-wrong-checksum",
        ("revise", "--raw", "pairs2.csv", "-o", "out"),
        ("pairs2.csv",),
        text("pairs2.csv", HEADER + GOOD_ROW),
    ),
    C(
        "revise-raw-binary",
        ("revise", "--raw", "bin.csv", "-o", "out"),
        ("bin.csv",),
        text("bin.csv", b"\x00\xff"),
    ),
    C("revise-unknown-fix-code", ("revise", "--fix", "[/x]", "-o", "out"), ("[/X]",)),
    C(
        "revise-recipe-malformed",
        ("revise", "--recipe", "r.toml", "-o", "out"),
        ("r.toml",),
        text("r.toml", "[release\n"),
    ),
    C(
        "revise-recipe-binary",
        ("revise", "--recipe", "r.toml", "-o", "out"),
        ("r.toml", "not UTF-8"),
        text("r.toml", b"\xff\xfe"),
    ),
    C("publish-unknown-version", ("publish", "9.9.9"), ("9.9.9",)),
    C("publish-path-escape", ("publish", "../../etc"), ("../../etc",)),
    C(
        "publish-markup-version",
        ("publish", "[/x]"),
        ("[/x]",),
    ),
    C("diff-missing-file", ("diff", "raw", "nope.csv"), ("nope.csv",)),
    C(
        "diff-binary-file",
        ("diff", "raw", "bin.csv"),
        ("bin.csv", "not UTF-8"),
        text("bin.csv", b"\xff\x00\xfe"),
    ),
    C("diff-directory", ("diff", "raw", "adir"), ("adir",), directory("adir")),
    C(
        "diff-symlink-loop",
        ("diff", "raw", "loop.csv"),
        ("loop.csv", "symbolic link loop"),
        loop("loop.csv"),
    ),
    C("diff-unknown-version", ("diff", "raw", "[/x]"), ("[/x]",)),
]

SCORE = [
    C(
        "score-binary-data",
        ("score", "bin.csv", "-m", TINY, "--no-cache"),
        ("bin.csv", "not UTF-8"),
        text("bin.csv", b"\xff\xfe\x00"),
    ),
    C(
        "score-header-only",
        ("score", "h.csv", "-m", TINY, "--no-cache"),
        ("h.csv", "no pairs"),
        text("h.csv", HEADER),
    ),
    C(
        "score-missing-model-dir",
        ("score", "pairs.csv", "-m", "./no/such/model", "--no-cache"),
        ("no/such/model", "no such model directory"),
    ),
    C(
        "score-batch-size-zero",
        ("score", "pairs.csv", "-m", TINY, "--batch-size", "0"),
        ("batch-size",),
        usage=True,
    ),
    C(
        "score-model-without-tokenizer",
        ("score", "pairs.csv", "-m", "models/notok", "--no-cache"),
        ("models/notok", "tokenizer"),
        no_tokenizer_model,
    ),
    # score-guards: model paths that are not model directories (issue 14, items 2, 8 and 9)
    C(
        "score-truncated-safetensors",
        ("score", "pairs.csv", "-m", "models/cut", "--no-cache"),
        ("models/cut", "safetensors"),
        truncated_weights_model,
    ),
    C(
        "score-mistyped-relative-model-path",
        ("score", "pairs.csv", "-m", "models/notk", "--no-cache"),
        ("models/notk", "no such model directory"),
        no_tokenizer_model,
    ),
    C(
        "score-damaged-cache",
        ("score", "pairs.csv", "-m", TINY),
        ("scores.sqlite", "delete it"),
        damaged_cache,
    ),
    C(
        "score-cache-is-a-directory",
        ("score", "pairs.csv", "-m", TINY, "--cache", "adir"),
        ("adir",),
        directory("adir"),
    ),
    C(
        "diff-report-three-versions",
        ("diff-report", "a", "b", "c", "-m", TINY),
        ("at most two versions",),
    ),
    C(
        "diff-report-missing-version",
        ("diff-report", "nope.csv", "-m", TINY, "--no-cache"),
        ("nope.csv",),
    ),
    C(
        "diff-report-binary-version",
        ("diff-report", "bin.csv", "-m", TINY, "--no-cache"),
        ("bin.csv", "the file is empty"),  # a UTF-16 byte-order mark and nothing else
        text("bin.csv", b"\xff\xfe"),
    ),
]

MORE = [
    C(
        "push-data-binary",
        (
            "annotations",
            "push",
            "--round",
            "r1",
            "--to-file",
            "--findings",
            "findings.jsonl",
            "--data",
            "bin.csv",
        ),
        ("bin.csv", "not UTF-8"),
        text("bin.csv", b"\xff\x00"),
    ),
    C(
        "push-label-config-missing",
        (
            "annotations",
            "push",
            "--round",
            "r1",
            "--findings",
            "findings.jsonl",
            "--data",
            "pairs.csv",
            "--label-config",
            "nope.xml",
            "--url",
            "http://127.0.0.1:9",
        ),
        ("nope.xml", "no such file"),
    ),
    C(
        "tally-quorum-zero",
        ("annotations", "tally", "--round", "r1", "--quorum", "0"),
        ("quorum",),
        jsonl(
            "annotations/rounds/r1/annotations.json", '{"round": "r1", "tasks": [], "answers": []}'
        ),
    ),
    C(
        "publish-recipe-malformed",
        ("publish", "2.0.0"),
        ("recipe.toml",),
        text("data/clean/2.0.0/recipe.toml", "[release\n"),
    ),
    C(
        "publish-recipe-binary",
        ("publish", "2.0.0"),
        ("recipe.toml", "not UTF-8"),
        text("data/clean/2.0.0/recipe.toml", b"\xff\xfe\x00"),
    ),
    C(
        "diff-garbage-parquet",
        ("diff", "raw", "x.parquet"),
        ("x.parquet",),
        text("x.parquet", "not parquet at all\n"),
    ),
    C(
        "diff-report-garbage-parquet",
        ("diff-report", "x.parquet", "-m", TINY, "--no-cache"),
        ("x.parquet",),
        text("x.parquet", "PAR1 nope PAR1"),
    ),
    C(
        "fetch-list-registry-lacks-fields",
        ("fetch", "--list"),
        ("sources.toml", "lacks"),
        text("data/raw/sources.toml", '[crows-pairs]\nfile = "x.csv"\n'),
    ),
    C(
        "score-negative-threshold",
        ("score", "pairs.csv", "-m", TINY, "--threshold", "-1"),
        ("--threshold",),
        usage=True,
    ),
    C(
        "score-zero-threads",
        ("score", "pairs.csv", "-m", TINY, "--threads", "0"),
        ("--threads",),
        usage=True,
    ),
    C(
        "diff-report-zero-bootstrap",
        ("diff-report", "pairs.csv", "-m", TINY, "--bootstrap", "0"),
        ("--bootstrap",),
        usage=True,
    ),
    C(
        "diff-report-bad-device",
        ("diff-report", "pairs.csv", "-m", TINY, "--no-cache", "--device", "[/gpu]"),
        ("[/gpu]",),
    ),
    C(
        "score-unknown-score-key",
        ("score", "pairs.csv", "-m", TINY),
        ("[tool.curate.score]", "unknown key 'treshold'"),
        append_config("[tool.curate.score]\ntreshold = 5\n"),
    ),
]

#: Commands added since phase 1 (explore, annotations report, push --order precision,
#: --input-format) and markup in paths, codes, names and versions (issue 14, item 4).
PUSH = ("annotations", "push", "--round", "r2", "--to-file", "--findings", "findings.jsonl")
LATER = [
    C("explore-unknown-version", ("explore", "9.9.9"), ("9.9.9", "known versions")),
    C("explore-markup-version", ("explore", "raw", "[/x]"), ("'[/x]'", "neither a file")),
    C("explore-brackets-version", ("explore", "raw", "[]"), ("'[]'",)),
    C(
        "explore-scores-missing",
        ("explore", "raw", "--scores", "nope"),
        ("nope", "no such directory"),
    ),
    C(
        "explore-scores-is-a-file",
        ("explore", "raw", "--scores", "pairs.csv"),
        ("pairs.csv", "is a file, expected a directory"),
    ),
    C(
        "explore-scores-symlink-loop",
        ("explore", "raw", "--scores", "loop.d"),
        ("loop.d", "symbolic link loop"),
        loop("loop.d"),
    ),
    C(
        "explore-scores-markup",
        ("explore", "raw", "--scores", "[/x]"),
        ("[/x]", "no such directory"),
    ),
    C(
        "explore-out-onto-a-file",
        ("explore", "raw", "-o", "pairs.csv"),
        ("pairs.csv", "is not a directory"),
    ),
    C("explore-out-onto-raw", ("explore", "raw", "-o", RAW), (RAW, "is not a directory")),
    C(
        "explore-out-onto-its-input",
        ("explore", "pairs.csv", "-o", "pairs.csv"),
        ("pairs.csv", "is not a directory"),
    ),
    C(
        "report-round-never-tallied",
        ("annotations", "report", "--round", "r1"),
        ("annotations.json", "annotations pull --round r1"),
    ),
    C(
        "report-second-round-missing",
        ("annotations", "report", "--round", "r1", "--round", "r9"),
        ("annotations.json", "--round r1"),
    ),
    C(
        "report-markup-round",
        ("annotations", "report", "--round", "[/x]"),
        ("'[/x]'", "round name"),
    ),
    C(
        "push-precision-without-a-tallied-round",
        (*PUSH, "--order", "precision"),
        ("--order precision needs a tallied earlier round", "annotations/rounds"),
    ),
    C(
        "push-precision-prior-round-never-tallied",
        (*PUSH, "--order", "precision", "--prior-round", "r9"),
        ("r9", "annotations.json", "no such file"),
    ),
    C(
        "push-prior-round-without-precision",
        (*PUSH, "--prior-round", "r1"),
        ("--prior-round only applies with --order precision",),
    ),
    C(
        "push-markup-prior-round",
        (*PUSH, "--order", "precision", "--prior-round", "[/x]"),
        ("'[/x]'", "round name"),
    ),
    C(
        "stats-unknown-input-format",
        ("stats", "pairs.csv", "--input-format", "xml"),
        ("--input-format 'xml'", "not a known format"),
    ),
    C(
        "stats-markup-input-format",
        ("stats", "pairs.csv", "--input-format", "[/x]"),
        ("'[/x]'", "not a known format"),
    ),
    C(
        "lint-markup-select",
        ("lint", "pairs.csv", "--select", "[/x]"),
        ("'[/x]'", "unknown rule code"),
    ),
    C(
        "lint-bold-select",
        ("lint", "pairs.csv", "--select", "[bold]"),
        ("'[bold]'", "unknown rule code"),
    ),
    C("stats-bold-path", ("stats", "[bold]x[/bold].csv"), ("[bold]x[/bold].csv", "no such file")),
    C(
        "pull-markup-from",
        ("annotations", "pull", "--round", "r1", "--from", "[/x].json"),
        ("[/x].json", "no such file"),
    ),
    C(
        "revise-brackets-decisions-dir",
        ("revise", "--decisions", "[]/d.jsonl", "-o", "out"),
        ("[]/d.jsonl", "no such decisions file"),
    ),
    C("publish-bold-version", ("publish", "[bold]"), ("'[bold]'", "semantic versioning")),
    C("diff-markup-before", ("diff", "[/x]", "raw"), ("'[/x]'",)),
    C(
        "stats-escape-sequence-in-sentence",
        ("stats", "esc.csv"),
        ("esc.csv", "line 2", "control character", "\\x1b"),
        text("esc.csv", HEADER + GOOD_ROW.replace("Women", "\x1b[31mWomen")),
    ),
    C(
        "stats-nul-in-jsonl-sentence",
        ("stats", "nul.jsonl"),
        ("nul.jsonl", "line 1", "control character"),
        text(
            "nul.jsonl",
            json.dumps(
                {"sent_more": "A\x00b.", "sent_less": "C.", "stereo_antistereo": "stereo",
                 "bias_type": "age"}
            )
            + "\n",
        ),
    ),
]

# Score guards of issue 14 phase 2 (model loading, model paths, damaged state).
SCORE_GUARDS = [
    C(
        "score-tokenizer-ids-past-embeddings",
        ("score", "pairs.csv", "-m", "models/mixed", "--no-cache"),
        ("models/mixed", "embedding rows", "another model"),
        mixed_model(200, 1000),
    ),
    C(
        "score-tokenizer-far-smaller-than-embeddings",
        ("score", "pairs.csv", "-m", "models/mixed", "--no-cache"),
        ("models/mixed", "embedding rows", "tokenizer files"),
        mixed_model(1000, 200),
    ),
    C(
        "score-mistyped-model-under-existing-dir",
        ("score", "pairs.csv", "-m", "models/bret", "--no-cache"),
        ("models/bret", "no such model directory"),
        directory("models/bert"),
    ),
    C(
        "score-missing-model-parent-dir",
        ("score", "pairs.csv", "-m", "../no-such-model", "--no-cache"),
        ("../no-such-model", "no such model directory"),
    ),
    C(
        "score-missing-model-home-dir",
        ("score", "pairs.csv", "-m", "~/no-such-curate-model", "--no-cache"),
        ("~/no-such-curate-model", "no such model directory"),
    ),
    C(
        "score-model-is-a-file",
        ("score", "pairs.csv", "-m", "./pairs.csv", "--no-cache"),
        ("pairs.csv",),
    ),
    C(
        "score-truncated-weights",
        ("score", "pairs.csv", "-m", "models/broken", "--no-cache"),
        ("models/broken/model.safetensors", "damaged or truncated", "again"),
        damaged_weights(lambda data: data[: len(data) // 2]),
    ),
    C(
        "score-garbage-weights",
        ("score", "pairs.csv", "-m", "models/broken", "--no-cache"),
        ("models/broken/model.safetensors", "damaged or truncated"),
        damaged_weights(lambda data: bytes(range(256)) * (len(data) // 256)),
    ),
    C(
        "score-empty-weights",
        ("score", "pairs.csv", "-m", "models/broken", "--no-cache"),
        ("models/broken/model.safetensors", "damaged or truncated"),
        damaged_weights(lambda data: b""),
    ),
    C(
        "score-config-field-of-the-wrong-type",
        ("score", "pairs.csv", "-m", "models/broken", "--no-cache"),
        ("models/broken", "hidden_size", "expected int, got str"),
        mistyped_config,
    ),
    C(
        "score-garbage-cache-file",
        ("score", "pairs.csv", "-m", TINY),
        ("scores.sqlite", "delete it"),
        text(".curate-cache/scores.sqlite", bytes(range(256)) * 64),
    ),
    C(
        "score-truncated-cache",
        ("score", "pairs.csv", "-m", TINY),
        ("scores.sqlite", "delete it"),
        truncated_cache,
    ),
    C(
        "score-cache-damaged-past-its-schema",
        ("score", "pairs.csv", "-m", TINY),
        ("scores.sqlite", "damaged", "delete it"),
        cache_damaged_past_its_schema,
    ),
]

# Issue 25: what a re-probe found (tracebacks, misleading hints, wrong wording).
DEEP = "[" * 200_000 + "]" * 200_000
SNAPSHOT_TASK = {
    "pair_id": 0, "task_id": 1, "sent_more": "A.", "sent_less": "B.", "bias_type": "gender",
    "direction": "stereo",
}
SNAPSHOT_ANSWER = {
    "pair_id": 0, "task_id": 1, "annotation_id": 1, "annotator": 1, "sent_more": "demonstrates",
    "sent_less": "violates", "minimal": "yes", "bias_type": "gender",
}


def snapshot_with(answer: dict) -> Callable[[Path], None]:
    doc = {"round": "r1", "source": "x", "tasks": [SNAPSHOT_TASK], "answers": [answer]}
    return text("annotations/rounds/r1/annotations.json", json.dumps(doc))


def stereoset_without(kind: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        from tests.support.stereoset_data import stereoset_document, write_stereoset

        document = stereoset_document()
        del document["data"][kind]
        write_stereoset(root / "ss.json", document)

    return setup


def stereoset_emptied(kind: str) -> Callable[[Path], None]:
    """ss.json with no item of ``kind`` (the list there, empty)."""

    def setup(root: Path) -> None:
        from tests.support.stereoset_data import stereoset_document, write_stereoset

        document = stereoset_document()
        document["data"][kind] = []
        write_stereoset(root / "ss.json", document)

    return setup


def published_then(change: Callable[[Path], None]) -> Callable[[Path], None]:
    """VERSION published, then its dist folder changed by ``change``."""

    def setup(root: Path) -> None:
        result = runner.invoke(app, ["publish", VERSION])
        assert result.exit_code == 0, result.stderr
        change(root / "data" / "clean" / VERSION / "dist")

    return setup


def _added_task(dist: Path) -> None:
    folder = next(p for p in dist.iterdir() if p.is_dir())  # the lm-eval task folder
    (folder / "evil.yaml").write_text("task: evil\n", encoding="utf-8")


def _linked_to_a_copy_outside(dist: Path) -> None:
    """A release file replaced by a link to a byte-identical copy outside the project."""
    name = "crows_pairs_revised.csv"
    outside = dist.parents[4] / name  # beside the project folder
    outside.write_bytes((dist / name).read_bytes())
    (dist / name).unlink()
    (dist / name).symlink_to(outside)


def stereoset_file(root: Path) -> None:
    """ss.json: a small StereoSet file with both kinds of item."""
    from tests.support.stereoset_data import stereoset_document, write_stereoset

    write_stereoset(root / "ss.json", stereoset_document())


def published_then_edited(root: Path) -> None:
    result = runner.invoke(app, ["publish", VERSION])
    assert result.exit_code == 0, result.stderr
    dist = root / "data" / "clean" / VERSION / "dist"
    target = next(p for p in sorted(dist.iterdir()) if p.suffix == ".csv")
    target.write_bytes(target.read_bytes().replace(b"drive", b"ride", 1))


def decisions_symlinked_outside(root: Path) -> None:
    from curate.config import load_config

    outside = root.parent / "outside.jsonl"
    outside.write_text(json.dumps({"pair_id": 3, "action": "drop", "reason": "x"}) + "\n")
    (root / "dec.jsonl").symlink_to(outside)
    cfg = load_config(root)
    write_recipe(
        cfg, VERSION, recipe_text(sha256_file(cfg.data), VERSION, decisions=({"file": "dec.jsonl"},))
    )


NEXT = "1.1.0-test"


def published_and_edited(
    file: str, data: bytes, next_version: bool = False
) -> Callable[[Path], None]:
    """VERSION published, then one of its files overwritten with ``data`` (and, with
    ``next_version``, a recipe for NEXT that builds on VERSION, so the edited release is read)."""

    def setup(root: Path) -> None:
        from curate.config import load_config

        result = runner.invoke(app, ["publish", VERSION])
        assert result.exit_code == 0, result.stderr
        (root / "data" / "clean" / VERSION / "dist" / file).write_bytes(data)
        if next_version:
            cfg = load_config(root)
            write_recipe(cfg, NEXT, recipe_text(sha256_file(cfg.data), NEXT, previous=VERSION))

    return setup


ISSUE25 = [
    C(
        "pull-export-nested-200000-deep",
        ("annotations", "pull", "--round", "r1", "--from", "deep.json"),
        ("deep.json", "nested deeper than"),
        text("deep.json", DEEP),
    ),
    C(
        "tally-snapshot-deep",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json", "nested deeper than"),
        text("annotations/rounds/r1/annotations.json", DEEP),
    ),
    C(
        "tally-answer-field-a-list",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json", "answer 1", "sent_more"),
        snapshot_with({**SNAPSHOT_ANSWER, "sent_more": ["demonstrates"]}),
    ),
    C(
        "tally-answer-unknown-label",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json", "answer 1", "minimal", "expected one of"),
        snapshot_with({**SNAPSHOT_ANSWER, "minimal": "perhaps"}),
    ),
    C(
        "tally-answer-missing-a-key",
        ("annotations", "tally", "--round", "r1"),
        ("annotations.json", "answer 1", "minimal"),
        snapshot_with({k: v for k, v in SNAPSHOT_ANSWER.items() if k != "minimal"}),
        absent=("__init__", "positional argument"),
    ),
    C(
        "lint-40-digit-pair-id",
        (
            "lint", "big.csv", "--select", "T", "--fix", "-o", "out.parquet",
            "--output-format", "parquet",
        ),
        ("big.csv", "line 2", "pair id", "larger than"),
        text("big.csv", HEADER + "1" * 40 + GOOD_ROW[1:]),
    ),
    C(
        "stats-stereoset-without-intrasentence",
        ("stats", "ss.json"),
        ("ss.json", "data.intrasentence"),
        stereoset_without("intrasentence"),
    ),
    C(
        "score-stereoset-without-intrasentence",
        ("score", "ss.json", "-m", TINY),
        ("ss.json", "data.intrasentence"),
        stereoset_without("intrasentence"),
    ),
    C(
        "score-cache-is-the-input",
        ("score", "pairs.csv", "-m", TINY, "--cache", "pairs.csv"),
        ("pairs.csv", "not a score cache"),
        absent=("delete",),
    ),
    C(
        "score-cache-is-a-folder-never-delete",
        ("score", "pairs.csv", "-m", TINY, "--cache", "adir"),
        ("adir", "is a directory"),
        directory("adir"),
        absent=("delete",),
    ),
    C(
        "score-cache-is-a-text-file",
        ("score", "pairs.csv", "-m", TINY, "--cache", "notes.txt"),
        ("notes.txt", "not a score cache"),
        text("notes.txt", "my notes\n"),
        absent=("delete",),
    ),
    C(
        "publish-after-a-hand-edit",
        ("publish", VERSION),
        ("SHA256SUMS", "no longer matches"),
        published_then_edited,
    ),
    C("stats-empty-jsonl", ("stats", "e.jsonl"), ("e.jsonl", "empty"), text("e.jsonl", ""),
      absent=("CrowS-Pairs CSV",)),
    C("stats-empty-parquet", ("stats", "e.parquet"), ("e.parquet", "empty"),
      text("e.parquet", ""), absent=("CrowS-Pairs CSV",)),
    C(
        "lint-header-only",
        ("lint", "header.csv"),
        ("header.csv", "no pairs"),
        text("header.csv", HEADER),
    ),
    C(
        "score-markup-bias-type",
        ("score", "mk.csv", "-m", TINY, "--no-cache"),
        ("[/x]",),
        text("mk.csv", HEADER + GOOD_ROW.replace(",gender,", ",[/x],", 1)),
        code=0,
    ),
    C("lint-formula-sentence", ("lint", "pairs.csv", "--select", "T012"), ("T012",), code=1),
    C(
        "tally-formula-correction",
        ("annotations", "tally", "--round", "r1"),
        ("task 1 (pair 0)", "formula"),
        snapshot_with({**SNAPSHOT_ANSWER, "corrected_more": '=cmd|"/c calc"!A1 x.'}),
        code=0,
    ),
    C(
        "publish-decisions-symlinked-out-of-the-project",
        ("publish", VERSION),
        ("dec.jsonl", "outside the project"),
        decisions_symlinked_outside,
    ),
]


# Issue 25, wave 3 surfaces: WinoBias folders, imported scores, sweep plans, instrument inputs.
WB_PRO = "pro_stereotyped_type1.txt.dev"
WB_ANTI = "anti_stereotyped_type1.txt.dev"
WB_LINE = "1 The [developer] argued with the designer because [he] did not like the design.\n"


def winobias(pro: str | bytes, anti: str | bytes, folder: str = "wb") -> Callable[[Path], None]:
    return chain(text(f"{folder}/{WB_PRO}", pro), text(f"{folder}/{WB_ANTI}", anti))


def published(*rows: str) -> Callable[[Path], None]:
    """A metric.py output for pairs.csv: its rows (sentences, scores) as given."""
    header = ",sent_more,sent_less,sent_more_score,sent_less_score,score,stereo_antistereo,bias_type\n"
    return text("published.csv", header + "".join(f"{n},{row}\n" for n, row in enumerate(rows)))


def published_for_pairs(change: Callable[[int, list[str]], list[str]]) -> Callable[[Path], None]:
    """A metric.py output with one row per pair of pairs.csv, each row passed through ``change``."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["", "sent_more", "sent_less", "sent_more_score", "sent_less_score", "score",
         "stereo_antistereo", "bias_type"]
    )
    for n, p in enumerate(PAIRS):
        row = [str(n), p.sent_more, p.sent_less, "-10.5", "-11.25", "1", p.direction, p.bias_type]
        writer.writerow(change(n, row))
    return text("published.csv", out.getvalue())


def published_without_score(root: Path) -> None:
    """A metric.py-like output for pairs.csv without the ``score`` (verdict) column."""
    import csv

    published_for_pairs(lambda n, row: row)(root)
    path = root / "published.csv"
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    out = root / "published.csv"
    with out.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(r[:5] + r[6:] for r in rows)


def cell(index: int, value: str, row: int = 0) -> Callable[[int, list[str]], list[str]]:
    return lambda n, r: [value if (n == row and i == index) else c for i, c in enumerate(r)]


PLAN = 'output = "out"\n\n[[model]]\nname = "{tiny}"\n\n[[version]]\nlabel = "v1"\ndata = "pairs.csv"\n'


def plan(content: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        from tests.support.tiny_models import tiny_model_dir

        (root / "plan.toml").write_text(content.replace(TINY, str(tiny_model_dir("bert"))), encoding="utf-8")

    return setup


def score_folder(scores: str | bytes | None = None, summary: str | bytes | None = None) -> Callable[[Path], None]:
    """A `curate score --out` folder for pairs.csv (one column), either file replaced."""

    def setup(root: Path) -> None:
        from curate.score.files import format_scores_csv
        from curate.score.metrics import PairScore

        folder = root / "scored" / "m1" / "aul"
        folder.mkdir(parents=True)
        good_scores = format_scores_csv(
            [PairScore(p.pair_id, p.sent_more, p.sent_less, -1.0, -2.0, p.direction, p.bias_type)
             for p in PAIRS]
        )
        good_summary = json.dumps(
            {"data": {"file": "pairs.csv", "sha256": sha256_file(root / "pairs.csv")},
             "model": "m1", "method": "aul", "summary": {}}
        )
        for name, content in (("scores.csv", scores or good_scores), ("summary.json", summary or good_summary)):
            (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())

    return setup


def formula_correction(root: Path) -> None:
    """A recipe whose decisions file carries an annotator's correction that is a formula."""
    from curate.config import load_config

    (root / "dec.jsonl").write_text(
        json.dumps({"pair_id": 3, "action": "fix", "sent_more": '=cmd|"/c calc"!A1 x.',
                    "reason": "r1 correction"}) + "\n",
        encoding="utf-8",
    )
    cfg = load_config(root)
    write_recipe(
        cfg, VERSION, recipe_text(sha256_file(cfg.data), VERSION, decisions=({"file": "dec.jsonl"},))
    )


SURFACES = [
    C(
        "revise-formula-correction",
        ("revise", "--decisions", "dec.jsonl", "-o", "rev.csv"),
        ("pair 3", "formula", "dec.jsonl line 1"),
        formula_correction,
        code=0,
    ),
    C(
        "publish-formula-correction",
        ("publish", VERSION),
        ("pair 3", "formula", "T012"),
        formula_correction,
        code=0,
    ),
    C(
        "winobias-line-counts-differ",
        ("stats", "wb"),
        (WB_ANTI, "1 lines", "has 2"),
        winobias(WB_LINE + WB_LINE.replace("1 ", "2 ", 1), WB_LINE),
    ),
    C(
        "winobias-unnumbered-line",
        ("stats", "wb"),
        (WB_PRO, "line 1", "not a WinoBias line"),
        winobias(WB_LINE[2:], WB_LINE),
    ),
    C(
        "winobias-lines-numbered-apart",
        ("lint", "wb"),
        (WB_ANTI, "line 1", "not aligned"),
        winobias(WB_LINE, "7" + WB_LINE[1:]),
    ),
    C(
        "winobias-twin-missing",
        ("stats", f"wb/{WB_PRO}"),
        (WB_ANTI, "no such file"),
        text(f"wb/{WB_PRO}", WB_LINE),
    ),
    C(
        "winobias-not-utf8",
        ("stats", "wb"),
        (WB_PRO, "UTF-8"),
        winobias(WB_LINE.encode() + b"2 The [nurse] \xff said [she] would.\n", WB_LINE * 2),
    ),
    C(
        "winobias-empty-folder-forced",
        ("stats", "adir", "--input-format", "winobias"),
        ("adir", "no WinoBias files"),
        directory("adir"),
    ),
    C(
        "import-not-a-metric-py-output",
        ("score", "pairs.csv", "--import", "pairs.csv", "-m", "bert"),
        ("pairs.csv", "line 1", "not a metric.py output"),
    ),
    C(
        "import-score-not-a-verdict",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "line 2", "score must be 0 or 1"),
        published_for_pairs(cell(5, '"')),
    ),
    C(
        "import-infinite-score",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "line 3", "finite numbers"),
        published_for_pairs(cell(3, "1e999", row=1)),
    ),
    C(
        "import-nan-verdict",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "line 2", "score must be 0 or 1"),
        published_for_pairs(cell(5, "nan")),
    ),
    C(
        "import-row-not-a-pair",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "line 2", "not a pair of"),
        published_for_pairs(cell(1, "Someone else entirely.")),
    ),
    C(
        "import-row-count",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "1 rows", "5 pairs"),
        published("A.,B.,-1,-2,1,stereo,gender"),
    ),
    C(
        "import-not-utf8",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "not UTF-8", "--encoding"),
        text("published.csv", b",sent_more\xff\n"),
    ),
    C("sweep-plan-missing", ("sweep", "plan.toml"), ("plan.toml", "no such plan file")),
    C(
        "sweep-plan-not-toml",
        ("sweep", "plan.toml"),
        ("plan.toml", "not valid TOML"),
        plan("output = \n[[model]\n"),
    ),
    C(
        "sweep-plan-unknown-key",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[model]] 1", "unknown key 'methdos'"),
        plan(PLAN.replace("[[version]]", 'methdos = ["pll"]\n\n[[version]]')),
    ),
    C(
        "sweep-plan-label-twice",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[version]] 2", "used twice"),
        plan(PLAN + '\n[[version]]\nlabel = "v1"\ndata = "pairs.csv"\n'),
    ),
    C(
        "sweep-plan-version-file-missing",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[version]] 1", "nope.csv"),
        plan(PLAN.replace('data = "pairs.csv"', 'data = "nope.csv"')),
    ),
    C(
        "sweep-plan-label-is-a-path",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[version]] 1", "folder name"),
        plan(PLAN.replace('label = "v1"', 'label = "../elsewhere"')),
    ),
    C(
        "sweep-plan-not-utf8",
        ("sweep", "plan.toml"),
        ("plan.toml", "cannot read the plan"),
        text("plan.toml", b'output = "\xff"\n'),
    ),
    C(
        "sweep-plan-dtype-a-list",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[model]] 1", "dtype must be one of"),
        plan(PLAN.replace("[[version]]", 'dtype = ["float32"]\n\n[[version]]')),
    ),
    C(
        "instrument-summary-model-not-text",
        ("instrument", "consistency", "pairs.csv", "--scores", "scored"),
        ("summary.json", "model must be text"),
        score_folder(summary=json.dumps({"data": {"file": "pairs.csv", "sha256": "0"},
                                         "model": {"x" * 300: 1}, "method": "aul"})),
    ),
    C(
        "instrument-scores-not-a-folder",
        ("instrument", "consistency", "pairs.csv", "--scores", "pairs.csv"),
        ("pairs.csv", "no such directory"),
    ),
    C(
        "instrument-summary-deep",
        ("instrument", "consistency", "pairs.csv", "--scores", "scored"),
        ("summary.json", "nested deeper than"),
        score_folder(summary=DEEP),
    ),
    C(
        "instrument-scores-csv-damaged",
        ("instrument", "consistency", "pairs.csv", "--scores", "scored"),
        ("scores.csv", "line 1", "expected the columns"),
        score_folder(scores="pair_id,score\n1,2\n"),
    ),
    C(
        "instrument-stereoset-json-damaged",
        ("instrument", "validity", "pairs.csv", "--scores", "scored"),
        ("stereoset.json", "not a readable stereoset.json", "data and results.overall"),
        chain(score_folder(), text("scored/m1/stereoset-mlm/stereoset.json", '{"data": null}')),
    ),
    C(
        "publish-over-a-manifest-that-is-a-list",
        ("publish", VERSION),
        ("manifest.json", "not a curate release manifest"),
        published_and_edited("manifest.json", b"[1, 2]\n"),
    ),
    C(
        "publish-over-a-manifest-whose-inputs-are-text",
        ("publish", VERSION),
        ("manifest.json", "not a curate release manifest"),
        published_and_edited("manifest.json", b'{"inputs": "x", "tool": {}}\n'),
    ),
    C(
        "publish-after-editing-sha256sums",
        ("publish", VERSION),
        ("SHA256SUMS", "edited after publishing"),
        published_and_edited("SHA256SUMS", b"0" * 64 + b"  README.md\n"),
        absent=("rebuilding",),
    ),
    C(
        "publish-on-a-previous-release-whose-sums-are-binary",
        ("publish", NEXT),
        ("SHA256SUMS", "not UTF-8"),
        published_and_edited("SHA256SUMS", b"\x80\xff  x\n", next_version=True),
    ),
    C(
        "publish-on-a-previous-release-whose-sums-name-a-null",
        ("publish", NEXT),
        ("SHA256SUMS", "line 1"),
        published_and_edited("SHA256SUMS", b"00  a\x00b\n", next_version=True),
    ),
]

DEEP_TOML = "[" * 5000 + "1" + "]" * 5000
DEEP_INLINE = "{a = " * 5000 + "1" + "}" * 5000

ISSUE36 = [
    C(
        "sweep-plan-nested-5000-deep",
        ("sweep", "plan.toml"),
        ("plan.toml", "not valid TOML", "nested deeper than"),
        plan(PLAN.replace("[[version]]", f"methods = {DEEP_TOML}\n\n[[version]]")),
    ),
    C(
        "sweep-plan-inline-tables-5000-deep",
        ("sweep", "plan.toml"),
        ("plan.toml", "not valid TOML", "nested deeper than"),
        plan(PLAN.replace('output = "out"', f"output = {DEEP_INLINE}")),
    ),
    C(
        "config-nested-5000-deep",
        ("stats",),
        ("pyproject.toml", "nested deeper than"),
        append_config(f"\nx = {DEEP_TOML}\n"),
    ),
    C(
        "recipe-nested-5000-deep",
        ("publish", VERSION),
        ("recipe.toml", "nested deeper than"),
        text(f"data/clean/{VERSION}/recipe.toml", f"x = {DEEP_TOML}\n"),
    ),
    C(
        "sources-nested-5000-deep",
        ("fetch", "crows-pairs"),
        ("sources.toml", "nested deeper than"),
        text("data/raw/sources.toml", f"x = {DEEP_TOML}\n"),
    ),
    C(
        "score-stereoset-intersentence-only-masked-lm-without-nsp",
        ("score", "ss.json", "-m", TINY),
        ("ss.json", "no item left", "intersentence", "next-sentence-prediction head", "stereoset-pll"),
        stereoset_emptied("intrasentence"),
    ),
    C(
        "score-stereoset-intersentence-only-stereoset-mlm",
        ("score", "ss.json", "-m", TINY, "--method", "stereoset-mlm"),
        ("ss.json", "intersentence", "stereoset-pll"),
        stereoset_emptied("intrasentence"),
    ),
    C(
        "sweep-plan-methods-empty",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[model]] 1", "methods names none"),
        plan(PLAN.replace("[[version]]", "methods = []\n\n[[version]]")),
    ),
    C(
        "sweep-plan-methods-blank",
        ("sweep", "plan.toml"),
        ("plan.toml", "[[model]] 1", "methods names none"),
        plan(PLAN.replace("[[version]]", 'methods = [" , "]\n\n[[version]]')),
    ),
    C(
        "config-score-methods-empty",
        ("score", "pairs.csv", "-m", TINY),
        ("[tool.curate.score]", "methods names none"),
        append_config("\n[tool.curate.score]\nmethods = []\n"),
    ),
    C(
        "score-method-option-empty",
        ("score", "pairs.csv", "-m", TINY, "--method", ""),
        ("methods names none",),
    ),
    C(
        "import-without-a-score-column",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert"),
        ("published.csv", "no published score", "--import-prefer higher", "lower"),
        published_without_score,
    ),
    C(
        "import-with-method",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert", "--method", "aul"),
        ("--import", "runs no model", "--method"),
        published_for_pairs(lambda n, row: row),
    ),
    C(
        "import-with-cache-and-dtype",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert", "--cache", "c.sqlite",
         "--dtype", "bfloat16"),
        ("--import", "--dtype", "--cache"),
        published_for_pairs(lambda n, row: row),
    ),
    C(
        "import-prefer-without-import",
        ("score", "pairs.csv", "-m", "bert", "--import-prefer", "lower"),
        ("--import-prefer", "only applies with --import"),
    ),
    *(
        C(  # issue 36 item 15: the cache is checked before any model loads (15-37 s for a big one)
            f"score-{name}-refused-before-the-model-loads",
            ("score", data, "-m", "models/broken", *extra),
            words,
            chain(setup, damaged_weights(lambda data: data[: len(data) // 2])),
            absent=("model.safetensors",),
        )
        for name, data, extra, words, setup in [
            ("cache-damaged-past-its-schema", "pairs.csv", (), ("scores.sqlite", "damaged"),
             cache_damaged_past_its_schema),
            ("truncated-cache", "pairs.csv", (), ("scores.sqlite", "delete it"), truncated_cache),
            ("cache-damaged-deep-inside", "pairs.csv", (), ("scores.sqlite", "damaged"),
             cache_damaged_deep_inside),
            ("garbage-cache", "pairs.csv", (), ("scores.sqlite", "delete it"),
             text(".curate-cache/scores.sqlite", bytes(range(256)) * 64)),
            ("cache-under-a-file", "pairs.csv", ("--cache", "pairs.csv/c.sqlite"),
             ("pairs.csv/c.sqlite",), None),
            ("stereoset-cache-damaged-past-its-schema", "ss.json", (),
             ("scores.sqlite", "damaged"), chain(cache_damaged_past_its_schema, stereoset_file)),
        ]
    ),
    C(  # issue 36 item 17: one rule for every writer of an output set, checked before the model
        "score-column-file-a-link-to-outside",
        ("score", "pairs.csv", "-m", "models/broken", "-o", "out"),
        ("out/broken/scores.csv", "symbolic link"),
        chain(
            damaged_weights(lambda data: data[: len(data) // 2]),
            text("outside/kept.csv", "not a score file\n"),
            text("out/broken/summary.json", "{}"),
            symlink("out/broken/scores.csv", "../../outside/kept.csv"),
        ),
        absent=("model.safetensors",),
    ),
    C(
        "score-method-column-summary-a-link",
        ("score", "pairs.csv", "-m", "models/broken", "-o", "out"),
        ("out/broken/aul/summary.json", "symbolic link"),
        chain(
            damaged_weights(lambda data: data[: len(data) // 2]),
            text("outside.json", "{}"),
            directory("out/broken/aul"),
            symlink("out/broken/aul/summary.json", "../../../outside.json"),
        ),
        absent=("model.safetensors",),
    ),
    C(
        "import-column-file-a-link-to-outside",
        ("score", "pairs.csv", "--import", "published.csv", "-m", "bert", "-o", "out"),
        ("out/bert/imported-metric.py/scores.csv", "symbolic link"),
        chain(
            published_for_pairs(lambda n, row: row),
            text("outside.csv", "kept\n"),
            directory("out/bert/imported-metric.py"),
            symlink("out/bert/imported-metric.py/scores.csv", "../../../outside.csv"),
        ),
    ),
    C(  # issue 36 item 6
        "publish-over-a-release-with-an-added-task-file",
        ("publish", VERSION),
        ("evil.yaml", "not a file of the release", "immutable"),
        published_then(_added_task),
        absent=("byte-identical",),
    ),
    C(
        "publish-over-a-release-with-an-added-top-file",
        ("publish", VERSION),
        ("extra.csv", "not a file of the release"),
        published_then(lambda dist: (dist / "extra.csv").write_text("x\n", encoding="utf-8")),
    ),
    C(
        "publish-over-a-release-with-an-added-folder",
        ("publish", VERSION),
        ("more", "not a file of the release"),
        published_then(lambda dist: (dist / "more").mkdir()),
    ),
    C(  # issue 36 item 7
        "publish-over-a-release-file-linked-outside",
        ("publish", VERSION),
        ("crows_pairs_revised.csv", "symbolic link"),
        published_then(_linked_to_a_copy_outside),
    ),
    C(
        "publish-next-over-a-previous-release-with-an-added-file",
        ("publish", NEXT),
        ("extra.csv", "not a file of the release"),
        chain(
            published_then(lambda dist: (dist / "extra.csv").write_text("x\n", encoding="utf-8")),
            lambda root: write_recipe(
                load_config(root), NEXT, recipe_text(sha256_file(load_config(root).data), NEXT, previous=VERSION)
            ),
        ),
    ),
    C(
        "explore-every-summary-unreadable",
        ("explore", "raw", "--scores", "scored"),
        ("scored", "no usable score set", "summary.json", "not readable JSON"),
        score_folder(summary="{"),
    ),
    C(
        "explore-every-summary-not-a-score-summary",
        ("explore", "raw", "--scores", "scored"),
        ("scored", "no usable score set", "no method"),
        score_folder(summary="[1]"),
    ),
]

CASES = [
    *BAD_CSV,
    *BAD_OUTPUTS,
    *BAD_CONFIG,
    *LINT_RULES,
    *FETCH,
    *ANNOTATIONS,
    *RELEASE,
    *SCORE,
    *MORE,
    *LATER,
    *SCORE_GUARDS,
    *ISSUE25,
    *SURFACES,
    *ISSUE36,
]


def _params() -> list:
    params = []
    for case in CASES:
        marks = list(case.marks)
        if case.phase2:
            marks.append(pytest.mark.xfail(strict=True, reason=f"phase 2: {case.phase2}"))
        if TINY in case.args or case.args[0] in {"score", "diff-report"}:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


def _ids() -> list[str]:
    return [c.id for c in CASES]


def test_case_ids_are_unique() -> None:
    assert len(set(_ids())) == len(CASES)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    build_project(root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CURATE_DATA_MIRROR", raising=False)
    return root


@pytest.mark.parametrize("case", _params())
def test_hostile_input(case: Case, project: Path) -> None:
    if case.setup is not None:
        case.setup(project)
    args = list(case.args)
    if TINY in args:
        from tests.support.tiny_models import tiny_model_dir

        args = [str(tiny_model_dir("bert")) if a == TINY else a for a in args]
    before = snapshot(project)
    result = runner.invoke(app, args)
    after = snapshot(project)

    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(result.exception))
        pytest.fail(f"traceback instead of an error message:\n{trace}")
    stderr = result.stderr
    assert "Traceback" not in result.output + stderr
    assert result.exit_code == case.code, (result.exit_code, stderr, result.stdout)
    lines = [line for line in stderr.splitlines() if line.strip()]
    if case.code != 2:  # the stated success (0) or findings (1): the words, no traceback
        for words in case.expect:
            assert words in result.output + stderr, f"{words!r} not in:\n{result.output}{stderr}"
        return
    if not case.usage:
        assert len(lines) == 1, f"expected one line on stderr, got:\n{stderr}"
        assert lines[0].startswith("error: "), lines[0]
    for words in case.expect:
        assert words in stderr, f"{words!r} not in stderr:\n{stderr}"
    for words in case.absent:
        assert words not in stderr, f"{words!r} in stderr:\n{stderr}"

    changed = sorted(p for p in before if after.get(p) != before[p])
    assert not changed, f"pre-existing files changed or removed: {changed}"
    new = sorted(
        p
        for p in set(after) - set(before)
        if not p.startswith(CACHE_DIRS) and "/.curate-cache" not in p
    )
    assert not new, f"new files after an error: {new}"


@pytest.mark.skipif(IS_ROOT, reason="root reads and writes files whatever their permissions")
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("stats", "locked.csv"), ("locked.csv", "permission denied")),
        (
            ("fetch", "crows-pairs", "--force", "--from", "locked.csv"),
            ("locked.csv", "permission denied"),
        ),
        (("lint", "pairs.csv", "-o", "ro/out.txt"), ("ro", "not writable")),
    ],
)
def test_permissions(args: tuple[str, ...], words: tuple[str, ...], project: Path) -> None:
    locked = project / "locked.csv"
    locked.write_text(HEADER + GOOD_ROW, encoding="utf-8")
    locked.chmod(0)
    (project / "ro").mkdir()
    (project / "ro").chmod(0o500)
    try:
        result = runner.invoke(app, list(args))
    finally:
        locked.chmod(0o644)
        (project / "ro").chmod(0o755)
    assert result.exit_code == 2 and all(w in result.stderr for w in words), result.stderr


def test_read_only_output_as_root_is_one_sentence(project: Path) -> None:
    """Also as root some places cannot be written (/proc): one sentence, nothing left behind."""
    result = runner.invoke(app, ["lint", "pairs.csv", "-o", "/proc/self/curate.txt"])
    assert result.exit_code == 2
    assert "/proc/self/curate.txt" in result.stderr and "Traceback" not in result.stderr


def test_corpus_size() -> None:
    """The corpus stays broad: at least 100 hostile invocations over every command."""
    commands = {c.args[0] if c.args[0] != "annotations" else " ".join(c.args[:2]) for c in CASES}
    assert len(CASES) >= 100
    assert {
        "fetch",
        "stats",
        "lint",
        "rules",
        "annotations push",
        "annotations pull",
        "annotations tally",
        "revise",
        "publish",
        "diff",
        "score",
        "diff-report",
    } <= commands


def test_score_help_keeps_its_placeholders() -> None:
    """The markdown help shows ``<out>``/``<model>`` (it used to read them as HTML and drop them)."""
    result = runner.invoke(app, ["score", "--help"], terminal_width=200)
    assert "<out>/<model>/scores.csv" in result.output
    assert "<out>/<model>/<method>/" in result.output
    assert "//scores.csv" not in result.output


def test_revise_help_keeps_its_placeholder() -> None:
    result = runner.invoke(app, ["revise", "--help"], terminal_width=200)
    assert "data/raw/<file>" in result.output


def test_publish_removes_stale_staging(project: Path) -> None:
    stale = project / "data" / "clean" / VERSION / ".dist-killed.tmp"
    stale.mkdir()
    (stale / "crows_pairs_revised.csv").write_text("half a copy", encoding="utf-8")
    result = runner.invoke(app, ["publish", VERSION])
    assert result.exit_code == 0, result.stderr
    assert not stale.exists()


def test_real_process_refuses_to_clobber_its_input(project: Path) -> None:
    """The console entry point, not just the in-process runner: one line, exit 2, input intact."""
    import subprocess
    import sys

    before = snapshot(project)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-m", "curate", "lint", "-o", RAW],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"error: {RAW}: is an input of this command; inputs are never overwritten, "
        "write the output elsewhere"
    ]
    after = snapshot(project)
    assert {k: v for k, v in after.items() if not k.startswith(CACHE_DIRS)} == before


@pytest.mark.parametrize("name", ["[red]/[bold].txt", "[]/x.txt", "[/x]/out.txt"])
def test_markup_in_an_output_path_is_printed_literally(name: str, project: Path) -> None:
    """A success message names the user's path as typed: nothing eaten, no MarkupError."""
    result = runner.invoke(app, ["lint", "pairs.csv", "-o", name], terminal_width=200)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), result.stderr
    assert f"written to {name}" in result.stderr
    assert (project / name).is_file()


def test_markup_in_a_sources_registry_is_shown_literally(project: Path) -> None:
    """Strings of data/raw/sources.toml reach a rich table as text, not markup."""
    sources = project / "data" / "raw" / "sources.toml"
    sources.write_text(
        sources.read_text(encoding="utf-8").replace('license = "', 'license = "[bold][/x]', 1),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["fetch", "--list"], terminal_width=300)
    assert result.exit_code == 0, result.stderr
    assert "[bold][/x]" in result.stdout


@pytest.mark.slow
def test_score_csv_neutralises_formula_cells(project: Path) -> None:
    """Issue 25 item 14: sentences that a spreadsheet runs come out as text, and read back."""
    import csv
    from dataclasses import replace

    from curate.score.files import read_scores_csv
    from tests.support.tiny_models import tiny_model_dir

    hostile = ('=HYPERLINK("http://x") Women drive.', "+cmd|' /c calc'!A1", "@SUM(1) men.")
    write_pairs([replace(PAIRS[0], pair_id=i, sent_more=s) for i, s in enumerate(hostile)],
                project / "f.csv")
    result = runner.invoke(
        app, ["score", "f.csv", "-m", str(tiny_model_dir("bert")), "--no-cache", "-o", "out"]
    )
    assert result.exit_code == 0, result.stderr
    [scores] = list((project / "out").glob("*/scores.csv"))
    cells = [row["sent_more"] for row in csv.DictReader(scores.open(encoding="utf-8"))]
    assert all(cell.startswith("'") for cell in cells), cells
    assert [s.sent_more for s in read_scores_csv(scores)] == list(hostile)


def test_formula_neutralisation_round_trips() -> None:
    from curate.cells import neutralise_formula, restore_formula

    for cell in ("=1", "'=1", "''@x", "plain", "'quoted'", "-", "", "\tx", "a=b"):
        assert restore_formula(neutralise_formula(cell)) == cell
        assert not neutralise_formula(cell).startswith(("=", "+", "-", "@", "\t", "\r"))
