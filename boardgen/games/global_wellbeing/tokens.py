"""The Global Wellbeing Game's cut-out parts: chips, player tokens and standees, philanthropy badges, zone
markers and the turn marker.

Every count, size, colour and label comes from the template (its Config). Shaped parts carry a 1.5 mm colour
bleed beyond their printed cut line, so a slightly wide cut shows colour, not white paper.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.cards.shapes import label_width_share, player_shape, shape_label_point
from boardgen.games.global_wellbeing.board_art import TABLE, TABLE_START_FONT
from boardgen.games.global_wellbeing.schema import Config
from boardgen.i18n import DEFAULT_LANGUAGE, current
from boardgen.render.cairo_backend import fit_font, fit_font_or_fail, text_width_mm
from boardgen.render.scene import (
    Circle,
    Font,
    Group,
    Op,
    Path,
    Scene,
    Style,
    Text,
    ink_on,
    mix,
    rotate,
)
from boardgen.render.symbols import zone_symbol

INK = "#1a1a1a"
CUT_LINE = Style(stroke=INK, stroke_width_mm=0.3, line_join="round")
SHAPE_BLEED_MM = 1.5
CHIP_SILVER = "#c3c8ce"
CHIP_SILVER_LIGHT = "#e4e7eb"
CHIP_DARK = "#5d646d"
"""Chips are silver grey: no player colour is grey, so a chip never looks like a player's token."""
ROUND_CHIP_GAP_MM = 2.0
"""Round chips sit this far apart, in staggered rows."""
TOKEN_RING_MM = 1.0
"""The white ring just inside every token's dark edge: the token stands out even on a cell of its own colour."""


def _fill(geom: BaseGeometry, colour: str, name: str = "") -> Path:
    return Path(geometry_path(geom), Style(fill=colour), name=name)


def _stroke(geom: BaseGeometry, style: Style, name: str = "") -> Path:
    return Path(geometry_path(geom), style, name=name)


def _bleed(outline: Polygon, colour: str) -> Path:
    return _fill(outline.buffer(SHAPE_BLEED_MM, join_style="mitre", mitre_limit=3.0), colour, "bleed")


MIN_TEXT_PT = 6.0
"""Nothing a player reads during play is set smaller."""
CONDENSED = "DejaVu Sans Condensed"


def _label(x: float, y: float, text: str, max_width_mm: float, size_pt: float, colour: str, bold: bool = True,
           name: str = "") -> Text:
    font = Font(size_pt=size_pt, bold=bold)
    if text_width_mm(text, font) > max_width_mm:  # narrower letters before smaller ones
        font = Font(CONDENSED, size_pt, bold=bold)
    language = current().language
    if language == DEFAULT_LANGUAGE:  # the code's own words, drawn as every earlier kit drew them (a label on
        font = fit_font(text, font, max_width_mm)  # the smallest pieces may reach into its margin at 6 pt)
    else:  # a translation too long for its place is an error naming it, never a label past its token
        font = fit_font_or_fail(text, font, max_width_mm, f"a token's label (language {language})")
    return Text(x, y, text, font, colour, align="center", baseline="middle", name=name)


# ------------------------------------------------------------------------------------------ chips


def chip_component(config: Config, number: int) -> Component:
    """A chip worth 1 billion: silver (unlike any player's colour), round or square (``components.chip_shape``)."""
    d = config.components.chip_diameter_mm
    r = d / 2
    square = config.components.chip_shape == "square"
    if square:
        edge = Polygon([(0, 0), (d, 0), (d, d), (0, d)])
        inner = Polygon([(d * 0.1, d * 0.1), (d * 0.9, d * 0.1), (d * 0.9, d * 0.9), (d * 0.1, d * 0.9)])

        def body(colour: str, name: str) -> list[Op]:
            return [_fill(edge.buffer(SHAPE_BLEED_MM, join_style="mitre"), colour, "bleed"), _fill(edge, colour, name)]

        def ring(dashed: bool) -> Op:
            return _stroke(inner, Style(stroke=CHIP_DARK, stroke_width_mm=0.5, dash_mm=(1.2, 0.8) if dashed else ()))

        cut: Op = _stroke(edge, Style(stroke=CHIP_DARK, stroke_width_mm=0.3), "cut-line")
        outline = geometry_path(edge)
    else:
        disc = Point(r, r).buffer(r, quad_segs=16)  # the cut outline (cut file); the art uses true circles

        def body(colour: str, name: str) -> list[Op]:
            return [Circle(r, r, r + SHAPE_BLEED_MM, Style(fill=colour), "bleed"),
                    Circle(r, r, r, Style(fill=colour), name)]

        def ring(dashed: bool) -> Op:
            return Circle(r, r, r * 0.8, Style(stroke=CHIP_DARK, stroke_width_mm=0.5,
                                                dash_mm=(1.2, 0.8) if dashed else ()))

        cut = Circle(r, r, r, CUT_LINE, "cut-line")
        outline = geometry_path(disc)
    front: list[Op] = [
        *body(CHIP_SILVER, "chip"), ring(True),
        _label(r, r - d * 0.07, "1", d * 0.5, d * 1.15, INK),
        _label(r, r + d * 0.24, current().gettext("BILLION"), d * 0.5, max(MIN_TEXT_PT, d * 0.23), INK),
        cut,
    ]
    back: list[Op] = [
        *body(CHIP_SILVER_LIGHT, "chip-back"), ring(False),
        zone_symbol("leaf", r, r - d * 0.12, d * 0.32, CHIP_DARK, detail=CHIP_SILVER_LIGHT),
        _label(r, r + d * 0.22, current().gettext("1 bn"), d * 0.5, d * 0.36, INK),
        cut,
    ]
    return Component("chip", f"chip {number}", d, d, Scene(tuple(front)), outline, Scene(tuple(back)),
                     marks=square)


