"""The Resilience Earth board: the 36 fields of the real Earth, the Climate Tower base with its twelve countdown
spaces in the open Pacific, and a legend: one Scene, which ``board_declaration`` declares for the kit's shared
board stages (``boardgen.kit.board``: a poster and jigsaw sections whose seams keep the tower base and the countdown
spaces whole), with the fields' data (``fields.json``)."""

from __future__ import annotations

import json
import math
from typing import Any

from shapely.geometry import MultiPolygon
from shapely.geometry import Polygon as ShapelyPolygon

from boardgen.games.resilience_earth.schema import TOWER_RING_MM
from boardgen.i18n import translator
from boardgen.kit.board import BoardData, BoardDeclaration, GridBoard
from boardgen.layout.spaces import SpaceNeed
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import fit_font_or_fail
from boardgen.render.imposition import DEFAULT_STYLE
from boardgen.render.scene import (
    Circle,
    Font,
    Group,
    Op,
    Path,
    Polygon,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    fill,
    fill_stroke,
    ink_on,
    mix,
    rotate,
    translate,
)

SEA = "#dbeaf3"
SEA_LINE = "#9cbdd3"
INK = "#1a1a1a"
# one colour per region (the first die); light enough to write on, told apart by the big region digit too
REGION_COLOURS = ("#f4c27a", "#9fd08c", "#8fc3ea", "#e9a0a0", "#c6a9e0", "#e3d27b")
LEVEL_NAMES = {1: "poor", 2: "fair", 3: "rich"}
TOWER_GREY = "#6b6b6b"


def outline_commands(geom: Any) -> tuple[tuple, ...]:
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
    commands: list[tuple] = []
    for poly in polys:
        if not isinstance(poly, ShapelyPolygon) or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)
            commands.append(("M", round(coords[0][0], 3), round(coords[0][1], 3)))
            commands.extend(("L", round(x, 3), round(y, 3)) for x, y in coords[1:-1])
            commands.append(("Z",))
    return tuple(commands)


def level_pips(cx: float, cy: float, level: int, size: float = 2.2) -> list[Op]:
    """Production level as filled and empty pips (shape and count, not colour alone)."""
    ops: list[Op] = []
    for i in range(3):
        x = cx + (i - 1) * size * 1.35
        ops.append(Circle(x, cy, size / 2, fill_stroke(INK if i < level else "#ffffff", INK, 0.25), "level-pip"))
    return ops


def tower_geometry(ctx: BuildContext) -> dict[str, Any]:
    """Where the tower base and each countdown space sit (board mm), clockwise from the top."""
    fm = ctx.board
    t = ctx.config.tower
    cx, cy = fm.tower_mm
    n = len(t.countdown_stacks)
    spaces = []
    angles = []
    for i, stones in enumerate(t.countdown_stacks):
        degrees = -90.0 + 360.0 * i / n
        a = math.radians(degrees)
        spaces.append((round(cx + t.stack_ring_mm * math.cos(a), 3), round(cy + t.stack_ring_mm * math.sin(a), 3),
                       stones))
        angles.append(round(degrees, 3))
    length, width = t.stack_space_mm
    return {"centre": (cx, cy), "spaces": spaces, "angles_deg": angles, "space_mm": [length, width]}


def countdown_bounds(x: float, y: float, degrees: float, length_mm: float, width_mm: float, grow_mm: float = 0.0
                     ) -> Rect:
    """The box round a countdown space (a rectangle centred on (x, y), its length along ``degrees``)."""
    a = math.radians(degrees)
    hx = abs(length_mm / 2 * math.cos(a)) + abs(width_mm / 2 * math.sin(a)) + grow_mm
    hy = abs(length_mm / 2 * math.sin(a)) + abs(width_mm / 2 * math.cos(a)) + grow_mm
    return Rect(x - hx, y - hy, 2 * hx, 2 * hy)


