"""Player shapes and sizes: each player has a colour AND a shape, so colour-blind players can tell pieces apart.

Every shape fits a ``size_mm`` square and stays within a circle of radius ``0.6 * size_mm`` around its centre,
so a piece of ``piece_size_mm`` sits inside a board hex whose inner radius is at least that.
"""

from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import Point, Polygon

from boardgen.errors import ConfigError

PIECE_SHARE_OF_HEX = 0.78
MIN_PIECE_MM = 6.0
"""The smallest player piece we print: smaller tokens cannot be cut out or picked up, nor their label read."""
"""An automatic piece is this share of the board hex's inner diameter (room to pick it up)."""


def _regular(cx: float, cy: float, r: float, n: int, start_deg: float = -90.0) -> Polygon:
    return Polygon([(cx + r * math.cos(math.radians(start_deg + 360.0 * i / n)),
                     cy + r * math.sin(math.radians(start_deg + 360.0 * i / n))) for i in range(n)])


def player_shape(shape: str, cx: float, cy: float, size_mm: float) -> Polygon:
    """The outline of a player's piece, centred on (cx, cy), within a size x size square."""
    half = size_mm / 2
    if shape == "circle":
        return Point(cx, cy).buffer(half, quad_segs=12)
    if shape == "square":
        s = size_mm * 0.42
        return Polygon([(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)])
    if shape == "triangle":
        # equilateral, pointing up, around its centroid (nudged down so it looks centred in a hex)
        return _regular(cx, cy + size_mm * 0.06, size_mm * 0.58, 3)
    if shape == "diamond":
        return Polygon([(cx, cy - half), (cx + half * 0.82, cy), (cx, cy + half), (cx - half * 0.82, cy)])
    if shape == "hexagon":
        return _regular(cx, cy, half, 6, 0.0)
    if shape == "pentagon":
        poly = _regular(cx, cy, half, 5)
        _minx, miny, _maxx, maxy = poly.bounds
        return affinity.translate(poly, 0.0, cy - (miny + maxy) / 2)
    if shape == "star":
        pts = []
        for i in range(10):
            r = half if i % 2 == 0 else half * 0.5
            a = math.radians(-90 + 36 * i)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return Polygon(pts)
    if shape == "octagon":
        return _regular(cx, cy, half, 8, 22.5)
    raise ValueError(f"unknown player shape {shape!r}")


def shape_label_point(shape: str, cx: float, cy: float, size_mm: float) -> tuple[float, float]:
    """Where the "P3" label sits inside the shape (lower in a triangle)."""
    if shape == "triangle":
        return (cx, cy + size_mm * 0.12)
    return (cx, cy)


def label_width_share(shape: str) -> float:
    """How much of the size the label may take (narrow shapes get smaller labels)."""
    return {"triangle": 0.4, "diamond": 0.4, "star": 0.36, "pentagon": 0.46}.get(shape, 0.56)


def hex_inner_diameter_mm(hex_size_mm: float) -> float:
    """The diameter of the circle inside a hex of circumradius ``hex_size_mm``."""
    return hex_size_mm * math.sqrt(3)


def piece_size_mm(size: float | None, hex_size_mm: float, source: str) -> float:
    """The token width: the template's ``size`` (key ``components.piece_size`` of the template at ``source``), or
    when None PIECE_SHARE_OF_HEX of the hex's inner diameter, rounded to 0.5 mm.

    Raises ConfigError if the size does not sit inside the board's hex."""
    inner = hex_inner_diameter_mm(hex_size_mm)
    if size is None:
        auto = math.floor(inner * PIECE_SHARE_OF_HEX * 2) / 2
        if auto < MIN_PIECE_MM:
            raise ConfigError(source, "hexes", f"the board's {hex_size_mm:.2f}mm hexes leave room for "
                              f"{auto:g}mm pieces; expected at least {MIN_PIECE_MM:g}mm (fewer cells, a bigger "
                              "board or larger hexes)")
        return auto
    if size < MIN_PIECE_MM:
        raise ConfigError(source, "components.piece_size",
                          f"a {size:g}mm piece is too small to cut out; expected at least {MIN_PIECE_MM:g}mm")
    if size > inner * 0.95:
        raise ConfigError(source, "components.piece_size",
                          f"a {size:g}mm piece does not sit inside the board's {hex_size_mm:.2f}mm hexes "
                          f"(inner diameter {inner:.1f}mm); expected at most {inner * 0.95:.1f}mm or auto")
    return float(size)
