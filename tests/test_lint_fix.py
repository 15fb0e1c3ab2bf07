"""Safe fixes: applied until none is left, never changing which words differ."""

from __future__ import annotations

from curate.lint import LintSettings, fix_pairs, lint_pairs
from curate.lint.fix import changed_words, template_words
from curate.pairs import Pair

TYPOGRAPHY = LintSettings(select=("T",))


def _pair(more: str, less: str, pid: int = 0) -> Pair:
    return Pair(pid, more, less, "stereo", "religion")


def test_fixes_compose_and_relint_is_clean() -> None:
    pairs = [
        _pair("the muslim man  prayed ..", "the Christian man prayed", 0),
        _pair("Jews are greedy.", "Christians are greedy", 1),
        _pair("Jews are greedy.", "Christians are greedy.", 2),
    ]
    result = fix_pairs(pairs, TYPOGRAPHY)
    assert result.pairs[0].sent_more == "The Muslim man prayed."
    assert result.pairs[0].sent_less == "The Christian man prayed."
    assert result.pairs[1].sent_less == "Christians are greedy."
    assert result.pairs[2] == pairs[2]
    assert result.changed_pairs == 2
    assert {a.code for a in result.applied} >= {"T001", "T003", "T004", "T005", "T006"}
    fixable = {"T001", "T002", "T003", "T004", "T005", "T006"}
    remaining = lint_pairs(result.pairs, TYPOGRAPHY)
    assert not [f for f in remaining if f.code in fixable]


def test_fix_records_old_and_new() -> None:
    result = fix_pairs([_pair("Jews are greedy.", "Christians are greedy")], TYPOGRAPHY)
    (applied,) = result.applied
    assert (applied.pair_id, applied.code, applied.field) == (0, "T001", "sent_less")
    assert (applied.old, applied.new) == ("Christians are greedy", "Christians are greedy.")
    assert applied.to_dict()["rule"] == "final-punctuation-mismatch"


def test_unselected_rules_do_not_fix() -> None:
    pair = _pair("the muslim man prayed.", "the Christian man prayed.")
    result = fix_pairs([pair], LintSettings(select=("T001",)))
    assert result.pairs == [pair] and result.applied == []


def test_changed_words_ignores_case_and_punctuation() -> None:
    before = changed_words("i think Jews are greedy", "I think Christians are greedy.")
    after = changed_words("I think Jews are greedy.", "I think Christians are greedy.")
    assert before == after == ((("jews",), ("christians",)),)


def test_pairs_keep_ids_and_order() -> None:
    pairs = [_pair("a b.", "a c", 9), _pair("x y", "x z.", 2)]
    result = fix_pairs(pairs, TYPOGRAPHY)
    assert [p.pair_id for p in result.pairs] == [9, 2]


def test_a_fix_never_moves_a_stereoset_template_word() -> None:
    """Collapsing a double space before BLANK would shift the filled-in word's index."""
    item = Pair(
        0,
        "The  chess player was hispanic.",
        "The  chess player was fox.",
        "stereo",
        "race",
        item_id="x1",
        target="chess player",
        context="The  chess player was BLANK.",
        unrelated="The  chess player was fox.",
    )
    result = fix_pairs([item], LintSettings(select=("T",)))
    fixed = result.pairs[0]
    assert template_words(fixed) == template_words(item) == ("hispanic", "fox")
    assert fixed.sent_more.split(" ")[5].rstrip(".").casefold() == "hispanic"


def test_a_template_free_pair_still_gets_its_whitespace_fixed() -> None:
    pair = Pair(0, "The  black man was loud.", "The  white man was loud.", "stereo", "race-color")
    fixed = fix_pairs([pair], LintSettings(select=("T",))).pairs[0]
    assert "  " not in fixed.sent_more
