"""``curate explore``: the site's data, files and errors (no browser; see test_explore_browser).

One tiny project runs the whole pipeline once per module: findings, a file-only annotation
round, a release built from its decisions, scores of both versions with a tiny model, a
diff-report and the site, so every number the page shows can be checked against the file the
pipeline wrote it from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.findings import write_findings
from curate.pairs import Pair
from curate.report.explore_data import VersionData, build_explore_data, read_score_dir
from curate.report.explore_page import script_json
from curate.report.explore_tokens import token_logprobs
from curate.score.files import read_scores_csv
from curate.score.metrics import PairScore
from tests.support import annotate_scenario as sc
from tests.support.release_project import make_project, raw_sha, recipe_text, write_recipe
from tests.support.tiny_models import single_thread, tiny_model_dir, training_corpus

runner = CliRunner()
RAW_CSV = "data/raw/crows_pairs_anonymized.csv"
RELEASE_CSV = "data/clean/1.0.0-auto/dist/crows_pairs_revised.csv"


@dataclass(frozen=True)
class Project:
    """The built project and where its pipeline outputs are."""

    root: Path
    model: Path

    @property
    def site(self) -> Path:
        return self.root / "site"

    @property
    def report(self) -> dict:
        return json.loads((self.root / "build/diff-report/report.json").read_text("utf-8"))


def cli(*args: str, ok: tuple[int, ...] = (0,)):
    result = runner.invoke(app, list(args))
    assert result.exit_code in ok, (args, result.output)
    return result


def ui_export(tasks: list[dict]) -> list[dict]:
    """Label Studio's JSON export of the round once the scenario's annotators answered."""
    users = {letter: 10 + i for i, letter in enumerate(sc.ANNOTATORS)}
    export, annotation_id = [], 0
    for task_id, task in enumerate(tasks, start=100):
        annotations = []
        for ann in sc.PLAN.get(task["data"]["pair_id"], []):
            annotation_id += 1
            annotations.append(
                {
                    "id": annotation_id,
                    "completed_by": users[ann.who],
                    "result": sc.result_for(ann, task["data"]),
                    "was_cancelled": ann.cancelled,
                }
            )
        export.append({"id": task_id, "annotations": annotations, "data": task["data"]})
    return export


def build_pipeline(root: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """Run every stage of the pipeline on the annotation scenario's pairs, in ``root``."""
    cfg = make_project(root, tuple(sc.PAIRS))
    monkeypatch.chdir(root)
    write_findings(root / "build" / "findings.jsonl", sc.FINDINGS)
    cli("annotations", "push", "--round", "r1", "--to-file")
    tasks = json.loads((root / "annotations/rounds/r1/tasks.json").read_text("utf-8"))
    (root / "export.json").write_text(json.dumps(ui_export(tasks)), encoding="utf-8")
    cli("annotations", "pull", "--round", "r1", "--from", "export.json", ok=(0, 1))
    cli("annotations", "tally", "--round", "r1")
    recipe = recipe_text(raw_sha(cfg), version="1.0.0-auto", decisions=({"round": "r1"},))
    write_recipe(cfg, "1.0.0-auto", recipe)
    cli("publish", "1.0.0-auto")
    corpus = training_corpus([s for p in sc.PAIRS for s in (p.sent_more, p.sent_less)])
    model = tiny_model_dir("bert", corpus)
    with single_thread():
        cli("score", RAW_CSV, "-m", str(model), "-o", "build/score/raw")
        cli("score", RELEASE_CSV, "-m", str(model), "-o", "build/score/auto")
        cli("diff-report", "raw", "1.0.0-auto", "-m", str(model), "--bootstrap", "50")
        cli(
            "explore", "raw", "1.0.0-auto", "--scores", "build/score/raw",
            "--scores", "build/score/auto", "--out", "site",
        )  # fmt: skip
    return Project(root, model)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield build_pipeline(tmp_path_factory.mktemp("explore"), monkeypatch)


