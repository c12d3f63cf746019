"""A printable piecepack: the public-domain game system of 24 tiles, 24 coins, 4 pawns and 4 dice.

Drawn the way piecepackr (the R package most piecepack print-and-play files come from) draws its default
piecepack, so a piecepack player knows every piece at a glance:

- four suits (Suns, Moons, Crowns, Arms), each in its colour, with its symbol drawn as vector shapes;
- six ranks: null, ace, 2, 3, 4, 5 (rank symbols from the template; the null is blank by default);
- tile face: the rank large in the middle in the suit colour, the suit symbol as the directional mark in
  the top-left corner; tile back: one neutral design for all 24 (the 2 x 2 grid), so face-down tiles can be
  shuffled;
- coin value side: the rank in a neutral colour (it must not tell the suit) with a dot marking "up"; coin
  suit side: the suit symbol with the same dot;
- pawns: fold-over standees in the suit colour with the suit symbol;
- dice: cube nets in the suit colour, faces null, ace, 2-5 (opposite faces: null-ace, 2-5, 3-4), the suit
  symbol in a corner of every face.

Every size and colour comes from a :class:`boardgen.games.piecepack.schema.PiecepackSpec`-shaped object
(duck-typed: ``suits``, ``ranks``, sizes in mm, colours), so any piecepack game can reuse this module.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from shapely import affinity
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

if TYPE_CHECKING:
    from boardgen.games.piecepack.schema import PiecepackSpec

from boardgen.cards.dice import die_net
from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.i18n import current
from boardgen.render.cairo_backend import fit_font
from boardgen.render.scene import PT, Font, Group, Op, Path, Scene, Style, Text, rotate

INK = "#1a1a1a"
CUT = Style(stroke=INK, stroke_width_mm=0.3, line_join="round")
FOLD = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.0, 1.0))
BLEED = 3.0
CAP = 0.72  # cap height of DejaVu Sans Bold as a share of its size


# ------------------------------------------------------------------------------------------ suit symbols


def _bezier(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float],
            n: int = 16) -> list[tuple[float, float]]:
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _sun() -> BaseGeometry:
    rays = []
    for k in range(12):
        a = math.radians(k * 30 - 90)
        half = math.radians(9)
        rays.append(Polygon([(0.30 * math.cos(a - half), 0.30 * math.sin(a - half)),
                             (0.5 * math.cos(a), 0.5 * math.sin(a)),
                             (0.30 * math.cos(a + half), 0.30 * math.sin(a + half))]))
    return unary_union([Point(0, 0).buffer(0.29, 64), *rays])


def _moon() -> BaseGeometry:
    # a crescent opening to the right, tilted a little, as piecepack moons usually are
    crescent = Point(0, 0).buffer(0.46, 96).difference(Point(0.2, -0.06).buffer(0.37, 96))
    return affinity.rotate(crescent, -15, origin=(0, 0))


def _crown() -> BaseGeometry:
    band = Polygon([(-0.40, 0.18), (0.40, 0.18), (0.40, 0.36), (-0.40, 0.36)])
    points = Polygon([(-0.40, 0.20), (-0.46, -0.22), (-0.20, 0.02), (0.0, -0.34), (0.20, 0.02),
                      (0.46, -0.22), (0.40, 0.20)])
    balls = [Point(x, y).buffer(0.075, 32) for x, y in ((-0.46, -0.27), (0.0, -0.40), (0.46, -0.27))]
    return affinity.scale(unary_union([band, points, *balls]), 0.9, 0.95, origin=(0, 0))


def _arms() -> BaseGeometry:
    """A fleur-de-lis (the piecepack's Arms): a tall middle petal, two petals curling out, a band, a foot."""
    middle = Polygon(_bezier((0.0, -0.5), (0.2, -0.3), (0.16, -0.02), (0.0, 0.12))
                     + _bezier((0.0, 0.12), (-0.16, -0.02), (-0.2, -0.3), (0.0, -0.5))[1:])
    right = Polygon(_bezier((0.04, 0.10), (0.22, -0.12), (0.50, -0.18), (0.46, 0.06))
                    + _bezier((0.46, 0.06), (0.44, 0.20), (0.30, 0.16), (0.33, 0.06))[1:]
                    + _bezier((0.33, 0.06), (0.26, 0.14), (0.14, 0.18), (0.04, 0.16))[1:])
    left = affinity.scale(right, -1, 1, origin=(0, 0))
    band = Polygon([(-0.24, 0.12), (0.24, 0.12), (0.24, 0.22), (-0.24, 0.22)])
    foot = Polygon(_bezier((-0.05, 0.22), (-0.08, 0.32), (-0.2, 0.42), (-0.16, 0.48))
                   + [(0.16, 0.48)] + _bezier((0.16, 0.48), (0.2, 0.42), (0.08, 0.32), (0.05, 0.22)))
    return unary_union([middle.buffer(0), right.buffer(0), left.buffer(0), band, foot.buffer(0)])


_SYMBOLS = {"sun": _sun, "moon": _moon, "crown": _crown, "arms": _arms}


@cache
def symbol_geometry(name: str) -> BaseGeometry:
    """The suit symbol in a unit box centred on (0, 0), y down."""
    return _SYMBOLS[name]()


def symbol_path(name: str, cx: float, cy: float, size: float, colour: str, label: str = "suit-symbol") -> Path:
    g = affinity.translate(affinity.scale(symbol_geometry(name), size, size, origin=(0, 0)), cx, cy)
    return Path(geometry_path(g), Style(fill=colour), label)


# ------------------------------------------------------------------------------------------ helpers


def _rank_text(x: float, y: float, text: str, height_mm: float, colour: str, max_width: float,
               name: str = "rank") -> Text:
    font = fit_font(text, Font(size_pt=height_mm / CAP / PT, bold=True), max_width)
    return Text(x, y, text, font, colour, align="center", baseline="middle", name=name)


def _square_fill(w: float, h: float, colour: str, name: str = "ground") -> Path:
    return Path((("M", -BLEED, -BLEED), ("L", w + BLEED, -BLEED), ("L", w + BLEED, h + BLEED),
                 ("L", -BLEED, h + BLEED), ("Z",)), Style(fill=colour), name)


def ink_on(colour: str) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _suited_colours(spec: PiecepackSpec, suit: int) -> tuple[str, str]:
    """(ink, ground) of a suited side: suit colour on the background, or the reverse when inverted."""
    colour = spec.suits[suit].colour
    if getattr(spec, "invert_suited", False):
        return spec.background, colour
    return colour, spec.background


def suit_label(spec: PiecepackSpec, suit: int, rank: int) -> str:
    return f"{spec.rank_names[rank]} of {spec.suits[suit].name}"


# ------------------------------------------------------------------------------------------ tiles


def tile_face(spec: PiecepackSpec, suit: int, rank: int) -> Scene:
    s = spec.tile_size_mm
    colour, ground = _suited_colours(spec, suit)
    ops: list[Op] = [_square_fill(s, s, ground)]
    text = spec.ranks[rank]
    if text:
        ops.append(_rank_text(s * 0.53, s * 0.53, text, s * 0.36, colour, s * 0.5))
    ops.append(symbol_path(spec.suits[suit].symbol, s * 0.19, s * 0.19, s * 0.22, colour, "directional-mark"))
    return Scene(tuple(ops))


def tile_back(spec: PiecepackSpec) -> Scene:
    s = spec.tile_size_mm
    gw = spec.grid_width_mm
    line = Style(stroke=spec.grid_colour, stroke_width_mm=gw)
    ops: list[Op] = [
        _square_fill(s, s, spec.tile_back),
        Path((("M", s / 2, 0), ("L", s / 2, s)), line, "grid"),
        Path((("M", 0, s / 2), ("L", s, s / 2)), line, "grid"),
        Path((("M", gw / 2, gw / 2), ("L", s - gw / 2, gw / 2), ("L", s - gw / 2, s - gw / 2),
              ("L", gw / 2, s - gw / 2), ("Z",)), line, "grid"),
    ]
    return Scene(tuple(ops))


def tile_component(spec: PiecepackSpec, suit: int, rank: int) -> Component:
    s = spec.tile_size_mm
    outline = (("M", 0.0, 0.0), ("L", s, 0.0), ("L", s, s), ("L", 0.0, s), ("Z",))
    return Component("tile", f"tile {suit_label(spec, suit, rank)}", s, s, tile_face(spec, suit, rank),
                     outline, tile_back(spec))


# ------------------------------------------------------------------------------------------ coins


def _disc(d: float) -> Polygon:
    return Point(d / 2, d / 2).buffer(d / 2, 64)


def _coin_ground(d: float, colour: str) -> Group:
    return Group((Path(geometry_path(Point(d / 2, d / 2).buffer(d / 2 + BLEED * 0.6, 64)), Style(fill=colour),
                       "ground"),
                  Path(geometry_path(_disc(d)), CUT, "cut-line")))


def _up_dot(d: float, colour: str) -> Path:
    return Path(geometry_path(Point(d / 2, d * 0.11).buffer(d * 0.042, 24)), Style(fill=colour), "up-dot")


def coin_value_side(spec: PiecepackSpec, rank: int) -> Scene:
    d = spec.coin_diameter_mm
    ink = spec.neutral_colour
    ops: list[Op] = [_coin_ground(d, spec.background)]
    text = spec.ranks[rank]
    if text:
        ops.append(_rank_text(d / 2, d * 0.54, text, d * 0.42, ink, d * 0.6))
    ops.append(_up_dot(d, ink))
    return Scene(tuple(ops))


def coin_suit_side(spec: PiecepackSpec, suit: int) -> Scene:
    d = spec.coin_diameter_mm
    colour, ground = _suited_colours(spec, suit)
    return Scene((_coin_ground(d, ground),
                  symbol_path(spec.suits[suit].symbol, d / 2, d * 0.56, d * 0.52, colour), _up_dot(d, colour)))


def coin_component(spec: PiecepackSpec, suit: int, rank: int) -> Component:
    d = spec.coin_diameter_mm
    return Component("coin", f"coin {suit_label(spec, suit, rank)}", d, d, coin_value_side(spec, rank),
                     geometry_path(_disc(d)), coin_suit_side(spec, suit), marks=False)


# ------------------------------------------------------------------------------------------ pawns


def pawn_base_depth(spec: PiecepackSpec) -> float:
    return round(spec.pawn_width_mm * 0.6, 2)


def _pawn_face(spec: PiecepackSpec, suit: int, top: float) -> list[Op]:
    w, h = spec.pawn_width_mm, spec.pawn_height_mm
    colour = spec.suits[suit].colour
    head = Point(w / 2, top + h * 0.2).buffer(w * 0.2, 48)
    neck = Polygon([(w * 0.36, top + h * 0.33), (w * 0.64, top + h * 0.33), (w * 0.7, top + h * 0.4),
                    (w * 0.3, top + h * 0.4)])
    body = Polygon([(w * 0.32, top + h * 0.38), (w * 0.68, top + h * 0.38), (w * 0.9, top + h * 0.94),
                    (w * 0.1, top + h * 0.94)])
    shape = unary_union([head, neck, body])
    light = ink_on(colour) if ink_on(colour) == "#ffffff" else spec.background
    return [Path(geometry_path(shape), Style(fill=colour), "pawn"),
            symbol_path(spec.suits[suit].symbol, w / 2, top + h * 0.68, w * 0.42,
                        "#ffffff" if light == "#ffffff" else spec.background, "pawn-suit")]


def pawn_component(spec: PiecepackSpec, suit: int) -> Component:
    """A strip: foot | face (upside down) | face | foot. Fold the three dashed lines, glue the faces back to
    back, and bend the feet out opposite ways."""
    w, h = spec.pawn_width_mm, spec.pawn_height_mm
    b = pawn_base_depth(spec)
    total = 2 * b + 2 * h
    colour = spec.suits[suit].colour
    ops: list[Op] = [
        Path((("M", -BLEED, -BLEED), ("L", w + BLEED, -BLEED), ("L", w + BLEED, total + BLEED),
              ("L", -BLEED, total + BLEED), ("Z",)), Style(fill=spec.background), "ground"),
        Path((("M", -BLEED, -BLEED), ("L", w + BLEED, -BLEED), ("L", w + BLEED, b), ("L", -BLEED, b), ("Z",)),
             Style(fill=colour), "foot"),
        Path((("M", -BLEED, total - b), ("L", w + BLEED, total - b), ("L", w + BLEED, total + BLEED),
              ("L", -BLEED, total + BLEED), ("Z",)), Style(fill=colour), "foot"),
        Group(tuple(_pawn_face(spec, suit, b)), transform=rotate(180, w / 2, b + 0.5 * h)),
        *_pawn_face(spec, suit, b + h),
    ]
    folds = tuple(((0.0, y), (w, y)) for y in (b, b + h, b + 2 * h))
    ops.extend(Path((("M", *f[0]), ("L", *f[1])), FOLD, "fold-line") for f in folds)
    outline = (("M", 0.0, 0.0), ("L", w, 0.0), ("L", w, total), ("L", 0.0, total), ("Z",))
    ops.append(Path(outline, CUT, "cut-line"))
    return Component("pawn", f"pawn of {spec.suits[suit].name}", w, total, Scene(tuple(ops)), outline,
                     folds=folds)


# ------------------------------------------------------------------------------------------ dice

DIE_RANK = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 0}  # the net's numbers (opposites sum to 7) -> piecepack rank


