"""Jigsaw knobs on the cut lines between sections: their shape, where they go, and their signatures.

A knob is a tab of one section (its *owner*) that reaches across the cut line into the neighbouring
section, which gets the matching blank. Its shape is a neck and a round head (easy to cut with scissors or a
craft knife), with small fillets where the neck meets the head. Knobs sit only where the cut line runs
straight through open sea and the whole knob keeps clear of land cells, so no land cell is ever cut.

Where an edge runs through land all along (no open sea for a round knob), a whole land cell next to the cut
moves to the other section instead: a hexagonal tab that keys the pieces together without cutting any cell.

Each internal edge gets one knob. Its offset from the middle of the edge, measured along the owner's
clockwise walk, differs from every other edge's by at least ``sections.knob_spacing``: a side then mates
with its true partner only, which ``fit_solver`` proves on every build.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon, box

from boardgen.geomap.spec import SectionsConfig

GRID_MM = 1e-4
"""Snap-rounding grid of every overlay (0.1 micrometre): shared edges come out identical in both pieces."""


@dataclass(frozen=True)
class Edge:
    """A straight stretch of cut line between two neighbouring sections (before stepping round land)."""

    first: int  # index of the section above / left of the line (0-based, reading order)
    second: int  # index of the section below / right of it
    vertical: bool  # True: the line runs top to bottom (between left and right neighbours)
    fixed_mm: float  # the line's x (vertical) or y (horizontal)
    start_mm: float  # where the edge starts along the line (y for vertical, x for horizontal)
    end_mm: float

    @property
    def middle_mm(self) -> float:
        return 0.5 * (self.start_mm + self.end_mm)

    def point(self, along_mm: float) -> tuple[float, float]:
        return (self.fixed_mm, along_mm) if self.vertical else (along_mm, self.fixed_mm)


@dataclass(frozen=True)
class Knob:
    edge: Edge
    along_mm: float  # position of the knob's axis along the line
    owner: int  # section index that carries the tab
    outline_mm: Polygon  # the tab, including a sliver on the owner's side of the line
    size_mm: float = 0.0  # head diameter of a round knob; the hexagon's diameter for a cell tab
    cell: str = ""  # a cell tab: the label of the land cell that moves to the owner (no open sea here)

    @property
    def into_second(self) -> bool:
        """True when the tab reaches from the first section (left/above) into the second."""
        return self.owner == self.edge.first

    @property
    def centre_mm(self) -> tuple[float, float]:
        return self.edge.point(self.along_mm)

    def owner_offset_mm(self) -> float:
        """Offset from the edge's middle along the owner's clockwise walk (``owner_offset_mm``)."""
        return owner_offset_mm(self.edge, self.along_mm, self.owner)

    def offset_for(self, section: int) -> tuple[float, int]:
        """The knob as seen from ``section``'s clockwise walk: (offset_mm, +1 tab / -1 blank)."""
        if section == self.owner:
            return (self.owner_offset_mm(), 1)
        return (-self.owner_offset_mm(), -1)


AlongT = TypeVar("AlongT", float, np.ndarray)


def owner_offset_mm(edge: Edge, along_mm: AlongT, owner: int) -> AlongT:
    """The offset from ``edge``'s middle, along ``owner``'s clockwise walk, of a knob ``owner`` carries at
    ``along_mm`` (a position, or an array of them: one offset each). Y down: the top edge walks +x, the right
    edge +y, the bottom edge -x, the left edge -y."""
    offset = along_mm - edge.middle_mm
    into_second = owner == edge.first
    if edge.vertical:  # owner left of the line walks its right side downwards (+y)
        return offset if into_second else -offset
    return -offset if into_second else offset  # owner above walks its bottom side leftwards (-x)


def knob_shape(settings: SectionsConfig, overlap_mm: float = 0.6) -> Polygon:
    """A tab in local coordinates: u along the cut line, v across it (v > 0 inside the neighbour).

    The neck starts ``overlap_mm`` behind the line so the tab joins its owner without a sliver.
    """
    neck = settings.knob_neck_mm
    radius = settings.knob_head_mm / 2
    head_v = settings.knob_depth_mm - radius
    shape = shapely.union(box(-neck / 2, -overlap_mm, neck / 2, head_v), Point(0.0, head_v).buffer(radius, 24))
    fillet = min(1.2, neck / 4)
    shape = shape.buffer(fillet, 12).buffer(-fillet, 12)
    # The closing rounds the neck's foot too; cut it back to a square foot behind the line.
    shape = shapely.intersection(shape, box(-radius - fillet, -overlap_mm, radius + fillet, settings.knob_depth_mm))
    return shapely.union(shape, box(-neck / 2, -overlap_mm, neck / 2, 0.5))