def page_data(site: Path) -> dict:
    text = (site / "index.html").read_text("utf-8")
    start = text.index('<script id="curate-data" type="application/json">') + 49
    return json.loads(text[start : text.index("</script>", start)])


def test_site_files_are_self_contained(project: Project) -> None:
    site = project.site
    assert sorted(p.name for p in site.iterdir()) == [
        ".curate-explore", "index.html", "plotly.min.js", "tokens",
    ]  # fmt: skip
    html = (site / "index.html").read_text("utf-8")
    assert "http://" not in html.replace("http://www.w3.org", "")
    assert "https://" not in html
    # plotly.js from beside it (copied from the plotly package), nothing else external
    assert re.findall(r'<script[^>]*src="([^"]+)"', html) == ["plotly.min.js"]
    # Three script elements (plotly, the data, the page's code): nothing closes one early.
    assert html.count("<script") == html.count("</script>") == 3
    # The sentence with a script tag is inside the JSON block with its '<' escaped.
    assert "<script>alert" not in html and "\\u003cscript\\u003ealert" in html


def test_rows_join_every_pipeline_file(project: Project) -> None:
    data = page_data(project.site)
    rows = {r["id"]: r for r in data["rows"]}
    assert data["versions"] == ["raw", "1.0.0-auto"]
    assert sorted(rows) == [p.pair_id for p in sc.PAIRS]
    assert [m["label"] for m in data["models"]] == ["bert · pll"] and data["models"][0]["tokens"]
    # findings, decisions (with votes) and answers of round r1, changes of the release
    assert [f[0] for f in rows[4]["f"]] == ["P001", "W001"]
    decisions = {
        json.loads(line)["pair_id"]: json.loads(line)
        for line in (project.root / "annotations/rounds/r1/decisions.jsonl").read_text().splitlines()
    }
    for pair_id, row in rows.items():
        if pair_id in decisions:
            assert row["d"][-1]["action"] == decisions[pair_id]["action"]
            assert row["d"][-1]["votes"] == decisions[pair_id]["votes"]
    snapshot = json.loads((project.root / "annotations/rounds/r1/annotations.json").read_text())
    answers_4 = [a for a in snapshot["answers"] if a["pair_id"] == 4]
    assert len(rows[4]["a"]) == len(answers_4) == sc.N_USABLE[4]
    changes = [
        json.loads(line)
        for line in (project.root / "data/clean/1.0.0-auto/dist/changes.jsonl").read_text().splitlines()
    ]
    assert {r["id"] for r in data["rows"] if "c" in r} == {c["pair_id"] for c in changes}
    # an edited pair keeps both texts; an unchanged one is stored once
    assert rows[4]["v"][1][1] == sc.FIX_4 and rows[4]["v"][0][1] != sc.FIX_4
    assert rows[1]["v"][1] == 0
    # highlight spans cover the differing words
    more, less = rows[4]["v"][1][0], rows[4]["v"][1][1]
    assert [more[a:b] for a, b in rows[4]["v"][1][4]] == ["Mexicans"]
    assert [less[a:b] for a, b in rows[4]["v"][1][5]] == ["Canadians"]


