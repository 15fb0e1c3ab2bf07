"""diff-report arithmetic: alignment classes, metrics, flips, McNemar, bootstrap and the cache.

Two tiny random models score two small versions with known edits; every number of the report is
then recomputed here directly from the per-pair scores (by hand, with scipy, with a plain loop
over the bootstrap draws), so the vectorised code is checked against the definitions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.stats import binomtest

from curate.pairs import Pair
from curate.report.alignment import align_versions
from curate.report.rescoring import ComparedVersion, score_versions, unique_labels
from curate.report.statistics import Settings, compare_scores, resample_indices
from curate.score.metrics import PairScore, summarize
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

SCRIPT = "<script>alert(1)</script>"
BEFORE: tuple[Pair, ...] = SAMPLE_PAIRS[:8]


def _after() -> tuple[Pair, ...]:
    """BEFORE with known edits: 0, 5, 7 unchanged; 1 sentence edit; 2 relabel; 3 direction
    swap (sentences swapped, so the verdict must flip); 4 annotations only; 6 dropped (the
    tie); 10 and 11 added."""
    p = {pair.pair_id: pair for pair in BEFORE}
    swapped = p[3].with_changes(
        sent_more=p[3].sent_less, sent_less=p[3].sent_more, direction="stereo"
    )
    return (
        p[0],
        p[1].with_changes(sent_more=f"The poor are {SCRIPT} ignorant about money."),
        p[2].with_changes(bias_type="nationality"),
        swapped,
        p[4].with_changes(annotations=(("religion",), ("religion",), ("race-color",))),
        p[5],
        p[7],
        SAMPLE_PAIRS[8].with_changes(pair_id=10),
        SAMPLE_PAIRS[9].with_changes(pair_id=11),
    )


AFTER = _after()
SETTINGS = Settings(bootstrap_samples=500, seed=7)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def models() -> list[Path]:
    return [tiny_model_dir("bert"), tiny_model_dir("roberta")]


@pytest.fixture(scope="module")
def cache_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache") / "scores.sqlite"


@pytest.fixture(scope="module")
def report(models: list[Path], cache_path: Path):
    return score_versions(
        ComparedVersion("v1", BEFORE), ComparedVersion("v2", AFTER), models, cache=cache_path, settings=SETTINGS
    )


def _scores(section: dict[str, Any], version: str) -> dict[int, PairScore]:
    """PairScores rebuilt from report.json's per-pair rows and the version's pairs."""
    pairs = {p.pair_id: p for p in (BEFORE if version == "before" else AFTER)}
    out = {}
    for row in section["scores"][version]:
        pair = pairs[row["pair_id"]]
        out[row["pair_id"]] = PairScore(
            pair.pair_id,
            pair.sent_more,
            pair.sent_less,
            row["sent_more_score"],
            row["sent_less_score"],
            pair.direction,
            pair.bias_type,
        )
    return out


# --------------------------------------------------------------------------- alignment


def test_alignment_classes_and_fields() -> None:
    alignment = align_versions(BEFORE, AFTER)
    assert alignment.unchanged == (0, 5, 7)
    assert {e.pair_id: e.fields for e in alignment.edited} == {
        1: ("sent_more",),
        2: ("bias_type",),
        3: ("sent_more", "sent_less", "direction"),
        4: ("annotations",),
    }
    assert [e.pair_id for e in alignment.edited if e.rescored] == [1, 3]
    assert alignment.dropped == (6,)
    assert alignment.added == (10, 11)
    assert alignment.shared == (0, 1, 2, 3, 4, 5, 7)
    data = alignment.to_dict(BEFORE, AFTER)
    assert data["counts"] == {"unchanged": 3, "edited": 4, "dropped": 1, "added": 2}
    assert data["edited"][0]["after"]["sent_more"] == AFTER[1].sent_more
    assert data["dropped"] == [{"pair_id": 6, **_text(BEFORE[6])}]


def test_alignment_compares_only_the_given_fields() -> None:
    """Fields one version has no column for (a five-column revision's annotations) are left
    out, so pair 4, whose annotations alone differ, is unchanged."""
    alignment = align_versions(BEFORE, AFTER, ("sent_more", "sent_less", "direction", "bias_type"))
    assert 4 in alignment.unchanged
    assert {e.pair_id: e.fields for e in alignment.edited} == {
        1: ("sent_more",),
        2: ("bias_type",),
        3: ("sent_more", "sent_less", "direction"),
    }


def _text(pair: Pair) -> dict[str, str]:
    return {
        "sent_more": pair.sent_more,
        "sent_less": pair.sent_less,
        "direction": pair.direction,
        "bias_type": pair.bias_type,
    }


def test_identical_versions_are_all_unchanged() -> None:
    alignment = align_versions(BEFORE, list(reversed(BEFORE)))
    assert alignment.unchanged == tuple(range(8))
    assert not alignment.edited and not alignment.dropped and not alignment.added


# --------------------------------------------------------------------------- metrics


def _by_hand(scores: dict[int, PairScore]) -> dict[str, Any]:
    values = list(scores.values())
    biased = [s for s in values if s.sent_more_score > s.sent_less_score]
    result: dict[str, Any] = {"overall": 100 * len(biased) / len(values)}
    for direction in ("stereo", "antistereo"):
        untied = [
            s for s in values if s.direction == direction and s.sent_more_score != s.sent_less_score
        ]
        won = [s for s in untied if s.sent_more_score > s.sent_less_score]
        result[direction] = 100 * len(won) / len(untied) if untied else None
    for bias_type in {s.bias_type for s in values}:
        members = [s for s in values if s.bias_type == bias_type]
        won = [s for s in members if s.sent_more_score > s.sent_less_score]
        result[bias_type] = (100 * len(won) / len(members), len(members))
    return result


def test_metrics_recomputed_by_hand(report) -> None:
    assert [m["label"] for m in report.data["models"]] == ["bert · pll", "roberta · pll"]
    for section in report.data["models"]:
        for version in ("before", "after"):
            expected = _by_hand(_scores(section, version))
            summary = section[version]
            assert summary["metric_score"] == pytest.approx(expected["overall"])
            assert summary["pairs"] == (len(BEFORE) if version == "before" else len(AFTER))
            for direction in ("stereo", "antistereo"):
                got = summary["directions"][direction]["score"]
                assert got == (pytest.approx(expected[direction]) if got is not None else None)
            for row in summary["bias_types"]:
                assert (row["score"], row["n"]) == pytest.approx(expected[row["bias_type"]])
        delta = section["delta"]
        assert delta["overall"]["before"] == pytest.approx(section["before"]["metric_score"])
        assert delta["overall"]["delta"] == pytest.approx(
            section["after"]["metric_score"] - section["before"]["metric_score"]
        )
        rows = {r["bias_type"]: r for r in delta["bias_types"]}
        # race-color exists only before (pair 2 was relabelled), physical-appearance only after.
        assert rows["race-color"]["after"] is None and rows["race-color"]["delta"] is None
        assert rows["physical-appearance"]["before"] is None
        assert section["before"]["ties"] == 1 and section["after"]["ties"] == 0


def test_flips_recomputed_from_scores(report) -> None:
    alignment = align_versions(BEFORE, AFTER)
    for section in report.data["models"]:
        before, after = _scores(section, "before"), _scores(section, "after")
        expected = [
            e.pair_id for e in alignment.edited if before[e.pair_id].score != after[e.pair_id].score
        ]
        flips = section["flips"]
        assert [f["pair_id"] for f in flips["pairs"]] == expected
        assert 3 in expected  # swapping the sentences must flip the verdict
        assert 2 not in expected and 4 not in expected  # same sentences, same scores
        assert flips["count"] == len(expected)
        assert flips["edited"] == 4 and flips["edited_rescored"] == 2
        assert flips["rate"] == pytest.approx(100 * len(expected) / 4)
        assert flips["to_biased"] + flips["to_not_biased"] == len(expected)
        three = next(f for f in flips["pairs"] if f["pair_id"] == 3)
        assert three["before"]["sent_more_score"] == three["after"]["sent_less_score"]
        assert three["fields"] == ["sent_more", "sent_less", "direction"]


def test_mcnemar_matches_an_exact_binomial_test(report) -> None:
    shared = align_versions(BEFORE, AFTER).shared
    for section in report.data["models"]:
        before, after = _scores(section, "before"), _scores(section, "after")
        down = sum(before[i].score == 1 and after[i].score == 0 for i in shared)
        up = sum(before[i].score == 0 and after[i].score == 1 for i in shared)
        mc = section["mcnemar"]
        assert mc["pairs"] == len(shared) == 7
        assert (mc["biased_to_not_biased"], mc["not_biased_to_biased"]) == (down, up)
        assert sum(map(sum, mc["table"])) == 7
        expected = binomtest(min(down, up), down + up, 0.5).pvalue if down + up else 1.0
        assert mc["p_value"] == pytest.approx(expected)
        assert mc["statistic"] == min(down, up)


def _metric(sample: list[int], scores: dict[int, PairScore], member) -> float | None:
    members = [scores[i] for i in sample if i in scores and member(scores[i])]
    if not members:
        return None
    return 100 * sum(s.sent_more_score > s.sent_less_score for s in members) / len(members)


def test_bootstrap_matches_a_direct_loop(report) -> None:
    section = report.data["models"][0]
    before, after = _scores(section, "before"), _scores(section, "after")
    units = sorted(before.keys() | after.keys())
    draws = np.random.default_rng(SETTINGS.seed).integers(
        0, len(units), size=(SETTINGS.bootstrap_samples, len(units))
    )
    assert np.array_equal(draws, resample_indices(len(units), SETTINGS.bootstrap_samples, 7))
    checks = {
        "overall": (section["delta"]["overall"], lambda s: True),
        "stereo": (
            section["delta"]["directions"]["stereo"],
            lambda s: s.direction == "stereo" and not s.tie,
        ),
        "socioeconomic": (
            next(r for r in section["delta"]["bias_types"] if r["bias_type"] == "socioeconomic"),
            lambda s: s.bias_type == "socioeconomic",
        ),
    }
    for name, (row, member) in checks.items():
        deltas = []
        for draw in draws:
            sample = [units[i] for i in draw]
            b, a = _metric(sample, before, member), _metric(sample, after, member)
            if a is not None and b is not None:
                deltas.append(a - b)
        assert row["defined"] == len(deltas), name
        low, high = np.percentile(deltas, [2.5, 97.5])
        assert row["ci_low"] == pytest.approx(low), name
        assert row["ci_high"] == pytest.approx(high), name
        assert row["ci_low"] <= row["delta"] <= row["ci_high"], name


def test_threshold_curves_use_the_metrics_definition(report) -> None:
    section = report.data["models"][1]
    thresholds = report.data["settings"]["thresholds"]
    assert thresholds[0] == 0 and thresholds[-1] == 20 and 5.0 in thresholds
    for version in ("before", "after"):
        scores = list(_scores(section, version).values())
        curves = section["threshold_curves"][version]
        for i, t in enumerate(thresholds):
            labels = [s.threshold_label(t) for s in scores]
            for label in ("neutral", "biased", "non-biased"):
                assert curves[label][i] == pytest.approx(100 * labels.count(label) / len(scores))
            assert sum(curves[label][i] for label in curves) == pytest.approx(100)
        at_default = summarize(scores)["threshold_view"]
        i = thresholds.index(at_default["threshold_percent"])
        assert curves["biased"][i] == pytest.approx(at_default["biased"]["percent"])


# --------------------------------------------------------------------------- cache


def test_unchanged_pairs_cost_nothing_the_second_time(report) -> None:
    runs = {(r.model, r.version): r.stats for r in report.runs}
    for section in report.data["models"]:
        compute = section["compute"]
        after = runs[(section["label"], "v2")]
        # On a fresh cache, AFTER's hits are exactly the masked copies BEFORE computed.
        assert after.cache_hits == compute["after"]["reused_from_before"]
        assert after.computed == compute["after"]["new"] > 0
        assert compute["forward_passes_saved"] == compute["after"]["reused_from_before"] > 0
        assert runs[(section["label"], "v1")].computed == compute["before"]["unique_masked"]
        assert compute["before"]["metric_py_passes"] >= compute["before"]["unique_masked"]


def test_second_run_does_no_forward_pass_and_reports_the_same(
    report, models: list[Path], cache_path: Path
) -> None:
    again = score_versions(
        ComparedVersion("v1", BEFORE), ComparedVersion("v2", AFTER), models, cache=cache_path, settings=SETTINGS
    )
    assert again.computed == 0
    assert again.cache_hits == report.computed + report.cache_hits
    assert again.data == report.data


# --------------------------------------------------------------------------- without a model


def _score(pair: Pair, more: float, less: float) -> PairScore:
    return PairScore(
        pair.pair_id, pair.sent_more, pair.sent_less, more, less, pair.direction, pair.bias_type
    )


def test_hand_made_scores_give_exact_deltas_and_degenerate_intervals() -> None:
    before = [_score(p, -10.0, -12.0) for p in BEFORE]  # every pair biased
    after_pairs = {p.pair_id: p for p in AFTER}
    after = [
        _score(p, -12.0, -10.0) if p.pair_id in (1, 3) else _score(p, -10.0, -12.0)
        for p in after_pairs.values()
    ]
    section = compare_scores(before, after, align_versions(BEFORE, AFTER), SETTINGS)
    assert section["before"]["metric_score"] == 100.0
    assert section["after"]["metric_score"] == pytest.approx(100 * 7 / 9)
    assert section["flips"]["count"] == 2 and section["flips"]["to_not_biased"] == 2
    assert section["mcnemar"]["table"] == [[5, 2], [0, 0]]
    assert section["mcnemar"]["p_value"] == pytest.approx(0.5)
    rows = {r["bias_type"]: r for r in section["delta"]["bias_types"]}
    # gender: one pair, biased in both versions: every resample gives a delta of exactly 0.
    assert rows["gender"]["delta"] == 0.0
    assert rows["gender"]["ci_low"] == rows["gender"]["ci_high"] == 0.0


def test_no_discordant_pair_gives_p_1_and_empty_versions_work() -> None:
    scores = [_score(p, -1.0, -2.0) for p in BEFORE]
    section = compare_scores(scores, scores, align_versions(BEFORE, BEFORE), SETTINGS)
    assert section["mcnemar"]["p_value"] == 1.0 and section["flips"]["rate"] is None
    assert section["delta"]["overall"]["delta"] == 0.0
    empty = compare_scores([], [], align_versions([], []), SETTINGS)
    assert empty["delta"]["overall"] == {
        "before": None,
        "after": None,
        "delta": None,
        "ci_low": None,
        "ci_high": None,
        "defined": 0,
    }


def test_model_labels_are_short_and_unique(tmp_path: Path) -> None:
    (tmp_path / "a" / "bert").mkdir(parents=True)
    (tmp_path / "b" / "bert").mkdir(parents=True)
    names = [str(tmp_path / "a" / "bert"), str(tmp_path / "b" / "bert"), "org/model-name"]
    assert unique_labels(names) == ["bert (1)", "bert (2)", "org/model-name"]
