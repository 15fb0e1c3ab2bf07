"""The Markdown of curate's help texts, drawn with rich's basic parts.

Why not ``rich.markdown``: importing it (markdown-it, and pygments through ``rich.syntax``)
and parsing every option's help as a document cost ``curate score -h`` a third of a second,
most of its start-up (issue 31). The help texts use a small part of Markdown, and this module
draws exactly that part:

- paragraphs, their single line breaks joined with a space;
- bullet lists (``- item``), an item's following lines joined to it;
- ``**bold**``, ```code``` and backslash escapes (``\\<out>`` shows ``<out>``).

Anything else (headings, numbered lists, links, fenced code) is printed as it is written.
``tests/test_cli_help.py`` draws every help text of the CLI with this module and with
``rich.markdown`` and checks that the same words come out, so a help text that starts using
another construct fails a test instead of printing raw Markdown.

Layer: the ground floor (rich only).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

#: A bullet item's first line: up to three spaces, a marker, a space.
_BULLET = re.compile(r"^ {0,3}[-*+][ \t]+(?P<text>\S.*)$")
#: The inline constructs, in the order Markdown reads them at one position.
_INLINE = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"  # a backslash before ASCII punctuation
    r"|(?P<ticks>`+)(?P<code>.+?)(?P=ticks)"  # a code span
    r"|\*\*(?P<bold>\S(?:.*?\S)?)\*\*"  # strong emphasis
)
#: How code spans and bold look (rich.markdown's defaults for the two).
CODE_STYLE = "bold cyan"
BOLD_STYLE = "bold"


@dataclass
class Block:
    """A paragraph (``kind="p"``, one item) or a bullet list (``kind="ul"``, one per item)."""

    kind: str
    items: list[str] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """The paragraphs and bullet lists of ``text``, each item's lines joined with a space.

    >>> [(b.kind, b.items) for b in blocks("One\\ntwo.\\n\\n- a\\n  b\\n- c\\n\\nEnd.")]
    [('p', ['One two.']), ('ul', ['a b', 'c']), ('p', ['End.'])]
    """
    found: list[Block] = []
    current: Block | None = None
    after_blank = False
    for line in inspect.cleandoc(text).splitlines():
        if not line.strip():
            after_blank = True
            continue
        bullet = _BULLET.match(line)
        if bullet:
            if current is None or current.kind != "ul":
                current = Block("ul")
                found.append(current)
            current.items.append(bullet["text"].strip())
        elif current is not None and not after_blank:
            current.items[-1] += " " + line.strip()  # a lazy continuation line
        elif current is not None and current.kind == "ul" and line.startswith((" ", "\t")):
            current.items[-1] += " " + line.strip()  # an item's indented second paragraph
        else:
            current = Block("p", [line.strip()])
            found.append(current)
        after_blank = False
    return found


def inline(text: str, style: str = "") -> Text:
    """``text`` with its bold, code spans and escapes drawn, in ``style``."""
    out = Text(style=style)
    position = 0
    for match in _INLINE.finditer(text):
        out.append(text[position : match.start()])
        if match["escaped"] is not None:
            out.append(match["escaped"])
        elif match["code"] is not None:
            out.append(match["code"].strip(" ") or match["code"], style=CODE_STYLE)
        else:
            out.append_text(inline(match["bold"], BOLD_STYLE))
        position = match.end()
    out.append(text[position:])
    return out


def render(text: str, style: str = "") -> RenderableType:
    """``text`` as rich renderables: paragraphs, and bullet lists with a hanging indent."""
    parts: list[RenderableType] = []
    for number, block in enumerate(blocks(text)):
        if number:
            parts.append(Text(""))
        if block.kind == "p":
            parts.append(inline(block.items[0], style))
            continue
        bullets = Table.grid(padding=(0, 1, 0, 0))
        bullets.add_column(no_wrap=True)
        bullets.add_column(overflow="fold")
        for item in block.items:
            bullets.add_row(Text(" •", style=style), inline(item, style))
        parts.append(bullets)
    if not parts:
        return Text(style=style)
    return parts[0] if len(parts) == 1 else Group(*parts)
