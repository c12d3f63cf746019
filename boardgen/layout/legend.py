"""Where the board's title, zone key and bio-productivity table go: open sea on the top-left section.

The free area is the section's outline shrunk by a margin (clear of the cut line, its knobs and the trim),
minus every land cell's hexagon and the coastlines, each grown by a clearance. Blocks are placed one after
another (largest first) at the free position nearest a preferred corner, searched on a 1 mm grid; a block
may offer several shapes (e.g. the key in one column or two). No room: LayoutError. ``place_in_some_order``
tries the blocks' orders; a ``FreeArea`` keeps an area's pixel test for every placement made on it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
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
    if blocked:  # one alone needs no union (a unary union of a long coast's buffer costs as much as the buffer)
        area = shapely.difference(area, blocked[0] if len(blocked) == 1 else shapely.union_all(blocked))
    return area


def joined_parts(parts: np.ndarray, within: shapely.Geometry | None = None) -> shapely.Geometry:
    """The union of ``parts`` (polygons, e.g. a coast's, that may overlap), the shape
    ``shapely.union_all(parts)`` gives, for less work: only the parts that meet another are joined (a few, on a
    coast), the others kept as they are, side by side in one MultiPolygon. Where parts overlap only in pairs (as
    on the board's coast) the vertices are the union's too, only their order differs; three or more overlapping
    one another may differ from it in the last bits of the points where they cross. ``within``: only the
    union's part inside it is wanted (the parts that meet another are cut to it before they are joined)."""
    if len(parts) < 2:
        return shapely.union_all(parts)
    first, second = shapely.STRtree(parts).query(parts)  # the pairs whose bounding boxes meet
    pairs = first < second
    first, second = first[pairs], second[pairs]
    # the part with more corners first, prepared (a continent is met by many islands' boxes)
    swap = shapely.get_num_coordinates(parts[first]) < shapely.get_num_coordinates(parts[second])
    first, second = np.where(swap, second, first), np.where(swap, first, second)
    shapely.prepare(parts[np.unique(first)])
    meet = shapely.intersects(parts[first], parts[second])
    if not meet.any():
        return shapely.multipolygons(list(parts))
    group = list(range(len(parts)))  # each part's group, named by its lowest part (union-find)

    def root(k: int) -> int:
        while group[k] != k:
            group[k] = group[group[k]]
            k = group[k]
        return k

    for a, b in zip(first[meet].tolist(), second[meet].tolist(), strict=True):
        ra, rb = root(a), root(b)
        if ra != rb:
            group[max(ra, rb)] = min(ra, rb)
    members: dict[int, list[int]] = {}
    for k in range(len(parts)):
        members.setdefault(root(k), []).append(k)
    polygons: list[shapely.Geometry] = []
    for together in members.values():
        if len(together) == 1:
            polygons.append(parts[together[0]])
            continue
        pieces = parts[together] if within is None else shapely.intersection(parts[together], within)
        polygons.extend(p for p in shapely.get_parts(shapely.union_all(pieces))
                        if p.geom_type == "Polygon" and not p.is_empty)
    return shapely.multipolygons(polygons)


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
        self._table: np.ndarray | None = None

    @classmethod
    def joined(cls, parts: Sequence[_FreePixels], area: shapely.Geometry, step_mm: float) -> _FreePixels:
        """The pixels of ``area``, the union of areas that do not touch whose pixels are ``parts`` (each maybe
        blocked since, on the same grid step): a pixel is free when it is free in a part. A pixel whose centre
        lies in the union lies in one part, so every pixel the sampled union marks is marked here too (what the
        test needs: it stays necessary). Parts whose grids do not line up with the union's are sampled afresh."""
        joined = cls.__new__(cls)
        x0, y0, x1, y1 = area.bounds if not area.is_empty else (0, 0, 0, 0)
        joined.x0, joined.y0, joined.step = float(np.floor(x0)), float(np.floor(y0)), step_mm
        joined.nx = max(int(np.ceil((x1 - joined.x0) / step_mm)), 0)
        joined.ny = max(int(np.ceil((y1 - joined.y0) / step_mm)), 0)
        joined.inside = np.zeros((joined.ny, joined.nx), dtype=bool)
        joined._table = None
        for part in parts:
            shift_i, shift_j = (part.x0 - joined.x0) / step_mm, (part.y0 - joined.y0) / step_mm
            di, dj = round(shift_i), round(shift_j)
            if part.step != step_mm or di != shift_i or dj != shift_j:
                return cls(area, step_mm)
            i0, j0 = max(di, 0), max(dj, 0)
            i1, j1 = min(di + part.nx, joined.nx), min(dj + part.ny, joined.ny)
            if i0 < i1 and j0 < j1:
                joined.inside[j0:j1, i0:i1] |= part.inside[j0 - dj:j1 - dj, i0 - di:i1 - di]
        return joined

    def copy(self) -> _FreePixels:
        """The same pixels, to block without touching these."""
        twin = copy.copy(self)
        twin.inside = self.inside.copy()
        return twin

    def block(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Mark the pixels whose inside meets the rectangle (a placed block and its gap) as not free."""
        i0 = max(int(np.floor((x0 - self.x0) / self.step)), 0)
        i1 = min(int(np.ceil((x1 - self.x0) / self.step)), self.nx)
        j0 = max(int(np.floor((y0 - self.y0) / self.step)), 0)
        j1 = min(int(np.ceil((y1 - self.y0) / self.step)), self.ny)
        if i0 < i1 and j0 < j1:
            self.inside[j0:j1, i0:i1] = False
            self._table = None

    def free_count(self) -> int:
        """How many pixels are free (a box needs at least its own pixels' count)."""
        return int(self.table()[-1, -1])

    def table(self) -> np.ndarray:
        """The integral image of the free pixels (made once until a block is taken out)."""
        if self._table is None:
            table = np.zeros((self.ny + 1, self.nx + 1), dtype=np.int64)
            table[1:, 1:] = np.cumsum(np.cumsum(self.inside, axis=0), axis=1)
            self._table = table
        return self._table

    def may_fit(self, xs: np.ndarray, ys: np.ndarray, w: float, h: float) -> np.ndarray:
        """False where the box of size w x h at (xs[i], ys[j]) (at [j, i]) surely does not lie in the area."""
        return self.may_fit_at(self.fitting(w, h), xs, ys, w, h)

    def fitting(self, w: float, h: float) -> np.ndarray:
        """The pixel test of the w x h box at every pixel of the grid ([j, i]: its top-left corner at pixel
        (i, j)); empty when the box is larger than the grid."""
        kx, ky = int(np.floor(w / self.step + 1e-9)), int(np.floor(h / self.step + 1e-9))
        if kx > self.nx or ky > self.ny:
            return np.zeros((0, 0), dtype=bool)
        table = self.table()
        rows, columns = self.ny - ky + 1, self.nx - kx + 1
        total = (table[ky:ky + rows, kx:kx + columns] - table[:rows, kx:kx + columns] - table[ky:ky + rows, :columns]
                 + table[:rows, :columns])
        return np.asarray(total == kx * ky)

    def may_fit_at(self, fitting: np.ndarray, xs: np.ndarray, ys: np.ndarray, w: float, h: float) -> np.ndarray:
        """``may_fit`` read from the w x h box's ``fitting``."""
        kx, ky = int(np.floor(w / self.step + 1e-9)), int(np.floor(h / self.step + 1e-9))
        i = np.rint((xs - self.x0) / self.step).astype(np.int64)
        j = np.rint((ys - self.y0) / self.step).astype(np.int64)
        ok_i, ok_j = (i >= 0) & (i + kx <= self.nx), (j >= 0) & (j + ky <= self.ny)
        if not fitting.size:
            return np.zeros((len(ys), len(xs)), dtype=bool)
        i, j = np.where(ok_i, i, 0)[np.newaxis, :], np.where(ok_j, j, 0)[:, np.newaxis]
        return ok_j[:, np.newaxis] & ok_i[np.newaxis, :] & fitting[j, i]


class FreeArea:
    """An area where blocks may go (``free_area``'s geometry) with its pixel test made once: the legend's
    fallbacks place blocks on the same area many times (orders, scaled-down tiers), and each placement starts
    from a copy of these pixels instead of sampling the geometry again."""

    def __init__(self, geometry: shapely.Geometry, sample: Callable[[float], _FreePixels] | None = None) -> None:
        self.geometry = geometry
        self._pixels: dict[float, _FreePixels] = {}
        self._sample = sample  # how the pixels are made from other areas' (else the geometry is sampled)

    def pixels(self, step_mm: float) -> _FreePixels:
        """A fresh copy of the area's pixels on a ``step_mm`` grid (sampled on the first call)."""
        if step_mm not in self._pixels:
            self._pixels[step_mm] = (_FreePixels(self.geometry, step_mm) if self._sample is None
                                     else self._sample(step_mm))
        return self._pixels[step_mm].copy()

    def without(self, block: PlacedBlock, gap_mm: float) -> FreeArea:
        """This area without ``block`` and its gap, its pixels this area's with the block's marked taken (as
        ``place_blocks`` takes a placed block out)."""
        geometry = shapely.difference(self.geometry, block.polygon.buffer(gap_mm, join_style="mitre"))

        def sample(step_mm: float) -> _FreePixels:
            pixels = self.pixels(step_mm)
            pixels.block(block.x_mm - gap_mm, block.y_mm - gap_mm, block.x_mm + block.width_mm + gap_mm,
                         block.y_mm + block.height_mm + gap_mm)
            return pixels

        return FreeArea(geometry, sample)

    def union(self, other: FreeArea) -> FreeArea:
        """The union of the two areas; when they do not touch (e.g. open sea on two sections, each kept clear
        of its cut lines) its pixels are the two areas' joined, else the union is sampled."""
        geometry = shapely.union(self.geometry, other.geometry)
        if shapely.intersects(self.geometry, other.geometry):
            return FreeArea(geometry)
        return FreeArea(geometry, lambda step_mm: _FreePixels.joined(
            [self.pixels(step_mm), other.pixels(step_mm)], geometry, step_mm))


_EXACT_FIRST = 16
"""How many candidate boxes, nearest first, get the exact test at once (then twice as many, and so on)."""


def place_blocks(area: shapely.Geometry | FreeArea, blocks: Sequence[BlockSpec], gap_mm: float = 4.0,
                 step_mm: float = 1.0, where: str = "the top-left section") -> list[PlacedBlock]:
    """Each block at the free position nearest its anchor, in order; placed blocks (plus ``gap_mm``) are
    taken out of the free area for the next ones. ``area``: a geometry, or a ``FreeArea`` placed on before.

    A block's candidates are the grid positions of each of its shapes (a later shape 15 mm farther, so it must
    earn its place) that pass the pixel test; they get the exact test nearest first, in growing batches, and the
    first that passes wins: the position an exact test of every box would choose, without testing them all."""
    free_area_ = area if isinstance(area, FreeArea) else FreeArea(area)
    free, pixels = _Later.made(free_area_.geometry), free_area_.pixels(step_mm)
    placed: list[PlacedBlock] = []
    for n, spec in enumerate(blocks):
        block = _nearest_block(free, pixels, spec, step_mm, where)
        placed.append(block)
        if n + 1 < len(blocks):  # the last block's room is not needed
            free = _taken(free, pixels, block, gap_mm)
    return placed


def place_in_some_order(area: shapely.Geometry | FreeArea, blocks: Sequence[BlockSpec], gap_mm: float = 4.0,
                        step_mm: float = 1.0, where: str = "the top-left section") -> list[PlacedBlock]:
    """``place_blocks`` in the first order that places every block (the orders as ``itertools.permutations``
    lists them: each block nearest its corner, so another order may leave room for all), the blocks returned in
    ``blocks``' order; when no order does, the LayoutError of the first order. Orders that begin alike share
    those placements (a depth-first search over the orders), and a block that finds no room where the others
    are still to come ends every order from there (taking blocks out only shrinks its room), so the result is
    what trying each order in turn gives, for less work."""
    free_area_ = area if isinstance(area, FreeArea) else FreeArea(area)
    first_error: list[LayoutError] = []

    def search(free: _Later, pixels: _FreePixels, left: tuple[int, ...],
               placed: dict[int, PlacedBlock]) -> dict[int, PlacedBlock] | None:
        if not left:
            return placed
        for k in left:
            try:
                block = _nearest_block(free, pixels, blocks[k], step_mm, where)
            except LayoutError as exc:  # the first failure met is the first order's: it is searched first
                first_error.append(exc)
                return None  # no room for it here, so none after other blocks take theirs: no order from here
            rest = tuple(i for i in left if i != k)
            if not rest:
                return {**placed, k: block}
            more = pixels.copy()
            done = search(_taken(free, more, block, gap_mm), more, rest, {**placed, k: block})
            if done is not None:
                return done
        return None

    found = search(_Later.made(free_area_.geometry), free_area_.pixels(step_mm), tuple(range(len(blocks))), {})
    if found is None:
        raise first_error[0]
    return [found[k] for k in range(len(blocks))]


class _Later:
    """A free area's geometry made when first asked for: a block taken out of the area is often followed by one
    that passes the pixel test nowhere, which needs no geometry."""

    def __init__(self, make: Callable[[], shapely.Geometry]) -> None:
        self._make: Callable[[], shapely.Geometry] | None = make
        self._geometry: shapely.Geometry | None = None

    @classmethod
    def made(cls, geometry: shapely.Geometry) -> _Later:
        later = cls(lambda: geometry)
        later._geometry, later._make = geometry, None
        return later

    def __call__(self) -> shapely.Geometry:
        if self._make is not None:
            self._geometry, self._make = self._make(), None
        return self._geometry


def _taken(free: _Later, pixels: _FreePixels, block: PlacedBlock, gap_mm: float) -> _Later:
    """The free area without ``block`` and its gap (``pixels`` marked the same way, the geometry when needed)."""
    x, y, w, h = block.x_mm, block.y_mm, block.width_mm, block.height_mm
    pixels.block(x - gap_mm, y - gap_mm, x + w + gap_mm, y + h + gap_mm)
    return _Later(lambda: shapely.difference(free(), block.polygon.buffer(gap_mm, join_style="mitre")))


def _nearest_block(later: _Later, pixels: _FreePixels, spec: BlockSpec, step_mm: float, where: str
                   ) -> PlacedBlock:
    """``spec`` at its position nearest its anchor inside the free area ``later``, by (distance, x, y, shape
    index). The pixel test is made at every pixel first: when no shape passes it anywhere, no candidate does,
    and the area's geometry is not needed."""
    free_pixels = pixels.free_count()
    fitting: dict[int, np.ndarray] = {}
    for index, (w, h) in enumerate(spec.shapes_mm):
        if int(np.floor(w / step_mm + 1e-9)) * int(np.floor(h / step_mm + 1e-9)) > free_pixels:
            continue  # more pixels than are free: no position passes the pixel test
        passed = pixels.fitting(w, h)
        if passed.any():
            fitting[index] = passed
    free = later() if fitting else shapely.Polygon()
    x0, y0, x1, y1 = free.bounds if not free.is_empty else (0, 0, 0, 0)
    ax, ay = spec.anchor_mm
    xs_all, ys_all, dist_all, index_all = [], [], [], []
    for index, passed in fitting.items():
        w, h = spec.shapes_mm[index]
        xs = np.arange(np.floor(x0), x1 - w + 1e-9, step_mm)
        ys = np.arange(np.floor(y0), y1 - h + 1e-9, step_mm)
        if len(xs) == 0 or len(ys) == 0:
            continue
        rows, columns = np.nonzero(pixels.may_fit_at(passed, xs, ys, w, h))
        if not len(rows):
            continue
        gx, gy = xs[columns], ys[rows]
        xs_all.append(gx)
        ys_all.append(gy)
        dist_all.append(np.hypot(gx - ax, gy - ay) + 15.0 * index)
        index_all.append(np.full(len(gx), index))
    if xs_all:
        gx, gy, dist, shape = (np.concatenate(a) for a in (xs_all, ys_all, dist_all, index_all))
        widths = np.array([w for w, _ in spec.shapes_mm])[shape]
        heights = np.array([h for _, h in spec.shapes_mm])[shape]
        order = np.lexsort((shape, gy, gx, dist))
        shapely.prepare(free)
        start, batch = 0, _EXACT_FIRST
        while start < len(order):
            chosen = order[start:start + batch]
            x, y = gx[chosen], gy[chosen]
            fits = shapely.contains(free, shapely.box(x, y, x + widths[chosen], y + heights[chosen]))
            if fits.any():
                k = int(chosen[int(np.argmax(fits))])
                w, h = spec.shapes_mm[int(shape[k])]
                return PlacedBlock(spec.name, float(gx[k]), float(gy[k]), w, h, int(shape[k]))
            start, batch = start + batch, batch * 2
    sizes = " or ".join(f"{w:.0f} x {h:.0f} mm" for w, h in spec.shapes_mm)
    raise LayoutError(f"board: no room for the {spec.name} ({sizes}) in open sea on {where}")
