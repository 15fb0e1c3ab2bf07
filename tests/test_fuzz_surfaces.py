"""Property-based fuzzing of the surfaces wave 3 added (issue 25): WinoBias folders, imported
score files (``curate score --import``), sweep plans, the score folders the instrument
commands read and published releases (which ``publish`` reads again to check a version and to
build the next one on it).

The property is the one of tests/test_fuzz.py: a generated or mutated input either is read (and
then what curate writes from it reads back the same) or is refused with the project's own error
(:class:`curate.errors.CurateError`); never another exception. Each target also runs the work
that follows the reader on the parsed input (lint of a WinoBias folder, the score files of an
import, the jobs of a sweep plan, the instrument statistics of score folders, the next
release), since a reader that lets a strange value through moves the crash one step later.
"""

from __future__ import annotations

import csv
import io
import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from curate.datasets import write_pairs
from tests.support.fuzzing import (
    DIR,
    HOSTILE,
    LINK,
    WORK,
    check,
    deep_nesting,
    folder_value,
    load_folder_case,
    mutate_json,
    mutate_one_file,
    mutations,
    write_folder,
    write_input,
)

# -- WinoBias folders -------------------------------------------------------------------------

#: A WinoBias sentence piece: no brackets or line breaks (those are what the mutations add).
_plain = st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="[]\n\r"
    ),
    min_size=1,
    max_size=10,
).filter(lambda s: not s[0].isspace())
_mention = _plain.map(lambda s: f"[{s}]")
_body = st.lists(_plain | _mention, min_size=1, max_size=6).map(" ".join)
_numbers = st.from_regex(r"\d{1,5}", fullmatch=True)


@st.composite
def winobias_folders(draw: st.DrawFn) -> dict[str, bytes]:
    """The pro/anti files of 1-4 subsets (line i of both numbered alike), maybe the
    occupation lists."""
    from curate.benchmarks.winobias.io import FILE_NAME, SPLITS, TYPES

    files: dict[str, bytes] = {}
    subsets = [(t, s) for t in TYPES for s in SPLITS]
    for type_, split in draw(st.lists(st.sampled_from(subsets), min_size=1, max_size=4, unique=True)):
        numbers = draw(st.lists(_numbers, min_size=1, max_size=4))
        for side in ("pro", "anti"):
            end = draw(st.sampled_from(["\n", "\r\n"]))  # Windows line ends too (issue 36)
            lines = "".join(f"{n} {draw(_body)}{end}" for n in numbers)
            files[FILE_NAME.format(side=side, type=type_, split=split)] = lines.encode("utf-8")
    if draw(st.booleans()):
        for name in ("female_occupations.txt", "male_occupations.txt"):
            files[name] = "".join(f"{w}\n" for w in draw(st.lists(_plain, max_size=3))).encode()
    return files


def _winobias_lint(dataset: Any) -> list[Any]:
    """What ``curate lint`` runs on a WinoBias folder: every rule of its profile."""
    from curate import benchmarks
    from curate.lint import LintSettings, lint_pairs
    from curate.lint.inputs import skip_unavailable
    from curate.lint.profiles import in_profile

    target = benchmarks.lint_target("winobias")
    codes = tuple(sorted(c for c in target.rules() if in_profile(c, target)))
    settings, _ = skip_unavailable(LintSettings(select=codes), dataset.fields, rules=target.rules())
    return lint_pairs(dataset.pairs, settings, target=target)


def _read_lint_write(folder: Path) -> Any:
    """Read a WinoBias folder, lint it, and check what it writes reads back unchanged."""
    from curate.benchmarks.winobias.io import read_winobias, write_files

    dataset = read_winobias(folder)
    _winobias_lint(dataset)
    written = write_files(dataset)
    again = write_folder(WORK / "wb-again", folder_value(written))
    assert write_files(read_winobias(again)) == written
    return dataset


