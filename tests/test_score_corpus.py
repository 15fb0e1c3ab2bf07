"""Capability beside bias: (pseudo-)perplexity on a corpus (``curate score --corpus``).

The numbers are checked against independent computations written out here: the causal LM's
perplexity from torch's own cross-entropy loss, the masked LM's pseudo-perplexity from a loop
that masks one token at a time (Salazar et al. 2020).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import write_pairs
from curate.errors import InputError
from curate.intervals import MIN_BOOTSTRAP, TOO_SMALL
from curate.score.cache import ScoreCache
from curate.score.corpus import score_corpus
from curate.score.corpusfile import Corpus, read_corpus_file
from curate.score.models import load_model
from curate.score.settings import ScoreSettings
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()

SENTENCES = [
    "The doctor finished her shift late at night.",
    "My neighbour grows tomatoes in the garden.",
    "He bought a new bicycle for the trip.",
    "The children played football after school.",
    "She reads the newspaper every morning.",
    "The old bridge was closed for repairs.",
    "They cooked dinner together on Sunday.",
    "A small dog barked at the postman.",
    "The train to the city was late again.",
    "We watched a film about the ocean.",
    "The teacher explained the lesson twice.",
    "Rain fell all afternoon in the valley.",
]


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


def _gpt2_by_hand(directory: Path, sentences: list[str]) -> float:
    """Perplexity from torch's mean cross-entropy: each sentence after <|endoftext|>."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForCausalLM.from_pretrained(directory).eval()
    total, count = 0.0, 0
    for s in sentences:
        ids = [tok.bos_token_id, *tok(s, add_special_tokens=False)["input_ids"]]
        x = torch.tensor([ids])
        with torch.no_grad():
            logits = model(x).logits[0, :-1]
        loss = torch.nn.functional.cross_entropy(logits, x[0, 1:], reduction="sum")
        total += float(loss)
        count += len(ids) - 1
    return math.exp(total / count)


