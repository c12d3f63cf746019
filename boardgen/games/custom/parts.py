"""A data-only game's parts, drawn from its template: the data files read once (pictures, deck rows, the
leaflet's Markdown) and every card, token, die, standee and the board as the shared vocabulary's components
(``boardgen.cards.model.Component``) and board graph (``boardgen.layout.spaces``).

Card texts are fitted with the decks' typesetter (``boardgen.cards.deck.fit_text``: wrapped, shrunk step by step,
``{icon}`` names drawn in line) and never set below 6 pt: a text that cannot fit is a ``LayoutError`` naming
the deck, the card, its row and the field. Dice are the shared paper-die nets (``boardgen.cards.dice``) with
the template's faces in place of the numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from boardgen.cards.deck import draw_text, fit_text, load_rows, row_quantity, unknown_icons
from boardgen.cards.dice import die_component, die_net
from boardgen.cards.icons import ICONS
from boardgen.cards.model import Component, ComponentSet
from boardgen.cards.sheets import path_polygon
from boardgen.datafiles import locate, read_text
from boardgen.errors import ConfigError, LayoutError
from boardgen.games.custom.schema import CustomTemplate, DeckSpec, FaceSpec, FieldSpec
from boardgen.i18n import N_, current
from boardgen.layout.spaces import BoardGraph, Space, SpaceStyle, render
from boardgen.render.cairo_backend import fit_font
from boardgen.render.images import Picture, read_picture
from boardgen.render.scene import (
    PT,
    Circle,
    Font,
    Group,
    Image,
    Op,
    Path,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    circle_path,
    ink_on,
    line,
    mix,
    polygon_path,
    rect_path,
    regular_polygon,
    rotate,
    rounded_rect_path,
)
from boardgen.yaml_reader import short_repr, templates_dir

BLEED_MM = 3.0
INK = "#1a1a1a"
CUT = Style(stroke=INK, stroke_width_mm=0.3, line_join="round")
QUANTITY = ("quantity", "count")
SET_KINDS = (N_("tokens"), N_("tokens-2"), N_("parts"))
"""The kinds of the sets besides the decks (tokens with no back, tokens with a back, the single-sided parts):
a sheet heading prints its set's kind in the edition's words."""


@dataclass(frozen=True)
class GameData:
    """What the template's files hold, read and checked once."""

    pictures: Mapping[str, Picture]
    rows: Mapping[str, tuple[dict[str, Any], ...]]  # deck id -> its rows (before quantities)
    files: Mapping[str, FilePath]  # template key -> data file (the manifest's sha256 list)
    leaflet: str


def load_data(t: CustomTemplate) -> GameData:
    """Every data file the template names, read through the bounded readers; any problem is one ConfigError
    naming the file or the template key."""
    bundled = (templates_dir(),)  # a copy of the shipped example finds its pictures and rows there
    files: dict[str, FilePath] = {}
    pictures: dict[str, Picture] = {}
    for name, rel in t.images.items():
        key = f"images.{name}"
        path = locate(rel, t.source, key, bundled, "picture")
        files[key] = path
        pictures[name] = read_picture(path, t.source, key, name)
    if t.board is not None:
        board_pictures: list[tuple[str, str | None]] = [("board.image", t.board.image)]
        board_pictures += [(f"board.spaces[{i}].image", sp.image) for i, sp in enumerate(t.board.spaces)]
        board_pictures += [(f"board.pictures[{i}].image", pic.image) for i, pic in enumerate(t.board.pictures)]
        shaded = rb"<(\w+:)?(linearGradient|radialGradient|pattern)\b"
        for key, used in board_pictures:
            if used and pictures[used].kind == "svg" and re.search(shaded, pictures[used].data):
                raise ConfigError(t.source, key, f"the SVG picture {used!r} has a gradient or pattern, which the print "
                                  "shop's CMYK poster cannot hold; expected flat colours (or a PNG/JPEG of it)")
    rows: dict[str, tuple[dict[str, Any], ...]] = {}
    for deck_id, deck in t.decks.items():
        key = f"decks.{deck_id}.file"
        if deck.file is not None:
            path = locate(deck.file, t.source, key, bundled, "card file")
            files[key] = path
            rows[deck_id] = check_rows(deck, load_rows(path), str(path), key, set(pictures))
        else:
            rows[deck_id] = check_rows(deck, load_rows(list(deck.rows or ())), t.source, f"decks.{deck_id}.rows",
                                       set(pictures), inline=True)
    key = "leaflet.file"
    path = locate(t.leaflet.file, t.source, key, bundled, "leaflet")
    files[key] = path
    leaflet = read_text(path, t.source, key, "leaflet")
    return GameData(pictures, rows, files, leaflet)


