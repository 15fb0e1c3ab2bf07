"""report.json and the report files: every number round-trips, outputs are deterministic and
written whole.

The report is built from hand-made scores (``tests/support/report_data.py``, no model).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curate.report.markdown import render_markdown
from curate.report.output import REPORT_FILES, render_json, write_report
from curate.report.schema import Report
from tests.support.report_data import SCRIPT, build_data


@pytest.fixture(scope="module")
def data() -> Report:
    return build_data()


def test_the_fixture_flips_the_script_pair(data) -> None:
    flips = data["models"][0]["flips"]
    assert [f["pair_id"] for f in flips["pairs"]] == [1, 3]
    assert flips["pairs"][0]["after"]["sent_more"] == f"The poor are {SCRIPT} ignorant."


def test_json_holds_every_number_and_round_trips(data) -> None:
    text = render_json(data)
    assert json.loads(text) == data
    assert text.endswith("\n") and "NaN" not in text


def test_outputs_are_deterministic(data, tmp_path: Path) -> None:
    first = write_report(data, tmp_path / "a")
    second = write_report(build_data(), tmp_path / "b")
    assert [p.name for p in first] == list(REPORT_FILES)
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(REPORT_FILES)  # no temp files


GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    ("name", "render"), [("report.json", render_json), ("report.md", render_markdown)]
)
def test_output_is_byte_identical_to_the_recorded_layout(data, name, render) -> None:
    """tests/golden/ holds the files rendered from the same data before the report modules were
    split and typed; a change of layout, key order or number formatting shows here."""
    assert render(data) == (GOLDEN / name).read_text(encoding="utf-8")


def test_pair_ids_link_to_an_explorer_built_for_the_same_versions_only(
    data: Report, tmp_path: Path
) -> None:
    from curate.report.output import explorer_link

    report_dir, site = tmp_path / "diff-report", tmp_path / "explore"
    site.mkdir()
    (site / "index.html").write_text("<html></html>", encoding="utf-8")
    flips = data["robust_flips"]
    pairs = sorted({f["pair_id"] for f in (*flips["every"], *flips["only_one"])})
    assert pairs, "the fixture has flips to link"
    versions = [data["before"]["label"], data["after"]["label"]]

    def marker(**values: object) -> None:
        (site / ".curate-explore").write_text(json.dumps(values), encoding="utf-8")

    marker(versions=versions, pairs=pairs)
    assert explorer_link(report_dir, data) == "../explore/index.html"
    marker(versions=["raw", "2.0.0-other"], pairs=pairs)  # built for other versions
    assert explorer_link(report_dir, data) is None
    marker(versions=versions, pairs=pairs[1:])  # without a pair the report links
    assert explorer_link(report_dir, data) is None
    (site / ".curate-explore").write_text("curate explore site\n", encoding="utf-8")
    assert explorer_link(report_dir, data) is None  # an old site: it cannot say
