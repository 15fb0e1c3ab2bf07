"""WinoGender scoring on the shared files with a tiny GPT-2: curate's ``winogender-clm`` equals
lm-evaluation-harness' own ``winogender_*`` tasks (run by the harness on a local copy of the
data in the Hugging Face layout the tasks read), and its BLS / Bergsma & Lin correlations equal
scipy's on the numbers of its own ``winogender.csv``."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import pytest
from scipy import stats
from typer.testing import CliRunner

from curate.cli import app
from tests.support.tiny_models import single_thread, tiny_model_dir
from tests.support.winogender import fetch_winogender

lm_eval = pytest.importorskip("lm_eval")

runner = CliRunner()
PRONOUNS = {"he": "male", "him": "male", "his": "male", "she": "female", "her": "female",
            "they": "neutral", "them": "neutral", "their": "neutral"}
#: The harness's subtasks and what they keep (its utils.py filters by the `gender` column).
SUBTASKS = {"all": None, "male": "male", "female": "female", "neutral": "neutral"}


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fetch_winogender(tmp_path_factory.mktemp("winogender"))


@pytest.fixture(scope="module")
def scored(upstream: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("score")
    model = tiny_model_dir("gpt2")
    with single_thread():
        result = runner.invoke(
            app, ["score", str(upstream), "-m", f"{model}=gpt2", "-o", str(out), "--no-cache", "--format", "json"]
        )
    assert result.exit_code == 0, result.output
    return out / "gpt2" / "winogender-clm"


def _tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _hf_layout(upstream: Path, dest: Path) -> Path:
    """The 720 sentences as the Hugging Face copy the harness reads lays them out
    (sentid, sentence, pronoun, occupation, participant, gender, target, label, gotcha)."""
    bls = {r["occupation"]: float(r["bls_pct_female"]) for r in _tsv(upstream / "occupations-stats.tsv")}
    rows = []
    for r in _tsv(upstream / "all_sentences.tsv"):
        occupation, participant, answer, gender, _ = r["sentid"].split(".")
        words = r["sentence"].replace(".", " ").replace(",", " ").split()
        pronoun = next(w for w in words if w.lower() in PRONOUNS)
        majority = "female" if bls[occupation] > 50 else "male"
        gotcha = gender != "neutral" and ((gender != majority) if answer == "0" else (gender == majority))
        label = int(answer)
        rows.append({
            "sentid": r["sentid"], "sentence": r["sentence"], "pronoun": pronoun,
            "occupation": occupation, "participant": participant, "gender": gender,
            "target": (occupation, participant)[label], "label": label, "gotcha": gotcha,
        })
    assert sum(r["gotcha"] for r in rows) == 240  # the size of the harness's gotcha set
    for name, keep in (("test.tsv", rows), ("gotcha.tsv", [r for r in rows if r["gotcha"]])):
        with (dest / name).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]), delimiter="\t")
            writer.writeheader()
            writer.writerows(keep)
    return dest


def _tasks(data: Path, dest: Path) -> list[str]:
    """The harness's winogender task files, with the data set pointed at the local copy: its
    own winogender.yaml's prompt, choices and metric, and its own utils.py filters."""
    import yaml

    harness = Path(lm_eval.__file__).parent / "tasks" / "winogender"
    base = yaml.safe_load((harness / "winogender.yaml").read_text(encoding="utf-8"))
    shutil.copyfile(harness / "utils.py", dest / "utils.py")
    names = []
    for subset, file in (("all", "test.tsv"), ("gotcha", "gotcha.tsv")):
        for gender, keep in SUBTASKS.items():
            if subset == "gotcha" and gender == "neutral":
                continue
            task = f"local_winogender_{subset}" + ("" if keep is None else f"_{gender}")
            config = {k: v for k, v in base.items() if k not in ("tag", "task", "dataset_path", "dataset_name")}
            config |= {
                "task": task,
                "dataset_path": "csv",
                "dataset_kwargs": {"data_files": {"test": str(data / file)}, "delimiter": "\t"},
            }
            text = yaml.safe_dump(config, allow_unicode=True)
            if keep is not None:
                text += f"process_docs: !function utils.filter_{keep}\n"
            (dest / f"{task}.yaml").write_text(text, encoding="utf-8")
            names.append(task)
    return names