def check_rows(deck: DeckSpec, rows: Sequence[dict[str, Any]], where: str, key: str, pictures: set[str],
               inline: bool = False) -> tuple[dict[str, Any], ...]:
    """The rows, with every column the faces read present, no column the deck does not know, numbers in
    their stated range, picture names known and quantities whole numbers."""
    if not rows:
        raise ConfigError(where, key if inline else "(top level)", "the deck has no rows; expected at least one card")
    needed = deck.columns()
    known = set(needed) | set(deck.numbers) | set(deck.notes) | set(QUANTITY)
    for i, row in enumerate(rows):
        at = f"{key}[{i}]" if inline else f"row {i + 1}"
        missing = [c for c in needed if c not in row]
        if missing:
            raise ConfigError(where, at if inline else "header", f"no column {missing[0]!r}; the deck's faces read "
                              f"the columns {', '.join(needed)}")
        unknown = [str(c) for c in row if c not in known]
        if unknown:
            raise ConfigError(where, at if inline else "header", f"column {short_repr(unknown[0], 40)} is not read by "
                              "the deck's faces; expected only its columns (list a column kept for your own notes "
                              "under the deck's notes:)")
        for column, (low, high) in deck.numbers.items():
            value = str(row.get(column, "")).strip()
            if not re.fullmatch(r"-?\d{1,6}", value) or not low <= int(value) <= high:
                raise ConfigError(where, f"{at}.{column}", f"expected a whole number {low} to {high}, got "
                                  f"{short_repr(value, 30)}")
        row_quantity(row, where, i)
        for face in (deck.front, deck.back):
            for f in face.fields:
                if f.image_column:
                    name = str(row.get(f.image_column, "")).strip()
                    if name and name not in pictures:
                        raise ConfigError(where, f"{at}.{f.image_column}", f"no image named {short_repr(name, 40)} "
                                          "under the template's images:")
                if f.fill_column:
                    _row_colour(row, f.fill_column, where, f"{at}.{f.fill_column}")
            if face.background_column:
                _row_colour(row, face.background_column, where, f"{at}.{face.background_column}")
    return tuple(rows)


def _row_colour(row: Mapping[str, Any], column: str, where: str, key: str) -> str:
    value = str(row.get(column, "")).strip()
    if value and not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ConfigError(where, key, f"expected a colour '#rrggbb', got {short_repr(value, 30)}")
    return value


# ------------------------------------------------------------------------------------------ cards


@dataclass(frozen=True)
class CardRef:
    deck: str
    index: int
    row_index: int
    row: Mapping[str, Any]

    def cell(self, column: str) -> str:
        value = self.row.get(column)
        return "" if value is None else str(value).strip()

    def describe(self, title_column: str | None) -> str:
        title = self.cell(title_column) if title_column else ""
        return f"deck '{self.deck}': card {self.index + 1}" + (f" '{title}'" if title else "") + \
            f" (row {self.row_index + 1})"


def _bleed_box(box: Rect, w: float, h: float) -> Rect:
    """The box grown into the bleed on every side that touches the trim (a band or a full picture)."""
    x0 = box.x - BLEED_MM if box.x <= 1e-6 else box.x
    y0 = box.y - BLEED_MM if box.y <= 1e-6 else box.y
    x1 = box.right + BLEED_MM if box.right >= w - 1e-6 else box.right
    y1 = box.bottom + BLEED_MM if box.bottom >= h - 1e-6 else box.bottom
    return Rect(x0, y0, x1 - x0, y1 - y0)


def draw_face(face: FaceSpec, w: float, h: float, card: CardRef | None, pictures: Mapping[str, Picture],
              where: str, title_column: str | None) -> Scene:
    """One card face (card mm, painting its bleed): the background, then each field in order."""
    background = (card.cell(face.background_column) if card and face.background_column else "") or face.background
    ops: list[Op] = [RectOp(Rect(-BLEED_MM, -BLEED_MM, w + 2 * BLEED_MM, h + 2 * BLEED_MM), Style(fill=background),
                            name="card-background")]
    for i, f in enumerate(face.fields):
        ops += draw_field(f, i, w, h, card, pictures, where, title_column)
    return Scene(tuple(ops))


