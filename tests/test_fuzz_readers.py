"""Property-based fuzzing of the readers of wave 4 (issue 36), through the command line.

- French and Dutch CrowS-Pairs files (the real ones of ``$CURATE_DATA_MIRROR``, excerpts):
  bytes mutated, re-encoded in legacy encodings or mixed, read with and without
  ``--encoding``/``--language`` by ``stats``, ``lint --fix`` (which writes the pairs back)
  and ``score --import`` of the published per-pair results;
- the ``--links`` file of ``curate instrument reliability`` (issue 30);
- the sweep plans and sweep output roots given to ``curate diff-report --sweep``, plans nested
  thousands deep and plans holding ``nan``/``inf`` among them.

Each target runs the command in process and classifies the outcome with
:func:`tests.support.fuzz_cli.run_cli` (exit 0/1, or exit 2 with one sentence; never a
traceback, a hang, a changed input or an unreadable output). benchmarks/fuzz.py runs them with
the others; failing inputs become cases of tests/fuzz_corpus/ replayed by
tests/test_fuzz_corpus.py (:data:`REPLAYERS`).
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curate.datasets import write_pairs
from tests.support.fuzz_cli import run_cli
from tests.support.fuzzing import (
    HOSTILE,
    WORK,
    deep_nesting,
    load_folder_case,
    mutations,
)

#: The command line runs a few hundred ms per example: fewer examples than the reader targets.
_fewer = settings(max_examples=max(10, settings.default.max_examples // 5))


def _project(name: str) -> Path:
    """A fresh folder with a curate pyproject (so the commands find their project there)."""
    root = WORK / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.curate]\n", encoding="utf-8")
    return root


# -- French and Dutch files ------------------------------------------------------------------

#: The published per-pair results each language's excerpt is imported with.
RESULTS = {"french": "results/french/results_camembert.csv", "dutch": "results/dutch/results_bertje.csv"}
#: Encodings a user may name (text codecs, legacy 8-bit ones, names that are no codec, and
#: codecs that do not decode bytes to text).
ENCODINGS = [
    None, "utf-8", "utf-8-sig", "utf-16", "mac_roman", "macroman", "cp1252", "latin-1", "cp1250",
    "cp437", "ascii", "nope", "rot13", "hex", "base64", "idna", "",
]
LEGACY = ["cp1252", "mac_roman", "latin-1", "cp1250", "cp850", "utf-16", "utf-8-sig", "iso8859_15"]
_EXCERPTS: dict[str, tuple[bytes, bytes]] = {}


def _multilingual() -> Path:
    folder = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent")) / "crows_pairs_multilingual"
    if not folder.is_dir():
        pytest.skip("the French and Dutch files are not in $CURATE_DATA_MIRROR")
    return folder


def _excerpt(language: str) -> tuple[bytes, bytes]:
    """The header and 40 records of the language's file (the first ten and the first thirty
    with non-ASCII bytes, so that detection has its evidence), with the published results of
    the same pair ids: bytes as published."""
    if language not in _EXCERPTS:
        folder = _multilingual()
        data = (folder / f"crows_{language}.csv").read_bytes().splitlines(keepends=True)
        results = (folder / RESULTS[language]).read_bytes().splitlines(keepends=True)
        chosen = [i for i in range(1, len(data)) if any(b > 127 for b in data[i])][:30]
        chosen = sorted(set(chosen) | set(range(1, 11)))
        by_id = {line.split(b",", 1)[0]: line for line in results[1:]}
        ids = [data[i].split(b",", 1)[0] for i in chosen]
        _EXCERPTS[language] = (
            data[0] + b"".join(data[i] for i in chosen),
            results[0] + b"".join(by_id[i] for i in ids if i in by_id),
        )
    return _EXCERPTS[language]


@st.composite
def multilingual_cases(draw: st.DrawFn) -> dict[str, Any]:
    """A French or Dutch excerpt damaged one way, and the command and options to read it with."""
    language = draw(st.sampled_from(["french", "dutch"]))
    data, results = _excerpt(language)
    text = data.decode("mac_roman" if language == "dutch" else "utf-8")
    kind = draw(st.sampled_from(["bytes", "reencoded", "mixed", "results", "as published"]))
    if kind == "bytes":
        data = draw(mutations(data))
    elif kind == "reencoded":  # the whole file saved by a program in another encoding
        data = text.encode(draw(st.sampled_from(LEGACY)), errors="replace")
    elif kind == "mixed":  # lines of one encoding pasted into a file of another
        lines = text.splitlines(keepends=True)
        first, second = draw(st.sampled_from(LEGACY)), draw(st.sampled_from(LEGACY))
        cut = draw(st.integers(1, len(lines)))
        data = "".join(lines[:cut]).encode(first, "replace") + "".join(lines[cut:]).encode(second, "replace")
    elif kind == "results":
        results = draw(mutations(results))
    command = draw(st.sampled_from(["stats", "lint", "import"]))
    return {
        "language": language,
        "data": data.decode("utf-8", "surrogateescape"),
        "results": results.decode("utf-8", "surrogateescape"),
        "command": command,
        "encoding": draw(st.sampled_from(ENCODINGS)),
        "declared": draw(st.sampled_from([None, None, "fr", "nl", "en", "xx", "FR"])),
    }


def _read_back(path: str) -> None:
    from curate.datasets import read_dataset

    read_dataset(Path(path))


def _score_files_read_back(folder: str) -> None:
    from curate.score.files import read_scores_csv

    files = sorted(Path(folder).rglob("scores.csv"))
    assert files, f"{folder}: the import wrote no scores.csv"
    for path in files:
        read_scores_csv(path)
        json.loads((path.parent / "summary.json").read_text(encoding="utf-8"))


def _run_multilingual(case: dict[str, Any]) -> None:
    root = _project("multilingual")
    (root / "pairs.csv").write_bytes(case["data"].encode("utf-8", "surrogateescape"))
    (root / "published.csv").write_bytes(case["results"].encode("utf-8", "surrogateescape"))
    options: list[str] = []
    if case["encoding"] is not None:
        options += ["--encoding", case["encoding"]]
    if case["declared"] is not None and case["command"] != "import":
        options += ["--language", case["declared"]]
    if case["command"] == "stats":
        run_cli("multilingual", case, ["stats", "pairs.csv", *options], root)
    elif case["command"] == "lint":
        run_cli(
            "multilingual", case,
            ["lint", "pairs.csv", "--no-cache", "--fix", "-o", "fixed.csv", *options], root,
            outputs=["fixed.csv"], written=lambda: _read_back("fixed.csv"),
        )
    else:
        run_cli(
            "multilingual", case,
            ["score", "pairs.csv", "--import", "published.csv", "-m", "published", "-o", "out",
             *options],
            root, outputs=["out"], written=lambda: _score_files_read_back("out"),
        )


@_fewer
@given(case=multilingual_cases())
def test_french_and_dutch_files(case: dict[str, Any]) -> None:
    _run_multilingual(case)


def test_the_dutch_excerpt_is_read_as_mac_roman() -> None:
    """The target's base case works: detection on the excerpt alone, and every command."""
    for command in ("stats", "lint", "import"):
        data, results = _excerpt("dutch")
        case = {"language": "dutch", "data": data.decode("utf-8", "surrogateescape"),
                "results": results.decode("utf-8", "surrogateescape"), "command": command,
                "encoding": None, "declared": None}
        _run_multilingual(case)
    result = run_cli("multilingual", case, ["stats", "pairs.csv"], WORK / "multilingual")
    assert result.exit_code == 0 and "decoded from mac-roman" in result.stderr


