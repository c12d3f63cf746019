"""Marks printed INSIDE each section's cut outline, so a cut piece still says which it is and where it goes:
a small circled section number near a corner and, near each internal edge, the neighbour's number with an
arrow pointing across that edge ("2 →").

Every mark sits in open sea: its footprint (a disc for the number, the text's box for a hint) lies inside
the section's outline at least ``edge_clear_mm`` from the cut, and clear of every land cell, the coastlines
and the legend blocks. A mark goes at the free point nearest where it should be (the corner, the middle of
the shared edge): the free area is eroded by the footprint's radius, so any point of it is a valid centre.
A section with no room for a mark simply goes without it (the margin still carries the numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import nearest_points

from boardgen.layout.sections import Section, SectionLayout

ARROWS = {"top": "↑", "right": "→", "bottom": "↓", "left": "←"}


@dataclass(frozen=True)
class MarkSizes:
    number_radius_mm: float = 3.3  # the circled section number
    hint_width_mm: float = 8.0  # a neighbour hint's box ("22 →" at 6 pt fits)
    hint_height_mm: float = 3.4
    edge_clear_mm: float = 2.5  # from the cut line / trim
    land_clear_mm: float = 1.0  # from land cells
    corner_reach_mm: float = 45.0  # the number goes near a corner if there is room within this distance
    hint_reach_mm: float = 22.0  # a hint stays within this distance of its edge


@dataclass(frozen=True)
class SectionMark:
    section: int  # the section's number
    kind: str  # "number" | "neighbour"
    text: str
    centre_mm: tuple[float, float]
    footprint: Polygon  # in board mm; lies in open sea on the section
    side: str = ""  # for a neighbour hint: which side of the piece the neighbour joins
    neighbour: int = 0


def hint_text(side: str, number: int) -> str:
    return f"{number} {ARROWS[side]}" if side == "right" else f"{ARROWS[side]} {number}"


COAST_CLEAR_MM = 0.9
"""How far a mark keeps from the coastlines as simplified (by ``COAST_SIMPLIFY_MM``, which this covers)."""
COAST_SIMPLIFY_MM = 0.4


@dataclass(frozen=True)
class Blocked:
    """What no mark may cover, ready to be cut out of each piece (``free_area``): the land cells grown by
    ``land_clear_mm`` (one geometry), the coastlines' parts simplified (they may overlap each other) and the
    legend's blocks (``free_area`` keeps marks 1.5 mm from those on the piece)."""

    cells: shapely.Geometry | None
    coast: np.ndarray  # of Polygon
    legend: tuple[Polygon, ...]

    @classmethod
    def of(cls, land_cells: Sequence[Polygon], coast: Sequence[Polygon], legend: Sequence[Polygon],
           sizes: MarkSizes) -> Blocked:
        cells = (shapely.union_all(list(land_cells)).buffer(sizes.land_clear_mm, quad_segs=2)
                 if len(land_cells) else None)
        # coarser coastlines are plenty here: the clearance (0.9 mm) covers the simplification (0.4 mm)
        parts = shapely.simplify(np.array(list(coast), dtype=object), COAST_SIMPLIFY_MM) if len(coast) else []
        polygons = np.array([p for p in parts if p.geom_type == "Polygon" and not p.is_empty], dtype=object)
        return cls(cells, polygons, tuple(legend))


COAST_CLIP_MM = 2.0
"""A piece's coast is cut to its frame grown by this much before it is buffered: more than ``COAST_CLEAR_MM``,
so the cut's own edges, once buffered, stay outside the frame (and the piece)."""


def free_area(section: Section, blocked: Blocked, sizes: MarkSizes) -> shapely.Geometry:
    """Where a mark's footprint may lie on ``section``: inside its outline at least ``edge_clear_mm`` from the
    cut, clear of the land cells, the coast and the legend.

    Only what lies near the piece is read: the cells cut to the piece's frame (its bounding box), the coast
    parts within reach cut to the frame grown by ``COAST_CLIP_MM`` (a continent is buffered piece by piece, not
    whole for every piece it touches), and each is taken out in turn, not united first. The plain way (the
    whole coast near the piece buffered, every obstacle united, then one difference) gives the same area but for
    slivers of the outlines' 0.1 micrometre grid, and places the same marks (tests/geomap/test_board_marks.py
    compares them on several boards; 30 tweaks of the flagship's board, single keys and the matrix's
    combinations, were checked when this was written)."""
    outline = section.outline_mm
    free = outline.buffer(-sizes.edge_clear_mm, join_style="mitre")
    x0, y0, x1, y1 = outline.bounds
    if blocked.cells is not None:
        free = shapely.difference(free, shapely.intersection(blocked.cells, box(x0, y0, x1, y1)))
    if len(blocked.coast):
        reach = box(x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0)  # a part farther off cannot reach the frame
        near = blocked.coast[shapely.intersects(blocked.coast, reach)]
        if len(near):
            d = COAST_CLIP_MM
            clip = box(x0 - d, y0 - d, x1 + d, y1 + d)
            shapely.prepare(clip)
            inside = shapely.contains_properly(clip, near)
            cut = shapely.intersection(near[~inside], clip)
            polygons = [*near[inside], *(g for c in cut for g in getattr(c, "geoms", (c,))
                                          if g.geom_type == "Polygon" and not g.is_empty)]
            if polygons:  # buffering the (overlapping) parts together also dissolves them
                grown = shapely.buffer(MultiPolygon(polygons), COAST_CLEAR_MM, quad_segs=2)
                free = shapely.difference(free, grown)
    for block in blocked.legend:
        if block.intersects(outline):
            free = shapely.difference(free, block.buffer(1.5, join_style="mitre"))
    return free


