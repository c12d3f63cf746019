"""A board's kit files, the same for every game with a board (``boardgen.kit.shape``), whatever cut its
sections: ``board-poster.pdf`` (CMYK PDF/X-4 with the FOGRA39 OutputIntent, for a print shop),
``board-poster-rgb.pdf`` (the same page in RGB), ``board-sections-{paper}.pdf``, ``board-cut.svg`` and one
``cut/board-section-N-{paper}.svg`` per section sheet, the sheet's size, with the section's closed outline
where the sheet prints it, and the two previews (``preview/board.png``: the poster's page, trim and bleed, at
``PREVIEW_DPI``; ``preview/sections.png``: the pieces pulled apart at ``SECTIONS_PREVIEW_DPI``). No game writes
these names itself: its plug-in declares its board (``GamePlugin.board_print`` returns a ``BoardDeclaration``)
and the shared stages ``boardgen.kit.stages:board_stage`` and ``sections_stage`` write them from it.

Two kinds of board:

- a rectangular board (a grid of squares, a track, a picture), ``GridBoard``: the game draws it as a ``Scene``
  and says which rectangles no seam may cross and no knob may touch; the shared board printer
  (``render.board_print``) cuts it into straight-edged jigsaw sections;
- a geographic map cut along its land cells (``boardgen.geomap.jigsaw.MapBoard``), whose section sheets, cut
  file and ``sections.geojson`` ``geomap.jigsaw`` draws.

``board_poster_files`` writes either kind's posters and preview, ``board_section_files`` its sections, cut
files and exploded preview (two stages, so the two may run side by side).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from shapely.geometry import Polygon as ShapelyPolygon

from boardgen.geomap.jigsaw import MapBoard
from boardgen.i18n import current
from boardgen.io import Artifact
from boardgen.render.board_print import PosterArt, outline_commands, poster_art
from boardgen.render.cairo_backend import Page, render_png, render_svg
from boardgen.render.imposition import A4, COMPACT_STYLE, LETTER, Paper, SheetStyle
from boardgen.render.press import to_pdfx4
from boardgen.render.scene import PT, Font, Op, Path, Rect, RectOp, Scene, Style, Text, layer

POSTER = "board-poster.pdf"
POSTER_RGB = "board-poster-rgb.pdf"
CUT_NAME = "board-cut.svg"
CUT_STYLE = Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round")
PREVIEW_DPI = 40.0
"""preview/board.png: the poster's page (trim and bleed) at this resolution, for every game."""
SECTIONS_PREVIEW_DPI = 28.0
"""preview/sections.png: the pieces pulled apart (``render.board_print.exploded_page``) at this resolution."""
SECTIONS_PREVIEW_GAP_MM = 31 * 25.4 / SECTIONS_PREVIEW_DPI
"""How far apart preview/sections.png pulls neighbouring pieces: 31 pixels (28.1 mm), a whole number, so the
board's picture behind every piece is drawn once and painted from its pixels (``cairo_backend._paint_rastered``)."""


@dataclass(frozen=True)
class GridBoard:
    """A rectangular board as a game declares it for the shared board printer (``render.board_print``), which
    cuts it into straight-edged jigsaw sections that fit together one way only."""

    title: str
    width_mm: float  # the trimmed board
    height_mm: float
    picture: Scene  # the whole board in board mm (it may paint ``style.bleed_mm`` beyond its trim)
    keep_whole: tuple[Rect, ...] = ()  # play spaces and marked areas no seam may run through (board mm)
    avoid: tuple[Rect, ...] = ()  # what no jigsaw knob may touch (labels, start squares; board mm)
    snap_mm: float | None = None  # seams at multiples of this (None: anywhere keep_whole allows)
    papers: tuple[Paper, ...] = (A4, LETTER)
    style: SheetStyle = COMPACT_STYLE