def test_scores_attach_only_to_the_text_they_were_made_from(project: Project) -> None:
    data = page_data(project.site)
    rows = {r["id"]: r for r in data["rows"]}
    raw = {s.pair_id: s for s in read_scores_csv(project.root / "build/score/raw/bert/scores.csv")}
    auto = {
        s.pair_id: s for s in read_scores_csv(project.root / "build/score/auto/bert/scores.csv")
    }
    def cell(score: PairScore) -> list[float]:
        # pll compares scores rounded to 3 decimals: the cell carries those after the full ones
        return [score.sent_more_score, score.sent_less_score, *(score.rounded or ())]

    for pair_id, row in rows.items():
        before, after = row["s"][0]
        assert before == cell(raw[pair_id])
        if pair_id in auto:
            assert after == cell(auto[pair_id])
        else:
            assert after is None  # dropped
    # Both score sets name pair 4, but only the release's matches its corrected sentence.
    assert raw[4].sent_less != auto[4].sent_less
    sets, warnings = read_score_dir(project.root / "build/score/raw")
    assert warnings == []
    pairs = [
        Pair(4, auto[4].sent_more, auto[4].sent_less, auto[4].direction, auto[4].bias_type)
    ]
    only_raw = build_explore_data([VersionData("auto", tuple(pairs))], score_sets=sets)
    assert only_raw["rows"][0]["s"] == [[None]]


def test_token_logprobs_add_up_to_the_sentence_scores(project: Project) -> None:
    summary = json.loads((project.root / "build/score/auto/bert/summary.json").read_text())
    scores = read_scores_csv(project.root / "build/score/auto/bert/scores.csv")
    tokens = token_logprobs(
        project.root / ".curate-cache/scores.sqlite",
        summary,
        [(s.sent_more, s.sent_less, s.direction) for s in scores],
    )
    assert tokens is not None and len(tokens) == len(scores)
    for score, entry in zip(scores, tokens, strict=True):
        more = [lp for _, lp in entry["more"] if lp is not None]
        less = [lp for _, lp in entry["less"] if lp is not None]
        assert sum(more) == pytest.approx(score.sent_more_score, abs=1e-9)
        assert sum(less) == pytest.approx(score.sent_less_score, abs=1e-9)
        assert entry["more"][0][1] is None and entry["more"][-1][1] is None  # special tokens
    # The page's token file holds the same numbers.
    page = (project.site / "tokens" / "0.js").read_text("utf-8")
    assert page.startswith("window.curateTokens(0,")
    assert token_logprobs(project.root / "missing.sqlite", summary, []) is None