def tower_ops(ctx: BuildContext) -> list[Op]:
    t = ctx.config.tower
    geo = tower_geometry(ctx)
    cx, cy = geo["centre"]
    r = t.base_diameter_mm / 2
    ops: list[Op] = [Circle(cx, cy, r + TOWER_RING_MM, fill_stroke("#ffffff", INK, 0.5), "tower-ring"),
                     Circle(cx, cy, r, fill_stroke("#efe6d6", INK, 0.8), "tower-base")]
    # the footprint of the first layer of blocks: two blocks side by side
    side = min(max(t.block_length_mm, t.blocks_per_layer * t.block_width_mm), r * math.sqrt(2))
    ops.append(RectOp(Rect(cx - side / 2, cy - side / 2, side, side), Style(stroke=TOWER_GREY, stroke_width_mm=0.4,
                                                                           dash_mm=(1.5, 1.0)), "tower-footprint"))
    tr = translator(ctx.config)
    _, n_ = tr.gettext, tr.ngettext
    title, warning = _("CLIMATE TOWER"), _("topple it: you lose")
    inside_mm = 2 * math.sqrt(r**2 - (r - 7.0) ** 2)  # the base's chord 7 mm in from its rim
    ops.append(Text(cx, cy - r + 5.0, title, fit_font_or_fail(title, Font(size_pt=8, bold=True), inside_mm,
                                                               "board: the tower base"), INK, "center", "middle",
                    name="tower-title"))
    ops.append(Text(cx, cy + r - 5.0, warning, fit_font_or_fail(warning, Font(size_pt=7), inside_mm,
                                                                "board: the tower base"), INK, "center",
                    "middle"))
    length, width = t.stack_space_mm
    for i, ((x, y, stones), degrees) in enumerate(zip(geo["spaces"], geo["angles_deg"], strict=True), start=1):
        # a stack of blocks lies flat on its space, pointing at the tower: order outside, count inside
        ops.append(Group((RectOp(Rect(-length / 2, -width / 2, length, width), fill_stroke("#fbe3c4", INK, 0.6)),),
                         name="countdown-space", transform=translate(x, y) @ rotate(degrees)))
        dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        ops.append(Circle(x, y, width * 0.32, fill_stroke("#d9531e", INK, 0.4), "event-space"))
        ops.append(Text(x, y, "!", Font(size_pt=11, bold=True), "#ffffff", "center", "middle"))
        reach = length / 2 - 6.0
        ops.append(Text(x + dx * reach, y + dy * reach, f"{i}", Font(size_pt=8, bold=True), INK, "center", "middle",
                        name="stack-order"))
        count = n_("{n} stone", "{n} stones", stones).format(n=stones)
        ops.append(Text(x - dx * (reach - 1.0), y - dy * (reach - 1.0), count,
                        Font(size_pt=6.5), INK, "center", "middle", name="stack-count"))
    return ops