SHAPED_GAP_MM = 2 * SHAPE_BLEED_MM + 0.5
"""Space between shaped parts: each keeps its colour bleed, and scissors fit between."""
TOKEN_GAP_MM = 2.0
"""Tokens sit closer (no colour bleed: the dark edge is the cut line; most shapes leave more room than their box)."""


def _copies(first: Component, labels: list[str]) -> tuple[Component, ...]:
    """Identical parts that differ only in their label (drawn once, shared)."""
    return tuple(replace(first, label=label) for label in labels)


def chips(config: Config) -> ComponentSet:
    """``rules.bank_chips`` chips: the whole supply in the box (players' starting chips come out of it).

    Square chips touch in a grid (a few long straight cuts; a back printed slightly off shows the next chip's
    identical back); round ones sit in staggered rows."""
    n = config.rules.bank_chips
    parts = _copies(chip_component(config, 1), [f"chip {i + 1}" for i in range(n)])
    square = config.components.chip_shape == "square"
    return ComponentSet("chip", current().gettext("Chips: {n} chips of 1 billion").format(n=n), parts,
                        double_sided=True,
                        gap_mm=0.0 if square else ROUND_CHIP_GAP_MM, stagger=not square)


# ------------------------------------------------------------------------------------------ player pieces


def player_style(config: Config, player: int) -> tuple[str, str]:
    """(colour, shape) of player ``player`` (1-based)."""
    k = config.components
    return k.player_colours[player - 1], k.player_shapes[player - 1]


def token_component(config: Config, player: int, number: int, size_mm: float) -> Component:
    colour, shape = player_style(config, player)
    c = size_mm / 2
    outline = player_shape(shape, c, c, size_mm)
    lx, ly = shape_label_point(shape, c, c, size_mm)
    ink = ink_on(colour)
    ring = outline.buffer(-(0.25 + TOKEN_RING_MM / 2), join_style="mitre")
    ops: list[Op] = [
        _fill(outline, colour, "token"),
        _stroke(ring, Style(stroke="#ffffff", stroke_width_mm=TOKEN_RING_MM, line_join="miter"), "token-ring"),
        _label(lx, ly, f"P{player}", size_mm * label_width_share(shape) * 0.92, size_mm * 1.0, ink),
        _stroke(outline, Style(stroke=INK, stroke_width_mm=0.5, line_join="miter"), "cut-line"),
    ]
    return Component("token", f"P{player} token {number}", size_mm, size_mm, Scene(tuple(ops)),
                     geometry_path(outline), marks=False)


def standee_geometry(size_mm: float, face_height_mm: float) -> tuple[float, float]:
    """(width, base depth) of a standee whose folded footprint (width x 2 base) sits inside the piece size."""
    return round(size_mm * 0.8, 2), round(size_mm * 0.36, 2)


