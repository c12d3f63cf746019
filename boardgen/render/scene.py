"""A backend-neutral picture: frozen drawing operations in millimetres, origin top-left, y down.

Layout code (board, components, imposition) builds a ``Scene`` out of these values and never touches a
drawing library; ``boardgen.render.cairo_backend`` turns pages of scenes into PDF, SVG and PNG bytes. Because
the ops are plain values, tests can count and inspect them (a cheap, platform-independent "golden log").

Colours are ``"#rrggbb"`` strings. Line widths are millimetres (``PT`` converts from points). A ``Group``
with ``layer=True`` and a ``name`` becomes its own ``<g id=name>`` layer in SVG output (cut files put cut
lines on a layer of their own).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Union

PT = 25.4 / 72.0
"""One PostScript point in millimetres."""

HAIRLINE_MM = 0.25 * PT
"""The thinnest line we print (0.25 pt): anything thinner vanishes on a home printer."""

Point = tuple[float, float]
PathCommand = tuple  # ("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("A", cx, cy, r, a0, a1) | ("Z",)
Align = Literal["left", "center", "right"]
Baseline = Literal["alphabetic", "middle", "top", "bottom"]


# ------------------------------------------------------------------------------------------ values


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in mm (x, y of the top-left corner; y down)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    @property
    def center(self) -> Point:
        return (self.x + self.width / 2, self.y + self.height / 2)

    def outset(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.width + 2 * d, self.height + 2 * d)

    def inset(self, d: float) -> Rect:
        return self.outset(-d)

    def translate(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def intersects(self, other: Rect) -> bool:
        return self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom

    def contains_rect(self, other: Rect, tol: float = 1e-9) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol and other.right <= self.right + tol
                and other.bottom <= self.bottom + tol)

    def corners(self) -> tuple[Point, Point, Point, Point]:
        return ((self.x, self.y), (self.right, self.y), (self.right, self.bottom), (self.x, self.bottom))


@dataclass(frozen=True)
class Style:
    """How a shape is painted. ``fill``/``stroke`` None means not painted."""

    fill: str | None = None
    stroke: str | None = None
    stroke_width_mm: float = HAIRLINE_MM
    dash_mm: tuple[float, ...] = ()
    line_cap: Literal["butt", "round", "square"] = "butt"
    line_join: Literal["miter", "round", "bevel"] = "miter"
    opacity: float = 1.0
    even_odd: bool = False


def fill(colour: str, opacity: float = 1.0) -> Style:
    return Style(fill=colour, opacity=opacity)


def stroke(colour: str, width_mm: float = HAIRLINE_MM, dash_mm: tuple[float, ...] = (), **kw: object) -> Style:
    return Style(stroke=colour, stroke_width_mm=width_mm, dash_mm=dash_mm, **kw)  # type: ignore[arg-type]


def fill_stroke(fill_colour: str, stroke_colour: str, width_mm: float = HAIRLINE_MM, **kw: object) -> Style:
    return Style(fill=fill_colour, stroke=stroke_colour, stroke_width_mm=width_mm, **kw)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Font:
    family: str = "DejaVu Sans"
    size_pt: float = 9.0
    bold: bool = False
    italic: bool = False

    @property
    def size_mm(self) -> float:
        return self.size_pt * PT


@dataclass(frozen=True)
class Affine:
    """x' = a*x + c*y + e ; y' = b*x + d*y + f (cairo's matrix convention)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def __matmul__(self, other: Affine) -> Affine:
        """``self @ other``: apply ``other`` first, then ``self``."""
        return Affine(
            self.a * other.a + self.c * other.b,
            self.b * other.a + self.d * other.b,
            self.a * other.c + self.c * other.d,
            self.b * other.c + self.d * other.d,
            self.a * other.e + self.c * other.f + self.e,
            self.b * other.e + self.d * other.f + self.f,
        )

    def apply(self, x: float, y: float) -> Point:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)


def translate(dx: float, dy: float) -> Affine:
    return Affine(e=dx, f=dy)


def scale(sx: float, sy: float | None = None) -> Affine:
    return Affine(a=sx, d=sx if sy is None else sy)