def draw_field(f: FieldSpec, i: int, w: float, h: float, card: CardRef | None, pictures: Mapping[str, Picture],
               where: str, title_column: str | None) -> list[Op]:
    box = Rect(*f.box)
    ops: list[Op] = []
    fill = (card.cell(f.fill_column) if card and f.fill_column else "") or f.fill
    if fill:
        painted = _bleed_box(box, w, h) if not f.radius_mm else box
        shape = rounded_rect_path(painted, f.radius_mm) if f.radius_mm else rect_path(painted)
        ops.append(Path(shape, Style(fill=fill), name=f"field-{i}-fill"))
    picture_name = f.image or (card.cell(f.image_column) if card and f.image_column else "")
    if picture_name:
        painted = _bleed_box(box, w, h) if f.fit == "cover" else box
        ops.append(Image(painted, pictures[picture_name], f.fit, name=f"field-{i}-image"))
        return ops
    text = f.text if f.text is not None else (card.cell(f.column) if card and f.column else "")
    if not text:
        return ops
    what = f"field {i + 1}" + (f" (column {f.column})" if f.column else "")
    who = card.describe(title_column) if card else where
    missing = unknown_icons(text)
    if missing:
        raise LayoutError(f"{who}: {what}: unknown icon {{{missing[0]}}} (known: {', '.join(sorted(ICONS))})")
    inner = box.inset(f.padding_mm) if f.padding_mm * 2 < min(box.width, box.height) else box
    fit = fit_text(text, inner, Font(size_pt=f.size, bold=f.bold, italic=f.italic), f.min_size)
    if fit is None:
        raise LayoutError(f"{who}: {what}: the text does not fit its {inner.width:.1f} x {inner.height:.1f} mm box "
                          f"even at {f.min_size:g} pt; shorten it or make the box larger")
    ops += draw_text(fit, inner, f.colour, f.align, f.valign, name=f"field-{i}-text")
    return ops


def _title_column(deck: DeckSpec) -> str | None:
    return next((f.column for f in deck.front.fields if f.column), None)


def deck_set(deck_id: str, deck: DeckSpec, rows: Sequence[Mapping[str, Any]], pictures: Mapping[str, Picture]
             ) -> ComponentSet:
    """Every card of the deck (rows repeated by their quantity) with its front and back."""
    from boardgen.cards.deck import card_size

    w, h = card_size(deck.size)
    title_column = _title_column(deck)
    where = f"deck '{deck.name}'"
    shared_back = None if _per_card(deck.back) else draw_face(deck.back, w, h, None, pictures, where + " back",
                                                              title_column)
    cards: list[Component] = []
    for r, row in enumerate(rows):
        for _copy in range(row_quantity(row, deck.file or "rows", r)):
            card = CardRef(deck.name, len(cards), r, row)
            front = draw_face(deck.front, w, h, card, pictures, where, title_column)
            back = shared_back or draw_face(deck.back, w, h, card, pictures, where, title_column)
            cards.append(Component("card", f"{deck.name} #{card.index + 1}", w, h, front, rect_path(Rect(0, 0, w, h)),
                                   back))
    if not cards:
        raise LayoutError(f"{where}: no cards (every row has quantity 0)")
    _ = current().gettext
    title = _("{deck} ({n} cards)").format(deck=deck.name, n=len(cards))
    # TRANSLATORS: a deck's sheet heading names the deck by the template's key for it ("deck-actions sheet 1 of 2")
    label = _("deck-{key}").format(key=deck_id)
    return ComponentSet(f"deck-{deck_id}", title, tuple(cards), double_sided=True, label=label,
                        gap_mm=0.0, outer_bleed=True)


def _per_card(face: FaceSpec) -> bool:
    return bool(face.background_column or any(f.columns() for f in face.fields))


# ------------------------------------------------------------------------------------------ tokens, standees


def _outline(shape: str, w: float, h: float) -> tuple[tuple, ...]:
    if shape == "round":
        return circle_path(w / 2, h / 2, w / 2)
    if shape == "hex":
        return polygon_path(regular_polygon(w / 2, h / 2, w / 2, 6, start_deg=0.0))
    return rect_path(Rect(0.0, 0.0, w, h))


