"""A geographic board's jigsaw sections as print files, for any game whose board is a map cut by
``boardgen.layout.sections`` (pieces whose edges step round the land cells, one knob per edge, proven to
assemble one way only).

A game declares its board as a ``MapBoard`` (its picture, its cut, the papers its sections print on and the
marks inside each piece); ``boardgen.kit.board`` writes the kit's board files from it (``board_poster_files``,
``map_section_files``), the same names every game's board has. This module draws what those files hold:

  section sheets     one page per piece at 1:1, through the shared board printer's sheet
                     (``render.board_print.titled_section_sheet``), each piece's art drawn once for every paper
  piece marks        the circled number and the neighbours' hints inside each piece, in open sea
                     (``layout.section_marks``)
  board-sized cut    the inner cut lines and the board's edge on layer "cut", numbers on "guides"
  sections.geojson   each piece's outline with its cells, neighbours, knobs and marks
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shapely.geometry import Polygon as ShapelyPolygon

from boardgen.geomap.model import Board
from boardgen.i18n import current
from boardgen.layout.section_marks import SectionMark, plan_section_marks
from boardgen.layout.sections import Section, SectionLayout, hex_polygons
from boardgen.render.board_print import PosterArt, section_sheet_pdfs, titled_section_sheet
from boardgen.render.board_print import section_scene as piece_scene
from boardgen.render.cairo_backend import Page, render_svg
from boardgen.render.imposition import DEFAULT_STYLE, Paper, SheetStyle, content_area, single_item_page
from boardgen.render.scene import PT, Circle, Font, Op, Path, Rect, RectOp, Scene, Style, Text, layer

MARK_INK = "#3d5566"  # in-piece section numbers and neighbour hints: quiet on the sea, readable at 1:1
MARK_NUMBER_FONT = Font("DejaVu Sans", 8.0, bold=True)
MARK_HINT_FONT = Font("DejaVu Sans", 6.5, bold=True)
CUT_STYLE = Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round")
GUIDE_FONT = Font("DejaVu Sans", 40.0, bold=True)


@dataclass(frozen=True)
class MapBoard:
    """What a game declares of its geographic board for the kit: the rest is drawn here and written by
    ``boardgen.kit.board``."""

    title: str
    width_mm: float  # the trimmed board
    height_mm: float
    picture: Scene  # the whole board in board mm, painted ``style.bleed_mm`` beyond its trim
    sections: SectionLayout  # its jigsaw cut
    papers: tuple[Paper, ...]  # the papers the section sheets print on, turned the way the pieces fit
    marks: Callable[[], Sequence[SectionMark]]  # the marks inside each piece (``piece_marks``; a game may cache)
    style: SheetStyle = DEFAULT_STYLE


def poster_page(board: MapBoard) -> Page:
    """The whole board as one page: its trim and bleed."""
    return single_item_page(board.picture, board.width_mm, board.height_mm, board.style)


def piece_marks(board: Board, layout: SectionLayout, coast_mm: Sequence[ShapelyPolygon],
                obstacles: Sequence[ShapelyPolygon] = ()) -> tuple[SectionMark, ...]:
    """The circled number and neighbour hints inside every piece, in open sea: clear of the land cells, the
    coast and the ``obstacles`` (the legend's panels; see layout/section_marks)."""
    return plan_section_marks(layout, list(hex_polygons(board)), coast_mm, list(obstacles))


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


def section_scene(board: MapBoard, section: Section, marks: Sequence[SectionMark] = ()) -> Scene:
    """The piece's art in piece mm (the shared printer's ``section_scene``) with its own marks inside."""
    return piece_scene(board.picture, section, board.style.bleed_mm,
                       mark_ops([m for m in marks if m.section == section.number]))


def section_scenes(board: MapBoard, marks: Sequence[SectionMark] | None = None) -> list[Scene]:
    marks = board.marks() if marks is None else marks
    return [section_scene(board, s, marks) for s in board.sections.sections]


def section_page(board: MapBoard, section: Section, paper: Paper, scene: Scene | None = None) -> Page:
    """One sheet: the piece at 1:1 centred in the printable area, neighbours' numbers beside its sides."""
    if scene is None:
        scene = section_scene(board, section, board.marks())
    return titled_section_sheet(paper, section, board.sections, scene, board.title, board.style, marks=True)


def sections_pdfs(board: MapBoard, scenes: Sequence[Scene] | None = None, poster: PosterArt | None = None
                  ) -> dict[str, tuple[bytes, tuple[Page, ...]]]:
    """The section sheets for every paper (``render.board_print.section_sheet_pdfs``; ``poster``: the board's
    poster, when it is drawn already): {paper slug: (pdf, the sheets' furniture pages)}."""
    scenes = scenes if scenes is not None else section_scenes(board)

    def sheet(paper: Paper, section: object, scene: Scene) -> Page:
        assert isinstance(section, Section)
        return section_page(board, section, paper, scene)

    _ = current().gettext
    return section_sheet_pdfs(board.sections.sections, scenes, board.papers, sheet, lambda paper: _(
        "{title}: board sections ({paper})").format(title=board.title, paper=paper.name), board.style, poster)


def section_trim(section: Section, paper: Paper, style: SheetStyle = DEFAULT_STYLE) -> Rect:
    """Where ``section_page`` prints the section's bounding box on ``paper`` (page mm)."""
    area = content_area(paper, style)
    x0, y0, x1, y1 = section.bounds_mm
    w, h = x1 - x0, y1 - y0
    return Rect(round(area.x + (area.width - w) / 2, 3), round(area.y + (area.height - h) / 2, 3), w, h)


def label_point(section: Section) -> tuple[float, float]:
    """Where a cut file prints the piece's number: a point inside it (its centroid when that lies inside)."""
    px, py = section.outline_mm.representative_point().coords[0]
    return (px, py)


def cut_svg(board: MapBoard) -> bytes:
    """Board-sized SVG: the internal cut lines and the board's edge on layer "cut", section numbers on
    "guides" (not to be cut)."""
    cut_ops: list[Op] = [RectOp(Rect(0, 0, board.width_mm, board.height_mm), CUT_STYLE, name="board-edge")]
    for line in board.sections.cut_lines_mm():
        coords = list(line.coords)
        commands = [("M", round(coords[0][0], 3), round(coords[0][1], 3))]
        commands.extend(("L", round(x, 3), round(y, 3)) for x, y in coords[1:])
        cut_ops.append(Path(tuple(commands), CUT_STYLE, name="cut-line"))
    guides: list[Op] = []
    for s in board.sections.sections:
        px, py = label_point(s)
        cx, cy = s.outline_mm.centroid.coords[0] if s.outline_mm.contains(s.outline_mm.centroid) else (px, py)
        guides.append(Text(cx, cy, str(s.number), GUIDE_FONT, "#9a9a9a", align="center", baseline="middle",
                           name="section-number"))
    scene = Scene((layer("guides", guides), layer("cut", cut_ops)))
    return render_svg(Page(board.width_mm, board.height_mm, scene), exact_layers=("cut",))


def sections_geojson(layout: SectionLayout, marks: Sequence[SectionMark] = ()) -> bytes:
    """Each section's outline (board mm) with its cells, neighbours, knobs and in-piece marks."""
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