@given(files=winobias_folders())
def test_generated_winobias_folders_write_back_byte_identical(files: dict[str, bytes]) -> None:
    from curate.benchmarks.winobias.io import write_files

    folder = write_folder(WORK / "wb-gen", folder_value(files))
    dataset = check("winobias", folder_value(files), lambda: _read_lint_write(folder))
    if dataset is None:
        return  # refused with our own sentence
    assert all(not dict(p.extra)["pro_bracket_error"] for p in dataset.pairs)
    written = write_files(dataset)
    assert written == {n: b for n, b in files.items() if "stereotyped" in n}


def _winobias_base() -> dict[str, bytes]:
    from curate.benchmarks.winobias.io import FILE_NAME

    pro = (
        "1 The [developer] argued with the designer because [he] did not like the design.\n"
        "2 The [nurse] notified the patient that [her] shift would be ending in an hour.\n"
        "3 [The mechanic] gave the clerk a present because [he] won the lottery.\n"
    )
    anti = pro.replace("[he]", "[she]").replace("[her]", "[his]")
    return {
        FILE_NAME.format(side="pro", type=1, split="dev"): pro.encode(),
        FILE_NAME.format(side="anti", type=1, split="dev"): anti.encode(),
        FILE_NAME.format(side="pro", type=2, split="test"): pro.encode(),
        FILE_NAME.format(side="anti", type=2, split="test"): anti.encode(),
        "female_occupations.txt": b"nurse\nclerk\ndesigner\n",
        "male_occupations.txt": b"developer\nmechanic\n",
    }


@given(data=st.data())
def test_mutated_winobias_folders(data: st.DataObject) -> None:
    files = _winobias_base()
    name = data.draw(st.sampled_from(sorted(files)))
    stray = False
    kind = data.draw(st.sampled_from(["mutated", "added", "legacy", "folder"]))
    folders: dict[str, str] = {}
    if kind == "mutated":
        files[name] = data.draw(mutations(files[name]))
    elif kind == "legacy":  # a legacy encoding (issue 36): refused naming the file, or read
        text = files[name].decode().replace("The", "Thé", 1)
        files[name] = text.encode(data.draw(st.sampled_from(["cp1252", "latin-1", "utf-16", "utf-8-sig"])))
    elif kind == "folder":  # a folder where a file is expected
        del files[name]
        folders[DIR + name] = ""
    else:  # a file missing, or one more: no WinoBias file, or named like one but no subset
        extra = data.draw(
            st.sampled_from(
                ["pro_stereotyped_type2.txt.dev", "notes.txt", "", "pro_stereotyped_type3.txt.dev",
                 "anti_stereotyped_type1.txt.train", "pro_stereotyped_type1.txt"]
            )
        )
        if extra:
            files[extra] = data.draw(mutations(files[name]))
            stray = extra.startswith(("pro_", "anti_")) and extra != "pro_stereotyped_type2.txt.dev"
        else:
            del files[name]
    value = {**folder_value(files), **folders}
    folder = write_folder(WORK / "wb-mut", value)
    read = check("winobias", value, lambda: _read_lint_write(folder))
    assert not (stray and read is not None), "a file named like a WinoBias file was left out"


def _replay_winobias(path: Path) -> None:
    value = load_folder_case(path.read_bytes())
    folder = write_folder(WORK / "wb-case", value)
    check("winobias", value, lambda: _read_lint_write(folder))


# -- WinoGender folders ---------------------------------------------------------------------

_gw_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
#: A WinoGender sentence: any text without the tab and line breaks that delimit its rows.
_gw_sentence = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=30
)


