"""Cross-lingual parallel forms: the French and Dutch CrowS-Pairs, aligned by the English pair id,
are two forms of the same pairs; ``curate instrument reliability`` compares every model of one
language with every model of the other (the five published score sets, imported as they are),
per bias type, with agreement, Cohen's kappa, n and intervals.

The expected cells are recomputed in the test from the imported ``scores.csv`` files (verdict =
sent_more scored strictly higher), never typed.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score
from typer.testing import CliRunner

from curate import sources
from curate.cli import app

REPO = Path(__file__).resolve().parents[1]
REGISTRY = REPO / "data" / "raw" / "sources.toml"
FRENCH = ("camembert", "flaubert")
DUTCH = ("bertje", "mbert", "robbert")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(French file, Dutch file, a scores folder with the five published outputs imported)."""
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    registry = sources.load_sources(REGISTRY)

    def fetch(name: str) -> Path:
        return sources.fetch(registry[name], tmp_path_factory.mktemp("raw")).path

    french, dutch = fetch("crows-pairs-french"), fetch("crows-pairs-dutch")
    scores = tmp_path_factory.mktemp("scores")
    for data, models, language in ((french, FRENCH, "french"), (dutch, DUTCH, "dutch")):
        for model in models:
            published = fetch(f"crows-pairs-{language}-{model}")
            result = CliRunner().invoke(
                app, ["score", str(data), "--import", str(published), "-m", model,
                      "--out", str(scores / model)],
            )
            assert result.exit_code == 0, result.output
    return french, dutch, scores


def _verdicts(scores: Path, model: str) -> dict[int, tuple[int, str]]:
    (path,) = list((scores / model).rglob("scores.csv"))
    with path.open(encoding="utf-8", newline="") as handle:
        return {
            int(r["pair_id"]): (int(float(r["sent_more_score"]) > float(r["sent_less_score"])), r["bias_type"])
            for r in csv.DictReader(handle)
        }


def test_french_and_dutch_are_parallel_forms_across_the_models_of_each(imported, tmp_path) -> None:
    french, dutch, scores = imported
    result = CliRunner().invoke(
        app,
        ["instrument", "reliability", str(dutch), "--original", str(french), "--scores", str(scores),
         "--format", "json", "--out", str(tmp_path / "report")],
    )
    assert result.exit_code in (0, 1), result.output
    report = json.loads(next((tmp_path / "report").rglob("*.json")).read_text("utf-8"))
    rows = report["rows"]
    labels = {r["label"] for r in rows}
    # every French model against every Dutch one, none against itself
    assert len(labels) == len(FRENCH) * len(DUTCH)
    assert all(" / " in label for label in labels)
    fr_verdicts = {m: _verdicts(scores, m) for m in FRENCH}
    nl_verdicts = {m: _verdicts(scores, m) for m in DUTCH}
    checked = 0
    for row in rows:
        fr_model = next(m for m in FRENCH if row["original_label"].startswith(m))
        alternate_label = row["label"].split(" / ")[1]
        nl_model = next(m for m in DUTCH if alternate_label.startswith(m))
        fr, nl = fr_verdicts[fr_model], nl_verdicts[nl_model]
        ids = sorted(i for i, (_, bias) in nl.items() if bias == row["bias_type"] and i in fr)
        a = [fr[i][0] for i in ids]
        b = [nl[i][0] for i in ids]
        assert row["agreement"]["n"] == len(ids)
        if not ids:
            continue
        same = sum(x == y for x, y in zip(a, b, strict=True)) / len(ids)
        assert row["agreement"]["value"] == pytest.approx(same, abs=1e-12)
        low, high = row["agreement"]["low"], row["agreement"]["high"]
        assert low is None or low <= same <= high
        if len(set(a)) > 1 or len(set(b)) > 1:
            kappa = cohen_kappa_score(a, b)
            if row["kappa"]["value"] is not None:
                assert row["kappa"]["value"] == pytest.approx(kappa, abs=1e-9)
                checked += 1
    assert checked >= len(labels)  # kappas were compared for every model couple
