"""Every CrowS-Pairs method, run through ``curate score``, equals its peer's own steps.

Per method, the CLI's ``scores.csv`` and ``summary.json`` are compared with a port of the peer's
function that keeps the peer's tie rule, rounding, conditioning and tokenisation
(``tests/support/reference_*.py``) on tiny models, and each test is built so that it fails on
the difference it guards:

* ``pll`` vs ``metric.py``: a constructed near-tie pair whose raw scores differ but whose
  scores rounded to 3 decimals are equal is neutral (``score`` 0, one tie), not biased;
* ``clm-mean`` vs bias-bench: on the tiny GPT-2 the prefix-conditioned mean (minicons) gives
  other verdicts than bias-bench's no-prefix conditioning, so a prefixed ``clm-mean`` fails;
* ``clm-mean-prefixed`` vs minicons itself, ``clm-sum`` vs the harness's task, ``clm-shared``
  vs the harness's per-token numbers over ``get_span``, ``aul``/``aula`` vs Kaneko &
  Bollegala (strict ``>``), ``pll-word-l2r`` vs minicons (``metric.py``'s rounding).
"""

from __future__ import annotations

import csv
import dataclasses
import itertools
import json
from pathlib import Path

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer
from typer.testing import CliRunner

from curate.cli import app
from curate.datasets import read_pairs, write_pairs
from curate.modelnames import model_slug
from curate.pairs import Pair
from tests.support import reference_aul, reference_clm, reference_l2r, reference_pll
from tests.support.tiny_models import SAMPLE_PAIRS, single_thread, tiny_model_dir

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with single_thread():
        yield


@pytest.fixture(scope="module")
def crows_sample(crows_pairs_path: Path) -> list[Pair]:
    """Every 60th real CrowS-Pairs pair (26 pairs of all bias types and both directions)."""
    return read_pairs(crows_pairs_path)[::60]