def _best_point(free: shapely.Geometry, radius_mm: float, anchor: tuple[float, float],
                reach_mm: float | None = None) -> tuple[float, float] | None:
    """The point nearest ``anchor`` where a disc of ``radius_mm`` fits inside ``free`` (None: nowhere), at
    most ``reach_mm`` from the anchor if given."""
    if reach_mm is not None:  # only the free area a disc within reach can touch needs eroding
        ax, ay = anchor
        d = reach_mm + radius_mm + 1.0
        free = shapely.intersection(free, box(ax - d, ay - d, ax + d, ay + d))
    eroded = free.buffer(-(radius_mm + 0.05), quad_segs=4)  # + a margin for the rounding below
    if reach_mm is not None:
        eroded = shapely.intersection(eroded, Point(anchor).buffer(reach_mm, quad_segs=8))
    if eroded.is_empty:
        return None
    target = Point(anchor)
    point = target if eroded.contains(target) else nearest_points(eroded, target)[0]
    return (round(point.x, 2), round(point.y, 2))


def _shared_edge(section: Section, other_grown: shapely.Geometry) -> shapely.Geometry:
    """The cut ``section`` shares with the neighbour whose outline, grown by a micrometre, is ``other_grown``."""
    return shapely.line_merge(shapely.intersection(section.outline_mm.boundary, other_grown))


def _edge_anchor(edge: shapely.Geometry, side: str, section: Section) -> tuple[float, float]:
    """The middle of the straight cut on that side (its median point along the shared line)."""
    x0, y0, x1, y1 = edge.bounds
    sx0, sy0, sx1, sy1 = section.bounds_mm
    if side in ("left", "right"):
        return ((x0 + x1) / 2, (max(y0, sy0) + min(y1, sy1)) / 2)
    return ((max(x0, sx0) + min(x1, sx1)) / 2, (y0 + y1) / 2)


def _edge_band(edge: shapely.Geometry, reach_mm: float) -> Polygon:
    """Where a hint for this edge may go: the edge's (stepped) line's bounding box grown by ``reach_mm``."""
    x0, y0, x1, y1 = edge.bounds
    return box(x0 - reach_mm, y0 - reach_mm, x1 + reach_mm, y1 + reach_mm)


def _disc(centre: tuple[float, float], radius_mm: float) -> Polygon:
    return Point(centre).buffer(radius_mm, quad_segs=8)


def _hint_box(centre: tuple[float, float], sizes: MarkSizes) -> Polygon:
    cx, cy = centre
    return box(cx - sizes.hint_width_mm / 2, cy - sizes.hint_height_mm / 2, cx + sizes.hint_width_mm / 2,
               cy + sizes.hint_height_mm / 2)


def plan_section_marks(layout: SectionLayout, land_cells: Sequence[Polygon], coast: Sequence[Polygon] = (),
                       legend: Sequence[Polygon] = (), sizes: MarkSizes = MarkSizes()) -> tuple[SectionMark, ...]:
    """The number and neighbour hints for every section, in section order. ``coast``: land polygons (they
    may overlap each other). A mark placed is cut from the band each later hint looks in, not from the piece's
    whole free area (the same band, for a fraction of the work)."""
    marks: list[SectionMark] = []
    grown = {s.number: s.outline_mm.buffer(1e-3) for s in layout.sections}  # each read by every neighbour
    blocked = Blocked.of(land_cells, coast, legend, sizes)
    for section in layout.sections:
        free = free_area(section, blocked, sizes)
        x0, y0, x1, y1 = section.bounds_mm
        r = sizes.number_radius_mm
        corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
        centre = None
        for corner in corners:
            centre = _best_point(free, r, corner, sizes.corner_reach_mm)
            if centre is not None:
                break
        if centre is None:
            centre = _best_point(free, r, corners[0])
        taken: list[Polygon] = []  # the footprints placed on this piece, grown by the gap marks keep
        if centre is not None:
            footprint = _disc(centre, r)
            marks.append(SectionMark(section.number, "number", str(section.number), centre, footprint))
            taken.append(footprint.buffer(1.5))
        hint_radius = ((sizes.hint_width_mm / 2) ** 2 + (sizes.hint_height_mm / 2) ** 2) ** 0.5
        for side, number in section.neighbours.items():
            edge = _shared_edge(section, grown[number])
            if edge.is_empty:
                continue
            anchor = _edge_anchor(edge, side, section)
            area = _edge_band(edge, sizes.hint_reach_mm)
            band = shapely.intersection(free, area)
            for gap in taken:  # the marks placed so far, cut from the band (not from the whole free area)
                if gap.intersects(area):
                    band = shapely.difference(band, gap)
            centre = _best_point(band, hint_radius, anchor)
            if centre is None:
                continue
            footprint = _hint_box(centre, sizes)
            marks.append(SectionMark(section.number, "neighbour", hint_text(side, number), centre, footprint,
                                     side=side, neighbour=number))
            taken.append(footprint.buffer(1.5))
    return tuple(marks)
