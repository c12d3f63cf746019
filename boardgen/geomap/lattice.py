"""The hex lattice over the projected land: land raster, hex size search and per-hex statistics.

Land is rasterised once on the board at ``map.raster_mm`` (each pixel also remembers which landmass it
belongs to); every per-hex figure is then a count over pixels, so trying a hex size costs one vectorised
point-to-hex pass instead of thousands of polygon intersections.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from boardgen.geomap.hexgrid import Hex, HexLayout, Orientation

SIZE_STEP_MM = 0.05  # searched hex sizes are rounded to this, so the result is stable


@dataclass(frozen=True)
class LandRaster:
    """Land pixels of the board: centres in mm and the index (into ``landmasses``) of their landmass."""

    step_mm: float
    x_mm: np.ndarray
    y_mm: np.ndarray
    landmass: np.ndarray  # int32, index into the polygon list that was rasterised
    _every_nth: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, init=False, repr=False,
                                                                 compare=False)

    @property
    def pixel_area_mm2(self) -> float:
        return self.step_mm**2

    def every_nth(self, stride: int) -> tuple[np.ndarray, np.ndarray]:
        """(x_mm, y_mm) of every stride-th pixel in each direction, picked once per stride (the size search
        samples the same pixels at every size it tries)."""
        if stride <= 1:
            return self.x_mm, self.y_mm
        if stride not in self._every_nth:
            keep = ((np.round(self.x_mm / self.step_mm - 0.5).astype(np.int64) % stride) == 0) & (
                (np.round(self.y_mm / self.step_mm - 0.5).astype(np.int64) % stride) == 0
            )
            self._every_nth[stride] = (self.x_mm[keep], self.y_mm[keep])
        return self._every_nth[stride]


def rasterise_land(polygons: Sequence[Polygon], width_mm: float, height_mm: float, step_mm: float) -> LandRaster:
    """Burn polygons into a label image (largest first, holes cleared, so islands in lakes survive)."""
    width_px, height_px = math.ceil(width_mm / step_mm), math.ceil(height_mm / step_mm)
    image = Image.new("I", (width_px, height_px), 0)
    draw = ImageDraw.Draw(image)

    def pixels(coords: np.ndarray) -> list[tuple[float, float]]:
        xy = np.asarray(coords)[:, :2] / step_mm - 0.5
        return [tuple(p) for p in xy.tolist()]

    order = sorted(range(len(polygons)), key=lambda i: -polygons[i].area)
    for index in order:
        polygon = polygons[index]
        draw.polygon(pixels(polygon.exterior.coords), fill=index + 1)
        for interior in polygon.interiors:
            draw.polygon(pixels(interior.coords), fill=0)
    labels = np.asarray(image, dtype=np.int32)
    ys, xs = np.nonzero(labels)
    return LandRaster(step_mm, (xs + 0.5) * step_mm, (ys + 0.5) * step_mm, labels[ys, xs] - 1)


def pack_keys(q: Any, r: Any) -> Any:
    """A hex's key (an int, or int64 arrays of them): (q + 2**20) * 2**21 + (r + 2**20), so keys sort as (q, r)."""
    return (q + (1 << 20)) * (1 << 21) + (r + (1 << 20))


def unpack_keys(keys: Any) -> tuple[Any, Any]:
    """(q, r) of ``pack_keys``' keys (an int, or int64 arrays of them)."""
    return keys // (1 << 21) - (1 << 20), keys % (1 << 21) - (1 << 20)


