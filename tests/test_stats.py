"""Stats: Table 2 of the CrowS-Pairs paper and validator agreement."""

from __future__ import annotations

from pathlib import Path

from curate.datasets import read_pairs
from curate.pairs import Pair
from curate.stats import compute_stats, label_support


def test_table_2_of_the_paper(crows_pairs_path: Path) -> None:
    result = compute_stats(read_pairs(crows_pairs_path))
    assert result["pairs"] == 1508
    counts = {r["bias_type"]: (r["n"], r["percent"]) for r in result["bias_types"]}
    # Nangia et al. (2020), Table 2
    assert counts["race-color"] == (516, 34.2)
    assert counts["gender"] == (262, 17.4)
    assert counts["socioeconomic"] == (172, 11.4)
    assert counts["nationality"] == (159, 10.5)
    assert counts["religion"] == (105, 7.0)
    assert counts["age"] == (87, 5.8)
    assert counts["sexual-orientation"] == (84, 5.6)
    assert counts["physical-appearance"] == (63, 4.2)
    assert counts["disability"] == (60, 4.0)
    assert result["directions"] == {"stereo": 1290, "antistereo": 218}
    assert sum(result["validator_agreement"]["label_supported_by"].values()) == 1508


def test_small_example_by_hand() -> None:
    pairs = [
        Pair(0, "a b c.", "a b d.", "stereo", "age", (("age",), ("age",), ("gender",))),
        Pair(1, "a b.", "a b c d.", "antistereo", "age", (("gender",), (), ("age", "gender"))),
        Pair(2, "x y.", "x z.", "stereo", "odd-type", None),
    ]
    result = compute_stats(pairs)
    assert [r["bias_type"] for r in result["bias_types"]] == ["age", "odd-type"]
    assert result["bias_types"][0] == {
        "bias_type": "age",
        "known": True,
        "n": 2,
        "percent": 66.7,
        "stereo": 1,
        "antistereo": 1,
    }
    assert result["bias_types"][1]["known"] is False
    assert result["lengths"]["same_word_count"] == 2
    assert result["lengths"]["word_count_difference"] == {0: 2, 2: 1}
    assert label_support(pairs[0]) == 2 and label_support(pairs[2]) is None
    agreement = result["validator_agreement"]
    assert agreement["pairs_with_annotations"] == 2
    assert agreement["majority_supports_label"] == 1
    assert agreement["mean_support_share"] == round((2 / 3 + 1 / 3) / 2, 3)
