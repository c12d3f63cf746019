"""Every printed part of The Philanthropist besides the board, as ComponentSets that ``lay_out`` puts on sheets.

- meeple standees: fold-over strips (foot | face | face | foot), each face showing the meeple in its colour,
  its cost as a number and as pips, and its colour's name (colour-blind players read the number);
- avatar chips: one per seat, in the seat's colour and its own shape;
- cube tokens: square counters by value (the supply from ``cubes.supply``) for players without real cubes;
- two paper d6: the coloured action die (each face: its number, the action's icon and word) and the white die;
- the business cards through the shared ``boardgen.cards.deck`` (fronts from the card rows, one back with a
  dollar sign);
- the player aid: the turn, the die and the cost table.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import LineString
from shapely.geometry import Polygon as ShapelyPolygon

from boardgen.cards.deck import CardLayout, Deck, fit_text
from boardgen.cards.dice import die_component, die_net
from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.cards.shapes import player_shape
from boardgen.cards.sheets import path_polygon
from boardgen.errors import LayoutError
from boardgen.games.philanthropist.art import INK, action_icon, cube, label, meeple_ops, pips
from boardgen.games.philanthropist.model import Card, PhilanthropistTemplate
from boardgen.i18n import N_, current
from boardgen.render.cairo_backend import cap_height_mm, text_width_mm
from boardgen.render.scene import Circle, Font, Group, Op, Path, Rect, RectOp, Scene, Style, Text, ink_on, mix, rotate

CUT = Style(stroke=INK, stroke_width_mm=0.3, line_join="round")
FOLD = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.0, 1.0))
WHITE_DIE = "#ffffff"
ACTION_WORDS = {"move": N_("MOVE"), "payday": N_("PAYDAY"), "card": N_("CARD")}


def _rect_path(w: float, h: float, x: float = 0.0, y: float = 0.0) -> Path:
    return Path((("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)), CUT, "cut-line")


# ------------------------------------------------------------------------------------------ meeples


def meeple_standee(t: PhilanthropistTemplate, kind_index: int) -> Component:
    k = t.meeples.kinds[kind_index]
    w, h, b = t.meeples.standee_width_mm, t.meeples.standee_height_mm, t.meeples.base_depth_mm
    total = 2 * b + 2 * h
    pale = mix(k.colour, "#ffffff", 0.75)
    words = f"{k.cost} cube" + ("" if k.cost == 1 else "s")

    def face(top: float) -> list[Op]:
        return [
            RectOp(Rect(0, top, w, h), Style(fill=pale)),
            *meeple_ops(w / 2, top + h * 0.3, w * 0.62, h * 0.46, k.colour),
            label(w * 0.3, top + h * 0.7, str(k.cost), w * 0.4, h * 0.28 / 0.3528 * 0.9),
            *pips(w * 0.72, top + h * 0.7, k.cost, w * 0.42, INK),
            label(w / 2, top + h * 0.9, f"{k.name.upper()}: {words}", w * 0.94, 6.5, bold=False),
        ]

    ops: list[Op] = [
        RectOp(Rect(-3, -3, w + 6, total + 6), Style(fill=k.colour), "standee"),
        Group((label(w / 2, b / 2, f"{k.name} {k.cost}", w * 0.8, 7.0, ink_on(k.colour), bold=False),),
              transform=rotate(180, w / 2, b / 2)),
        Group(tuple(face(b)), transform=rotate(180, w / 2, b + h / 2)),  # standing, the fold between faces is the top
        *face(b + h),
        label(w / 2, total - b / 2, f"{k.name} {k.cost}", w * 0.8, 7.0, ink_on(k.colour), bold=False),
    ]
    folds = tuple(((0.0, y), (w, y)) for y in (b, b + h, b + 2 * h))
    ops.extend(Path((("M", *f[0]), ("L", *f[1])), FOLD, "fold-line") for f in folds)
    ops.append(_rect_path(w, total))
    outline = ShapelyPolygon([(0, 0), (w, 0), (w, total), (0, total)])
    return Component("standee", f"{k.name} meeple", w, total, Scene(tuple(ops)), geometry_path(outline), folds=folds)


def meeples(t: PhilanthropistTemplate) -> ComponentSet:
    parts: list[Component] = []
    for i, k in enumerate(t.meeples.kinds):
        first = meeple_standee(t, i)
        parts += [replace(first, label=f"{k.name} meeple {n + 1}") for n in range(k.count + t.kit.spare_meeples)]
    return ComponentSet("standee", current().gettext(
        "{n} meeple standees: cut the strips apart, fold on the dashed lines, glue the two faces together, bend the "
        "feet out opposite ways").format(n=t.meeples.total), tuple(parts),
                        gap_mm=0.0)


# ------------------------------------------------------------------------------------------ avatars and cubes


NAME_PT = (7.0, 6.5, 6.0)  # the seat's name on its avatar chip, largest first
DOLLAR_HEIGHT = 1.32  # a "$" stands about 1.32 cap heights tall (it reaches below the baseline and above caps)


def _width_at(shape: ShapelyPolygon, y: float) -> float:
    """The length of the horizontal line at ``y`` inside ``shape`` (0 above or below it)."""
    minx, _miny, maxx, _maxy = shape.bounds
    return float(shape.intersection(LineString([(minx - 1, y), (maxx + 1, y)])).length)


def chip_marks(shape: ShapelyPolygon, d: float, name: str) -> tuple[tuple[float, Font], tuple[float, Font]]:
    """Where the seat's name and the dollar sign go on a ``d`` mm chip of ``shape``: ((name y, font), (dollar y,
    font)), both centred. The name takes the lowest line (of a few) where it fits inside the inner ring at 6 pt or
    more; the dollar sign fills the room above it, so the two never touch whatever the shape (a diamond narrows
    fast)."""
    inner = shape.buffer(-(d * 0.08 + 0.8))
    _minx, top, _maxx, _bottom = inner.bounds
    for frac in (0.70, 0.66, 0.62, 0.58, 0.54, 0.50):
        y = d * frac
        for size in NAME_PT:
            font = Font(size_pt=size, bold=True)
            half = cap_height_mm(font) / 2
            room = min(_width_at(inner, y - half), _width_at(inner, y + half)) - 1.4
            if text_width_mm(name, font) <= room:
                break
        else:
            continue
        break
    name_top = y - half
    room_top, room_bottom = top + d * 0.06, name_top - 0.9
    cap = (room_bottom - room_top) / DOLLAR_HEIGHT
    dollar = Font(size_pt=min(cap / 0.3528 / 0.73, d * 0.5 / 0.3528), bold=True)
    while text_width_mm("$", dollar) > _width_at(inner, (room_top + room_bottom) / 2) * 0.8 and dollar.size_pt > 6:
        dollar = Font(size_pt=dollar.size_pt - 0.5, bold=True)
    return (y, font), ((room_top + room_bottom) / 2, dollar)


def avatar_chip(t: PhilanthropistTemplate, seat: int) -> Component:
    s = t.players.seats[seat]
    d = t.kit.avatar_chip_mm
    shape = player_shape(s.shape, d / 2, d / 2, d)
    ink = ink_on(s.colour)
    (name_y, name_font), (dollar_y, dollar_font) = chip_marks(shape, d, s.name.upper())
    ops: list[Op] = [
        Path(geometry_path(shape.buffer(1.5, join_style="mitre")), Style(fill=s.colour), "bleed"),
        Path(geometry_path(shape), Style(fill=s.colour), "avatar"),
        Path(geometry_path(shape.buffer(-d * 0.08)), Style(stroke=ink, stroke_width_mm=0.4)),
        Text(d / 2, dollar_y, "$", dollar_font, ink, align="center", baseline="middle"),
        Text(d / 2, name_y, s.name.upper(), name_font, ink, align="center", baseline="middle"),
        Path(geometry_path(shape), CUT, "cut-line"),
    ]
    scene = Scene(tuple(ops))
    return Component("chip", f"{s.name} avatar", d, d, scene, geometry_path(shape), back=scene, marks=False)


def avatars(t: PhilanthropistTemplate) -> ComponentSet:
    return ComponentSet("chip", current().gettext(
        "Avatar chips, one per player (each its own shape); fold-over or duplex"),
                        tuple(avatar_chip(t, i) for i in range(len(t.players.seats))), double_sided=True,
                        uniform=False, gap_mm=4.0)


def cube_token(t: PhilanthropistTemplate, value: int) -> Component:
    d = t.cubes.token_mm
    colour = t.cubes.colour if value == 1 else mix(t.cubes.colour, "#7a4b00", 0.35)
    ops: list[Op] = [
        RectOp(Rect(-3, -3, d + 6, d + 6), Style(fill=colour), "cube-token"),
        *cube(d * 0.3, d * 0.32, d * 0.34, mix(colour, "#ffffff", 0.3)),
        label(d * 0.62, d * 0.52, str(value), d * 0.6, d * 0.62 / 0.3528, ink_on(colour)),
        label(d / 2, d * 0.87, current().ngettext("cube", "cubes", value), d * 0.8, 6.0, ink_on(colour), bold=False),
    ]
    return Component("token", f"{value}-cube token", d, d, Scene(tuple(ops)), geometry_path(
        ShapelyPolygon([(0, 0), (d, 0), (d, d), (0, d)])))


def cube_tokens(t: PhilanthropistTemplate) -> ComponentSet:
    parts: list[Component] = []
    for value in sorted(t.cubes.supply):
        first = cube_token(t, value)
        parts += [replace(first, label=f"{value}-cube token {n + 1}") for n in range(t.cubes.supply[value])]
    return ComponentSet("token", current().gettext(
        "Cube tokens ({n} cubes in all): the squares touch, cut with long straight cuts").format(n=t.cubes.total),
        tuple(parts), gap_mm=0.0)


# ------------------------------------------------------------------------------------------ dice


def d6(t: PhilanthropistTemplate, action: bool) -> Component:
    """A paper d6 from the shared net (``boardgen.cards.dice``) with this game's faces drawn on it."""
    edge = t.action_die.size_mm
    base = die_component(6, edge * math.sqrt(3))
    net = die_net(6)
    colour = t.action_die.colour if action else WHITE_DIE
    faces = [op for op in base.front.items if isinstance(op, Path) and op.name == "die-face"]
    keep: list[Op] = [op for op in base.front.items
                      if getattr(op, "name", "") not in ("die-face", "die-number", "die-name")
                      and not (hasattr(op, "items") and any(getattr(i, "name", "") == "die-number"
                                                            for i in op.items))]  # type: ignore[union-attr]
    art: list[Op] = []
    ink = ink_on(colour)
    for k, face in enumerate(faces):
        poly = path_polygon(face.commands)
        c = poly.centroid
        number = net.numbers[k]
        art.append(Path(face.commands, Style(fill=colour), "die-face"))
        if action:
            what = t.action_die.faces[number - 1]
            art.append(label(c.x - edge * 0.3, c.y - edge * 0.3, str(number), edge * 0.3, edge * 0.22 / 0.3528, ink))
            art.extend(action_icon(what, c.x, c.y - edge * 0.05, edge * 0.5, ink))
            face_word = current().gettext(ACTION_WORDS[what])
            art.append(label(c.x, c.y + edge * 0.33, face_word, edge * 0.8, edge * 0.17 / 0.3528, ink))
        else:
            art.extend(_d6_pips(c.x, c.y, edge, number))
    # faces first, then glue tabs and fold lines and the cut line on top
    tabs = [op for op in keep if getattr(op, "name", "") == "glue-tab"]
    rest = [op for op in keep if getattr(op, "name", "") != "glue-tab"]
    name = N_("action die") if action else N_("white die")
    word = Text(2.0, 5.0, current().gettext(name), Font(size_pt=8, bold=True), INK)
    return replace(base, label=name, front=Scene((*tabs, *art, *rest, word)))


