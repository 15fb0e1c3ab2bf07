"""A French or Dutch release carries the lm-evaluation-harness task of its language.

Releases of the first 40 pairs of the shared French and Dutch files are published as an English
one is; their ``lm_eval/`` folders are loaded, side by side, by the harness's real
``TaskManager(include_path=...)``, offline. Each task is named and tagged for its language, its
documents are the release's pairs (accents intact), and the French one, run by
``simple_evaluate`` on a tiny GPT-2, gives per pair the log-likelihoods of ``curate score
--method clm-sum`` on the release's CSV, and the same ``pct_stereotype``.
"""

from __future__ import annotations

import csv
import math
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import sources
from curate.cli import app
from curate.datasets import read_dataset, read_pairs
from curate.release.lm_eval_task import task_name
from curate.release.publish import publish
from tests.support.release_project import make_project, raw_sha, recipe_text, write_recipe
from tests.support.tiny_models import single_thread, tiny_model_dir, training_corpus

lm_eval = pytest.importorskip("lm_eval")
pytest.importorskip("datasets")

REPO = Path(__file__).resolve().parents[1]
REGISTRY = REPO / "data" / "raw" / "sources.toml"
VERSION = "1.0.0-small"
N = 40


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-datasets"))


def _shared(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    source = sources.load_sources(REGISTRY)[name]
    return sources.fetch(source, tmp_path_factory.mktemp("raw")).path


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """language -> the ``dist`` folder of a release of that language's first 40 pairs."""
    out = {}
    for language, name in (("fr", "crows-pairs-french"), ("nl", "crows-pairs-dutch")):
        pairs = read_dataset(_shared(name, tmp_path_factory)).pairs[:N]
        cfg = make_project(tmp_path_factory.mktemp(f"project-{language}") / "p", pairs=tuple(pairs))
        write_recipe(cfg, VERSION, recipe_text(raw_sha(cfg), title=f"Small {language}"))
        out[language] = publish(cfg, VERSION).dist
    return out


def test_each_release_names_its_task_after_its_language(releases: dict[str, Path]) -> None:
    assert task_name(VERSION) == "crows_pairs_revised_1_0_0_small"  # English keeps its name
    for language, word in (("fr", "french"), ("nl", "dutch")):
        dist = releases[language]
        task = task_name(VERSION, language)
        assert task == f"crows_pairs_{word}_revised_1_0_0_small"
        text = (dist / "lm_eval" / f"{task}.yaml").read_text(encoding="utf-8")
        assert f"  - crows_pairs_revised_{word}\n" in text
        assert f"crows_pairs_{word} task" in text
        assert not list((dist / "lm_eval").glob("crows_pairs_revised_*.yaml"))
        card = (dist / "README.md").read_text(encoding="utf-8")
        assert f"--tasks {task} " in card
        sums = (dist / "SHA256SUMS").read_text(encoding="utf-8")
        assert f"  lm_eval/{task}.yaml\n" in sums


def test_french_and_dutch_releases_load_side_by_side_in_the_task_manager(
    releases: dict[str, Path],
) -> None:
    from lm_eval.tasks import TaskManager

    manager = TaskManager(include_path=[str(releases[lang] / "lm_eval") for lang in ("fr", "nl")])
    for language, word in (("fr", "french"), ("nl", "dutch")):
        task = task_name(VERSION, language)
        assert task in manager.all_tasks
        assert f"crows_pairs_revised_{word}" in manager.all_tasks  # the language's tag
        loaded = manager.load([task])["tasks"]
        (built,) = loaded.values()
        docs = list(built.test_docs())
        pairs = read_pairs(releases[language] / "crows_pairs_revised.csv")
        assert len(docs) == len(pairs) == N
        assert [(d["sent_more"], d["sent_less"]) for d in docs] == [
            (p.sent_more, p.sent_less) for p in pairs
        ]
        # a sub-task per bias type keeps only its pairs
        gender = manager.load([f"{task}_gender"])["tasks"]
        (gender_task,) = gender.values()
        assert [d["id"] for d in gender_task.test_docs()] == [
            p.pair_id for p in pairs if p.bias_type == "gender"
        ]
    # the tag of one language loads that language's tasks only (the sub-tasks include the
    # task's YAML, tags and all, as the harness's crows_pairs_english_<type> do)
    tagged = set(manager.load(["crows_pairs_revised_dutch"])["tasks"])
    dutch = task_name(VERSION, "nl")
    assert dutch in tagged and all(name.startswith(dutch) for name in tagged)
    accented = [d for d in manager.load([task_name(VERSION, "fr")])["tasks"].popitem()[1].test_docs()
                if any(ch in d["sent_more"] for ch in "éèàç")]
    assert accented  # the French accents arrive as written


def _curate_clm_sum(data: Path, model: Path, out: Path) -> dict[int, tuple[float, float]]:
    result = CliRunner().invoke(
        app,
        ["score", str(data), "-m", str(model), "--method", "clm-sum", "-o", str(out), "--no-cache"],
    )
    assert result.exit_code == 0, result.output
    (scores,) = list(out.rglob("scores.csv"))
    with scores.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {
        int(r["pair_id"]): (float(r["sent_more_score"]), float(r["sent_less_score"])) for r in rows
    }


@pytest.mark.slow
@pytest.mark.parametrize("language", ["fr", "nl"])
def test_the_language_task_runs_in_the_harness_and_equals_curate_clm_sum(
    language: str, releases: dict[str, Path], tmp_path: Path
) -> None:
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    dist = releases[language]
    pairs = read_pairs(dist / "crows_pairs_revised.csv")
    model = tiny_model_dir("gpt2", training_corpus([p.sent_more for p in pairs]))
    task = task_name(VERSION, language)
    with single_thread():
        results = simple_evaluate(
            model="hf",
            model_args=f"pretrained={model},dtype=float32",
            tasks=[task],
            task_manager=TaskManager(include_path=str(dist / "lm_eval")),
            device="cpu",
            batch_size=1,
            log_samples=True,
        )
        ours = _curate_clm_sum(dist / "crows_pairs_revised.csv", model, tmp_path / "score")
    samples = results["samples"][task]
    assert len(samples) == len(ours) == N
    worst = 0.0
    for sample in samples:
        (more,), (less,) = sample["resps"]
        expected = ours[sample["doc"]["id"]]
        worst = max(worst, abs(more[0] - expected[0]), abs(less[0] - expected[1]))
    print(f"{language}: harness vs curate clm-sum: max |delta ll| = {worst:.2e}")
    assert worst < 1e-4, worst
    harness_metric = 100 * results["results"][task]["pct_stereotype,none"]
    our_metric = 100 * sum(more > less for more, less in ours.values()) / len(ours)
    assert math.isclose(harness_metric, our_metric, abs_tol=1e-9)