def rotate(degrees: float, cx: float = 0.0, cy: float = 0.0) -> Affine:
    t = math.radians(degrees)
    r = Affine(math.cos(t), math.sin(t), -math.sin(t), math.cos(t))
    return translate(cx, cy) @ r @ translate(-cx, -cy)


def mirror_x(axis_x: float) -> Affine:
    """Mirror left-right about the vertical line x = axis_x."""
    return Affine(a=-1.0, e=2 * axis_x)


# ------------------------------------------------------------------------------------------ operations


@dataclass(frozen=True)
class Path:
    commands: tuple[PathCommand, ...]
    style: Style
    name: str = ""  # free tag for tests and debugging ("chip", "cut-line", ...)


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    style: Style
    closed: bool = True
    name: str = ""


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style
    name: str = ""


@dataclass(frozen=True)
class RectOp:
    rect: Rect
    style: Style
    name: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    font: Font = Font()
    colour: str = "#000000"
    align: Align = "left"
    baseline: Baseline = "alphabetic"
    rotate_deg: float = 0.0  # about (x, y), clockwise on the page
    name: str = ""


@dataclass(frozen=True)
class Image:
    """A picture (``boardgen.render.images.Picture``: PNG, JPEG or SVG) scaled into ``rect``: "contain" shows it
    whole and centred, "cover" fills the rect and clips the rest, "stretch" fills it out of proportion."""

    rect: Rect
    picture: Any
    fit: Literal["contain", "cover", "stretch"] = "contain"
    name: str = ""


@dataclass(frozen=True)
class Group:
    items: tuple[Op, ...]
    name: str = ""
    layer: bool = False  # a named layer: its own <g id=name> in SVG
    transform: Affine | None = None
    clip: tuple[PathCommand, ...] | None = None  # in the group's own coordinates (after transform)
    opacity: float = 1.0


Op = Union[Path, Polygon, Circle, RectOp, Text, Image, Group]  # noqa: UP007 - a runtime alias used by isinstance users


@dataclass(frozen=True)
class Scene:
    """An ordered tuple of operations (painted first to last)."""

    items: tuple[Op, ...] = field(default_factory=tuple)

    @staticmethod
    def of(*items: Op | Iterable[Op]) -> Scene:
        return Scene(tuple(_flatten(items)))

    def __add__(self, other: Scene) -> Scene:
        return Scene(self.items + other.items)

    def walk(self) -> Iterator[Op]:
        """Every op, depth first, groups included (before their children)."""
        yield from _walk(self.items)

    def count(self, name: str, kind: type | None = None) -> int:
        """How many ops carry ``name`` (optionally of one type)."""
        return sum(1 for op in self.walk()
                   if getattr(op, "name", "") == name and (kind is None or isinstance(op, kind)))

    def texts(self) -> list[str]:
        return [op.text for op in self.walk() if isinstance(op, Text)]

    def layer_names(self) -> list[str]:
        return [op.name for op in self.walk() if isinstance(op, Group) and op.layer]

    def without_text_under(self, size_mm: float) -> Scene:
        """The scene without the texts set smaller than ``size_mm`` (group transforms applied): what a picture
        of it printed small can still show, since text too small to read is noise, not information."""
        return Scene(_text_at_least(self.items, size_mm, 1.0))


def _text_at_least(items: Sequence[Op], size_mm: float, scale_factor: float) -> tuple[Op, ...]:
    kept: list[Op] = []
    for op in items:
        if isinstance(op, Text):
            if op.font.size_mm * scale_factor >= size_mm:
                kept.append(op)
        elif isinstance(op, Group):
            t = op.transform
            inner = scale_factor * (math.sqrt(abs(t.a * t.d - t.b * t.c)) if t is not None else 1.0)
            kept.append(replace(op, items=_text_at_least(op.items, size_mm, inner)))
        else:
            kept.append(op)
    return tuple(kept)


def _flatten(items: Iterable[Op | Iterable[Op]]) -> Iterator[Op]:
    for item in items:
        if isinstance(item, Path | Polygon | Circle | RectOp | Text | Image | Group):
            yield item
        else:
            yield from _flatten(item)  # type: ignore[arg-type]


