"""One way to validate what curate reads from files: pydantic models, errors as one sentence.

Findings, decisions and the ``[tool.curate]`` configuration are checked against pydantic models
(strict: ``"1"`` is not an integer, a list is not a string, unknown fields are named). This module
holds the field types they share and :func:`describe`, which turns a ``ValidationError`` into
one sentence naming the field (``spans[0].start must be an integer, got a string "3"``); the
readers add the file and line.

Text policy (documented in the README of each format): a *sentence* is one line of text,
1 to :data:`MAX_SENTENCE_CHARS` characters, with no control character at all (no NUL, tab or
line break: a NUL truncates C strings in the tokenizers and a line break splits a pair in
every line-based tool). Other free *text* (messages, reasons) may hold tabs and line breaks,
but no NUL or other control character.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

#: Pair ids and counts fit a signed 64-bit integer (SQLite, Parquet, pandas).
MAX_ID = 2**63 - 1
#: Far above any benchmark sentence and far below the CSV reader's field limit (131072), so
#: whatever is accepted here can be written to CSV and read back.
MAX_SENTENCE_CHARS = 10_000
#: Messages, reasons, names.
MAX_TEXT_CHARS = 100_000

_ANY_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_WHITESPACE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_characters(text: str, *, allow_whitespace: bool = False) -> list[str]:
    """The control characters in ``text`` as ``\\xNN`` (tab, LF and CR allowed on request)."""
    pattern = _CONTROL_BUT_WHITESPACE if allow_whitespace else _ANY_CONTROL
    return sorted({f"\\x{ord(c):02x}" for c in pattern.findall(text)})


def check_one_line(text: str) -> str:
    """``text`` if it is non-empty and has no control character; a ValueError otherwise."""
    if not text.strip():
        raise ValueError("is empty")
    if found := control_characters(text):
        raise ValueError(f"holds the control character(s) {', '.join(found)}")
    return text


def _text(text: str) -> str:
    if found := control_characters(text, allow_whitespace=True):
        raise ValueError(f"holds the control character(s) {', '.join(found)}")
    return text


#: A record's pair id: the upstream row index, a non-negative integer.
PairId = Annotated[int, Field(ge=0, le=MAX_ID)]
#: An item's own id (StereoSet's ``id``): a short one-line name.
ItemId = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(check_one_line)]
#: A count (annotators, votes).
Count = Annotated[int, Field(ge=0, le=MAX_ID)]
#: A sentence of a pair (see the module docstring).
Sentence = Annotated[str, Field(max_length=MAX_SENTENCE_CHARS), AfterValidator(check_one_line)]
#: Free text: messages, reasons.
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS), AfterValidator(_text)]
#: A short, non-empty, one-line name: a rule name, a rule code.
Name = Annotated[str, Field(max_length=200), AfterValidator(check_one_line)]
#: A short label that may be empty (a round name, a vote's value).
Label = Annotated[str, Field(max_length=200), AfterValidator(_text)]
#: A JSON scalar inside a record (votes): bounded numbers, short text.
Scalar = bool | Annotated[int, Field(ge=-MAX_ID, le=MAX_ID)] | float | Label | None


class Record(BaseModel):
    """Base of the file record models: strict types, unknown fields refused, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _field(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "record"


def json_kind(value: Any) -> str:
    """How a JSON value is called in messages: ``a list [1, 2]``, ``a string "3"``."""
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    shown = repr(value) if not isinstance(value, str) else f'"{value}"'
    if len(shown) > 40:
        shown = shown[:37] + "..."
    kind = {
        dict: "an object",
        list: "a list",
        tuple: "a list",
        str: "a string",
        int: "an integer",
        float: "a number",
    }.get(type(value), type(value).__name__)
    return f"{kind} {shown}"


_EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "dict_type": "an object",
    "list_type": "a list",
    "tuple_type": "a list",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "none_required": "null",
}


def describe(exc: ValidationError, what: str = "record") -> str:
    """One sentence for the first problem of a validation error (missing fields all at once)."""
    return _describe(exc.errors(include_url=False), what)


def _describe(errors: list[Any], what: str) -> str:
    missing = [_field(e["loc"]) for e in errors if e["type"] == "missing"]
    if missing:
        return f"{what} lacks {', '.join(missing)}"
    extra = [_field(e["loc"]) for e in errors if e["type"] == "extra_forbidden"]
    if extra:
        return f"unknown {what} fields: {', '.join(extra)}"
    error = errors[0]
    field = _field(error["loc"])
    kind, value, ctx = error["type"], error.get("input"), error.get("ctx") or {}
    union = _union_members(errors)
    if len(union) > 1:
        # pydantic reports a value that fits no member of a union once per member, with the
        # member's name (``bool``, ``constrained-int``) as a step of the location: the field
        # is the location without it. A member that took the value but not its content (a
        # too-long string, a bad item inside) says what is wrong; else it must be any member.
        depth = len(error["loc"])
        told = [e for e in union if len(e["loc"]) > depth or e["type"] not in _EXPECTED]
        if told:
            return _describe(
                [{**e, "loc": e["loc"][: depth - 1] + e["loc"][depth:]} for e in told], what
            )
        kinds = list(dict.fromkeys(_EXPECTED[e["type"]] for e in union))
        expected = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
        return f"{_field(error['loc'][:-1])} must be {expected}, got {json_kind(value)}"
    if kind in _EXPECTED:
        return f"{field} must be {_EXPECTED[kind]}, got {json_kind(value)}"
    if kind == "literal_error":
        return f"{field} {value!r} is not one of {ctx.get('expected', '?')}"
    if kind in {"greater_than_equal", "greater_than", "less_than_equal", "less_than"}:
        bound = next(iter(ctx.values()), "?")
        relation = "at least" if kind.startswith("greater") else "at most"
        return f"{field} is {value}; it must be {relation} {bound}"
    if kind == "string_too_long":
        return (
            f"{field} is {len(value)} characters long; at most {ctx.get('max_length')} are allowed"
        )
    if kind == "string_pattern_mismatch":
        return f"{field} is {json_kind(value)}, which is not valid here"
    if kind == "value_error":
        message = str(ctx.get("error", error["msg"]))
        return f"{field} {message}" if field != "record" else message
    return f"{field}: {error['msg']}"


def _union_members(errors: list[Any]) -> list[Any]:
    """The leading errors that are one value failing each member of a union: the same value
    at the same location but for the last step (the member's name), in at least two kinds of
    error, and the errors under them when a member took the value (deeper locations)."""
    first = errors[0]
    loc = first["loc"]
    if len(loc) < 2 or not isinstance(loc[-1], str):
        return [first]
    level = [
        e
        for e in errors
        if len(e["loc"]) == len(loc)
        and e["loc"][:-1] == loc[:-1]
        and e.get("input") is first.get("input")
    ]
    if len({e["type"] for e in level}) < 2:
        return [first]
    return [
        e
        for e in errors
        if e["loc"][: len(loc) - 1] == loc[:-1] and (e in level or len(e["loc"]) > len(loc))
    ]


def validate(model: type[Record], value: Any, what: str = "record") -> Any:
    """``model`` validated from ``value``; a ValueError with one sentence otherwise."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise ValueError(describe(exc, what)) from None
