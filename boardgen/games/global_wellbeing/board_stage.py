"""The `board` build stage: the poster, the jigsaw section sheets (A4 and Letter), the cut file, the
sections' GeoJSON and two previews.

Files (relative to build/<edition>/):
  board-poster.pdf            one page: 660 x 440 mm TrimBox + 3 mm bleed (BleedBox = MediaBox), CMYK PDF/X-4 with a
                              FOGRA39 OutputIntent, black text and lines in K only (render/press.py): for a print shop
  board-poster-rgb.pdf        the same page in RGB, for screens and RGB printers
  board-sections-a4.pdf       one page per section (nine landscape pages for the default 3 x 3), 1:1, in assembly order
  board-sections-letter.pdf   the same on US Letter
  board-cut.svg               section cut lines in board mm on their own layer "cut", for cutting machines
  cut/board-section-N-{a4,letter}.svg  one closed outline per section, placed as its section sheet prints it
  sections.geojson            each section's outline (board mm) with its cells, neighbours, knobs and in-piece marks
  preview/board.png           the poster, small
  preview/sections.png        the pieces pulled apart (exploded view)
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import shapely

from boardgen.build import BuildContext
from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.board_art import (
    BoardArt,
    board_scene,
    check_legend_clear,
    make_art,
)
from boardgen.games.global_wellbeing.board_layout import (
    ART_SOURCES,
    SECTION_PAPERS,
    board_coast,
    board_legend,
    board_sections,
    count_word,
    section_page_sizes_mm,
    section_papers,
)
from boardgen.geomap.cache import cached_for_board
from boardgen.i18n import current
from boardgen.io import Artifact
from boardgen.layout.section_marks import SectionMark, plan_section_marks
from boardgen.layout.sections import Section, hex_polygons
from boardgen.render.board_print import (
    BLEED_WASH,
    CUT_LINE,
    CUT_WIDTH_MM,
    SIDE_WORDS,
    outline_commands,
    piece_bleed,
    section_sheet,
    underlay_pieces,
)
from boardgen.render.cairo_backend import Page, note_pages, render_pdf, render_png, render_svg
from boardgen.render.imposition import (
    DEFAULT_STYLE,
    Paper,
    content_area,
    single_item_page,
)
from boardgen.render.press import to_pdfx4
from boardgen.render.scene import (
    PT,
    Circle,
    Font,
    Group,
    Op,
    Path,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    fill,
    layer,
    stroke,
    translate,
)

MARK_INK = "#3d5566"  # in-piece section numbers and neighbour hints: quiet on the sea, readable at 1:1
MARK_NUMBER_FONT = Font("DejaVu Sans", 8.0, bold=True)
MARK_HINT_FONT = Font("DejaVu Sans", 6.5, bold=True)


# ------------------------------------------------------------------------------------------ poster


def board_picture(art: BoardArt, bleed_mm: float = DEFAULT_STYLE.bleed_mm) -> Scene:
    """The whole board in board mm, painted ``bleed_mm`` beyond its trim: the poster's art, and (the very same
    items, so a PDF holds them once) the art behind every jigsaw piece."""
    key = ("board-picture", bleed_mm)
    picture: Scene | None = art.memo.get(key)
    if picture is None:
        picture = art.memo[key] = board_scene(art, bleed_mm=bleed_mm)
    return picture


def poster_page(art: BoardArt) -> Page:
    board = art.config.board
    return single_item_page(board_picture(art), board.width_mm, board.height_mm)


# ------------------------------------------------------------------------------------------ sections


def section_marks(art: BoardArt) -> tuple[SectionMark, ...]:
    """The circled number and neighbour hints inside every piece (in open sea; see layout/section_marks)."""
    board = art.board
    cells = list(hex_polygons(board))
    return plan_section_marks(art.sections, cells, art.coast_mm, [b.polygon for b in art.legend])


def mark_ops(marks: Sequence[SectionMark]) -> list[Op]:
    """Marks in board mm."""
    ops: list[Op] = []
    for m in marks:
        cx, cy = m.centre_mm
        if m.kind == "number":
            r = math.sqrt(m.footprint.area / math.pi)
            ops.append(Circle(cx, cy, round(r - 0.2, 3), Style(fill="#ffffff", stroke=MARK_INK,
                                                               stroke_width_mm=0.6 * PT), name="piece-number-ring"))
            ops.append(Text(cx, cy, m.text, MARK_NUMBER_FONT, MARK_INK, align="center", baseline="middle",
                            name="piece-number"))
        else:
            ops.append(Text(cx, cy, m.text, MARK_HINT_FONT, MARK_INK, align="center", baseline="middle",
                            name="piece-neighbour"))
    return ops


def section_scene(art: BoardArt, section: Section, bleed_mm: float,
                  marks: Sequence[SectionMark] = ()) -> Scene:
    """The section's art in item mm (origin = its bounding box's top-left): the whole board picture (shared by
    every piece: a renderer draws it once and paints it behind each) clipped to the piece's outline plus bleed,
    the bleed washed out, and the piece's marks and cut line on top."""
    x0, y0, _x1, _y1 = section.bounds_mm
    with_bleed = piece_bleed(section.outline_mm, bleed_mm)
    # one clip path per piece, around the shared picture (painting white beyond it instead left a hairline of
    # art where the sheet's own clip, the bleed rectangle, cut both the art and the white)
    placed = Group(board_picture(art, bleed_mm).items, name=f"section-{section.number}-art",
                   transform=translate(-x0, -y0),
                   clip=outline_commands(with_bleed, 0.0, 0.0))
    own = Group(tuple(mark_ops([m for m in marks if m.section == section.number])),
                name=f"section-{section.number}-marks", transform=translate(-x0, -y0))
    # Wash out the bleed a little so the piece's shape reads at a glance (a slightly missed cut still shows art).
    outside = shapely.difference(with_bleed, section.outline_mm)
    wash = [Path(outline_commands(p, -x0, -y0), Style(fill="#ffffff", opacity=BLEED_WASH, even_odd=True),
                 name="bleed-wash") for p in getattr(outside, "geoms", [outside]) if p.geom_type == "Polygon"]
    cut = Path(outline_commands(section.outline_mm, -x0, -y0),
               Style(stroke=CUT_LINE, stroke_width_mm=CUT_WIDTH_MM, line_join="round"), name="cut-line")
    return Scene((placed, *wash, own, cut))


