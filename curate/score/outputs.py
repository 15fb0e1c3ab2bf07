"""The provenance and the summary.json document of a score column, and where its files go.

What a writer of score columns needs besides the scores: ``curate score`` (:mod:`curate.score.run`)
and the driver of ``curate sweep``, which writes the columns its workers score and must not
import torch or transformers (issue 32): nothing here does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from curate import __version__
from curate.formats.dataset import BadRow
from curate.score.metrics import summarize
from curate.score.results import ScoreResult

#: The method whose outputs keep the original layout, ``<out>/<model>/``.
LEGACY_LAYOUT_METHOD = "pll"


def output_directory(out_dir: Path, slug: str, method: str) -> Path:
    """Where the outputs of (model, method) go (``pll`` keeps the pre-methods layout)."""
    target = Path(out_dir) / slug
    return target if method == LEGACY_LAYOUT_METHOD else target / method


def data_info(path: Path, skipped_rows: Sequence[BadRow] = ()) -> dict[str, Any]:
    """The data file's name and SHA-256, for the provenance of every output, and the rows of
    it ``--skip-bad-rows`` left out (only when there are some: the scores do not cover them).

    A dataset that is a folder of files (WinoBias) is hashed as the list of its files' names
    and SHA-256, in name order (the ``SHA256SUMS`` of the folder)."""
    if path.is_dir():
        sums = "".join(
            f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n"
            for f in sorted(path.iterdir())
            if f.is_file()
        )
        info: dict[str, Any] = {
            "file": path.name, "sha256": hashlib.sha256(sums.encode("utf-8")).hexdigest()
        }
    else:
        info = {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    if skipped_rows:
        info["skipped_rows"] = [row.as_dict() for row in skipped_rows]
    return info


def model_location(name: str) -> dict[str, str]:
    """``{"model_path": absolute directory}`` for a model given as a local directory (``model``
    keeps the name as given): readers of summary.json (``curate explore``) find the model
    again from any working directory. Empty for a hub id."""
    path = Path(name).expanduser()
    return {"model_path": str(path.resolve())} if path.is_dir() else {}


def score_summary(
    result: ScoreResult,
    data: Mapping[str, Any],
    threshold: float,
    groups: Callable[[str], tuple[str, ...]] | None = None,
    capability: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The summary.json document of one (model, method) result (``groups``: the benchmark's
    larger groups of bias types, :func:`curate.score.metrics.summarize`; ``capability``: the
    model's quality on a corpus, :mod:`curate.score.corpus`, beside the bias metrics)."""
    return {
        "tool": f"curate {__version__}",
        "data": dict(data),
        **result.provenance(),
        **model_location(result.model),
        "summary": summarize(result.scores, threshold=threshold, groups=groups),
        **({"capability": dict(capability)} if capability is not None else {}),
    }
