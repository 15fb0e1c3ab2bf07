"""The documents of a release: the data card (``README.md``) and ``CHANGELOG.md``.

Both are rendered from the change records and the pair diff only (no clock, no paths of the
machine that built them), so a rebuild gives the same bytes and every count in them can be
recomputed from ``changes.jsonl``. The card follows the Hugging Face dataset-card layout: a
YAML metadata header, then prose. Its text is the Jinja2 template ``templates/datacard.md``
(package data), rendered the way ``huggingface_hub``'s ``RepoCard.from_template`` renders
``datasetcard_template.md``, so the wording is edited as markdown, not as Python strings. Sentence text never appears in them; the few strings that come
from files (recipe text, decision file names) are escaped for markdown tables.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

import jinja2

from curate.benchmarks.crows_pairs.columns import COLUMNS as HF_TABLE
from curate.formats.labels import HF_BIAS_TYPES, HF_DIRECTIONS
from curate.release.pairdiff import PairDiff
from curate.release.versions import CSV_NAME, PARQUET_NAME

#: The data card template, relative to this package (package data, see pyproject.toml).
CARD_TEMPLATE = "templates/datacard.md"
#: The decisions whose pair counts the card lists (``keep``/``undecided`` change nothing).
CARD_ACTIONS = ("fix", "relabel", "drop")
CHANGELOG_TITLE = "# Changelog\n"
_CHANGELOG_INTRO = (
    "Versions of the revised CrowS-Pairs built with curate, newest first. Each entry compares a\n"
    "version with the one before it; `changes.jsonl` in each release says why every pair\n"
    "changed relative to the upstream file.\n"
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
    for name, ids, items in (
        ("Dropped", [p.pair_id for p in diff.dropped], [p.item_id for p in diff.dropped]),
        ("Added", [p.pair_id for p in diff.added], [p.item_id for p in diff.added]),
        ("Edited", [e.pair_id for e in diff.edited], [e.item_id for e in diff.edited]),
    ):
        if ids and all(items):  # items with their own ids (StereoSet) are named by them
            lines += ["", f"{name} item ids: {', '.join(str(i) for i in items)}."]
        elif ids:
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


@functools.cache
def _environment() -> jinja2.Environment:
    """The Jinja2 environment of the card template (cached: the template is parsed once).

    Markdown is not HTML, so nothing is autoescaped: cells that come from files go through the
    ``md_cell`` filter instead. ``StrictUndefined`` turns a misspelt variable into an error
    rather than an empty string in a published card.
    """
    env = jinja2.Environment(
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md_cell"] = md_cell
    env.filters["thousands"] = "{:,}".format
    env.filters["yaml_string"] = _yaml_string
    return env


def _yaml_string(text: str) -> str:
    """A YAML scalar for ``text``: JSON strings are valid YAML (``str`` lets a missing variable
    raise Jinja2's UndefinedError instead of being serialised)."""
    return json.dumps(str(text), ensure_ascii=False)


def template(name: str) -> jinja2.Template:
    """A template shipped with the package under ``templates/`` (e.g. ``datacard.md``)."""
    path = resources.files(__package__).joinpath("templates", *name.split("/"))
    return _environment().from_string(path.read_text(encoding="utf-8"))


def card_template() -> jinja2.Template:
    """The data card template shipped with the package (``templates/datacard.md``)."""
    return template(CARD_TEMPLATE.removeprefix("templates/"))


def release_title(recipe: dict[str, Any]) -> str:
    """The release's title from its canonical recipe, on one line."""
    return " ".join((recipe["release"].get("title") or "CrowS-Pairs, revised").split())


def render_card(
    *,
    version: str,
    recipe: dict[str, Any],
    inputs: dict[str, Any],
    counts: dict[str, Any],
    rule_summaries: dict[str, tuple[str, str]],
    tool_version: str,
    previous_label: str,
    hf_data_file: str | None = None,
    hf_data_bytes: int = 0,
    hf_split_bytes: int = 0,
    lm_eval_task: str | None = None,
    benchmark_title: str = "CrowS-Pairs",
    own_files: str | None = None,
    release_note: str = "",
    language: str = "en",
) -> str:
    """The data card, rendered from :func:`card_template`.

    ``counts`` is :func:`curate.release.revise.summarize_changes` plus pair totals and the
    decisions read; ``rule_summaries`` maps each rule code to its name and one-line summary.
    This function only shapes those numbers into rows; the wording lives in the template.
    ``hf_data_file`` is the release file in the Hugging Face ``crows_pairs`` layout that the
    YAML header's ``configs`` and ``dataset_info.features`` declare (None: the labels could not
    all be expressed as its class labels, and the header points at the text-label Parquet) and
    ``hf_data_bytes`` its size: 🤗 datasets keys its cache of a local folder on the folder's name
    and the header's ``dataset_info`` only, so the row count and size there keep two releases
    (every one is a folder named ``dist``) from being served one another's cached rows;
    ``hf_split_bytes`` is the split's size as Arrow data (the ``num_bytes`` that 🤗 datasets
    requires of every split in the header, else it warns that the YAML is malformed);
    ``lm_eval_task`` is the name of the lm-evaluation-harness task in ``lm_eval/``.
    ``own_files``: the data file or folder of a release in another benchmark's own shape
    (``benchmark_title``: StereoSet JSON, WinoBias text files) instead of the CrowS-Pairs files;
    ``release_note`` (the benchmark's) then says how to load it, since no 🤗 configuration or
    lm-evaluation-harness task is written for it. ``language``: the language of the pairs (the
    card's ``language`` tag and a sentence naming it when it is not English: a French or Dutch
    CrowS-Pairs release).
    """
    source = inputs["source"]
    release = recipe["release"]
    title = release_title(recipe)
    fixes = []
    for code in recipe["fixes"]["select"]:
        entry = counts["lint"].get(code, {"rule": "", "pairs": 0, "fixes": 0})
        name, summary = rule_summaries.get(code, ("", ""))
        fixes.append(
            {
                "code": code,
                "rule": entry["rule"] or name,
                "summary": summary,
                "pairs": entry["pairs"],
                "fixes": entry["fixes"],
            }
        )
    decision_sources = [
        {
            "label": d["source"],
            "file": d["file"],
            "pairs": counts["decision_sources"].get(d["source"], 0),
        }
        for d in inputs["decisions"]
    ]
    from curate.formats.language import LANGUAGES

    return card_template().render(
        language=language,
        language_name=LANGUAGES.get(language, language),
        version=version,
        title=title,
        pretty_name=f"{title} ({version})",
        hf_license=_hf_license(source["license"]),
        size_category=size_category(counts["pairs"]),
        summary=release.get("summary") or "",
        n_pairs=counts["pairs"],
        n_raw=counts["raw_pairs"],
        changed_pairs=counts["changed_pairs"],
        changes=counts["changes"],
        fixes=fixes,
        decision_sources=decision_sources,
        decisions_by_action=[(a, counts["decisions"].get(a, 0)) for a in CARD_ACTIONS],
        decisions_read=list(counts["decisions_read"].items()),
        source=source,
        recipe_sha256=inputs["recipe_sha256"],
        tool_version=tool_version,
        previous_label=previous_label,
        csv_name=CSV_NAME,
        parquet_name=PARQUET_NAME,
        hf_data_file=hf_data_file,
        hf_data_bytes=hf_data_bytes,
        hf_split_bytes=hf_split_bytes,
        hf_bias_types=HF_BIAS_TYPES,
        hf_directions=HF_DIRECTIONS,
        # the Hugging Face features, from the CrowS-Pairs column table (its id column is "id")
        hf_columns=[
            {"name": "id" if c.field == "pair_id" else c.name, "kind": c.kind} for c in HF_TABLE
        ],
        lm_eval_task=lm_eval_task,
        benchmark_title=benchmark_title,
        own_files=own_files,
        release_note=release_note,
    )
