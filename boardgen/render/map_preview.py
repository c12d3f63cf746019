"""preview/map.png: the classified map at a glance (ocean, coastlines, hexes in zone colours, labels)."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from boardgen.geomap.model import Board
from boardgen.render import cairo_lib as cairo
from boardgen.render.cairo_backend import append_lines, surface_png

PREVIEW_PX_PER_MM = 2.0
OCEAN_RGB = (0.87, 0.93, 0.97)
OUTSIDE_RGB = (1.0, 1.0, 1.0)
COAST_RGB = (0.25, 0.3, 0.35)
_LIB = cairo.lib


def hex_rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def map_preview_png(board: Board, px_per_mm: float = PREVIEW_PX_PER_MM) -> bytes:
    b = board.config.board
    lib = _LIB
    width_px, height_px = round(b.width_mm * px_per_mm), round(b.height_mm * px_per_mm)
    surface, ctx = cairo.image_context(cairo.FORMAT_RGB24, width_px, height_px)
    lib.cairo_scale(ctx, px_per_mm, px_per_mm)
    lib.cairo_set_source_rgb(ctx, *OUTSIDE_RGB)
    lib.cairo_paint(ctx)
    _polygon_path(ctx, list(board.frame_mm.exterior.coords))
    lib.cairo_set_source_rgb(ctx, *OCEAN_RGB)
    lib.cairo_fill(ctx)

    for cell in board.cells:
        _polygon_path(ctx, board.hex_corners_mm(cell))
        lib.cairo_set_source_rgb(ctx, *hex_rgb(board.config.zones[cell.zone].colour))
        lib.cairo_fill_preserve(ctx)
        lib.cairo_set_source_rgb(ctx, 1, 1, 1)
        lib.cairo_set_line_width(ctx, 0.3)
        lib.cairo_stroke(ctx)

    lib.cairo_set_source_rgba(ctx, *COAST_RGB, 0.8)
    lib.cairo_set_line_width(ctx, 0.25)
    _rings_path(ctx, [ring for polygon in board.land_mm.geoms for ring in (polygon.exterior, *polygon.interiors)])
    lib.cairo_stroke(ctx)

    lib.cairo_select_font_face(ctx, b"DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    lib.cairo_set_font_size(ctx, board.layout.size_mm * 0.32)
    extents = cairo.ffi.new("cairo_text_extents_t *")
    for cell in board.cells:
        x, y = cell.center_mm
        label = cell.label.encode("utf-8")
        lib.cairo_text_extents(ctx, label, extents)
        lib.cairo_move_to(ctx, x - extents.width / 2 - extents.x_bearing, y + extents.height / 2)
        dark = cell.zone in ("Mountains", "Mediterranean") or _luminance(board.config.zones[cell.zone].colour) < 0.35
        lib.cairo_set_source_rgb(ctx, *((1, 1, 1) if dark else (0.1, 0.1, 0.1)))
        lib.cairo_show_text(ctx, label)

    _legend(ctx, board)
    cairo.check(lib.cairo_status(ctx))
    return surface_png(surface, width_px, height_px)


def _luminance(colour: str) -> float:
    r, g, b = hex_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _legend(ctx: Any, board: Board) -> None:
    lib = _LIB
    counts = board.zone_counts()
    x, y = 8.0, board.config.board.height_mm - 8.0 - 6.0 * len(board.config.zones)
    lib.cairo_set_font_size(ctx, 4.0)
    for name, zone in board.config.zones.items():
        lib.cairo_rectangle(ctx, x, y, 5, 4)
        lib.cairo_set_source_rgb(ctx, *hex_rgb(zone.colour))
        lib.cairo_fill_preserve(ctx)
        lib.cairo_set_source_rgb(ctx, 0.2, 0.2, 0.2)
        lib.cairo_set_line_width(ctx, 0.2)
        lib.cairo_stroke(ctx)
        lib.cairo_move_to(ctx, x + 7, y + 3.5)
        lib.cairo_show_text(ctx, f"{name} ({counts[name]})".encode())
        y += 6.0


def _rings_path(ctx: Any, rings: list[Any]) -> None:
    """Every ring (its closing point included, then a close) appended as one path: the coastlines have some
    60,000 points, too many for a call per point."""
    coords = [shapely.get_coordinates(ring) for ring in rings]
    kinds: list[int] = []
    for points in coords:
        kinds += [cairo.PATH_MOVE_TO, *([cairo.PATH_LINE_TO] * (len(points) - 1)), cairo.PATH_CLOSE_PATH]
    if coords:
        append_lines(ctx, kinds, np.concatenate(coords))


def _polygon_path(ctx: Any, points: list[tuple[float, float]] | list[Any]) -> None:
    (x0, y0), *rest = points
    _LIB.cairo_move_to(ctx, x0, y0)
    for x, y in rest:
        _LIB.cairo_line_to(ctx, x, y)
    _LIB.cairo_close_path(ctx)