def _walk(items: Sequence[Op]) -> Iterator[Op]:
    for op in items:
        yield op
        if isinstance(op, Group):
            yield from _walk(op.items)


def group(items: Iterable[Op | Iterable[Op]], name: str = "", *, layer: bool = False, transform: Affine | None = None,
          clip: tuple[PathCommand, ...] | None = None, opacity: float = 1.0) -> Group:
    return Group(tuple(_flatten(items)), name=name, layer=layer, transform=transform, clip=clip, opacity=opacity)


def layer(name: str, items: Iterable[Op | Iterable[Op]]) -> Group:
    return group(items, name, layer=True)


# ------------------------------------------------------------------------------------------ path helpers


def rect_path(r: Rect) -> tuple[PathCommand, ...]:
    return (("M", r.x, r.y), ("L", r.right, r.y), ("L", r.right, r.bottom), ("L", r.x, r.bottom), ("Z",))


def rounded_rect_path(r: Rect, radius: float) -> tuple[PathCommand, ...]:
    """A rectangle with round corners of ``radius`` (at most half the shorter side)."""
    k = min(radius, r.width / 2, r.height / 2)
    return (("M", r.x + k, r.y), ("L", r.right - k, r.y), ("A", r.right - k, r.y + k, k, -math.pi / 2, 0.0),
            ("L", r.right, r.bottom - k), ("A", r.right - k, r.bottom - k, k, 0.0, math.pi / 2),
            ("L", r.x + k, r.bottom), ("A", r.x + k, r.bottom - k, k, math.pi / 2, math.pi),
            ("L", r.x, r.y + k), ("A", r.x + k, r.y + k, k, math.pi, 1.5 * math.pi), ("Z",))


def polygon_path(points: Sequence[Point]) -> tuple[PathCommand, ...]:
    first, *rest = points
    return (("M", *first), *(("L", *p) for p in rest), ("Z",))


def circle_path(cx: float, cy: float, r: float) -> tuple[PathCommand, ...]:
    return (("M", cx + r, cy), ("A", cx, cy, r, 0.0, 2 * math.pi), ("Z",))


def line(x0: float, y0: float, x1: float, y1: float, style: Style, name: str = "") -> Polygon:
    return Polygon(((x0, y0), (x1, y1)), style, closed=False, name=name)


def regular_polygon(cx: float, cy: float, r: float, n: int, start_deg: float = -90.0) -> tuple[Point, ...]:
    """Corners of a regular n-gon of circumradius r; the first corner at start_deg (-90 = straight up)."""
    return tuple((cx + r * math.cos(math.radians(start_deg + 360.0 * i / n)),
                  cy + r * math.sin(math.radians(start_deg + 360.0 * i / n))) for i in range(n))


# ------------------------------------------------------------------------------------------ colours


def rgb(colour: str) -> tuple[float, float, float]:
    """``"#rrggbb"`` -> (r, g, b) in 0..1."""
    c = colour.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"expected a colour '#rrggbb', got {colour!r}")
    return (int(c[0:2], 16) / 255.0, int(c[2:4], 16) / 255.0, int(c[4:6], 16) / 255.0)


def relative_luminance(colour: str) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@functools.lru_cache(maxsize=1024)  # asked once per cell and symbol of a board, of a handful of colours
def ink_on(colour: str, dark: str = "#1a1a1a", light: str = "#ffffff") -> str:
    """The text/symbol colour that reads best on a background colour (higher WCAG contrast)."""
    lum = relative_luminance(colour)
    contrast_dark = (lum + 0.05) / (relative_luminance(dark) + 0.05)
    contrast_light = (relative_luminance(light) + 0.05) / (lum + 0.05)
    return dark if contrast_dark >= contrast_light else light


def mix(colour: str, other: str, t: float) -> str:
    """``colour`` moved a share ``t`` towards ``other``."""
    a, b = rgb(colour), rgb(other)
    return "#" + "".join(f"{round(255 * (x + (y - x) * t)):02x}" for x, y in zip(a, b, strict=True))