@st.composite
def winogender_folders(draw: st.DrawFn) -> dict[str, bytes]:
    """An all_sentences.tsv of 1-3 complete triples (some without their neutral sentence, in
    any row order), maybe the templates and the statistics files."""
    triples = draw(st.lists(st.tuples(_gw_word, _gw_word, st.sampled_from("01")), min_size=1, max_size=3, unique=True))
    rows = []
    for occupation, participant, answer in triples:
        for variant in (participant, "someone"):
            for gender in draw(st.sampled_from([("male", "female", "neutral"), ("male", "female")])):
                rows.append(f"{occupation}.{variant}.{answer}.{gender}.txt\t{draw(_gw_sentence)}")
    rows = draw(st.permutations(rows))
    end = draw(st.sampled_from(["\n", ""]))
    files = {"all_sentences.tsv": ("sentid\tsentence\n" + "\n".join(rows) + end).encode("utf-8")}
    if draw(st.booleans()):
        files["templates.tsv"] = (
            "occupation(0)\tother-participant(1)\tanswer\tsentence\n"
            + "".join(f"{o}\t{p}\t{a}\tThe $OCCUPATION met the $PARTICIPANT and $NOM_PRONOUN left.\n" for o, p, a in triples)
        ).encode("utf-8")
    if draw(st.booleans()):
        figures = st.floats(0, 100, allow_nan=False).map(lambda x: f"{x:.2f}")
        files["occupations-stats.tsv"] = (
            "occupation\tbergsma_pct_female\tbls_pct_female\tbls_year\n"
            + "".join(f"{o}\t{draw(figures)}\t{draw(figures)}\t2015\n" for o in dict.fromkeys(t[0] for t in triples))
        ).encode("utf-8")
    return files


def _winogender_lint(dataset: Any) -> list[Any]:
    """What ``curate lint`` runs on a WinoGender folder: every rule of its profile."""
    from curate import benchmarks
    from curate.lint import LintSettings, lint_pairs
    from curate.lint.inputs import skip_unavailable
    from curate.lint.profiles import in_profile

    target = benchmarks.lint_target("winogender")
    codes = tuple(sorted(c for c in target.rules() if in_profile(c, target)))
    settings, _ = skip_unavailable(LintSettings(select=codes), dataset.fields, rules=target.rules())
    items = target.profile.items(dataset) if target.profile.items else None
    return lint_pairs(dataset.pairs, settings, items=items, target=target)


def _read_lint_write_winogender(folder: Path) -> Any:
    """Read a WinoGender folder, lint it, stats it, and check what it writes reads back unchanged."""
    from curate.benchmarks.winogender.io import read_winogender, write_files
    from curate.benchmarks.winogender.stats import winogender_stats

    dataset = read_winogender(folder)
    _winogender_lint(dataset)
    winogender_stats(dataset.pairs)
    written = write_files(dataset)
    again = write_folder(WORK / "wg-again", folder_value(written))
    assert write_files(read_winogender(again)) == written
    return dataset


@given(files=winogender_folders())
def test_generated_winogender_folders_write_back_byte_identical(files: dict[str, bytes]) -> None:
    from curate.benchmarks.winogender.io import write_files

    folder = write_folder(WORK / "wg-gen", folder_value(files))
    dataset = check("winogender", folder_value(files), lambda: _read_lint_write_winogender(folder))
    if dataset is None:
        return  # refused with our own sentence
    assert write_files(dataset) == files


def _winogender_base() -> dict[str, bytes]:
    sentences = ["sentid\tsentence"]
    for answer, rest in (("0", "had completed the repair"), ("1", "could pay with cash")):
        for variant, who in (("customer", "the customer"), ("someone", "someone")):
            for gender, pronoun in (("male", "he"), ("female", "she"), ("neutral", "they")):
                sentences.append(f"technician.{variant}.{answer}.{gender}.txt\tThe technician told {who} that {pronoun} {rest}.")
    return {
        "all_sentences.tsv": ("\n".join(sentences) + "\n").encode(),
        "templates.tsv": (
            b"occupation(0)\tother-participant(1)\tanswer\tsentence\n"
            b"technician\tcustomer\t1\tThe $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN could pay with cash.\n"
            b"technician\tcustomer\t0\tThe $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN had completed the repair.\n"
        ),
        "occupations-stats.tsv": b"occupation\tbergsma_pct_female\tbls_pct_female\tbls_year\ntechnician\t9.42\t40.34\t2015\n",
    }


@given(data=st.data())
def test_mutated_winogender_folders(data: st.DataObject) -> None:
    files = _winogender_base()
    mutate_one_file(data, files)
    value = folder_value(files)
    folder = write_folder(WORK / "wg-mut", value)
    check("winogender", value, lambda: _read_lint_write_winogender(folder))


def _replay_winogender(path: Path) -> None:
    value = load_folder_case(path.read_bytes())
    folder = write_folder(WORK / "wg-case", value)
    check("winogender", value, lambda: _read_lint_write_winogender(folder))


