"""A sweep project for the tests and benchmarks: three tiny models (two masked, one causal),
two dataset versions, a plan, and the reference outputs of sequential ``curate score``.

The reference runs ``curate score`` once per (version, model), in plan order, with the model's
methods and the plan's batch size, through one cache of its own: what a user scoring the
versions one after another gets, and what every sweep engine must reproduce byte for byte.
"""

from __future__ import annotations

import dataclasses
import os
import signal
from collections.abc import Sequence
from pathlib import Path

from curate.datasets import write_pairs
from curate.pairs import Pair
from tests.support.tiny_models import SAMPLE_PAIRS, tiny_model_dir

#: (label, family): two masked LMs and a causal one.
MODELS: tuple[tuple[str, str], ...] = (("bert", "bert"), ("roberta", "roberta"), ("gpt2", "gpt2"))
BATCH_SIZE = 4


def revised(pairs: Sequence[Pair]) -> list[Pair]:
    """A second version: one sentence edited, one pair dropped, as a revision does."""
    out = [
        dataclasses.replace(p, sent_less=p.sent_less.replace("Men", "Boys"))
        if p.pair_id == 0
        else p
        for p in pairs
    ]
    return out[:-1]


def write_project(
    root: Path,
    *,
    models: Sequence[tuple[str, str]] = MODELS,
    pairs: Sequence[Pair] = SAMPLE_PAIRS,
    extra_models: str = "",
    cache: str = "cache.sqlite",
) -> Path:
    """Write v1.csv, v2.csv and plan.toml under ``root``; return the plan's path."""
    root.mkdir(parents=True, exist_ok=True)
    write_pairs(pairs, root / "v1.csv")
    write_pairs(revised(pairs), root / "v2.csv")
    lines = [f'output = "out"\ncache = "{cache}"\nbatch-size = {BATCH_SIZE}\n']
    for label, family in models:
        lines.append(f'[[model]]\nname = "{tiny_model_dir(family)}"\nlabel = "{label}"\n')
    lines.append(extra_models)
    lines.append('[[version]]\nlabel = "v1"\ndata = "v1.csv"\n')
    lines.append('[[version]]\nlabel = "v2"\ndata = "v2.csv"\n')
    plan = root / "plan.toml"
    plan.write_text("\n".join(lines), encoding="utf-8")
    return plan


def reference(root: Path, models: Sequence[tuple[str, str]] = MODELS) -> Path:
    """Sequential ``curate score`` of every (version, model) into ``root/reference``."""
    from typer.testing import CliRunner

    from curate.cli import app
    from curate.score.kinds import model_kind
    from curate.score.methods import methods_of_kind

    runner = CliRunner()
    target = root / "reference"
    for version in ("v1", "v2"):
        for label, family in models:
            path = tiny_model_dir(family)
            methods = ",".join(methods_of_kind(model_kind(path)))
            result = runner.invoke(
                app,
                [
                    "score",
                    str(root / f"{version}.csv"),
                    "--model",
                    str(path),
                    "--method",
                    methods,
                    "--out",
                    str(target / version),
                    "--cache",
                    str(root / "reference.sqlite"),
                    "--batch-size",
                    str(BATCH_SIZE),
                ],
            )
            assert result.exit_code == 0, result.output
            # curate score names the folder after the directory: the family; the plan's label
            # is the same name here.
            assert (target / version / path.name).is_dir()
            if path.name != label:
                (target / version / path.name).rename(target / version / label)
    return target


def column_files(root: Path) -> dict[str, bytes]:
    """Every scores.csv and summary.json below ``root``, by relative path."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.name in ("scores.csv", "summary.json")
    }


@dataclasses.dataclass(frozen=True)
class KillOnce:
    """A batch hook that kills its own worker process after the first batch, once: the marker
    file says the kill happened, so Ray's retry of the task runs through."""

    marker: str

    def __call__(self) -> None:
        if os.path.exists(self.marker):
            return
        Path(self.marker).write_text(str(os.getpid()), encoding="utf-8")
        os.kill(os.getpid(), signal.SIGKILL)


@dataclasses.dataclass
class InterruptDriver:
    """A batch hook that sends Ctrl-C (SIGINT) to the driver process after ``after`` batches
    of one worker, once (the marker file says it was sent).

    With ``cache``, it first waits (up to ``wait_s``) until the driver has stored a batch in
    that score cache: the batches a worker computed are streamed to the driver, which stores
    them, so without the wait a busy machine can deliver the Ctrl-C before the first batch
    arrives, and a test of "every stored batch is kept" would have nothing to check."""

    driver: int
    marker: str
    after: int = 3
    seen: int = 0
    cache: str | None = None
    wait_s: float = 60.0

    def __call__(self) -> None:
        self.seen += 1
        if self.seen == self.after and not os.path.exists(self.marker):
            if self.cache is not None:
                self._wait_for_a_stored_batch()
            Path(self.marker).write_text("sent", encoding="utf-8")
            os.kill(self.driver, signal.SIGINT)

    def _wait_for_a_stored_batch(self) -> None:
        import contextlib
        import sqlite3
        import time

        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            with contextlib.suppress(sqlite3.Error):
                uri = f"file:{self.cache}?mode=ro"
                with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=1)) as db:
                    if db.execute("SELECT COUNT(*) FROM logprobs").fetchone()[0] > 0:
                        return
            time.sleep(0.1)


@dataclasses.dataclass(frozen=True)
class CountIdleWorkers:
    """A batch hook that writes, once, how many idle Ray workers (``ray::IDLE``) its raylet
    holds beside the worker running it: the workers Ray prestarted and nobody used."""

    marker: str

    def __call__(self) -> None:
        if os.path.exists(self.marker):
            return
        import psutil

        raylet = psutil.Process().ppid()
        idle = 0
        for process in psutil.process_iter(["ppid", "cmdline"]):
            if process.info["ppid"] == raylet and "ray::IDLE" in " ".join(
                process.info["cmdline"] or []
            ):
                idle += 1
        Path(self.marker).write_text(str(idle), encoding="utf-8")