def _replay_multilingual(path: Path) -> None:
    _run_multilingual(json.loads(path.read_bytes().decode("utf-8", "surrogatepass")))


# -- the --links file of instrument reliability ----------------------------------------------


def _reliability_project() -> Path:
    """An original file, two alternate files (paraphrases with their own ids) and score folders
    of two models on all three, as ``score --import`` would leave them."""
    from dataclasses import replace

    from curate.fileio import sha256_file
    from curate.score.files import format_scores_csv
    from curate.score.metrics import PairScore
    from tests.support.release_project import PAIRS

    root = _project("reliability")
    files = {
        "original.csv": list(PAIRS),
        "alt_a.csv": [
            replace(p, pair_id=100 + n, sent_more=p.sent_more.replace(".", "!"),
                    sent_less=p.sent_less.replace(".", "!"))
            for n, p in enumerate(PAIRS)
        ],
        "alt_b.csv": [
            replace(p, pair_id=200 + n, sent_more="Really, " + p.sent_more,
                    sent_less="Really, " + p.sent_less)
            for n, p in enumerate(PAIRS[:4])
        ],
    }
    for name, pairs in files.items():
        write_pairs(pairs, root / name)
        for m, model in enumerate(("m1", "m2")):
            scores = [
                PairScore(p.pair_id, p.sent_more, p.sent_less, -5.0 - ((n + m) % 3), -6.0 + n * 0.5,
                          p.direction, p.bias_type)
                for n, p in enumerate(pairs)
            ]
            folder = root / "scores" / Path(name).stem / model / "pll"
            folder.mkdir(parents=True)
            (folder / "scores.csv").write_text(format_scores_csv(scores), encoding="utf-8")
            summary = {"data": {"file": name, "sha256": sha256_file(root / name)},
                       "model": model, "method": "pll", "summary": {}}
            (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return root


BASE_LINKS = "alternate_id,original_id,file\n" + "".join(
    f"{100 + n},{n},alt_a.csv\n" for n in range(4)
) + "".join(f"{200 + n},{n},alt_b.csv\n" for n in range(3))

_link_cells = st.sampled_from(
    [*HOSTILE, "100", "0", "200", "1", "999", "-1", "1_0", " 100 ", "1e2", "0x10", "alt_a.csv",
     "alt_b.csv", "original.csv", "ALT_A.CSV", "", "\x00", "x" * 200_000]
)


@st.composite
def links_files(draw: st.DrawFn) -> str:
    """The base links file with bytes mutated, a cell replaced, a row duplicated or dropped,
    or the header changed."""
    kind = draw(st.sampled_from(["bytes", "cell", "rows", "header", "encoding"]))
    if kind == "bytes":
        return draw(mutations(BASE_LINKS.encode())).decode("utf-8", "surrogateescape")
    rows = [line.split(",") for line in BASE_LINKS.splitlines()]
    if kind == "cell":
        row = draw(st.integers(0, len(rows) - 1))
        rows[row][draw(st.integers(0, len(rows[row]) - 1))] = draw(_link_cells)
    elif kind == "rows":
        row = draw(st.integers(1, len(rows) - 1))
        if draw(st.booleans()):
            rows.insert(row, rows[row])
        else:
            del rows[row]
    elif kind == "header":
        rows[0] = draw(st.sampled_from([["original_id", "alternate_id"], ["alternate_id"], [],
                                        ["alternate_id", "original_id", "file", "file"],
                                        ["\ufeffalternate_id", "original_id", "file"]]))
    else:  # saved as UTF-16 or with a byte-order mark by a spreadsheet
        text = "\n".join(",".join(r) for r in rows) + "\n"
        encoded = text.encode(draw(st.sampled_from(["utf-16", "utf-8-sig", "cp1252"])))
        return encoded.decode("utf-8", "surrogateescape")
    return "\n".join(",".join(r) for r in rows) + "\n"


def _report_reads_back(folder: str) -> None:
    json.loads((Path(folder) / "report.json").read_text(encoding="utf-8"))


def _run_links(text: str) -> None:
    from unittest.mock import patch

    from curate.instrument import stats

    root = WORK / "reliability"
    if not (root / "scores").is_dir():
        root = _reliability_project()
    shutil.rmtree(root / "report", ignore_errors=True)
    (root / "links.csv").write_bytes(text.encode("utf-8", "surrogateescape"))
    with patch.object(stats, "RESAMPLES", 49):
        run_cli(
            "links", text,
            ["instrument", "reliability", "alt_a.csv", "alt_b.csv", "--original", "original.csv",
             "--scores", "scores", "--links", "links.csv", "-o", "report"],
            root, outputs=["report"], written=lambda: _report_reads_back("report"),
        )


@_fewer
@given(text=links_files())
def test_mutated_links_files(text: str) -> None:
    _run_links(text)


def test_the_base_links_file_is_used() -> None:
    _reliability_project()
    _run_links(BASE_LINKS)
    report = json.loads((WORK / "reliability" / "report" / "report.json").read_text())
    assert report["rows"], report


def _replay_links(path: Path) -> None:
    _run_links(path.read_bytes().decode("utf-8", "surrogatepass"))


# -- diff-report --sweep: plans and output roots ----------------------------------------------

SWEEP_PLAN = """output = "sweep-out"
cache = "cache.sqlite"
batch-size = 4

[[model]]
name = "models/bert"
label = "bert"
methods = ["pll"]

[[version]]
label = "v1"
data = "v1.csv"

[[version]]
label = "v2"
data = "v2.csv"
"""

_plan_values = st.sampled_from(
    ["nan", "inf", "-inf", "+nan", "1e999", "0", "-1", "1.5", "[]", "[[]]", "{}", '"v1.csv"',
     '"../v1.csv"', '"/"', '""', '"models/bert"', '["pll", "pll"]', '["nope"]', "true",
     '"' + "a" * 5000 + '"', "[nan]", "{ a = nan }"]
)


@st.composite
def sweep_inputs(draw: st.DrawFn) -> dict[str, str]:
    """A plan (bytes mutated, a value replaced by nan/inf or another odd TOML value, nested
    thousands deep), given as the file or through an output root whose sweep.json names it (or
    a damaged sweep.json)."""
    kind = draw(st.sampled_from(["bytes", "value", "deep", "as written"]))
    plan = SWEEP_PLAN.encode()
    if kind == "bytes":
        plan = draw(mutations(plan))
    elif kind == "deep":
        plan = draw(deep_nesting(plan))
    elif kind == "value":
        lines = plan.decode().split("\n")
        at = draw(st.sampled_from([i for i, line in enumerate(lines) if " = " in line]))
        lines[at] = lines[at].split(" = ", 1)[0] + " = " + draw(_plan_values)
        plan = "\n".join(lines).encode()
    files = {"plan.toml": plan.decode("utf-8", "surrogateescape")}
    where = draw(st.sampled_from(["plan", "root", "root"]))
    if where == "root":
        document = draw(
            st.sampled_from(
                ['{"plan_path": "../plan.toml"}', '{"plan_path": "../nope.toml"}', "{",
                 '{"plan_path": 3}', "[]", '{"plan_path": ".."}', '{"plan_path": "../sweep-out"}',
                 '{"plan_path": "../' + "[" * 40 + '"}', '{"plan_path": NaN}', "\x00",
                 '{"plan_path": "../plan.toml"}' * 2]
            )
        )
        files["sweep-out/sweep.json"] = document
    files["--sweep"] = "sweep-out" if where == "root" else "plan.toml"
    return files


def _run_sweep_inputs(value: dict[str, str]) -> None:
    from tests.support.release_project import PAIRS
    from tests.support.tiny_models import tiny_model_dir

    root = _project("diff-sweep")
    (root / "models").mkdir()
    (root / "models" / "bert").symlink_to(tiny_model_dir("bert"))
    write_pairs(PAIRS, root / "v1.csv")
    write_pairs(PAIRS[:4], root / "v2.csv")
    for name, text in value.items():
        if name != "--sweep":
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    run_cli(
        "sweep-inputs", value,
        ["diff-report", "--sweep", value["--sweep"], "--no-cache", "-o", "report"],
        root, outputs=["report"], written=lambda: _report_reads_back("report"),
    )


@_fewer
@given(value=sweep_inputs())
def test_diff_report_sweep_inputs(value: dict[str, str]) -> None:
    _run_sweep_inputs(value)


def test_the_base_sweep_plan_reports() -> None:
    tomllib.loads(SWEEP_PLAN)
    for where in ("plan.toml", "sweep-out"):
        value = {"plan.toml": SWEEP_PLAN, "--sweep": where}
        if where == "sweep-out":
            value["sweep-out/sweep.json"] = '{"plan_path": "../plan.toml"}'
        _run_sweep_inputs(value)
        assert (WORK / "diff-sweep" / "report" / "report.json").is_file()


def _replay_sweep_inputs(path: Path) -> None:
    _run_sweep_inputs(load_folder_case(path.read_bytes()))


#: How a saved case of each target is replayed (tests/test_fuzz_corpus.py), by target name.
REPLAYERS: dict[str, Callable[[Path], None]] = {
    "multilingual": _replay_multilingual,
    "links": _replay_links,
    "sweep-inputs": _replay_sweep_inputs,
}


def test_the_classifier_fails_a_traceback_and_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_cli fails what a user must not see: an exception other than curate's own, and a
    command over its time budget."""
    from tests.support import fuzz_cli
    from tests.support.release_project import PAIRS

    root = _project("classifier")
    write_pairs(PAIRS, root / "pairs.csv")
    assert run_cli("t", None, ["stats", "pairs.csv"], root).exit_code == 0

    def crash(name: str) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr("curate.formats.encoding.check_encoding", crash)
    with pytest.raises(AssertionError, match="traceback"):
        run_cli("t", None, ["stats", "pairs.csv", "--encoding", "cp1252"], root)
    monkeypatch.undo()
    monkeypatch.setattr(fuzz_cli, "BUDGET", 0.001)
    with pytest.raises(AssertionError, match="ran over"):
        run_cli("t", None, ["stats", "pairs.csv"], root)
