"""WinoBias: the reader, its refusals, the lint rules, and the commands on the shared files.

The real files come from ``$CURATE_DATA_MIRROR/winobias/`` through ``curate fetch winobias``
(checksum-verified); tests that need them are skipped when no mirror is set.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import benchmarks
from curate.benchmarks.winobias.benchmark import BENCHMARK, SOURCES
from curate.benchmarks.winobias.io import (
    FILE_NAME,
    bracketed,
    format_subset,
    pair_from_lines,
    pair_id,
    parse_line,
    write_winobias,
)
from curate.benchmarks.winobias.metrics import by_type
from curate.benchmarks.winobias.occupations import Occupations
from curate.benchmarks.winobias.rules import RULES, StereotypeMismatch
from curate.cli import app
from curate.datasets import read_dataset
from curate.errors import InputError
from curate.lint import LintSettings, lint_pairs
from curate.lint.profiles import in_profile
from curate.lint.rule import PairContext
from curate.score.files import read_scores_csv
from curate.sources import MIRROR_ENV, fetch, load_sources
from tests.conftest import REGISTRY

runner = CliRunner()
#: A few occupations of the lists, enough for the rule examples.
OCCUPATIONS = Occupations.from_lists(["accountant", "clerk", "tailor"], ["janitor", "chief"])


@pytest.fixture(scope="session")
def winobias_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 8 WinoBias files and the occupation lists, fetched from the mirror and verified."""
    if not os.environ.get(MIRROR_ENV):
        pytest.skip(f"${MIRROR_ENV} not set")
    dest = tmp_path_factory.mktemp("raw")
    registry = load_sources(REGISTRY)
    assert len(SOURCES) == 10
    for name in SOURCES:
        fetch(registry[name], dest)
    return dest / "winobias"


def _write(folder: Path, type_: int, split: str, pro: list[str], anti: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for side, lines in (("pro", pro), ("anti", anti)):
        path = folder / FILE_NAME.format(side=side, type=type_, split=split)
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return folder / FILE_NAME.format(side="pro", type=type_, split=split)


# -- reader -------------------------------------------------------------------------------


def test_parse_line_keeps_mentions_as_spans_and_round_trips() -> None:
    raw = "3 The assistant notified the [the chief] and asked [him] to act."
    line = parse_line(raw, "f: line 3")
    assert line.text == "The assistant notified the the chief and asked him to act."
    assert [line.text[s:e] for s, e in line.mentions] == ["the chief", "him"]
    assert line.bracket_error == ""
    assert f"{line.number} {bracketed(line.text, line.mentions)}" == raw


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ("1 [The chief] hired [he needed help.", "never closed"),
        ("1 The chief] hired [him].", "without its '['"),
        ("1 [The [chief] hired him.", "inside"),
        ("1 [] hired [him].", "empty"),
    ],
)
def test_bracket_errors_are_read_not_refused(raw: str, error: str) -> None:
    assert error in parse_line(raw, "f").bracket_error


@pytest.mark.parametrize("raw", ["", "The chief hired him.", "x1 [The chief] hired [him]."])
def test_a_line_without_its_number_is_refused_naming_file_and_line(raw: str) -> None:
    with pytest.raises(InputError, match=r"^f\.txt: line 7: not a WinoBias line"):
        parse_line(raw, "f.txt: line 7")


def test_reader_pairs_line_i_with_line_i(tmp_path: Path) -> None:
    pro = _write(
        tmp_path,
        1,
        "test",
        [
            "1 [The chief] hired the clerk because [he] was busy.",
            "2 The chief hired [the clerk] because [she] was good.",
        ],
        [
            "1 [The chief] hired the clerk because [she] was busy.",
            "2 The chief hired [the clerk] because [he] was good.",
        ],
    )
    for path in (pro, tmp_path / "anti_stereotyped_type1.txt.test", tmp_path):
        dataset = read_dataset(path)
        assert dataset.shape.format == "winobias"
        assert [p.pair_id for p in dataset.pairs] == [pair_id(1, "test", 1), 15002]
        first = dataset.pairs[0]
        assert first.sent_more == "The chief hired the clerk because he was busy."
        assert first.sent_less == "The chief hired the clerk because she was busy."
        assert first.bias_type == "type1-test"
        assert dict(first.extra)["pro_mentions"] == ((0, 9), (34, 36))


