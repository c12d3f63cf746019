"""The rules leaflet of every game: one typesetter, one style sheet, one fit loop, one panel geometry.

A game fills a :class:`Leaflet` with its words (blocks of a heading, paragraphs of reportlab's small markup, an
optional table and an optional picture) and calls :func:`leaflet_pdf`. Everything else is decided here, the
same way for every game:

- **the sheet**: a paper (A4 or Letter) divided into panels by a :class:`Fold`: ``HALF_FOLD`` (a landscape
  sheet folded in half into a four-page booklet, nested sheets for eight pages and more), ``TRI_FOLD`` (a
  landscape sheet folded in three, six panels read 1 to 6) or ``COLUMNS`` (a portrait sheet, two columns,
  not folded). Every paper gets the same number of panels: the sheet count is the smallest that fits on
  every paper.
- **the style**: one style sheet derived from one body size (title, heading, body, table cells, small print);
  the game chooses only an accent colour for its headings.
- **the fit**: the largest body size of ``body_sizes_pt`` (from 10 pt down to a floor of 7 pt, where the
  smallest text, the small print, is 6 pt) that sets the words in the panels of the fewest sheets allowed
  (a picture the game lets shrink is shrunk, the text at its smallest size, before another sheet is added);
  when nothing fits, a one-line :class:`~boardgen.render.typeset.FitError` naming the template, the paper and
  the block to shorten.
- **the sheet decor**: fold marks 5 mm in from the paper edge (where printers print), a fold note, panel
  numbers (unfolded pages: page numbers, when there are two or more), a 100 mm ruler with the printing note on
  the first side; all in the shared fonts, nothing under 6 pt, and the words translated through
  ``boardgen.i18n``.
- **imposition**: panels placed on the printed sides in folding order with pikepdf; vector art drawn
  elsewhere (a cairo PDF page, :func:`pdf_picture`) laid over its place; subset tags made unique, TrimBox and
  BleedBox set, the same bytes on every run.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pikepdf
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Image as PlatypusImage
from reportlab.platypus import LayoutError as PlatypusLayoutError
from reportlab.platypus import Table as PlatypusTable

from boardgen.i18n import N_, current
from boardgen.render.imposition import A4, LETTER, Paper
from boardgen.render.pdf_fonts import retag_subsets
from boardgen.render.scene import PT, Scene
from boardgen.render.typeset import (
    FONT,
    MIN_TEXT_PT,
    FitError,
    booklet_order,
    check_glyphs,
    fitted_column_widths,
    plain_text,
)
from boardgen.render.typeset import register_fonts as register_fonts

INK = "#1a1a1a"
SHADED = "#fff2a8"
"""The background of a ``shaded`` block (rules a simpler game leaves out, say)."""
FRAMED = "#eef3f7"
"""The background of a ``framed`` block (a turn summary, say)."""
TABLE_HEAD = "#eeeeee"
TABLE_RULE = "#999999"
TABLE_SPACE_AFTER = 0.25
"""The space after a table, as a share of the body size: what follows (a paragraph, a box) stands off the table's
last rule. Less than a paragraph's 0.35, as the cells' padding adds to it; the flagship's one sheet holds it."""

BODY_SIZES_PT = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
"""Body sizes the fit tries, largest first. The floor is 7 pt: the small print is set 1 pt under the body."""
SMALL_BELOW_BODY_PT = 1.0
CELL_BELOW_BODY_PT = 0.5
FLOOR_BODY_PT = MIN_TEXT_PT + SMALL_BELOW_BODY_PT
"""No body size under this is ever tried: the smallest text of the leaflet (small print) would fall under 6 pt."""
DECOR_PT = 6.0
"""The sheet decor's words (fold notes, the ruler's note); panel numbers are 7 pt."""
PANEL_NUMBER_PT = 7.0
FOLD_MARK_FROM_EDGE_MM = 5.0
FOLD_MARK_MM = 4.0
RULER_MM = 100.0


# ------------------------------------------------------------------------------------------ the content model


@dataclass(frozen=True)
class Picture:
    """A picture: ``make(width_pt)`` returns a reportlab Flowable or Drawing at most that wide (a Drawing is
    drawn with the leaflet's font as its default). ``share``: its width as a share of the text width.
    ``min_share``: how far the fit may shrink it (a block's picture) to keep the words on fewer sheets, None:
    never (see ``fitted``). ``pdf_picture`` makes one from a page of a PDF drawn elsewhere (cairo), kept as
    vectors."""

    make: Callable[[float], Flowable | Drawing]
    share: float = 1.0
    min_share: float | None = None
    sizes: dict[float, tuple[float, float]] = field(default_factory=dict, init=False, compare=False, repr=False)
    """(width, height) of what ``make(width)`` made, by width, for a fixed-size picture (a Drawing, an image, a
    PDF page): the fit's trials stand a box of that size in its place (``_Stand``) rather than make it again."""

    def __post_init__(self) -> None:
        if self.min_share is not None and not 0.0 < self.min_share <= self.share:
            raise ValueError(f"leaflet picture min_share {self.min_share:g}: expected more than 0 and at most its "
                             f"share {self.share:g}")

    def share_at(self, shrink: float) -> float:
        """The width share at ``shrink`` (0: ``share``, 1: ``min_share``)."""
        return self.share if self.min_share is None else self.share - shrink * (self.share - self.min_share)


Cell = str | Picture
"""A table cell: markup text, or a picture as wide as its column."""


@dataclass(frozen=True)
class Table:
    """Rows of cells; the first row is a header (bold, shaded) when ``header``. ``weights``: the columns'
    relative widths (equal if empty); a column too narrow for its longest word is widened from the others.
    ``bold_first_column``: the first column set bold (row names). ``centre_first_column``: centred (icons)."""

    rows: tuple[tuple[Cell, ...], ...]
    weights: tuple[float, ...] = ()
    header: bool = True
    bold_first_column: bool = False
    centre_first_column: bool = False


