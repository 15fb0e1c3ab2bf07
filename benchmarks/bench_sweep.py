"""Ray's cost and gain for ``curate sweep``, measured side by side in one run.

The same plan (``--models`` random BERT-style masked LMs of equal size, ``pll``, one version of
the first ``--pairs`` CrowS-Pairs pairs) runs three times, each into a fresh output and cache:

1. **sequential**: the local engine, one torch thread (what ``curate score`` does);
2. **ray-1**: a local Ray with one CPU, so its tasks run one after another: the difference
   to sequential is Ray's overhead (task submission, worker start, shipping pairs and rows);
3. **cluster-2**: a ``ray.cluster_utils.Cluster`` of two nodes with one CPU each: the
   speed-up over sequential is what a second machine buys.

Every run must write the same bytes (checked). Timings on a shared CPU are noisy: each figure
comes with the CPU share, the CPU time of the process tree (driver, and Ray's workers and
daemons) / (wall time x CPUs the phase may use); a share well below 1 means other processes
took the CPU. Ray's start (``ray.init``, the cluster's nodes) is timed apart: a sweep pays it
once, not per job.

Usage: ``python benchmarks/bench_sweep.py [--models 4] [--pairs 60] [--data PATH]``
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

from curate.pairs import read_pairs, write_pairs  # noqa: E402
from curate.sweep.plan import load_plan  # noqa: E402
from curate.sweep.run import run_sweep  # noqa: E402
from tests.support.sweep_project import column_files  # noqa: E402
from tests.support.tiny_models import build_tiny_model  # noqa: E402

#: Goals of issue 21.
TARGETS = {"overhead_per_job": 0.05, "two_node_speedup": 1.7}


def build_models(directory: Path, count: int, corpus: list[str], hidden: int, layers: int) -> list[Path]:
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


def phase(name: str, base: Path, plan_text: str, engine: str, cpus: int) -> dict:
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
        "phase": name,
        "jobs": jobs,
        "wall_s": round(wall, 2),
        "per_job_s": round(wall / jobs, 2),
        "cpu_share": round(cpu / (wall * cpus), 2),
        "files": column_files(directory / "out"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
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
        results = [phase("sequential", base, plan_text, "local", 1)]

        start = time.perf_counter()
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
        ray_start = time.perf_counter() - start
        results.append(phase("ray-1", base, plan_text, "ray", 1))
        ray.shutdown()

        start = time.perf_counter()
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        cluster_start = time.perf_counter() - start
        results.append(phase("cluster-2", base, plan_text, "ray", 2))
        ray.shutdown()
        cluster.shutdown()
        load1 = os.getloadavg()[0]

        reference = results[0].pop("files")
        same = all(r.pop("files") == reference for r in results[1:])
        seq, ray1, two = results
        report = {
            "models": args.models,
            "pairs": args.pairs,
            "model_size": f"hidden {args.hidden}, {args.layers} layers",
            "machine": f"{os.cpu_count()} CPUs, load average {load0:.1f} before, {load1:.1f} after",
            "phases": results,
            "ray_start_s": round(ray_start, 2),
            "cluster_start_s": round(cluster_start, 2),
            "overhead_per_job": round((ray1["wall_s"] - seq["wall_s"]) / seq["wall_s"], 4),
            "overhead_per_job_s": round((ray1["wall_s"] - seq["wall_s"]) / seq["jobs"], 2),
            "two_node_speedup": round(seq["wall_s"] / two["wall_s"], 3),
            "same_bytes": same,
            "targets": TARGETS,
        }
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
