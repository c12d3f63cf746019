"""Where the board's title, zone key and bio-productivity table go: open sea on the top-left section.

The free area is the section's outline shrunk by a margin (clear of the cut line, its knobs and the trim),
minus every land cell's hexagon and the coastlines, each grown by a clearance. Blocks are placed one after
another (largest first) at the free position nearest a preferred corner, searched on a 1 mm grid; a block
may offer several shapes (e.g. the key in one column or two). No room: LayoutError.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon, box

from boardgen.errors import LayoutError


@dataclass(frozen=True)
class BlockSpec:
    name: str
    shapes_mm: tuple[tuple[float, float], ...]  # (width, height) options, preferred first
    anchor_mm: tuple[float, float]  # prefer positions whose top-left corner is nearest this point


@dataclass(frozen=True)
class PlacedBlock:
    name: str
    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float
    shape_index: int  # which of the spec's shapes was used

    @property
    def polygon(self) -> Polygon:
        return box(self.x_mm, self.y_mm, self.x_mm + self.width_mm, self.y_mm + self.height_mm)


def free_area(section_outline: Polygon, board_size_mm: tuple[float, float], land_cells: Sequence[Polygon],
              coast: shapely.Geometry, cut_margin_mm: float = 5.0, edge_margin_mm: float = 6.0,
              land_clearance_mm: float = 2.0) -> shapely.Geometry:
    """Open sea on a section where legend blocks may go."""
    width_mm, height_mm = board_size_mm
    inner_board = box(edge_margin_mm, edge_margin_mm, width_mm - edge_margin_mm, height_mm - edge_margin_mm)
    # shrink by the cut margin only along the cut lines: the board edge has its own margin
    board_rect = box(0, 0, width_mm, height_mm)
    cut_lines = shapely.difference(section_outline.boundary, board_rect.boundary.buffer(1e-6))
    area = shapely.difference(shapely.intersection(section_outline, inner_board), cut_lines.buffer(cut_margin_mm))
    near = box(*area.bounds).buffer(land_clearance_mm + 1.0) if not area.is_empty else area
    hexes = np.asarray(land_cells, dtype=object)
    cells = list(hexes[shapely.intersects(hexes, near)]) if len(hexes) else []
    blocked = [shapely.union_all(cells).buffer(land_clearance_mm)] if cells else []
    if coast is not None and not coast.is_empty:
        blocked.append(shapely.intersection(coast, near).buffer(land_clearance_mm / 2))
    if blocked:
        area = shapely.difference(area, shapely.union_all(blocked))
    return area


def place_blocks(area: shapely.Geometry, blocks: Sequence[BlockSpec], gap_mm: float = 4.0,
                 step_mm: float = 1.0, where: str = "the top-left section") -> list[PlacedBlock]:
    """Each block at the free position nearest its anchor, in order; placed blocks (plus ``gap_mm``) are
    taken out of the free area for the next ones."""
    placed: list[PlacedBlock] = []
    free = area
    for spec in blocks:
        best: tuple[float, float, float, int, float, float] | None = None
        x0, y0, x1, y1 = free.bounds if not free.is_empty else (0, 0, 0, 0)
        shapely.prepare(free)
        for index, (w, h) in enumerate(spec.shapes_mm):
            xs = np.arange(np.floor(x0), x1 - w + 1e-9, step_mm)
            ys = np.arange(np.floor(y0), y1 - h + 1e-9, step_mm)
            if len(xs) == 0 or len(ys) == 0:
                continue
            mesh_x, mesh_y = np.meshgrid(xs, ys)
            gx, gy = mesh_x.ravel(), mesh_y.ravel()
            fits = shapely.contains(free, shapely.box(gx, gy, gx + w, gy + h))
            if not fits.any():
                continue
            ax, ay = spec.anchor_mm
            dist = np.hypot(gx[fits] - ax, gy[fits] - ay) + 15.0 * index  # a later shape must earn its place
            i = int(np.lexsort((gy[fits], gx[fits], dist))[0])
            candidate = (float(dist[i]), float(gx[fits][i]), float(gy[fits][i]), index, w, h)
            if best is None or candidate < best:
                best = candidate
        if best is None:
            sizes = " or ".join(f"{w:.0f} x {h:.0f} mm" for w, h in spec.shapes_mm)
            raise LayoutError(f"board: no room for the {spec.name} ({sizes}) in open sea on {where}")
        _, x, y, index, w, h = best
        block = PlacedBlock(spec.name, x, y, w, h, index)
        placed.append(block)
        free = shapely.difference(free, block.polygon.buffer(gap_mm, join_style="mitre"))
    return placed