@dataclass(frozen=True)
class Block:
    """A piece of the leaflet in reading order: ``heading`` (none: it runs on from the block before),
    ``paragraphs`` (reportlab markup: ``<b>``, ``<i>``, ``&amp;``; a paragraph starting "• " or "12. " is a
    list item, hanging from its bullet or number), then ``table`` and ``after`` (paragraphs after the table).
    ``picture`` goes after the
    first ``picture_after`` paragraphs (after all of them by default).

    ``box``: "" plain, "shaded" (a yellow background) or "framed" (a ruled box with a blue-grey background); a
    boxed block is never split across panels. ``keep_together``: a plain block never split either.
    ``new_panel``: start on a fresh panel. ``small``: the paragraphs in the small size (notes, sources)."""

    heading: str = ""
    paragraphs: tuple[str, ...] = ()
    table: Table | None = None
    after: tuple[str, ...] = ()
    picture: Picture | None = None
    picture_after: int = -1
    box: str = ""
    keep_together: bool = False
    new_panel: bool = False
    small: bool = False

    def __post_init__(self) -> None:
        if self.box not in ("", "shaded", "framed"):
            raise ValueError(f"Block.box: {self.box!r}; expected '', 'shaded' or 'framed'")

    def words(self) -> list[str]:
        """Every text the block prints, with its markup."""
        cells = [c for row in self.table.rows for c in row if isinstance(c, str)] if self.table else []
        return [self.heading, *self.paragraphs, *cells, *self.after]

    def text(self) -> list[str]:
        """The block's words as plain lines (headings, paragraphs, table rows joined by " | ")."""
        out = [plain_text(self.heading)] if self.heading else []
        out += [plain_text(p) for p in self.paragraphs]
        if self.table is not None:
            out += [" | ".join(plain_text(c) if isinstance(c, str) else "" for c in row) for row in self.table.rows]
        out += [plain_text(p) for p in self.after]
        return out


@dataclass(frozen=True)
class Fold:
    """How a sheet becomes panels: ``across`` panels on a side of a ``landscape`` or portrait sheet, ``folded``
    (fold marks between panels), read in ``order``: "booklet" (a half fold: outside [4 | 1], inside [2 | 3],
    nested sheets) or "rows" (side by side, side after side). ``side_mm``: a panel's text stands this far
    in from its left and right edges; ``top_mm``/``bottom_mm`` from the sheet's top and bottom (the bottom
    strip holds the ruler and the panel numbers). ``duplex``: printed on both sides, flipped on this edge."""

    name: str
    across: int
    landscape: bool
    folded: bool
    order: str
    side_mm: float
    top_mm: float = 11.0
    bottom_mm: float = 17.0
    unit: str = "sheet"
    """What ``Leaflet.sheets`` counts, in errors: "sheet" (folded) or "page"."""
    panel: str = "panel"
    """What a panel is called in errors: "panel" or "column"."""

    @property
    def per_sheet(self) -> int:
        """Panels a ``Leaflet.sheets`` unit holds: a folded sheet's two sides, or one side of an unfolded one
        (a page: two pages are printed double-sided or on two sheets, as the kit's README says)."""
        return 2 * self.across if self.folded else self.across

    @property
    def flip_edge(self) -> str:
        """The edge a double-sided print flips on: "short" for a landscape sheet, "long" for portrait."""
        return "short" if self.landscape else "long"


HALF_FOLD = Fold("half fold", 2, landscape=True, folded=True, order="booklet", side_mm=11.0)
TRI_FOLD = Fold("tri-fold", 3, landscape=True, folded=True, order="rows", side_mm=8.0)
COLUMNS = Fold("two columns", 2, landscape=False, folded=False, order="rows", side_mm=9.0, unit="page",
               panel="column")


@dataclass(frozen=True)
class Leaflet:
    """A game's leaflet, all words: ``title`` (the cover's first line and the PDF's title), ``blocks`` in
    reading order, ``back`` (back matter: set on the last panels, the back cover of a folded sheet).

    ``source``: the template file, named in errors. ``accent``: the headings' colour. ``fold``, ``sheets``:
    the sheet counts allowed, fewest first (the fit takes the first that holds the words on every paper); for
    the unfolded ``COLUMNS`` a count of pages.
    ``body_sizes_pt``: sizes tried, largest first, none under ``FLOOR_BODY_PT``. ``subject``: the PDF's
    subject line (the edition, say)."""

    title: str
    blocks: tuple[Block, ...]
    source: str
    back: tuple[Block, ...] = ()
    accent: str = INK
    fold: Fold = HALF_FOLD
    sheets: tuple[int, ...] = (1, 2)
    body_sizes_pt: tuple[float, ...] = BODY_SIZES_PT
    subject: str = ""
    papers: tuple[Paper, ...] = field(default=(A4, LETTER))
    """Every paper the kit prints on: the sheet count is the same on all of them."""
    document: str = ""
    """The PDF's title, if not "<title>: rules" (a leaflet that holds no rules)."""

    def __post_init__(self) -> None:
        low = [s for s in self.body_sizes_pt if s < FLOOR_BODY_PT]
        if not self.body_sizes_pt or low:
            raise ValueError(f"{self.source}: leaflet body sizes {self.body_sizes_pt}: expected sizes of at least "
                             f"{FLOOR_BODY_PT:g} pt")
        if not self.sheets or any(s < 1 for s in self.sheets):
            raise ValueError(f"{self.source}: leaflet sheets {self.sheets}: expected counts of at least 1")

    def text(self) -> str:
        """The leaflet's words as plain text (tests, the README)."""
        lines = [plain_text(self.title)]
        for block in (*self.blocks, *self.back):
            lines += block.text()
        return "\n".join(lines)

    def document_text(self) -> str:
        """The words as a plain-text document to read (a kit's rules.txt): the title and the headings underlined,
        a blank line after each paragraph and after each table."""
        title = plain_text(self.title)
        out = [title, "=" * len(title), ""]
        for block in (*self.blocks, *self.back):
            if block.heading:
                heading = plain_text(block.heading)
                out += [heading, "-" * len(heading)]
            for paragraph in block.paragraphs:
                out += [plain_text(paragraph), ""]
            if block.table is not None:
                out += [" | ".join(plain_text(c) if isinstance(c, str) else "" for c in row)
                        for row in block.table.rows] + [""]
            for paragraph in block.after:
                out += [plain_text(paragraph), ""]
        return "\n".join(out)


@dataclass(frozen=True)
class LeafletLayout:
    """How a leaflet was set: the body size, the panels with text, the panels printed (a whole number of
    sheets) and the printed sides."""

    body_pt: float
    panels: int
    printed_panels: int
    sheet_sides: int
    sheets: int


# ------------------------------------------------------------------------------------------ the style sheet


@dataclass(frozen=True)
class Styles:
    """The one style sheet, all from the body size."""

    body_pt: float
    title: ParagraphStyle
    heading: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    parsed: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """Paragraphs parsed in these styles (``_Paragraph``), for a fit that sets the same words in one style sheet
    again and again (each trial, each paper)."""
    items: dict[tuple[str, str], ParagraphStyle] = field(default_factory=dict, compare=False, repr=False)
    """The list items' styles, by (base style, mark)."""

    @property
    def smallest_pt(self) -> float:
        return min(s.fontSize for s in (self.title, self.heading, self.body, self.small, self.cell,
                                        self.cell_bold))


