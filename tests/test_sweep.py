"""``curate sweep`` with the local engine: same bytes as sequential ``curate score``, a rerun
that computes nothing, failures that do not stop the others, plan errors, Ctrl-C and resume."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from curate.cli import app
from tests.conftest import repo_env
from tests.support.cli_imports import RUN_MAIN_AND_REPORT_HEAVY
from tests.support.sweep_project import MODELS, column_files, reference, write_project
from tests.support.tiny_models import single_thread, tiny_model_dir

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of sequential curate score (2 versions x 3 models x their methods)."""
    root = tmp_path_factory.mktemp("reference")
    write_project(root)
    return column_files(reference(root))


def _sweep(*args: str):
    return runner.invoke(app, ["sweep", *args])


def test_sweep_writes_the_bytes_of_sequential_score_and_a_rerun_computes_nothing(
    tmp_path, expected
):
    plan = write_project(tmp_path)
    result = _sweep(str(plan))
    assert result.exit_code == 0, result.output
    assert column_files(tmp_path / "out") == expected
    document = json.loads((tmp_path / "out" / "sweep.json").read_text(encoding="utf-8"))
    columns = document["columns"]
    # masked LMs: every masked method of the registry; causal: every causal one
    from curate.score.methods import methods_of_kind

    per_version = 2 * len(methods_of_kind("masked")) + len(methods_of_kind("causal"))
    assert len(columns) == 2 * per_version and document["failed"] == 0
    first = columns[0]
    assert first["ci95"][0] <= first["metric_score"] <= first["ci95"][1]
    assert (tmp_path / "out" / first["path"] / "summary.json").is_file()
    assert "Sweep" in result.stdout

    rerun = _sweep(str(plan), "--format", "json")
    assert rerun.exit_code == 0, rerun.output
    jobs = json.loads(rerun.stdout)["jobs"]
    assert len(jobs) == len(columns)
    assert all(job["status"] == "cached" and job["computed"] == 0 for job in jobs)
    assert column_files(tmp_path / "out") == expected


def test_an_unloadable_model_fails_alone_with_exit_1(tmp_path, expected):
    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "config.json").write_text("{not json", encoding="utf-8")
    extra = (
        f'[[model]]\nname = "{broken}"\nlabel = "broken"\n\n'
        f'[[model]]\nname = "{tiny_model_dir("bert")}"\nlabel = "bert-clm"\n'
        'methods = ["pll", "clm-sum"]\n'
    )
    plan = write_project(tmp_path, extra_models=extra)
    result = _sweep(str(plan))
    assert result.exit_code == 1, result.output
    assert "broken" in result.stderr and "Traceback" not in result.output
    assert "clm-sum" in result.stderr and "masked language model" in result.stderr
    written = column_files(tmp_path / "out")
    assert {k: v for k, v in written.items() if k in expected} == expected
    # the fitting method of the model with an unfit one still ran
    assert "v1/bert-clm/scores.csv" in written
    document = json.loads((tmp_path / "out" / "sweep.json").read_text(encoding="utf-8"))
    failed = [c for c in document["columns"] if c["status"] == "failed"]
    assert {(c["model"], c["method"]) for c in failed} == {("broken", "*"), ("bert-clm", "clm-sum")}


@pytest.mark.parametrize(
    ("plan_text", "message"),
    [
        ('output = "out"\n[[model]\n', "not valid TOML"),
        ('output = "out"\nbatchsize = 3\n', "unknown key 'batchsize'"),
        ('output = "out"\n[[version]]\ndata = "v1.csv"\n', "no [[model]] entry"),
        (
            'output = "out"\n[[model]]\nname = "m"\nmethods = ["plll"]\n'
            '[[version]]\ndata = "v1.csv"\nlabel = "v1"\n',
            "unknown scoring method 'plll'",
        ),
        (
            'output = "out"\n[[model]]\nname = "m"\n[[version]]\ndata = "missing.csv"\n'
            'label = "v"\n',
            "missing.csv",
        ),
        (
            'output = "out"\n[[model]]\nname = "a/b"\nlabel = "x"\n[[model]]\nname = "c"\n'
            'label = "x"\n[[version]]\ndata = "v1.csv"\nlabel = "v1"\n',
            "label 'x' is used twice",
        ),
        (
            '[[model]]\nname = "m"\n[[version]]\ndata = "v1.csv"\nlabel = "v1"\n',
            "output is missing",
        ),
        # names the file system cannot look up: a traceback (OSError) before, found by make fuzz
        (
            f'output = "out"\n[[model]]\nname = "{"a" * 7000}"\n[[version]]\n'
            'data = "v1.csv"\nlabel = "v1"\n',
            "(7,000 characters) cannot be a path here: File name too long",
        ),
        (
            f'output = "out"\n[[model]]\nname = "m"\n[[version]]\ndata = "{"b" * 5000}.csv"\n'
            'label = "v1"\n',
            "data 'bbbb",
        ),
    ],
)
def test_a_bad_plan_is_one_clear_error(tmp_path, plan_text, message):
    write_project(tmp_path)
    plan = tmp_path / "bad.toml"
    plan.write_text(plan_text, encoding="utf-8")
    result = _sweep(str(plan))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "bad.toml" in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("option", [["--address", "auto"], ["--num-cpus", "2"]])
def test_ray_options_need_the_ray_engine(tmp_path, option):
    result = _sweep(str(write_project(tmp_path)), *option)
    assert result.exit_code == 2
    assert f"{option[0]} needs --engine ray" in result.stderr