@dataclass(frozen=True)
class BoardData:
    """A data file that comes with the board (e.g. its fields and their neighbours as JSON), made when the board
    stage runs."""

    path: str
    make: Callable[[], bytes]
    what: str  # what it holds, in a few words (the artifact's description)


@dataclass(frozen=True)
class BoardDeclaration:
    """What a game's kit prints of its board (``GamePlugin.board_print``): the board (a ``GridBoard`` or a
    ``MapBoard``), a few words on its spaces for the build's progress line and the data files beside it."""

    board: GridBoard | MapBoard
    about: str = ""  # e.g. "16 x 16 squares of 25.0 mm"
    data: tuple[BoardData, ...] = ()


def sections_name(slug: str) -> str:
    return f"board-sections-{slug}.pdf"


def section_svg_name(number: int, slug: str) -> str:
    return f"cut/board-section-{number}-{slug}.svg"


@dataclass(frozen=True)
class SheetCut:
    """One section as its sheet prints it: what a cutting machine needs."""

    number: int
    outline_mm: ShapelyPolygon  # board mm, knobs included
    label_mm: tuple[float, float]  # where the number goes (board mm, inside the piece)
    sheet: Page  # the section's sheet: its size, and its TrimBox, where the piece's bounding box prints


def section_cut_svgs(sheets: Mapping[str, Sequence[SheetCut]]) -> list[Artifact]:
    """One SVG per section sheet and paper slug: the paper's size, the piece's closed outline on layer "cut"
    where the sheet prints it, the paper's edge and the section's number on "guides" (not to be cut)."""
    _ = current().gettext
    out: list[Artifact] = []
    for slug, cuts in sheets.items():
        for c in cuts:
            page = c.sheet
            trim = page.trim_box_mm
            assert trim is not None
            x0, y0, _x1, _y1 = c.outline_mm.bounds
            dx, dy = trim.x - x0, trim.y - y0
            cut = Path(outline_commands(c.outline_mm, dx, dy), CUT_STYLE, name="cut-line")
            cx, cy = c.label_mm
            guides: list[Op] = [
                RectOp(Rect(0, 0, page.width_mm, page.height_mm), Style(stroke="#999999", stroke_width_mm=0.2),
                       name="paper-edge"),
                Text(cx + dx, cy + dy, str(c.number), Font("DejaVu Sans", 40.0, bold=True), "#9a9a9a",
                     align="center", baseline="middle", name="section-number")]
            svg = render_svg(Page(page.width_mm, page.height_mm, Scene((layer("guides", guides), layer("cut", [cut])))),
                             exact_layers=("cut",))
            out.append(Artifact(section_svg_name(c.number, slug), svg,
                                _("section {n}'s closed outline where {file} page {n} prints it (layer 'cut')").format(
                                    n=c.number, file=sections_name(slug))))
    return out


def poster_files(rgb: bytes, width_mm: float, height_mm: float, title: str) -> list[Artifact]:
    """``board-poster.pdf`` (the RGB poster turned CMYK PDF/X-4) and ``board-poster-rgb.pdf``."""
    _ = current().gettext
    size = f"{width_mm:g} x {height_mm:g} mm"
    return [Artifact(POSTER, to_pdfx4(rgb, _("{title}: board (PDF/X-4, CMYK FOGRA39)").format(title=title)),
                     _("the board as one {size} page with 3 mm bleed, CMYK PDF/X-4 (FOGRA39): send this "
                       "to a print shop").format(size=size), pages=1),
            Artifact(POSTER_RGB, rgb, _("the same {size} poster in RGB, for screens and for printers "
                                        "that take RGB").format(size=size), pages=1)]


# ------------------------------------------------------------------------------------------ either kind


def board_poster(board: GridBoard | MapBoard) -> PosterArt:
    """The board's poster as an RGB PDF (``board-poster-rgb.pdf``), the art its jigsaw sections print from
    too: a build that makes both in one process draws the board's picture once (``kit.stages`` keeps it)."""
    _ = current().gettext
    return poster_art(board.picture, board.width_mm, board.height_mm, board.style,
                      _("{title}: board").format(title=board.title))


