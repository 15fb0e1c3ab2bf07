"""Push a round's tasks to Label Studio without duplicates, and record where they went.

Label Studio does not deduplicate imports, so a push first lists the project's tasks by pair id
and imports only the pairs not there yet: pushing twice creates no duplicates. The round's
``tasks.json`` keeps every task pushed so far (earlier ones kept, this push's replacing the same
pairs) and ``round.json`` which project and which task holds each pair.

A push may offer the flagged pairs in the order of their rules' precision in earlier rounds and
stop after a budget of pairs (:mod:`curate.annotate.order`); the limit applies to this push's
selection, so repeating a push adds nothing and raising the limit adds the next pairs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.annotate import rounds
from curate.annotate.labelstudio import LabelStudioClient, Project
from curate.annotate.order import order_tasks, select
from curate.annotate.precision import RulePrecision
from curate.annotate.tasks import build_tasks, task_pair_id
from curate.errors import InputError
from curate.findings import read_findings
from curate.pairs import Pair


def default_title(round_name: str) -> str:
    """The project title of a round unless one is given."""
    return f"CrowS-Pairs validation {round_name}"


def project_title(files: rounds.RoundFiles, given: str | None) -> str:
    """The title given, else the one recorded for the round, else the default."""
    info = rounds.read_round_info(files)
    return given or info.get("project", {}).get("title") or default_title(files.name)


def merge_tasks(
    previous: list[dict[str, Any]] | None,
    current: list[dict[str, Any]],
    measured: RulePrecision | None = None,
) -> list[dict[str, Any]]:
    """The round's tasks after this push: earlier ones kept, this push's replacing same pairs.

    In the push order: by pair id, or by rule precision when ``measured`` is given.
    """
    by_pair: dict[int, dict[str, Any]] = {}
    for task in previous or []:
        pair_id = task_pair_id(task["data"])
        if pair_id is not None:
            by_pair[pair_id] = task
    for task in current:
        by_pair[task["data"]["pair_id"]] = task
    return order_tasks(list(by_pair.values()), measured)


@dataclass(frozen=True)
class RoundTasks:
    """The tasks of this push (in push order) and the round's tasks after it."""

    current: list[dict[str, Any]]
    merged: list[dict[str, Any]]
    #: Flagged pairs before the limit.
    flagged: int


def round_tasks(
    files: rounds.RoundFiles,
    findings_path: Path,
    data_path: Path,
    *,
    shuffle: bool,
    measured: RulePrecision | None = None,
    limit: int | None = None,
    input_format: str | None = None,
    read_pairs: Callable[[Path, str | None], Sequence[Pair]],
) -> RoundTasks:
    """One task per flagged pair of ``data_path``, in push order, at most ``limit`` of them.

    ``data_path`` may be in any shape (``input_format`` forces one), read by ``read_pairs``
    (:func:`curate.datasets.read_pairs`: the stage asks no benchmark registry itself).
    ``measured``: order by the rules' precision in earlier rounds (else by pair id). An error
    when nothing is flagged.
    """
    findings = read_findings(findings_path)
    pairs = read_pairs(data_path, input_format)
    tasks = build_tasks(pairs, findings, files.name, shuffle=shuffle, source=str(data_path))
    if not tasks:
        raise InputError(f"{findings_path}: no findings, so there is nothing to push")
    current = select(tasks, measured, limit)
    merged = merge_tasks(rounds.read_round_tasks(files), current, measured)
    return RoundTasks(current, merged, flagged=len(tasks))


@dataclass(frozen=True)
class PushResult:
    """What a push did, for the caller to report."""

    project: Project
    #: Flagged pairs, and how many of them this push offered (fewer under a limit).
    flagged: int
    selected: int
    imported: int
    #: Whether an existing project's labeling config differs from the one pushed.
    config_differs: bool
    #: Pairs with more than one task in the project (imported outside curate?): pair -> tasks.
    duplicates: dict[int, list[int]]
    #: Tasks of the project without a pair id.
    foreign: Sequence[int]


def push_round(
    client: LabelStudioClient,
    files: rounds.RoundFiles,
    tasks: RoundTasks,
    label_config: str,
    *,
    title: str,
    overlap: int,
    project_id: int | None = None,
) -> PushResult:
    """Create the round's project if needed, import the new pairs' tasks, write the round files.

    ``round.json`` records the project and the task of every pair, so that ``pull`` finds them.
    """
    client.whoami()
    project = client.ensure_project(
        title,
        label_config,
        overlap,
        description=f"curate annotation round {files.name}: revalidate flagged CrowS-Pairs pairs",
        project_id=project_id,
    )
    existing, foreign = client.tasks_by_pair(project.id)
    new = [t for t in tasks.current if t["data"]["pair_id"] not in existing]
    new_ids = client.import_tasks(project.id, new) if new else []
    task_ids = {k: v[0] for k, v in existing.items()}
    task_ids.update({t["data"]["pair_id"]: i for t, i in zip(new, new_ids, strict=False)})
    rounds.write_json(files.tasks, tasks.merged)
    rounds.write_json(
        files.info,
        {
            "round": files.name,
            "project": {"id": project.id, "title": project.title},
            "label_config_sha256": hashlib.sha256(label_config.encode("utf-8")).hexdigest(),
            "tasks": [{"pair_id": k, "task_id": task_ids[k]} for k in sorted(task_ids)],
        },
    )
    config_differs = bool(
        not project.created
        and project.label_config
        and project.label_config.strip() != label_config.strip()
    )
    return PushResult(
        project=project,
        flagged=tasks.flagged,
        selected=len(tasks.current),
        imported=len(new),
        config_differs=config_differs,
        duplicates={k: v for k, v in existing.items() if len(v) > 1},
        foreign=foreign,
    )