def styles(body_pt: float, accent: str = INK) -> Styles:
    """The style sheet for ``body_pt``: body leading 1.27, headings 2.2 pt larger, the title 1.8 x, table cells
    0.5 pt and small print 1 pt under the body."""
    family = register_fonts()
    ink, colour = colors.HexColor(INK), colors.HexColor(accent)
    body = ParagraphStyle("body", fontName=family, fontSize=body_pt, leading=body_pt * 1.27, textColor=ink,
                          spaceAfter=body_pt * 0.35, allowWidows=0, allowOrphans=0)
    title_pt = round(body_pt * 1.8 * 2) / 2
    cell_pt = body_pt - CELL_BELOW_BODY_PT
    small_pt = body_pt - SMALL_BELOW_BODY_PT
    return Styles(
        body_pt,
        title=ParagraphStyle("title", body, fontName=family + "-Bold", fontSize=title_pt, leading=title_pt * 1.24,
                             textColor=colour, spaceAfter=body_pt * 0.5),
        heading=ParagraphStyle("heading", body, fontName=family + "-Bold", fontSize=body_pt + 2.2,
                               leading=body_pt + 4.5, textColor=colour, spaceBefore=body_pt * 0.45, spaceAfter=2),
        body=body,
        small=ParagraphStyle("small", body, fontSize=small_pt, leading=small_pt * 1.22),
        cell=ParagraphStyle("cell", body, fontSize=cell_pt, leading=cell_pt * 1.2, spaceAfter=0),
        cell_bold=ParagraphStyle("cell_bold", body, fontName=family + "-Bold", fontSize=cell_pt,
                                 leading=cell_pt * 1.2, spaceAfter=0),
    )


@lru_cache(maxsize=16)
def _sheet(body_pt: float, accent: str) -> Styles:
    """``styles(body_pt, accent)`` made once: the fit's trials share it and the paragraphs it has parsed."""
    return styles(body_pt, accent)


# ------------------------------------------------------------------------------------------ pictures


_RENDERER_DEFAULTS = threading.Lock()


class DrawingFlowable(Flowable):  # type: ignore[misc]
    """A reportlab Drawing drawn with the leaflet's font as the renderer's default (its stock default,
    Helvetica, would be referenced and not embedded)."""

    def __init__(self, drawing: Drawing) -> None:
        super().__init__()
        self.drawing = drawing
        self.width, self.height = drawing.width, drawing.height

    def draw(self) -> None:
        from reportlab.graphics import renderPDF, shapes

        with _RENDERER_DEFAULTS:  # reportlab's defaults are global: one drawing at a time swaps them
            saved = shapes.STATE_DEFAULTS["fontName"]
            shapes.STATE_DEFAULTS["fontName"] = register_fonts()
            try:
                renderPDF.draw(self.drawing, self.canv, 0, 0)
            finally:
                shapes.STATE_DEFAULTS["fontName"] = saved


@dataclass(frozen=True)
class _Slot:
    """Where a PDF picture landed: panel (1-based) and its box in points from the panel's bottom left."""

    pdf: bytes
    page: int
    panel: int
    x_pt: float
    y_pt: float
    width_pt: float
    height_pt: float


class PdfPicture(Flowable):  # type: ignore[misc]
    """A page of a PDF drawn elsewhere (cairo vectors), ``width`` x ``height`` pt: platypus keeps its place
    empty and remembers where, and the imposition lays the page over it."""

    def __init__(self, pdf: bytes, page: int, width: float, height: float) -> None:
        super().__init__()
        self.pdf, self.page, self.width, self.height = pdf, page, width, height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab API)
        return self.width, self.height

    def draw(self) -> None:
        x, y = self.canv.absolutePosition(0, 0)
        slots: list[_Slot] = self.canv._doctemplate.leaflet_slots
        slots.append(_Slot(self.pdf, self.page, self.canv.getPageNumber(), x, y, self.width, self.height))


def scene_picture(scene: Scene, width_mm: float, height_mm: float, dpi: float = 90.0) -> Picture:
    """A picture of ``scene`` (``width_mm`` x ``height_mm`` in its own mm, e.g. a whole board) as wide as it is
    given, drawn as a raster at ``dpi``: a texture this small needs no vectors. Texts that would print under
    the leaflet's smallest size at that width are left out: unreadable, they would only be noise."""
    drawn: dict[float, bytes] = {}

    def make(width_pt: float) -> Flowable:
        from boardgen.render.cairo_backend import Page, render_png

        printed_per_scene_mm = width_pt / mm / width_mm
        if width_pt not in drawn:
            small = scene.without_text_under(MIN_TEXT_PT * PT / printed_per_scene_mm)
            drawn[width_pt] = render_png(Page(width_mm, height_mm, small), dpi=dpi)
        return PlatypusImage(io.BytesIO(drawn[width_pt]), width=width_pt, height=width_pt * height_mm / width_mm)

    return Picture(make)


def pdf_picture(pdf: bytes, page: int, aspect: float, size_pt: float | None = None) -> Picture:
    """A picture of page ``page`` (0-based) of ``pdf``, ``aspect`` = height / width; as wide as it is given, or
    ``size_pt`` wide (a table icon)."""

    def make(width_pt: float) -> Flowable:
        w = size_pt if size_pt is not None else width_pt
        return PdfPicture(pdf, page, w, w * aspect)

    return Picture(make)


class _Stand(Flowable):  # type: ignore[misc]
    """A trial's stand-in for a fixed-size picture it has made once at that width (``Picture.sizes``): a box of
    the picture's size, as unsplittable and as far from its neighbours, that makes and draws nothing. A picture
    can take a while to make (a raster drawn with cairo); a trial needs only its size."""

    def __init__(self, width: float, height: float) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.hAlign = "CENTER"

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab API)
        return self.width, self.height


def _picture(picture: Picture, width: float, shrink: float = 0.0, trial: bool = False) -> Flowable:
    """The picture ``width`` wide (its share of it); in a ``trial``, a ``_Stand`` when its size is known."""
    width_pt = width * picture.share_at(shrink)
    if trial and width_pt in picture.sizes:
        return _Stand(*picture.sizes[width_pt])
    made = picture.make(width_pt)
    flowable = DrawingFlowable(made) if isinstance(made, Drawing) else made
    flowable.hAlign = "CENTER"
    if trial and type(flowable) in (DrawingFlowable, PdfPicture, PlatypusImage):  # fixed sizes: wrap ignores the room
        picture.sizes[width_pt] = flowable.wrap(width_pt, 0.0)
    return flowable


