"""Zone symbols: the second cue besides colour (for colour-blind players) on the board, table and badges.

``zone_symbol(name, cx, cy, size_mm, colour)`` returns a ``Group`` that fits a ``size_mm`` square centred on
(cx, cy). Symbols are drawn in a unit box (-0.5..0.5) and scaled, so line weights scale with the symbol;
every symbol stays legible down to about 2.5 mm. The names are ``config.ZONE_SYMBOLS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace as dc_replace

from boardgen.geomap.spec import ZONE_SYMBOLS
from boardgen.render.scene import (
    Affine,
    Circle,
    Group,
    Op,
    Path,
    Polygon,
    RectOp,
    Style,
    ink_on,
    regular_polygon,
    rotate,
    scale,
    translate,
)


def _stroke(colour: str, width: float) -> Style:
    return Style(stroke=colour, stroke_width_mm=width, line_cap="round", line_join="round")


def _snowflake(colour: str, detail: str) -> list[Op]:
    ops: list[Op] = []
    st = _stroke(colour, 0.075)
    for i in range(6):
        a = math.radians(90 + 60 * i)
        ux, uy = math.cos(a), -math.sin(a)
        ops.append(Polygon(((0.0, 0.0), (0.46 * ux, 0.46 * uy)), st, closed=False))
        for side in (-1, 1):  # a pair of small branches on each arm
            b = a + side * math.radians(45)
            bx, by = 0.28 * ux, 0.28 * uy
            ops.append(Polygon(((bx, by), (bx + 0.15 * math.cos(b), by - 0.15 * math.sin(b))), st, closed=False))
    return ops


def _leaf(colour: str, detail: str) -> list[Op]:
    # a pointed leaf leaning right, with a midrib cut out in white-ish by drawing it in the background colour
    body = (("M", -0.38, 0.38), ("C", -0.42, -0.05, -0.05, -0.42, 0.42, -0.42),
            ("C", 0.42, 0.05, 0.05, 0.42, -0.38, 0.38), ("Z",))
    return [
        Path(body, Style(fill=colour)),
        Polygon(((-0.46, 0.46), (0.2, -0.2)), _stroke(colour, 0.07), closed=False),
        Polygon(((-0.3, 0.3), (0.22, -0.22)), _stroke(detail, 0.045), closed=False),
    ]


def _sun(colour: str, detail: str) -> list[Op]:
    ops: list[Op] = [Circle(0.0, 0.0, 0.2, Style(fill=colour))]
    st = _stroke(colour, 0.07)
    for i in range(8):
        a = math.radians(45 * i)
        ops.append(Polygon(((0.3 * math.cos(a), 0.3 * math.sin(a)), (0.46 * math.cos(a), 0.46 * math.sin(a))),
                           st, closed=False))
    return ops


def _palm(colour: str, detail: str) -> list[Op]:
    trunk = (("M", 0.02, 0.48), ("C", 0.06, 0.2, 0.04, -0.05, -0.02, -0.2))
    ops: list[Op] = [Path(trunk, _stroke(colour, 0.09))]
    fronds = [  # (end x, end y, control x, control y)
        (-0.46, -0.02, -0.3, -0.38), (0.44, -0.02, 0.28, -0.4), (-0.34, -0.44, -0.2, -0.4),
        (0.3, -0.46, 0.18, -0.42), (-0.02, -0.5, -0.02, -0.4),
    ]
    for ex, ey, qx, qy in fronds:
        ops.append(Path((("M", -0.02, -0.2), ("C", qx, qy, qx, qy, ex, ey)), _stroke(colour, 0.085)))
    return ops


def _olive(colour: str, detail: str) -> list[Op]:
    stem = (("M", -0.44, 0.44), ("C", -0.15, 0.1, 0.1, -0.15, 0.44, -0.44))
    ops: list[Op] = [Path(stem, _stroke(colour, 0.06))]
    leaf = (("M", 0.0, 0.0), ("C", 0.09, -0.07, 0.23, -0.07, 0.33, 0.0),
            ("C", 0.23, 0.07, 0.09, 0.07, 0.0, 0.0), ("Z",))
    for x, y, ang in ((-0.2, 0.19, -100.0), (0.02, -0.02, 10.0), (0.2, -0.21, -100.0), (0.24, -0.26, -30.0)):
        ops.append(Group((Path(leaf, Style(fill=colour)),), transform=translate(x, y) @ rotate(ang)))
    ops.append(Group((Circle(0.0, 0.0, 0.13, Style(fill=colour)),), transform=translate(0.12, 0.22) @ scale(1.0, 1.3)))
    ops.append(Circle(0.08, 0.16, 0.035, Style(fill=detail)))
    return ops


def _peak(colour: str, detail: str) -> list[Op]:
    mountain = ((-0.48, 0.38), (-0.08, -0.4), (0.12, -0.05), (0.22, -0.2), (0.48, 0.38))
    snow = ((-0.08, -0.4), (-0.22, -0.13), (-0.12, -0.18), (-0.04, -0.1), (0.04, -0.2))
    return [Polygon(mountain, Style(fill=colour, stroke=colour, stroke_width_mm=0.04, line_join="round")),
            Polygon(snow, Style(fill=detail))]


def _wave(colour: str, detail: str) -> list[Op]:
    ops: list[Op] = []
    for y in (-0.2, 0.12):
        d = (("M", -0.46, y), ("C", -0.3, y - 0.2, -0.16, y - 0.2, 0.0, y), ("C", 0.16, y + 0.2, 0.3, y + 0.2, 0.46, y))
        ops.append(Path(d, _stroke(colour, 0.09)))
    return ops


def _dot(colour: str, detail: str) -> list[Op]:
    return [Circle(0.0, 0.0, 0.3, Style(fill=colour))]


_DRAWERS: dict[str, Callable[[str, str], list[Op]]] = {
    "snowflake": _snowflake, "leaf": _leaf, "sun": _sun, "palm": _palm, "olive": _olive, "peak": _peak,
    "wave": _wave, "dot": _dot,
}
assert tuple(_DRAWERS) == ZONE_SYMBOLS, "every ZONE_SYMBOLS name needs a drawing"


def _widen(ops: Sequence[Op], min_width: float) -> list[Op]:
    """``ops`` with every stroke at least ``min_width`` wide (in the ops' own units)."""
    out: list[Op] = []
    for op in ops:
        if isinstance(op, Group):
            out.append(dc_replace(op, items=tuple(_widen(op.items, min_width))))
        elif isinstance(op, Path | Polygon | Circle | RectOp) and op.style.stroke is not None and \
                op.style.stroke_width_mm < min_width:
            out.append(dc_replace(op, style=dc_replace(op.style, stroke_width_mm=min_width)))
        else:
            out.append(op)
    return out


def zone_symbol(name: str, cx: float, cy: float, size_mm: float, colour: str = "#1a1a1a",
                background: str | None = None, detail: str | None = None, min_stroke_mm: float = 0.0) -> Group:
    """The symbol ``name`` in a ``size_mm`` square centred on (cx, cy).

    ``background``: a disc drawn behind the symbol. ``detail``: the colour of small cut-outs (the leaf's
    midrib, the peak's snow, the olive's highlight); by default the background, else white or dark, whichever
    stands out from ``colour``. Drawing a white symbol straight onto a zone colour? pass detail=zone colour.
    ``min_stroke_mm``: no line of the symbol thinner than this (for symbols drawn very small).
    """
    try:
        drawer = _DRAWERS[name]
    except KeyError:
        raise ValueError(f"unknown zone symbol {name!r}; expected one of {', '.join(ZONE_SYMBOLS)}") from None
    ops: list[Op] = []
    if background is not None:
        ops.append(Circle(0.0, 0.0, 0.62, Style(fill=background)))
    if detail is None:
        detail = background if background is not None else ink_on(colour)
    ops.extend(drawer(colour, detail))
    if min_stroke_mm > 0:
        ops = _widen(ops, min_stroke_mm / size_mm)
    return Group(tuple(ops), name=f"symbol:{name}", transform=symbol_transform(cx, cy, size_mm))


def symbol_transform(cx: float, cy: float, size_mm: float) -> Affine:
    """Where ``zone_symbol`` puts its unit-box drawing: centred on (cx, cy), ``size_mm`` wide."""
    return translate(cx, cy) @ scale(size_mm)


def symbol_names() -> tuple[str, ...]:
    return ZONE_SYMBOLS


__all__ = ["regular_polygon", "symbol_names", "symbol_transform", "zone_symbol"]