def _bert_by_hand(directory: Path, sentences: list[str]) -> float:
    """Pseudo-perplexity: mask each non-special token alone, add -log p of the original."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForMaskedLM.from_pretrained(directory).eval()
    total, count = 0.0, 0
    for s in sentences:
        ids = tok(s.lower())["input_ids"]
        for i in range(1, len(ids) - 1):
            masked = list(ids)
            masked[i] = tok.mask_token_id
            with torch.no_grad():
                logits = model(torch.tensor([masked])).logits[0, i]
            total -= float(torch.log_softmax(logits, -1)[ids[i]])
            count += 1
    return math.exp(total / count)


@pytest.mark.parametrize("family", ["gpt2", "bert"])
def test_perplexity_equals_an_independent_computation(family, tmp_path):
    directory = tiny_model_dir(family)
    lm = load_model(str(directory))
    corpus = Corpus("mine", tuple(SENTENCES))
    settings = ScoreSettings(batch_size=8)
    result = score_corpus(corpus, lm, cache=tmp_path / "c.sqlite", settings=settings)
    record = result.document()
    by_hand = (_gpt2_by_hand if family == "gpt2" else _bert_by_hand)(directory, SENTENCES)
    assert record["value"] == pytest.approx(by_hand, rel=1e-4)
    assert record["measure"] == ("perplexity" if family == "gpt2" else "pseudo-perplexity")
    assert record["method"] == ("clm-sum" if family == "gpt2" else "pll")
    assert record["n"] == len(SENTENCES) >= MIN_BOOTSTRAP
    assert record["low"] < record["value"] < record["high"]
    # cached: a second run computes nothing and gives the same record
    again = score_corpus(corpus, lm, cache=tmp_path / "c.sqlite", settings=settings)
    assert again.computed == 0 and again.cache_hits > 0
    assert again.document() == record


def test_interrupted_run_resumes_from_the_cache(tmp_path):
    lm = load_model(str(tiny_model_dir("bert")))
    corpus = Corpus("mine", tuple(SENTENCES))
    settings = ScoreSettings(batch_size=4)
    calls = []

    def stop_after_two(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with ScoreCache(tmp_path / "c.sqlite") as store, pytest.raises(KeyboardInterrupt):
        score_corpus(corpus, lm, cache=store, settings=settings, progress=stop_after_two)
    resumed = score_corpus(corpus, lm, cache=tmp_path / "c.sqlite", settings=settings)
    fresh = score_corpus(corpus, lm, cache=None, settings=settings)
    assert resumed.cache_hits == 8 and resumed.computed == fresh.computed - 8
    assert resumed.document()["value"] == pytest.approx(fresh.document()["value"], rel=1e-9)


def test_small_corpus_says_n_too_small(tmp_path):
    lm = load_model(str(tiny_model_dir("gpt2")))
    corpus = Corpus("tiny", tuple(SENTENCES[:3]))
    record = score_corpus(corpus, lm, cache=None, settings=ScoreSettings()).document()
    assert "low" not in record and record["no_interval"] == TOO_SMALL


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "has no sentence"),
        (b"\n  \n\n", "has no sentence"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
        (b"fine line\ncaf\xe9 au lait\n", "line 2 is not UTF-8"),
    ],
)
def test_bad_corpus_files_are_refused_in_one_sentence(tmp_path, content, words):
    path = tmp_path / "corpus.txt"
    path.write_bytes(content)
    with pytest.raises(InputError, match=words):
        read_corpus_file(path)


def test_corpus_file_skips_blank_lines_and_a_bom(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_bytes(b"\xef\xbb\xbfOne sentence.\r\n\r\nTwo sentences.\n")
    assert read_corpus_file(path).sentences == ("One sentence.", "Two sentences.")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curate]\ndata = "pairs.csv"\noutput-dir = "out"\n', encoding="utf-8"
    )
    write_pairs(SAMPLE_PAIRS, tmp_path / "pairs.csv")
    (tmp_path / "corpus.txt").write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_writes_capability_beside_the_bias_metrics(project):
    model = str(tiny_model_dir("gpt2"))
    result = runner.invoke(
        app, ["score", "-m", f"{model}=gpt", "--method", "clm-sum,clm-mean", "--corpus", "corpus.txt"]
    )
    assert result.exit_code == 0, result.output
    first = json.loads((project / "out/score/pairs/gpt/clm-sum/summary.json").read_text())
    second = json.loads((project / "out/score/pairs/gpt/clm-mean/summary.json").read_text())
    assert first["capability"] == second["capability"]
    assert first["capability"]["value"] == pytest.approx(
        _gpt2_by_hand(Path(model), SENTENCES), rel=1e-4
    )
    assert first["capability"]["corpus"]["name"] == "corpus.txt"
    assert "perplexity" in result.stdout and "lower is better" in result.stdout
    # the explorer's page data carries it beside each column's metric
    from curate.report.explore_data import VersionData, build_explore_data, read_score_dir

    sets, _ = read_score_dir(project / "out/score/pairs")
    data = build_explore_data([VersionData("pairs", tuple(SAMPLE_PAIRS))], score_sets=sets)
    shown = {m["method"]: m["capability"] for m in data["models"]}
    assert shown["clm-sum"]["value"] == first["capability"]["value"]
    assert shown["clm-sum"]["corpus"] == "corpus.txt" and shown["clm-sum"]["measure"] == "perplexity"


@pytest.mark.parametrize(
    ("arg", "words"),
    [("nothing-here.txt", "no such corpus file"), ("empty.txt", "has no sentence")],
)
def test_cli_refuses_a_bad_corpus_with_exit_2(project, arg, words):
    (project / "empty.txt").write_text("", encoding="utf-8")
    result = runner.invoke(
        app, ["score", "-m", str(tiny_model_dir("gpt2")), "--corpus", arg]
    )
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output


def test_named_corpus_stereoset_unrelated_is_every_unrelated_option(tmp_path):
    import os

    from curate.datasets import named_corpus

    mirror = os.environ.get("CURATE_DATA_MIRROR")
    if not mirror or not (Path(mirror) / "stereoset_dev.json").is_file():
        pytest.skip("no data mirror with stereoset_dev.json")
    path = Path(mirror) / "stereoset_dev.json"
    document = json.loads(path.read_text(encoding="utf-8"))["data"]
    expected = [
        s["sentence"].strip()
        for kind in ("intrasentence", "intersentence")
        for item in document[kind]
        for s in item["sentences"]
        if s["gold_label"] == "unrelated"
    ]
    sentences = named_corpus("stereoset-unrelated", path)
    assert set(sentences) == set(expected)
    assert len(sentences) == len(dict.fromkeys(expected))


def test_cli_named_corpus_needs_its_source_fetched(project):
    result = runner.invoke(
        app, ["score", "-m", str(tiny_model_dir("gpt2")), "--corpus", "stereoset-unrelated"]
    )
    assert result.exit_code == 2
    assert "stereoset-dev" in result.output and "Traceback" not in result.output


def test_diff_report_shows_capability_beside_each_column(project, monkeypatch):
    """The corpus is measured with the model loaded for its columns: one load per model."""
    import curate.score
    import curate.score.models

    loads: list[str] = []
    real_load = curate.score.models.load_model

    def counted(name, *args, **kwargs):
        loads.append(str(name))
        return real_load(name, *args, **kwargs)

    for module in (curate.score, curate.score.models):  # both routes to the loader
        monkeypatch.setattr(module, "load_model", counted)
    edited = [p.with_changes(sent_more=p.sent_more.rstrip(".") + " today.") for p in SAMPLE_PAIRS[:2]]
    write_pairs([*edited, *SAMPLE_PAIRS[2:]], project / "after.csv")
    model = str(tiny_model_dir("gpt2"))
    result = runner.invoke(
        app,
        [
            "diff-report", "pairs.csv", "after.csv", "-m", model, "--method", "clm-sum",
            "--bootstrap", "100", "--corpus", "corpus.txt", "-o", "rep",
        ],
    )
    assert result.exit_code == 0, result.output
    assert loads == [model]  # loaded twice before: once more for the corpus
    data = json.loads((project / "rep/report.json").read_text(encoding="utf-8"))
    record = data["models"][0]["capability"]
    assert record["value"] == pytest.approx(_gpt2_by_hand(Path(model), SENTENCES), rel=1e-4)
    for name in ("report.md", "report.html"):
        text = (project / "rep" / name).read_text(encoding="utf-8")
        assert "capability (lower is better)" in text and f"perplexity {record['value']:.2f}" in text


@pytest.mark.slow
def test_explorer_shows_capability_and_its_scatter_in_a_browser(project, tmp_path_factory):
    from tests.support.browser import (
        MISSING,
        chromium,
        find_browser,
        severe_console_messages,
        wait_for,
    )

    if find_browser() is None:
        pytest.skip(MISSING)
    model = str(tiny_model_dir("gpt2"))
    scored = runner.invoke(
        app, ["score", "-m", f"{model}=gpt", "--method", "clm-sum,clm-mean", "--corpus", "corpus.txt"]
    )
    assert scored.exit_code == 0, scored.output
    site = runner.invoke(
        app, ["explore", "pairs.csv", "--scores", "out/score/pairs", "--no-tokens", "-o", "site"]
    )
    assert site.exit_code == 0, site.output
    value = json.loads((project / "out/score/pairs/gpt/clm-sum/summary.json").read_text())["capability"]["value"]
    with chromium(tmp_path_factory.mktemp("profile")) as driver:
        driver.get((project / "site/index.html").as_uri())
        wait_for(
            lambda: driver.execute_script(
                "return !!(window.curateExplore && curateExplore.chartsReady)"
            ),
            what="the charts",
        )
        assert not severe_console_messages(driver)
        assert driver.execute_script("return document.getElementById('chart-capability').hidden") is False
        xs = driver.execute_script(
            "return document.getElementById('chart-capability').data.map(t => t.x[0])"
        )
        assert len(xs) == 2 and all(x == pytest.approx(value) for x in xs)
        cell = driver.execute_script("return document.getElementById('capability-0-0').textContent")
        assert cell.startswith(f"perplexity {value:.2f}") and "corpus.txt" in cell


def test_a_sentence_longer_than_the_model_takes_is_named_by_its_line():
    lm = load_model(str(tiny_model_dir("gpt2")))
    corpus = Corpus("long.txt", ("A short one.", " ".join(["word"] * 400)))
    with pytest.raises(InputError, match=r"corpus long\.txt: sentence 2 is longer than"):
        score_corpus(corpus, lm, cache=None, settings=ScoreSettings())