# ------------------------------------------------------------------------------------------ blocks to flowables


class _Mark(Flowable):  # type: ignore[misc]
    """Zero-size: records on which panel a block began (to name the block to shorten)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
        self.width = self.height = 0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab API)
        return 0, 0

    def draw(self) -> None:
        self.canv._doctemplate.leaflet_marks.setdefault(self.index, self.canv.getPageNumber())


PARSED_KEPT = 5_000
"""How many parsed paragraphs a style sheet keeps before it forgets them all (a long-running server)."""


def _cloned(parsed: Any) -> Any:
    """A copy of parsed fragments (a list of reportlab ParaFrags) that layout may change, or ``parsed`` as it is
    (a bullet's text, None)."""
    return [frag.clone() for frag in parsed] if isinstance(parsed, list) else parsed


class _Paragraph(Paragraph):  # type: ignore[misc]
    """A reportlab paragraph that does not repeat work whose result it already has:

    - **parsing**: given its style sheet's ``parsed`` store, the same markup in the same style is parsed once;
      each paragraph gets its own copy of the fragments (markup with ``<seq>`` counters is always parsed);
    - **line breaking**: wrapped again at the width it was last wrapped at, it keeps its lines (unless a split
      dropped them): reportlab wraps a paragraph to measure it (a table's cell, a block kept together) and again
      to place or draw it, and breaking its lines again gives the same lines. The parts of a split paragraph
      are ``_Paragraph`` too."""

    text: Any
    frags: Any
    style: Any
    bulletText: Any  # noqa: N815 (reportlab's)
    _wrapped: tuple[float, tuple[float, float]] | None = None
    _parsed: dict[Any, Any] | None = None

    def __init__(self, text: str | None, style: ParagraphStyle, bulletText: Any = None, frags: Any = None,  # noqa: N803
                 parsed: dict[Any, Any] | None = None, **kwargs: Any) -> None:
        if parsed is not None:
            self._parsed = parsed
        super().__init__(text, style, bulletText, frags, **kwargs)

    def _setup(self, text: Any, style: ParagraphStyle, bulletText: Any, frags: Any, cleaner: Any) -> None:  # noqa: N803
        store = self._parsed
        if frags is not None or store is None or not isinstance(text, str) or "<seq" in text:
            super()._setup(text, style, bulletText, frags, cleaner)
            return
        key = (text, bulletText, style, self.caseSensitive)
        hit = store.get(key)
        if hit is None:
            super()._setup(text, style, bulletText, frags, cleaner)
            if len(store) >= PARSED_KEPT:
                store.clear()
            store[key] = (self.text, _cloned(self.frags), self.style, _cloned(self.bulletText))
            return
        self.text = hit[0]
        self.frags = _cloned(hit[1])
        self.style = hit[2]
        self.bulletText = _cloned(hit[3])
        self.debug = 0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab API)
        if (self._wrapped is not None and self._wrapped[0] == availWidth and "blPara" in self.__dict__
                and not self.style.wordWrap):  # (a split that moves it all on drops its lines; RTL reverses them)
            return self._wrapped[1]
        size: tuple[float, float] = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, size)
        return size


_LIST_ITEM = re.compile(r"^(• |\d{1,3}\. )")
"""A paragraph that starts like this is a list item: it hangs from its bullet or number."""


def _paragraph(text: str, st: Styles, small: bool) -> Paragraph:
    item = _LIST_ITEM.match(text)
    base = st.small if small else st.body
    if item is None:
        return _Paragraph(text, base, parsed=st.parsed)
    mark = item.group(1).strip()
    style = st.items.get((base.name, mark))
    if style is None:
        indent = base.fontSize * (1.1 if mark == "•" else 0.65 * len(mark) + 0.5)
        style = st.items[base.name, mark] = ParagraphStyle(
            f"{base.name}-item-{len(mark)}", base, leftIndent=indent, bulletIndent=0, bulletFontName=base.fontName,
            bulletFontSize=base.fontSize)
    return _Paragraph(text[item.end():], style, bulletText=mark, parsed=st.parsed)


def _table(table: Table, st: Styles, width: float, where: str, trial: bool = False) -> PlatypusTable:
    ncols = max(len(r) for r in table.rows)
    weights = table.weights or (1.0,) * ncols
    if len(weights) != ncols:
        raise ValueError(f"{where}: the table has {ncols} columns and {len(weights)} weights")
    total = sum(weights)
    widths = [width * w / total for w in weights]
    words = [[c if isinstance(c, str) else "" for c in row] for row in table.rows]
    head_font = st.cell_bold.fontName if table.header else st.cell.fontName
    widths = fitted_column_widths(words, widths, [head_font, st.cell.fontName], st.cell.fontSize, 4.0,
                                  where, by_word=True,
                                  first_column_font=st.cell_bold.fontName if table.bold_first_column else None)
    data: list[list[Any]] = []
    for r, row in enumerate(table.rows):
        cells: list[Any] = []
        for c, cell in enumerate(row):
            if isinstance(cell, Picture):
                cells.append(_picture(cell, widths[c] - 4.0, trial=trial))
            else:
                bold = (table.header and r == 0) or (table.bold_first_column and c == 0)
                cells.append(_Paragraph(cell, st.cell_bold if bold else st.cell, parsed=st.parsed))
        cells += [""] * (ncols - len(cells))
        data.append(cells)
    t = PlatypusTable(data, colWidths=widths, hAlign="LEFT", repeatRows=1 if table.header else 0,
                      spaceAfter=st.body_pt * TABLE_SPACE_AFTER)
    style: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT), ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor(TABLE_RULE)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
    if table.header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(TABLE_HEAD)))
    if table.centre_first_column:
        style.append(("ALIGN", (0, 1 if table.header else 0), (0, -1), "CENTER"))
    t.setStyle(TableStyle(style))
    return t