def legend_ops(ctx: BuildContext) -> list[Op]:
    cfg = ctx.config
    tr = translator(cfg)
    _ = tr.gettext
    b = cfg.board
    x0, y0 = b.margin_mm + 6.0, b.height_mm - b.margin_mm - 56.0
    room_mm = 108.0  # inside the 114 mm legend box

    def line(y: float, text: str) -> Text:
        return Text(x0, y, text, fit_font_or_fail(text, Font(size_pt=7), room_mm, "board legend"), INK)

    ops: list[Op] = [RectOp(Rect(x0 - 3, y0 - 6, 114, 56), fill_stroke("#ffffff", INK, 0.4), "legend")]
    ops.append(Text(x0, y0, cfg.title.upper(), Font(size_pt=16, bold=True), INK, name="board-title"))
    ops.append(line(y0 + 6.5, _("Fields 11-66: first die = region, second die = field")))
    for i, colour in enumerate(REGION_COLOURS[:cfg.fields.regions]):
        x = x0 + i * 18.0  # six swatches inside the 114 mm legend
        ops.append(RectOp(Rect(x, y0 + 10, 7, 5), fill_stroke(colour, INK, 0.3)))
        ops.append(Text(x + 8.5, y0 + 14, f"{i + 1}x", Font(size_pt=7, bold=True), INK))
    p = cfg.production
    rows = [(building_letter("settlement", tr), p.settlement), (building_letter("town", tr), p.town),
            (building_letter("industry", tr), p.industry)]
    ops.append(line(y0 + 22, _("RES each round by production level:")))
    for lv in (1, 2, 3):
        x = x0 + 6 + (lv - 1) * 34.0
        ops.extend(level_pips(x, y0 + 26.5, lv, 2.0))
        text = "  ".join(f"{letter}{vals[lv - 1]}" for letter, vals in rows)
        ops.append(Text(x + 5.0, y0 + 27.6, text, Font(size_pt=7), INK))
    ops.append(line(y0 + 33.5, _("{s} settlement, {t} town, {i} industry.").format(
        s=building_letter("settlement", tr), t=building_letter("town", tr), i=building_letter("industry", tr))))
    ops.append(line(y0 + 38.5, _("Dashed lines: fields that border across the sea.")))
    ops.append(line(y0 + 43.5, _("Land, climate, height: Natural Earth, Köppen-Geiger, ETOPO.")))
    return ops


def building_letter(kind: str, tr: Any) -> str:
    """The letter a building's piece and the legend print for ``kind`` (S, T, I in English)."""
    letters = {"settlement": tr.pgettext("building letter", "S"), "town": tr.pgettext("building letter", "T"),
               "industry": tr.pgettext("building letter", "I")}
    return letters[kind]


def board_scene(ctx: BuildContext, bleed_mm: float = 0.0) -> Scene:
    cfg = ctx.config
    fm = ctx.board
    W, H = cfg.board.width_mm, cfg.board.height_mm  # noqa: N806
    ops: list[Op] = [RectOp(Rect(-bleed_mm, -bleed_mm, W + 2 * bleed_mm, H + 2 * bleed_mm), fill(SEA), "sea")]
    # graticule-free sea; real coastlines faintly under the fields
    coast = fm.board.land_mm.simplify(0.15)  # a fifth of a millimetre: invisible in print, 10x fewer points
    ops.append(Path(outline_commands(coast), Style(fill="#eef2e6", stroke=SEA_LINE,
                                                                stroke_width_mm=0.2), "coast"))
    # sea links between different fields
    cell_field = fm.cell_field
    for a, b, _kind in fm.links:
        fa, fb = cell_field[a], cell_field[b]
        (x0, y0), (x1, y1) = fm.board.cell(a).center_mm, fm.board.cell(b).center_mm
        if fa != fb:
            ops.append(Polygon(((x0, y0), (x1, y1)), Style(stroke="#3b6e8f", stroke_width_mm=0.5, dash_mm=(1.6, 1.2)),
                               False, "sea-link"))
    for f in fm.fields:
        colour = REGION_COLOURS[(f.region - 1) % len(REGION_COLOURS)]
        ops.append(Path(outline_commands(fm.outlines[f.number]),
                        Style(fill=colour, stroke=INK, stroke_width_mm=0.7, line_join="round", opacity=0.93),
                        f"field-{f.number}"))
    ops.append(Path(outline_commands(coast), Style(stroke=mix(INK, "#ffffff", 0.55),
                                                            stroke_width_mm=0.15), "coastline"))
    for f in fm.fields:
        x, y = f.centre_mm
        ops.append(Circle(x, y - 1.2, 5.6, fill_stroke("#ffffff", INK, 0.5), "field-disc"))
        ops.append(Text(x, y - 1.0, f.label, Font(size_pt=10, bold=True), ink_on("#ffffff"), "center", "middle",
                        name="field-number"))
        ops.extend(level_pips(x, y + 6.4, f.level, 1.9))
    ops.extend(tower_ops(ctx))
    ops.extend(legend_ops(ctx))
    return Scene(tuple(ops))