def _label(text: str, cx: float, y: float, width: float, size_pt: float, colour: str, name: str) -> Text:
    font = fit_font(text, Font(size_pt=size_pt, bold=True), width)
    if font.size_pt < 6.0 - 1e-9:
        raise LayoutError(f"the text {text!r} does not fit {width:.1f} mm at 6 pt")
    return Text(cx, y, text, font, colour, align="center", baseline="middle", name=name)


def token_face(spec: Any, w: float, h: float, colour: str, text: str, picture: Picture | None, name: str) -> Scene:
    """A token face: its colour into the bleed, its outline's ring, a picture in the middle and a text below."""
    ops: list[Op] = [Path(_outline(spec.shape, w, h) if spec.shape != "rect" and spec.shape != "square"
                          else rect_path(Rect(-BLEED_MM, -BLEED_MM, w + 2 * BLEED_MM, h + 2 * BLEED_MM)),
                          Style(fill=colour), name="token-fill")]
    if spec.shape == "round":  # shaped parts keep 1.5 mm of colour past their cut line
        ops.insert(0, Circle(w / 2, h / 2, w / 2 + 1.5, Style(fill=colour), name="token-bleed"))
    elif spec.shape == "hex":
        corners = regular_polygon(w / 2, h / 2, w / 2 + 1.5 / math.cos(math.pi / 6), 6, start_deg=0.0)
        ops.insert(0, Path(polygon_path(corners), Style(fill=colour), name="token-bleed"))
    inset = 0.16 * min(w, h) if spec.shape in ("round", "hex") else 0.08 * min(w, h)
    inner = Rect(inset, inset, w - 2 * inset, h - 2 * inset)
    ink = ink_on(colour)
    text_h = spec.text_size * PT * 1.3 if text else 0.0
    if picture is not None:
        pic = Rect(inner.x, inner.y, inner.width, inner.height - (text_h + 0.5 if text else 0.0))
        ops.append(Image(pic, picture, "contain", name=f"{name}-image"))
    if text:
        y = inner.bottom - text_h / 2 if picture is not None else h / 2
        ops.append(_label(text, w / 2, y, inner.width, spec.text_size, ink, f"{name}-text"))
    return Scene(tuple(ops))


def token_set(t: CustomTemplate, pictures: Mapping[str, Picture], double: bool) -> ComponentSet | None:
    parts: list[Component] = []
    starts: list[int] = []
    for spec in t.tokens:
        if (spec.back is not None) != double:
            continue
        w = spec.width_mm
        h = (spec.height_mm or w) if spec.shape == "rect" else w
        if spec.shape == "hex":
            h = w * math.sqrt(3) / 2  # corner to corner across the width, flat top and bottom
        pic = pictures.get(spec.image) if spec.image else None
        front = token_face(spec, w, h, spec.colour, spec.text, pic, "token")
        back = None
        if spec.back is not None:
            b = spec.back
            bpic = pictures.get(b.image) if b.image else (pic if b.text is None else None)
            back = token_face(spec, w, h, b.colour or spec.colour, spec.text if b.text is None else b.text, bpic,
                              "token-back")
        outline = _outline(spec.shape, w, h)
        starts.append(len(parts))
        for k in range(spec.count):
            parts.append(Component("token", f"{spec.name} #{k + 1}", w, h, front, outline, back,
                                   marks=spec.shape in ("square", "rect")))
    if not parts:
        return None
    _ = current().gettext
    title = (_("{title}: tokens, two-sided") if double else _("{title}: tokens")).format(title=t.title)
    return ComponentSet(SET_KINDS[1] if double else SET_KINDS[0], title, tuple(parts),
                        double_sided=double, uniform=False, row_starts=tuple(starts))


