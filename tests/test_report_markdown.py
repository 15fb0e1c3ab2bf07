"""report.md: dataset text escaped, a column per model.

The report is built from hand-made scores (``tests/support/report_data.py``, no model).
"""

from __future__ import annotations

import pytest

from curate.report.markdown import escape_markdown, render_markdown
from curate.report.schema import Report
from tests.support.report_data import SCRIPT, build_data


@pytest.fixture(scope="module")
def data() -> Report:
    return build_data()


def test_markdown_escapes_dataset_text(data) -> None:
    text = render_markdown(data)
    assert SCRIPT not in text and "<img" not in text and "<i>" not in text
    assert "&lt;script&gt;alert\\(1\\)&lt;/script&gt;" in text
    assert "tiny&lt;b&gt;roberta&lt;/b&gt;" in text
    assert escape_markdown("a | b *c*") == "a \\| b \\*c\\*"
    assert escape_markdown("two\nlines") == "two lines"
    # Every table row keeps its column count although a sentence holds a pipe.
    for block in text.split("\n\n"):
        rows = [line for line in block.splitlines() if line.startswith("|")]
        widths = {line.replace("\\|", "").count("|") for line in rows}
        assert len(widths) <= 1, block


def test_markdown_has_a_column_per_model(data) -> None:
    text = render_markdown(data)
    assert "|  | tiny-bert | tiny&lt;b&gt;roberta&lt;/b&gt; |" in text
    assert "| metric before | 66.67 | 66.67 |" in text
    assert "| metric after | 50.00 | 50.00 |" in text
    assert "score flips (of edited pairs) | 2 of 3 (66.67%)" in text