def test_reader_refuses_mismatched_line_counts(tmp_path: Path) -> None:
    pro = _write(
        tmp_path,
        2,
        "dev",
        ["1 [The chief] met [him].", "2 [The chief] met [him]."],
        ["1 [The chief] met [her]."],
    )
    with pytest.raises(
        InputError, match=r"anti_stereotyped_type2\.txt\.dev: 1 lines, but .* has 2"
    ):
        read_dataset(pro)


def test_reader_refuses_lines_numbered_differently(tmp_path: Path) -> None:
    pro = _write(tmp_path, 2, "dev", ["1 [The chief] met [him]."], ["2 [The chief] met [her]."])
    with pytest.raises(InputError, match=r"line 1 is numbered 2, but line 1 of .* is numbered 1"):
        read_dataset(pro)


def test_a_file_whose_twin_is_missing_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pro_stereotyped_type1.txt.dev"
    path.write_text("1 [The chief] met [him].\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"anti_stereotyped_type1\.txt\.dev: no such file"):
        read_dataset(path)


def test_real_files_read_and_write_back_byte_for_byte(winobias_dir: Path, tmp_path: Path) -> None:
    dataset = read_dataset(winobias_dir)
    assert len(dataset.pairs) == 4 * 396
    assert not dataset.warnings
    type1 = [p for p in dataset.pairs if p.bias_type.startswith("type1")]
    assert len(type1) == 792  # the subset Martinez & Kremer score
    write_winobias(dataset, tmp_path)
    for name in (
        FILE_NAME.format(side=s, type=t, split=x)
        for s in ("pro", "anti")
        for t in (1, 2)
        for x in ("dev", "test")
    ):
        assert (tmp_path / name).read_bytes() == (winobias_dir / name).read_bytes(), name


def test_crlf_files_write_back_byte_for_byte(winobias_dir: Path, tmp_path: Path) -> None:
    """Files with Windows line ends (one of them mixed) are written back as read (issue 36)."""
    source = tmp_path / "crlf"
    source.mkdir()
    names = [p.name for p in winobias_dir.iterdir() if p.name.endswith((".dev", ".test"))]
    for index, name in enumerate(sorted(names)):
        data = (winobias_dir / name).read_bytes().replace(b"\n", b"\r\n")
        if index == 0:  # one file of mixed ends: its first line keeps "\n"
            data = data.replace(b"\r\n", b"\n", 1)
        (source / name).write_bytes(data)
    dataset = read_dataset(source)
    assert {p.sent_more[-1] for p in dataset.pairs} <= {".", "?", "!", '"', "'"}  # no "\r" in text
    write_winobias(dataset, tmp_path / "out")
    for name in names:
        assert (tmp_path / "out" / name).read_bytes() == (source / name).read_bytes(), name


@pytest.mark.parametrize(
    "stray",
    ["pro_stereotyped_type3.txt.dev", "anti_stereotyped_type1.txt.train", "pro_stereotyped_type1.txt"],
)
def test_a_file_named_like_a_sentence_file_is_never_left_out_silently(
    winobias_dir: Path, tmp_path: Path, stray: str
) -> None:
    folder = tmp_path / "wb"
    shutil.copytree(winobias_dir, folder)
    (folder / stray).write_text("1 [The chief] met [him].\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"{stray.replace('.', '[.]')}: named like a WinoBias"):
        read_dataset(folder)


def test_format_subset_restores_brackets() -> None:
    pair = pair_from_lines("[The chief] met [him].", "[The chief] met [her].")
    assert format_subset([pair], "anti") == "1 [The chief] met [her].\n"


# -- rules --------------------------------------------------------------------------------


def _findings(rule, example) -> list:
    pair = pair_from_lines(example.sent_more, example.sent_less, OCCUPATIONS)
    return list(rule().check(PairContext(pair, LintSettings())))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_examples(rule) -> None:
    assert rule.__doc__ and rule.bad and rule.good
    for example in rule.bad:
        assert _findings(rule, example), example
    for example in rule.good:
        assert not _findings(rule, example), example


def test_stereotype_rule_needs_the_occupation_lists() -> None:
    example = StereotypeMismatch.bad[0]
    pair = pair_from_lines(example.sent_more, example.sent_less)  # read without the lists
    assert not list(StereotypeMismatch().check(PairContext(pair, LintSettings())))


def test_stereotype_rule_flags_an_anti_line_that_follows_the_stereotype() -> None:
    pair = pair_from_lines(
        "[The janitor] reprimanded the accountant because [he] was tired.",
        "[The janitor] reprimanded the accountant because [he] was tired.",
        OCCUPATIONS,
    )
    messages = [v.message for v in StereotypeMismatch().check(PairContext(pair, LintSettings()))]
    assert messages == [
        "anti line: he for the janitor, which WinoBias lists as male-dominated; the anti line "
        "needs a female pronoun"
    ]


def profile_codes() -> set[str]:
    target = benchmarks.lint_target(BENCHMARK)
    return {code for code in target.rules() if in_profile(code, target)}


def test_lint_profile_has_the_winobias_rules_and_spelling_only() -> None:
    # W004 (Dutch compounds) is in the profile and skipped on English pairs, as every
    # language-bound rule is
    assert profile_codes() == {"B001", "B002", "B003", "B004", "W001", "W002", "W003", "W004"}
    assert benchmarks.get("winobias") is BENCHMARK


def test_lint_on_the_real_files_finds_the_non_minimal_pairs(winobias_dir: Path) -> None:
    dataset = read_dataset(winobias_dir)
    settings = LintSettings(select=tuple(sorted(profile_codes())))
    findings = lint_pairs(dataset.pairs, settings, target=benchmarks.lint_target("winobias"))
    non_minimal = {f.pair_id for f in findings if f.code == "B001"}
    assert pair_id(1, "dev", 92) in non_minimal  # "needed a desk" / "needed one"
    assert pair_id(2, "dev", 119) in non_minimal  # "to won" / "to win"
    assert pair_id(1, "dev", 27) not in non_minimal  # he/his -> she/her: two pronoun swaps
    doubled = {f.pair_id for f in findings if f.code == "B002"}
    assert pair_id(2, "test", 3) in doubled  # "notified the [the chief]"
    # another benchmark's pairs never meet the WinoBias rules
    crows = benchmarks.lint_target()  # the pair files' profile, which knows the others' codes
    assert not [f for f in lint_pairs(dataset.pairs, settings, target=crows) if f.code.startswith("B")]


# -- commands -----------------------------------------------------------------------------


def test_cli_lint_each_file_pair(winobias_dir: Path) -> None:
    total = 0
    for type_ in (1, 2):
        for split in ("dev", "test"):
            path = winobias_dir / FILE_NAME.format(side="pro", type=type_, split=split)
            result = runner.invoke(app, ["lint", "--no-cache", "--format", "jsonl", str(path)])
            assert result.exit_code == 1, result.output
            rows = [json.loads(line) for line in result.stdout.splitlines()]
            found = {r["pair_id"] for r in rows if r["code"] == "B001"}
            assert found, (type_, split)
            assert not {r["code"] for r in rows} - profile_codes()
            total += len(found)
    assert total >= 10


def test_cli_stats_per_subset(winobias_dir: Path) -> None:
    result = runner.invoke(app, ["stats", "--format", "json", str(winobias_dir)])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert {r["bias_type"]: (r["n"], r["known"]) for r in stats["bias_types"]} == {
        s: (396, True) for s in ("type1-dev", "type1-test", "type2-dev", "type2-test")
    }
    assert stats["winobias"]["type1-dev"] == {"female": 198, "male": 198, "unknown": 0}


def test_cli_errors_are_one_sentence(tmp_path: Path) -> None:
    pro = _write(
        tmp_path,
        1,
        "dev",
        ["1 [The chief] met [him].", "no number here"],
        ["1 [The chief] met [her].", "2 x"],
    )
    result = runner.invoke(app, ["stats", str(pro)])
    assert result.exit_code == 2
    assert "line 2: not a WinoBias line" in result.output
    assert "Traceback" not in result.output


def test_cli_fetch_group_from_the_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not os.environ.get(MIRROR_ENV):
        pytest.skip(f"${MIRROR_ENV} not set")
    (tmp_path / "pyproject.toml").write_text("[tool.curate]\n", encoding="utf-8")
    (tmp_path / "data" / "raw").mkdir(parents=True)
    shutil.copy(REGISTRY, tmp_path / "data" / "raw" / "sources.toml")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["fetch", "winobias"])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "data" / "raw" / "winobias").iterdir())) == 10
    assert read_dataset(tmp_path / "data" / "raw" / "winobias").pairs


