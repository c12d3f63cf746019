"""Global lon/lat rasters (Köppen–Geiger classes, elevation) and sampling them at board points.

Both shipped grids are 5 arc-minute, cell-centred, row 0 at 90N and column 0 at 180W (see naturalearth/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from boardgen.errors import DataError

KOPPEN_OCEAN = 32
OFFSET_BLOCK_CELLS = 1 << 18  # grid look-ups per vectorised step of the nearest-land search
ELEVATION_STEP_M = 50.0  # the elevation PNG stores metres / 50 (land only; the sea floor is 0)


@dataclass(frozen=True)
class GlobalGrid:
    values: np.ndarray  # (rows, cols), row 0 at the north pole edge, column 0 at 180W
    step: float | None = None  # sampled values are float32(value) * step (None: the values as stored)

    @property
    def cells_per_degree(self) -> float:
        return self.values.shape[1] / 360.0

    def indices(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows, cols = self.values.shape
        k = self.cells_per_degree
        col = np.floor((np.asarray(lon) + 180.0) * k).astype(np.int64) % cols
        row = np.clip(np.floor((90.0 - np.asarray(lat)) * k).astype(np.int64), 0, rows - 1)
        return row, col

    def sample(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        row, col = self.indices(lon, lat)
        values = self.values[row, col]
        # scaled after sampling: the same float32 values as scaling the whole grid first, without doing so
        return values if self.step is None else values.astype(np.float32) * self.step


def _read_png(path: Path, what: str, shape_ratio: float = 2.0) -> np.ndarray:
    try:
        with Image.open(path) as image:
            values = np.asarray(image)
    except FileNotFoundError:
        raise DataError(f"{path}: {what} file not found (run scripts/refresh_data.py)") from None
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise DataError(f"{path}: not a readable PNG ({str(exc)[:200]})") from None
    if values.ndim != 2 or values.shape[1] != shape_ratio * values.shape[0]:
        raise DataError(f"{path}: expected a single-band global grid twice as wide as high, got {values.shape}")
    return values


@lru_cache(maxsize=4)
def load_koppen(path: Path) -> GlobalGrid:
    values = _read_png(path, "Köppen–Geiger raster")
    if values.min() < 1 or values.max() > KOPPEN_OCEAN:
        raise DataError(f"{path}: Köppen classes must be 1..32, found {values.min()}..{values.max()}")
    return GlobalGrid(values)


@lru_cache(maxsize=4)
def load_elevation(path: Path) -> GlobalGrid:
    values = _read_png(path, "elevation raster")
    sea_share = float(np.count_nonzero(values == 0) / values.size)
    if sea_share < 0.3:  # the sea is 0 and covers ~70% of the globe; a Köppen raster (1..32) has no zeros
        raise DataError(f"{path}: not an elevation raster (only {sea_share:.0%} of it is at sea level; expected "
                        "the sea as 0, as in elevation-5m.png, not the Köppen raster)")
    return GlobalGrid(values, ELEVATION_STEP_M)


@lru_cache(maxsize=8)
def _offsets_nearest_first(max_radius: int) -> np.ndarray:
    """(row, column) offsets within ``max_radius``, nearest first (ties in (row, column) order), without (0, 0)."""
    return np.array(sorted(
        ((dr, dc) for dr in range(-max_radius, max_radius + 1) for dc in range(-max_radius, max_radius + 1)),
        key=lambda o: (o[0] ** 2 + o[1] ** 2, o),
    )[1:], dtype=np.int64).reshape(-1, 2)


def sample_koppen_land(grid: GlobalGrid, lon: np.ndarray, lat: np.ndarray, max_radius: int = 8) -> np.ndarray:
    """Köppen class at each point; where the raster says ocean (coastlines differ between data sets), the
    nearest land class within ``max_radius`` grid cells. Still ocean (32) if none is that near."""
    row, col = grid.indices(lon, lat)
    classes = grid.values[row, col].copy()
    missing = np.flatnonzero(classes == KOPPEN_OCEAN)
    rows, cols = grid.values.shape
    offsets = _offsets_nearest_first(max_radius)
    # the nearest offset (in that order) that lands on a land class, a block of offsets at a time
    block = max(1, OFFSET_BLOCK_CELLS // max(1, missing.size))
    for start in range(0, len(offsets), block):
        if missing.size == 0:
            break
        dr, dc = offsets[start:start + block, 0], offsets[start:start + block, 1]
        found = grid.values[np.clip(row[missing, None] + dr, 0, rows - 1), (col[missing, None] + dc) % cols]
        land = found != KOPPEN_OCEAN
        hit = land.any(axis=1)
        first = land.argmax(axis=1)
        classes[missing[hit]] = found[np.flatnonzero(hit), first[hit]]
        missing = missing[~hit]
    return classes
