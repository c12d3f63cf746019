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


class _FreePixels:
    """A necessary test for "this box lies in the free area", fast for every box of a 1 mm grid at once: the
    grid's pixels whose centre lies inside the area, summed in an integral image. Every pixel wholly inside a box
    that lies in the area is such a pixel, so the exact (slower) shapely test runs only on the boxes that pass
    and the result is the same as testing every box exactly."""

    def __init__(self, area: shapely.Geometry, step_mm: float) -> None:
        x0, y0, x1, y1 = area.bounds if not area.is_empty else (0, 0, 0, 0)
        self.x0, self.y0, self.step = float(np.floor(x0)), float(np.floor(y0)), step_mm
        self.nx = max(int(np.ceil((x1 - self.x0) / step_mm)), 0)
        self.ny = max(int(np.ceil((y1 - self.y0) / step_mm)), 0)
        gx, gy = np.meshgrid(self.x0 + (np.arange(self.nx) + 0.5) * step_mm,
                             self.y0 + (np.arange(self.ny) + 0.5) * step_mm)
        shapely.prepare(area)
        inside = shapely.contains_xy(area, gx, gy) if gx.size else np.zeros((self.ny, self.nx), dtype=bool)
        self.inside = np.asarray(inside, dtype=bool).reshape(self.ny, self.nx)

    def block(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Mark the pixels whose inside meets the rectangle (a placed block and its gap) as not free."""
        i0 = max(int(np.floor((x0 - self.x0) / self.step)), 0)
        i1 = min(int(np.ceil((x1 - self.x0) / self.step)), self.nx)
        j0 = max(int(np.floor((y0 - self.y0) / self.step)), 0)
        j1 = min(int(np.ceil((y1 - self.y0) / self.step)), self.ny)
        if i0 < i1 and j0 < j1:
            self.inside[j0:j1, i0:i1] = False

    def may_fit(self, gx: np.ndarray, gy: np.ndarray, w: float, h: float) -> np.ndarray:
        """False where the box at (gx, gy) of size w x h surely does not lie in the area."""
        kx, ky = int(np.floor(w / self.step + 1e-9)), int(np.floor(h / self.step + 1e-9))
        table = np.zeros((self.ny + 1, self.nx + 1), dtype=np.int64)
        table[1:, 1:] = np.cumsum(np.cumsum(self.inside, axis=0), axis=1)
        i = np.rint((gx - self.x0) / self.step).astype(np.int64)
        j = np.rint((gy - self.y0) / self.step).astype(np.int64)
        ok = (i >= 0) & (j >= 0) & (i + kx <= self.nx) & (j + ky <= self.ny)
        i, j = np.where(ok, i, 0), np.where(ok, j, 0)
        total = table[j + ky, i + kx] - table[j, i + kx] - table[j + ky, i] + table[j, i]
        return ok & (total == kx * ky)


def place_blocks(area: shapely.Geometry, blocks: Sequence[BlockSpec], gap_mm: float = 4.0,
                 step_mm: float = 1.0, where: str = "the top-left section") -> list[PlacedBlock]:
    """Each block at the free position nearest its anchor, in order; placed blocks (plus ``gap_mm``) are
    taken out of the free area for the next ones."""
    placed: list[PlacedBlock] = []
    free = area
    pixels = _FreePixels(area, step_mm)
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
            maybe = np.flatnonzero(pixels.may_fit(gx, gy, w, h))
            fits = np.zeros(len(gx), dtype=bool)
            if len(maybe):
                fits[maybe] = shapely.contains(free, shapely.box(gx[maybe], gy[maybe], gx[maybe] + w, gy[maybe] + h))
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
        pixels.block(x - gap_mm, y - gap_mm, x + w + gap_mm, y + h + gap_mm)
    return placed