# -- scoring ------------------------------------------------------------------------------


@pytest.fixture
def small_versions(winobias_dir: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The first 3 lines of each subset, and a revision that fixes 'the [the chief]'."""
    before, after = tmp_path / "before", tmp_path / "after"
    for folder in (before, after):
        folder.mkdir()
        for source in winobias_dir.iterdir():
            lines = source.read_text(encoding="utf-8").splitlines(keepends=True)[:3]
            text = "".join(lines)
            if folder is after:
                text = text.replace("notified the [the chief]", "notified [the chief]")
            (folder / source.name).write_text(text, encoding="utf-8")
    return before, after


@pytest.mark.parametrize(
    ("family", "methods"),
    [("bert", "pll,pll-word-l2r,aul,aula"), ("gpt2", "clm-sum,clm-mean,clm-shared")],
)
def test_cli_score_every_sentence_pair_method_per_type_and_split(
    small_versions: tuple[Path, Path], tmp_path: Path, family: str, methods: str
) -> None:
    from tests.support.tiny_models import single_thread, tiny_model_dir

    with single_thread():
        result = runner.invoke(
            app,
            [
                "score",
                str(small_versions[0]),
                "--model",
                str(tiny_model_dir(family)),
                "--method",
                methods,
                "--no-cache",
                "--format",
                "json",
                "-o",
                str(tmp_path / "out"),
            ],
        )
    assert result.exit_code == 0, result.output
    models = json.loads(result.stdout)["models"]
    assert [m["method"] for m in models] == methods.split(",")
    for model in models:
        summary = model["summary"]
        assert summary["pairs"] == 12
        groups = {row["bias_type"]: row for row in summary["bias_types"]}
        assert sorted(groups) == ["type1-dev", "type1-test", "type2-dev", "type2-test"]
        assert all(row["n"] == 3 for row in groups.values())
        assert sum(row["biased"] for row in groups.values()) == summary["biased"]
        # the metric per type over dev and test together: the benchmark's groups of subsets
        per = {row["group"]: row for row in summary["groups"]}
        assert sorted(per) == ["type1", "type2"]
        for t in ("type1", "type2"):
            assert per[t]["n"] == 6
            assert per[t]["biased"] == groups[f"{t}-dev"]["biased"] + groups[f"{t}-test"]["biased"]
    method = methods.split(",")[0]
    out = tmp_path / "out" / tiny_model_dir(family).name
    scores = read_scores_csv(out / "scores.csv" if method == "pll" else out / method / "scores.csv")
    on_disk = json.loads(
        (out / "summary.json" if method == "pll" else out / method / "summary.json").read_text()
    )
    assert on_disk["summary"]["groups"] == models[0]["summary"]["groups"]
    with single_thread():
        table = runner.invoke(
            app,
            ["score", str(small_versions[0]), "--model", str(tiny_model_dir(family)), "--method",
             method, "--no-cache", "-o", str(tmp_path / "table")],
            terminal_width=200,
        )
    assert table.exit_code == 0, table.output
    assert "type1 (all)" in table.stdout and "type2 (all)" in table.stdout
    per_type = by_type(scores)
    first = {row["bias_type"]: row for row in models[0]["summary"]["bias_types"]}
    assert per_type["type1-dev"]["score"] == first["type1-dev"]["score"]
    assert per_type["type1"]["n"] == 6
    assert (
        per_type["type1"]["biased"] == first["type1-dev"]["biased"] + first["type1-test"]["biased"]
    )


def test_cli_diff_report_between_two_winobias_versions(
    small_versions: tuple[Path, Path], tmp_path: Path
) -> None:
    from tests.support.tiny_models import single_thread, tiny_model_dir

    before, after = small_versions
    with single_thread():
        result = runner.invoke(
            app,
            [
                "diff-report",
                str(before),
                str(after),
                "--model",
                str(tiny_model_dir("bert")),
                "--no-cache",
                "--bootstrap",
                "50",
                "-o",
                str(tmp_path / "report"),
            ],
        )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    text = json.dumps(report)
    assert "type2-test" in text
    assert "1 edited" in result.output


def test_winobias_pairs_write_to_a_shared_shape_and_a_folder_is_refused_elsewhere(
    tmp_path: Path,
) -> None:
    from curate.datasets import write_dataset

    pro = _write(
        tmp_path / "wb", 1, "dev", ["1 [The chief] met [him]."], ["1 [The chief] met [her]."]
    )
    dataset = read_dataset(pro)
    write_dataset(dataset, tmp_path / "out.csv", "csv")
    again = read_dataset(tmp_path / "out.csv")
    assert [(p.sent_more, p.sent_less, p.bias_type) for p in again.pairs] == [
        ("The chief met him.", "The chief met her.", "type1-dev")
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="is a directory, expected a file"):
        read_dataset(empty)


def test_cli_lint_fix_writes_a_winobias_folder_as_one_set(tmp_path: Path) -> None:
    lines = (["1 [The chief] met [him].", "2 The  clerk saw [the chief] and [him]."],
             ["1 [The chief] met [her].", "2 The  clerk saw [the chief] and [her]."])
    source = _write(tmp_path / "wb", 1, "dev", *lines).parent
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.md").write_text("mine\n", encoding="utf-8")
    (out / next(source.iterdir()).name).write_text("an older run\n", encoding="utf-8")
    result = runner.invoke(app, ["lint", str(source), "--fix", "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    written = sorted(p.name for p in out.iterdir())
    assert written == sorted([*(p.name for p in source.iterdir()), "notes.md"])
    for path in source.iterdir():  # nothing to fix in these lines: the files come back as read
        assert (out / path.name).read_bytes() == path.read_bytes()
    assert (out / "notes.md").read_text(encoding="utf-8") == "mine\n"
    again = runner.invoke(app, ["lint", str(source), "--fix", "-o", str(source)])
    assert again.exit_code == 2 and "input" in again.output
    as_csv = runner.invoke(app, ["lint", str(source), "--fix", "-o", str(tmp_path / "f.csv")])
    assert as_csv.exit_code == 2 and "--output-format" in as_csv.output
    assert not (tmp_path / "f.csv").exists()  # never a folder named like a CSV file


def test_cli_score_import_has_the_per_type_rows(small_versions: tuple[Path, Path], tmp_path: Path) -> None:
    """Published scores of WinoBias pairs imported: the summary has the per-type groups too."""
    import csv

    pairs = read_dataset(small_versions[0]).pairs
    published = tmp_path / "published.csv"
    with published.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sent_more", "sent_less", "sent_more_score", "sent_less_score"])
        for i, pair in enumerate(pairs):
            writer.writerow([pair.sent_more, pair.sent_less, -float(i % 3), -1.0])
    result = runner.invoke(
        app,
        ["score", str(small_versions[0]), "--import", str(published), "-m", "published",
         "--import-prefer", "higher",  # no verdict column to tell it
         "--out", str(tmp_path / "out"), "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    (path,) = (tmp_path / "out").rglob("summary.json")
    summary = json.loads(path.read_text())["summary"]
    per_subset = {row["bias_type"]: row["biased"] for row in summary["bias_types"]}
    assert {row["group"]: row["biased"] for row in summary["groups"]} == {
        t: per_subset[f"{t}-dev"] + per_subset[f"{t}-test"] for t in ("type1", "type2")
    }


@pytest.mark.parametrize(
    ("old", "spans", "new", "expected"),
    [
        ("The  chief met him.", ((0, 10), (15, 18)), "The chief met him.", "[The chief] met [him]."),
        # upstream line 176 of pro type 2 test: "the [ physician]", a doubled space fixed
        ("the  physician saw him", ((4, 14), (19, 22)), "the physician saw him",
         "the [physician] saw [him]"),
        ("The chief met him.", ((0, 9), (14, 17)), "The head chief met him.",
         "[The head chief] met [him]."),
    ],
)
def test_mentions_follow_an_edited_sentence(
    old: str, spans: tuple[tuple[int, int], ...], new: str, expected: str
) -> None:
    from curate.benchmarks.winobias.io import moved_spans

    assert bracketed(new, moved_spans(spans, old, new)) == expected
    assert moved_spans(spans, old, old) == spans  # an unedited sentence keeps its spans