def block_flowables(block: Block, st: Styles, width: float, where: str, shrink: float = 0.0, trial: bool = False
                    ) -> list[Flowable]:
    """A block's flowables: a heading stays with its first paragraph, a table with the paragraph that leads into
    it, a boxed or ``keep_together`` block is never split; no paragraph leaves one line alone on a panel.
    ``shrink``: how far its picture is shrunk towards its ``min_share`` (0 to 1). ``trial``: for a trial layout
    (pictures it has made once stand as boxes of their size)."""
    boxed = bool(block.box)
    inner = width - (8 if boxed else 0)
    where = f"{where}: the block {_block_name(block)!r}"
    heading = [_Paragraph(block.heading, st.heading, parsed=st.parsed)] if block.heading else []
    # units: flowables that stay on one panel (a paragraph, and the picture after it with the paragraph that
    # leads into it, as a table does); never a KeepTogether inside another (reportlab's would never fit)
    units: list[list[Flowable]] = [[_paragraph(p, st, block.small)] for p in block.paragraphs]
    if block.picture is not None:
        at = len(units) if block.picture_after < 0 else min(block.picture_after, len(units))
        picture = [Spacer(1, 2), _picture(block.picture, inner, shrink, trial), Spacer(1, 3)]
        if at > 0:
            units[at - 1] = [*units[at - 1], *picture]
        else:
            units.insert(0, picture)
    paragraphs: list[Flowable] = [f for unit in units for f in unit]
    table = [_table(block.table, st, inner, where, trial)] if block.table is not None else []
    after: list[Flowable] = [_paragraph(p, st, block.small) for p in block.after]
    head: list[Flowable] = [PageBreak()] if block.new_panel else []
    if boxed:
        box = PlatypusTable([[[*heading, *paragraphs, *table, *after]]], colWidths=[width])
        style: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, -1), FONT), ("LEFTPADDING", (0, 0), (-1, -1), 4),
            ("RIGHTPADDING", (0, 0), (-1, -1), 4), ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]
        if block.box == "shaded":
            style.append(("BACKGROUND", (0, 0), (-1, -1), colors.HexColor(SHADED)))
        else:
            style += [("BACKGROUND", (0, 0), (-1, -1), colors.HexColor(FRAMED)),
                      ("BOX", (0, 0), (-1, -1), 1.0, colors.HexColor(INK))]
        box.setStyle(TableStyle(style))
        return [*head, box, Spacer(1, 4)]
    if block.keep_together:
        return [*head, KeepTogether([*heading, *paragraphs, *table, *after])]
    if table:  # the table stays with the paragraph that leads into it (and the heading, if that is all)
        lead = [f for unit in units[-1:] for f in unit]
        before = units[:-1]
        if before:
            return [*head, KeepTogether([*heading, *before[0]]), *_kept(before[1:]), KeepTogether([*lead, *table]),
                    *after]
        return [*head, KeepTogether([*heading, *lead, *table]), *after]
    body = [*units, *([p] for p in after)]
    return [*head, KeepTogether([*heading, *(body[0] if body else [])]), *_kept(body[1:])]


def _kept(units: Sequence[list[Flowable]]) -> list[Flowable]:
    """Each unit as one flowable: alone, or kept together when it is more than one."""
    return [unit[0] if len(unit) == 1 else KeepTogether(unit) for unit in units]


# ------------------------------------------------------------------------------------------ panels


@dataclass(frozen=True)
class PanelGeometry:
    """A panel of ``paper`` folded by ``fold``: its size and its text frame, in mm."""

    fold: Fold
    sheet: Paper

    @property
    def width_mm(self) -> float:
        return self.sheet.width_mm / self.fold.across

    @property
    def height_mm(self) -> float:
        return self.sheet.height_mm

    @property
    def text_width_mm(self) -> float:
        return self.width_mm - 2 * self.fold.side_mm

    @property
    def text_height_mm(self) -> float:
        return self.height_mm - self.fold.top_mm - self.fold.bottom_mm


def panel_geometry(fold: Fold, paper: Paper) -> PanelGeometry:
    """The panels of ``paper`` (either way round) folded by ``fold``."""
    return PanelGeometry(fold, paper.landscape() if fold.landscape else paper.portrait())


class _TooLongError(Exception):
    """A trial layout began a panel past the most it may use."""


class _Doc(BaseDocTemplate):  # type: ignore[misc]
    leaflet_slots: list[_Slot]
    leaflet_marks: dict[int, int]


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


class _TrialFrame(Frame):  # type: ignore[misc]
    """A panel's frame that places flowables without drawing them, for a trial layout: reportlab wraps, splits
    and keeps them together exactly as in the frame that draws (what goes where never depends on the drawing),
    but nothing is drawn and no PDF is written. Only a ``_Mark`` is drawn: it records the panel its block began
    on. A trial needs only the panels the words take; the setting kept is set again, drawn."""

    def add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> Any:  # noqa: N803 (reportlab API)
        if isinstance(flowable, _Mark):
            return self._add(flowable, canv, trySplit)
        flowable.drawOn = _nothing  # hides the method for this one placement
        try:
            return self._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn


_Panels = tuple[bytes, int, list[_Slot], dict[int, int]]
"""What ``_panels`` sets: (pdf, panels, picture slots, the panel each block began on)."""


def _panels(leaflet: Leaflet, blocks: Sequence[Block], geometry: PanelGeometry, body_pt: float,
            max_panels: int | None, where: str, cover: bool, marks: dict[int, int] | None = None,
            shrink: float = 0.0, drawn: bool = True) -> _Panels | None:
    """``blocks`` set in ``body_pt`` (their pictures shrunk by ``shrink``), one panel a page: (pdf, panels,
    picture slots, panel each block began on); None as soon as a panel past ``max_panels`` begins (``marks``
    then gets the panels the blocks set so far began on). ``drawn=False``: a trial (``_TrialFrame``), the
    same panels and marks but no pdf and no slots."""
    st = _sheet(body_pt, leaflet.accent)
    width = geometry.text_width_mm * mm
    frame = (Frame if drawn else _TrialFrame)(
        geometry.fold.side_mm * mm, geometry.fold.bottom_mm * mm, width, geometry.text_height_mm * mm,
        id="panel", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)

    def on_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        if max_panels is not None and doc.page > max_panels:
            raise _TooLongError

    buf = io.BytesIO()
    doc = _Doc(buf, pagesize=(geometry.width_mm * mm, geometry.height_mm * mm), invariant=1,
               initialFontName=register_fonts(), title=pdf_title(leaflet), author="boardgen", creator="boardgen")
    doc.leaflet_slots, doc.leaflet_marks = [], {}
    doc._doSave = drawn  # a trial writes no PDF
    doc.addPageTemplates([PageTemplate("panel", [frame], onPage=on_page)])
    story: list[Flowable] = [_Paragraph(leaflet.title, st.title, parsed=st.parsed)] if cover else []
    for i, block in enumerate(blocks):
        story += [_Mark(i), *block_flowables(block, st, width, where, shrink, trial=not drawn)]
    if not story:
        story = [Spacer(1, 1)]
    try:
        doc.build(story)
    except _TooLongError:
        if marks is not None:
            marks.update(doc.leaflet_marks)
        return None
    except PlatypusLayoutError as exc:  # a flowable taller than a whole panel
        index = max(doc.leaflet_marks, default=-1) + 1
        index = min(index, len(blocks) - 1)
        name = _block_name(blocks[index]) if blocks else ""
        raise FitError(f"{where}: the block {name!r} is taller than a panel at {body_pt:g} pt; shorten it or "
                       "split it into blocks") from exc
    if not drawn:
        return b"", doc.page, [], doc.leaflet_marks
    return buf.getvalue(), doc.page, doc.leaflet_slots, doc.leaflet_marks


