"""``curate diff-report`` between two StereoSet files: deltas of LMS/SS/ICAT with paired
bootstrap intervals over items, and flips."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from curate.benchmarks.stereoset.diff import (
    compare_items,
    group_specs,
    render_markdown,
    stereoset_flips,
)
from curate.benchmarks.stereoset.evaluation import ItemScores, evaluate
from curate.cli import app
from curate.report.statistics import Settings, resample_indices
from tests.support.stereoset_data import stereoset_document, write_stereoset
from tests.support.tiny_models import single_thread, tiny_model_dir

runner = CliRunner()


def _item(n: int, target: str, domain: str, s: float, a: float, u: float, kind: str = "intrasentence") -> ItemScores:
    return ItemScores(f"id{n}", kind, target, domain, s, a, u)


BEFORE = [
    _item(0, "mother", "gender", 0.5, 0.3, 0.1),
    _item(1, "mother", "gender", 0.2, 0.3, 0.4),
    _item(2, "chess player", "profession", 0.5, 0.1, 0.6),
    _item(3, "mover", "profession", 0.3, 0.3, 0.1),
    _item(4, "Muslim", "religion", 0.6, 0.2, 0.1),
    _item(5, "mother", "gender", 0.6, 0.2, 0.1, kind="intersentence"),
]
# item 1 flips to stereotype, item 4 to anti, item 3 is dropped, item 6 is added
AFTER = [
    _item(0, "mother", "gender", 0.5, 0.3, 0.1),
    _item(1, "mother", "gender", 0.4, 0.3, 0.1),
    _item(2, "chess player", "profession", 0.5, 0.1, 0.6),
    _item(4, "Muslim", "religion", 0.1, 0.2, 0.05),
    _item(6, "Brahmin", "religion", 0.3, 0.2, 0.1),
    _item(5, "mother", "gender", 0.6, 0.2, 0.1, kind="intersentence"),
]


def _row(rows: list[dict], task: str, group: str) -> dict:
    return next(r for r in rows if r["task"] == task and r["group"] == group)


def test_point_estimates_are_the_official_metrics() -> None:
    rows = compare_items(BEFORE, AFTER, Settings(bootstrap_samples=50))
    overall = _row(rows, "all", "overall")
    for metric in ("lms", "ss", "icat"):
        assert overall[metric]["before"] == getattr(evaluate(BEFORE), metric)
        assert overall[metric]["after"] == getattr(evaluate(AFTER), metric)
    religion = _row(rows, "intrasentence", "religion")
    assert (religion["before_count"], religion["after_count"]) == (1, 2)
    assert religion["ss"]["before"] == 100.0 and religion["ss"]["after"] == 50.0
    assert [(s.task, s.name) for s in group_specs(BEFORE, AFTER)][-3:] == [
        ("intersentence", "gender"),
        ("intersentence", "overall"),
        ("all", "overall"),
    ]


def test_bootstrap_resamples_items_jointly_and_is_seeded() -> None:
    settings = Settings(bootstrap_samples=200, seed=7)
    rows = compare_items(BEFORE, AFTER, settings)
    assert rows == compare_items(BEFORE, AFTER, settings)
    assert rows != compare_items(BEFORE, AFTER, Settings(bootstrap_samples=200, seed=8))
    # redo the draws by hand: each resample evaluated on the drawn items (repeats count twice)
    units = list(dict.fromkeys([(i.kind, i.item_id) for i in [*BEFORE, *AFTER]]))
    old = {(i.kind, i.item_id): i for i in BEFORE}
    new = {(i.kind, i.item_id): i for i in AFTER}
    deltas = []
    for draw in resample_indices(len(units), 200, 7):
        b = [old[units[k]] for k in draw if units[k] in old]
        a = [new[units[k]] for k in draw if units[k] in new]
        if b and a:
            deltas.append(evaluate(a).ss - evaluate(b).ss)
    low, high = np.percentile(deltas, [2.5, 97.5])
    overall = _row(rows, "all", "overall")["ss"]
    assert overall["defined"] == len(deltas)
    assert overall["ci_low"] == pytest.approx(low) and overall["ci_high"] == pytest.approx(high)


def test_identical_versions_have_zero_intervals() -> None:
    rows = compare_items(BEFORE, BEFORE, Settings(bootstrap_samples=100))
    for row in rows:
        for metric in ("lms", "ss", "icat"):
            assert row[metric]["delta"] == 0.0
            assert row[metric]["ci_low"] == row[metric]["ci_high"] == 0.0


def test_flips() -> None:
    from curate.benchmarks.stereoset.items import StereoSetItem

    def texts(items: list[ItemScores]) -> list[StereoSetItem]:
        return [
            StereoSetItem(i.kind, n, i.item_id, i.target, i.bias_type, "ctx BLANK", f"s{i.item_id}", "a", "u")
            for n, i in enumerate(items)
        ]

    flips = stereoset_flips(BEFORE, AFTER, texts(BEFORE), texts(AFTER))
    assert flips["compared"] == 5
    assert [(f["item_id"], f["before"], f["after"]) for f in flips["items"]] == [
        ("id1", "anti-stereotype", "stereotype"),
        ("id4", "stereotype", "anti-stereotype"),
    ]
    assert flips["to_stereotype"] == flips["to_anti_stereotype"] == 1


# --------------------------------------------------------------------------- CLI


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.curate]\noutput-dir = "out"\n', encoding="utf-8")
    write_stereoset(tmp_path / "dev.json")
    document = stereoset_document()
    for item in document["data"]["intrasentence"][:4]:  # a revision rewording four items
        for sentence in item["sentences"]:
            if sentence["gold_label"] == "anti-stereotype":
                sentence["sentence"] = item["context"].replace("BLANK", "kind")
    document["data"]["intrasentence"].pop()  # and dropping one
    write_stereoset(tmp_path / "revised.json", document)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _verdicts(path: Path) -> dict[str, bool]:
    with path.open(newline="") as handle:
        return {r["item_id"]: float(r["stereotype"]) > float(r["anti_stereotype"]) for r in csv.DictReader(handle)}


def test_diff_report_cli_matches_curate_score(project: Path) -> None:
    model = str(tiny_model_dir("gpt2"))
    with single_thread():
        result = runner.invoke(
            app, ["diff-report", "dev.json", "revised.json", "--model", model, "--bootstrap", "300", "-o", "rep"]
        )
        assert result.exit_code == 0, result.output
        data = json.loads((project / "rep/report.json").read_text())
        assert data["alignment"]["counts"] == {"unchanged": 7, "edited": 4, "dropped": 1, "added": 0}
        (m,) = data["models"]
        assert m["method"] == "stereoset-clm"
        # the same numbers as curate score on each file (from the cache: nothing recomputed)
        for name in ("dev", "revised"):
            scored = runner.invoke(app, ["score", f"{name}.json", "--model", model])
            assert scored.exit_code == 0, scored.output
            assert "0 computed" in scored.output
        before = json.loads((project / "out/score/dev/gpt2/stereoset-clm/stereoset.json").read_text())
        after = json.loads((project / "out/score/revised/gpt2/stereoset-clm/stereoset.json").read_text())
        total = next(g for g in m["groups"] if g["task"] == "all")
        for metric in ("lms", "ss", "icat"):
            assert total[metric]["before"] == before["results"]["overall"][metric]
            assert total[metric]["after"] == after["results"]["overall"][metric]
            assert total[metric]["delta"] == pytest.approx(
                after["results"]["overall"][metric] - before["results"]["overall"][metric]
            )
        old = _verdicts(project / "out/score/dev/gpt2/stereoset-clm/scores.csv")
        new = _verdicts(project / "out/score/revised/gpt2/stereoset-clm/scores.csv")
        expected = sorted(k for k in new if old[k] != new[k])
        assert sorted(f["item_id"] for f in m["flips"]["items"]) == expected
        assert m["flips"]["compared"] == 11
        markdown = (project / "rep/report.md").read_text()
        assert (project / "rep/report.html").is_file()
        assert "| all | overall |" in markdown and "Flips:" in markdown
        assert markdown == render_markdown(data)
        # a rerun is byte-identical
        first = (project / "rep/report.json").read_bytes()
        again = runner.invoke(
            app, ["diff-report", "dev.json", "revised.json", "--model", model, "--bootstrap", "300", "-o", "rep"]
        )
        assert again.exit_code == 0, again.output
        assert (project / "rep/report.json").read_bytes() == first


def test_stereoset_against_crows_pairs_is_exit_2(project: Path) -> None:
    (project / "pairs.csv").write_text(
        ",sent_more,sent_less,stereo_antistereo,bias_type\n0,He is a doctor.,She is a doctor.,stereo,gender\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["diff-report", "dev.json", "pairs.csv", "--model", str(tiny_model_dir("bert"))])
    assert result.exit_code == 2
    assert "not a StereoSet file" in result.output


def test_html_escapes_sentences() -> None:
    from curate.benchmarks.stereoset.diff import render_html
    from curate.benchmarks.stereoset.items import StereoSetItem

    def texts(items: list[ItemScores], stereotype: str) -> list[StereoSetItem]:
        return [
            StereoSetItem(i.kind, n, i.item_id, i.target, i.bias_type, "ctx BLANK", stereotype, "a", "u")
            for n, i in enumerate(items)
        ]

    flips = stereoset_flips(BEFORE, AFTER, texts(BEFORE, "old"), texts(AFTER, "<script>alert(1)</script>"))
    data = {
        "before": {"label": "a<b", "items": 6},
        "after": {"label": "after", "items": 6},
        "alignment": {"counts": {"unchanged": 4, "edited": 1, "dropped": 1, "added": 1}},
        "settings": {"bootstrap_samples": 10, "seed": 0, "confidence": 0.95},
        "models": [
            {
                "label": "m",
                "method": "stereoset-clm",
                "notes": [],
                "groups": compare_items(BEFORE, AFTER, Settings(bootstrap_samples=10)),
                "flips": flips,
            }
        ],
    }
    page = render_html(data)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "a&lt;b" in page
    assert page.count("<tr>") == 1 + len(data["models"][0]["groups"]) + 1 + 2