# -- imported scores (curate score --import) --------------------------------------------------

#: metric.py's output columns (pandas' unnamed index column first).
METRIC_PY_HEADER = (
    "", "sent_more", "sent_less", "sent_more_score", "sent_less_score", "score",
    "stereo_antistereo", "bias_type",
)


def _published_csv() -> bytes:
    """A metric.py output for the pairs of tests/support/release_project.py (column order
    swapped on the antistereo row, as metric.py writes it)."""
    from tests.support.release_project import PAIRS

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(METRIC_PY_HEADER)
    for n, pair in enumerate(PAIRS):
        more, less = -10.0 - n, -11.5 + n * 0.75
        score = int(more > less)
        writer.writerow(
            (n, pair.sent_more, pair.sent_less, more, less, score, pair.direction, pair.bias_type)
        )
    return out.getvalue().encode("utf-8")


_cells = st.sampled_from(HOSTILE) | st.floats().map(repr) | st.integers().map(str) | st.text(max_size=6)


@st.composite
def csv_edits(draw: st.DrawFn, base: bytes) -> bytes:
    """A CSV with bytes mutated, or one cell replaced by a hostile or odd value (the file
    stays a CSV, so the reader's checks of the values are what is tried)."""
    if draw(st.booleans()):
        return draw(mutations(base))
    rows = list(csv.reader(io.StringIO(base.decode("utf-8"))))
    row = draw(st.integers(0, len(rows) - 1))
    column = draw(st.integers(0, len(rows[row]) - 1))
    rows[row][column] = draw(_cells)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode("utf-8", "surrogatepass")


def _import_and_write(path: Path, prefer: str) -> Any:
    """What ``score --import`` does: import, summarise, write the column, read it back."""
    from curate.score.files import read_scores_csv
    from curate.score.imported import import_scores, import_summary, write_import
    from tests.support.release_project import PAIRS

    result = import_scores(path, PAIRS, data="pairs.csv", prefer=prefer)
    summary = import_summary(
        result, label="m", source="metric.py", path=path,
        data={"file": "pairs.csv", "sha256": "0" * 64}, threshold=5.0,
    )
    json.dumps(summary, allow_nan=False)  # summary.json must be strict JSON
    target = WORK / "import-out"
    write_import(result, summary, target)
    assert read_scores_csv(target / "scores.csv") == list(result.scores)
    return result


@given(raw=csv_edits(_published_csv()), prefer=st.sampled_from(["auto", "higher", "lower"]))
def test_mutated_imported_scores(raw: bytes, prefer: str) -> None:
    path = write_input("published.csv", raw)
    check("import", raw, lambda: _import_and_write(path, prefer))


def test_the_base_published_file_imports() -> None:
    from tests.support.release_project import PAIRS

    result = _import_and_write(write_input("published.csv", _published_csv()), "auto")
    assert result.prefer == "higher" and len(result.scores) == len(PAIRS)


def _replay_import(path: Path) -> None:
    raw = path.read_bytes()
    target = write_input("published.csv", raw)
    check("import", raw, lambda: _import_and_write(target, "auto"))


# -- sweep plans ------------------------------------------------------------------------------


def _plan_project() -> Path:
    """A folder with two dataset versions and links to two tiny models (the plan names them
    by relative paths, so a saved case holds no path of this machine)."""
    from tests.support.release_project import PAIRS
    from tests.support.tiny_models import tiny_model_dir

    root = WORK / "plan-project"
    if not (root / "models").is_dir():
        (root / "models").mkdir(parents=True)
        for family in ("bert", "gpt2"):
            (root / "models" / family).symlink_to(tiny_model_dir(family))
        write_pairs(PAIRS, root / "v1.csv")
        write_pairs(PAIRS[:3], root / "v2.csv")
    return root


BASE_PLAN = """output = "out"
cache = "cache.sqlite"
batch-size = 4
threshold = 5
max-retries = 1

[[model]]
name = "models/bert"
label = "bert"
methods = ["pll", "aul"]
dtype = "float32"
device = "cpu"

[[model]]
name = "models/gpt2"
num-cpus = 1

[[version]]
label = "v1"
data = "v1.csv"

[[version]]
label = "v2"
data = "v2.csv"
input-format = "csv"
"""