def _d6_pips(cx: float, cy: float, edge: float, n: int) -> list[Op]:
    s = edge * 0.26
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[n]
    return [Circle(cx + dx * s, cy + dy * s, edge * 0.08, Style(fill=INK), "pip") for dx, dy in spots]


def dice(t: PhilanthropistTemplate) -> ComponentSet:
    return ComponentSet("die", current().gettext(
        "Two paper dice: the coloured action die and the white die. Cut on the solid line, crease the dashed "
        "lines, glue the grey tabs inside"), (d6(t, True), d6(t, False)),
                        uniform=False)


# ------------------------------------------------------------------------------------------ cards


def fitted_lines(text: str, width: float, height: float, sizes: tuple[float, ...] = (9.0, 8.5, 8.0, 7.5, 7.0, 6.5)
                 ) -> tuple[Font, list[str]]:
    """The largest size at which ``text`` wraps into the box (the shared deck's fitter); LayoutError if even
    the smallest overflows."""
    box = Rect(0.0, 0.0, width, height)
    fit = fit_text(text, box, Font(size_pt=sizes[0]), sizes[-1])
    if fit is None:
        raise LayoutError(f"text does not fit its {width:.1f} x {height:.1f} mm box at {sizes[-1]} pt: {text!r}")
    lines = [" ".join("".join(piece.text for piece in word) for word in line) for line in fit.lines]
    return fit.font, lines