def section_page(art: BoardArt, section: Section, paper: Paper, scene: Scene | None = None) -> Page:
    """One sheet: the section at 1:1 centred in the printable area, neighbours' numbers beside its sides."""
    layout = art.sections
    total = len(layout.sections)
    _ = current().gettext
    title = _("{title}: board section {n} of {total}").format(title=art.config.title, n=section.number, total=total)
    neighbours = ", ".join(_(SIDE_WORDS[s]).format(n=n) if s in SIDE_WORDS else f"{n} {s}"
                           for s, n in section.neighbours.items())
    label = _("{paper} · row {row}, column {column} · joins {joins}").format(
        paper=paper.name, row=section.row + 1, column=section.column + 1, joins=neighbours)
    if scene is None:
        scene = section_scene(art, section, DEFAULT_STYLE.bleed_mm, section_marks(art))
    return section_sheet(paper, section, layout, scene, title, label, DEFAULT_STYLE)


def section_scenes(art: BoardArt, marks: Sequence[SectionMark] | None = None) -> list[Scene]:
    marks = section_marks(art) if marks is None else marks
    return [section_scene(art, s, DEFAULT_STYLE.bleed_mm, marks) for s in art.sections.sections]


def sections_pdf(art: BoardArt, paper: Paper, scenes: list[Scene] | None = None) -> tuple[bytes, int]:
    """One paper's section sheets drawn directly (``sections_pdfs`` makes the same pages faster)."""
    scenes = scenes if scenes is not None else section_scenes(art)
    pages = [section_page(art, s, paper, scene) for s, scene in zip(art.sections.sections, scenes, strict=True)]
    return render_pdf(pages, title=f"{art.config.title}: board sections ({paper.name})"), len(pages)