def standee_component(config: Config, player: int, number: int, size_mm: float) -> Component:
    """A strip: base | front face (upside down) | back face | base. Fold at the three lines, glue the faces
    back to back and bend the bases out opposite ways; it stands on a footprint of width x 2 bases."""
    colour, shape = player_style(config, player)
    h = config.components.standee_height_mm
    w, b = standee_geometry(size_mm, h)
    total = 2 * b + 2 * h
    light = mix(colour, "#ffffff", 0.55)
    ink = ink_on(colour)

    def face(top: float) -> list[Op]:
        cx, cy = w / 2, top + h * 0.42
        icon = min(w * 0.78, h * 0.55)
        outline = player_shape(shape, cx, cy, icon)
        lx, ly = shape_label_point(shape, cx, cy, icon)
        return [
            _fill(outline, "#ffffff"),
            _label(lx, ly, f"P{player}", icon * label_width_share(shape), icon * 1.1, INK),
            _label(cx, top + h * 0.86, current().gettext("PLAYER {n}").format(n=player), w * 0.96, MIN_TEXT_PT, ink,
                   bold=False),
        ]

    ops: list[Op] = [
        Path((("M", -3, -3), ("L", w + 3, -3), ("L", w + 3, total + 3), ("L", -3, total + 3), ("Z",)),
             Style(fill=colour), "standee"),
        Path((("M", -3, -3), ("L", w + 3, -3), ("L", w + 3, b), ("L", -3, b), ("Z",)), Style(fill=light)),
        Path((("M", -3, total - b), ("L", w + 3, total - b), ("L", w + 3, total + 3), ("L", -3, total + 3), ("Z",)),
             Style(fill=light)),
        _label(w / 2, b / 2, f"P{player}", w * 0.7, 6, INK, bold=False),
        # standing up, the fold between the faces is the top: the first face is printed upside down
        Group(tuple(face(b)), transform=rotate(180, w / 2, b + 0.5 * h)),
        *face(b + h),
        Group((_label(w / 2, total - b / 2, f"P{player}", w * 0.7, 6, INK, bold=False),),
              transform=rotate(180, w / 2, total - b / 2)),
    ]
    folds = tuple(((0.0, y), (w, y)) for y in (b, b + h, b + 2 * h))
    fold_style = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.0, 1.0))
    ops.extend(Path((("M", *f[0]), ("L", *f[1])), fold_style, "fold-line") for f in folds)
    outline = Polygon([(0, 0), (w, 0), (w, total), (0, total)])
    ops.append(_stroke(outline, CUT_LINE, "cut-line"))
    return Component("standee", f"P{player} standee {number}", w, total, Scene(tuple(ops)), geometry_path(outline),
                     folds=folds)


def player_pieces(config: Config, size_mm: float) -> list[ComponentSet]:
    """Tokens and/or standees: ``rules.pieces_per_player`` for each of ``players.max`` players."""
    r, k = config.rules, config.components
    sets: list[ComponentSet] = []
    players = range(1, config.players.max + 1)
    numbers = range(1, r.pieces_per_player + 1)
    if "tokens" in k.piece_forms:
        parts = tuple(c for p in players for c in _copies(token_component(config, p, 1, size_mm),
                                                          [f"P{p} token {i}" for i in numbers]))
        sets.append(ComponentSet("token", current().gettext("Player pieces: flat tokens, {n} per player").format(
            n=r.pieces_per_player),
                                 parts, gap_mm=TOKEN_GAP_MM))
    if "standees" in k.piece_forms:
        parts = tuple(c for p in players for c in _copies(standee_component(config, p, 1, size_mm),
                                                          [f"P{p} standee {i}" for i in numbers]))
        sets.append(ComponentSet("standee", current().gettext(
            "Player pieces: fold-over standees, {n} per player").format(n=r.pieces_per_player),
                                 parts, gap_mm=0.0))  # touching strips: long straight cuts
    return sets


# ------------------------------------------------------------------------------------------ badges


def badge_outline(size_mm: float) -> Polygon:
    w, h = size_mm, size_mm * math.sqrt(3) / 2
    return Polygon([(w * 0.25, 0), (w * 0.75, 0), (w, h / 2), (w * 0.75, h), (w * 0.25, h), (0, h / 2)])


def badge_component(config: Config, zone_name: str, number: int) -> Component:
    zone = config.zones[zone_name]
    s = config.components.badge_size_mm
    w, h = s, s * math.sqrt(3) / 2
    outline = badge_outline(s)
    ink = ink_on(zone.colour)
    value = f"+{zone.badge_value}"
    front: list[Op] = [
        _bleed(outline, zone.colour), _fill(outline, zone.colour, "badge"),
        _label(w / 2, h * 0.2, zone_name.upper(), w * 0.62, MIN_TEXT_PT, ink),
        zone_symbol(zone.symbol, w / 2, h * 0.47, h * 0.3, ink, detail=zone.colour),
        _label(w / 2, h * 0.78, value, w * 0.4, 13.0, ink, name="badge-value"),
        _stroke(outline, CUT_LINE, "cut-line"),
    ]
    back_bg = mix(zone.colour, "#ffffff", 0.8)
    back: list[Op] = [
        _bleed(outline, zone.colour), _fill(outline, zone.colour),
        _fill(outline.buffer(-2.0, join_style="mitre"), back_bg, "badge-back"),
        _label(w / 2, h * 0.25, current().gettext("PHILANTHROPY"), w * 0.62, MIN_TEXT_PT, INK),
        _label(w / 2, h * 0.37, current().gettext("BADGE"), w * 0.5, MIN_TEXT_PT, INK),
        _label(w / 2, h * 0.55, zone_name, w * 0.66, 7.0, INK),
        _label(w / 2, h * 0.74, current().gettext("{value} to the index").format(value=value), w * 0.74,
               MIN_TEXT_PT, INK, bold=False),
        _label(w / 2, h * 0.85, current().gettext("at the end"), w * 0.6, MIN_TEXT_PT, INK, bold=False),
        _stroke(outline, CUT_LINE, "cut-line"),
    ]
    return Component("badge", f"{zone_name} badge {number}", w, h, Scene(tuple(front)), geometry_path(outline),
                     Scene(tuple(back)), marks=False)