def die_component(spec: PiecepackSpec, suit: int) -> Component:
    """A cube net in the suit colour: faces null, ace, 2-5 in white, the suit symbol in each face's corner."""
    net = die_net(6)
    raw = [Polygon(f) for f in net.faces]
    edge = math.dist(raw[0].exterior.coords[0], raw[0].exterior.coords[1])
    k = spec.die_size_mm / edge
    faces = [affinity.scale(f, k, k, origin=(0, 0)) for f in raw]
    body = unary_union(faces)
    depth = min(5.0, spec.die_size_mm * 0.3)
    tabs: list[Polygon] = []
    for f, i, g, j in net.open_edges:
        for face_index, corner in ((f, i), (g, j)):
            coords = list(faces[face_index].exterior.coords)[:-1]
            a, b = coords[corner], coords[(corner + 1) % len(coords)]
            tab = _tab(a, b, faces[face_index].centroid, depth)
            if tab.intersection(unary_union([body, *tabs])).area < 1e-6:
                tabs.append(tab)
                break
    minx, miny, _maxx, _maxy = unary_union([body, *tabs]).bounds
    faces = [affinity.translate(f, -minx, -miny) for f in faces]
    tabs = [affinity.translate(t, -minx, -miny) for t in tabs]
    colour = spec.suits[suit].colour
    ink = ink_on(colour)
    ops: list[Op] = [Path(geometry_path(t), Style(fill="#d8d8d8", stroke=INK, stroke_width_mm=0.25), "glue-tab")
                     for t in tabs]
    s = spec.die_size_mm
    for index, face in enumerate(faces):
        ops.append(Path(geometry_path(face), Style(fill=colour), "die-face"))
        xs = [p[0] for p in face.exterior.coords]
        ys = [p[1] for p in face.exterior.coords]
        x0, y0 = min(xs), min(ys)
        rank = DIE_RANK[net.numbers[index]]
        text = spec.ranks[rank]
        items: list[Op] = []
        if text:
            items.append(_rank_text(x0 + s * 0.54, y0 + s * 0.54, text, s * 0.46, ink, s * 0.6, "die-rank"))
        items.append(symbol_path(spec.suits[suit].symbol, x0 + s * 0.2, y0 + s * 0.2, s * 0.26, ink,
                                 "directional-mark"))
        ops.append(Group(tuple(items), name=f"face-{spec.rank_names[rank]}"))
    outline = unary_union([g.buffer(1e-4, join_style="mitre") for g in (*faces, *tabs)]).buffer(
        -1e-4, join_style="mitre").simplify(1e-4)
    edges = {tuple(sorted(((round(a[0], 3), round(a[1], 3)), (round(b[0], 3), round(b[1], 3)))))
             for f in faces for a, b in zip(list(f.exterior.coords)[:-1], list(f.exterior.coords)[1:], strict=True)}
    folds = tuple(sorted(e for e in edges
                         if outline.exterior.distance(Point((e[0][0] + e[1][0]) / 2, (e[0][1] + e[1][1]) / 2)) > 0.05))
    fold_style = Style(stroke="#ffffff" if ink == "#ffffff" else INK, stroke_width_mm=0.2, dash_mm=(1.2, 0.8))
    ops.extend(Path((("M", *a), ("L", *b)), fold_style, "fold-line") for a, b in folds)
    ops.append(Path(geometry_path(outline), CUT, "cut-line"))
    _x0, _y0, maxx, maxy = outline.bounds
    return Component("die", f"die of {spec.suits[suit].name}", maxx, maxy, Scene(tuple(ops)),
                     geometry_path(outline), folds=tuple(tuple(seg) for seg in folds), marks=False)