def sections_pdfs(art: BoardArt, papers: Sequence[Paper] = SECTION_PAPERS, scenes: list[Scene] | None = None
                  ) -> dict[str, tuple[bytes, int]]:
    """The section sheets for every paper, with each section's art drawn ONCE: cairo writes the nine pieces
    (art + bleed, 1:1) into one PDF and each paper's sheet furniture (marks, title, ruler, margin numbers)
    into another; pikepdf then places piece i as a form XObject under sheet i's furniture, at its bleed box.
    {paper slug: (pdf bytes, pages)}."""
    scenes = scenes if scenes is not None else section_scenes(art)
    sections = art.sections.sections
    bleed = DEFAULT_STYLE.bleed_mm
    pieces = [single_item_page(scene, s.bounds_mm[2] - s.bounds_mm[0], s.bounds_mm[3] - s.bounds_mm[1])
              for s, scene in zip(sections, scenes, strict=True)]
    pieces_pdf = render_pdf(pieces, title="board sections")
    empty = Scene(())
    result: dict[str, tuple[bytes, int]] = {}
    for paper in papers:
        sheets = [section_page(art, s, paper, empty) for s in sections]
        title = f"{art.config.title}: board sections ({paper.name})"
        note_pages(title, lambda paper=paper: [section_page(art, s, paper, scene)  # type: ignore[misc]
                                               for s, scene in zip(sections, scenes, strict=True)])
        furniture = render_pdf(sheets, title=title)
        result[paper.slug] = (underlay_pieces(furniture, pieces_pdf, sheets, bleed), len(sheets))
    return result


# ------------------------------------------------------------------------------------------ cut file, data


def cut_svg(art: BoardArt) -> bytes:
    """Board-sized SVG: the internal cut lines and the board's edge on layer "cut", section numbers on
    "guides" (not to be cut)."""
    board = art.config.board
    cut_style = Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round")
    cut_ops: list[Op] = [RectOp(Rect(0, 0, board.width_mm, board.height_mm), cut_style, name="board-edge")]
    for line in art.sections.cut_lines_mm():
        coords = list(line.coords)
        commands = [("M", round(coords[0][0], 3), round(coords[0][1], 3))]
        commands.extend(("L", round(x, 3), round(y, 3)) for x, y in coords[1:])
        cut_ops.append(Path(tuple(commands), cut_style, name="cut-line"))
    guides: list[Op] = []
    for s in art.sections.sections:
        px, py = s.outline_mm.representative_point().coords[0]
        cx, cy = s.outline_mm.centroid.coords[0] if s.outline_mm.contains(s.outline_mm.centroid) else (px, py)
        guides.append(Text(cx, cy, str(s.number), Font("DejaVu Sans", 40.0, bold=True), "#9a9a9a", align="center",
                           baseline="middle", name="section-number"))
    scene = Scene((layer("guides", guides), layer("cut", cut_ops)))
    return render_svg(Page(board.width_mm, board.height_mm, scene), exact_layers=("cut",))


def section_trim(section: Section, paper: Paper) -> Rect:
    """Where ``section_page`` prints the section's bounding box on ``paper`` (page mm)."""
    area = content_area(paper, DEFAULT_STYLE)
    x0, y0, x1, y1 = section.bounds_mm
    w, h = x1 - x0, y1 - y0
    return Rect(round(area.x + (area.width - w) / 2, 3), round(area.y + (area.height - h) / 2, 3), w, h)