def _knob_matrix(edge: Edge, along_mm: float | np.ndarray, into_second: bool) -> list[float | np.ndarray]:
    """The affine matrix (shapely's a, b, d, e, xoff, yoff) that moves a local knob shape onto ``edge``."""
    # local (u, v) -> board: vertical line: x = fixed + s*v, y = along + u; horizontal: x = along + u, y = fixed + s*v
    sign = 1.0 if into_second else -1.0
    if edge.vertical:
        return [0.0, sign, 1.0, 0.0, edge.fixed_mm, along_mm]
    return [1.0, 0.0, 0.0, sign, along_mm, edge.fixed_mm]


def place_knob_shape(shape: Polygon, edge: Edge, along_mm: float, into_second: bool, snap: bool = True) -> Polygon:
    """Move a local knob shape onto ``edge`` at ``along_mm``, reaching into the second section or the first."""
    placed = affinity.affine_transform(shape, _knob_matrix(edge, along_mm, into_second))
    return shapely.set_precision(placed, GRID_MM) if snap else placed


def place_knob_shapes(shape: Polygon, edge: Edge, alongs_mm: Sequence[float], into_second: bool) -> np.ndarray:
    """``place_knob_shape(..., snap=False)`` at each of ``alongs_mm``, as one array made in one pass: the same
    arithmetic (shapely's ``affine_transform``, element by element), so the same coordinates to the last bit."""
    n = len(shapely.get_coordinates(shape))
    a, b, d, e, xoff, yoff = _knob_matrix(edge, np.repeat(np.asarray(alongs_mm, dtype=np.float64), n), into_second)

    def move(coords: np.ndarray) -> np.ndarray:
        x, y = coords.T
        return np.stack([a * x + b * y + xoff, d * x + e * y + yoff]).T

    copies = np.empty(len(alongs_mm), dtype=object)
    copies[:] = [shape] * len(alongs_mm)
    return shapely.transform(copies, move)


def knobs_clear_of(shape: Polygon, edge: Edge, alongs_mm: Sequence[float], into_second: bool,
                   blocked: shapely.Geometry) -> list[bool]:
    """For each position of ``alongs_mm``: does the knob placed there (``place_knob_shape(..., snap=False)``) keep
    clear of ``blocked`` (best prepared)? The same answers as testing each knob, but only the knobs whose bounding
    box (grown by a micrometre) reaches ``blocked`` are made and tested."""
    alongs = np.asarray(alongs_mm, dtype=np.float64)
    a, b, d, e, xoff, yoff = _knob_matrix(edge, alongs, into_second)
    x0, y0, x1, y1 = shape.bounds
    corners = [(x, y) for x in (x0, x1) for y in (y0, y1)]
    xs = np.broadcast_arrays(*[a * x + b * y + xoff for x, y in corners])
    ys = np.broadcast_arrays(*[d * x + e * y + yoff for x, y in corners])
    grow = 1e-3
    boxes = shapely.box(np.minimum.reduce(xs) - grow, np.minimum.reduce(ys) - grow,
                        np.maximum.reduce(xs) + grow, np.maximum.reduce(ys) + grow)
    clear = ~shapely.intersects(boxes, blocked)
    near = np.flatnonzero(~clear)
    if len(near):
        clear[near] = ~shapely.intersects(place_knob_shapes(shape, edge, alongs[near].tolist(), into_second), blocked)
    return [bool(c) for c in clear]


def preferred_owner(edge: Edge, rows_columns: tuple[int, int]) -> int:
    """Alternate tabs and blanks like a jigsaw: a chequer pattern over the sections."""
    _, columns = rows_columns
    r, c = divmod(edge.first, columns)
    if edge.vertical:
        return edge.first if (r + c) % 2 == 0 else edge.second
    return edge.second if (r + c) % 2 == 0 else edge.first


def candidate_positions(edge: Edge, settings: SectionsConfig, step_mm: float = 0.5) -> list[float]:
    """Knob axis positions along an edge, keeping clear of the junctions at its ends."""
    margin = settings.knob_depth_mm + settings.knob_head_mm / 2 + 4.0
    start, end = edge.start_mm + margin, edge.end_mm - margin
    if end < start:
        return []
    count = math.floor((end - start) / step_mm)
    return [start + i * step_mm for i in range(count + 1)]


def spaced_choice(candidates: Sequence[tuple[float, float]], used_offsets: Sequence[float],
                  spacing_mm: float) -> tuple[float, float] | None:
    """Of (along_mm, owner_offset_mm) candidates, the one nearest the edge's middle whose offset keeps
    ``spacing_mm`` from every offset already used."""
    best = None
    for along, offset in candidates:
        if all(abs(offset - used) >= spacing_mm for used in used_offsets):
            key = (abs(offset), offset)
            if best is None or key < best[0]:
                best = (key, (along, offset))
    return None if best is None else best[1]