def badges(config: Config) -> ComponentSet:
    """One badge per zone for every possible player (``players.max``)."""
    n = config.players.max
    parts = tuple(c for z in config.zones
                  for c in _copies(badge_component(config, z, 1), [f"{z} badge {i + 1}" for i in range(n)]))
    return ComponentSet("badge", current().gettext("Philanthropy badges: one per zone for each of {n} players").format(
        n=n), parts,
                        double_sided=True, gap_mm=SHAPED_GAP_MM)


# ------------------------------------------------------------------------------------------ markers

MARKERS_PER_ZONE = 2
"""One marker for the table and one spare per zone (they are small)."""


def marker_size_mm() -> tuple[float, float]:
    """(width, height) of a zone marker: a small upright strip that sits in one box of the board's
    bio-productivity table beside the value (values are left-aligned), so the value stays readable. The table
    card uses the same box height, so one set of markers fits both tables."""
    font = Font(size_pt=TABLE_START_FONT.size_pt, bold=True)
    number_end = getattr(TABLE, "number_inset_mm", 1.3) + text_width_mm("12", font)
    free_mm = TABLE.column_mm - number_end
    width = max(3.0, free_mm - 0.8)  # all the room beside the value, less a hair for cutting slack
    height = max(4.0, TABLE.row_mm - 1.6)
    return round(width, 2), round(height, 2)


def zone_marker(config: Config, zone_name: str, number: int = 1) -> Component:
    zone = config.zones[zone_name]
    w, h = marker_size_mm()
    ink = ink_on(zone.colour)
    box = Polygon([(0, 0), (w, 0), (w, h), (0, h)])
    ops: list[Op] = [
        _bleed(box, zone.colour), _fill(box, zone.colour, "marker"),
        zone_symbol(zone.symbol, w / 2, h * 0.32, w * 0.8, ink, detail=zone.colour),
        # points left, at the value it marks
        Path((("M", w * 0.8, h * 0.62), ("L", w * 0.8, h * 0.9), ("L", w * 0.18, h * 0.76), ("Z",)), Style(fill=ink)),
        _stroke(box, CUT_LINE, "cut-line"),
    ]
    return Component("marker", f"{zone_name} marker {number}", w, h, Scene(tuple(ops)), geometry_path(box),
                     marks=False)


TURN_MARKER_MM = 12.0


def turn_marker(config: Config, box_mm: tuple[float, float] = (27.0, 25.0)) -> Component:
    """A disc that sits in the middle of one turn-counter box (``box_mm``: the box's width and height)."""
    d = round(min(TURN_MARKER_MM, 0.48 * min(box_mm)), 2)
    r = d / 2
    ops: list[Op] = [
        Circle(r, r, r + SHAPE_BLEED_MM, Style(fill=INK), "bleed"),
        Circle(r, r, r, Style(fill=INK), "turn-marker"),
        Circle(r, r, r * 0.8, Style(stroke="#ffffff", stroke_width_mm=0.4)),
        Circle(r, r, r, CUT_LINE, "cut-line"),
    ]
    word = current().gettext("TURN")
    if text_width_mm(word, Font(CONDENSED, 6.0, bold=True)) <= d * 0.62:  # a marker for tiny turn boxes (many
        ops.insert(3, _label(r, r, word, d * 0.62, 7.0, "#ffffff"))     # turns) is the plain ringed disc
    return Component("turn-marker", "turn marker", d, d, Scene(tuple(ops)),
                     geometry_path(Point(r, r).buffer(r, quad_segs=16)), marks=False)


def markers(config: Config, turn_box_mm: tuple[float, float] = (27.0, 25.0)) -> ComponentSet:
    parts = tuple(zone_marker(config, z, k + 1) for z in config.zones for k in range(MARKERS_PER_ZONE))
    return ComponentSet("marker", current().gettext(
        "Markers: zone markers for the index table (one spare each), the turn marker"),
                        (*parts, turn_marker(config, turn_box_mm)), uniform=False, gap_mm=SHAPED_GAP_MM)
