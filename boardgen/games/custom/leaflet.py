"""A data-only game's rules leaflet: the template's Markdown file, with the box's contents (from the declared
parts) at its end, set in two columns on A4 or Letter by the shared typesetter (``boardgen.kit.leaflet``).

The Markdown read is the small part rule books use: ``#`` the title, ``##`` headings (``###`` a bold line),
paragraphs, ``-``/``*`` bullets and ``1.`` numbered steps, ``**bold**`` and ``*italic*``; anything else is
printed as text.
"""

from __future__ import annotations

import html
import re

from boardgen.games.custom.schema import CustomTemplate
from boardgen.i18n import N_, current
from boardgen.kit.leaflet import COLUMNS, Block, Leaflet
from boardgen.kit.leaflet import leaflet_pdf as typeset
from boardgen.kit.parts import KitParts
from boardgen.render.imposition import Paper

ACCENT = "#2f5d3a"
BODY_SIZES_PT = (10.0, 9.5, 9.0, 8.5)
"""Body sizes tried: the fewest pages at the largest of these."""
MAX_PAGES = 8

BOARD_PART = N_("board")
"""The board's part name (the one part a data-only template does not name itself)."""


def inline(text: str) -> str:
    """Markdown emphasis as reportlab markup (the text escaped first)."""
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"<i>\1</i>", out)
    out = re.sub(r"`(.+?)`", r"\1", out)
    return out


def markdown_blocks(markdown: str) -> tuple[str, list[Block]]:
    """(the ``#`` title or "", the blocks): one block per ``##`` heading, its paragraphs and list items."""
    title = ""
    blocks: list[Block] = []
    heading, paragraphs = "", []  # the block being read
    lines: list[str] = []  # the lines of the paragraph or list item being read
    prefix = ""

    def flush() -> None:
        if lines:
            paragraphs.append(prefix + inline(" ".join(lines)))
            lines.clear()

    def close() -> None:
        flush()
        if heading or paragraphs:
            blocks.append(Block(heading, tuple(paragraphs)))

    for raw in markdown.splitlines():
        line = raw.strip()
        head = re.match(r"^(#{1,3})\s+(.*)$", line)
        bullet = re.match(r"^[-*+]\s+(.*)$", line)
        numbered = re.match(r"^(\d{1,3})[.)]\s+(.*)$", line)
        if not line:
            flush()
            prefix = ""
        elif head and len(head.group(1)) == 1 and not title and not blocks and not heading and not paragraphs:
            title = inline(head.group(2))
        elif head and len(head.group(1)) <= 2:
            close()
            heading, paragraphs, prefix = inline(head.group(2)), [], ""
        elif head:
            flush()
            paragraphs.append(f"<b>{inline(head.group(2))}</b>")
            prefix = ""
        elif bullet or numbered:
            flush()
            prefix = "• " if bullet else f"{numbered.group(1)}. "  # type: ignore[union-attr]
            lines.append((bullet or numbered).group((bullet and 1) or 2))  # type: ignore[union-attr]
        else:  # a paragraph's next line, or a list item's (a list item runs on until a blank line)
            lines.append(line)
    close()
    return title, blocks


def leaflet(t: CustomTemplate, markdown: str, parts: KitParts) -> Leaflet:
    """The Markdown's words and the box's contents, as the typesetter takes them."""
    _ = current().gettext
    title, blocks = markdown_blocks(markdown)
    contents = []
    for p in parts.parts:
        name = _(p.name) if p.name == BOARD_PART else p.name  # the other parts carry the template's own names
        contents.append("• " + inline(_("{count} x {name} ({size})").format(count=p.count, name=name,
                                                                            size=p.described)))
    blocks.append(Block(_("In the box"), tuple(contents)))
    return Leaflet(title or inline(t.title), tuple(blocks), t.source, accent=ACCENT, fold=COLUMNS,
                   sheets=tuple(range(1, MAX_PAGES + 1)), body_sizes_pt=BODY_SIZES_PT, subject=t.edition)


def leaflet_pdf(t: CustomTemplate, markdown: str, paper: Paper, parts: KitParts) -> tuple[bytes, int]:
    """(pdf bytes, pages): two columns a page, at most ``MAX_PAGES`` pages (else a FitError naming the block
    that runs past them)."""
    return typeset(leaflet(t, markdown, parts), paper)
