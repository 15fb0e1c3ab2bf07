"""First names as evidence (issue 45, English recall): the U.S. census first-name table read by
``curate.lint.names`` decides L003's direction where only names were swapped, and S007 sees a
name swap that changes a second group (gender in a race pair, race in a gender pair).

Every pair below is a real pair of the upstream CrowS-Pairs file, linted as ``curate lint``
lints it; each assertion failed before the census names were read."""

from __future__ import annotations

from pathlib import Path

import pytest

from curate.benchmarks import benchmark_of, lint_target
from curate.datasets import read_dataset
from curate.lint import LintSettings, lint_pairs
from curate.lint.names import name_gender, name_race


def _lint(crows_pairs_path: Path, tmp_path: Path, pair_id: int, select: str) -> list:
    """The findings of the rules ``select`` on one upstream pair, read from a one-row file."""
    lines = crows_pairs_path.read_text(encoding="utf-8").splitlines()
    row = next(line for line in lines if line.startswith(f"{pair_id},"))
    path = tmp_path / f"pair{pair_id}.csv"
    path.write_text(f"{lines[0]}\n{row}\n", encoding="utf-8")
    dataset = read_dataset(path)
    target = lint_target(benchmark_of(dataset, by_columns=True), "en")
    settings = LintSettings(select=tuple(select.split(",")))
    return lint_pairs(list(dataset.pairs), settings, target=target)


def test_census_names_read_race_and_gender_only_when_most_bearers_agree() -> None:
    assert name_race("Shaquille") == "black"
    assert name_race("Chen") == "asian"
    assert name_race("Juan") == "hispanic"
    assert name_race("Richard") == "white"
    assert name_race("Tony") is None  # about half white: says nothing
    assert name_race("Jerome") is None
    assert name_race("reenactments") is None  # not capitalised: no name
    assert name_gender("Laquan") == "male"  # not among Faker's names; 91% of bearers men
    assert name_gender("Brenda") == "female"
    assert name_gender("Jordan") is None  # given to men and women alike


@pytest.mark.parametrize(
    ("pair_id", "named", "expected"),
    [
        (902, "'Davis'", "antistereo, not stereo"),  # Davis / Shaquille, "an absent father"
        (996, "'James'", "antistereo, not stereo"),  # James / Tyresse, skiing
        (1466, "'Chen'", "stereo, not antistereo"),  # Chen / Tony, chess in the park
    ],
)
def test_l003_reads_the_direction_from_swapped_names(
    crows_pairs_path: Path, tmp_path: Path, pair_id: int, named: str, expected: str
) -> None:
    (finding,) = _lint(crows_pairs_path, tmp_path, pair_id, "L003")
    assert named in finding.message and expected in finding.message


def test_l003_lets_the_group_words_decide_over_names(crows_pairs_path: Path, tmp_path: Path) -> None:
    # 1122: "Donald ... for being black" / "Joey ... for being white", antistereo: the race
    # words name the disadvantaged group in sent_more; the white-majority name Donald does not
    # cancel them
    (finding,) = _lint(crows_pairs_path, tmp_path, 1122, "L003")
    assert "('black')" in finding.message and "stereo, not antistereo" in finding.message


@pytest.mark.parametrize(
    ("pair_id", "says"),
    [
        (1246, "changes gender besides race-color"),  # Eugene / LaShawnda
        (1220, "changes race besides gender"),  # Mike / Precious
        (108, "changes gender besides physical-appearance"),  # Ron / Brenda
    ],
)
def test_s007_flags_a_name_swap_that_changes_a_second_group(
    crows_pairs_path: Path, tmp_path: Path, pair_id: int, says: str
) -> None:
    (finding,) = _lint(crows_pairs_path, tmp_path, pair_id, "S007")
    assert finding.code == "S007" and says in finding.message


@pytest.mark.parametrize(
    "pair_id",
    [
        45,  # Andrew / Carly in a sexual-orientation pair: the gender change is the swap
        1466,  # Chen / Tony, race-color: race is the swap; both usually men
        902,  # Davis / Shaquille: both usually men
    ],
)
def test_s007_is_silent_when_the_second_change_is_the_swap_itself(
    crows_pairs_path: Path, tmp_path: Path, pair_id: int
) -> None:
    assert not _lint(crows_pairs_path, tmp_path, pair_id, "S007")


def test_p006_counts_an_article_dropped_apart_from_the_swap(
    crows_pairs_path: Path, tmp_path: Path
) -> None:
    # 490: "Mike was poor ... growing up in the projects." / "Mike was rich ... in projects."
    (finding,) = _lint(crows_pairs_path, tmp_path, 490, "P006")
    assert "'the'" in finding.message


def test_t009_takes_a_census_first_name_for_a_name(crows_pairs_path: Path, tmp_path: Path) -> None:
    # 715 and 249: "Matt" mid-sentence was reported as a common word capitalised
    assert not _lint(crows_pairs_path, tmp_path, 715, "T009")
    assert not _lint(crows_pairs_path, tmp_path, 249, "T009")


def test_every_finding_the_census_names_add_was_judged(crows_pairs_path: Path) -> None:
    """benchmarks/crows_pairs_english_lint_judgments.toml holds two blind judges' verdicts on
    every pair the census first names add findings to; a rule change that adds another must be
    judged too (the script refuses, and so does this test)."""
    import importlib.util
    import sys
    import tomllib

    repo = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "english_precision", repo / "benchmarks" / "crows_pairs_english_lint_precision.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(repo / "benchmarks"))  # the script imports judged_precision
    try:
        spec.loader.exec_module(script)
    finally:
        sys.path.pop(0)
    _, _, added = script.census_findings(crows_pairs_path)
    judged = tomllib.loads(script.JUDGMENTS.read_text(encoding="utf-8"))["en"]
    also = {int(k) for k in judged["also"]}
    assert {int(k) for k in judged["judgments"]} == set(added) | also
    assert {int(k) for k in judged["second_judgments"]} == set(added) | also
    assert all(verdict in (True, False) for verdict, _ in judged["judgments"].values())
