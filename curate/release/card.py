"""The documents of a release: the data card (``README.md``) and ``CHANGELOG.md``.

Both are rendered from the change records and the pair diff only (no clock, no paths of the
machine that built them), so a rebuild gives the same bytes and every count in them can be
recomputed from ``changes.jsonl``. The card follows the Hugging Face dataset-card layout: a
YAML metadata header, then prose. Sentence text never appears in them; the few strings that come
from files (recipe text, decision file names) are escaped for markdown tables.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from curate.release.pairdiff import PairDiff
from curate.release.versions import CSV_NAME, PARQUET_NAME

CHANGELOG_TITLE = "# Changelog\n"
_CHANGELOG_INTRO = (
    "Versions of the revised CrowS-Pairs built with curate, newest first. Each entry compares a\n"
    "version with the one before it; `changes.jsonl` in each release says why every pair\n"
    "changed relative to the upstream file.\n"
)

CROWS_PAIRS_BIBTEX = """@inproceedings{nangia-etal-2020-crows,
  title = {{CrowS}-Pairs: A Challenge Dataset for Measuring Social Biases in Masked Language Models},
  author = {Nangia, Nikita and Vania, Clara and Bhalerao, Rasika and Bowman, Samuel R.},
  booktitle = {Proceedings of the 2020 Conference on Empirical Methods in Natural Language Processing (EMNLP)},
  year = {2020},
  pages = {1953--1967},
  publisher = {Association for Computational Linguistics},
  doi = {10.18653/v1/2020.emnlp-main.154}
}"""

BLODGETT_BIBTEX = """@inproceedings{blodgett-etal-2021-stereotyping,
  title = {Stereotyping {N}orwegian Salmon: An Inventory of Pitfalls in Fairness Benchmark Datasets},
  author = {Blodgett, Su Lin and Lopez, Gilsinia and Olteanu, Alexandra and Sim, Robert and Wallach, Hanna},
  booktitle = {Proceedings of the 59th Annual Meeting of the Association for Computational Linguistics and the 11th International Joint Conference on Natural Language Processing (ACL-IJCNLP)},
  year = {2021},
  pages = {1004--1015},
  publisher = {Association for Computational Linguistics},
  doi = {10.18653/v1/2021.acl-long.81}
}"""


def _method_bibtex(tool_version: str) -> str:
    return (
        "@software{curate,\n"
        "  title = {curate: linting, revalidation and versioned revision of minimal-pair "
        "social-bias benchmarks},\n"
        "  author = {{curate developers}},\n"
        f"  version = {{{tool_version}}},\n"
        "  note = {Release recipe, change records and checksums are shipped with each release}\n"
        "}"
    )


def md_cell(text: str) -> str:
    """Text safe inside a markdown table cell (no pipes, no line breaks, no HTML)."""
    return (
        text.replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\r", " ")
        .replace("\n", " ")
    )


def size_category(n: int) -> str:
    """The Hugging Face ``size_categories`` bucket of ``n`` rows."""
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < limit:
            return name
    return "100K<n<1M" if n < 1_000_000 else "1M<n<10M"


def _hf_license(license_name: str) -> str:
    return "cc-by-sa-4.0" if "BY-SA 4.0" in license_name.upper() else "other"


def _ids(pairs: Sequence[int]) -> str:
    return ", ".join(str(i) for i in pairs)


def changelog_entry(version: str, title: str, summary: str, diff: PairDiff) -> str:
    """One ``## version`` section: counts and pair ids of what changed against the previous."""
    lines = [f"## {version}", ""]
    if title or summary:
        lines += [" ".join(s for s in (title.rstrip(".") + "." if title else "", summary) if s), ""]
    lines += [f"Compared with {diff.before_label}: {diff.before_pairs} → {diff.after_pairs} pairs.", ""]
    edited_fields = diff.edited_fields()
    fields = ", ".join(f"{k} {v}" for k, v in edited_fields.items())
    lines += [
        f"- Added: {len(diff.added)}",
        f"- Dropped: {len(diff.dropped)}",
        f"- Edited: {len(diff.edited)}" + (f" (fields changed: {fields})" if fields else ""),
    ]
    for name, ids in (
        ("Dropped", [p.pair_id for p in diff.dropped]),
        ("Added", [p.pair_id for p in diff.added]),
        ("Edited", [e.pair_id for e in diff.edited]),
    ):
        if ids:
            lines += ["", f"{name} pair ids: {_ids(ids)}."]
    return "\n".join(lines) + "\n"