def _tab(a: tuple[float, float], b: tuple[float, float], inside: Point, depth: float) -> Polygon:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    if (inside.x - a[0]) * nx + (inside.y - a[1]) * ny > 0:
        nx, ny = -nx, -ny
    inset = min(depth, length * 0.25)
    ux, uy = dx / length, dy / length
    return Polygon([a, b, (b[0] - ux * inset + nx * depth, b[1] - uy * inset + ny * depth),
                    (a[0] + ux * inset + nx * depth, a[1] + uy * inset + ny * depth)])


# ------------------------------------------------------------------------------------------ the set


def piecepack_sets(spec: PiecepackSpec) -> list[ComponentSet]:
    """Tiles, coins, pawns and dice, in the piecepack's usual order (suit by suit, null to 5)."""
    _ = current().gettext
    suits, ranks = range(len(spec.suits)), range(len(spec.ranks))
    return [
        ComponentSet("tile", _("Piecepack tiles (face: rank and suit; back: the grid)"),
                     tuple(tile_component(spec, s, r) for s in suits for r in ranks), double_sided=True),
        ComponentSet("coin", _("Piecepack coins (value side and suit side)"),
                     tuple(coin_component(spec, s, r) for s in suits for r in ranks), double_sided=True,
                     stagger=True),
        ComponentSet("pawn", _("Piecepack pawns: fold-over standees"), tuple(pawn_component(spec, s) for s in suits),
                     gap_mm=6.0),
        ComponentSet("die", _("Piecepack dice: cut, crease the dashed lines, glue the grey tabs"),
                     tuple(die_component(spec, s) for s in suits), uniform=False),
    ]


def check_symbols() -> list[str]:
    """Problems with the suit symbols (each must be one valid shape inside its unit box)."""
    problems = []
    unit = box(-0.52, -0.52, 0.52, 0.52)
    for name in _SYMBOLS:
        g = symbol_geometry(name)
        if not g.is_valid or g.is_empty or not unit.contains(g):
            problems.append(name)
    return problems


__all__ = ["coin_component", "die_component", "pawn_component", "piecepack_sets", "symbol_geometry",
           "tile_component"]