def effect_banner(card: Card) -> str:
    tr = current()
    verb, amount = card.effect.split()
    if verb == "gain":
        return tr.ngettext("+{n} CUBE", "+{n} CUBES", int(amount)).format(n=amount)
    if amount == "all":
        return tr.gettext("LOSE ALL CUBES")
    if amount == "half":
        return tr.gettext("LOSE HALF")
    return tr.ngettext("-{n} CUBE", "-{n} CUBES", int(amount)).format(n=amount)


def effect_value(card: Card) -> str:
    verb, amount = card.effect.split()
    if verb == "gain":
        return f"+{amount}"
    return {"all": "×0", "half": "×½"}.get(amount, f"-{amount}")  # "0" alone read as "no change"


GAIN_COLOUR = "#2e7d32"
LOSS_COLOUR = "#b23a2e"


def business_deck(t: PhilanthropistTemplate, cards: tuple[Card, ...]) -> Deck:
    """The business cards as a shared ``Deck``: the title band in green (the card pays) or red (it costs), the
    change in cubes in the value disc, the text, and the effect spelled out at the foot. One back: a dollar sign."""
    rows = [{"title": c.title, "text": c.text, "value": effect_value(c), "footer": effect_banner(c),
             "colour": GAIN_COLOUR if c.kind == "gain" else LOSS_COLOUR, "quantity": c.quantity} for c in cards]
    return Deck(N_("Business cards"), tuple(rows), (t.cards.width_mm, t.cards.height_mm), colour=t.cards.back_colour,
                pattern="dots", back_text="$", layout=CardLayout(title_pt=9.5, body_pt=10.5, small_pt=7.5),
                source=t.cards.file)