def render_changelog(entry: str, previous_changelog: str | None) -> str:
    """The changelog: title, this version's entry, then the previous release's entries."""
    older = ""
    if previous_changelog:
        start = previous_changelog.find("\n## ")
        older = previous_changelog[start + 1 :] if start >= 0 else ""
    text = f"{CHANGELOG_TITLE}\n{_CHANGELOG_INTRO}\n{entry}"
    return text + ("\n" + older if older else "")


def _yaml_header(version: str, pairs: int, source: dict[str, Any], pretty: str) -> str:
    q = json.dumps  # JSON strings are valid YAML scalars
    return "\n".join(
        [
            "---",
            f"pretty_name: {q(pretty, ensure_ascii=False)}",
            f"license: {_hf_license(source['license'])}",
            "language:",
            "- en",
            "size_categories:",
            f"- {size_category(pairs)}",
            "source_datasets:",
            "- extended|crows_pairs",
            "task_categories:",
            "- text-classification",
            "tags:",
            "- social-bias",
            "- stereotypes",
            "- minimal-pairs",
            "- crows-pairs",
            "configs:",
            "- config_name: default",
            "  data_files:",
            "  - split: test",
            f"    path: {PARQUET_NAME}",
            "---",
            "",
        ]
    )


def render_card(
    *,
    version: str,
    recipe: dict[str, Any],
    inputs: dict[str, Any],
    counts: dict[str, Any],
    rule_summaries: dict[str, tuple[str, str]],
    tool_version: str,
    previous_label: str,
) -> str:
    """The data card; ``counts`` is :func:`curate.release.revise.summarize_changes` plus pair totals.

    ``rule_summaries`` maps each rule code to its name and one-line summary.
    """
    source = inputs["source"]
    release = recipe["release"]
    title = " ".join((release.get("title") or "CrowS-Pairs, revised").split())
    n_pairs, n_raw = counts["pairs"], counts["raw_pairs"]
    changes = counts["changes"]
    lines: list[str] = [_yaml_header(version, n_pairs, source, f"{title} ({version})")]
    lines += [f"# {title}, version {version}", ""]

    lines += ["## Summary", ""]
    if release.get("summary"):
        lines += [release["summary"], ""]
    lines += [
        f"A revision of CrowS-Pairs (Nangia et al., 2020), the benchmark of minimal sentence pairs "
        f"for measuring social bias in masked language models: {n_pairs:,} pairs "
        f"({n_raw:,} upstream), built by curate {tool_version} from the recipe "
        f"`data/clean/{version}/recipe.toml`. The files keep the upstream schema and pair ids, so "
        "code written for `crows_pairs_anonymized.csv` reads them unchanged.",
        "",
        "| file | contents |",
        "| --- | --- |",
        f"| `{CSV_NAME}` | the revised pairs, upstream CSV schema (unnamed first column = pair id) |",
        f"| `{PARQUET_NAME}` | the same rows as Parquet (the id column is named `id`) |",
        "| `changes.jsonl` | one record per changed or dropped pair: old and new values and why |",
        "| `CHANGELOG.md` | what changed against the previous version |",
        "| `manifest.json` | input checksums, recipe hash, tool version, counts |",
        "| `SHA256SUMS` | checksums of every file (`sha256sum -c SHA256SUMS`) |",
        "",
    ]

    lines += ["## What changed and why", ""]
    dropped = changes["dropped"]
    lines += [
        f"{counts['changed_pairs']:,} of {n_raw:,} upstream pairs changed: "
        f"{changes['edited']:,} edited, {changes['relabelled']:,} relabelled, "
        f"{changes['edited+relabelled']:,} edited and relabelled, {dropped:,} dropped. "
        "Every one has a record in `changes.jsonl`; dropped pairs keep their id there.",
        "",
        "### Safe typographic autofixes",
        "",
    ]
    selected = recipe["fixes"]["select"]
    if selected:
        lines += [
            "Applied with `curate lint`'s fix loop, which accepts a fix only if the words that "
            "differ between the two sentences stay the same, so a fix never changes what a pair "
            "contrasts. Counts are of fixes that survive into this release.",
            "",
            "| code | rule | what it fixes | pairs | fixes |",
            "| --- | --- | --- | ---: | ---: |",
        ]
        for code in selected:
            entry = counts["lint"].get(code, {"rule": "", "pairs": 0, "fixes": 0})
            lines.append(
                f"| {code} | {md_cell(entry['rule'] or rule_summaries.get(code, ('', ''))[0])} | "
                f"{md_cell(rule_summaries.get(code, ('', ''))[1])} | "
                f"{entry['pairs']} | {entry['fixes']} |"
            )
        lines.append("")
    else:
        lines += ["None selected.", ""]

    lines += ["### Curation decisions", ""]
    decision_inputs = inputs["decisions"]
    if decision_inputs:
        lines += [
            "Applied after the autofixes, in recipe order; conflicting decisions for a pair stop "
            "the build. Pairs changed per decision and per source:",
            "",
            "| decision | pairs |",
            "| --- | ---: |",
        ]
        for action in ("fix", "relabel", "drop"):
            lines.append(f"| {action} | {counts['decisions'].get(action, 0)} |")
        lines += ["", "| source | file | pairs changed |", "| --- | --- | ---: |"]
        for d in decision_inputs:
            lines.append(
                f"| {md_cell(d['source'])} | `{md_cell(d['file'])}` | "
                f"{counts['decision_sources'].get(d['source'], 0)} |"
            )
        read = counts["decisions_read"]
        lines += [
            "",
            f"Decisions read: {sum(read.values())} ("
            + ", ".join(f"{k} {v}" for k, v in read.items())
            + "); `keep` and `undecided` leave a pair as it is.",
            "",
        ]
    else:
        lines += [
            "None: this release applies no annotator or hand-written decisions, so every "
            "pair keeps its upstream sentences apart from the autofixes above and its labels.",
            "",
        ]

    lines += [
        "## How it was built",
        "",
        f"1. Source: `{source['name']}`, file `{source['file']}`, SHA-256 `{source['sha256']}` "
        f"({source['license']}; {source['url']}). The build refuses any other bytes.",
        "2. Safe autofixes: " + (", ".join(selected) if selected else "none") + ".",
        "3. Decisions: "
        + (", ".join(f"`{md_cell(d['file'])}`" for d in decision_inputs) or "none")
        + ".",
        f"4. Recipe hash (SHA-256 of its canonical JSON): `{inputs['recipe_sha256']}`; "
        f"tool: curate {tool_version}. See `manifest.json`.",
        "",
        "Rebuild and verify (the same inputs give byte-identical files; a published version is "
        "immutable, so a changed recipe needs a new version):",
        "",
        "```sh",
        f"curate fetch {source['name']}",
        f"curate publish {version}",
        f"cd data/clean/{version}/dist && sha256sum -c SHA256SUMS",
        "```",
        "",
        "Load:",
        "",
        "```python",
        "import pandas as pd",
        f'pairs = pd.read_csv("{CSV_NAME}", index_col=0, keep_default_na=False)',
        f'pairs = pd.read_parquet("{PARQUET_NAME}").set_index("id")  # same rows',
        "```",
        "",
        f"`CHANGELOG.md` compares this version with {previous_label}.",
        "",
    ]

    lines += [
        "## Limitations",
        "",
        "- Autofixes repair typography only (punctuation, whitespace, capitalisation). They do not "
        "repair pairs that `curate lint` flags for content: sentences that differ in more than the "
        "group words, polarity flips, incommensurable groups, unsupported bias-type labels. Those "
        "need annotator decisions"
        + (" and this release has none." if not decision_inputs else "."),
        "- It inherits the problems of CrowS-Pairs documented by Blodgett et al. (2021): unclear "
        "stereotypes, non-minimal pairs, mismatched groups; a cleaner file does not make the "
        "benchmark a complete or valid measure of social bias.",
        "- Typographic fixes change the tokens a masked language model scores, so scores on this "
        "version differ slightly from scores on the upstream file; compare versions with "
        "`curate diff` and report which version you used.",
        "- The sentences are English, written by US crowd workers, and contain offensive "
        "stereotypes by design. Use them to measure bias, never as training data for a model "
        "that generates text.",
        "",
        "## License",
        "",
        f"{source['license']}, like the upstream dataset: you may share and adapt it with "
        "attribution, indicating changes (`changes.jsonl` does), under the same license.",
        "",
        "## Citation",
        "",
        "The dataset:",
        "",
        "```bibtex",
        CROWS_PAIRS_BIBTEX,
        "```",
        "",
        "The revision method (this release's recipe, autofixes and decisions) and the audit it "
        "builds on:",
        "",
        "```bibtex",
        _method_bibtex(tool_version),
        "",
        BLODGETT_BIBTEX,
        "```",
        "",
    ]
    return "\n".join(lines)
