"""A board's kit files, the same for every game with a board (``boardgen.kit.shape``), whatever cut its
sections: ``board-poster.pdf`` (CMYK PDF/X-4 with the FOGRA39 OutputIntent, for a print shop),
``board-poster-rgb.pdf`` (the same page in RGB), ``board-sections-{paper}.pdf``, ``board-cut.svg`` and one
``cut/board-section-N-{paper}.svg`` per section sheet, the sheet's size, with the section's closed outline
where the sheet prints it. No game writes these names itself: it declares its board and hands it here.

Two kinds of board declarations:

- a rectangular board (a grid of squares, a track, a picture): the game draws it as a ``Scene`` and the shared
  board printer (``render.board_print.print_board``) cuts it into straight-edged jigsaw sections;
  ``board_kit_files(printed, title)`` turns what the printer made into the kit's files;
- a geographic map cut along its land cells (``boardgen.geomap.jigsaw.MapBoard``): ``map_poster_files``
  writes the posters and the preview (a stage of its own) and ``map_section_files`` the section sheets, the cut
  files, ``sections.geojson`` and the exploded preview (another stage, so the two run side by side).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shapely.geometry import Polygon as ShapelyPolygon

from boardgen.geomap.jigsaw import MapBoard
from boardgen.i18n import current
from boardgen.io import Artifact
from boardgen.render.board_print import BoardPrint, outline_commands
from boardgen.render.cairo_backend import Page, render_pdf, render_png, render_svg
from boardgen.render.press import to_pdfx4
from boardgen.render.scene import PT, Font, Op, Path, Rect, RectOp, Scene, Style, Text, layer

POSTER = "board-poster.pdf"
POSTER_RGB = "board-poster-rgb.pdf"
CUT_NAME = "board-cut.svg"
CUT_STYLE = Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round")


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


def board_kit_files(printed: BoardPrint, title: str) -> list[Artifact]:
    """A rectangular board's files from the shared board printer, in the kit's shape: the poster as CMYK PDF/X-4
    and as RGB, the section sheets, the board-sized cut file and one cut SVG per section sheet."""
    out: list[Artifact] = []
    for a in printed.artifacts:
        if a.path == POSTER:
            out.extend(poster_files(a.data, printed.cut.width_mm, printed.cut.height_mm, title))
        else:
            out.append(a)
    return out + section_cut_svgs({
        slug: [SheetCut(s.number, s.outline_mm, s.rect_mm.center, page)
               for s, page in zip(printed.cut.sections, pages, strict=True)]
        for slug, pages in printed.pages.items()})


# ------------------------------------------------------------------------------------------ a geographic map


def map_poster_files(board: MapBoard) -> list[Artifact]:
    """A map board's posters (CMYK PDF/X-4 for a print shop, RGB) and a small preview."""
    from boardgen.geomap.jigsaw import poster_page

    _ = current().gettext
    poster = poster_page(board)
    rgb = render_pdf([poster], title=_("{title}: board").format(title=board.title))
    return [*poster_files(rgb, board.width_mm, board.height_mm, board.title),
            Artifact("preview/board.png", render_png(poster, dpi=40.0), "the board, small")]


def map_section_files(board: MapBoard) -> list[Artifact]:
    """A map board's jigsaw sections: their sheets on each paper, the board-sized cut file, one cut SVG per
    sheet, the outlines as GeoJSON and a preview of the pieces pulled apart."""
    from boardgen.geomap.jigsaw import cut_svg, label_point, section_scenes, sections_geojson, sections_pdfs
    from boardgen.render.board_print import exploded_page

    _ = current().gettext
    marks = board.marks()
    scenes = section_scenes(board, marks)
    sheets = sections_pdfs(board, scenes)
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
    out.append(Artifact("preview/sections.png",
                        render_png(exploded_page(board.width_mm, board.height_mm, board.sections, scenes), dpi=28.0),
                        f"the {len(sections)} sections pulled apart"))
    return out