def test_site_is_deterministic_and_replaces_only_a_site(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project.root)
    args = ["explore", "raw", "1.0.0-auto", "--scores", "build/score/raw", "--scores"]
    cli(*args, "build/score/auto", "--out", "again")
    cli(*args, "build/score/auto", "--out", "again")
    for name in ("index.html", "tokens/0.js"):
        assert (project.root / "again" / name).read_bytes() == (project.site / name).read_bytes()
    (project.root / "foreign").mkdir()
    (project.root / "foreign" / "keep.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, [*args, "build/score/auto", "--out", "foreign"])
    assert result.exit_code == 2
    assert "foreign: exists and is not an explorer site" in result.stderr
    assert (project.root / "foreign" / "keep.txt").read_text() == "mine"


def test_one_version_without_scores(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.root)
    result = cli("explore", "1.0.0-auto", "--round", "r1", "--out", "one")
    assert "9 pairs, 0 columns from 0 models" in result.stdout
    data = page_data(project.root / "one")
    assert data["versions"] == ["1.0.0-auto"] and data["models"] == []
    assert data["rounds"] == ["r1"]
    assert all(len(r["v"]) == 1 and r["s"] == [] for r in data["rows"])
    assert not (project.root / "one" / "tokens").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("raw", "1.0.0-auto", "extra.csv"), "give one or two versions"),
        (("9.9.9",), "no release 9.9.9"),
        (("raw", "--scores", "nowhere"), "nowhere: no such directory"),
        (("raw", "--round", "r9"), "r9/decisions.jsonl: no such file"),
        (("raw", "--findings", "none.jsonl"), "none.jsonl"),
    ],
)
def test_input_errors_are_one_sentence_and_exit_2(
    project: Project, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    monkeypatch.chdir(project.root)
    result = runner.invoke(app, ["explore", *args, "--out", "never"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert not (project.root / "never").exists()


def test_script_json_cannot_close_the_script_block() -> None:
    text = script_json({"s": "</script><script>alert(1)</script>\u2028&"})
    assert "<" not in text and ">" not in text and "\u2028" not in text
    assert json.loads(text) == {"s": "</script><script>alert(1)</script>\u2028&"}


def test_every_summary_below_scores_is_a_column_and_the_rest_is_named(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One --scores root: each summary.json at any depth is a (model, method) column; a
    summary without scores, a stray scores.csv and scores of another file are each named."""
    import shutil

    root = project.root / "many"
    shutil.copytree(project.root / "build/score/raw/bert", root / "raw/bert")
    shutil.copytree(project.root / "build/score/auto/bert", root / "auto/deeper/bert")
    (root / "raw/empty").mkdir()
    (root / "raw/empty/summary.json").write_text('{"method": "aul"}', encoding="utf-8")
    (root / "stray").mkdir()
    shutil.copy(project.root / "build/score/raw/bert/scores.csv", root / "stray/scores.csv")
    other = root / "other/bert"
    shutil.copytree(project.root / "build/score/raw/bert", other)
    import csv

    with (other / "scores.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with (other / "scores.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()  # the scores of another file: no sentence is a pair's
        writer.writerows({**r, "sent_more": "Other " + r["sent_more"]} for r in rows)
    monkeypatch.chdir(project.root)
    result = cli("explore", "raw", "1.0.0-auto", "--scores", "many", "--out", "many-site")
    warnings = " ".join(result.stderr.split())
    assert "other/bert/summary.json: skipped, none of its scores is of a pair text" in warnings
    assert "empty/summary.json: skipped, no scores.csv beside it" in warnings
    assert "stray/scores.csv: skipped, no summary.json beside it" in warnings
    data = page_data(project.root / "many-site")
    assert [m["label"] for m in data["models"]] == ["bert · pll"]
    model = data["models"][0]
    assert (model["method"], model["reduction"], model["kind"]) == ("pll", "sum", "masked")
    rows = {r["id"]: r for r in data["rows"]}
    assert rows[4]["s"][0][0] is not None and rows[4]["s"][0][1] is not None
    # the model path is recorded absolute, so another working directory finds the tokens
    summary = json.loads((root / "raw/bert/summary.json").read_text("utf-8"))
    assert Path(summary["model_path"]).is_absolute() and Path(summary["model_path"]).is_dir()
    monkeypatch.chdir(project.root / "many")
    cli("explore", str(project.root / RAW_CSV), "--scores", ".", "--out", "site2")
    assert page_data(project.root / "many/site2")["models"][0]["tokens"]


def test_columns_are_model_and_method_and_unique() -> None:
    from curate.report.explore_data import ScoreSet, group_models, model_labels

    def column(path: str, fingerprint: str, method: str) -> ScoreSet:
        provenance = {
            "model": path, "model_path": path, "model_fingerprint": fingerprint,
            "tokenizer_fingerprint": "t", "method": method, "dtype": "float32",
        }  # fmt: skip
        return ScoreSet(Path(path).name, provenance)

    sets = [
        column("/m/a/gpt2", "1", "clm-sum"),
        column("/m/b/gpt2", "2", "clm-sum"),
        column("/m/bert", "3", "pll"),
        column("/m/bert", "3", "aul"),
        column("/m/a/gpt2", "1", "clm-sum"),  # the same column on another version
    ]
    groups = group_models(sets)
    assert len(groups) == 4
    assert model_labels(groups) == [
        "gpt2 (1) · clm-sum", "gpt2 (2) · clm-sum", "bert · pll", "bert · aul",
    ]  # fmt: skip


def test_every_command_taking_data_accepts_a_version_name(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One resolver: `annotations push --data 1.0.0-auto` reads the release's CSV, and an
    unknown name is one sentence naming the known versions."""
    monkeypatch.chdir(project.root)
    findings = project.root / "reader.jsonl"
    findings.write_text('{"pair_id": 4, "code": "G", "rule": "reader-report", "message": "x"}\n')
    cli("annotations", "push", "--round", "versioned", "--to-file", "--findings", str(findings),
        "--data", "1.0.0-auto")  # fmt: skip
    tasks = json.loads((project.root / "annotations/rounds/versioned/tasks.json").read_text())
    release = {p.pair_id: p for p in read_scores_csv(project.root / "build/score/auto/bert/scores.csv")}
    assert [t["data"]["pair_id"] for t in tasks] == [4]
    shown = {tasks[0]["data"]["sentence1"], tasks[0]["data"]["sentence2"]}
    assert release[4].sent_less in shown  # the corrected sentence of the release
    result = runner.invoke(app, ["score", "9.9.9", "-m", str(project.model), "-o", "never"])
    assert result.exit_code == 2 and "no release 9.9.9" in result.stderr


def test_explorer_guide_commands_build_what_they_say(
    project: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The Explorer guide page's commands, run in order as written (models/bert and models/gpt2
    are tiny models here): three columns over both versions, with per-token charts even when
    the site is built from another working directory."""
    import shlex
    import shutil

    guide = (Path(__file__).parents[1] / "docs/commands/explore.md").read_text("utf-8")
    block = guide.split("```", 2)[1]
    commands = [shlex.split(line.split("#", 1)[0]) for line in block.splitlines() if line.startswith("curate ")]
    assert [c[:2] for c in commands] == [["curate", "score"], ["curate", "score"], ["curate", "explore"]]
    corpus = training_corpus([s for p in sc.PAIRS for s in (p.sent_more, p.sent_less)])
    shutil.copytree(project.model, project.root / "models/bert", dirs_exist_ok=True)
    shutil.copytree(tiny_model_dir("gpt2", corpus), project.root / "models/gpt2", dirs_exist_ok=True)
    monkeypatch.chdir(project.root)
    with single_thread():
        for command in commands:
            cli(*command[1:])
    data = page_data(project.root / "build/explore")
    assert [m["label"] for m in data["models"]] == ["bert · pll", "bert · aul", "gpt2 · clm-sum"]
    assert all(m["tokens"] for m in data["models"])
    for row in data["rows"]:
        for per_version, cells in zip(zip(*row["s"], strict=True), row["v"], strict=True):
            assert all(s is not None for s in per_version) == (cells is not None)
    # the summaries name the models relative to the project: another directory still finds them
    summary = json.loads((project.root / "build/score/raw/gpt2/clm-sum/summary.json").read_text())
    assert summary["model"] == "models/gpt2"
    assert summary["model_path"] == str((project.root / "models/gpt2").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "pyproject.toml").write_text("[tool.curate]\n", encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    cli("explore", str(project.root / RAW_CSV), "--scores", str(project.root / "build/score/raw"),
        "--cache", str(project.root / ".curate-cache/scores.sqlite"), "--out", "site")  # fmt: skip
    assert all(m["tokens"] for m in page_data(elsewhere / "site")["models"])


def test_a_revised_file_brings_its_change_log(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A revised CSV given as a file: the changes.jsonl beside it is its history, so a dropped
    pair's history says dropped, not unchanged."""
    import shutil

    release = project.root / RELEASE_CSV
    copy = project.root / "revised"
    copy.mkdir()
    shutil.copy(release, copy / "pairs.csv")
    shutil.copy(release.parent / "changes.jsonl", copy / "changes.jsonl")
    monkeypatch.chdir(project.root)
    cli("explore", "raw", "revised/pairs.csv", "--out", "revised-site")
    rows = {r["id"]: r for r in page_data(project.root / "revised-site")["rows"]}
    dropped = [i for i, r in rows.items() if r["v"][1] is None]
    assert dropped and all(any(c["change"] == "dropped" for c in rows[i]["c"]) for i in dropped)
