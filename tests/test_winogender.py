"""WinoGender as a benchmark package, on the shared upstream files: detection, the byte-exact
round trip, ``curate stats`` per occupation, the lint profile (R001-R003) and its refusals."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import benchmarks
from curate.benchmarks.winogender.io import SENTENCES, STATS, TEMPLATES, triple_of
from curate.cli import app
from curate.datasets import read_dataset, write_dataset
from tests.support.winogender import fetch_winogender

runner = CliRunner()


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fetch_winogender(tmp_path_factory.mktemp("winogender"))


@pytest.fixture
def copy(upstream: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(upstream, tmp_path / "wg"))


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter="\t"))


def test_detected_and_read_as_240_pairs(upstream: Path) -> None:
    assert benchmarks.detect(b"", upstream)[0].name == "winogender"
    assert benchmarks.detect((upstream / SENTENCES).read_bytes())[0].name == "winogender"
    dataset = read_dataset(upstream)
    assert dataset.benchmark == "winogender" and not dataset.warnings
    assert len(dataset.pairs) == 240
    assert read_dataset(upstream / SENTENCES).pairs == dataset.pairs
    # every sentence of the file is in exactly one pair, by its id
    ids = [i for p in dataset.pairs for i in triple_of(p).ids]  # type: ignore[union-attr]
    assert sorted(ids) == sorted(r[0] for r in _rows(upstream / SENTENCES)[1:])
    # sent_more holds the pronoun of the occupation's BLS majority
    bls = {r[0]: float(r[2]) for r in _rows(upstream / STATS)[1:]}
    texts = dict(_rows(upstream / SENTENCES)[1:])
    for pair in dataset.pairs:
        triple = triple_of(pair)
        assert triple is not None
        majority = "female" if bls[triple.occupation] > 50 else "male"
        assert texts[triple.ids[("male", "female").index(majority)]] == pair.sent_more
        assert pair.bias_type == ("occupation", "participant")[triple.answer]


def test_written_back_byte_for_byte(upstream: Path, tmp_path: Path) -> None:
    dataset = read_dataset(upstream)
    write_dataset(dataset, tmp_path / "out")
    for name in (TEMPLATES, SENTENCES, STATS):
        assert (tmp_path / "out" / name).read_bytes() == (upstream / name).read_bytes(), name
    # an edit shows in its row only; a CSV copy reads back with the WinoGender fields
    first = dataset.pairs[0]
    edited = dataset.with_pairs([first.with_changes(sent_less=first.sent_less + " Indeed."), *dataset.pairs[1:]])
    write_dataset(edited, tmp_path / "edited")
    before = (upstream / SENTENCES).read_text(encoding="utf-8").splitlines()
    after = (tmp_path / "edited" / SENTENCES).read_text(encoding="utf-8").splitlines()
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [
        1 + triple_of(first).rows[("male", "female").index(triple_of(first).less)]  # type: ignore[union-attr]
    ]
    write_dataset(dataset, tmp_path / "pairs.csv", "csv")
    again = read_dataset(tmp_path / "pairs.csv")
    assert [triple_of(p) for p in again.pairs] == [triple_of(p) for p in dataset.pairs]


def test_stats_per_occupation(upstream: Path) -> None:
    result = runner.invoke(app, ["stats", "--format", "json", str(upstream)])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)["winogender"]
    stats = {r[0]: r for r in _rows(upstream / STATS)[1:]}
    assert figures["sentences"] == 720
    assert [r["occupation"] for r in figures["occupations"]] == list(dict.fromkeys(
        r[0] for r in _rows(upstream / TEMPLATES)[1:]
    ))
    for row in figures["occupations"]:
        assert (row["templates"], row["pairs"], row["sentences"]) == (2, 4, 12)
        assert (row["occupation_answers"], row["participant_answers"]) == (2, 2)
        assert row["bls_pct_female"] == float(stats[row["occupation"]][2])
        assert row["bergsma_pct_female"] == float(stats[row["occupation"]][1])
    majority_female = sum(float(r[2]) > 50 for r in stats.values())
    assert figures["sent_more_gender"] == {"female": 4 * majority_female, "male": 4 * (60 - majority_female)}
    text = runner.invoke(app, ["stats", str(upstream)])
    assert text.exit_code == 0 and "WinoGender per occupation" in text.stdout


def _lint(folder: Path) -> dict[int, set[str]]:
    result = runner.invoke(app, ["lint", "--no-cache", "--format", "json", str(folder)])
    assert result.exit_code in (0, 1), result.output
    found: dict[int, set[str]] = {}
    for f in json.loads(result.stdout):
        found.setdefault(f["pair_id"], set()).add(f["code"])
    return found


def test_lint_profile_on_upstream(upstream: Path) -> None:
    """The upstream triples keep the design: no R finding (the spelling rules may speak)."""
    found = _lint(upstream)
    assert not any(c.startswith("R") for codes in found.values() for c in codes)
    assert not any(c[0] in "SPB" for codes in found.values() for c in codes)  # other profiles' rules


def _edit(folder: Path, sentid: str, old: str, new: str) -> None:
    path = folder / SENTENCES
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(sentid + "\t"))
    assert old in lines[at]
    lines[at] = lines[at].replace(old, new)
    path.write_text("\n".join(lines), encoding="utf-8")


def test_lint_finds_broken_triples(copy: Path) -> None:
    # technician.customer.0: template line 2 -> pair 20 (participant), 21 (someone)
    _edit(copy, "technician.customer.0.female.txt", "completed", "finished")  # not minimal, not the template
    _edit(copy, "technician.someone.0.male.txt", " he ", " she ")  # the male sentence says she
    _edit(copy, "accountant.taxpayer.1.neutral.txt", "their", "his")  # neutral with a male pronoun
    found = _lint(copy)
    assert {"R001", "R002"} <= found[20] and "R003" not in found[20]
    assert {"R002", "R003"} <= found[21]
    assert "R003" in found[30] and "R002" in found[30]
    assert not any(c.startswith("R") for pid, codes in found.items() if pid not in (20, 21, 30) for c in codes)


def test_answer_filed_under_the_other_template_is_found(copy: Path) -> None:
    """The answer and the pronoun slot agree: a sentence filed under answer 0 but written from
    the answer-1 template is reported against its template."""
    rows = _rows(copy / SENTENCES)
    one = dict(rows[1:])["technician.customer.1.male.txt"]
    zero = dict(rows[1:])["technician.customer.0.male.txt"]
    _edit(copy, "technician.customer.0.male.txt", zero.split(" that ")[1], one.split(" that ")[1])
    found = _lint(copy)
    assert "R002" in found[20]


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda t: t.replace("technician.customer.1.male.txt", "technician.customer.1.man.txt", 1), "line 2"),
        (lambda t: t.replace("technician.customer.1.female.txt", "technician.customer.1.male.txt", 1), "twice"),
        (lambda t: "\n".join(x for x in t.split("\n") if not x.startswith("technician.customer.1.female")), "no female twin"),
        (lambda t: t.replace("sentid\tsentence", "id\ttext", 1), "header"),
    ],
)
def test_malformed_files_are_refused_in_one_sentence(copy: Path, mutate, words: str) -> None:
    path = copy / SENTENCES
    path.write_text(mutate(path.read_text(encoding="utf-8")), encoding="utf-8")
    result = runner.invoke(app, ["stats", str(copy)])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_without_statistics_the_male_sentence_is_sent_more(copy: Path) -> None:
    (copy / STATS).unlink()
    dataset = read_dataset(copy)
    assert any(STATS in w for w in dataset.warnings)
    assert all(triple_of(p).more == "male" for p in dataset.pairs)  # type: ignore[union-attr]
    assert all(" he " in f" {p.sent_more} " or " his " in f" {p.sent_more} " or " him" in p.sent_more for p in dataset.pairs)


def test_a_recipe_of_the_winogender_benchmark_releases_its_folder(tmp_path: Path) -> None:
    """``[source] name = "winogender"``: the fetched folder, each file checked against its pin;
    the release holds the three files, a dropped pair's two gendered rows gone (and its neutral
    one, which rides with it), the ids of the others kept."""
    import os

    from curate.config import load_config
    from curate.release.publish import publish
    from curate.release.revise import recipe_source
    from curate.sources import MIRROR_ENV, fetch, load_sources
    from tests.support.winogender import REPO

    if not os.environ.get(MIRROR_ENV):
        pytest.skip(f"${MIRROR_ENV} not set")
    registry_path = REPO / "data" / "raw" / "sources.toml"
    root = tmp_path / "p"
    raw_dir = root / "data" / "raw"
    raw_dir.mkdir(parents=True)
    registry = load_sources(registry_path)
    for name in ("winogender-templates", "winogender-sentences", "winogender-occupations"):
        fetch(registry[name], raw_dir)
    (raw_dir / "sources.toml").write_text(registry_path.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "data/raw/x.csv"\nsources = "data/raw/sources.toml"\noutput-dir = "build"\n',
        encoding="utf-8",
    )
    cfg = load_config(root)
    source, members = recipe_source(registry, "winogender")
    assert source.file == "winogender" and len(members) == 3
    clean = root / "data" / "clean" / "1.0.0"
    clean.mkdir(parents=True)
    (clean / "recipe.toml").write_text(
        f'[release]\ntitle = "WinoGender"\n\n[source]\nname = "winogender"\nsha256 = "{source.sha256}"\n'
        '\n[[decisions]]\nfile = "data/clean/1.0.0/decisions.jsonl"\n',
        encoding="utf-8",
    )
    (clean / "decisions.jsonl").write_text(
        json.dumps({"pair_id": 11, "action": "drop", "reason": "test"}) + "\n", encoding="utf-8"
    )
    files = publish(cfg, "1.0.0").build.files
    released = {n.split("/", 1)[1]: d for n, d in files.items() if n.startswith("winogender_revised/")}
    assert set(released) == {TEMPLATES, SENTENCES, STATS}
    raw = raw_dir / "winogender"
    assert released[TEMPLATES] == (raw / TEMPLATES).read_bytes()
    assert released[STATS] == (raw / STATS).read_bytes()
    # pair 11: template line 1 (technician.customer.1), the "someone" variant
    kept = [line for line in (raw / SENTENCES).read_bytes().splitlines(keepends=True)
            if not line.startswith(b"technician.someone.1.")]
    assert released[SENTENCES] == b"".join(kept)
    again = read_dataset(clean / "dist" / "winogender_revised")
    assert {p.pair_id for p in again.pairs} == {p.pair_id for p in read_dataset(raw).pairs} - {11}
