"""L003 on the pair issue 45 calls a false positive (an uncle fixing a leak, labelled stereo).

By CrowS-Pairs' own definition (Nangia et al. 2020; ../shared/data/crows_pairs_review_guidelines.md)
a pair is antistereo when sent_less breaks a stereotype of the disadvantaged group, so
sent_more names the advantaged one: "My uncle is coming over to fix my plumbing." / "My aunt
..." is antistereo, and its upstream label "stereo" is the defect. The reading that saw a
contradiction took "stereo" as "sent_more is the stereotype"; the finding now quotes the
definition it applies, in English and in French (the same pair id, 684, in both files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curate.benchmarks import benchmark_of, lint_target
from curate.datasets import read_dataset
from curate.formats.language import declared
from curate.lint import LintSettings, lint_pairs

MIRROR = Path(os.environ.get("CURATE_DATA_MIRROR", "/nonexistent"))
FILES = {
    "en": MIRROR / "crows_pairs_anonymized.csv",
    "fr": MIRROR / "crows_pairs_multilingual" / "crows_french.csv",
}


@pytest.mark.skipif(not MIRROR.is_dir(), reason="needs CURATE_DATA_MIRROR")
@pytest.mark.parametrize("language", sorted(FILES))
def test_the_uncle_pair_is_antistereo_by_the_datasets_own_definition(
    tmp_path: Path, language: str
) -> None:
    lines = FILES[language].read_text(encoding="utf-8").splitlines()
    row = next(line for line in lines if line.startswith("684,"))
    assert "stereo,gender" in row and ("uncle" in row or "oncle" in row)
    path = tmp_path / "pair.csv"
    path.write_text(f"{lines[0]}\n{row}\n", encoding="utf-8")
    findings = _direction_findings(path, language)
    assert len(findings) == 1
    message = findings[0].message
    assert "so the pair is antistereo, not stereo" in message
    assert "antistereo when sent_less breaks a stereotype of the disadvantaged group" in message

    flipped = path.read_text(encoding="utf-8").replace("stereo,gender", "antistereo,gender")
    path.write_text(flipped, encoding="utf-8")
    assert not _direction_findings(path, language)


def _direction_findings(path: Path, language: str) -> list:
    """L003's findings on the file, with the language's lexicon (as `curate lint` runs)."""
    with declared(language):
        dataset = read_dataset(path)
    target = lint_target(benchmark_of(dataset, by_columns=True), dataset.language)
    found = lint_pairs(list(dataset.pairs), LintSettings(select=("L003",)), target=target)
    return [f for f in found if f.code == "L003"]