@dataclass(frozen=True)
class _Set:
    body_pt: float
    main: _Panels
    back: _Panels | None

    @property
    def panels(self) -> int:
        return self.main[1] + (self.back[1] if self.back else 0)


def pdf_title(leaflet: Leaflet) -> str:
    """The PDF's title: ``leaflet.document``, or "<title>: rules" in the edition's language."""
    return leaflet.document or current().gettext("{title}: rules").format(title=plain_text(leaflet.title))


def _where(leaflet: Leaflet, paper: Paper) -> str:
    return f"{leaflet.source}: leaflet ({paper.name}, language {current().language})"


@dataclass(frozen=True)
class _Choice:
    """How the words fit (found by trials, nothing drawn): the body size, how far the pictures are shrunk,
    whether the back matter is set by itself on the last panels (else it follows the text), the panels used."""

    body_pt: float
    shrink: float
    back_apart: bool
    panels: int


def _choose(leaflet: Leaflet, paper: Paper, body_pt: float, max_panels: int, shrink: float = 0.0
            ) -> _Choice | None:
    """Whether the words in ``body_pt`` (pictures shrunk by ``shrink``) fit ``max_panels`` panels, and how (trial
    layouts only), or None. The back matter follows the text; when that leaves the last panel empty, it is set
    on the last panel by itself (the back cover)."""
    geometry = panel_geometry(leaflet.fold, paper)
    where = _where(leaflet, paper)
    both = (*leaflet.blocks, *leaflet.back)
    flow = _panels(leaflet, both, geometry, body_pt, max_panels, where, cover=True, shrink=shrink, drawn=False)
    if flow is None:
        return None
    if not leaflet.back or flow[1] == max_panels:
        return _Choice(body_pt, shrink, False, flow[1])
    back = _panels(leaflet, leaflet.back, geometry, body_pt, max_panels, where, cover=False, shrink=shrink,
                   drawn=False)
    main = _panels(leaflet, leaflet.blocks, geometry, body_pt, max_panels, where, cover=True, shrink=shrink,
                   drawn=False)
    if back is None or main is None or main[1] + back[1] > max_panels:
        return _Choice(body_pt, shrink, False, flow[1])
    return _Choice(body_pt, shrink, True, main[1] + back[1])


def _set(leaflet: Leaflet, paper: Paper, choice: _Choice, max_panels: int) -> _Set:
    """The words set as ``choice`` says, drawn."""
    geometry = panel_geometry(leaflet.fold, paper)
    where = _where(leaflet, paper)

    def drawn(blocks: Sequence[Block], cover: bool) -> _Panels:
        made = _panels(leaflet, blocks, geometry, choice.body_pt, max_panels, where, cover, shrink=choice.shrink)
        if made is None:  # the trial that chose this setting fitted: drawing it the same way must fit too
            raise RuntimeError(f"{where}: the leaflet's drawn setting does not fit where its trial fitted")
        return made

    if not choice.back_apart:
        made = _Set(choice.body_pt, drawn((*leaflet.blocks, *leaflet.back), True), None)
    else:
        made = _Set(choice.body_pt, drawn(leaflet.blocks, True), drawn(leaflet.back, False))
    if made.panels != choice.panels:
        raise RuntimeError(f"{where}: the leaflet's drawn setting takes {made.panels} panels, its trial "
                           f"{choice.panels}")
    return made


PICTURE_SHRINKS = (0.25, 0.5, 0.75, 1.0)
"""How far shrinkable pictures (``Picture.min_share``) are shrunk, in turn, when the words fit no size of the
sheets tried: a quarter of the way to their least share at a time, the text at its smallest size."""


def _shrinkable(leaflet: Leaflet) -> bool:
    return any(b.picture is not None and b.picture.min_share is not None for b in (*leaflet.blocks, *leaflet.back))


def _fit(leaflet: Leaflet, paper: Paper, sheets: int) -> _Set | None:
    """The largest body size that sets the words on ``sheets`` sheets of ``paper``; when none does, the smallest
    size with the pictures shrunk as little as ``PICTURE_SHRINKS`` allows; else None."""
    tries = [(body_pt, 0.0) for body_pt in leaflet.body_sizes_pt]
    if _shrinkable(leaflet):
        tries += [(min(leaflet.body_sizes_pt), shrink) for shrink in PICTURE_SHRINKS]
    max_panels = sheets * leaflet.fold.per_sheet
    for body_pt, shrink in tries:
        try:
            choice = _choose(leaflet, paper, body_pt, max_panels, shrink)
        except FitError:  # a table too wide or a block too tall at this size: a smaller one may do
            continue
        if choice is not None:
            return _set(leaflet, paper, choice, max_panels)
    return None


def _most_compact(leaflet: Leaflet, paper: Paper, max_panels: int, marks: dict[int, int] | None = None
                  ) -> _Panels | None:
    """The words' flow (back matter included) at the smallest size, the pictures shrunk as far as they may be:
    if they fit ``max_panels`` panels at all, they fit so (``_panels``' trial result)."""
    return _panels(leaflet, (*leaflet.blocks, *leaflet.back), panel_geometry(leaflet.fold, paper),
                   min(leaflet.body_sizes_pt), max_panels, _where(leaflet, paper), cover=True, marks=marks,
                   shrink=1.0, drawn=False)


def _fits_at_all(leaflet: Leaflet, paper: Paper, sheets: int) -> bool:
    """Whether the words fit ``sheets`` sheets of ``paper`` at some size (``_most_compact``). Only the words'
    flow is set (``_choose`` is None exactly when it is): where the back matter goes does not matter here."""
    try:
        return _most_compact(leaflet, paper, sheets * leaflet.fold.per_sheet) is not None
    except FitError:
        return False


