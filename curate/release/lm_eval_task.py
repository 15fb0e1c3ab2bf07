"""The lm-evaluation-harness task folder shipped in every CrowS-Pairs-shaped release.

Most people measure bias with lm-evaluation-harness (``crows_pairs_english``); a revised
benchmark only matters if they can run it without writing glue. A release therefore carries
``lm_eval/``: a task YAML whose name carries the version, one sub-task per bias type (as the
harness's ``crows_pairs_english_<type>``), and a ``utils.py`` that reads the release's own Parquet
file by a path relative to itself and scores pairs as the harness's task does. The files are
rendered from templates (``templates/lm_eval/*.jinja``) like the data card, with no clock and no
machine path, so a rebuild gives the same bytes.

A release in another language gets the task of its language, named as the harness names its own
(``crows_pairs_french`` beside ``crows_pairs_english``): ``crows_pairs_french_revised_<version>``,
tagged ``crows_pairs_revised_french`` too, so a French and a Dutch release unpacked side by side
load in one ``TaskManager`` without a clash and each can be asked for by its language. An English
release keeps the name it always had (``crows_pairs_revised_<version>``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from curate.formats.language import LANGUAGES
from curate.release.card import template

#: The folder of a release that holds the task (``lm_eval --include_path dist/lm_eval``).
TASK_DIR = "lm_eval"
TASK_PREFIX = "crows_pairs_revised"


def _identifier(text: str) -> str:
    """``text`` as a task-name / Python identifier part: lower case, runs of others as ``_``."""
    return re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")


def _language_name(language: str) -> str:
    """``french`` for ``fr``: the word the harness's own task names use for a language."""
    return _identifier(LANGUAGES.get(language, language))


def language_tag(language: str) -> str | None:
    """The extra tag of a release not in English (``crows_pairs_revised_french``); ``None`` for English."""
    return None if language == "en" else f"{TASK_PREFIX}_{_language_name(language)}"


def task_name(version: str, language: str = "en") -> str:
    """The harness task name of a release version: ``1.0.0-auto`` -> ``crows_pairs_revised_1_0_0_auto``;
    in French ``crows_pairs_french_revised_1_0_0_auto`` (Dutch: ``crows_pairs_dutch_revised_...``)."""
    if language == "en":
        return f"{TASK_PREFIX}_{_identifier(version)}"
    return f"crows_pairs_{_language_name(language)}_revised_{_identifier(version)}"


def task_files(
    *,
    version: str,
    title: str,
    tool_version: str,
    data_file: str,
    bias_types: Iterable[str],
    language: str = "en",
) -> dict[str, bytes]:
    """``lm_eval/<file>`` -> bytes of the task folder for ``version``.

    ``data_file`` is the release file (beside the folder) the task reads; ``bias_types`` are the
    types present in the release, each of which gets a sub-task; ``language`` is the pairs'
    (the task's name and tag, and the harness task it follows, are those of the language).
    """
    task = task_name(version, language)
    subtasks = [
        {
            "task": f"{task}_{_identifier(bias_type)}",
            "function": f"only_{_identifier(bias_type)}",
            "bias_type": bias_type,
        }
        for bias_type in sorted(set(bias_types))
    ]
    common = {
        "version": version,
        "title": title,
        "tool_version": tool_version,
        "data_file": data_file,
        "task": task,
        "language_tag": language_tag(language),
        "language_name": LANGUAGES.get(language, language),
        "harness_task": f"crows_pairs_{_language_name(language)}",
    }
    files = {
        f"{TASK_DIR}/{task}.yaml": template("lm_eval/task.yaml.jinja").render(**common),
        f"{TASK_DIR}/utils.py": template("lm_eval/utils.py.jinja").render(
            **common, subtasks=subtasks
        ),
    }
    for subtask in subtasks:
        files[f"{TASK_DIR}/{subtask['task']}.yaml"] = template("lm_eval/subtask.yaml.jinja").render(
            **subtask, parent=task, harness_task=common["harness_task"]
        )
    return {name: text.encode("utf-8") for name, text in sorted(files.items())}