@pytest.mark.slow
def test_multiple_choice_equals_the_harness(upstream: Path, scored: Path, tmp_path: Path) -> None:
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    data = _hf_layout(upstream, tmp_path)
    folder = tmp_path / "tasks"
    folder.mkdir()
    tasks = _tasks(data, folder)
    with single_thread():
        results = simple_evaluate(
            model="hf",
            model_args=f"pretrained={tiny_model_dir('gpt2')},dtype=float32",
            tasks=tasks,
            task_manager=TaskManager(include_path=str(folder)),
            device="cpu",
            batch_size=1,
            log_samples=True,
        )
    ours = {r["sentid"]: r for r in _csv(scored / "choices.csv")}
    assert len(ours) == 720
    samples = results["samples"]["local_winogender_all"]
    assert len(samples) == 720
    worst = 0.0
    for sample in samples:
        (occupation,), (participant,) = (tuple(x[:1]) for x in sample["resps"])
        row = ours[sample["doc"]["sentid"]]
        worst = max(worst, abs(occupation[0] - float(row["occupation_ll"])),
                    abs(participant[0] - float(row["participant_ll"])))
    print(f"harness vs curate winogender-clm: max |delta ll| = {worst:.2e}")
    assert worst < 1e-4, worst
    summary = json.loads((scored / "summary.json").read_text(encoding="utf-8"))
    accuracy = summary["winogender"]["multiple_choice"]
    for task in tasks:
        key = task.removeprefix("local_winogender_")
        key = {"all_male": "male", "all_female": "female", "all_neutral": "neutral"}.get(key, key)
        harness = results["results"][task]["acc,none"]
        print(f"{task}: harness {harness:.4f}, curate {accuracy[key]['acc']:.4f} (n={accuracy[key]['n']})")
        assert accuracy[key]["acc"] == pytest.approx(harness, abs=1e-12), task
        assert accuracy[key]["n"] == len(results["samples"][task])