def board_poster_files(board: GridBoard | MapBoard, poster: PosterArt | None = None) -> list[Artifact]:
    """The board's posters (CMYK PDF/X-4 for a print shop, RGB) and its preview: the poster's page at
    ``PREVIEW_DPI``. ``poster``: ``board_poster(board)``, when the caller has it."""
    poster = poster or board_poster(board)
    return [*poster_files(poster.pdf, board.width_mm, board.height_mm, board.title),
            Artifact("preview/board.png", render_png(poster.page, dpi=PREVIEW_DPI), "the board, small")]


def board_section_files(board: GridBoard | MapBoard, poster: PosterArt | None = None) -> list[Artifact]:
    """The board's jigsaw sections: their sheets on each paper, the board-sized cut file, one cut SVG per sheet
    and a preview of the pieces pulled apart (a map's also its outlines as ``sections.geojson``). ``poster``:
    ``board_poster(board)``, when it is drawn already (the sheets place its page rather than draw the picture
    again)."""
    if isinstance(board, MapBoard):
        return map_section_files(board, poster)
    from boardgen.render.board_print import exploded_page, print_sections

    printed = print_sections(board.picture, board.width_mm, board.height_mm, board.title, board.papers,
                             board.avoid, style=board.style, snap_mm=board.snap_mm, keep_whole=board.keep_whole,
                             poster=poster)
    cut = printed.cut
    out = [*printed.artifacts, *section_cut_svgs({
        slug: [SheetCut(s.number, s.outline_mm, s.rect_mm.center, page)
               for s, page in zip(cut.sections, pages, strict=True)]
        for slug, pages in printed.sheets.items()})]
    out.append(_sections_preview(exploded_page(board.width_mm, board.height_mm, cut, printed.scenes,
                                               SECTIONS_PREVIEW_GAP_MM), len(cut.sections)))
    return out


def _sections_preview(page: Page, count: int) -> Artifact:
    return Artifact("preview/sections.png", render_png(page, dpi=SECTIONS_PREVIEW_DPI),
                    f"the {count} sections pulled apart")


# ------------------------------------------------------------------------------------------ a geographic map


def map_section_files(board: MapBoard, poster: PosterArt | None = None) -> list[Artifact]:
    """A map board's jigsaw sections: their sheets on each paper, the board-sized cut file, one cut SVG per
    sheet, the outlines as GeoJSON and a preview of the pieces pulled apart (``poster``: as
    ``board_section_files`` takes it)."""
    from boardgen.geomap.jigsaw import cut_svg, label_point, section_scenes, sections_geojson, sections_pdfs
    from boardgen.render.board_print import exploded_page

    _ = current().gettext
    marks = board.marks()
    scenes = section_scenes(board, marks)
    sheets = sections_pdfs(board, scenes, poster)
    sections = board.sections.sections
    out: list[Artifact] = []
    for paper in board.papers:
        data, pages = sheets[paper.slug]
        out.append(Artifact(sections_name(paper.slug), data,
                            _("the board in {n} jigsaw sections at 1:1 on {paper}").format(n=len(pages),
                                                                                         paper=paper.name),
                            pages=len(pages)))
    out.append(Artifact(CUT_NAME, cut_svg(board), _("section cut lines in board mm (layer 'cut')")))
    out += section_cut_svgs({slug: [SheetCut(s.number, s.outline_mm, label_point(s), page)
                                    for s, page in zip(sections, pages, strict=True)]
                             for slug, (_data, pages) in sheets.items()})
    out.append(Artifact("sections.geojson", sections_geojson(board.sections, marks),
                        "each section's outline in board mm with its cells, neighbours and knobs"))
    out.append(_sections_preview(exploded_page(board.width_mm, board.height_mm, board.sections, scenes,
                                               SECTIONS_PREVIEW_GAP_MM), len(sections)))
    return out
