"""A WinoGender folder whose files do not cover each other (issue 46): a templates.tsv of 49 of
the 120 templates read as 240 pairs with no word and renumbered them (630 became 11240); a
sentence triple of no template was read as a 241st pair. Now the ids come from the template's
identity (its upstream number), the gaps are warned about, and an orphan triple is skipped."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.benchmarks.winogender.io import SENTENCES, TEMPLATES, triple_of
from curate.datasets import read_dataset
from tests.support.winogender import fetch_winogender


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fetch_winogender(tmp_path_factory.mktemp("winogender"))


@pytest.fixture
def copy(upstream: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(upstream, tmp_path / "wg"))


def _ids_by_sentence(path: Path) -> dict[str, int]:
    return {
        triple_of(p).ids[0]: p.pair_id  # type: ignore[union-attr]
        for p in read_dataset(path).pairs
    }


def test_full_file_ids_are_the_template_lines(upstream: Path) -> None:
    """Unchanged from before: 10 * the template's line (1-120) + 1 for "someone"."""
    ids = _ids_by_sentence(upstream)
    assert sorted(ids.values()) == sorted(10 * t + v for t in range(1, 121) for v in (0, 1))
    assert ids["technician.customer.1.male.txt"] == 10
    assert ids["technician.someone.1.male.txt"] == 11
    assert ids["secretary.visitor.1.male.txt"] == 1200


def test_a_partial_templates_file_is_warned_about_and_keeps_the_ids(
    upstream: Path, copy: Path
) -> None:
    lines = (copy / TEMPLATES).read_text(encoding="utf-8").split("\n")
    # the header and 49 templates, chosen across the file (not just its head)
    kept = [lines[0], *[line for i, line in enumerate(lines[1:121]) if i % 12 < 5][:49]]
    (copy / TEMPLATES).write_text("\n".join(kept) + "\n", encoding="utf-8")
    dataset = read_dataset(copy)
    assert len(dataset.pairs) == 240
    assert _ids_by_sentence(copy) == _ids_by_sentence(upstream)  # 630 stays 630
    notes = [w for w in dataset.warnings if "have no template in it" in w]
    assert len(notes) == 1, dataset.warnings
    assert "holds 49 template(s); 142 pair(s)" in notes[0]
    with contextlib.chdir(copy.parent):
        from curate.cli import app

        result = CliRunner().invoke(app, ["lint", str(copy)])
    assert result.exit_code in (0, 1)
    assert "have no template in it" in result.stderr  # lint no longer says nothing


def test_a_sentence_triple_of_no_template_is_skipped_and_said(
    upstream: Path, copy: Path
) -> None:
    extra = "".join(
        f"astronaut.passenger.0.{g}.txt\tThe astronaut told the passenger that {p} was ready.\n"
        for g, p in (("male", "he"), ("female", "she"), ("neutral", "they"))
    )
    with (copy / SENTENCES).open("a", encoding="utf-8") as handle:
        handle.write(extra)
    dataset = read_dataset(copy)
    assert len(dataset.pairs) == 240
    assert not any("astronaut" in p.sent_more for p in dataset.pairs)
    notes = [w for w in dataset.warnings if "were skipped" in w]
    assert len(notes) == 1 and "1 sentence triple(s)" in notes[0]
    assert "astronaut.passenger.0" in notes[0]
    assert _ids_by_sentence(copy) == _ids_by_sentence(upstream)


def test_templates_without_sentences_are_warned_about(copy: Path) -> None:
    lines = (copy / SENTENCES).read_text(encoding="utf-8").split("\n")
    kept = [line for line in lines if not line.startswith("technician.")]
    (copy / SENTENCES).write_text("\n".join(kept), encoding="utf-8")
    dataset = read_dataset(copy)
    assert len(dataset.pairs) == 236
    notes = [w for w in dataset.warnings if "have no sentence" in w]
    assert len(notes) == 1 and "2 template(s)" in notes[0], dataset.warnings
