"""A small picture of the board (cells in zone colours over faint land) for the rules leaflet and README."""

from __future__ import annotations

import math

import numpy as np
import shapely

from boardgen.games.global_wellbeing.leaflet import Pictures
from boardgen.games.global_wellbeing.schema import Config
from boardgen.geomap.model import Board
from boardgen.render.cairo_backend import Page, render_pdf
from boardgen.render.scene import PT, Op, Path, Polygon, Rect, RectOp, Scene, Style, group, ink_on, scale, translate
from boardgen.render.symbols import zone_symbol

OCEAN = "#e4f0f6"
LAND = "#c9c2b0"
LAND_SIMPLIFY_MM = 0.8
"""Coastline detail kept, in board mm (the leaflet map is about a fifth of the board's size)."""


def _land_paths(board: Board) -> list[Op]:
    """Each land polygon's outer ring, simplified (all rings in one shapely call)."""
    rings = shapely.simplify(shapely.get_exterior_ring(shapely.get_parts(board.land_mm)), LAND_SIMPLIFY_MM,
                             preserve_topology=True)
    coords, owner = shapely.get_coordinates(rings, return_index=True)
    starts = np.searchsorted(owner, np.arange(len(rings) + 1))
    xy = coords.tolist()
    ops: list[Op] = []
    style = Style(fill=LAND)
    for start, end in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True):
        if end - start < 4:
            continue
        commands = [("M", *xy[start]), *(("L", *c) for c in xy[start + 1:end]), ("Z",)]
        ops.append(Path(tuple(commands), style))
    return ops


def minimap_scene(board: Board, width_mm: float, symbols: bool = True, crop: bool = True) -> tuple[Scene, float]:
    """The board scaled to ``width_mm``: (scene, height_mm). ``crop``: only the part with cells (plus a hex)."""
    cfg = board.config
    view = Rect(0.0, 0.0, cfg.board.width_mm, cfg.board.height_mm)
    corners = [tuple(board.hex_corners_mm(c)) for c in board.cells]  # each cell's, once
    if crop and board.cells:
        xs = [x for cell in corners for x, _ in cell]
        ys = [y for cell in corners for _, y in cell]
        pad = board.layout.size_mm
        x0, y0 = max(0.0, min(xs) - pad), max(0.0, min(ys) - pad)
        x1, y1 = min(view.width, max(xs) + pad), min(view.height, max(ys) + pad)
        view = Rect(x0, y0, x1 - x0, y1 - y0)
    k = width_mm / view.width
    height_mm = view.height * k
    ops: list[Op] = [RectOp(Rect(0, 0, cfg.board.width_mm, cfg.board.height_mm), Style(fill=OCEAN))]
    ops.extend(_land_paths(board))
    line = Style(stroke="#ffffff", stroke_width_mm=0.5 * PT / k)  # 0.5 pt at the map's size: at least 0.25 pt placed
    for cell, outline in zip(board.cells, corners, strict=True):
        colour = cfg.zones[cell.zone].colour
        ops.append(Polygon(outline, Style(fill=colour), name="map-cell"))
        ops.append(Polygon(outline, line))
    if symbols:
        for cell in board.cells:
            zone = cfg.zones[cell.zone]
            x, y = cell.center_mm
            ops.append(zone_symbol(zone.symbol, x, y, board.layout.size_mm * 0.9, ink_on(zone.colour),
                                   detail=zone.colour, min_stroke_mm=0.32 * PT / k))
    frame = RectOp(view, Style(stroke="#7f7f7f", stroke_width_mm=0.3 / k))
    return Scene((group([*ops, frame], "minimap", transform=scale(k) @ translate(-view.x, -view.y)),)), height_mm


def zone_icon_scene(config: Config, zone_name: str, size_mm: float) -> Scene:
    """A zone's hexagon in its colour with its symbol, as on the board's key (for the leaflet's zone key)."""
    zone = config.zones[zone_name]
    c = size_mm / 2
    r = c - 0.2
    corners = tuple((c + r * math.cos(math.radians(30 + 60 * i)), c + r * math.sin(math.radians(30 + 60 * i)))
                    for i in range(6))
    return Scene((Polygon(corners, Style(fill=zone.colour, stroke="#2e2e2e", stroke_width_mm=0.15), name="key-swatch"),
                  zone_symbol(zone.symbol, c, c, size_mm * 0.62, ink_on(zone.colour), detail=zone.colour)))


def leaflet_pictures(board: Board, map_width_mm: float = 120.0, icon_mm: float = 6.0) -> Pictures:
    """The leaflet's vector pictures in one PDF: the map, then one icon per zone."""
    scene, height_mm = minimap_scene(board, map_width_mm)
    pages = [Page(map_width_mm, height_mm, scene, label="map")]
    keys = ["map"]
    for name in board.config.zones:
        pages.append(Page(icon_mm, icon_mm, zone_icon_scene(board.config, name, icon_mm), label=name))
        keys.append(f"zone:{name}")
    return Pictures(render_pdf(pages, title="leaflet pictures"), tuple(keys), height_mm / map_width_mm)