# ------------------------------------------------------------------------------------------ player aid


AID_PT = (8.0, 7.5)  # the player aid's type, largest first: read across the table, so never below 7.5 pt


def player_aid(t: PhilanthropistTemplate) -> Component:
    w, h = 63.5, 88.9
    m = 3.5
    r = t.rules
    _ = current().gettext
    ops: list[Op] = [RectOp(Rect(-3, -3, w + 6, h + 6), Style(fill="#fbf8f1"), "aid"),
                     RectOp(Rect(-3, -3, w + 6, 12.0), Style(fill=t.board.frame)),
                     label(w / 2, 5.0, _("YOUR TURN"), w - 2 * m, 11.0, "#ffffff")]
    y = 13.0
    words = {"move": _("MOVE: roll white; 0 to that many squares, 8 ways. Helped nobody: +{n}").format(
                 n=r.move_income),
             "payday": _("PAYDAY: roll white; take {n} x the roll").format(n=r.payday_multiplier),
             "card": _("CARD: draw one, do what it says")}
    seen: list[str] = []
    for action in t.action_die.faces:
        if action in seen:
            continue
        seen.append(action)
        numbers = ", ".join(str(i + 1) for i, a in enumerate(t.action_die.faces) if a == action)
        ops.append(RectOp(Rect(m, y, 9.0, 9.0), Style(fill=t.action_die.colour)))
        ops.extend(action_icon(action, m + 4.5, y + 4.5, 7.5, "#ffffff"))
        font, lines = fitted_lines(f"{numbers}  {words[action]}", w - 2 * m - 11.0, 11.0, AID_PT)
        pitch = font.size_mm * 1.25
        for k, text in enumerate(lines):
            ops.append(Text(m + 11.0, y + 0.3 + k * pitch, text, font, INK, baseline="top"))
        y += max(9.0, len(lines) * pitch) + 1.6
    ops.append(Text(m, y + 0.8, _("Pay to help a meeple:"), Font(size_pt=AID_PT[0], bold=True), INK, baseline="top"))
    y += 5.0
    foot_text = (_("Most meeples wins. Helping still earns income.") if r.income_when_collecting else
                 _("Most meeples wins. Helping ends your turn, no income."))
    foot_font, foot = fitted_lines(foot_text, w - 2 * m, 8.0, AID_PT)
    foot_pitch = foot_font.size_mm * 1.2
    foot_top = h - 2.0 - len(foot) * foot_pitch
    row = (foot_top - 1.0 - y) / len(t.meeples.kinds)
    for kind in t.meeples.kinds:
        ops.extend(meeple_ops(m + 4.0, y + row / 2, row * 0.7, row * 0.9, kind.colour))
        ops.append(Text(m + 9.0, y + row / 2, f"{kind.name}: {kind.cost}", Font(size_pt=AID_PT[0], bold=True), INK,
                        baseline="middle"))
        ops.extend(pips(w * 0.72, y + row / 2, kind.cost, row * 1.4, INK))
        y += row
    for k, text in enumerate(foot):
        ops.append(Text(w / 2, foot_top + k * foot_pitch, text, foot_font, INK, align="center", baseline="top"))
    outline = geometry_path(ShapelyPolygon([(0, 0), (w, 0), (w, h), (0, h)]))
    return Component("aid", "player aid", w, h, Scene(tuple(ops)), outline)


def player_aids(t: PhilanthropistTemplate) -> ComponentSet:
    first = player_aid(t)
    return ComponentSet("aid", current().gettext("Player aids, one per player"),
                        tuple(replace(first, label=f"player aid {i + 1}")
                                                                    for i in range(t.players.max)))