def hex_keys(layout: HexLayout, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
    """One int64 key per point: the hex it falls in (``pack_keys``)."""
    return pack_keys(*layout.points_to_hexes(x_mm, y_mm))


def land_and_pixel_keys(layout: HexLayout, raster: LandRaster, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """(``land_hexes``' keys, ``hex_keys`` of every land pixel), from one point-to-hex pass."""
    q, r = layout.points_to_hexes(raster.x_mm, raster.y_mm)
    return _land_keys(q, r, layout, raster, threshold, 1)[0], pack_keys(q, r)


def hex_to_key(h: Hex) -> int:
    return int(pack_keys(h.q, h.r))


def key_to_hex(key: int) -> Hex:
    q, r = unpack_keys(int(key))
    return Hex(q, r)


def land_hexes(layout: HexLayout, raster: LandRaster, threshold: float,
               stride: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Keys of hexes with land share >= threshold, and their shares. ``stride`` > 1 samples every
    stride-th pixel in each direction (for a fast size search)."""
    return _land_keys(*layout.points_to_hexes(*raster.every_nth(stride)), layout, raster, threshold, stride)


def _land_keys(q: np.ndarray, r: np.ndarray, layout: HexLayout, raster: LandRaster, threshold: float,
               stride: int) -> tuple[np.ndarray, np.ndarray]:
    """``land_hexes`` of the pixels' hexes (q, r)."""
    keys, counts = _count_keys(q, r)
    shares = np.minimum(counts * (raster.pixel_area_mm2 * stride * stride) / layout.area_mm2, 1.0)
    chosen = shares >= threshold
    return keys[chosen], shares[chosen]


def _count_keys(q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(hex keys, return_counts=True)`` by counting on the (q, r) box instead of sorting."""
    if q.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    q0, r0 = int(q.min()), int(r.min())
    span_r = int(r.max()) - r0 + 1
    counts = np.bincount((q - q0) * span_r + (r - r0))
    present = np.flatnonzero(counts)
    return pack_keys(present // span_r + q0, present % span_r + r0), counts[present]


def search_hex_size(orientation: Orientation, origin_mm: tuple[float, float], raster: LandRaster,
                    threshold: float, target_cells: int,
                    counted: dict[tuple[float, int], int] | None = None) -> tuple[float, int, int]:
    """The hex size (rounded to SIZE_STEP_MM) whose land-cell count is closest to ``target_cells``.

    Bisection on a coarse sample narrows the size; the neighbourhood is then counted at full resolution.
    ``counted`` remembers (size_mm, stride) -> cell count between searches on the same raster and origin.
    Returns (size_mm, cell_count, sizes_tried)."""
    memo: dict[tuple[float, int], int] = {} if counted is None else counted

    def count(size_mm: float, stride: int) -> int:
        if (size_mm, stride) not in memo:
            layout = HexLayout(orientation, size_mm, origin_mm)
            memo[size_mm, stride] = len(land_hexes(layout, raster, threshold, stride)[0])
        return memo[size_mm, stride]

    tried = 0
    low, high = 1.0, 80.0  # count(low) > target > count(high) for any sensible board
    while high - low > 4 * SIZE_STEP_MM:
        middle = 0.5 * (low + high)
        tried += 1
        if count(middle, 2) > target_cells:
            low = middle
        else:
            high = middle
    centre = round(0.5 * (low + high) / SIZE_STEP_MM)
    best: tuple[int, float, int] | None = None
    for step in range(centre - 6, centre + 7):
        size_mm = round(step * SIZE_STEP_MM, 4)
        n = count(size_mm, 1)
        tried += 1
        candidate = (abs(n - target_cells), -size_mm, n)
        if best is None or candidate < best:
            best = candidate
    assert best is not None
    return -best[1], best[2], tried


@dataclass(frozen=True)
class HexStats:
    """Per-hex sums over land pixels, for the hexes listed in ``keys`` (same order)."""

    keys: np.ndarray
    land_px: np.ndarray  # land pixels in the hex
    koppen_px: np.ndarray  # (n, 33): pixels per Köppen class value 0..32
    high_px: np.ndarray  # pixels at or above the high-ground elevation
    elevation_sum_m: np.ndarray


def hex_stats(keys: np.ndarray, pixel_keys: np.ndarray, koppen: np.ndarray, elevation_m: np.ndarray,
              high_ground: np.ndarray) -> HexStats:
    """Sums over the land pixels of each hex; ``high_ground`` marks the pixels that count as high ground."""
    index = np.searchsorted(keys, pixel_keys)
    index = np.clip(index, 0, len(keys) - 1)
    inside = keys[index] == pixel_keys
    idx = index[inside]
    n = len(keys)
    land_px = np.bincount(idx, minlength=n)
    koppen_px = np.bincount(idx * 33 + koppen[inside].astype(np.int64), minlength=n * 33).reshape(n, 33)
    high_px = np.bincount(idx, weights=high_ground[inside].astype(float), minlength=n)
    elevation_sum = np.bincount(idx, weights=elevation_m[inside].astype(float), minlength=n)
    return HexStats(keys, land_px, koppen_px, high_px, elevation_sum)
