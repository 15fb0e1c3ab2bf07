"""StereoSet: the metrics and sentence scores equal a literal port of the official evaluation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from curate.benchmarks.stereoset.evaluation import ItemScores, evaluate, icat, stereoset_results
from curate.benchmarks.stereoset.io import item_of
from curate.datasets import read_dataset
from tests.support.reference_stereoset import ScoreEvaluator
from tests.support.stereoset_data import INTRA, write_stereoset


def _items(path: Path):
    dataset = read_dataset(path)
    return [item_of(p) for p in dataset.pairs], list(dataset.intersentence)


def _sentence_ids(path: Path) -> dict[tuple[str, str], str]:
    import json

    document = json.loads(path.read_text())
    return {
        (item["id"], s["gold_label"]): s["id"]
        for kind in ("intrasentence", "intersentence")
        for item in document["data"][kind]
        for s in item["sentences"]
    }


def _assert_same_results(ours, reference: dict) -> None:
    for kind, groups in ours.tasks.items():
        for name, group in groups.items():
            ref = reference[kind][name]
            factor = 1 if name == "overall" else 3  # the official domain lists hold each item 3x
            assert group.count * factor == ref["Count"], (kind, name)
            assert group.lms == pytest.approx(ref["LM Score"], abs=1e-6), (kind, name)
            assert group.ss == pytest.approx(ref["SS Score"], abs=1e-6), (kind, name)
            assert group.icat == pytest.approx(ref["ICAT Score"], abs=1e-6), (kind, name)
        assert set(groups) == set(reference[kind])
    assert ours.overall.count == reference["overall"]["Count"]
    for key, attr in (("LM Score", "lms"), ("SS Score", "ss"), ("ICAT Score", "icat")):
        assert getattr(ours.overall, attr) == pytest.approx(reference["overall"][key], abs=1e-6)


def test_metrics_by_hand() -> None:
    items = [
        # term a: pro (2 > 1), both related -> SS 100, LMS 100 ... then a tie, counted anti
        ItemScores("1", "intrasentence", "a", "gender", 2.0, 1.0, 0.5),
        ItemScores("2", "intrasentence", "a", "gender", 1.0, 1.0, 1.0),
        # term b: anti, only the anti sentence beats the unrelated one
        ItemScores("3", "intrasentence", "b", "gender", 0.1, 0.9, 0.5),
    ]
    result = evaluate(items)
    a, b = result.terms
    assert (a.n, a.pro, a.related, a.ss, a.lms) == (2, 1, 2, 50.0, 50.0)
    assert (b.n, b.pro, b.related, b.ss, b.lms) == (1, 0, 1, 0.0, 50.0)
    assert result.count == 3
    assert result.ss == 25.0 and result.lms == 50.0
    assert result.icat == icat(50.0, 25.0) == 25.0  # from the means, not the mean of terms' ICAT


def test_metrics_equal_the_official_evaluator_on_random_scores(tmp_path: Path) -> None:
    path = write_stereoset(tmp_path / "dev.json")
    ids = _sentence_ids(path)
    intra, inter = _items(path)
    rng = random.Random(7)
    for _ in range(20):
        # coarse scores so that ties (counted as anti / not related) happen too
        scores = {key: rng.choice([0.1, 0.2, 0.3, 0.4]) for key in ids}
        predictions = {
            kind: [{"id": ids[(i.item_id, g)], "score": scores[(i.item_id, g)]} for i in items for g in ("stereotype", "anti-stereotype", "unrelated")]
            for kind, items in (("intrasentence", intra), ("intersentence", inter))
        }
        reference = ScoreEvaluator(str(path), predictions).get_overall_results()
        ours = stereoset_results(
            [
                ItemScores(i.item_id, i.kind, i.target, i.bias_type, scores[(i.item_id, "stereotype")], scores[(i.item_id, "anti-stereotype")], scores[(i.item_id, "unrelated")])
                for i in [*intra, *inter]
            ]
        )
        _assert_same_results(ours, reference)


def test_results_layout(tmp_path: Path) -> None:
    intra, inter = _items(write_stereoset(tmp_path / "dev.json"))
    items = [ItemScores(i.item_id, i.kind, i.target, i.bias_type, 0.3, 0.2, 0.1) for i in [*intra, *inter]]
    data = stereoset_results(items).to_dict()
    assert list(data) == ["intrasentence", "intersentence", "overall"]
    assert list(data["intrasentence"]) == ["gender", "profession", "race", "religion", "overall"]
    assert list(data["intersentence"]) == ["gender", "race", "overall"]
    assert data["intrasentence"]["overall"]["count"] == len(INTRA)
    assert data["overall"] == {"count": len(INTRA) + 2, "lms": 100.0, "ss": 100.0, "icat": 0.0}
