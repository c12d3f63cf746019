"""A data-only game's rules leaflet: the template's Markdown file set in two columns on A4 or Letter, with the
box's contents (from the declared parts) at its end, in the shared leaflet fonts and finish
(``boardgen.render.typeset``).

The Markdown read is the small part rule books use: ``#`` the title, ``##``/``###`` headings, paragraphs,
``-``/``*`` bullets and ``1.`` numbered steps, ``**bold**`` and ``*italic*``; anything else is printed as text.
"""

from __future__ import annotations

import html
import io
import re

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Spacer

from boardgen.errors import LayoutError
from boardgen.games.custom.schema import CustomTemplate
from boardgen.i18n import N_, current
from boardgen.kit.parts import KitParts
from boardgen.render.imposition import Paper
from boardgen.render.typeset import check_glyphs, finished_leaflet, plain_text, register_fonts

INK = colors.HexColor("#1a1a1a")
ACCENT = colors.HexColor("#2f5d3a")
MARGIN = 14 * mm  # well clear of the 5 mm a printer cannot print
GUTTER = 8 * mm
BODY_PT = 9.0
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


def styles(font: str) -> dict[str, ParagraphStyle]:
    body = ParagraphStyle("body", fontName=font, fontSize=BODY_PT, leading=BODY_PT * 1.3, textColor=INK,
                          spaceAfter=3)
    return {
        "title": ParagraphStyle("title", parent=body, fontName=font + "-Bold", fontSize=18, leading=22,
                                textColor=ACCENT, spaceAfter=6),
        "h2": ParagraphStyle("h2", parent=body, fontName=font + "-Bold", fontSize=12, leading=15, textColor=ACCENT,
                             spaceBefore=6, spaceAfter=3),
        "h3": ParagraphStyle("h3", parent=body, fontName=font + "-Bold", fontSize=10, leading=13, spaceBefore=4,
                             spaceAfter=2),
        "body": body,
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=10, bulletIndent=2, spaceAfter=1.5),
    }


def story(markdown: str, t: CustomTemplate, parts: KitParts, font: str) -> list[Flowable]:
    st = styles(font)
    out: list[Flowable] = []
    texts: list[str] = []
    block: list[str] = []  # the lines of the paragraph or list item being read
    kind: tuple[str, str | None] = ("body", None)

    def add(text: str, style: str, bullet: str | None = None) -> None:
        texts.append(text)
        out.append(Paragraph(inline(text), st[style], bulletText=bullet))

    def flush() -> None:
        if block:
            add(" ".join(block), *kind)
            block.clear()

    for raw in markdown.splitlines():
        line = raw.strip()
        if not line:
            flush()
            kind = ("body", None)
            continue
        heading = re.match(r"^(#{1,3})\s+(.*)$", line)
        bullet = re.match(r"^[-*+]\s+(.*)$", line)
        numbered = re.match(r"^(\d{1,3})[.)]\s+(.*)$", line)
        if heading:
            flush()
            add(heading.group(2), {1: "title", 2: "h2", 3: "h3"}[len(heading.group(1))])
            kind = ("body", None)
        elif bullet:
            flush()
            kind = ("bullet", "\u2022")
            block.append(bullet.group(1))
        elif numbered:
            flush()
            kind = ("bullet", f"{numbered.group(1)}.")
            block.append(numbered.group(2))
        else:  # a paragraph's next line, or a list item's (a list item runs on until a blank line)
            block.append(line)
    flush()
    _ = current().gettext
    add(_("In the box"), "h2")
    for p in parts.parts:
        name = _(p.name) if p.name == BOARD_PART else p.name  # the other parts carry the template's own names
        add(_("{count} x {name} ({size})").format(count=p.count, name=name, size=p.described), "bullet", "\u2022")
    check_glyphs([plain_text(inline(x)) for x in texts], font, f"{t.source}: leaflet")
    return out


def leaflet_pdf(t: CustomTemplate, markdown: str, paper: Paper, parts: KitParts) -> tuple[bytes, int]:
    """(pdf bytes, pages): two columns a page; LayoutError past ``MAX_PAGES`` pages."""
    page_w, page_h = paper.width_mm * mm, paper.height_mm * mm
    column_w = (page_w - 2 * MARGIN - GUTTER) / 2
    height = page_h - 2 * MARGIN
    frames = [Frame(MARGIN, MARGIN, column_w, height, id="left", leftPadding=0, rightPadding=0, topPadding=0,
                    bottomPadding=0),
              Frame(MARGIN + column_w + GUTTER, MARGIN, column_w, height, id="right", leftPadding=0, rightPadding=0,
                    topPadding=0, bottomPadding=0)]
    font = register_fonts()
    buf = io.BytesIO()
    doc = BaseDocTemplate(buf, pagesize=(page_w, page_h), leftMargin=0, rightMargin=0, topMargin=0, bottomMargin=0,
                          title=current().gettext("{title}: rules").format(title=t.title), author="boardgen",
                          invariant=1, initialFontName=font,
                          initialFontSize=BODY_PT)
    doc.addPageTemplates([PageTemplate("page", frames)])
    flow = story(markdown, t, parts, font) or [Spacer(1, 1)]
    doc.build(flow)
    if doc.page > MAX_PAGES:
        raise LayoutError(f"{t.source}: leaflet: the rules take {doc.page} pages on {paper.name}; expected at most "
                          f"{MAX_PAGES}")
    return finished_leaflet(buf.getvalue()), doc.page
