"""Ray's cost and gain for ``curate sweep``, measured side by side in one run.

The same plan (``--models`` random BERT-style masked LMs of equal size, ``pll``, one version of
the first ``--pairs`` CrowS-Pairs pairs) runs three times, each into a fresh output and cache:

1. **sequential**: the local engine, one torch thread (what ``curate score`` does);
2. **ray-1**: a local Ray with one CPU, so its tasks run one after another: the difference
   to sequential is Ray's overhead per job (task submission, shipping the pairs, streaming the
   rows back, the driver's writes);
3. **cluster-2**: a ``ray.cluster_utils.Cluster`` of two nodes with one CPU each: the
   speed-up over sequential is what a second machine buys.

Each phase runs ``--repeats`` times, each into a fresh output and cache, and the fastest run
counts (as in ``bench_methods.py``); every run must write the same bytes (checked). Ray's start
(``ray.init``, the cluster's nodes) is timed apart, and each Ray phase starts with one more,
*cold* run that also starts Ray's worker processes (a new Python with the runtime env,
importing torch and transformers), which a sweep pays once per worker, not per job. Timings on a shared CPU are noisy: each figure
comes with the CPU share, the CPU time of the process tree (driver, and Ray's workers and
daemons) / (wall time x CPUs the phase may use); a share well below 1 means other processes
took the CPU.

Usage: ``python benchmarks/bench_sweep.py [--models 4] [--pairs 260] [--repeats 2]
[--data PATH]`` (260 pairs: about 20 s of CPU per job on this machine, the quiet run of
docs/commands/sweep.md; its earlier run under load used ``--pairs 450``, about 33 s).
(needs the ``ray`` extra: ``pip install -e '.[ray]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import psutil
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from curate.datasets import read_pairs, write_pairs  # noqa: E402
from curate.sweep.plan import load_plan  # noqa: E402
from curate.sweep.run import run_sweep  # noqa: E402
from tests.support.sweep_project import column_files  # noqa: E402
from tests.support.tiny_models import build_tiny_model  # noqa: E402

#: Goals of issue 21.
TARGETS = {"overhead_per_job": 0.05, "two_node_speedup": 1.7}


def build_models(
    directory: Path, count: int, corpus: list[str], hidden: int, layers: int
) -> list[Path]:
    """``count`` BERT-style masked LMs of one size, different seeds (so different cache keys),
    with a WordPiece tokenizer trained on the data's sentences."""
    from transformers import BertConfig, BertForMaskedLM

    paths = []
    for seed in range(count):
        path = build_tiny_model("bert", directory / f"m{seed}", corpus, seed=seed)
        config = BertConfig.from_pretrained(path)
        config.hidden_size, config.num_hidden_layers = hidden, layers
        config.num_attention_heads, config.intermediate_size = max(1, hidden // 64), 4 * hidden
        torch.manual_seed(seed)
        BertForMaskedLM(config).eval().save_pretrained(path)
        paths.append(path)
    return paths


def write_plan(directory: Path, models: list[Path], data: Path) -> Path:
    lines = ['output = "out"\ncache = "cache.sqlite"\nthreads = 1\n']
    for path in models:
        lines.append(f'[[model]]\nname = "{path}"\nlabel = "{path.name}"\nmethods = ["pll"]\n')
    lines.append(f'[[version]]\nlabel = "v1"\ndata = "{data}"\n')
    plan = directory / "plan.toml"
    plan.write_text("\n".join(lines), encoding="utf-8")
    return plan


def tree_cpu() -> float:
    """CPU seconds of this process and every live descendant (Ray's workers and daemons)."""
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            continue
    own = resource.getrusage(resource.RUSAGE_CHILDREN)
    return total + own.ru_utime + own.ru_stime


def run_once(name: str, base: Path, plan_text: str, engine: str, cpus: int) -> dict:
    """One sweep of the plan into a fresh folder (output and cache): its figures and files."""
    directory = base / name
    directory.mkdir()
    plan_path = directory / "plan.toml"
    plan_path.write_text(plan_text, encoding="utf-8")
    plan = load_plan(plan_path)
    cpu0, wall0 = tree_cpu(), time.perf_counter()
    outcome = run_sweep(plan, engine=engine)
    wall = time.perf_counter() - wall0
    cpu = tree_cpu() - cpu0
    assert not outcome.failed, [(s.job, s.reason) for s in outcome.failed]
    jobs = len(outcome.jobs)
    return {
        "run": name,
        "jobs": jobs,
        "wall_s": round(wall, 2),
        "per_job_s": round(wall / jobs, 2),
        "cpu_s": round(cpu, 2),
        "cpu_share": round(cpu / (wall * cpus), 2),
        "files": column_files(directory / "out"),
    }


def phase(name: str, base: Path, plan_text: str, engine: str, cpus: int, repeats: int) -> dict:
    """``repeats`` runs (after a cold one for Ray); the fastest counts, as in bench_methods."""
    cold = run_once(f"{name}-cold", base, plan_text, engine, cpus) if engine == "ray" else None
    runs = [run_once(f"{name}-{i}", base, plan_text, engine, cpus) for i in range(repeats)]
    best = min(runs, key=lambda r: r["wall_s"])
    return {"phase": name, "best": best, "runs": runs, "cold": cold}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=260)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(os.environ.get("CURATE_DATA_MIRROR", ROOT / "data" / "raw"))
        / "crows_pairs_anonymized.csv",
    )
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    torch.set_num_threads(1)
    base = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    try:
        pairs = read_pairs(args.data)[: args.pairs]
        data = base / "pairs.csv"
        write_pairs(pairs, data)
        corpus = [s for p in pairs for s in (p.sent_more, p.sent_less)]
        models = build_models(base / "models", args.models, corpus, args.hidden, args.layers)
        plan_text = write_plan(base, models, data).read_text(encoding="utf-8")
        load0 = os.getloadavg()[0]
        seq = phase("sequential", base, plan_text, "local", 1, args.repeats)

        start = time.perf_counter()
        ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
        ray_start = time.perf_counter() - start
        ray1 = phase("ray-1", base, plan_text, "ray", 1, args.repeats)
        ray.shutdown()

        start = time.perf_counter()
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        cluster_start = time.perf_counter() - start
        two = phase("cluster-2", base, plan_text, "ray", 2, args.repeats)
        ray.shutdown()
        cluster.shutdown()
        load1 = os.getloadavg()[0]

        every = [r for p in (seq, ray1, two) for r in (*p["runs"], p["cold"]) if r]
        written = [r.pop("files") for r in every]
        same = all(files == written[0] for files in written)
        s, r1, c2 = seq["best"], ray1["best"], two["best"]
        report = {
            "models": args.models,
            "pairs": args.pairs,
            "model_size": f"hidden {args.hidden}, {args.layers} layers",
            "machine": f"{os.cpu_count()} CPUs, load average {load0:.1f} before, {load1:.1f} after",
            "phases": [seq, ray1, two],
            "ray_start_s": round(ray_start, 2),
            "cluster_start_s": round(cluster_start, 2),
            "worker_start_s": {
                "ray-1": round(ray1["cold"]["wall_s"] - r1["wall_s"], 2),
                "cluster-2": round(two["cold"]["wall_s"] - c2["wall_s"], 2),
            },
            "sequential_per_job_s": s["per_job_s"],
            "overhead_per_job": round((r1["wall_s"] - s["wall_s"]) / s["wall_s"], 4),
            "overhead_per_job_s": round((r1["wall_s"] - s["wall_s"]) / s["jobs"], 2),
            "overhead_per_job_cpu": round((r1["cpu_s"] - s["cpu_s"]) / s["cpu_s"], 4),
            "two_node_speedup": round(s["wall_s"] / c2["wall_s"], 3),
            "same_bytes": same,
            "targets": TARGETS,
        }
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