def _block_name(block: Block) -> str:
    return plain_text(block.heading or (block.paragraphs or ("",))[0])[:40]


def _capacity_chars(leaflet: Leaflet, paper: Paper) -> float:
    """Three times the characters the most sheets allowed could hold at the smallest size (characters half
    an em wide, lines at the body's leading): words longer than this cannot fit, whatever they are."""
    geometry = panel_geometry(leaflet.fold, paper)
    body_pt = min(leaflet.body_sizes_pt)
    per_line = geometry.text_width_mm * mm / (0.5 * body_pt)
    lines = geometry.text_height_mm * mm / (1.27 * body_pt)
    return 3 * per_line * lines * max(leaflet.sheets) * leaflet.fold.per_sheet


def _too_long(leaflet: Leaflet, papers: Sequence[Paper]) -> FitError:
    """The one-line error when nothing fits on one of ``papers`` (the first it fails on): the block that runs
    past the last panel at the smallest size. Bounded: never sets more than the panels allowed plus one."""
    most = max(leaflet.sheets) * leaflet.fold.per_sheet
    smallest = min(leaflet.body_sizes_pt)
    both = (*leaflet.blocks, *leaflet.back)
    index, paper, about = len(both) - 1, papers[0], ""
    for paper in papers:
        room = _capacity_chars(leaflet, paper)
        counts = [sum(len(plain_text(w)) for w in block.words()) for block in both]
        if sum(counts) > room:  # words far too long: not set, the block named from the estimated room
            total = 0
            for index, count in enumerate(counts):  # noqa: B007 - the index is the answer
                total += count
                if total > room / 3:
                    break
            about = "about "
        else:
            marks: dict[int, int] = {}
            try:
                fits = _most_compact(leaflet, paper, most, marks) is not None
            except FitError as exc:
                return exc  # a table or block that does not fit a whole panel even at the smallest size
            if fits:
                continue  # this paper holds them: the other one does not
            index = max((i for i, panel in marks.items() if panel <= most), default=0)
        break
    fold, most_units = leaflet.fold, max(leaflet.sheets)
    units = fold.unit + ("s" if most_units > 1 else "")
    return FitError(f"{_where(leaflet, paper)}: the words do not fit {most_units} {units} ({fold.name}, {most} "
                    f"{fold.panel}s) even at {smallest:g} pt: the text runs past the last {fold.panel} in {about}the "
                    f"block {_block_name(both[index])!r}; shorten it or the blocks before it")


def fitted(leaflet: Leaflet, paper: Paper) -> tuple[int, _Set]:
    """(sheets, the set words) for ``paper``: the fewest sheets of ``leaflet.sheets`` on which the words fit on
    every paper of ``leaflet.papers`` (so A4 and Letter have the same panels), at the largest size that fits
    this paper; a picture that may shrink (``Picture.min_share``) is shrunk, the text at its smallest size,
    rather than print another sheet. A FitError when no sheet count holds them."""
    others = [p for p in leaflet.papers if p.name != paper.name]
    if sum(len(plain_text(w)) for b in (*leaflet.blocks, *leaflet.back) for w in b.words()) > min(
            _capacity_chars(leaflet, p) for p in (paper, *others)):
        raise _too_long(leaflet, [paper, *others])  # without setting words far too long at every size
    for sheets in leaflet.sheets:
        if not all(_fits_at_all(leaflet, other, sheets) for other in others):
            continue  # asked first: one setting each, where this paper's fit may try every size
        made = _fit(leaflet, paper, sheets)
        if made is not None:
            return sheets, made
    raise _too_long(leaflet, [paper, *others])


# ------------------------------------------------------------------------------------------ the sheet