@pytest.mark.slow
def test_correlations_equal_scipy(upstream: Path, scored: Path) -> None:
    """Recomputed from winogender.csv's sentence scores and the statistics file, by hand."""
    per: dict[str, list[float]] = {}
    for row in _csv(scored / "winogender.csv"):
        male, female = float(row["male_score"]), float(row["female_score"])
        per.setdefault(row["occupation"], []).append(100 * math.exp(female) / (math.exp(female) + math.exp(male)))
    figures = {r["occupation"]: r for r in _tsv(upstream / "occupations-stats.tsv")}
    occupations = sorted(per)
    assert len(occupations) == 60 and all(len(per[o]) == 4 for o in occupations)
    preference = [sum(per[o]) / 4 for o in occupations]
    summary = json.loads((scored / "summary.json").read_text(encoding="utf-8"))["winogender"]
    for key, column in (("bls", "bls_pct_female"), ("bergsma", "bergsma_pct_female")):
        expected = stats.pearsonr(preference, [float(figures[o][column]) for o in occupations])
        interval = expected.confidence_interval(0.95)
        got = summary["correlation"][key]
        assert got["n"] == 60
        assert got["r"] == pytest.approx(expected.statistic, abs=1e-9)
        assert (got["ci_low"], got["ci_high"]) == pytest.approx((interval.low, interval.high), abs=1e-9)
        assert got["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    # the pair metric of summary.json is the shared one: the share of pairs where the
    # BLS-majority pronoun's sentence scores higher, read from scores.csv
    rows = _csv(scored / "scores.csv")
    assert len(rows) == 240
    biased = sum(float(r["sent_more_score"]) > float(r["sent_less_score"]) for r in rows)
    full = json.loads((scored / "summary.json").read_text(encoding="utf-8"))
    assert full["summary"]["metric_score"] == pytest.approx(100 * biased / 240)


@pytest.mark.slow
def test_diff_report_and_explorer_take_it_as_any_benchmark(upstream: Path, scored: Path, tmp_path: Path) -> None:
    """Through the registry: diff-report compares two WinoGender folders pair by pair, and the
    explorer reads the own route's score column like any other."""
    edited = Path(shutil.copytree(upstream, tmp_path / "edited"))
    sentences = edited / "all_sentences.tsv"
    text = sentences.read_text(encoding="utf-8")
    sentences.write_text(text.replace("she had completed the repair", "she had finished the repair"), encoding="utf-8")
    model = tiny_model_dir("gpt2")
    with single_thread():
        result = runner.invoke(app, [
            "diff-report", str(upstream), str(edited), "-m", str(model), "--method", "clm-sum",
            "-o", str(tmp_path / "diff"), "--no-cache", "--format", "json",
        ])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "diff" / "report.json").read_text(encoding="utf-8"))
    # one pair per (occupation, participant, answer) whose female sentence held the phrase
    touched = {r["sentid"].rsplit(".", 2)[0] for r in _tsv(upstream / "all_sentences.tsv")
               if "she had completed the repair" in r["sentence"]}
    assert len(touched) == 4
    assert report["alignment"]["counts"] == {"unchanged": 236, "edited": 4, "dropped": 0, "added": 0}
    explored = runner.invoke(app, [
        "explore", str(upstream), str(edited), "--scores", str(scored.parent.parent),
        "--out", str(tmp_path / "site"), "--no-tokens",
    ])
    assert explored.exit_code == 0, explored.output
    assert "240 pairs, 1 column" in explored.output
    site = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "winogender-clm" in site


@pytest.mark.slow
def test_masked_route_scores_the_triples_as_pll(upstream: Path, tmp_path: Path) -> None:
    """winogender-mlm on three occupations with a tiny BERT: the sentence scores are pll's (the
    pair route's, for the same sentences), there is no multiple choice, and r is over the 3."""
    small = Path(shutil.copytree(upstream, tmp_path / "small"))
    keep = ("technician.", "accountant.", "nurse.")
    lines = (upstream / "all_sentences.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
    (small / "all_sentences.tsv").write_text(
        lines[0] + "".join(x for x in lines[1:] if x.startswith(keep)), encoding="utf-8"
    )
    model = tiny_model_dir("bert")
    with single_thread():
        own = runner.invoke(app, ["score", str(small), "-m", f"{model}=bert", "-o", str(tmp_path / "own"), "--no-cache"])
        shared = runner.invoke(app, ["score", str(small), "-m", f"{model}=bert", "--method", "pll",
                                     "-o", str(tmp_path / "shared"), "--no-cache"])
    assert own.exit_code == 0, own.output
    assert shared.exit_code == 0, shared.output
    folder = tmp_path / "own" / "bert" / "winogender-mlm"
    assert not (folder / "choices.csv").exists()
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert "multiple_choice" not in summary["winogender"]
    assert summary["winogender"]["correlation"]["bls"]["n"] == 3
    pll = {r["pair_id"]: r for r in _csv(tmp_path / "shared" / "bert" / "scores.csv")}
    ours = _csv(folder / "winogender.csv")
    assert len(ours) == len(pll) == 12
    bls = {r["occupation"]: float(r["bls_pct_female"]) for r in _tsv(upstream / "occupations-stats.tsv")}
    for row in ours:
        more, less = ("female", "male") if bls[row["occupation"]] > 50 else ("male", "female")
        ref = pll[row["pair_id"]]
        assert float(row[f"{more}_score"]) == pytest.approx(float(ref["sent_more_score_full"]), abs=1e-6)
        assert float(row[f"{less}_score"]) == pytest.approx(float(ref["sent_less_score_full"]), abs=1e-6)
        assert row["neutral_score"] != ""
