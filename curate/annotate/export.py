"""Read a Label Studio JSON export into a validated snapshot of the round's answers.

Label Studio stores whatever a client posts: it checks neither choice values against the
labeling config nor that required questions were answered, and an export may hold tasks from
other imports. So every annotation is checked here, and each one that cannot be read is kept
out of the snapshot *and* listed as a :class:`Problem` (unknown task, unknown choice value,
malformed or incomplete result, a second annotation by the same person) - never dropped
silently. Cancelled (skipped) annotations are not answers; they are only counted.

The snapshot names answers by sentence role (``sent_more`` / ``sent_less``), not by screen
position, using the ``sentence1_role`` stored in each task, so the vote never needs to know in
which order a pair was shown.

Snapshot (``annotations.json``)::

    {"round", "source",
     "tasks":   [{"pair_id", "task_id", "sent_more", "sent_less", "bias_type", "direction",
                 "finding_codes"}],
     "answers": [{"pair_id", "task_id", "annotation_id", "annotator", "sent_more", "sent_less",
                  "minimal", "bias_type", "corrected_more", "corrected_less"}],
     "cancelled", "not_exported": [pair ids pushed but absent from the export],
     "problems": [{"kind", "message", "task_id", "pair_id", "annotation_id"}]}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from curate.annotate.form import CHOICES, QUESTION_LABELS, SENTENCE_ROLES, TEXTAREAS
from curate.annotate.tasks import task_pair_id
from curate.cells import starts_formula
from curate.errors import InputError
from curate.pairs import DIRECTIONS


@dataclass(frozen=True, slots=True)
class TaskInfo:
    """A pair as it was pushed: what the answers are about."""

    pair_id: int
    #: None for a pushed pair missing from the export (the UI exports annotated tasks only).
    task_id: int | None
    sent_more: str
    sent_less: str
    bias_type: str
    direction: str
    #: The rule codes that flagged the pair (the task's ``finding_codes``), sorted; they let a
    #: tally measure each rule's precision against the decisions.
    finding_codes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Answer:
    """One annotator's usable answers for one pair, by sentence role."""

    pair_id: int
    task_id: int
    annotation_id: int
    annotator: int | str
    sent_more: str
    sent_less: str
    minimal: str
    bias_type: str
    corrected_more: str | None = None
    corrected_less: str | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the export that could not be used, and why."""

    kind: str
    message: str
    task_id: int | None = None
    pair_id: int | None = None
    annotation_id: int | None = None


@dataclass
class Snapshot:
    """The validated answers of a round."""

    round: str
    source: str
    tasks: list[TaskInfo] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    cancelled: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: Pairs pushed in the round (tasks.json) that the export does not contain.
    not_exported: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "source": self.source,
            "tasks": [asdict(t) for t in self.tasks],
            "answers": [asdict(a) for a in self.answers],
            "cancelled": self.cancelled,
            "not_exported": list(self.not_exported),
            "problems": [asdict(p) for p in self.problems],
        }

    def formula_corrections(self) -> list[str]:
        """One warning per correction that begins with a spreadsheet formula character: it
        would become a dataset cell that runs as a formula when the release is opened."""
        warnings = []
        for answer in self.answers:
            for role, text in (
                ("sent_more", answer.corrected_more),
                ("sent_less", answer.corrected_less),
            ):
                if text and starts_formula(text):
                    warnings.append(
                        f"task {answer.task_id} (pair {answer.pair_id}): annotator "
                        f"{answer.annotator}'s correction of {role} begins with {text[0]!r}, "
                        "a spreadsheet formula character; check it before it reaches a release"
                    )
        return warnings

    @classmethod
    def from_dict(cls, value: Any, source: str = "snapshot") -> Snapshot:
        """Read a snapshot written by :meth:`to_dict`; a clear error when it is not one."""
        if not isinstance(value, dict) or not {"round", "tasks", "answers"} <= set(value):
            raise InputError(
                f"{source}: not an annotations snapshot (run `curate annotations pull`)"
            )
        try:
            return cls(
                round=str(value["round"]),
                source=str(value.get("source", "")),
                tasks=[_stored_task(t, i) for i, t in enumerate(_list(value, "tasks"), 1)],
                answers=[_stored_answer(a, i) for i, a in enumerate(_list(value, "answers"), 1)],
                cancelled=int(value.get("cancelled", 0)),
                problems=[
                    _stored_problem(p, i) for i, p in enumerate(_list(value, "problems"), 1)
                ],
                not_exported=[_stored_int(p, "not_exported") for p in _list(value, "not_exported")],
            )
        except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: int(Infinity)
            raise InputError(f"{source}: malformed annotations snapshot ({exc})") from None


def _list(value: dict[str, Any], key: str) -> list[Any]:
    items = value.get(key, [])
    if not isinstance(items, list):
        raise ValueError(f"{key} must be a list")
    return items


def _stored_int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must hold pair ids (integers), got {type(value).__name__}")
    return value


#: The type of every field of a stored answer (a hand edit may break any of them).
_ANSWER_TYPES: dict[str, tuple[type, ...]] = {
    "pair_id": (int,),
    "task_id": (int,),
    "annotation_id": (int,),
    "annotator": (int, str),
    "sent_more": (str,),
    "sent_less": (str,),
    "minimal": (str,),
    "bias_type": (str,),
    "corrected_more": (str, type(None)),
    "corrected_less": (str, type(None)),
}
_ANSWER_OPTIONAL = {"corrected_more", "corrected_less"}


def _check_types(
    record: Any, types: dict[str, tuple[type, ...]], optional: set[str], what: str
) -> dict[str, Any]:
    """``record`` if it is an object whose fields have ``types``; a ValueError naming ``what``
    and the field otherwise (a hand edit may break any of them)."""
    if not isinstance(record, dict):
        raise ValueError(f"{what} is not an object")
    for key, allowed in types.items():
        if key not in record:
            if key in optional:
                continue
            raise ValueError(f"{what}: missing key {key!r}")
        value = record[key]
        if isinstance(value, bool) or not isinstance(value, allowed):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in allowed)
            raise ValueError(f"{what}: {key} must be {wanted}, got {type(value).__name__}")
    unknown = sorted(set(record) - set(types))
    if unknown:
        raise ValueError(f"{what}: unknown key {unknown[0]!r}")
    return record


def _stored_answer(record: Any, number: int) -> Answer:
    """Answer ``number`` (1-based) of a stored snapshot, every field checked by type and the
    choices against the form's labels, so a hand edit is named instead of failing in a tally."""
    record = _check_types(record, _ANSWER_TYPES, _ANSWER_OPTIONAL, f"answer {number}")
    for question, labels in QUESTION_LABELS.items():
        if record[question] not in labels:
            raise ValueError(
                f"answer {number}: {question} is {record[question]!r:.40}, expected one of "
                f"{', '.join(labels)}"
            )
    return Answer(**record)