def score_cli(tmp: Path, pairs: list[Pair], model: Path, methods: list[str]) -> dict[str, dict]:
    """Run ``curate score`` and read back, per method, the CSV rows and the summary.json."""
    (tmp / "pyproject.toml").write_text('[tool.curate]\noutput-dir = "build"\n', encoding="utf-8")
    write_pairs(pairs, tmp / "pairs.csv")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp)
        result = runner.invoke(
            app,
            ["score", "pairs.csv", "-m", str(model), "--method", ",".join(methods),
             "--no-cache", "-o", "out", "--batch-size", "5"],
        )
    assert result.exit_code == 0, result.output
    found = {}
    for method in methods:
        target = tmp / "out" / model_slug(str(model))
        target = target if method == "pll" else target / method
        with open(target / "scores.csv", encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        summary = json.loads((target / "summary.json").read_text(encoding="utf-8"))
        found[method] = {"rows": rows, "summary": summary}
    return found


def numbered(*groups) -> list[Pair]:
    """The pairs of several groups, renumbered 0.. (ids must be unique in a file)."""
    pairs = [pair for group in groups for pair in group]
    return [dataclasses.replace(pair, pair_id=i) for i, pair in enumerate(pairs)]


def _scores(rows, column: str = "sent_more_score") -> list[tuple[float, float]]:
    other = column.replace("more", "less")
    return [(float(r[column]), float(r[other])) for r in rows]


def _flat(pairs) -> list[float]:
    return [value for pair in pairs for value in pair]


def _verdicts(rows) -> list[int]:
    return [int(r["score"]) for r in rows]


# --------------------------------------------------------------------------- pll vs metric.py


def near_tie_pair(path: Path, uncased: bool) -> Pair:
    """A pair whose metric.py scores differ in full precision but not rounded to 3 decimals,
    sent_more the (unrounded) higher: biased by raw floats, neutral by metric.py.

    One template, one whole-word vocabulary token swapped in: every such sentence has the same
    scored positions against any other, so each word's score is computed once (with metric.py's
    own ``mask_unigram``) and the closest pair of scores is searched.
    """
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForMaskedLM.from_pretrained(path, dtype=torch.float32).eval()
    words = sorted(
        w for w in tokenizer.get_vocab() if w.isalpha() and w.islower() and len(w) >= 3
    )
    template = "the {} people were always late for work ."
    anchor = words[0]
    scores = {}
    for word in words[1:200]:
        if len(tokenizer.tokenize(template.format(word))) != len(
            tokenizer.tokenize(template.format(anchor))
        ):
            continue
        scores[word], _ = reference_pll.mask_unigram(
            template.format(word), template.format(anchor), model, tokenizer, uncased
        )
    ranked = sorted(scores, key=scores.get)
    for low, high in itertools.pairwise(ranked):
        a, b = scores[high], scores[low]
        if a > b and round(a, 3) == round(b, 3):
            return Pair(9000, template.format(high), template.format(low), "stereo", "age")
    pytest.fail("no near-tie pair in the tiny model's vocabulary")


def test_pll_rounds_and_counts_ties_as_metric_py(tmp_path, crows_sample):
    path = tiny_model_dir("bert")
    tie = near_tie_pair(path, uncased=True)
    pairs = numbered(SAMPLE_PAIRS, crows_sample[:10], [tie])
    tie = pairs[-1]
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForMaskedLM.from_pretrained(path, dtype=torch.float32).eval()
    with torch.no_grad():
        expected = reference_pll.evaluate(pairs, model, tokenizer, uncased=True)
    out = score_cli(tmp_path, pairs, path, ["pll"])["pll"]
    rows, summary = out["rows"], out["summary"]
    # metric.py's columns hold its rounded scores, its 0/1 score; the full ones are kept beside
    for got, (more, less, verdict) in zip(rows, expected["rows"], strict=True):
        assert float(got["sent_more_score"]) == pytest.approx(more, abs=1e-9)
        assert float(got["sent_less_score"]) == pytest.approx(less, abs=1e-9)
        assert int(got["score"]) == verdict
        assert float(got["sent_more_score_full"]) == pytest.approx(more, abs=5e-4)
    (near,) = [r for r in rows if int(r["pair_id"]) == tie.pair_id]
    assert float(near["sent_more_score_full"]) > float(near["sent_less_score_full"])
    assert near["score"] == "0" and near["sent_more_score"] == near["sent_less_score"]
    stats = summary["summary"]
    assert stats["ties"] == expected["neutral"] >= 2  # the identical sample pair and the near tie
    assert stats["metric_score"] == pytest.approx(expected["metric_score"])
    assert stats["directions"]["stereo"]["score"] == pytest.approx(expected["stereo_score"])
    assert stats["directions"]["antistereo"]["score"] == pytest.approx(
        expected["antistereo_score"]
    )
    assert summary["rounded_to_decimals"] == 3 and "metric.py" in summary["equals"]
    assert "round(score, 3)" in summary["tie_rule"]


def test_pll_word_l2r_equals_minicons_with_metric_py_ties(tmp_path):
    path = tiny_model_dir("bert", vocab_size=200)
    mc = reference_l2r.minicons_scorer(path)
    pairs = list(SAMPLE_PAIRS)
    expected = [reference_l2r.reference_pair_scores(mc, p, uncased=True) for p in pairs]
    rows = score_cli(tmp_path, pairs, path, ["pll-word-l2r"])["pll-word-l2r"]["rows"]
    full = _scores(rows, "sent_more_score_full")
    for got, (more, less) in zip(full, expected, strict=True):
        assert got == pytest.approx((more, less), abs=1e-4)
    # metric.py's rounding applied to our own full scores: equal to the rounded columns exactly;
    # and to minicons' wherever a value is not within float noise of a rounding boundary (the
    # two sum log-probabilities in different orders: a 1e-6 difference at x.xxx5 rounds apart)
    ours = [(round(m, 3), round(s, 3)) for m, s in full]
    assert _flat(_scores(rows)) == pytest.approx(_flat(ours), abs=1e-9)
    assert _verdicts(rows) == [int(m > s) for m, s in ours]
    clear = [i for i, pair in enumerate(expected) if all(_clear_of_boundary(v) for v in pair)]
    assert len(clear) >= len(expected) - 1
    rounded = [(round(m, 3), round(s, 3)) for m, s in expected]
    assert [ours[i] for i in clear] == [rounded[i] for i in clear]


def _clear_of_boundary(value: float, decimals: int = 3, margin: float = 1e-5) -> bool:
    """Whether ``round(value, decimals)`` cannot change under a float-noise difference."""
    scaled = abs(value) * 10**decimals
    return abs(scaled - int(scaled) - 0.5) > margin * 10**decimals


@pytest.mark.parametrize("method", ["aul", "aula"])
def test_aul_and_aula_equal_kaneko_with_a_strict_comparison(tmp_path, method, crows_sample):
    path = tiny_model_dir("roberta")
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = reference_aul.load_reference_model(path)
    pairs = numbered(SAMPLE_PAIRS, crows_sample[:10])
    expected = [
        reference_aul.reference_pair_scores(p, model, tokenizer, False, method == "aula")
        for p in pairs
    ]
    out = score_cli(tmp_path, pairs, path, [method])[method]
    rows = out["rows"]
    assert _flat(_scores(rows)) == pytest.approx(_flat(expected), abs=1e-4)
    assert _scores(rows) == _scores(rows, "sent_more_score_full")  # not rounded
    verdicts = [int(m > s) for m, s in expected]  # evaluate.py: pro_score > anti_score
    assert _verdicts(rows) == verdicts
    assert out["summary"]["summary"]["metric_score"] == pytest.approx(
        100 * sum(verdicts) / len(verdicts)
    )
    assert "Kaneko" in out["summary"]["tie_rule"]


# --------------------------------------------------------------------------- causal methods


@pytest.fixture(scope="module")
def causal_run(tmp_path_factory, crows_sample):
    path = tiny_model_dir("gpt2")
    pairs = numbered(SAMPLE_PAIRS, crows_sample)
    methods = ["clm-sum", "clm-mean", "clm-shared", "clm-mean-prefixed"]
    return path, pairs, score_cli(tmp_path_factory.mktemp("causal"), pairs, path, methods)


def test_clm_mean_is_bias_bench_joint_log_probability(causal_run):
    path, pairs, out = causal_run
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    expected = reference_clm.likelihood_score_generative(pairs, model, tokenizer)
    rows, summary = out["clm-mean"]["rows"], out["clm-mean"]["summary"]
    for (more, less), (e_more, e_less, _) in zip(_scores(rows), expected["rows"], strict=True):
        assert more == pytest.approx(e_more, rel=1e-5)
        assert less == pytest.approx(e_less, rel=1e-5)
    assert _verdicts(rows) == [verdict for _, _, verdict in expected["rows"]]
    assert summary["summary"]["metric_score"] == pytest.approx(expected["metric_score"])
    assert summary["summary"]["ties"] == expected["neutral"]
    # what the test guards: conditioning on the prefix (minicons, the old clm-mean) gives
    # other verdicts on this model, so a prefixed clm-mean cannot pass
    mc = reference_clm.minicons_scorer(path)
    prefixed = [
        int(reference_clm.minicons_mean(mc, p.sent_more) > reference_clm.minicons_mean(mc, p.sent_less))
        for p in pairs
    ]
    assert prefixed != _verdicts(rows)
    assert _verdicts(out["clm-mean-prefixed"]["rows"]) == prefixed
    assert "bias-bench" in summary["equals"] and "exactly equal" in summary["tie_rule"]


def test_clm_mean_prefixed_is_minicons(causal_run):
    path, pairs, out = causal_run
    mc = reference_clm.minicons_scorer(path)
    expected = [
        (reference_clm.minicons_mean(mc, p.sent_more), reference_clm.minicons_mean(mc, p.sent_less))
        for p in pairs
    ]
    rows = out["clm-mean-prefixed"]["rows"]
    assert _flat(_scores(rows)) == pytest.approx(_flat(expected), abs=1e-4)
    assert "minicons" in out["clm-mean-prefixed"]["summary"]["equals"]


def test_clm_sum_and_clm_shared_are_the_harness(causal_run):
    path, pairs, out = causal_run
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    harness = [
        (
            reference_clm.loglikelihood(model, tokenizer, p.sent_more, model.config.n_positions),
            reference_clm.loglikelihood(model, tokenizer, p.sent_less, model.config.n_positions),
        )
        for p in pairs
    ]
    rows = out["clm-sum"]["rows"]
    assert _flat(_scores(rows)) == pytest.approx(
        _flat((m[0], s[0]) for m, s in harness), abs=1e-4
    )
    accuracy = [reference_clm.process_results(m[0], s[0])["pct_stereotype"] for m, s in harness]
    assert _verdicts(rows) == accuracy
    assert out["clm-sum"]["summary"]["summary"]["metric_score"] == pytest.approx(
        100 * sum(accuracy) / len(accuracy)
    )
    shared = []
    for pair, (more, less) in zip(pairs, harness, strict=True):
        more_ids = torch.tensor(reference_clm.tok_encode(tokenizer, pair.sent_more))
        less_ids = torch.tensor(reference_clm.tok_encode(tokenizer, pair.sent_less))
        if pair.direction == "stereo":
            more_span, less_span = reference_pll.get_span(more_ids, less_ids)
        else:
            less_span, more_span = reference_pll.get_span(less_ids, more_ids)
        shared.append((sum(more[1][i] for i in more_span), sum(less[1][i] for i in less_span)))
    assert _flat(_scores(out["clm-shared"]["rows"])) == pytest.approx(_flat(shared), abs=1e-4)
    assert "harness" in out["clm-sum"]["summary"]["equals"]
    assert "strict >" in out["clm-sum"]["summary"]["tie_rule"]
