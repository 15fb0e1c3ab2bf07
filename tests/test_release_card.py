"""The data card and changelog of a release, rendered from their inputs alone (no publish)."""

from __future__ import annotations

import re
from importlib import resources

import jinja2
import pytest

from curate.pairs import Pair
from curate.release.card import (
    CARD_TEMPLATE,
    card_template,
    changelog_entry,
    md_cell,
    render_card,
    render_changelog,
    size_category,
)
from curate.release.pairdiff import diff_pairs

SOURCE = {
    "name": "crows-pairs",
    "file": "crows_pairs_anonymized.csv",
    "sha256": "ab" * 32,
    "url": "https://example.org/crows_pairs_anonymized.csv",
    "license": "CC BY-SA 4.0",
    "citation": "Nangia et al. (2020)",
}
READ = {"keep": 1, "fix": 0, "drop": 2, "relabel": 1, "undecided": 3}


def card(decisions: list[dict[str, str]], selected: list[str], **release: str) -> str:
    recipe = {
        "release": {"version": "1.1.0", "title": "", "summary": "", "previous": None, **release},
        "fixes": {"select": selected},
    }
    counts = {
        "pairs": 1506,
        "raw_pairs": 1508,
        "changed_pairs": 1234,
        "changes": {"edited": 1229, "relabelled": 1, "edited+relabelled": 2, "dropped": 2},
        "lint": {"T002": {"rule": "missing-final-punctuation", "pairs": 3, "fixes": 5}},
        "decisions": {"drop": 2, "relabel": 1} if decisions else {},
        "decision_sources": {"round r1": 3} if decisions else {},
        "decisions_read": READ if decisions else dict.fromkeys(READ, 0),
    }
    return render_card(
        version="1.1.0",
        recipe=recipe,
        inputs={"source": SOURCE, "recipe_sha256": "cd" * 32, "decisions": decisions},
        counts=counts,
        rule_summaries={
            "T001": ("final-punctuation-mismatch", "Only one sentence | ends <here>"),
            "T002": ("missing-final-punctuation", "Neither sentence ends with punctuation"),
        },
        tool_version="9.8.7",
        previous_label="version 1.0.0",
    )


DECISIONS = [
    {"source": "round r1", "file": "annotations/rounds/r1/decisions.jsonl", "sha256": "x"},
    {"source": "a|b", "file": "data/clean/1.1.0/<hand>.jsonl", "sha256": "y"},
]


def test_template_is_package_data() -> None:
    template = resources.files("curate.release").joinpath(CARD_TEMPLATE)
    assert template.is_file()
    assert "{{ version }}" in template.read_text(encoding="utf-8")


def test_card_with_decisions_lists_actions_sources_and_reads() -> None:
    text = card(DECISIONS, ["T001", "T002"], title="Revalidated", summary="Round r1.")
    assert text.startswith('---\npretty_name: "Revalidated (1.1.0)"\nlicense: cc-by-sa-4.0\n')
    assert "size_categories:\n- 1K<n<10K\n" in text
    assert "\n# Revalidated, version 1.1.0\n\n## Summary\n\nRound r1.\n\n" in text
    assert "1,234 of 1,508 upstream pairs changed: 1,229 edited, 1 relabelled" in text
    # a selected rule without fixes still gets a row; file text is escaped for the table
    assert (
        "| T001 | final-punctuation-mismatch | Only one sentence \\| ends &lt;here&gt; | 0 | 0 |\n"
        in text
    )
    assert "| T002 | missing-final-punctuation | Neither sentence ends with punctuation | 3 | 5 |\n" in text
    assert "| fix | 0 |\n| relabel | 1 |\n| drop | 2 |\n\n| source |" in text
    assert "| round r1 | `annotations/rounds/r1/decisions.jsonl` | 3 |\n" in text
    assert "| a\\|b | `data/clean/1.1.0/&lt;hand&gt;.jsonl` | 0 |\n" in text
    assert "Decisions read: 7 (keep 1, fix 0, drop 2, relabel 1, undecided 3);" in text
    assert "2. Safe autofixes: T001, T002.\n" in text
    assert (
        "3. Decisions: `annotations/rounds/r1/decisions.jsonl`, "
        "`data/clean/1.1.0/&lt;hand&gt;.jsonl`.\n"
    ) in text
    assert "Those need annotator decisions.\n" in text
    assert "  version = {9.8.7},\n" in text and "  author = {{curate developers}},\n" in text
    assert "{%" not in text and "{{ " not in text
    assert text.endswith("}\n```\n")


