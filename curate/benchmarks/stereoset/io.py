"""StereoSet JSON (Nadeem et al. 2021) as a dataset.

Each intrasentence item becomes a pair: the stereotype sentence is ``sent_more``, the
anti-stereotype sentence ``sent_less``, the direction ``stereo``, the bias type the item's
domain; the pair keeps the item id, target term, context and unrelated sentence. Its pair id is
derived from the item's own ``id`` (:func:`curate.pairs.item_pair_id`), never from its position:
a revision that drops an item leaves every other item's pair id as it was, so versions join
item by item (issue 35; before, the id was the position and every item after a dropped one was
matched with its neighbour). Intersentence items (a context sentence and three continuations) are kept as
:class:`StereoSetItem` records. The parsed document is kept too, so writing the pairs back
reproduces the file byte for byte when nothing changed, and otherwise only the edited texts.
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from curate.benchmarks.stereoset.columns import COLUMNS, DOMAINS
from curate.benchmarks.stereoset.items import StereoSetItem
from curate.columns import Schema
from curate.errors import InputError
from curate.fileio import read_text_utf8
from curate.formats.dataset import Dataset, Shape
from curate.formats.labels import LabelError, LabelNormaliser
from curate.jsonl import loads_document
from curate.pairs import Pair, item_pair_id, sentence_control_characters

#: Input (and output) formats: the release's JSON document.
FORMATS: tuple[str, ...] = ("stereoset",)
SUFFIXES: dict[str, str] = {"stereoset": ".json"}
GOLD_LABELS: tuple[str, ...] = ("stereotype", "anti-stereotype", "unrelated")
KINDS: tuple[str, ...] = ("intrasentence", "intersentence")
#: Columns of a StereoSet dataset written to a column-based shape.
STEREOSET_COLUMNS: tuple[str, ...] = tuple(c.name for c in COLUMNS)


def looks_like_stereoset(value: Any) -> bool:
    """A parsed JSON document with StereoSet's ``data.intrasentence/intersentence`` lists."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("data"), dict)
        and any(isinstance(value["data"].get(k), list) for k in KINDS)
    )


def detect(data: bytes, path: Path | None = None) -> str | None:
    """``stereoset`` for a JSON document whose first line is not a whole JSON-lines record.

    A multi-line JSON document (the release files) or a one-line object with ``data`` and no
    ``sent_more`` is claimed; the reader then checks the structure and names what is wrong.
    """
    if data[:4] == b"PAR1":
        return None
    stripped = data[:65536].decode("utf-8", errors="replace").lstrip("\ufeff").lstrip()
    if not stripped.startswith("{"):
        return None
    first = stripped.split("\n", 1)[0]
    try:
        value = loads_document(first)
    except ValueError:  # not JSON (JSONDecodeError) or nested too deep: the reader says which
        return "stereoset"
    return "stereoset" if isinstance(value, dict) and "data" in value and "sent_more" not in value else None


def read(path: Path, source: str, fmt: str = "stereoset") -> Dataset:
    """The items of a StereoSet JSON file (intrasentence items as pairs)."""
    return parse_stereoset(read_text_utf8(path), source)


def write(dataset: Dataset, fmt: str = "stereoset") -> bytes:
    """The dataset as StereoSet JSON (see :func:`format_stereoset`)."""
    return format_stereoset(dataset).encode("utf-8")


