"""A release loads as it is in 🤗 datasets and runs as it is in lm-evaluation-harness.

Both tools are real (test extras): the release's own card header is what ``load_dataset`` reads,
and the exported task folder is what the harness's ``simple_evaluate`` runs, on a tiny local
GPT-2, offline. Its per-pair log-likelihoods and ``pct_stereotype`` must equal
``curate score --method clm-sum`` on the same file.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_pairs
from curate.formats.labels import HF_BIAS_TYPES, HF_DIRECTIONS
from curate.release.lm_eval_task import task_name
from curate.release.publish import HF_PARQUET_NAME, publish
from tests.support.release_project import make_project, raw_sha, recipe_text, write_recipe
from tests.support.tiny_models import single_thread, tiny_model_dir

datasets = pytest.importorskip("datasets")
lm_eval = pytest.importorskip("lm_eval")

VERSION = "1.0.0-small"


@pytest.fixture(scope="module")
def release(crows_pairs_path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A release of the first 40 CrowS-Pairs pairs with the safe typographic autofixes."""
    dist = _release_of(read_pairs(crows_pairs_path)[:40], tmp_path_factory.mktemp("project") / "p")
    return dist.parents[3], dist


def _release_of(pairs, root: Path) -> Path:
    cfg = make_project(root, pairs=tuple(pairs))
    write_recipe(cfg, VERSION, recipe_text(raw_sha(cfg), title="Small"))
    return publish(cfg, VERSION).dist


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def test_load_dataset_reads_the_release_with_upstream_class_labels(release, tmp_path) -> None:
    _, dist = release
    pairs = read_pairs(dist / "crows_pairs_revised.csv")
    loaded = datasets.load_dataset(str(dist), cache_dir=str(tmp_path / "hf-cache"))
    assert list(loaded) == ["test"]
    test = loaded["test"]
    assert test.num_rows == len(pairs) == 40
    features = test.features
    assert features["stereo_antistereo"].names == list(HF_DIRECTIONS)
    assert features["bias_type"].names == list(HF_BIAS_TYPES)
    assert features["annotations"].feature.feature.names == list(HF_BIAS_TYPES)
    for row, pair in zip(test, pairs, strict=True):
        assert row["id"] == pair.pair_id
        assert (row["sent_more"], row["sent_less"]) == (pair.sent_more, pair.sent_less)
        assert features["bias_type"].int2str(row["bias_type"]) == pair.bias_type
        assert features["stereo_antistereo"].int2str(row["stereo_antistereo"]) == pair.direction
        names = [[HF_BIAS_TYPES[i] for i in labels] for labels in row["annotations"]]
        assert [list(a) for a in pair.annotations] == names
        assert row["anon_annotators"] == list(pair.annotators)
        assert row["anon_writer"] == pair.writer


def test_two_releases_never_share_a_datasets_cache_entry(crows_pairs_path, tmp_path) -> None:
    """Every release is a folder named ``dist`` and datasets keys a local folder's cache on its
    name and card header: the header's row count and size keep the two apart."""
    pairs = read_pairs(crows_pairs_path)
    small = _release_of(pairs[:30], tmp_path / "a")
    large = _release_of(pairs[:50], tmp_path / "b")
    cache = str(tmp_path / "shared-cache")
    assert datasets.load_dataset(str(small), split="test", cache_dir=cache).num_rows == 30
    assert datasets.load_dataset(str(large), split="test", cache_dir=cache).num_rows == 50


def test_the_hf_file_is_declared_in_the_card_and_checksummed(release) -> None:
    _, dist = release
    header = (dist / "README.md").read_text(encoding="utf-8").split("---\n")[1]
    assert f"path: {HF_PARQUET_NAME}" in header
    sums = (dist / "SHA256SUMS").read_text(encoding="utf-8")
    for name in (HF_PARQUET_NAME, "lm_eval/utils.py", f"lm_eval/{task_name(VERSION)}.yaml"):
        assert f"  {name}\n" in sums


def _curate_clm_sum(csv_path: Path, model: Path, out: Path) -> tuple[dict[int, tuple[float, float]], float]:
    result = CliRunner().invoke(
        app, ["score", str(csv_path), "-m", str(model), "--method", "clm-sum", "-o", str(out), "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    (scores,) = list(out.rglob("scores.csv"))
    with scores.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    lls = {int(r["pair_id"]): (float(r["sent_more_score"]), float(r["sent_less_score"])) for r in rows}
    metric = 100 * sum(more > less for more, less in lls.values()) / len(lls)
    return lls, metric


@pytest.mark.slow
def test_the_exported_task_runs_in_the_harness_and_equals_curate_clm_sum(release, tmp_path) -> None:
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    _, dist = release
    model = tiny_model_dir("gpt2")
    task = task_name(VERSION)
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
        ours, our_metric = _curate_clm_sum(dist / "crows_pairs_revised.csv", model, tmp_path / "score")
    samples = results["samples"][task]
    assert len(samples) == len(ours) == 40
    worst = 0.0
    for sample in samples:
        (more,), (less,) = sample["resps"]
        expected = ours[sample["doc"]["id"]]
        worst = max(worst, abs(more[0] - expected[0]), abs(less[0] - expected[1]))
    print(f"harness vs curate clm-sum: max |delta ll| = {worst:.2e}")
    assert worst < 1e-4, worst
    harness_metric = 100 * results["results"][task]["pct_stereotype,none"]
    print(f"pct_stereotype: harness {harness_metric:.2f}, curate {our_metric:.2f}")
    assert math.isclose(harness_metric, our_metric, abs_tol=1e-9)
    # the per-bias-type sub-tasks exist and restrict the pairs
    gender = f"{task}_gender"
    assert (dist / "lm_eval" / f"{gender}.yaml").is_file()
