"""A rectangular board's kit files, the same for every game with a board (``boardgen.kit.shape``):
``board-poster.pdf`` (CMYK PDF/X-4 with the FOGRA39 OutputIntent, for a print shop), ``board-poster-rgb.pdf``
(the same page in RGB), ``board-sections-{paper}.pdf``, ``board-cut.svg`` and one
``cut/board-section-N-{paper}.svg`` per section sheet, the sheet's size, with the section's closed outline
where the sheet prints it.

``board_kit_files(printed, title)`` turns what the shared board printer made (``render.board_print.print_board``)
into those files; the flagship's hex board writes the same names from its own stage.
"""

from __future__ import annotations

from boardgen.i18n import current
from boardgen.io import Artifact
from boardgen.render.board_print import BoardPrint, outline_commands
from boardgen.render.cairo_backend import Page, render_svg
from boardgen.render.press import to_pdfx4
from boardgen.render.scene import PT, Font, Op, Path, Rect, RectOp, Scene, Style, Text, layer

POSTER = "board-poster.pdf"
POSTER_RGB = "board-poster-rgb.pdf"
CUT_STYLE = Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round")


def section_svg_name(number: int, slug: str) -> str:
    return f"cut/board-section-{number}-{slug}.svg"


def section_cut_svgs(printed: BoardPrint) -> list[Artifact]:
    """One SVG per section sheet and paper: the paper's size, the piece's closed outline on layer "cut" where
    the sheet prints it, the paper's edge and the section's number on "guides" (not to be cut)."""
    _ = current().gettext
    out: list[Artifact] = []
    for slug, pages in printed.pages.items():
        for section, page in zip(printed.cut.sections, pages, strict=True):
            trim = page.trim_box_mm
            assert trim is not None
            x0, y0, _x1, _y1 = section.bounds_mm
            dx, dy = trim.x - x0, trim.y - y0
            cut = Path(outline_commands(section.outline_mm, dx, dy), CUT_STYLE, name="cut-line")
            cx, cy = section.rect_mm.center
            guides: list[Op] = [
                RectOp(Rect(0, 0, page.width_mm, page.height_mm), Style(stroke="#999999", stroke_width_mm=0.2),
                       name="paper-edge"),
                Text(cx + dx, cy + dy, str(section.number), Font("DejaVu Sans", 40.0, bold=True), "#9a9a9a",
                     align="center", baseline="middle", name="section-number")]
            svg = render_svg(Page(page.width_mm, page.height_mm, Scene((layer("guides", guides), layer("cut", [cut])))),
                             exact_layers=("cut",))
            out.append(Artifact(section_svg_name(section.number, slug), svg,
                                _("section {n}'s closed outline where {file} page {n} prints it (layer 'cut')").format(
                                    n=section.number, file=f"board-sections-{slug}.pdf")))
    return out


def board_kit_files(printed: BoardPrint, title: str) -> list[Artifact]:
    """The board printer's files in the kit's shape: the poster as CMYK PDF/X-4 and as RGB, the section sheets,
    the board-sized cut file and one cut SVG per section sheet."""
    _ = current().gettext
    out: list[Artifact] = []
    for a in printed.artifacts:
        if a.path == POSTER:
            size = f"{printed.cut.width_mm:g} x {printed.cut.height_mm:g} mm"
            out.append(Artifact(POSTER, to_pdfx4(a.data, _("{title}: board (PDF/X-4, CMYK FOGRA39)").format(
                                    title=title)),
                                _("the board as one {size} page with 3 mm bleed, CMYK PDF/X-4 (FOGRA39): send this "
                                  "to a print shop").format(size=size), pages=1))
            out.append(Artifact(POSTER_RGB, a.data, _("the same {size} poster in RGB, for screens and for printers "
                                                      "that take RGB").format(size=size), pages=1))
        else:
            out.append(a)
    return out + section_cut_svgs(printed)

