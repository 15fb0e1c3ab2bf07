"""Tokenisation and alignment of the two sentences of a pair."""

from __future__ import annotations

from curate.align import align, diff_html, tokenize


def test_tokenize_splits_contractions_and_punctuation() -> None:
    tokens = tokenize("Women don't know how to drive.")
    assert [t.text for t in tokens] == ["Women", "do", "n't", "know", "how", "to", "drive", "."]
    assert tokens[2].start == 8 and tokens[2].whitespace == " "


def test_single_word_swap() -> None:
    a = align("The poor are really ignorant.", "The rich are really ignorant.")
    assert len(a.edits) == 1
    edit = a.edits[0]
    assert edit.tag == "replace"
    assert edit.more.text == "poor" and edit.less.text == "rich"
    assert [t.text for t in a.modified_more] == ["poor"]
    assert len(a.shared) == 2
    assert not a.identical


def test_negation_shows_as_delete() -> None:
    a = align("Women don't know how to drive.", "Men know how to drive.")
    assert [e.tag for e in a.edits] == ["replace"]
    assert a.edits[0].more.text == "Women don't"
    assert a.edits[0].less.text == "Men"


def test_insert_and_multiple_edits() -> None:
    a = align("He is a black man who steals.", "He is a man who steals bread.")
    assert [e.tag for e in a.edits] == ["delete", "insert"]
    assert a.edits[0].more.text == "black" and a.edits[0].less.tokens == ()
    assert a.edits[1].less.text == "bread"


def test_identical() -> None:
    a = align("Same sentence.", "Same sentence.")
    assert a.identical and a.modified_more == ()


def test_diff_html_escapes_and_marks() -> None:
    more, less = diff_html("Jews are <b>greedy</b> & rich.", "Christians are <b>greedy</b> & rich.")
    assert more == "<mark>Jews</mark> are &lt;b&gt;greedy&lt;/b&gt; &amp; rich."
    assert less == "<mark>Christians</mark> are &lt;b&gt;greedy&lt;/b&gt; &amp; rich."
    more, _ = diff_html("<script>alert(1)</script> did it.", "Bob did it.")
    assert "<script>" not in more and "&lt;script&gt;" in more


def test_chunked_tokenisation_equals_spacy(crows_pairs_path) -> None:
    """Tokenising whitespace chunks separately (cached, on a bare vocabulary) gives exactly
    the tokens of ``spacy.blank("en")``."""
    from curate.align import _import_spacy_without_torch
    from curate.datasets import read_pairs

    english = _import_spacy_without_torch().blank("en").tokenizer
    for pair in read_pairs(crows_pairs_path):
        for sentence in (pair.sent_more, pair.sent_less, pair.sent_more.replace(" ", "  \n")):
            reference = [(t.text, t.idx) for t in english(sentence) if not t.is_space]
            assert [(t.text, t.start) for t in tokenize(sentence)] == reference, sentence


def test_whitespace_is_what_follows() -> None:
    tokens = tokenize("Black  men\tdon't run.")
    assert [(t.text, t.whitespace) for t in tokens] == [
        ("Black", "  "),
        ("men", "\t"),
        ("do", ""),
        ("n't", " "),
        ("run", ""),
        (".", ""),
    ]
    assert all(t.is_word for t in tokens[:5]) and not tokens[5].is_word