#: Values a plan key may well hold (so that edited plans often still parse and plan jobs).
_plan_leaves = st.sampled_from(
    [
        "pll", ["pll", "aul"], ["clm-sum"], [], ["nope"], "models/bert", "models/gpt2", "v1.csv",
        "v2.csv", "raw", "../v1.csv", "csv", "winobias", "cpu", "cuda", "bfloat16", "out",
        "../out", "/", ".", "a b", 0, 1, 2, 0.5, 1e300, float("nan"), float("inf"), -float("inf"),
        True, {"label": "x", "data": "v1.csv"},
        [{"name": "models/bert"}], [{"label": "v3", "data": "v2.csv"}],
    ]
)
#: TOML can hold every JSON value but null.
toml_values = _plan_leaves | st.recursive(
    st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats() | st.text(max_size=8)
    | st.sampled_from(HOSTILE),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def _plan_jobs(path: Path) -> Any:
    """What ``curate sweep`` does before any model loads: check the plan, read its versions
    and plan every job (a model that does not fit is a failed job, not an exception)."""
    from curate.sweep.plan import load_plan
    from curate.sweep.run import _read_versions, plan_groups

    plan = load_plan(path)
    pair_versions, _own_route, _benchmarks = _read_versions(plan)
    versions = [version for version, _, _ in pair_versions]
    _groups, statuses, order = plan_groups(plan, versions, "local")
    assert set(order) == set(statuses)
    return plan


def _edited_plan(data: st.DataObject) -> dict[str, Any]:
    """The base plan with 1-3 known keys (of the top table, a model or a version) set to
    plausible values or removed: plans a user might write, most of which still plan jobs."""
    from curate.sweep.plan import _MODEL, _TOP, _VERSION

    document = tomllib.loads(BASE_PLAN)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(["top", "model", "version"]))
        if where == "top":
            table, keys = document, [k for k in _TOP if k not in ("model", "version")]
        else:
            tables = document.setdefault(where, [{}])
            table = tables[data.draw(st.integers(0, len(tables) - 1))]
            keys = list(_MODEL if where == "model" else _VERSION)
        key = data.draw(st.sampled_from(keys))
        if data.draw(st.integers(0, 4)) == 0:
            table.pop(key, None)
        else:
            table[key] = data.draw(_plan_leaves)
    return document


@given(data=st.data())
def test_mutated_sweep_plans(data: st.DataObject) -> None:
    import tomli_w

    root = _plan_project()
    kind = data.draw(st.sampled_from(["bytes", "any value", "known keys", "deep"]))
    if kind == "bytes":
        raw = data.draw(mutations(BASE_PLAN.encode("utf-8")))
    elif kind == "deep":  # arrays or inline tables nested up to thousands deep (issue 36)
        raw = data.draw(deep_nesting(BASE_PLAN.encode("utf-8")))
    elif kind == "any value":  # one value somewhere replaced by any TOML value
        document = mutate_json(data, tomllib.loads(BASE_PLAN), toml_values)
        raw = tomli_w.dumps(document).encode("utf-8", "surrogatepass")
    else:
        raw = tomli_w.dumps(_edited_plan(data)).encode("utf-8")
    path = root / "plan.toml"
    path.write_bytes(raw)
    plan = check("plan", raw, lambda: _plan_jobs(path))
    if plan is not None:  # the oracle of issue 36: a model whose methods list is empty is refused
        # read as the plan reader reads it: text with universal newlines (a bare CR ends a line)
        text = raw.decode("utf-8", "surrogatepass").replace("\r\n", "\n").replace("\r", "\n")
        document = tomllib.loads(text)
        assert all(m.get("methods") != [] for m in document.get("model", [])), "methods = [] ran"


def test_the_base_plan_plans_every_job() -> None:
    path = _plan_project() / "plan.toml"
    path.write_text(BASE_PLAN, encoding="utf-8")
    plan = _plan_jobs(path)
    assert [m.label for m in plan.models] == ["bert", "gpt2"]


