"""preview/map.png: the classified map at a glance (ocean, coastlines, hexes in zone colours, labels)."""

from __future__ import annotations

import io

import numpy as np
import shapely

from boardgen.model import Board
from boardgen.render.cairo_backend import _append_lines, cairo

PREVIEW_PX_PER_MM = 2.0
OCEAN_RGB = (0.87, 0.93, 0.97)
OUTSIDE_RGB = (1.0, 1.0, 1.0)
COAST_RGB = (0.25, 0.3, 0.35)


def hex_rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def map_preview_png(board: Board, px_per_mm: float = PREVIEW_PX_PER_MM) -> bytes:
    b = board.config.board
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, round(b.width_mm * px_per_mm), round(b.height_mm * px_per_mm))
    ctx = cairo.Context(surface)
    ctx.scale(px_per_mm, px_per_mm)
    ctx.set_source_rgb(*OUTSIDE_RGB)
    ctx.paint()
    _polygon_path(ctx, list(board.frame_mm.exterior.coords))
    ctx.set_source_rgb(*OCEAN_RGB)
    ctx.fill()

    for cell in board.cells:
        _polygon_path(ctx, board.hex_corners_mm(cell))
        ctx.set_source_rgb(*hex_rgb(board.config.zones[cell.zone].colour))
        ctx.fill_preserve()
        ctx.set_source_rgb(1, 1, 1)
        ctx.set_line_width(0.3)
        ctx.stroke()

    ctx.set_source_rgba(*COAST_RGB, 0.8)
    ctx.set_line_width(0.25)
    _rings_path(ctx, [ring for polygon in board.land_mm.geoms for ring in (polygon.exterior, *polygon.interiors)])
    ctx.stroke()

    ctx.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(board.layout.size_mm * 0.32)
    for cell in board.cells:
        x, y = cell.center_mm
        x_bearing, _, width, height, _, _ = ctx.text_extents(cell.label)
        ctx.move_to(x - width / 2 - x_bearing, y + height / 2)
        dark = cell.zone in ("Mountains", "Mediterranean") or _luminance(board.config.zones[cell.zone].colour) < 0.35
        ctx.set_source_rgb(*((1, 1, 1) if dark else (0.1, 0.1, 0.1)))
        ctx.show_text(cell.label)

    _legend(ctx, board)
    buffer = io.BytesIO()
    surface.write_to_png(buffer)
    return buffer.getvalue()


def _luminance(colour: str) -> float:
    r, g, b = hex_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _legend(ctx: cairo.Context, board: Board) -> None:
    counts = board.zone_counts()
    x, y = 8.0, board.config.board.height_mm - 8.0 - 6.0 * len(board.config.zones)
    ctx.set_font_size(4.0)
    for name, zone in board.config.zones.items():
        ctx.rectangle(x, y, 5, 4)
        ctx.set_source_rgb(*hex_rgb(zone.colour))
        ctx.fill_preserve()
        ctx.set_source_rgb(0.2, 0.2, 0.2)
        ctx.set_line_width(0.2)
        ctx.stroke()
        ctx.move_to(x + 7, y + 3.5)
        ctx.show_text(f"{name} ({counts[name]})")
        y += 6.0


def _rings_path(ctx: cairo.Context, rings: list) -> None:
    """Every ring (its closing point included, then a close) appended as one path: the coastlines have some
    60,000 points, too many for a call per point."""
    coords = [shapely.get_coordinates(ring) for ring in rings]
    kinds: list[int] = []
    for points in coords:
        kinds += [cairo.PATH_MOVE_TO, *([cairo.PATH_LINE_TO] * (len(points) - 1)), cairo.PATH_CLOSE_PATH]
    if coords:
        _append_lines(ctx, kinds, np.concatenate(coords))


def _polygon_path(ctx: cairo.Context, points: list[tuple[float, float]] | list) -> None:
    (x0, y0), *rest = points
    ctx.move_to(x0, y0)
    for x, y in rest:
        ctx.line_to(x, y)
    ctx.close_path()