_TASK_TYPES: dict[str, tuple[type, ...]] = {
    "pair_id": (int,),
    "task_id": (int, type(None)),
    "sent_more": (str,),
    "sent_less": (str,),
    "bias_type": (str,),
    "direction": (str,),
    "finding_codes": (list, tuple),
}
_PROBLEM_TYPES: dict[str, tuple[type, ...]] = {
    "kind": (str,),
    "message": (str,),
    "task_id": (int, type(None)),
    "pair_id": (int, type(None)),
    "annotation_id": (int, type(None)),
}


def _stored_task(record: Any, number: int = 0) -> TaskInfo:
    """A task of a stored snapshot; snapshots written before rule codes were kept have none."""
    record = _check_types(record, _TASK_TYPES, {"finding_codes"}, f"task {number}")
    codes = record.get("finding_codes", [])
    if not all(isinstance(c, str) for c in codes):
        raise ValueError(f"task {number}: finding_codes must be a list of codes")
    return TaskInfo(**{**record, "finding_codes": tuple(codes)})


def _stored_problem(record: Any, number: int) -> Problem:
    record = _check_types(
        record, _PROBLEM_TYPES, {"task_id", "pair_id", "annotation_id"}, f"problem {number}"
    )
    return Problem(**record)


class _Skip(Exception):
    """A task or annotation that cannot be used; carries the problem and where it is."""

    def __init__(
        self,
        kind: str,
        message: str,
        task_id: int | None = None,
        pair_id: int | None = None,
        annotation_id: int | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.where = {"task_id": task_id, "pair_id": pair_id, "annotation_id": annotation_id}

    def problem(self) -> Problem:
        return Problem(self.kind, self.message, **self.where)


def _finding_codes(value: Any) -> tuple[str, ...]:
    """The codes of a task's ``finding_codes`` field (space-separated, as tasks.py writes it)."""
    if value is None:
        return ()
    if not isinstance(value, str):
        raise _Skip(
            "malformed-task", f"finding_codes is {value!r}, expected space-separated codes"
        )
    return tuple(sorted(set(value.split())))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _annotator(value: Any) -> int | str:
    """The annotator's id: an int in Label Studio's JSON export, a dict in some older ones."""
    if _int(value) is not None:
        return value
    if isinstance(value, dict):
        if _int(value.get("id")) is not None:
            return value["id"]
        if isinstance(value.get("email"), str) and value["email"]:
            return value["email"]
    raise _Skip("malformed-result", f"completed_by is {value!r}, expected a user id")


def _clean_text(text: str) -> str | None:
    """A correction with its whitespace normalised; None when empty."""
    cleaned = " ".join(text.split())
    return cleaned or None


def _read_result(result: Any) -> tuple[dict[str, str], dict[str, str | None]]:
    """The choice answers and the corrections in one annotation's ``result``."""
    if not isinstance(result, list):
        raise _Skip("malformed-result", f"result is {type(result).__name__}, expected a list")
    choices: dict[str, str] = {}
    texts: dict[str, str | None] = {}
    for item in result:
        if not isinstance(item, dict):
            raise _Skip("malformed-result", f"result item {item!r} is not an object")
        name, kind, value = item.get("from_name"), item.get("type"), item.get("value")
        if not isinstance(name, str):
            raise _Skip("malformed-result", f"result item from_name {name!r} is not text")
        if not isinstance(value, dict):
            raise _Skip("malformed-result", f"result item {name!r} has no value object")
        if name in CHOICES:
            picked = value.get("choices")
            if kind != "choices" or not isinstance(picked, list):
                raise _Skip("malformed-result", f"{name} is not a choices result")
            if len(picked) != 1 or not isinstance(picked[0], str):
                raise _Skip(
                    "malformed-result", f"{name} has {len(picked)} choices, expected exactly one"
                )
            if name in choices:
                raise _Skip("malformed-result", f"{name} is answered twice")
            if picked[0] not in CHOICES[name]:
                allowed = ", ".join(CHOICES[name])
                raise _Skip(
                    "unknown-choice",
                    f"{name} has the unknown value {picked[0]!r} (allowed: {allowed})",
                )
            choices[name] = picked[0]
        elif name in TEXTAREAS:
            lines = value.get("text")
            if kind != "textarea" or not isinstance(lines, list):
                raise _Skip("malformed-result", f"{name} is not a textarea result")
            if not all(isinstance(line, str) for line in lines):
                raise _Skip("malformed-result", f"{name} holds non-text values")
            given = sorted({c for c in (_clean_text(line) for line in lines) if c})
            if len(given) > 1:
                raise _Skip("malformed-result", f"{name} holds {len(given)} different texts")
            if name in texts:
                raise _Skip("malformed-result", f"{name} is answered twice")
            texts[name] = given[0] if given else None
        else:
            raise _Skip("malformed-result", f"unknown question {name!r} (not in the form)")
    missing = [name for name in CHOICES if name not in choices]
    if missing:
        raise _Skip("incomplete", f"no answer to {', '.join(missing)}")
    return choices, texts


def _task_info(task: dict[str, Any], task_id: int | None, pair_id: int) -> TaskInfo:
    """The pushed pair of a task, or a malformed-task skip."""
    data = task["data"]
    strings = ("sentence1", "sentence2", "sentence1_role", "bias_type", "direction")
    bad = [k for k in strings if not isinstance(data.get(k), str) or not data.get(k)]
    if bad:
        raise _Skip("malformed-task", f"task data lacks {', '.join(bad)}")
    role = data["sentence1_role"]
    if role not in SENTENCE_ROLES:
        raise _Skip("malformed-task", f"sentence1_role is {role!r}")
    if data["direction"] not in DIRECTIONS:
        raise _Skip("malformed-task", f"direction is {data['direction']!r}")
    first, second = data["sentence1"], data["sentence2"]
    more, less = (first, second) if role == "sent_more" else (second, first)
    codes = _finding_codes(data.get("finding_codes"))
    return TaskInfo(pair_id, task_id, more, less, data["bias_type"], data["direction"], codes)


def _answer(annotation: dict[str, Any], info: TaskInfo, role1: str) -> Answer:
    annotation_id = _int(annotation.get("id"))
    if annotation_id is None:
        raise _Skip("malformed-result", "annotation has no integer id")
    annotator = _annotator(annotation.get("completed_by"))
    choices, texts = _read_result(annotation.get("result"))
    first, second = choices["sentence1_stereotype"], choices["sentence2_stereotype"]
    fix1, fix2 = texts.get("correction1"), texts.get("correction2")
    if role1 == "sent_more":
        more, less, fix_more, fix_less = first, second, fix1, fix2
    else:
        more, less, fix_more, fix_less = second, first, fix2, fix1
    return Answer(
        pair_id=info.pair_id,
        task_id=info.task_id,
        annotation_id=annotation_id,
        annotator=annotator,
        sent_more=more,
        sent_less=less,
        minimal=choices["minimal"],
        bias_type=choices["bias_type"],
        corrected_more=fix_more,
        corrected_less=fix_less,
    )


def export_tasks(export: Any, source: str) -> list[Any]:
    """The list of tasks of a JSON export; a clear error for any other export format."""
    if isinstance(export, dict) and isinstance(export.get("tasks"), list):
        export = export["tasks"]
    if not isinstance(export, list):
        raise InputError(
            f"{source}: not a Label Studio JSON export (expected a list of tasks); "
            "export the project as JSON"
        )
    if export and all(isinstance(t, dict) and "data" not in t for t in export):
        raise InputError(
            f"{source}: looks like a JSON-MIN or CSV-style export (tasks have no 'data'); "
            "export the project as JSON"
        )
    return export


def _by_role(data: dict[str, Any]) -> tuple[Any, Any]:
    """A task's (sent_more, sent_less), whichever order the screen showed them in."""
    first, second = data.get("sentence1"), data.get("sentence2")
    return (second, first) if data.get("sentence1_role") == "sent_less" else (first, second)


def _check_same_task(
    data: dict[str, Any], pushed: dict[str, Any], task_id: int, pair_id: int, where: str
) -> None:
    """Refuse a task of another round or with other sentences than the round pushed.

    Pair ids alone do not tell rounds apart (every round numbers pairs by the upstream row), so
    an export of another round would otherwise merge its answers into this one silently.
    """
    pushed_data = pushed.get("data") or {}
    if "round" in data and data.get("round") != pushed_data.get("round"):
        raise InputError(
            f"{where}: task {task_id} (pair {pair_id}) belongs to round {data.get('round')!r}, "
            f"not {pushed_data.get('round')!r}; export the project of this round"
        )
    if _by_role(data) != _by_role(pushed_data):
        raise InputError(
            f"{where}: task {task_id} (pair {pair_id}) shows other sentences than the round "
            "pushed (tasks.json); is this an export of another round or project?"
        )


def _read_task(
    task: Any,
    position: int,
    known: set[int] | None,
    round_name: str,
    pushed: dict[int, dict[str, Any]] | None = None,
    source: str = "export",
) -> tuple[int, TaskInfo]:
    """The task id and pushed pair of one export item; a skip when it is not a round's task."""
    if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
        raise _Skip("malformed-task", f"item {position} of the export is not a task with data")
    task_id = _int(task.get("id"))
    if task_id is None:
        raise _Skip("malformed-task", f"item {position} of the export has no integer task id")
    pair_id = task_pair_id(task["data"])
    if pair_id is None:
        raise _Skip(
            "unknown-task", f"task {task_id} has no pair_id: not a curate task", task_id=task_id
        )
    if known is not None and pair_id not in known:
        raise _Skip(
            "unknown-task",
            f"task {task_id} is about pair {pair_id}, which is not in round {round_name}",
            task_id=task_id,
            pair_id=pair_id,
        )
    if pushed is not None and pair_id in pushed:
        _check_same_task(task["data"], pushed[pair_id], task_id, pair_id, source)
    try:
        return task_id, _task_info(task, task_id, pair_id)
    except _Skip as skip:
        raise _Skip(
            skip.kind, f"task {task_id}: {skip.message}", task_id=task_id, pair_id=pair_id
        ) from None


def _read_annotation(annotation: Any, info: TaskInfo, role1: str) -> Answer | None:
    """One annotation's answer; None when it was cancelled; a skip when it cannot be used."""
    task_id, pair_id = info.task_id, info.pair_id
    annotation_id = _int(annotation.get("id")) if isinstance(annotation, dict) else None
    where = {"task_id": task_id, "pair_id": pair_id, "annotation_id": annotation_id}
    if not isinstance(annotation, dict):
        raise _Skip("malformed-result", f"task {task_id}: an annotation is not an object", **where)
    if annotation.get("was_cancelled"):
        return None
    try:
        return _answer(annotation, info, role1)
    except _Skip as skip:
        raise _Skip(
            skip.kind,
            f"task {task_id} (pair {pair_id}), annotation {annotation_id}: {skip.message}",
            **where,
        ) from None


def _keep_latest(
    latest: dict[tuple[int, int | str], Answer], answer: Answer, problems: list[Problem]
) -> None:
    """Keep one answer per annotator and pair: the later annotation, the other reported."""
    key = (answer.pair_id, answer.annotator)
    if key not in latest:
        latest[key] = answer
        return
    older, newer = sorted((latest[key], answer), key=lambda a: a.annotation_id)
    problems.append(
        Problem(
            "duplicate-annotator",
            f"pair {answer.pair_id}: annotator {answer.annotator} answered twice (annotations "
            f"{older.annotation_id} and {newer.annotation_id}); the later one counts",
            task_id=answer.task_id,
            pair_id=answer.pair_id,
            annotation_id=older.annotation_id,
        )
    )
    latest[key] = newer


def parse_export(
    export: Any,
    round_name: str,
    source: str,
    pushed: Sequence[dict[str, Any]] | None = None,
) -> Snapshot:
    """Validate a Label Studio JSON export (a list of tasks) into a :class:`Snapshot`.

    ``pushed`` are the round's tasks (tasks.json). A task about any other pair is reported as
    unknown; a pushed pair the export lacks (the UI exports annotated tasks only) is kept, with
    no answers, so that the tally still decides it. Without ``pushed``, every task with a pair
    id is accepted.
    """
    tasks = export_tasks(export, source)
    pushed_by_pair = {
        pair_id: task
        for task in pushed or []
        if (pair_id := task_pair_id(task.get("data"))) is not None
    }
    known = set(pushed_by_pair) if pushed is not None else None
    snapshot = Snapshot(round=round_name, source=source)
    infos: dict[int, TaskInfo] = {}
    latest: dict[tuple[int, int | str], Answer] = {}
    for position, task in enumerate(tasks):
        try:
            task_id, info = _read_task(
                task, position, known, round_name, pushed_by_pair if known else None, source
            )
        except _Skip as skip:
            snapshot.problems.append(skip.problem())
            continue
        pair_id = info.pair_id
        if pair_id in infos:
            snapshot.problems.append(
                Problem(
                    "duplicate-task",
                    f"tasks {infos[pair_id].task_id} and {task_id} are both about pair {pair_id} "
                    "(imported twice?); their annotations are pooled",
                    task_id=task_id,
                    pair_id=pair_id,
                )
            )
        else:
            infos[pair_id] = info
        annotations = task.get("annotations") or []
        if not isinstance(annotations, list):
            snapshot.problems.append(
                Problem(
                    "malformed-task", f"task {task_id}: annotations is not a list", task_id=task_id
                )
            )
            continue
        for annotation in annotations:
            try:
                answer = _read_annotation(annotation, info, task["data"]["sentence1_role"])
            except _Skip as skip:
                snapshot.problems.append(skip.problem())
                continue
            if answer is None:
                snapshot.cancelled += 1
            else:
                _keep_latest(latest, answer, snapshot.problems)
    for pair_id, task in sorted(pushed_by_pair.items()):
        if pair_id not in infos:
            try:
                infos[pair_id] = _task_info(task, None, pair_id)
            except _Skip as skip:
                raise InputError(
                    f"round {round_name}: tasks.json, pair {pair_id}: {skip.message}"
                ) from None
            snapshot.not_exported.append(pair_id)
    snapshot.tasks = sorted(infos.values(), key=lambda t: t.pair_id)
    snapshot.answers = sorted(latest.values(), key=lambda a: (a.pair_id, a.annotation_id))
    snapshot.problems.sort(
        key=lambda p: (
            p.pair_id if p.pair_id is not None else -1,
            p.task_id or 0,
            p.annotation_id or 0,
            p.kind,
        )
    )
    return snapshot
