"""Hexagon maths in axial coordinates, after Red Blob Games' reference.

Hexes live in their own coordinates (``Hex(q, r)``, with ``s = -q - r``); ``HexLayout`` alone knows about
board millimetres. Board millimetres have their origin at the top-left of the trimmed board, x to the right
and y *down* (as on a printed page and in cairo).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, order=True)
class Hex:
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def neighbours(self) -> tuple[Hex, ...]:
        return tuple(self + d for d in HEX_DIRECTIONS)

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


HEX_DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


@dataclass(frozen=True)
class Orientation:
    name: str
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in multiples of 60 degrees


POINTY = Orientation("pointy", SQRT3, SQRT3 / 2, 0.0, 1.5, SQRT3 / 3, -1 / 3, 0.0, 2 / 3, 0.5)
FLAT = Orientation("flat", 1.5, 0.0, SQRT3 / 2, SQRT3, 2 / 3, 0.0, -1 / 3, SQRT3 / 3, 0.0)


def orientation_named(name: Literal["pointy", "flat"]) -> Orientation:
    return POINTY if name == "pointy" else FLAT


@dataclass(frozen=True)
class HexLayout:
    """Where hexes sit on the board: orientation, circumradius and the board position of Hex(0, 0)."""

    orientation: Orientation
    size_mm: float
    origin_mm: tuple[float, float]

    def hex_to_point(self, h: Hex) -> tuple[float, float]:
        o = self.orientation
        x = (o.f0 * h.q + o.f1 * h.r) * self.size_mm
        y = (o.f2 * h.q + o.f3 * h.r) * self.size_mm
        return (x + self.origin_mm[0], y + self.origin_mm[1])

    def fractional_hex(self, x_mm: np.ndarray, y_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        o = self.orientation
        px = (np.asarray(x_mm, dtype=float) - self.origin_mm[0]) / self.size_mm
        py = (np.asarray(y_mm, dtype=float) - self.origin_mm[1]) / self.size_mm
        return o.b0 * px + o.b1 * py, o.b2 * px + o.b3 * py

    def points_to_hexes(self, x_mm: np.ndarray, y_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised point -> (q, r) integer arrays (cube rounding).

        The arithmetic of ``fractional_hex`` and of rounding to the nearest cube coordinate, operation for
        operation, but in a few reused buffers: the hex size search calls this on every land pixel many times."""
        o = self.orientation
        px = np.asarray(x_mm, dtype=float) - self.origin_mm[0]
        px /= self.size_mm
        py = np.asarray(y_mm, dtype=float) - self.origin_mm[1]
        py /= self.size_mm
        fq = np.multiply(px, o.b0)
        spare = np.multiply(py, o.b1)
        fq += spare
        fr = np.multiply(px, o.b2, out=px)
        fr += np.multiply(py, o.b3, out=py)
        fs = np.negative(fq, out=spare)
        fs -= fr
        q, r, s = np.round(fq), np.round(fr), np.round(fs)
        dq = np.abs(np.subtract(q, fq, out=fq), out=fq)
        dr = np.abs(np.subtract(r, fr, out=fr), out=fr)
        ds = np.abs(np.subtract(s, fs, out=fs), out=fs)
        fix_q = dq > dr
        fix_q &= dq > ds
        fix_r = dr > ds
        fix_r &= ~fix_q
        other = np.negative(r, out=dq)  # q where it is fixed: -r - s
        other -= s
        np.copyto(q, other, where=fix_q)
        other = np.negative(q, out=dr)  # r where it is fixed: -q - s (q already fixed)
        other -= s
        np.copyto(r, other, where=fix_r)
        return q.astype(np.int64), r.astype(np.int64)

    def point_to_hex(self, x_mm: float, y_mm: float) -> Hex:
        q, r = self.points_to_hexes(np.array([x_mm]), np.array([y_mm]))
        return Hex(int(q[0]), int(r[0]))

    def corner_offsets(self) -> list[tuple[float, float]]:
        return list(_corner_offsets(self.orientation.start_angle, self.size_mm))

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners in board mm, clockwise on the page (y down)."""
        cx, cy = self.hex_to_point(h)
        return [(cx + dx, cy + dy) for dx, dy in self.corner_offsets()]

    @property
    def width_mm(self) -> float:
        """Hex extent along x."""
        return SQRT3 * self.size_mm if self.orientation is POINTY else 2 * self.size_mm

    @property
    def height_mm(self) -> float:
        return 2 * self.size_mm if self.orientation is POINTY else SQRT3 * self.size_mm

    @property
    def area_mm2(self) -> float:
        return 1.5 * SQRT3 * self.size_mm**2


@functools.lru_cache(maxsize=64)
def _corner_offsets(start_angle: float, size_mm: float) -> tuple[tuple[float, float], ...]:
    """A hexagon's corners relative to its centre (computed once per orientation and size)."""
    angles = [2 * math.pi * (start_angle + i) / 6 for i in range(6)]
    return tuple((size_mm * math.cos(a), size_mm * math.sin(a)) for a in angles)


def hexes_covering(layout: HexLayout, width_mm: float, height_mm: float) -> list[Hex]:
    """Every hex whose centre lies within the board rectangle grown by one hex, sorted."""
    q, r = hexes_covering_qr(layout, width_mm, height_mm)
    return [Hex(a, b) for a, b in zip(q.tolist(), r.tolist(), strict=True)]


def hexes_covering_qr(layout: HexLayout, width_mm: float, height_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """``hexes_covering`` as (q, r) arrays, sorted by q then r."""
    pad = 2 * layout.size_mm
    xs = np.arange(-pad, width_mm + pad, layout.size_mm / 2)
    ys = np.arange(-pad, height_mm + pad, layout.size_mm / 2)
    gx, gy = np.meshgrid(xs, ys)
    q, r = layout.points_to_hexes(gx.ravel(), gy.ravel())
    # the (q, r) pairs present, in Hex order (q, then r): counted on their bounding box rather than sorted
    q0, r0 = int(q.min()), int(r.min())
    span_r = int(r.max()) - r0 + 1
    present = np.flatnonzero(np.bincount((q - q0) * span_r + (r - r0)))
    q, r = present // span_r + q0, present % span_r + r0
    o, size = layout.orientation, layout.size_mm
    x = (o.f0 * q + o.f1 * r) * size + layout.origin_mm[0]  # layout.hex_to_point, for all at once
    y = (o.f2 * q + o.f3 * r) * size + layout.origin_mm[1]
    on_board = (-size <= x) & (x <= width_mm + size) & (-size <= y) & (y <= height_mm + size)
    return q[on_board], r[on_board]


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, ... (spreadsheet columns)."""
    if index < 0:
        raise ValueError("column index must be >= 0")
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def offset_coordinates_array(layout: HexLayout, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``offset_coordinates`` of many hexes at once."""
    if layout.orientation is POINTY:
        return q + (r - (r & 1)) // 2, r
    return q, r + (q - (q & 1)) // 2


def offset_coordinates(layout: HexLayout, h: Hex) -> tuple[int, int]:
    """(column, row) in the 'odd-r' (pointy) or 'odd-q' (flat) offset system, relative to Hex(0, 0)."""
    if layout.orientation is POINTY:
        return h.q + (h.r - (h.r & 1)) // 2, h.r
    return h.q, h.r + (h.q - (h.q & 1)) // 2