def section_cut_svg(section: Section, paper: Paper) -> bytes:
    """The section's sheet as a cut file: the paper's size, the piece's one closed outline on layer "cut" where
    the sheet prints it, the paper's edge and the piece's number on layer "guides" (not to be cut)."""
    trim = section_trim(section, paper)
    x0, y0, _, _ = section.bounds_mm
    cut = Path(outline_commands(section.outline_mm, trim.x - x0, trim.y - y0),
               Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round"), name="cut-line")
    px, py = section.outline_mm.representative_point().coords[0]
    guides: list[Op] = [
        RectOp(Rect(0, 0, paper.width_mm, paper.height_mm), Style(stroke="#999999", stroke_width_mm=0.2),
               name="paper-edge"),
        Text(px + trim.x - x0, py + trim.y - y0, str(section.number), Font("DejaVu Sans", 40.0, bold=True),
             "#9a9a9a", align="center", baseline="middle", name="section-number")]
    return render_svg(Page(paper.width_mm, paper.height_mm, Scene((layer("guides", guides), layer("cut", [cut])))),
                      exact_layers=("cut",))


def sections_geojson(art: BoardArt, marks: Sequence[SectionMark] = ()) -> bytes:
    layout = art.sections

    def ring(coords) -> list[list[float]]:
        return [[round(x, 3), round(y, 3)] for x, y in coords]

    features = []
    for s in layout.sections:
        knobs = [{"neighbour": (k.edge.second if k.edge.first == s.index else k.edge.first) + 1,
                  "kind": "tab" if k.owner == s.index else "blank",
                  "centre_mm": [round(v, 3) for v in k.centre_mm],
                  "offset_mm": round(k.offset_for(s.index)[0], 3),
                  "shape": f"cell {k.cell}" if k.cell else "round", "size_mm": round(k.size_mm, 3)}
                 for k in layout.knobs if s.index in (k.edge.first, k.edge.second)]
        features.append({
            "type": "Feature",
            "properties": {
                "section": s.number, "row": s.row + 1, "column": s.column + 1,
                "neighbours": dict(s.neighbours), "cells": list(s.cells), "cell_count": len(s.cells),
                "bounds_mm": [round(v, 3) for v in s.bounds_mm], "area_mm2": round(s.outline_mm.area, 1),
                "knobs": knobs,
                "marks": [{"kind": m.kind, "text": m.text, "centre_mm": [round(v, 3) for v in m.centre_mm]}
                          for m in marks if m.section == s.number],
            },
            "geometry": {"type": "Polygon",
                         "coordinates": [ring(s.outline_mm.exterior.coords)]
                         + [ring(i.coords) for i in s.outline_mm.interiors]},
        })
    collection = {
        "type": "FeatureCollection",
        "coordinate_system": "board millimetres: origin at the top-left corner of the trimmed board, x right, y down",
        "board_mm": list(layout.board_mm),
        "cuts_x_mm": [round(v, 3) for v in layout.cuts_x_mm],
        "cuts_y_mm": [round(v, 3) for v in layout.cuts_y_mm],
        "assemblies": len(layout.fit.assemblies),
        "features": features,
    }
    return (json.dumps(collection, indent=1, ensure_ascii=False) + "\n").encode()


# ------------------------------------------------------------------------------------------ previews


def exploded_page(art: BoardArt, gap_mm: float = 28.0, scenes: list[Scene] | None = None) -> Page:
    """The pieces drawn apart from each other, each moved outwards from the board's centre."""
    board = art.config.board
    layout = art.sections
    scenes = scenes if scenes is not None else section_scenes(art)
    items: list[Op] = [RectOp(Rect(-gap_mm * 1.5, -gap_mm * 1.5, board.width_mm + 3 * gap_mm,
                                   board.height_mm + 3 * gap_mm), fill("#ffffff"))]
    mid_r, mid_c = (layout.rows - 1) / 2, (layout.columns - 1) / 2
    for s, scene in zip(layout.sections, scenes, strict=True):
        dx, dy = (s.column - mid_c) * gap_mm, (s.row - mid_r) * gap_mm
        x0, y0, _, _ = s.bounds_mm
        shadow = Path(outline_commands(s.outline_mm, dx + 1.2, dy + 1.6), fill("#b9b9b9"), name="shadow")
        art_group, marks_group = (op for op in scene.items if isinstance(op, Group))  # see section_scene
        piece = Group((art_group, marks_group), name=f"piece-{s.number}", transform=translate(x0 + dx, y0 + dy),
                      clip=outline_commands(s.outline_mm, -x0, -y0))
        edge = Path(outline_commands(s.outline_mm, dx, dy), stroke(CUT_LINE, 0.8 * PT), name="cut-line")
        cx, cy = s.outline_mm.centroid.coords[0]
        disc = Circle(cx + dx, cy + dy, 9.0, Style(fill="#ffffff", stroke=CUT_LINE, stroke_width_mm=0.6 * PT,
                                                   opacity=0.9), name="piece-number-disc")
        number = Text(cx + dx, cy + dy, str(s.number), Font("DejaVu Sans", 30.0, bold=True), "#1a1a1a",
                      align="center", baseline="middle", name="piece-number")
        items.extend([shadow, piece, edge, disc, number])
    w, h = board.width_mm + 3 * gap_mm, board.height_mm + 3 * gap_mm
    return Page(w, h, Scene((Group(tuple(items), transform=translate(1.5 * gap_mm, 1.5 * gap_mm)),)))


# ------------------------------------------------------------------------------------------ stage


def board_marks(art: BoardArt) -> tuple[SectionMark, ...]:
    """``section_marks(art)``, kept in the board cache (they depend on the board, its cut and the legend)."""
    return cached_for_board("section-marks", art.board, f"{section_page_sizes_mm()!r} {art.legend!r}",
                            lambda: section_marks(art), ART_SOURCES)


def build_board_art(ctx: BuildContext) -> BoardArt:
    layout = board_sections(ctx)
    art = make_art(ctx.board, layout, board_legend(ctx), board_coast(ctx))
    problems = check_legend_clear(ctx.board, art.legend, layout.sections[0].outline_mm,
                                  [s.outline_mm for s in layout.sections])
    if problems:
        raise LayoutError("board legend: " + "; ".join(problems))
    return art


def board_stage(ctx: BuildContext) -> list[Artifact]:
    """The board as one poster: CMYK PDF/X-4 for a print shop, RGB, and a small preview."""
    art = build_board_art(ctx)
    poster = poster_page(art)
    board = art.config.board
    size = f"{board.width_mm:g} x {board.height_mm:g} mm"
    rgb = render_pdf([poster], title=f"{art.config.title}: board")
    return [
        Artifact("board-poster.pdf", to_pdfx4(rgb, f"{art.config.title}: board (PDF/X-4, CMYK FOGRA39)"),
                 f"the board as one {size} page with 3 mm bleed, CMYK PDF/X-4 (FOGRA39): send this to a print shop",
                 pages=1),
        Artifact("board-poster-rgb.pdf", rgb,
                 f"the same {size} poster in RGB, for screens and for printers that take RGB", pages=1),
        Artifact("preview/board.png", render_png(poster, dpi=40.0), "the board, small")]


def sections_stage(ctx: BuildContext) -> list[Artifact]:
    """The board's jigsaw sections: their sheets on each paper, cut files, outlines as GeoJSON and a preview
    (a stage of its own, so that it and the poster run side by side)."""
    art = build_board_art(ctx)
    artifacts: list[Artifact] = []
    marks = board_marks(art)
    scenes = section_scenes(art, marks)
    papers = section_papers(art.sections)
    sheets = sections_pdfs(art, papers, scenes)
    for paper in papers:
        data, pages = sheets[paper.slug]
        artifacts.append(Artifact(f"board-sections-{paper.slug}.pdf", data,
                                  f"the board in {pages} jigsaw sections at 1:1 on {paper.name}", pages=pages))
    artifacts.append(Artifact("board-cut.svg", cut_svg(art), "section cut lines in board mm (layer 'cut')"))
    for paper in papers:
        for s in art.sections.sections:
            artifacts.append(Artifact(
                f"cut/board-section-{s.number}-{paper.slug}.svg", section_cut_svg(s, paper),
                f"section {s.number}'s closed outline where board-sections-{paper.slug}.pdf page {s.number} prints "
                "it (layer 'cut')"))
    artifacts.append(Artifact("sections.geojson", sections_geojson(art, marks),
                              "each section's outline in board mm with its cells, neighbours and knobs"))
    artifacts.append(Artifact("preview/sections.png", render_png(exploded_page(art, scenes=scenes), dpi=28.0),
                              f"the {count_word(len(art.sections.sections))} sections pulled apart"))
    return artifacts
