"""Revise: autofixes, then decisions in recipe order; conflicts; change records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curate.decisions import Decision
from curate.errors import ChecksumError, InputError
from curate.release.recipe import DecisionSource, parse_recipe
from curate.release.revise import (
    DecisionConflict,
    SourcedDecision,
    format_changes,
    read_decision_source,
    revise,
    revise_pairs,
    summarize_change_records,
    summarize_changes,
)
from tests.support.release_project import (
    FIXES,
    PAIRS,
    make_project,
    raw_sha,
    recipe_text,
    write_decisions,
)

ROUND_R1 = DecisionSource(
    "round", "r1", Path("r1.jsonl"), file="annotations/rounds/r1/decisions.jsonl"
)
ROUND_R2 = DecisionSource(
    "round", "r2", Path("r2.jsonl"), file="annotations/rounds/r2/decisions.jsonl"
)
HAND = DecisionSource("file", "hand.jsonl", Path("hand.jsonl"), file="hand.jsonl")
VOTES = {"stereotype": {"yes": 1, "no": 4}}


def sourced(source: DecisionSource, *decisions: Decision) -> tuple:
    return source, [SourcedDecision(d, source, i) for i, d in enumerate(decisions, 1)]


def decision(pair_id: int, action: str, **kw) -> Decision:
    return Decision(pair_id, action, votes=VOTES, n_annotators=5, round="r1", **kw)


def by_id(changes) -> dict:
    return {c.pair_id: c for c in changes}


def test_no_fixes_no_decisions_changes_nothing() -> None:
    pairs, changes = revise_pairs(list(PAIRS))
    assert pairs == list(PAIRS)
    assert changes == []


def test_autofixes_record_codes_and_values() -> None:
    pairs, changes = revise_pairs(list(PAIRS), FIXES)
    assert [p.pair_id for p in pairs] == [p.pair_id for p in PAIRS]
    changed = by_id(changes)
    assert set(changed) == {1, 2}
    c = changed[1]
    assert c.change == "edited"
    assert c.old == {"sent_more": "poor people are lazy", "sent_less": "rich people are lazy"}
    assert c.new == {"sent_more": "Poor people are lazy.", "sent_less": "Rich people are lazy."}
    assert sorted({f.code for f in c.lint}) == ["T002", "T005"]
    assert c.decisions == ()
    assert {f.code for f in changed[2].lint} == {"T004"}


def test_only_selected_fixes_run() -> None:
    _, changes = revise_pairs(list(PAIRS), ("T004",))
    assert set(by_id(changes)) == {2}


def test_drop_keeps_the_id_in_the_change_record() -> None:
    pairs, changes = revise_pairs(
        list(PAIRS), FIXES, [sourced(ROUND_R1, decision(1, "drop", reason="no stereotype"))]
    )
    assert 1 not in {p.pair_id for p in pairs}
    assert len(pairs) == len(PAIRS) - 1
    c = by_id(changes)[1]
    assert c.change == "dropped"
    assert c.new is None
    assert c.old == {
        "sent_more": "poor people are lazy",
        "sent_less": "rich people are lazy",
        "stereo_antistereo": "stereo",
        "bias_type": "socioeconomic",
    }
    assert c.lint == ()  # fixes of a dropped pair are not why anything changed
    record = c.to_dict()["decisions"][0]
    assert record == {
        "source": "round r1",
        "file": "annotations/rounds/r1/decisions.jsonl",
        "line": 1,
        "action": "drop",
        "round": "r1",
        "reason": "no stereotype",
        "votes": VOTES,
        "n_annotators": 5,
    }


def test_relabel_bias_type_and_direction() -> None:
    pairs, changes = revise_pairs(
        list(PAIRS),
        (),
        [sourced(ROUND_R1, decision(3, "relabel", bias_type="race-color", direction="antistereo"))],
    )
    c = by_id(changes)[3]
    assert c.change == "relabelled"
    assert c.old == {"stereo_antistereo": "stereo", "bias_type": "religion"}
    assert c.new == {"stereo_antistereo": "antistereo", "bias_type": "race-color"}
    assert next(p for p in pairs if p.pair_id == 3).bias_type == "race-color"


def test_fix_decision_supersedes_the_autofix_of_its_field_only() -> None:
    _, changes = revise_pairs(
        list(PAIRS),
        FIXES,
        [sourced(ROUND_R1, decision(1, "fix", sent_more="Poor people are always lazy."))],
    )
    c = by_id(changes)[1]
    assert c.new == {
        "sent_more": "Poor people are always lazy.",
        "sent_less": "Rich people are lazy.",
    }
    assert {f.field for f in c.lint} == {"sent_less"}
    assert [d.decision.action for d in c.decisions] == ["fix"]


def test_fix_and_relabel_is_both() -> None:
    _, changes = revise_pairs(
        list(PAIRS),
        (),
        [sourced(ROUND_R1, decision(0, "fix", sent_less="Men can't drive.", bias_type="age"))],
    )
    assert by_id(changes)[0].change == "edited+relabelled"


def test_keep_and_undecided_change_nothing() -> None:
    _, changes = revise_pairs(
        list(PAIRS),
        (),
        [sourced(ROUND_R1, decision(0, "keep"), decision(3, "undecided"))],
    )
    assert changes == []


def test_a_fix_equal_to_the_current_text_is_no_change() -> None:
    _, changes = revise_pairs(
        list(PAIRS), (), [sourced(ROUND_R1, decision(0, "fix", sent_more=PAIRS[0].sent_more))]
    )
    assert changes == []


def test_conflict_names_both_sources() -> None:
    with pytest.raises(DecisionConflict) as info:
        revise_pairs(
            list(PAIRS),
            (),
            [
                sourced(ROUND_R1, decision(3, "drop")),
                sourced(ROUND_R2, decision(0, "keep"), decision(3, "keep")),
            ],
        )
    message = str(info.value)
    assert "pair 3" in message
    assert "annotations/rounds/r1/decisions.jsonl line 1 says drop" in message
    assert "annotations/rounds/r2/decisions.jsonl line 2 says keep" in message


def test_conflict_inside_one_source() -> None:
    with pytest.raises(
        DecisionConflict, match=r"hand\.jsonl line 1 says relabel .*hand\.jsonl line 2"
    ):
        revise_pairs(
            list(PAIRS),
            (),
            [
                sourced(
                    HAND,
                    decision(3, "relabel", bias_type="age"),
                    decision(3, "relabel", bias_type="gender"),
                )
            ],
        )


def test_agreeing_decisions_are_no_conflict_and_both_are_recorded() -> None:
    _, changes = revise_pairs(
        list(PAIRS),
        (),
        [
            sourced(ROUND_R1, decision(3, "drop")),
            sourced(ROUND_R2, decision(3, "drop")),
        ],
    )
    assert [d.source.label for d in by_id(changes)[3].decisions] == ["round r1", "round r2"]


def test_undecided_never_conflicts() -> None:
    _, changes = revise_pairs(
        list(PAIRS),
        (),
        [sourced(ROUND_R1, decision(3, "drop")), sourced(ROUND_R2, decision(3, "undecided"))],
    )
    assert by_id(changes)[3].change == "dropped"


def test_override_source_replaces_earlier_decisions() -> None:
    adjudication = DecisionSource(
        "file", "adj.jsonl", Path("adj.jsonl"), override=True, file="adj.jsonl"
    )
    pairs, changes = revise_pairs(
        list(PAIRS),
        (),
        [
            sourced(ROUND_R1, decision(3, "drop")),
            sourced(adjudication, decision(3, "keep", reason="the stereotype is real")),
        ],
    )
    assert 3 in {p.pair_id for p in pairs}
    assert changes == []


def test_decision_for_an_unknown_pair() -> None:
    with pytest.raises(InputError, match="pair 99 is not in the raw file"):
        revise_pairs(list(PAIRS), (), [sourced(ROUND_R1, decision(99, "drop"))])


def test_hand_written_decisions_need_a_reason(tmp_path: Path) -> None:
    path = write_decisions(
        tmp_path / "hand.jsonl",
        [
            {"pair_id": 0, "action": "drop", "reason": "duplicate of 7"},
            {"pair_id": 3, "action": "drop"},
        ],
    )
    source = DecisionSource("file", "hand.jsonl", path, file="hand.jsonl")
    with pytest.raises(
        InputError, match=r"hand.jsonl: line 2: pair 3: a hand-written decision needs a \"reason\""
    ):
        read_decision_source(source)
    round_source = DecisionSource("round", "r1", path, file="annotations/rounds/r1/decisions.jsonl")
    assert len(read_decision_source(round_source)) == 2  # tallies carry votes instead


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 1: not valid JSON"),
        ("[1, 2]", "line 1: expected a JSON object"),
        ('{"pair_id": 0, "action": "explode", "reason": "x"}', "action 'explode' is not one of"),
        ('{"pair_id": 0, "action": "fix", "sent_more": " ", "reason": "x"}', "sent_more is empty"),
    ],
)
def test_malformed_decision_files(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "hand.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_decision_source(DecisionSource("file", "hand.jsonl", path, file="hand.jsonl"))


def test_missing_round_file_says_how_to_make_it(tmp_path: Path) -> None:
    source = DecisionSource(
        "round", "r7", tmp_path / "nope.jsonl", file="annotations/rounds/r7/decisions.jsonl"
    )
    with pytest.raises(InputError, match="curate annotations tally --round r7"):
        read_decision_source(source)


def test_revise_reads_files_and_records_input_hashes(tmp_path: Path) -> None:
    cfg = make_project(tmp_path)
    write_decisions(
        tmp_path / "annotations" / "rounds" / "r1" / "decisions.jsonl",
        [
            {"pair_id": 3, "action": "drop", "votes": VOTES, "n_annotators": 5, "round": "r1"},
            {"pair_id": 0, "action": "keep", "votes": VOTES, "n_annotators": 5, "round": "r1"},
        ],
    )
    write_decisions(
        tmp_path / "hand.jsonl",
        [{"pair_id": 5, "action": "relabel", "bias_type": "gender", "reason": "about men"}],
    )
    recipe = parse_recipe(
        recipe_text(raw_sha(cfg), decisions=({"round": "r1"}, {"file": "hand.jsonl"})), cfg
    )
    revision = revise(recipe, cfg)
    assert [c.change for c in revision.changes] == ["edited", "edited", "dropped", "relabelled"]
    assert revision.decisions_read == {"keep": 1, "fix": 0, "drop": 1, "relabel": 1, "undecided": 0}
    assert revision.inputs["source"]["sha256"] == raw_sha(cfg)
    assert revision.inputs["recipe_sha256"] == recipe.digest()
    assert [d["file"] for d in revision.inputs["decisions"]] == [
        "annotations/rounds/r1/decisions.jsonl",
        "hand.jsonl",
    ]
    records = [json.loads(line) for line in revision.changes_text().splitlines()]
    assert [r["pair_id"] for r in records] == [1, 2, 3, 5]
    assert summarize_change_records(records) == summarize_changes(revision.changes)
    assert summarize_changes(revision.changes)["decisions"] == {"drop": 1, "relabel": 1}


def test_raw_checksum_mismatch_is_refused(tmp_path: Path) -> None:
    cfg = make_project(tmp_path)
    recipe = parse_recipe(recipe_text("0" * 64), cfg, "recipe.toml")
    with pytest.raises(ChecksumError, match="does not match the recipe's pinned 0000"):
        revise(recipe, cfg)


def test_missing_raw_file_says_fetch(tmp_path: Path) -> None:
    cfg = make_project(tmp_path)
    recipe = parse_recipe(recipe_text(raw_sha(cfg)), cfg)
    cfg.data.unlink()
    with pytest.raises(InputError, match="run `curate fetch crows-pairs` first"):
        revise(recipe, cfg)


def test_explicit_raw_path_must_also_match(tmp_path: Path) -> None:
    cfg = make_project(tmp_path)
    recipe = parse_recipe(recipe_text(raw_sha(cfg)), cfg)
    other = tmp_path / "other.csv"
    other.write_bytes(cfg.data.read_bytes() + b"\n")
    with pytest.raises(ChecksumError):
        revise(recipe, cfg, raw=other)
    copy = tmp_path / "copy.csv"
    copy.write_bytes(cfg.data.read_bytes())
    cfg.data.unlink()
    assert len(revise(recipe, cfg, raw=copy).pairs) == len(PAIRS)


def test_changes_text_is_sorted_and_deterministic() -> None:
    _, changes = revise_pairs(list(PAIRS), FIXES, [sourced(ROUND_R1, decision(0, "drop"))])
    text = format_changes(list(reversed(changes)))
    assert text == format_changes(changes)
    assert [json.loads(line)["pair_id"] for line in text.splitlines()] == [0, 1, 2]


def test_progress_reports_every_pair() -> None:
    seen: list[tuple[int, int]] = []
    revise_pairs(list(PAIRS) * 1, FIXES, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (len(PAIRS), len(PAIRS))
