"""CrowS-Pairs in French and Dutch: read byte-exactly (the Dutch file through its legacy
encoding), with their language, and linted in it.

The shared files are read from ``$CURATE_DATA_MIRROR`` (verified against the registry's
checksums); the synthetic cases check the decoding rules on their own.
"""

from __future__ import annotations

import codecs
import dataclasses
import os
from pathlib import Path

import pytest

from curate import sources
from curate.datasets import format_dataset, read_dataset
from curate.errors import InputError, UsageError
from curate.formats.encoding import decode, forced_encoding, misplaced
from curate.formats.language import detect_language

REPO = Path(__file__).resolve().parents[1]
REGISTRY = REPO / "data" / "raw" / "sources.toml"


def shared(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A registry source from the mirror, checksum-verified."""
    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    source = sources.load_sources(REGISTRY)[name]
    return sources.fetch(source, tmp_path_factory.mktemp("raw")).path


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared("crows-pairs-french", tmp_path_factory)


@pytest.fixture(scope="module")
def dutch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared("crows-pairs-dutch", tmp_path_factory)


def test_french_file_reads_whole_with_its_language(french: Path) -> None:
    dataset = read_dataset(french)
    assert len(dataset.pairs) == 1463
    assert dataset.language == "fr"
    assert dataset.shape.encoding == "utf-8"
    text = french.read_bytes().decode("utf-8")
    assert "café" in text
    assert any("café" in p.sent_more or "café" in p.sent_less for p in dataset.pairs)
    # pair 129 has an empty sent_less: kept (lint flags it), with a warning naming it
    assert next(p for p in dataset.pairs if p.pair_id == 129).sent_less == ""
    assert any("pair 129" in w for w in dataset.warnings)


def test_dutch_file_is_decoded_from_mac_roman_byte_exactly(dutch: Path) -> None:
    data = dutch.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    decoded = decode(data, dutch.name)
    assert decoded.encoding == "mac-roman"
    # the one line of UTF-8 inside it (pair 1367's "één") is decoded as UTF-8
    assert len(decoded.utf8_lines) == 1
    line = decoded.text.splitlines()[decoded.utf8_lines[0] - 1]
    assert line.startswith("1367,") and "één" in line
    assert decoded.encode() == data  # every byte accounted for
    for word in ("siësta", "één"):
        assert word in decoded.text
    assert "√" not in decoded.text and "Ž" not in decoded.text
    assert misplaced(decoded.text) == []


def test_dutch_dataset_names_the_encoding_and_writes_utf8(dutch: Path, tmp_path: Path) -> None:
    dataset = read_dataset(dutch)
    assert len(dataset.pairs) == 1463
    assert dataset.language == "nl"
    assert dataset.shape.encoding == "mac-roman"
    note = dataset.warnings[0]
    assert "decoded from mac-roman" in note and "written from it are UTF-8" in note
    assert "cp1250" in note  # the evidence names the rejected candidates
    siesta = [p for p in dataset.pairs if "siësta" in p.sent_more]
    assert siesta
    written = format_dataset(dataset, "csv")
    text = written.decode("utf-8")
    assert "siësta" in text and "één" in text
    out = tmp_path / "dutch_utf8.csv"
    out.write_bytes(written)
    again = read_dataset(out)
    assert again.shape.encoding == "utf-8"
    assert [(p.pair_id, p.sent_more, p.sent_less) for p in again.pairs] == [
        (p.pair_id, p.sent_more, p.sent_less) for p in dataset.pairs
    ]


def test_utf8_forced_on_the_dutch_file_names_the_line(dutch: Path) -> None:
    with forced_encoding("utf-8"), pytest.raises(InputError, match=r"line 29\).*--encoding"):
        read_dataset(dutch)


def test_a_wrong_forced_encoding_is_said(dutch: Path) -> None:
    with forced_encoding("cp1250"):
        dataset = read_dataset(dutch)
    assert "look out of place" in dataset.warnings[0]


@pytest.mark.parametrize("name", ["rot13", "hex", "base64", "idna", "utf-7"])
def test_a_codec_that_is_no_file_encoding_is_one_sentence(tmp_path: Path, name: str) -> None:
    """--encoding rot13 (a codec of str to str) was a LookupError traceback at the first
    decode (issue 36, found by the fuzzer)."""
    path = tmp_path / "pairs.csv"
    path.write_bytes(b"id,sent_more,sent_less,stereo_antistereo,bias_type\n")
    refused = pytest.raises(UsageError, match=rf"'{name}' is not an encoding of text files")
    with refused, forced_encoding(name):
        read_dataset(path)


@pytest.mark.parametrize(
    ("codec", "words"),
    [("cp1252", ("café", "très", "élève")), ("mac_roman", ("één", "siësta", "café"))],
)
def test_legacy_files_round_trip(tmp_path: Path, codec: str, words: tuple[str, ...]) -> None:
    french = "Le café est très bon pour un élève, dit-il, et elle le sait. "
    dutch = "Hij zei dat één siësta in het café niet genoeg was voor de mensen. "
    sentence = french if codec == "cp1252" else dutch
    # every third row the other language, as a file of quotations might mix them
    text = "".join(
        f"{i},{sentence if i % 3 else french + dutch},{sentence},stereo,age\n" for i in range(12)
    )
    data = ("id,sent_more,sent_less,stereo_antistereo,bias_type\n" + text).encode(codec)
    decoded = decode(data, "x.csv")
    assert decoded.encode() == data
    for word in words:
        assert word in decoded.text
    assert decoded.text == data.decode(codec)


def test_too_little_evidence_is_refused_naming_line_and_encoding() -> None:
    data = "a,b\nx,caf\xe9\n".encode("latin-1")
    with pytest.raises(InputError, match=r"line 2\); likely cp1252.*--encoding cp1252"):
        decode(data, "tiny.csv")


def test_language_detection() -> None:
    assert detect_language("Les pauvres sont incapables de gérer leurs finances, et il le sait.") == "fr"
    assert detect_language("De armen weten niet hoe ze met het geld van de zaak moeten omgaan.") == "nl"
    assert detect_language("The poor are unable to manage their money and the rest of it.") == "en"
    assert detect_language("Paris.") is None


# -- lint in the pair's language -------------------------------------------------------------


def _lint_cli(path: Path, *args: str):
    from typer.testing import CliRunner

    from curate.cli import app

    return CliRunner().invoke(app, ["lint", str(path), "--format", "json", *args])


@pytest.mark.parametrize(("fixture", "language", "name"), [("french", "fr", "French"), ("dutch", "nl", "Dutch")])
def test_lint_runs_only_the_rules_of_the_language(
    fixture: str, language: str, name: str, request: pytest.FixtureRequest
) -> None:
    import json
    import re

    from curate.benchmarks import all_rules

    path = request.getfixturevalue(fixture)
    result = _lint_cli(path)
    assert result.exit_code == 1, result.output
    findings = json.loads(result.stdout)
    rules = all_rules()
    assert findings
    english_only = {
        c for c, r in rules.items() if r.languages is not None and "en" in r.languages and language not in r.languages
    }
    assert {"G001", "G003", "W003", "T006"} <= english_only
    # the group-lexicon and pronoun rules run in the language, with its lexicon
    assert not {"S001", "S002", "S003", "S004", "S005", "S006", "L003", "P006", "G002"} & english_only
    other = {c for c, r in rules.items() if r.languages is not None and language not in r.languages}
    assert not {f["code"] for f in findings} & other
    note = re.search(rf"skipped for {name} \({language}\): no {name} version of (.*)", result.stderr)
    assert note is not None
    assert {c for c in english_only if c in note.group(1)} == english_only - {
        c for c, r in rules.items() if not r.default
    }
    assert f"precision on the {name} CrowS-Pairs" in result.stderr


def test_the_printed_precision_is_the_judged_one() -> None:
    """The notes `curate lint` prints are the figures of the judgments file (recomputed from
    it, never typed here); the precision script checks the sample still is the seeded one."""
    import tomllib

    from statsmodels.stats.proportion import proportion_confint

    from curate.benchmarks.crows_pairs.benchmark import LANGUAGE_PRECISION

    judged = tomllib.loads(
        (REPO / "benchmarks" / "crows_pairs_multilingual_lint_judgments.toml").read_text("utf-8")
    )
    from statsmodels.stats.inter_rater import cohens_kappa

    for language in ("fr", "nl"):
        first = {k: v[0] for k, v in judged[language]["judgments"].items()}
        second = {k: v[0] for k, v in judged[language]["second_judgments"].items()}
        assert set(first) == set(second)  # the two judges judged the same sample
        real, n = sum(first[k] and second[k] for k in first), len(first)
        low, high = proportion_confint(real, n, alpha=0.05, method="wilson")
        note = LANGUAGE_PRECISION[language]
        assert f"{real} of " in note and f" {n} " in note and "both of two judges" in note
        assert f"({100 * real / n:.0f}%, Wilson 95% CI {100 * low:.0f}-{100 * high:.0f}%" in note
        table = [[sum(first[k] == a and second[k] == b for k in first) for b in (0, 1)] for a in (0, 1)]
        assert f"kappa {cohens_kappa(table).kappa:.2f} between them" in note


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_the_judged_sample_is_the_seeded_sample_of_todays_rules(language: str) -> None:
    import random
    import sys
    import tomllib

    if not os.environ.get(sources.MIRROR_ENV):
        pytest.skip(f"${sources.MIRROR_ENV} not set")
    from curate.lint import hunspell

    if not hunspell.available(language):  # the judged rules read the dictionary
        pytest.skip(f"no Hunspell dictionary for {language} (make install installs it)")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from crows_pairs_multilingual_lint_precision import FILES, flagged_pairs
    finally:
        sys.path.pop(0)
    judged = tomllib.loads(
        (REPO / "benchmarks" / "crows_pairs_multilingual_lint_judgments.toml").read_text("utf-8")
    )[language]
    mirror = Path(os.environ[sources.MIRROR_ENV]) / "crows_pairs_multilingual"
    _, findings = flagged_pairs(mirror / FILES[language])
    flagged = sorted({f.pair_id for f in findings})
    size = min(judged["sample"]["size"], len(flagged))
    sample = sorted(random.Random(judged["sample"]["seed"]).sample(flagged, size))
    assert sorted(int(k) for k in judged["judgments"]) == sample
    assert sorted(int(k) for k in judged["second_judgments"]) == sample


@pytest.mark.parametrize(
    ("language", "word", "flagged"),
    [
        ("fr", "docteure", False),  # a feminine job noun: a valid swap of "docteur"
        ("fr", "boulots", False),  # plural of a listed word
        ("fr", "sirotant", False),  # participle of "siroter"
        ("fr", "l’école", False),  # elided article
        ("fr", "coach", False),  # English loanword
        ("fr", "britanique", True),
        ("fr", "rançais", True),
        ("nl", "privéschool", False),  # a compound written as one word
        ("nl", "auto's", False),
        ("nl", "gemkaat", True),
        ("nl", "ceremonië", True),
    ],
)
def test_spelling_in_the_language(language: str, word: str, flagged: bool) -> None:
    from curate.align import align
    from curate.lint.lexicon import load_lexicon
    from curate.lint.spelling import misspelled

    token = next(t for t in align(word, word).more if t.text.startswith(word[:3]))
    assert misspelled(token, load_lexicon(), language) is flagged


def test_french_typography_keeps_the_space_before_double_marks() -> None:
    from curate.lint import LintSettings, lint_pairs
    from curate.lint.profiles import PAIRS
    from curate.pairs import Pair

    pairs = [
        Pair(0, "Quel voleur !", "Quel menteur !", "stereo", "race-color"),
        Pair(1, "Il est  gitan .", "Il est français .", "stereo", "race-color"),
    ]
    french = dataclasses.replace(PAIRS, language="fr")
    codes = {(f.pair_id, f.code) for f in lint_pairs(pairs, LintSettings(), target=french)}
    assert (0, "T004") not in codes
    assert (1, "T004") in codes
    english = {(f.pair_id, f.code) for f in lint_pairs(pairs, LintSettings())}
    assert (0, "T004") in english


# -- the five published outputs ----------------------------------------------------------------

PUBLISHED = [
    ("crows-pairs-french-camembert", "crows-pairs-french", "utf-8"),
    ("crows-pairs-french-flaubert", "crows-pairs-french", "utf-8"),
    ("crows-pairs-dutch-bertje", "crows-pairs-dutch", "mac_roman"),
    ("crows-pairs-dutch-mbert", "crows-pairs-dutch", "mac_roman"),
    ("crows-pairs-dutch-robbert", "crows-pairs-dutch", "mac_roman"),
]


def _printed_metric(path: Path, codec: str) -> tuple[float, dict[str, float], list[str]]:
    """What their mlm_metric.py prints, recomputed from the file alone with the csv module:
    the metric (stereo and antistereo pairs whose ``score`` is 1, over all pairs) and the
    score of each direction; and the first column of every row."""
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(path.read_bytes().decode(codec), newline="")))
    first = next(iter(rows[0]))
    directions = {}
    for direction in ("stereo", "antistereo"):
        mine = [int(r["score"]) for r in rows if r["stereo_antistereo"] == direction]
        directions[direction] = 100 * sum(mine) / len(mine)
    return 100 * sum(int(r["score"]) for r in rows) / len(rows), directions, [r[first] for r in rows]


@pytest.mark.parametrize(("name", "data", "codec"), PUBLISHED)
def test_published_outputs_reproduce_their_printed_metric(
    name: str, data: str, codec: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from curate.score.imported import import_scores, published_encoding
    from curate.score.metrics import summarize

    published = shared(name, tmp_path_factory)
    dataset = read_dataset(shared(data, tmp_path_factory))
    result = import_scores(published, dataset.pairs, data=data)
    assert published_encoding(published) == codecs.lookup(codec).name
    metric, directions, first_column = _printed_metric(published, codec)
    summary = summarize(result.scores)
    assert summary["metric_score"] == pytest.approx(metric, abs=1e-9)
    assert result.published_metric == pytest.approx(metric, abs=1e-9)
    assert not result.disagreements and result.swapped_rows == 0
    # ties (sentence scores equal after rounding to 3 decimals) count as not preferring, as in
    # metric.py, and so does this direction score
    for direction, score in directions.items():
        n = summary["directions"][direction]["n"]
        biased = summary["directions"][direction]["biased"]
        assert 100 * biased / n == pytest.approx(score, abs=1e-9)
    # every row went to its own pair: the Dutch files' id column is the pair id, the French
    # files' unnamed column the row position
    ids = [p.pair_id for p in dataset.pairs]
    expected = [int(c) for c in first_column]
    if data.endswith("french"):
        expected = [ids[i] for i in expected]
    assert [s.pair_id for s in result.scores] == sorted(expected)


def test_score_import_cli_records_the_encoding(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    import json

    from typer.testing import CliRunner

    from curate.cli import app

    published = shared("crows-pairs-dutch-robbert", tmp_path_factory)
    data = shared("crows-pairs-dutch", tmp_path_factory)
    result = CliRunner().invoke(
        app, ["score", str(data), "--import", str(published), "-m", "robbert", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(next(tmp_path.rglob("summary.json")).read_text("utf-8"))
    assert summary["imported"]["encoding"] == "mac-roman"
    assert summary["summary"]["metric_score"] == pytest.approx(_printed_metric(published, "mac_roman")[0])


# -- aligned versions --------------------------------------------------------------------------


def test_cross_lingual_check_on_french_vs_dutch(french: Path, dutch: Path) -> None:
    from curate.lint.aligned import CHECKS, Version, by_kind, check_aligned

    fr, nl = read_dataset(french), read_dataset(dutch)
    findings = check_aligned(Version("fr", fr.pairs, fr.language), Version("nl", nl.pairs, nl.language))
    kinds = by_kind(findings)
    assert list(kinds) == list(CHECKS)
    right = {p.pair_id: p for p in nl.pairs}
    directions = sorted(p.pair_id for p in fr.pairs if p.direction != right[p.pair_id].direction)
    bias_types = sorted(p.pair_id for p in fr.pairs if p.bias_type != right[p.pair_id].bias_type)
    assert [f.pair_id for f in kinds["X001"]] == directions and directions
    assert [f.pair_id for f in kinds["X002"]] == bias_types and bias_types
    assert kinds["X004"] == []  # the same 1,463 ids
    assert kinds["X003"]  # some translations swap groups of another kind
    assert all(f.code in CHECKS and f.rule == CHECKS[f.code].name for f in findings)


def test_swapped_groups_that_do_not_correspond() -> None:
    from curate.lint.aligned import Version, check_aligned
    from curate.pairs import Pair

    fr = [Pair(7, "Les noirs sont paresseux.", "Les blancs sont paresseux.", "stereo", "race-color")]
    nl = [Pair(7, "Moslims zijn lui.", "Christenen zijn lui.", "stereo", "race-color")]
    same = [Pair(7, "Zwarten zijn lui.", "Blanken zijn lui.", "stereo", "race-color")]
    codes = [f.code for f in check_aligned(Version("fr", fr, "fr"), Version("nl", nl, "nl"))]
    assert codes == ["X003"]
    assert check_aligned(Version("fr", fr, "fr"), Version("nl", same, "nl")) == []


def test_diff_across_languages_lists_findings_by_kind(french: Path, dutch: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from curate.cli import app
    from curate.findings import read_findings

    out = tmp_path / "aligned.jsonl"
    result = CliRunner().invoke(
        app, ["diff", str(french), str(dutch), "--summary", "--findings", str(out)]
    )
    assert result.exit_code == 1, result.output
    assert "1463 pairs aligned by id" in result.stdout
    for code in ("X001 direction-differs", "X002 bias-type-differs", "X003 swapped-groups-differ"):
        assert code in result.stdout
    written = read_findings(out)
    assert {f.code for f in written} == {"X001", "X002", "X003"}


# -- scoring in the language -------------------------------------------------------------------


@pytest.mark.parametrize(("family", "method"), [("roberta", "pll"), ("gpt2", "clm-sum")])
def test_french_and_dutch_pairs_score_as_written(
    family: str, method: str, french: Path, dutch: Path
) -> None:
    import math

    from curate.score.engine import score_pairs
    from curate.score.models import load_model
    from tests.support.tiny_models import single_thread, tiny_model_dir, training_corpus

    fr, nl = read_dataset(french).pairs, read_dataset(dutch).pairs
    # a tokenizer trained on French and Dutch text, as CamemBERT's and RobBERT's are
    corpus = training_corpus([p.sent_more for p in (*fr, *nl)])
    with single_thread():
        lm = load_model(tiny_model_dir(family, corpus), device="cpu")
        assert not lm.lowercase  # cased byte-level tokenizers: the accents reach the model
        for pairs in ([p for p in fr[::200] if p.sent_less], list(nl[::200])):
            for pair in pairs:
                ids = lm.tokenizer(pair.sent_more, add_special_tokens=False)["input_ids"]
                assert lm.tokenizer.decode(ids) == pair.sent_more
            result = score_pairs(pairs, lm, method)
            assert [s.pair_id for s in result.scores] == [p.pair_id for p in pairs]
            assert all(
                math.isfinite(s.sent_more_score) and math.isfinite(s.sent_less_score)
                for s in result.scores
            )


def test_a_cased_model_asked_to_lowercase_is_warned(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from curate.score.models import load_model
    from tests.support.tiny_models import tiny_model_dir

    with caplog.at_level(logging.WARNING, logger="curate.score"):
        load_model(tiny_model_dir("roberta"), device="cpu", lowercase=True)
    assert any("is a cased model and --lowercase" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="curate.score"):
        load_model(tiny_model_dir("bert"), device="cpu", lowercase=True)  # uncased: as it was trained
        load_model(tiny_model_dir("roberta"), device="cpu")
    assert not [r for r in caplog.records if "cased model" in r.getMessage()]


# -- a release in the language -----------------------------------------------------------------


def test_a_release_card_names_its_language() -> None:
    from curate.release.card import render_card

    source = {"name": "crows-pairs-dutch", "file": "crows_dutch.csv", "sha256": "ab" * 32,
              "url": "https://example.org/crows_dutch.csv", "license": "CC0 1.0", "citation": "x"}
    counts = {"pairs": 2, "raw_pairs": 2, "changed_pairs": 0,
              "changes": {"edited": 0, "relabelled": 0, "edited+relabelled": 0, "dropped": 0},
              "lint": {}, "decisions": {}, "decision_sources": {},
              "decisions_read": dict.fromkeys(("keep", "fix", "drop", "relabel", "undecided"), 0)}
    common = {
        "version": "1.0.0",
        "recipe": {"release": {"version": "1.0.0", "title": "", "summary": "", "previous": None}, "fixes": {"select": []}},
        "inputs": {"source": source, "recipe_sha256": "cd" * 32, "decisions": []},
        "counts": counts,
        "rule_summaries": {},
        "tool_version": "0",
        "previous_label": "the source",
    }
    dutch = render_card(**common, language="nl")
    assert "language:\n- nl\n" in dutch and "The pairs are in Dutch (`nl`)" in dutch
    english = render_card(**common)
    assert "language:\n- en\n" in english and "The pairs are in" not in english


def test_revision_never_applies_another_languages_fix() -> None:
    from curate.pairs import Pair
    from curate.release.revise import revise_pairs

    raw = [Pair(0, "Quel voleur musulman !", "Quel voleur  chrétien !", "stereo", "religion")]
    english, _ = revise_pairs(raw, ["T004", "T006"])
    french, _ = revise_pairs(raw, ["T004", "T006"], language="fr")
    assert english[0].sent_more == "Quel voleur musulman!"
    # the French revision keeps the space before '!' and fixes only the doubled space
    assert (french[0].sent_more, french[0].sent_less) == ("Quel voleur musulman !", "Quel voleur chrétien !")