def standee(spec: Any, number: int, picture: Picture | None) -> Component:
    """foot | back (upside down) | front | foot, folded on the three lines between them."""
    w, face, foot = spec.width_mm, spec.height_mm, spec.base_mm
    h = 2 * foot + 2 * face
    ink = ink_on(spec.colour)

    def side(top: float) -> list[Op]:
        ops: list[Op] = []
        text_h = 8.0 * PT * 1.4 if spec.text else 0.0
        inner = Rect(2.0, top + 2.0, w - 4.0, face - 4.0 - text_h)
        if picture is not None:
            ops.append(Image(inner, picture, "contain", name="standee-image"))
        if spec.text:
            ops.append(_label(spec.text, w / 2, top + face - 2.0 - text_h / 2, w - 4.0, 8.0, ink, "standee-text"))
        return ops

    ops: list[Op] = [RectOp(Rect(-BLEED_MM, -BLEED_MM, w + 2 * BLEED_MM, h + 2 * BLEED_MM), Style(fill=spec.colour),
                            name="standee-fill"),
                     RectOp(Rect(0, 0, w, foot), Style(fill=mix(spec.colour, INK, 0.15)), name="standee-foot"),
                     RectOp(Rect(0, h - foot, w, foot), Style(fill=mix(spec.colour, INK, 0.15)), name="standee-foot")]
    ops.append(Group(tuple(side(foot)), transform=rotate(180.0, w / 2, foot + face / 2)))
    ops += side(foot + face)
    folds = tuple(((0.0, y), (w, y)) for y in (foot, foot + face, foot + 2 * face))
    fold_style = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.2, 0.8))
    ops += [line(0.0, y, w, y, fold_style, name="fold-line") for y in (foot, foot + face, foot + 2 * face)]
    return Component("standee", f"{spec.name} #{number}", w, h, Scene(tuple(ops)), rect_path(Rect(0, 0, w, h)),
                     folds=folds)


def die(spec: Any, number: int, pictures: Mapping[str, Picture]) -> Component:
    """The shared paper-die net in the die's colour, with the template's faces (text or picture) on it."""
    base = die_component(spec.sides, spec.size_mm)
    faces = spec.face_list()
    ops: list[Op] = []
    face_polys = []
    for op in base.front.items:
        if isinstance(op, Path) and op.name == "die-face":
            face_polys.append(path_polygon(op.commands))
            ops.append(Path(op.commands, Style(fill=spec.colour), name="die-face"))
        elif isinstance(op, Group) and faces and any(getattr(o, "name", "") == "die-number" for o in op.items):
            continue  # the template's faces replace the numbers
        else:
            ops.append(op)
    if faces:
        net = die_net(spec.sides)
        ink = ink_on(spec.colour)
        for k, poly in enumerate(face_polys):
            face = faces[net.numbers[k] - 1]
            c = poly.centroid
            inradius = poly.exterior.distance(c)
            (ax, ay), (bx, by) = list(poly.exterior.coords)[0:2]
            angle = math.degrees(math.atan2(by - ay, bx - ax))
            if spec.sides == 10:
                angle = math.degrees(math.atan2(ay - c.y, ax - c.x)) + 90.0
            side = inradius * 1.25
            items: list[Op] = []
            if face.image:
                items.append(Image(Rect(c.x - side / 2, c.y - side / 2, side, side), pictures[face.image], "contain",
                                   name="die-image"))
            elif face.text:
                font = fit_font(face.text, Font(size_pt=max(6.0, inradius * 0.9 / PT), bold=True), inradius * 1.5)
                if font.size_pt < 6.0 - 1e-9:
                    raise LayoutError(f"die '{spec.name}': face {net.numbers[k]} {face.text!r} does not fit its "
                                      f"{2 * inradius:.1f} mm face at 6 pt; make the die larger or the text shorter")
                items.append(Text(c.x, c.y, face.text, font, ink, align="center", baseline="middle",
                                  name="die-face-text"))
            if items:
                ops.append(Group(tuple(items), transform=rotate(angle, c.x, c.y)))
    return Component("die", f"{spec.name} #{number} d{spec.sides}", base.width_mm, base.height_mm, Scene(tuple(ops)),
                     base.outline, folds=base.folds, marks=False)


def small_parts_set(t: CustomTemplate, pictures: Mapping[str, Picture]) -> ComponentSet | None:
    """The single-sided parts on shared sheets: tokens with no back, dice nets and standees."""
    tokens = token_set(t, pictures, False)
    parts: list[Component] = list(tokens.components) if tokens is not None else []
    starts: list[int] = list(tokens.row_starts) if tokens is not None else []
    if t.standees or t.dice:
        starts.append(len(parts))  # standees, then dice, share rows below the tokens
    for s in t.standees:
        pic = pictures.get(s.image) if s.image else None
        parts += [standee(s, k + 1, pic) for k in range(s.count)]
    for d in t.dice:
        parts += [die(d, k + 1, pictures) for k in range(d.count)]
    if not parts:
        return None
    _ = current().gettext
    what = ", ".join(_(w) for w, there in ((N_("tokens"), tokens is not None), (N_("dice"), bool(t.dice)),
                                           (N_("standees"), bool(t.standees))) if there)
    title = (_("{title}: {parts}: cut on the solid lines, fold on the dashed ones") if t.dice or t.standees else
             _("{title}: {parts}: cut on the solid lines")).format(title=t.title, parts=what)
    return ComponentSet(SET_KINDS[2], title, tuple(parts), uniform=False,
                        row_starts=tuple(starts))