def _replay_plan(path: Path) -> None:
    raw = path.read_bytes()
    target = _plan_project() / "plan.toml"
    target.write_bytes(raw)
    check("plan", raw, lambda: _plan_jobs(target))


# -- score folders the instrument commands read -----------------------------------------------

MODELS = ("m1", "m2", "m3")
METHODS = ("pll", "aul")


def _score_folders() -> dict[str, bytes]:
    """Score folders of three models x two methods on data.csv, and a StereoSet result."""
    from curate.fileio import sha256_file
    from curate.score.files import format_scores_csv
    from curate.score.metrics import PairScore
    from tests.support.release_project import PAIRS

    data = WORK / "instrument-data.csv"
    if not data.is_file():
        write_pairs(PAIRS, data)
    sha = sha256_file(data)
    (WORK / "ss.json").write_text("{}", encoding="utf-8")  # the StereoSet file results name
    ss_sha = sha256_file(WORK / "ss.json")
    files: dict[str, bytes] = {}
    for m, model in enumerate(MODELS):
        for k, method in enumerate(METHODS):
            scores = [
                PairScore(p.pair_id, p.sent_more, p.sent_less, -5.0 - ((n + m + k) % 3), -6.0 + n * 0.5,
                          p.direction, p.bias_type)
                for n, p in enumerate(PAIRS)
            ]
            summary = {
                "data": {"file": "instrument-data.csv", "sha256": sha},
                "model": model, "method": method, "summary": {},
            }
            files[f"{model}/{method}/scores.csv"] = format_scores_csv(scores).encode("utf-8")
            files[f"{model}/{method}/summary.json"] = json.dumps(summary, indent=2).encode()
        stereoset = {
            "model": model, "method": "stereoset-mlm",
            "data": {"file": "ss.json", "sha256": ss_sha},
            "results": {"overall": {"ss": 50.0 + 3 * m, "lms": 90.0, "icat": 80.0}},
        }
        files[f"{model}/stereoset-mlm/stereoset.json"] = json.dumps(stereoset).encode()
    return files


def _instrument(root: Path) -> Any:
    """What the instrument commands do with score folders: find the columns, match them to
    the data file, compute consistency and convergent validity, render the reports (with
    few bootstrap resamples: the property is about what is read, not the intervals' width)."""
    from unittest.mock import patch

    from curate.datasets import read_dataset
    from curate.instrument import stats
    from curate.instrument.consistency import consistency_report
    from curate.instrument.report import render_json
    from curate.instrument.scores import columns_for, find_score_columns, find_stereoset_results
    from curate.instrument.validity import convergent_validity

    data = WORK / "instrument-data.csv"
    columns = find_score_columns([root])
    results = find_stereoset_results([root])
    columns_for(data, columns)
    with patch.object(stats, "RESAMPLES", 49):
        report, _ = consistency_report([(data, read_dataset(data))], columns, splits=10)
        json.loads(render_json(report))
        report = convergent_validity([data, WORK / "ss.json"], columns, results)
        json.loads(render_json(report))
    return columns


@given(data=st.data())
def test_mutated_instrument_score_folders(data: st.DataObject) -> None:
    files = _score_folders()
    mutate_one_file(data, files, {".csv": csv_edits})
    value = folder_value(files)
    folder = write_folder(WORK / "scores", value)
    check("instrument", value, lambda: _instrument(folder))


def test_the_base_score_folders_give_every_column() -> None:
    value = folder_value(_score_folders())
    columns = _instrument(write_folder(WORK / "scores", value))
    assert sorted(c.key for c in columns) == sorted((m, k) for m in MODELS for k in METHODS)


def _replay_instrument(path: Path) -> None:
    _score_folders()  # the data file the summaries name
    value = load_folder_case(path.read_bytes())
    folder = write_folder(WORK / "scores", value)
    check("instrument", value, lambda: _instrument(folder))


# -- published releases -----------------------------------------------------------------------

#: The files of release 1.0.0 of the release project, built once per process.
_RELEASE: dict[str, bytes] = {}


