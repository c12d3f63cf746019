"""Small vector icons that sit inside a line of text (``{coin}``, ``{heart}``...) or anywhere on a part.

An icon is a function ``draw(x, y, size_mm, colour) -> list[Op]`` that paints within the ``size_mm`` square
whose top-left corner is (x, y). ``ICONS`` holds the generic ones; a game adds its own with ``register_icon``
(names are lower-case words with dashes). Icons are plain shapes, so they print sharp at any size.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from boardgen.render.scene import Circle, Op, Path, Polygon, Rect, Style, ink_on, regular_polygon, rounded_rect_path

IconDrawer = Callable[[float, float, float, str], list[Op]]

ICONS: dict[str, IconDrawer] = {}
ICON_COLOURS: dict[str, str] = {}
"""An icon's own colour (a coin is gold wherever it appears); icons without one take the text's colour."""


def register_icon(name: str, drawer: IconDrawer, colour: str | None = None) -> IconDrawer:
    """Add (or replace) an icon under ``name``, optionally with a colour of its own; returns the drawer."""
    if not name or not all(ch.isalnum() or ch == "-" for ch in name) or name != name.lower():
        raise ValueError(f"icon names are lower-case words with dashes, got {name!r}")
    ICONS[name] = drawer
    if colour is not None:
        ICON_COLOURS[name] = colour
    else:
        ICON_COLOURS.pop(name, None)
    return drawer


def draw_icon(name: str, x: float, y: float, size_mm: float, colour: str | None = None) -> list[Op]:
    """The icon's ops in ``colour`` (default: its own colour, else ink); KeyError naming the known icons."""
    try:
        drawer = ICONS[name]
    except KeyError:
        raise KeyError(f"no icon {name!r} (known: {', '.join(sorted(ICONS))})") from None
    return drawer(x, y, size_mm, colour or ICON_COLOURS.get(name, "#1a1a1a"))


def _coin(x: float, y: float, s: float, colour: str) -> list[Op]:
    r = s / 2
    cx, cy = x + r, y + r
    return [Circle(cx, cy, r * 0.96, Style(fill=colour), name="icon-coin"),
            Circle(cx, cy, r * 0.62, Style(stroke=ink_on(colour), stroke_width_mm=max(0.08, s * 0.07)),
                   name="icon-coin")]


def _heart(x: float, y: float, s: float, colour: str) -> list[Op]:
    def p(u: float, v: float) -> tuple[float, float]:
        return (x + u * s, y + v * s)

    commands = (("M", *p(0.5, 0.92)),
                ("C", *p(0.1, 0.62), *p(0.0, 0.42), *p(0.04, 0.28)),
                ("C", *p(0.1, 0.06), *p(0.42, 0.02), *p(0.5, 0.26)),
                ("C", *p(0.58, 0.02), *p(0.9, 0.06), *p(0.96, 0.28)),
                ("C", *p(1.0, 0.42), *p(0.9, 0.62), *p(0.5, 0.92)), ("Z",))
    return [Path(commands, Style(fill=colour), name="icon-heart")]


def _leaf(x: float, y: float, s: float, colour: str) -> list[Op]:
    def p(u: float, v: float) -> tuple[float, float]:
        return (x + u * s, y + v * s)

    blade = (("M", *p(0.12, 0.9)), ("C", *p(0.05, 0.4), *p(0.45, 0.06), *p(0.94, 0.06)),
             ("C", *p(0.94, 0.55), *p(0.6, 0.95), *p(0.12, 0.9)), ("Z",))
    rib = (("M", *p(0.06, 0.98)), ("L", *p(0.2, 0.82)), ("C", *p(0.4, 0.55), *p(0.6, 0.35), *p(0.8, 0.2)))
    return [Path(blade, Style(fill=colour), name="icon-leaf"),
            Path(rib, Style(stroke=ink_on(colour), stroke_width_mm=max(0.08, s * 0.06), line_cap="round"),
                 name="icon-leaf")]


def _die(x: float, y: float, s: float, colour: str) -> list[Op]:
    inset = s * 0.06
    body = Rect(x + inset, y + inset, s - 2 * inset, s - 2 * inset)
    r = s * 0.08
    pip = ink_on(colour)
    ops: list[Op] = [Path(rounded_rect_path(body, s * 0.16), Style(fill=colour), name="icon-die")]
    for u, v in ((0.28, 0.28), (0.72, 0.72), (0.5, 0.5), (0.72, 0.28), (0.28, 0.72)):
        ops.append(Circle(x + u * s, y + v * s, r, Style(fill=pip), name="icon-die"))
    return ops


def _star(x: float, y: float, s: float, colour: str) -> list[Op]:
    cx, cy = x + s / 2, y + s * 0.54
    outer = regular_polygon(cx, cy, s * 0.5, 5)
    inner = regular_polygon(cx, cy, s * 0.2, 5, -90.0 + 36.0)
    points = tuple(pt for pair in zip(outer, inner, strict=True) for pt in pair)
    return [Polygon(points, Style(fill=colour), name="icon-star")]


def _arrow(x: float, y: float, s: float, colour: str) -> list[Op]:
    def p(u: float, v: float) -> tuple[float, float]:
        return (x + u * s, y + v * s)

    points = (p(0.04, 0.38), p(0.52, 0.38), p(0.52, 0.14), p(0.96, 0.5), p(0.52, 0.86), p(0.52, 0.62),
              p(0.04, 0.62))
    return [Polygon(points, Style(fill=colour), name="icon-arrow")]


def _clock(x: float, y: float, s: float, colour: str) -> list[Op]:
    r = s / 2
    cx, cy = x + r, y + r
    hand = Style(stroke=ink_on(colour), stroke_width_mm=max(0.08, s * 0.08), line_cap="round")
    a = math.radians(-30)
    return [Circle(cx, cy, r * 0.96, Style(fill=colour), name="icon-clock"),
            Polygon(((cx, cy - r * 0.6), (cx, cy), (cx + r * 0.5 * math.cos(a), cy + r * 0.5 * math.sin(a) + r * 0.5)),
                    hand, closed=False, name="icon-clock")]


for _name, _drawer, _colour in (("coin", _coin, "#c99a1e"), ("heart", _heart, "#c0392b"),
                                ("leaf", _leaf, "#3a8a3f"), ("die", _die, "#1a1a1a"), ("star", _star, "#d98c00"),
                                ("arrow", _arrow, None), ("clock", _clock, "#35607f")):
    register_icon(_name, _drawer, _colour)
