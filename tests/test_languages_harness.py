"""``curate score --method clm-sum`` on the French CrowS-Pairs equals lm-evaluation-harness's own
``crows_pairs_french`` task, run on a local copy of the same file with a tiny GPT-2, offline.

The harness's task is used as shipped: a task YAML in a temporary folder ``include``s the
harness's ``crows_pairs_french.yaml`` (its ``doc_to_choice``, ``process_results`` and metric list)
and overrides only where the pairs come from (the hub's ``jannalu/crows_pairs_multilingual`` ->
the local CSV). Per pair the two log-likelihoods must agree within 1e-4, and ``pct_stereotype``
must equal the share of pairs whose ``sent_more`` curate scores strictly higher.

One pair cannot go through the harness: French pair 129 has an empty ``sent_less``, and
``HFLM.loglikelihood`` indexes the first token of every continuation (``IndexError`` on an empty
one), while curate scores it as the log-probability of no tokens, 0. The comparison therefore
runs on a copy without that pair (written here, in the test's temporary folder) and the test
checks that exactly that pair was left out and that the harness really does fail on it.
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
from curate.datasets import read_pairs
from tests.support.tiny_models import build_tiny_model, single_thread, training_corpus

lm_eval = pytest.importorskip("lm_eval")

REPO = Path(__file__).resolve().parents[1]
REGISTRY = REPO / "data" / "raw" / "sources.toml"
TASK = "crows_pairs_french_local"


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-datasets"))


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    source = sources.load_sources(REGISTRY)["crows-pairs-french"]
    return sources.fetch(source, tmp_path_factory.mktemp("raw")).path


@pytest.fixture(scope="module")
def gpt2(french: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny GPT-2 whose byte-level BPE is trained on the French sentences (so every pair fits
    its 256 positions), as a French causal model's would be."""
    pairs = read_pairs(french)
    corpus = training_corpus([s for p in pairs for s in (p.sent_more, p.sent_less) if s])
    return build_tiny_model("gpt2", tmp_path_factory.mktemp("model") / "gpt2", corpus, max_positions=256)


def _without_empty_sentences(source: Path, dest: Path) -> list[int]:
    """Copy ``source`` to ``dest`` without the rows that have an empty sentence; their ids."""
    with source.open(encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    more, less = header.index("sent_more"), header.index("sent_less")
    dropped = [int(r[0]) for r in rows if not r[more] or not r[less]]
    with dest.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(
            [header, *(r for r in rows if r[more] and r[less])]
        )
    return dropped


def _harness_task(folder: Path, data: Path) -> Path:
    """A task folder whose one task is the harness's ``crows_pairs_french`` on ``data``."""
    harness_yaml = Path(lm_eval.__file__).parent / "tasks" / "crows_pairs" / "crows_pairs_french.yaml"
    assert harness_yaml.is_file(), harness_yaml
    folder.mkdir()
    (folder / f"{TASK}.yaml").write_text(
        f"include: {harness_yaml}\n"
        f"task: {TASK}\n"
        "dataset_path: csv\n"
        "dataset_name: null\n"
        "dataset_kwargs:\n"
        "  data_files:\n"
        f"    test: {data}\n"
        "  keep_default_na: false\n",  # an empty cell stays "" (not None)
        encoding="utf-8",
    )
    return folder


def _evaluate(tasks: Path, model: Path, **kwargs):
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    return simple_evaluate(
        model="hf",
        model_args=f"pretrained={model},dtype=float32",
        tasks=[TASK],
        task_manager=TaskManager(include_path=str(tasks)),
        device="cpu",
        batch_size=1,
        **kwargs,
    )


def _curate_clm_sum(data: Path, model: Path, out: Path) -> dict[int, tuple[float, float]]:
    result = CliRunner().invoke(
        app, ["score", str(data), "-m", str(model), "--method", "clm-sum", "-o", str(out), "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    (scores,) = list(out.rglob("scores.csv"))
    with scores.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {int(r["pair_id"]): (float(r["sent_more_score"]), float(r["sent_less_score"])) for r in rows}


@pytest.mark.slow
def test_clm_sum_on_the_french_file_equals_the_harness_crows_pairs_french(
    french: Path, gpt2: Path, tmp_path: Path
) -> None:
    data = tmp_path / "crows_french_nonempty.csv"
    assert _without_empty_sentences(french, data) == [129]
    tasks = _harness_task(tmp_path / "tasks", data)
    with single_thread():
        results = _evaluate(tasks, gpt2, log_samples=True)
        ours = _curate_clm_sum(data, gpt2, tmp_path / "score")
    samples = results["samples"][TASK]
    assert len(samples) == len(ours) == 1462
    assert {s["doc"]["id"] for s in samples} == set(ours)
    worst = 0.0
    for sample in samples:
        assert sample["arguments"][0][0] == ""  # the harness's empty context
        (more,), (less,) = sample["resps"]
        expected = ours[sample["doc"]["id"]]
        worst = max(worst, abs(more[0] - expected[0]), abs(less[0] - expected[1]))
    print(f"harness crows_pairs_french vs curate clm-sum: max |delta ll| = {worst:.2e}")
    assert worst < 1e-4, worst
    harness_metric = 100 * results["results"][TASK]["pct_stereotype,none"]
    our_metric = 100 * sum(more > less for more, less in ours.values()) / len(ours)
    print(f"pct_stereotype: harness {harness_metric:.4f}, curate {our_metric:.4f}")
    assert math.isclose(harness_metric, our_metric, abs_tol=1e-9)


def test_the_harness_cannot_score_the_empty_sentence_that_curate_scores(
    french: Path, gpt2: Path, tmp_path: Path
) -> None:
    """Why pair 129 is left out above: on it the harness fails, curate gives the empty
    sentence the log-probability of no tokens."""
    with french.open(encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    (row,) = [r for r in rows if r[0] == "129"]
    data = tmp_path / "pair129.csv"
    with data.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([header, row])
    tasks = _harness_task(tmp_path / "tasks", data)
    with single_thread():
        with pytest.raises(IndexError):
            _evaluate(tasks, gpt2)
        ours = _curate_clm_sum(data, gpt2, tmp_path / "score")
    (more, less), = ours.values()
    assert less == 0.0 and more < 0.0