def _release_project() -> tuple[Any, dict[str, bytes]]:
    """A project with 1.0.0 published (its dist files returned) and the recipe of 1.1.0,
    whose ``previous`` is 1.0.0: the two commands that read a published release."""
    from curate.config import load_config
    from curate.release.publish import publish
    from tests.support.release_project import make_project, raw_sha, recipe_text, write_recipe

    root = WORK / "release-project"
    if not _RELEASE:
        cfg = make_project(root)
        write_recipe(cfg, "1.0.0", recipe_text(raw_sha(cfg), title="Autofixes"))
        write_recipe(cfg, "1.1.0", recipe_text(raw_sha(cfg), previous="1.0.0", title="Next"))
        dist = publish(cfg, "1.0.0").dist
        _RELEASE.update(
            (str(p.relative_to(dist)), p.read_bytes())
            for p in sorted(dist.rglob("*"))
            if p.is_file()
        )
    return load_config(root), dict(_RELEASE)


def _republish(value: dict[str, str]) -> None:
    """Put ``value`` in place of 1.0.0's dist, then check 1.0.0 again and build 1.1.0 on it:
    each either works or says in one sentence what is wrong with the published files."""
    import shutil

    from curate.errors import CurateError
    from curate.release.publish import publish
    from curate.release.versions import dist_dir

    cfg, files = _release_project()
    shutil.rmtree(dist_dir(cfg, "1.1.0"), ignore_errors=True)
    write_folder(dist_dir(cfg, "1.0.0"), value)
    foreign = sorted(k for k in value if k not in files)  # added files, folders, links
    try:
        publish(cfg, "1.0.0")
    except CurateError:
        pass
    else:  # the oracle of issue 36: an added entry or a link is an edit, never "unchanged"
        assert not foreign, f"publish accepted a release folder holding {foreign}"
    publish(cfg, "1.1.0")


_entry_names = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,11}", fullmatch=True)


@given(data=st.data())
def test_mutated_releases(data: st.DataObject) -> None:
    from curate.release.publish import SUMS_NAME, format_sums

    _, files = _release_project()
    added: dict[str, str] = {}
    if data.draw(st.integers(0, 3)) == 0:  # an entry added or a file linked (issue 36)
        name = data.draw(st.sampled_from(sorted(files)))
        folder = name.rpartition("/")[0]
        kind = data.draw(st.sampled_from(["file", "folder", "link", "link outside"]))
        new = f"{folder + '/' if folder and data.draw(st.booleans()) else ''}{data.draw(_entry_names)}"
        if kind == "file" and new not in files:
            added[new] = data.draw(st.sampled_from(["task: evil\n", "", "1,2\n"]))
        elif kind == "folder" and new not in files:
            added[DIR + new] = ""
        elif kind == "link":  # to a byte-identical copy in the project, then delete the file
            copy = WORK / "release-copies" / name.replace("/", "_")
            copy.parent.mkdir(exist_ok=True)
            copy.write_bytes(files.pop(name))
            added[LINK + name] = str(copy)
        else:
            added[LINK + name] = "/dev/null" if data.draw(st.booleans()) else "../../../../nowhere"
            files.pop(name)
    else:
        name = mutate_one_file(data, files)
        if name != SUMS_NAME and data.draw(st.booleans()):  # edited and resealed
            files[SUMS_NAME] = format_sums({k: v for k, v in files.items() if k != SUMS_NAME}).encode()
    value = {**folder_value(files), **added}
    check("release", value, lambda: _republish(value))


def test_the_base_release_republishes_unchanged() -> None:
    from curate.release.publish import publish

    cfg, files = _release_project()
    _republish(folder_value(files))
    assert publish(cfg, "1.0.0").status == "unchanged"


def _replay_release(path: Path) -> None:
    value = load_folder_case(path.read_bytes())
    check("release", value, lambda: _republish(value))


#: How a saved case of each target is replayed (tests/test_fuzz_corpus.py), by target name.
REPLAYERS: dict[str, Callable[[Path], None]] = {
    "winobias": _replay_winobias,
    "winogender": _replay_winogender,
    "import": _replay_import,
    "plan": _replay_plan,
    "instrument": _replay_instrument,
    "release": _replay_release,
}