def _sides(fold: Fold, printed_panels: int) -> list[tuple[int, ...]]:
    """The panels (1-based) on each printed side, left to right, in printing order."""
    if fold.order == "booklet":
        return [tuple(side) for side in booklet_order(printed_panels)]
    return [tuple(range(s * fold.across + 1, (s + 1) * fold.across + 1))
            for s in range(printed_panels // fold.across)]


def _printing_note(fold: Fold, sides: int) -> str:
    _ = current().gettext
    if sides == 1:
        return _("Print at 100%: this bar must measure 100 mm.")
    if fold.flip_edge == "short":
        return _("Print at 100%: this bar must measure 100 mm. Double-sided, flip on the short edge.")
    return _("Print at 100%: this bar must measure 100 mm. Double-sided, flip on the long edge.")


FOLD_NOTES = (N_("fold · sheet {n}, outside"), N_("fold · sheet {n}, inside"))


def _decor(leaflet: Leaflet, geometry: PanelGeometry, sides: Sequence[tuple[int, ...]], used: set[int]) -> bytes:
    """One page per printed side: fold marks and notes, the numbers of the ``used`` panels, the ruler and
    printing note (first side). Everything at least 5 mm from the paper edge."""
    register_fonts()
    fold, sheet = leaflet.fold, geometry.sheet
    w, h = sheet.width_mm * mm, sheet.height_mm * mm
    panel_w = geometry.width_mm * mm
    _ = current().gettext
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=FONT)
    c.setTitle(pdf_title(leaflet))
    x0, y0 = fold.side_mm * mm, 9.5 * mm
    ruler_end = x0 + RULER_MM * mm
    printing = _printing_note(fold, len(sides))
    taken = max(ruler_end, x0 + pdfmetrics.stringWidth(printing, FONT, DECOR_PT)) + 3 * mm
    for index, side in enumerate(sides):
        sheet_no, inside = divmod(index, 2)
        if fold.folded:
            c.setLineWidth(0.4)
            c.setDash(2, 2)
            for k in range(1, fold.across):
                x = k * panel_w
                top, bottom = FOLD_MARK_FROM_EDGE_MM * mm, (FOLD_MARK_FROM_EDGE_MM + FOLD_MARK_MM) * mm
                c.line(x, h - top, x, h - bottom)
                if not (index == 0 and x <= taken):  # a panel narrower than the ruler and its note: the fold
                    c.line(x, top, x, bottom)         # is marked at the top only, not through the note
            c.setDash()
            c.setFont(FONT, DECOR_PT)
            note = _(FOLD_NOTES[inside]).format(n=sheet_no + 1)
            c.drawString(panel_w + 1.5 * mm, h - 7 * mm, note)
        ruler = index == 0
        if ruler:
            c.setLineWidth(0.3)
            c.line(x0, y0, ruler_end, y0)
            for k in range(0, int(RULER_MM) + 1):
                tick = 2.6 if k % 10 == 0 else 1.8 if k % 5 == 0 else 1.0
                c.line(x0 + k * mm, y0, x0 + k * mm, y0 + tick * mm)
            c.setFont(FONT, DECOR_PT)
            for k in (0, 50, 100):
                c.drawCentredString(x0 + k * mm, y0 + 3.2 * mm, str(k))
            c.drawString(x0, y0 - 3.4 * mm, printing)
        c.setFont(FONT, PANEL_NUMBER_PT)
        if not fold.folded:  # pages read one after another: the page is numbered, not its columns (a lone
            if len(sides) > 1:  # page's first column stood under the ruler, its second numbered "2")
                c.drawRightString(w - fold.side_mm * mm, 6 * mm, str(index + 1))
            c.showPage()
            continue
        for slot, number in enumerate(side):
            if number not in used:
                continue
            x = (slot + 1) * panel_w - fold.side_mm * mm
            width = pdfmetrics.stringWidth(str(number), FONT, PANEL_NUMBER_PT)
            if ruler and x - width <= taken:
                continue  # the ruler and its note take that corner
            c.drawRightString(x, 6 * mm, str(number))
        c.showPage()
    c.save()
    return buf.getvalue()


def _impose(leaflet: Leaflet, geometry: PanelGeometry, made: _Set, sheets: int, paper: Paper) -> bytes:
    printed = sheets * leaflet.fold.per_sheet
    main_bytes, main_count, main_slots, _m = made.main
    back_count = made.back[1] if made.back else 0
    # panel number -> (source pdf, page index in it, slots on it)
    where: dict[int, tuple[int, int]] = {n: (0, n - 1) for n in range(1, main_count + 1)}
    if made.back:
        first_back = printed - back_count + 1
        where.update({first_back + k: (1, k) for k in range(back_count)})
    slots = {0: main_slots, 1: made.back[2] if made.back else []}
    sides = _sides(leaflet.fold, printed)
    decor = pikepdf.open(io.BytesIO(_decor(leaflet, geometry, sides, set(where))))
    sources = [pikepdf.open(io.BytesIO(main_bytes))]
    if made.back:
        sources.append(pikepdf.open(io.BytesIO(made.back[0])))
    arts: dict[bytes, pikepdf.Pdf] = {}
    out = pikepdf.new()
    w, h = geometry.sheet.width_mm * mm, geometry.sheet.height_mm * mm
    panel_w = geometry.width_mm * mm
    for index, side in enumerate(sides):
        out.pages.append(decor.pages[index])
        page = out.pages[-1]
        page.contents_coalesce()
        placed: list[bytes] = []

        def place(src: pikepdf.Page, rect: pikepdf.Rectangle, name: str, page: pikepdf.Page = page,
                  placed: list[bytes] = placed) -> None:
            # like Page.add_overlay, but with stable resource names (add_overlay picks random ones)
            formx = out.copy_foreign(src.as_form_xobject())
            key = page.add_resource(formx, pikepdf.Name.XObject, pikepdf.Name("/" + name))
            placement = page.calc_form_xobject_placement(formx, key, rect, invert_transformations=True,
                                                         allow_shrink=True, allow_expand=True)
            placed.append(b"q\n" + placement + b"\nQ\n")

        for slot_index, number in enumerate(side):
            if number not in where:
                continue
            source, at = where[number]
            x = slot_index * panel_w
            place(sources[source].pages[at], pikepdf.Rectangle(x, 0, x + panel_w, h), f"Panel{number}")
            for i, s in enumerate(s for s in slots[source] if s.panel == at + 1):
                if s.pdf not in arts:
                    arts[s.pdf] = pikepdf.open(io.BytesIO(s.pdf))
                place(arts[s.pdf].pages[s.page], pikepdf.Rectangle(x + s.x_pt, s.y_pt, x + s.x_pt + s.width_pt,
                                                                   s.y_pt + s.height_pt), f"Art{number}x{i}")
        page.contents_add(pikepdf.Stream(out, b"q\n"), prepend=True)
        page.contents_add(pikepdf.Stream(out, b"Q\n" + b"".join(placed)))
        box = pikepdf.Array([0, 0, round(w, 3), round(h, 3)])
        page.obj.MediaBox = box
        page.obj.TrimBox = box
        page.obj.BleedBox = box
    out.docinfo["/Title"] = pdf_title(leaflet)
    out.docinfo["/Author"] = "boardgen"
    out.docinfo["/Creator"] = "boardgen"
    subject = f"{leaflet.subject} " if leaflet.subject else ""
    out.docinfo["/Subject"] = f"{subject}rules leaflet ({paper.name}), {leaflet.fold.name}, {printed} panels"
    retag_subsets(out)
    buf = io.BytesIO()
    out.save(buf, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buf.getvalue()


def leaflet_layout(leaflet: Leaflet, paper: Paper) -> tuple[bytes, LeafletLayout]:
    """The leaflet on ``paper``: (pdf bytes, how it was set). A character no font has is a one-line error
    naming the template and the text, before anything is set."""
    check_glyphs([leaflet.title, *(line for b in (*leaflet.blocks, *leaflet.back) for line in b.words())],
                 register_fonts(), _where(leaflet, paper))
    sheets, made = fitted(leaflet, paper)
    geometry = panel_geometry(leaflet.fold, paper)
    data = _impose(leaflet, geometry, made, sheets, paper)
    printed = sheets * leaflet.fold.per_sheet
    sides = len(_sides(leaflet.fold, printed))
    return data, LeafletLayout(made.body_pt, made.panels, printed, sides, sheets)


def leaflet_pdf(leaflet: Leaflet, paper: Paper) -> tuple[bytes, int]:
    """The leaflet on ``paper``: (pdf bytes, printed sides), as a kit's leaflet stage wants it."""
    data, layout = leaflet_layout(leaflet, paper)
    return data, layout.sheet_sides


__all__ = ["BODY_SIZES_PT", "COLUMNS", "FLOOR_BODY_PT", "HALF_FOLD", "TRI_FOLD", "Block", "Cell", "DrawingFlowable",
           "Fold", "Leaflet", "LeafletLayout", "PanelGeometry", "PdfPicture", "Picture", "Styles", "Table",
           "fitted", "leaflet_layout", "leaflet_pdf", "panel_geometry", "pdf_picture", "pdf_title",
           "styles"]
