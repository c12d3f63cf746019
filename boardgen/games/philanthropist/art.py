"""Small drawings shared by the board, the dice, the cards and the player aid: the three action icons, the meeple
silhouette, cost pips and a cube. Each returns Scene ops centred on (cx, cy) inside a ``size`` mm square."""

from __future__ import annotations

import math

from shapely.geometry import Point
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.ops import unary_union

from boardgen.cards.model import geometry_path
from boardgen.render.cairo_backend import fit_font
from boardgen.render.scene import Circle, Font, Op, Path, Rect, RectOp, Style, Text, polygon_path

INK = "#1a1a1a"
ACTION_WORDS = {"move": "MOVE", "payday": "PAYDAY", "card": "CARD"}


def meeple_shape(cx: float, cy: float, width: float, height: float) -> ShapelyPolygon:
    """A meeple: round head, arms out, two legs; ``width`` x ``height`` centred on (cx, cy)."""
    w, h = width, height
    x0, y0 = cx - w / 2, cy - h / 2
    head = Point(cx, y0 + h * 0.17).buffer(h * 0.17, quad_segs=10)
    body = ShapelyPolygon([
        (cx - w * 0.16, y0 + h * 0.30), (cx + w * 0.16, y0 + h * 0.30),  # shoulders
        (x0 + w, y0 + h * 0.40), (x0 + w, y0 + h * 0.55), (cx + w * 0.22, y0 + h * 0.58),  # right arm
        (cx + w * 0.40, y0 + h), (cx + w * 0.08, y0 + h), (cx, y0 + h * 0.80),  # right leg
        (cx - w * 0.08, y0 + h), (cx - w * 0.40, y0 + h), (cx - w * 0.22, y0 + h * 0.58),  # left leg
        (x0, y0 + h * 0.55), (x0, y0 + h * 0.40),  # left arm
    ])
    shape = unary_union([head, body]).buffer(w * 0.04, join_style="round").buffer(-w * 0.02)
    assert isinstance(shape, ShapelyPolygon)
    return shape


def pips(cx: float, cy: float, count: int, size: float, colour: str) -> list[Op]:
    """``count`` dots in a row (two rows above 3), fitting ``size`` mm wide."""
    rows = [count] if count <= 3 else [math.ceil(count / 2), count // 2]
    r = min(size / (2.6 * max(rows)), size * 0.12)
    ops: list[Op] = []
    for i, n in enumerate(rows):
        y = cy + (i - (len(rows) - 1) / 2) * 2.6 * r
        for k in range(n):
            x = cx + (k - (n - 1) / 2) * 2.6 * r
            ops.append(Circle(x, y, r, Style(fill=colour, stroke="#ffffff", stroke_width_mm=0.25), "pip"))
    return ops


def cube(cx: float, cy: float, size: float, colour: str) -> list[Op]:
    """An isometric cube."""
    s = size * 0.5
    top = [(cx, cy - s), (cx + s * 0.87, cy - s * 0.5), (cx, cy), (cx - s * 0.87, cy - s * 0.5)]
    left = [(cx - s * 0.87, cy - s * 0.5), (cx, cy), (cx, cy + s), (cx - s * 0.87, cy + s * 0.5)]
    right = [(cx, cy), (cx + s * 0.87, cy - s * 0.5), (cx + s * 0.87, cy + s * 0.5), (cx, cy + s)]
    edge = Style(stroke=INK, stroke_width_mm=max(0.15, size * 0.03), line_join="round")
    return [Path(polygon_path(top), Style(fill=_shade(colour, 1.25))), Path(polygon_path(left), Style(fill=colour)),
            Path(polygon_path(right), Style(fill=_shade(colour, 0.75))),
            *(Path(polygon_path(p), edge) for p in (top, left, right))]


def _shade(colour: str, k: float) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    if k >= 1:
        r, g, b = (int(v + (255 - v) * (k - 1)) for v in (r, g, b))
    else:
        r, g, b = (int(v * k) for v in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def move_icon(cx: float, cy: float, size: float, colour: str) -> list[Op]:
    """Eight arrows out of a dot: a king's move in any direction."""
    ops: list[Op] = [Circle(cx, cy, size * 0.09, Style(fill=colour))]
    width = max(0.3, size * 0.07)
    for k in range(8):
        a = math.radians(45 * k)
        ux, uy = math.cos(a), math.sin(a)
        r0, r1 = size * 0.16, size * 0.46
        ops.append(Path((("M", cx + ux * r0, cy + uy * r0), ("L", cx + ux * (r1 - size * 0.06),
                                                               cy + uy * (r1 - size * 0.06))),
                        Style(stroke=colour, stroke_width_mm=width, line_cap="round")))
        tip = (cx + ux * r1, cy + uy * r1)
        px, py = -uy, ux
        head = [tip, (tip[0] - ux * size * 0.14 + px * size * 0.08, tip[1] - uy * size * 0.14 + py * size * 0.08),
                (tip[0] - ux * size * 0.14 - px * size * 0.08, tip[1] - uy * size * 0.14 - py * size * 0.08)]
        ops.append(Path(polygon_path(head), Style(fill=colour)))
    return ops


def payday_icon(cx: float, cy: float, size: float, colour: str, cube_colour: str = "#d9a441") -> list[Op]:
    """A pile of three cubes and "x2"."""
    c = size * 0.34
    ops: list[Op] = []
    for dx, dy in ((-0.17, 0.18), (0.17, 0.18), (0.0, -0.1)):
        ops += cube(cx + dx * size, cy + dy * size, c, cube_colour)
    return ops


def card_icon(cx: float, cy: float, size: float, colour: str) -> list[Op]:
    """A business card with a dollar sign."""
    w, h = size * 0.5, size * 0.75
    r = Rect(cx - w / 2, cy - h / 2, w, h)
    font = Font(size_pt=h * 0.62 / 0.3528 / 0.73 * 0.75, bold=True)
    return [RectOp(r, Style(stroke=colour, stroke_width_mm=max(0.3, size * 0.05))),
            Text(cx, cy, "$", font, colour, align="center", baseline="middle")]


def action_icon(action: str, cx: float, cy: float, size: float, colour: str) -> list[Op]:
    return {"move": move_icon, "payday": payday_icon, "card": card_icon}[action](cx, cy, size, colour)


def meeple_ops(cx: float, cy: float, width: float, height: float, colour: str, name: str = "meeple") -> list[Op]:
    shape = meeple_shape(cx, cy, width, height)
    edge = "#ffffff" if colour.lower() in ("#262626", "#1a1a1a", "#000000") else INK
    return [Path(geometry_path(shape), Style(fill=colour, stroke=edge, stroke_width_mm=0.35), name)]


def label(x: float, y: float, text: str, max_width: float, size_pt: float, colour: str = INK,
          bold: bool = True) -> Text:
    font = fit_font(text, Font(size_pt=size_pt, bold=bold), max_width)
    return Text(x, y, text, font, colour, align="center", baseline="middle")