def test_card_without_fixes_or_decisions_says_so() -> None:
    text = card([], [])
    assert "\n# CrowS-Pairs, revised, version 1.1.0\n\n## Summary\n\nA revision" in text
    assert "### Safe typographic autofixes\n\nNone selected.\n\n### Curation decisions\n" in text
    assert "\n\nNone: this release applies no annotator or hand-written decisions" in text
    assert "| decision | pairs |" not in text
    assert "2. Safe autofixes: none.\n3. Decisions: none.\n" in text
    assert "Those need annotator decisions and this release has none.\n" in text
    # no blank-line runs left behind by the template's blocks
    assert not re.search(r"\n\n\n", text)


def test_template_variables_must_exist() -> None:
    with pytest.raises(jinja2.UndefinedError):
        card_template().render(version="1.0.0")


@pytest.mark.parametrize(
    ("n", "bucket"), [(0, "n<1K"), (999, "n<1K"), (1508, "1K<n<10K"), (10**6, "1M<n<10M")]
)
def test_size_category(n: int, bucket: str) -> None:
    assert size_category(n) == bucket


def test_md_cell_neutralises_table_syntax_and_html() -> None:
    assert md_cell("a|b\n<i>\\") == "a\\|b &lt;i&gt;\\\\"


def test_changelog_entry_and_history() -> None:
    before = [Pair(0, "A b.", "C b.", "stereo", "age"), Pair(1, "D e.", "F e.", "stereo", "age")]
    after = [Pair(0, "A b!", "C b.", "stereo", "age"), Pair(2, "G h.", "I h.", "stereo", "age")]
    diff = diff_pairs(before, after, "version 1.0.0", "version 1.1.0")
    entry = changelog_entry("1.1.0", "Revalidated", "Round r1.", diff)
    assert entry == (
        "## 1.1.0\n\nRevalidated. Round r1.\n\nCompared with version 1.0.0: 2 → 2 pairs.\n\n"
        "- Added: 1\n- Dropped: 1\n- Edited: 1 (fields changed: sent_more 1)\n\n"
        "Dropped pair ids: 1.\n\nAdded pair ids: 2.\n\nEdited pair ids: 0.\n"
    )
    older = render_changelog("## 1.0.0\n\nFirst.\n", None)
    text = render_changelog(entry, older)
    assert text.startswith("# Changelog\n")
    assert text.index("## 1.1.0") < text.index("## 1.0.0")
    assert text.endswith("\n## 1.0.0\n\nFirst.\n")


def test_the_header_splits_are_what_datasets_reads_without_a_warning() -> None:
    """🤗 datasets requires name, num_examples and num_bytes of every split in the header's
    ``dataset_info``; without num_bytes every load_dataset warned the YAML was malformed."""
    import yaml
    from datasets.splits import SplitDict

    recipe = {"release": {"version": "1.1.0", "title": "", "summary": "", "previous": None},
              "fixes": {"select": []}}  # fmt: skip
    counts = {"pairs": 7, "raw_pairs": 7, "changed_pairs": 0, "lint": {},
              "changes": {"edited": 0, "relabelled": 0, "edited+relabelled": 0, "dropped": 0},
              "decisions": {}, "decision_sources": {}, "decisions_read": dict.fromkeys(READ, 0)}  # fmt: skip
    text = render_card(
        version="1.1.0", recipe=recipe, inputs={"source": SOURCE, "recipe_sha256": "cd" * 32,
        "decisions": []}, counts=counts, rule_summaries={}, tool_version="9.8.7",
        previous_label="version 1.0.0", hf_data_file="data.parquet", hf_data_bytes=1234,
        hf_split_bytes=987,
    )  # fmt: skip
    header = yaml.safe_load(text.split("---")[1])
    splits = header["dataset_info"]["splits"]
    assert splits == [{"name": "test", "num_bytes": 987, "num_examples": 7}]
    assert SplitDict._from_yaml_list(splits)["test"].num_examples == 7