# ------------------------------------------------------------------------------------------ board


def space_outline(shape: str, x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    if shape == "circle":
        return tuple((round(x + w / 2 * math.cos(2 * math.pi * k / 48), 4),
                      round(y + w / 2 * math.sin(2 * math.pi * k / 48), 4)) for k in range(48))
    if shape == "hex":
        return tuple((round(px, 4), round(py, 4)) for px, py in regular_polygon(x, y, w / 2, 6, start_deg=0.0))
    return ((x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2))


def board_graph(t: CustomTemplate) -> BoardGraph | None:
    b = t.board
    if b is None:
        return None
    neighbours: dict[str, list[str]] = {s.id: [] for s in b.spaces}
    for a, c in b.connections:
        if c not in neighbours[a]:
            neighbours[a].append(c)
            neighbours[c].append(a)
    spaces = []
    for s in b.spaces:
        h = (s.height_mm or s.size_mm) if s.shape == "rect" else s.size_mm
        spaces.append(Space(s.id, s.label, s.kind, (s.x_mm, s.y_mm), tuple(neighbours[s.id]),
                            {"shape": s.shape}, space_outline(s.shape, s.x_mm, s.y_mm, s.size_mm, h)))
    return BoardGraph(tuple(spaces), b.width_mm, b.height_mm)


def board_scene(t: CustomTemplate, pictures: Mapping[str, Picture]) -> Scene:
    """The board in board mm: background and picture into the bleed, the connections as paths under the
    spaces, each space in its kind's style (``layout.spaces.render``) with its picture, and the title."""
    b = t.board
    assert b is not None
    graph = board_graph(t)
    assert graph is not None
    full = Rect(-BLEED_MM, -BLEED_MM, b.width_mm + 2 * BLEED_MM, b.height_mm + 2 * BLEED_MM)
    ops: list[Op] = [RectOp(full, Style(fill=b.background), name="board-background")]
    if b.image:
        ops.append(Image(full if b.image_fit == "cover" else Rect(0, 0, b.width_mm, b.height_mm), pictures[b.image],
                         b.image_fit, name="board-image"))
    ops += [Image(Rect(*pic.box), pictures[pic.image], pic.fit, name=f"board-picture-{i}")
            for i, pic in enumerate(b.pictures)]
    path_style = Style(stroke=b.path_colour, stroke_width_mm=b.path_width_mm, line_cap="round")
    by_id = {s.id: s for s in graph.spaces}
    for a, c in b.connections:
        (x0, y0), (x1, y1) = by_id[a].position_mm, by_id[c].position_mm
        ops.append(line(x0, y0, x1, y1, path_style, name="board-connection"))
    styles = {kind: SpaceStyle(k.fill, k.stroke, k.stroke_width_mm, "", 0.45, k.label, k.label_size, k.name)
              for kind, k in b.kinds.items()}
    ops += render(graph, styles, background=None).items
    for s in b.spaces:
        if s.image:
            h = (s.height_mm or s.size_mm) if s.shape == "rect" else s.size_mm
            side = min(s.size_mm, h) * (0.55 if s.shape in ("circle", "hex") else 0.7)
            label_room = 0.12 * side if s.label else 0.0
            ops.append(Image(Rect(s.x_mm - side / 2, s.y_mm - side / 2 - label_room, side, side), pictures[s.image],
                             "contain", name=f"space-image:{s.id}"))
    if b.title:
        size_pt = min(28.0, b.height_mm * 0.05 / PT)
        ops.append(_label(b.title, b.width_mm / 2, 4.0 + size_pt * PT * 0.6, b.width_mm - 20.0, size_pt,
                          ink_on(b.background), "board-title"))
    return Scene(tuple(ops))