def avoid_rects(ctx: BuildContext) -> list[Rect]:
    """Where no jigsaw knob may go: the tower with its countdown ring, the legend, every field's number disc."""
    cfg = ctx.config
    geo = tower_geometry(ctx)
    cx, cy = geo["centre"]
    r = cfg.tower.base_diameter_mm / 2 + TOWER_RING_MM + 1.0
    rects = [Rect(cx - r, cy - r, 2 * r, 2 * r)]
    length, width = cfg.tower.stack_space_mm
    rects.extend(countdown_bounds(x, y, a, length, width, 1.0)
                 for (x, y, _stones), a in zip(geo["spaces"], geo["angles_deg"], strict=True))
    b = cfg.board
    x0, y0 = b.margin_mm + 6.0, b.height_mm - b.margin_mm - 50.0
    rects.append(Rect(x0 - 5, y0 - 8, 118, 54))
    for f in ctx.board.fields:
        x, y = f.centre_mm
        rects.append(Rect(x - 7.0, y - 8.0, 14.0, 18.0))
    return rects


def space_needs(ctx: BuildContext) -> list[SpaceNeed]:
    """The tower base holds the tower's footprint (layers of blocks laid across each other: a square one block
    long); a countdown space holds its stack of blocks lying flat."""
    t = ctx.config.tower
    return [SpaceNeed("Climate Tower base", t.base_diameter_mm, t.base_diameter_mm, "the tower's layers of blocks",
                      t.block_length_mm, max(t.block_length_mm, t.blocks_per_layer * t.block_width_mm), round=True),
            SpaceNeed("countdown space", t.stack_space_mm[0], t.stack_space_mm[1], "a stack of blocks lying flat",
                      t.block_length_mm, t.block_width_mm)]


def marked_areas(ctx: BuildContext) -> list[Rect]:
    """What no section seam may run through: the tower base with its ring and every countdown space."""
    t = ctx.config.tower
    geo = tower_geometry(ctx)
    cx, cy = geo["centre"]
    r = t.base_diameter_mm / 2 + TOWER_RING_MM
    length, width = t.stack_space_mm
    return [Rect(cx - r, cy - r, 2 * r, 2 * r),
            *(countdown_bounds(x, y, a, length, width) for (x, y, _s), a in zip(geo["spaces"], geo["angles_deg"],
                                                                                strict=True))]


def fields_json(ctx: BuildContext) -> bytes:
    fm = ctx.board
    doc = {
        "fields": [{"number": f.number, "region": f.region, "cells": list(f.cells), "neighbours": list(f.neighbours),
                    "centre_mm": list(f.centre_mm), "lonlat": list(f.lonlat), "climate": f.climate,
                    "high_ground": f.high_ground, "points": f.points, "level": f.level,
                    "compactness": f.compactness, "land_connected": f.land_connected} for f in fm.fields],
        "links": [list(link) for link in fm.links],
        "tower": tower_geometry(ctx),
    }
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()


def board_declaration(ctx: BuildContext) -> BoardDeclaration:
    """The board as the kit prints it: no seam through the tower base or a countdown space, no knob on a label,
    and the fields' data beside it."""
    cfg = ctx.config
    b = cfg.board
    board = GridBoard(cfg.title, b.width_mm, b.height_mm, board_scene(ctx, bleed_mm=DEFAULT_STYLE.bleed_mm),
                      keep_whole=tuple(marked_areas(ctx)), avoid=tuple(avoid_rects(ctx)))
    fields = BoardData("fields.json", lambda: fields_json(ctx), "the 36 fields: cells, neighbours, climate, level")
    return BoardDeclaration(board, about=f"{len(ctx.board.fields)} fields", data=(fields,))
