"""The guide: README.md is a short entry point whose links all resolve, and docs/ builds as an
offline MkDocs site without a warning, with a CLI reference that is the current ``--help``.

The links are checked as GitHub renders them (a relative path to a file of the repository, an
anchor that is the GitHub slug of a heading) and as MkDocs does (its own slugs; the strict
build fails on a broken link or anchor), so they work in both places.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from curate.cli import app

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))

#: ``[text](target)`` and ``![alt](target)``, target without spaces (an optional title after).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def _prose(markdown: str) -> str:
    """The text outside fenced code blocks and code spans (where brackets are not links)."""
    return CODE_SPAN.sub("", FENCE.sub("", markdown))


def _heading_text(raw: str) -> str:
    """A heading as plain text: code spans unwrapped, links reduced to their text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    return text.replace("`", "").replace("*", "")


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = _heading_text(heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def mkdocs_slug(heading: str) -> str:
    """Python-Markdown's toc slugify (MkDocs' default): ASCII, punctuation dropped, hyphens."""
    text = unicodedata.normalize("NFKD", _heading_text(heading)).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(markdown: str, slug: Callable[[str], str]) -> set[str]:
    """The anchors of the headings of ``markdown`` (outside code blocks) under ``slug``."""
    return {slug(m.group(2)) for m in HEADING.finditer(FENCE.sub("", markdown))}


def _links(path: Path) -> list[str]:
    return LINK.findall(_prose(path.read_text(encoding="utf-8")))


def _broken_links(path: Path, root: Path = REPO) -> list[str]:
    """Each relative link of ``path`` that names no file of ``root``, or no heading of a
    Markdown file."""
    broken = []
    for target in _links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:: not ours to check
            continue
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        if not destination.exists():
            broken.append(f"{target}: no such file")
            continue
        if not destination.is_relative_to(root):
            broken.append(f"{target}: outside the repository")
            continue
        if anchor:
            if destination.suffix != ".md":
                broken.append(f"{target}: an anchor into a file that is not Markdown")
                continue
            text = destination.read_text(encoding="utf-8")
            for name, slug in (("GitHub", github_slug), ("MkDocs", mkdocs_slug)):
                if anchor not in _anchors(text, slug):
                    broken.append(f"{target}: no heading with the {name} anchor #{anchor}")
    return broken


def test_slugs_follow_github_and_mkdocs() -> None:
    """The two slug rules on headings of the kinds the guide uses (and where they differ)."""
    assert github_slug("`curate diff`") == mkdocs_slug("`curate diff`") == "curate-diff"
    assert github_slug("Lint: lint, rules") == mkdocs_slug("Lint: lint, rules") == "lint-lint-rules"
    assert github_slug("Murphy's 2022 preset") == "murphys-2022-preset"
    assert github_slug("The Martínez & Kremer files") == "the-martínez--kremer-files"
    assert mkdocs_slug("The Martínez & Kremer files") == "the-martinez-kremer-files"


def test_link_checker_finds_broken_links(tmp_path: Path) -> None:
    """The checker itself: a missing file, a missing anchor and a good link, in prose only."""
    (tmp_path / "repo").mkdir()
    (tmp_path / "x.md").touch()
    sample = tmp_path / "repo" / "sample.md"
    sample.write_text(
        "# Title\n\n## A `code` heading\n\n"
        "[ok](#a-code-heading) [gone](missing.md) [bad anchor](#nowhere) [up](../x.md) "
        "`[not a link](nowhere.md)`\n\n```\n[nor this](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert _broken_links(sample, root=tmp_path / "repo") == [
        "missing.md: no such file",
        "#nowhere: no heading with the GitHub anchor #nowhere",
        "#nowhere: no heading with the MkDocs anchor #nowhere",
        "../x.md: outside the repository",
    ]
    assert _links(sample) == ["#a-code-heading", "missing.md", "#nowhere", "../x.md"]
    assert "nowhere" not in _anchors(sample.read_text(encoding="utf-8"), github_slug)
    assert "a-code-heading" in _anchors(sample.read_text(encoding="utf-8"), mkdocs_slug)


@pytest.mark.parametrize("path", [README, *PAGES], ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(path: Path) -> None:
    assert _broken_links(path) == []


def test_readme_is_a_short_entry_point() -> None:
    """Under 250 lines; the two commands; a link to every page of the guide."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    assert re.search(r"^make demo\b", text, re.M) and re.search(r"^make test\b", text, re.M)
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in _links(README)}
    unlinked = [p.relative_to(REPO) for p in PAGES if p.resolve() not in linked]
    assert unlinked == []


def _run(args: list[str]) -> str:
    """What ``curate ARGS`` prints, as the generated pages render it (plain text, 100 columns)."""
    env = {"TERMINAL_WIDTH": "100", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
    result = CliRunner().invoke(app, args, prog_name="curate", color=False, env=env)
    assert result.exit_code == 0, result.output
    return "\n".join(line.rstrip() for line in result.output.splitlines()).strip("\n")


def _command_paths(command: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [path]
    for name, child in (getattr(command, "commands", None) or {}).items():
        if not getattr(child, "hidden", False):
            paths += _command_paths(child, (*path, name))
    return paths


def _blocks(page: str, ids: str) -> dict[str, str]:
    """Heading id -> the text of the code block under it, for the headings whose id matches
    ``ids``, in a built page."""
    blocks = {}
    pattern = rf'<h[23] id="({ids})".*?<pre[^>]*>(.*?)</pre>'
    for match in re.finditer(pattern, page, re.S):
        blocks[match.group(1)] = html.unescape(re.sub(r"<[^>]+>", "", match.group(2))).strip("\n")
    return blocks


@pytest.mark.slow
def test_site_builds_offline_without_warnings(tmp_path: Path) -> None:
    """`mkdocs build --strict` (what `make docs` runs) into a temporary directory: no warning
    (broken links and anchors included), no asset from another host, a CLI reference whose
    every command's block is that command's current --help, and a rule catalogue that is
    what `curate rules CODE` prints for every rule."""
    site = tmp_path / "site"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "PYTHONDONTWRITEBYTECODE": "1",  # nothing written into the tree (the hook's __pycache__)
        "NO_MKDOCS_2_WARNING": "1",
    }
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr

    pages = sorted(site.rglob("*.html"))
    assert {p.relative_to(site).as_posix() for p in pages} >= {
        "index.html", "architecture.html", "statistics.html", "reference/cli.html",
        "commands/lint.html", "benchmarks/winobias.html", "methods/causal.html",
        "reference/rules.html",
    }  # fmt: skip
    assert (site / "explore.png").is_file()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
        assets = re.findall(r'<(?:script|img)[^>]*\ssrc="([^"]+)"|<link[^>]*\shref="([^"]+)"', text)
        remote = [a for pair in assets for a in pair if re.match(r"^(https?:)?//", a)]
        assert remote == [], page

    reference = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    blocks = _blocks(reference, r"curate[^\"]*")
    paths = _command_paths(typer.main.get_command(app))
    assert len(paths) > 20
    assert sorted(blocks) == sorted("-".join(("curate", *p)) for p in paths)
    for path in paths:
        assert blocks["-".join(("curate", *path))] == _run([*path, "--help"]), path

    # the rule catalogue: every rule `curate rules` lists, with what `curate rules CODE` says
    codes = [row["code"] for row in json.loads(_run(["rules", "--format", "json"]))]
    assert {"P006", "T012", "E005", "B001", "I001"} <= set(codes)
    catalogue = (site / "reference" / "rules.html").read_text(encoding="utf-8")
    blocks = _blocks(catalogue, r"[a-z]\d{3}")
    assert sorted(blocks) == sorted(code.lower() for code in codes)
    for code in codes:
        assert blocks[code.lower()] == _run(["rules", code]), code