def test_help_and_the_local_engine_never_import_ray(tmp_path):
    plan = write_project(tmp_path, models=MODELS[:1])
    code = textwrap.dedent(
        f"""
        import sys
        from typer.testing import CliRunner
        from curate.cli import app
        runner = CliRunner()
        assert runner.invoke(app, ["sweep", "--help"]).exit_code == 0
        assert "ray" not in sys.modules, "--help imported ray"
        result = runner.invoke(app, ["sweep", {str(plan)!r}])
        assert result.exit_code == 0, result.output
        assert "ray" not in sys.modules, "the local engine imported ray"
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=repo_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr



#: The driver's side of a Ray sweep in a fresh process: the plan, each model's kind, the
#: groups, then the events a worker sends (pickled bytes, as Ray carries them) replayed by a
#: stand-in for the Ray executor; the driver stores the rows and writes every file.
_DRIVER = """
import json, pickle, sys
from curate.sweep import executors

class Replay:
    def __init__(self, path):
        self.path = path

    def events(self, groups, snapshots, hook):
        with open(self.path, "rb") as handle:
            recorded = pickle.load(handle)
        for index, event in recorded:
            yield index, pickle.loads(event)

replay = Replay(sys.argv[2])
executors.make_executor = lambda engine, **options: replay
sys.argv = ["curate", "sweep", sys.argv[1], "--engine", "ray", "--format", "json"]
""" + RUN_MAIN_AND_REPORT_HEAVY


def test_the_driver_of_a_ray_sweep_imports_neither_torch_nor_transformers(tmp_path, expected):
    """Issue 32: the driver plans (each model's kind, from its config), unpickles what the
    workers send (ScoreResult...) and writes the columns and sweep.json; torch and
    transformers (7 s of the driver's CPU in the profile of issue 32) are the workers' alone.
    The files are still those of sequential curate score."""
    import pickle

    from curate.sweep import executors

    recorded: list[tuple[int, bytes]] = []

    class Recording(executors.LocalExecutor):
        def events(self, groups, snapshots, hook):
            for index, event in super().events(groups, snapshots, hook):
                recorded.append((index, pickle.dumps(event)))
                yield index, event

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(executors, "make_executor", lambda engine, **options: Recording())
        worker_side = write_project(tmp_path / "worker")
        assert _sweep(str(worker_side)).exit_code == 0
    events = tmp_path / "events.pickle"
    events.write_bytes(pickle.dumps(recorded))
    plan = write_project(tmp_path / "driver")
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER, str(plan), str(events)],
        env=repo_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
    statuses = [job["status"] for job in json.loads(done.stdout)["jobs"]]
    assert "computed" in statuses and set(statuses) <= {"computed", "cached"}
    assert column_files(tmp_path / "driver" / "out") == expected


_INTERRUPTED = """
import os, signal, sys
import torch
torch.set_num_threads(1)
from curate.sweep import run as sweep_run
original = sweep_run.run_sweep
batches = [0]

def hook():
    batches[0] += 1
    if batches[0] == 5:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, delivered to the driver's main thread

def patched(plan, **options):
    return original(plan, hook=hook, **options)

sweep_run.run_sweep = patched
from curate.cli import main
sys.argv = ["curate", "sweep", sys.argv[1]]
main()
"""


def test_ctrl_c_leaves_the_cache_consistent_and_the_next_run_resumes(tmp_path, expected):
    plan = write_project(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED, str(plan)],
        cwd=tmp_path,
        env=repo_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 130, done.stderr
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "sweep.json").exists()
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = db.execute("SELECT COUNT(*) FROM logprobs").fetchone()[0]
    assert stored > 0
    rerun = _sweep(str(plan), "--format", "json")
    assert rerun.exit_code == 0, rerun.output
    resumed = sum(job["computed"] for job in json.loads(rerun.stdout)["jobs"])
    assert column_files(tmp_path / "out") == expected
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        total = db.execute("SELECT COUNT(*) FROM logprobs").fetchone()[0]
    assert 0 < stored < total
    fresh = _sweep(str(write_project(tmp_path / "fresh")), "--format", "json")
    assert resumed < sum(job["computed"] for job in json.loads(fresh.stdout)["jobs"])


def test_plan_paths_are_relative_to_the_plan_and_labels_default_as_curate_score(tmp_path):
    from curate.sweep.plan import load_plan

    project = tmp_path / "project"
    (project / "models" / "bert").mkdir(parents=True)
    (project / "v1.csv").write_text("", encoding="utf-8")
    (project / "plan.toml").write_text(
        'output = "out"\nbatch-size = 8\n'
        '[[model]]\nname = "models/bert"\n'
        '[[model]]\nname = "org/some-model"\ndevice = "cuda"\nmethods = ["pll,aul"]\n'
        '[[version]]\ndata = "v1.csv"\nlabel = "first"\n',
        encoding="utf-8",
    )
    plan = load_plan(project / "plan.toml")
    local, hub = plan.models
    assert (local.label, local.name) == ("bert", str((project / "models" / "bert").resolve()))
    assert (hub.label, hub.name) == ("org--some-model", "org/some-model")
    assert hub.methods == ("pll", "aul") and hub.num_gpus == 1 and local.num_gpus == 0
    assert plan.output == project / "out" and plan.batch_size == 8
    assert plan.versions[0].path == project / "v1.csv" and plan.versions[0].label == "first"