class _Lines:
    """Line numbers of the ids in a JSON text, found in one pass (the json module keeps none)."""

    def __init__(self, text: str) -> None:
        self._first: dict[str, int] = {}
        newlines = [m.start() for m in re.finditer("\n", text)]
        for match in re.finditer(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")', text):
            try:
                key = json.loads(match.group(1))
            except json.JSONDecodeError:
                continue
            self._first.setdefault(key, bisect.bisect_left(newlines, match.start()) + 1)

    def line(self, item: Any) -> int:
        """The line of the item's id (0 when unknown)."""
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            return self._first.get(item["id"], 0)
        return 0

    @staticmethod
    def where(line: int, kind: str, index: int) -> str:
        return f"line {line} ({kind} item {index})" if line else f"{kind} item {index}"


def _item(raw: Any, kind: str, index: int, labels: LabelNormaliser, line: int) -> StereoSetItem:
    if not isinstance(raw, dict):
        raise ValueError("is not a JSON object")
    missing = [k for k in ("id", "target", "bias_type", "context", "sentences") if k not in raw]
    if missing:
        raise ValueError(f"missing {', '.join(repr(k) for k in missing)}")
    for key in ("id", "target", "bias_type", "context"):
        if not isinstance(raw[key], str) or not raw[key].strip():
            raise ValueError(f"{key!r} must be a non-empty string")
    if kind == "intrasentence" and "BLANK" not in raw["context"]:
        raise ValueError(f"context {raw['context']!r} has no BLANK")
    sentences = raw["sentences"]
    if not isinstance(sentences, list):
        raise ValueError("'sentences' must be a list")
    by_label: dict[str, str] = {}
    for number, sentence in enumerate(sentences):
        if not isinstance(sentence, dict) or not isinstance(sentence.get("sentence"), str):
            raise ValueError(f"sentence {number} has no 'sentence' text")
        gold = sentence.get("gold_label")
        if gold not in GOLD_LABELS:
            raise ValueError(f"sentence {number} has gold_label {gold!r}; expected one of {GOLD_LABELS}")
        if gold in by_label:
            raise ValueError(f"two sentences have gold_label {gold!r}")
        by_label[gold] = sentence["sentence"]
    missing = [g for g in GOLD_LABELS if g not in by_label]
    if missing:
        raise ValueError(f"no sentence with gold_label {', '.join(repr(g) for g in missing)}")
    for gold, text in by_label.items():
        if not text.strip():
            raise ValueError(f"the {gold} sentence is empty")
        if found := sentence_control_characters(text):
            raise ValueError(
                f"the {gold} sentence holds the control character(s) {', '.join(found)}"
            )
    try:
        domain = labels.bias_type(raw["bias_type"], line)
    except LabelError as exc:
        raise ValueError(str(exc)) from None
    return StereoSetItem(
        kind=kind,
        index=index,
        item_id=raw["id"],
        target=raw["target"],
        bias_type=domain,
        context=raw["context"],
        stereotype=by_label["stereotype"],
        anti_stereotype=by_label["anti-stereotype"],
        unrelated=by_label["unrelated"],
    )


def pair_of(item: StereoSetItem) -> Pair:
    """The minimal pair of an intrasentence item (its pair id: derived from the item's id)."""
    return Pair(
        pair_id=item_pair_id(item.item_id),
        sent_more=item.stereotype,
        sent_less=item.anti_stereotype,
        direction="stereo",
        bias_type=item.bias_type,
        item_id=item.item_id,
        target=item.target,
        context=item.context,
        unrelated=item.unrelated,
    )


def item_of(pair: Pair) -> StereoSetItem:
    """The intrasentence item a pair stands for (ValueError when it lacks the StereoSet fields)."""
    if pair.context is None or pair.unrelated is None or pair.target is None:
        raise ValueError(
            f"pair {pair.pair_id} is not a StereoSet item (it has no context, target or "
            "unrelated sentence)"
        )
    if pair.direction != "stereo":
        raise ValueError(f"pair {pair.pair_id} is {pair.direction!r}; StereoSet pairs are 'stereo'")
    return StereoSetItem(
        kind="intrasentence",
        index=pair.pair_id,
        item_id=pair.item_id or _new_id(pair),
        target=pair.target,
        bias_type=pair.bias_type,
        context=pair.context,
        stereotype=pair.sent_more,
        anti_stereotype=pair.sent_less,
        unrelated=pair.unrelated,
    )


def _new_id(pair: Pair) -> str:
    """A deterministic id for an item added by a revision (StereoSet ids are 32 hex digits)."""
    text = f"curate:{pair.pair_id}:{pair.sent_more}\n{pair.sent_less}"
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def parse_stereoset(text: str, source: str, document: Any = None) -> Dataset:
    """Parse StereoSet JSON text (``document``: the already parsed text, if at hand)."""
    if document is None:
        from curate.jsonl import loads_document

        try:
            document = loads_document(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{source}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
        except ValueError as exc:
            raise InputError(f"{source}: line 1: {exc}") from None
    if not looks_like_stereoset(document):
        raise InputError(
            f"{source}: line 1: not a StereoSet file (expected an object with "
            "'data': {'intrasentence': [...], 'intersentence': [...]})"
        )
    if not isinstance(document["data"].get("intrasentence"), list):
        raise InputError(
            f"{source}: line 1: no data.intrasentence list (its items are the pairs curate "
            "reads; an intersentence-only file has none)"
        )
    labels = LabelNormaliser(source, known=DOMAINS, kind="StereoSet domain")
    lines = _Lines(text)
    items: dict[str, list[StereoSetItem]] = {}
    seen: dict[str, str] = {}
    numbers: dict[int, tuple[str, str]] = {}
    for kind in KINDS:
        raw_items = document["data"].get(kind, [])
        if not isinstance(raw_items, list):
            raise InputError(f"{source}: line 1: data.{kind} must be a list")
        items[kind] = []
        for index, raw in enumerate(raw_items):
            line = lines.line(raw)
            where = lines.where(line, kind, index)
            try:
                item = _item(raw, kind, index, labels, line)
            except ValueError as exc:
                raise InputError(f"{source}: {where}: {exc}") from None
            if item.item_id in seen:
                raise InputError(f"{source}: {where}: duplicate item id {item.item_id} (first: {seen[item.item_id]})")
            seen[item.item_id] = where
            number = item_pair_id(item.item_id)
            if number in numbers:
                other, other_where = numbers[number]
                raise InputError(
                    f"{source}: {where}: item ids {other} ({other_where}) and {item.item_id} "
                    f"share the pair id {number} (the first 52 bits of their MD5 digests); "
                    "give one of them another id"
                )
            numbers[number] = (item.item_id, where)
            items[kind].append(item)
    return Dataset(
        pairs=tuple(pair_of(item) for item in items["intrasentence"]),
        shape=Shape(
            "stereoset", "stereoset", STEREOSET_COLUMNS, None, "native", _newline(text)
        ),
        source=source,
        warnings=tuple(labels.warnings()),
        intersentence=tuple(items["intersentence"]),
        document=document,
        benchmark="stereoset",
        schema=Schema(COLUMNS),
    )


def _sentence_record(item_id: str, gold: str, text: str) -> dict[str, Any]:
    digest = hashlib.md5(f"{item_id}:{gold}".encode(), usedforsecurity=False).hexdigest()
    return {"sentence": text, "id": digest, "labels": [], "gold_label": gold}


def format_stereoset(dataset: Dataset) -> str:
    """Serialise as StereoSet JSON: the original document with the pairs' texts and labels in
    place of the intrasentence items' (dropped pairs drop their item; added ones get an item).

    Raises :class:`InputError` for a pair that lacks the StereoSet fields.
    """
    document = copy.deepcopy(dataset.document) if dataset.document is not None else {
        "version": "curate",
        "data": {"intrasentence": [], "intersentence": []},
    }
    originals = {
        raw["id"]: raw for raw in document["data"].get("intrasentence", []) if isinstance(raw, dict)
    }
    intrasentence = []
    for pair in dataset.pairs:
        try:
            item = item_of(pair)
        except ValueError as exc:
            raise InputError(f"cannot write {dataset.source} as StereoSet: {exc}") from None
        raw = originals.get(item.item_id) or {
            "id": item.item_id,
            "target": item.target,
            "bias_type": item.bias_type,
            "context": item.context,
            "sentences": [_sentence_record(item.item_id, g, "") for g in GOLD_LABELS],
        }
        raw = {**raw, "target": item.target, "bias_type": item.bias_type, "context": item.context}
        texts = {
            "stereotype": item.stereotype,
            "anti-stereotype": item.anti_stereotype,
            "unrelated": item.unrelated,
        }
        raw["sentences"] = [
            {**sentence, "sentence": texts[sentence["gold_label"]]} for sentence in raw["sentences"]
        ]
        intrasentence.append(raw)
    document["data"]["intrasentence"] = intrasentence
    # as upstream: indent 2, ASCII escapes, the input's line ending, a final newline
    text = json.dumps(document, indent=2, ensure_ascii=True) + "\n"
    return text.replace("\n", dataset.shape.newline) if dataset.shape.newline != "\n" else text


def _newline(text: str) -> str:
    """The line ending of a JSON text (JSON strings never hold a raw newline)."""
    return "\r\n" if "\r\n" in text[:4096] else "\n"
