"""Pairs I/O: lossless round trip on the upstream file and one clear error per kind of bad input."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curate.datasets import format_pairs, parse_pairs, read_pairs, write_pairs
from curate.errors import InputError
from curate.pairs import BIAS_TYPES, Pair, sentence_control_characters
from tests.conftest import GOOD_ROW, HEADER

UPSTREAM_SHA256 = "dfb36986ce0502abbaf7055b9176da3d08d48e07df1251991b5dfbcbceab9d0c"


def test_upstream_round_trip_is_byte_for_byte(crows_pairs_path: Path, tmp_path: Path) -> None:
    pairs = read_pairs(crows_pairs_path)
    assert len(pairs) == 1508
    assert [p.pair_id for p in pairs] == list(range(1508))
    out = tmp_path / "copy.csv"
    write_pairs(pairs, out)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == UPSTREAM_SHA256


def test_upstream_fields_are_parsed(crows_pairs_path: Path) -> None:
    pairs = read_pairs(crows_pairs_path)
    first = pairs[0]
    assert first.direction == "stereo"
    assert first.bias_type == "race-color"
    assert first.annotations == (("race-color",),) * 5
    assert first.writer == "a0"
    assert first.annotators == ("a77", "a78", "a79", "a80", "a81")
    assert pairs[2].annotations == (("gender",), ("gender",), ("gender",), (), ("race-color",))
    # a sentence with an embedded newline survives the round trip
    assert any("\n" in p.sent_more or "\n" in p.sent_less for p in pairs)
    assert {p.bias_type for p in pairs} == set(BIAS_TYPES)
    assert first.disadvantaged_sentence == first.sent_more


def test_antistereo_orientation() -> None:
    pair = Pair(1, "Men can't cook.", "Women can't cook.", "antistereo", "gender")
    assert pair.disadvantaged_sentence == "Women can't cook."
    assert pair.advantaged_sentence == "Men can't cook."


def test_annotations_are_not_evaluated(csv_file) -> None:
    path = csv_file(
        GOOD_ROW.replace(
            "\"[['gender'], ['gender'], ['gender'], ['gender'], ['gender']]\"",
            "\"__import__('os').system('false')\"",
        )
    )
    with pytest.raises(InputError, match=r"line 2: annotations is not a Python-literal list"):
        read_pairs(path)


def test_bom_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + GOOD_ROW).encode())
    assert read_pairs(path)[0].sent_more == "Women don't know how to drive."


@pytest.mark.parametrize(
    ("body", "header", "message"),
    [
        ("", False, r"the file is empty"),
        (
            ",sent_more,sent_les,stereo_antistereo,bias_type,annotations,anon_writer,anon_annotators\n",
            False,
            r"line 1: bad header \(missing 'sent_less'; unexpected 'sent_les'\); expected '', 'sent_more'",
        ),
        (
            ",sent_more,stereo_antistereo,bias_type,annotations,anon_writer,anon_annotators\n",
            False,
            r"missing 'sent_less'",
        ),
        (GOOD_ROW + "1,A.,B.,stereo,gender\n", True, r"line 3: 5 fields, expected 8"),
        (
            GOOD_ROW.replace(",stereo,", ",stereotype,"),
            True,
            r"line 2: stereo_antistereo is 'stereotype' \(pair 0\); expected 'stereo' or 'antistereo'",
        ),
        (GOOD_ROW + GOOD_ROW, True, r"line 3: duplicate pair id 0 \(first on line 2\)"),
        (GOOD_ROW.replace("0,", "x,", 1), True, r"line 2: pair id 'x' is not an integer"),
        (GOOD_ROW.replace(",gender,", ",,"), True, r"line 2: bias_type is empty"),
        (
            GOOD_ROW.replace("\"['a1', 'a2', 'a3', 'a4', 'a5']\"", "\"['a1', 3]\""),
            True,
            r"anon_annotators must be a list of strings",
        ),
        (GOOD_ROW + '1,"unterminated,x\n', True, r"line 3: (malformed CSV|\d+ fields)"),
    ],
    ids=[
        "empty",
        "misnamed-column",
        "missing-column",
        "wrong-field-count",
        "unknown-direction",
        "duplicate-id",
        "bad-id",
        "empty-bias-type",
        "bad-annotators",
        "unterminated-quote",
    ],
)
def test_bad_input_is_one_clear_error(csv_file, body: str, header: bool, message: str) -> None:
    path = csv_file(body, header=header)
    with pytest.raises(InputError, match=message) as info:
        read_pairs(path)
    assert str(path) in str(info.value)


def test_line_numbers_count_embedded_newlines(csv_file) -> None:
    body = GOOD_ROW.replace("Women don't know how to drive.", '"Women don\'t know\nhow to drive."')
    body += GOOD_ROW.replace("0,", "1,", 1).replace(",stereo,", ",sideways,")
    with pytest.raises(InputError, match=r"line 4: stereo_antistereo is 'sideways'"):
        read_pairs(csv_file(body))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope.csv: no such file"):
        read_pairs(tmp_path / "nope.csv")


def test_not_utf8_names_byte_offset(tmp_path: Path) -> None:
    data = (HEADER + GOOD_ROW).encode()
    offset = data.index(b"Men")
    path = tmp_path / "latin1.csv"
    path.write_bytes(data[:offset] + b"\xe9" + data[offset:])
    with pytest.raises(
        InputError, match=rf"not UTF-8: invalid byte 0xe9 at byte offset {offset} \(line 2\)"
    ):
        read_pairs(path)


def test_write_is_atomic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    pairs = parse_pairs(HEADER + GOOD_ROW)
    out = tmp_path / "out.csv"
    write_pairs(pairs, out)
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    assert out.read_text() == HEADER + GOOD_ROW


#: Control characters the readers refuse in a sentence (issue 14).
REFUSED_CONTROLS = "".join(chr(c) for c in range(0xA0) if sentence_control_characters(chr(c)))

sentences = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r" + REFUSED_CONTROLS),
    min_size=1,
).filter(lambda s: s.strip())
labels = st.lists(st.lists(st.sampled_from(BIAS_TYPES), max_size=2), max_size=5)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            sentences,
            sentences,
            st.sampled_from(["stereo", "antistereo"]),
            st.sampled_from(BIAS_TYPES),
            labels,
            st.text(alphabet="a0123456789", max_size=4),
        ),
        max_size=5,
    )
)
def test_any_pairs_round_trip(rows) -> None:
    pairs = [
        Pair(i, more, less, direction, bias, tuple(tuple(x) for x in ann), writer, ("a1",))
        for i, (more, less, direction, bias, ann, writer) in enumerate(rows)
    ]
    text = format_pairs(pairs)
    assert parse_pairs(text) == pairs
    assert format_pairs(parse_pairs(text)) == text


def test_match_by_id() -> None:
    from curate.pairs import match_by_id

    a = [Pair(i, f"A {i}.", f"B {i}.", "stereo", "age") for i in (3, 1, 2)]
    b = [Pair(i, f"A {i}.", f"B {i}.", "stereo", "age") for i in (4, 2, 1)]
    match = match_by_id(a, b)
    assert [(x.pair_id, y.pair_id) for x, y in match.shared] == [(1, 1), (2, 2)]
    assert [p.pair_id for p in match.dropped] == [3]
    assert [p.pair_id for p in match.added] == [4]
