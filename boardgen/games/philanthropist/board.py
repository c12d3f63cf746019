"""The board: a square grid (``board.squares`` a side) inside a frame that holds the title, the action die key
and the cost key; the four corner squares are the start squares in the avatars' colours and shapes. Every
square carries its name (column letter, row number) small in a corner, so a game can be written down and the
printed sections put together.

``board_scene`` is the whole board in mm (origin at the top-left trim corner; art runs 3 mm into the bleed);
``board_declaration`` declares it for the kit's shared board stages (``boardgen.kit.board``: a poster and jigsaw
sections on A4 and Letter whose seams run along the grid lines).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgen.cards.model import geometry_path
from boardgen.cards.shapes import player_shape
from boardgen.games.philanthropist.art import INK, action_icon, label, meeple_ops, pips
from boardgen.games.philanthropist.schema import PhilanthropistTemplate
from boardgen.i18n import current
from boardgen.layout.spaces import BoardGraph, square_grid
from boardgen.render.scene import Affine, Font, Group, Op, Path, Rect, RectOp, Scene, Style, Text, mix

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration

BLEED = 3.0


def corner_squares(n: int) -> tuple[tuple[int, int], ...]:
    """(col, row) of the start squares of the template's seats 1-4: top left, top right, bottom right, bottom left."""
    return ((0, 0), (n - 1, 0), (n - 1, n - 1), (0, n - 1))


def board_graph(t: PhilanthropistTemplate) -> BoardGraph:
    """The grid as the shared vocabulary's graph of spaces: ids "A1".."P16" (column letter, row from the top),
    8-way neighbours, kinds "start" (the four corners), "dark" and "light". The art draws it; the engine's
    moves are its king steps (a test checks that they agree)."""
    b = t.board
    n = b.squares
    corners = set(corner_squares(n))

    def kind(col: int, row: int) -> str:
        return "start" if (col, row) in corners else "dark" if (col + row) % 2 else "light"

    return square_grid(n, n, b.square_mm, kinds=kind, width_mm=b.size_mm, height_mm=b.size_mm)


def board_scene(t: PhilanthropistTemplate) -> Scene:
    b = t.board
    size, edge, n, sq = b.size_mm, b.border_mm, b.squares, b.square_mm
    ops: list[Op] = [RectOp(Rect(-BLEED, -BLEED, size + 2 * BLEED, size + 2 * BLEED), Style(fill=b.frame), "frame")]
    grid = Rect(edge, edge, n * sq, n * sq)
    ops.append(RectOp(grid, Style(fill=b.light), "grid"))
    name_font = Font(size_pt=max(4.5, min(6.5, sq * 0.16 / 0.3528)))
    for space in board_graph(t).spaces:
        cell = space.bounds_mm
        if space.kind == "dark":
            ops.append(RectOp(cell, Style(fill=b.dark), "square"))
        ops.append(Text(cell.x + 1.2, cell.y + 1.0, space.label, name_font, mix(INK, b.light, 0.55),
                        baseline="top", name="square-name"))
    line = Style(stroke=mix(INK, b.light, 0.45), stroke_width_mm=0.35)
    for k in range(n + 1):
        ops.append(Path((("M", edge + k * sq, edge), ("L", edge + k * sq, edge + n * sq)), line, "grid-line"))
        ops.append(Path((("M", edge, edge + k * sq), ("L", edge + n * sq, edge + k * sq)), line, "grid-line"))
    for seat, (col, row) in zip(t.players.seats, corner_squares(n), strict=True):
        x, y = edge + col * sq, edge + row * sq
        ops.append(RectOp(Rect(x, y, sq, sq), Style(fill=mix(seat.colour, "#ffffff", 0.45)), "start"))
        shape = player_shape(seat.shape, x + sq / 2, y + sq * 0.44, sq * 0.56)
        ops.append(Path(geometry_path(shape), Style(stroke=seat.colour, stroke_width_mm=1.0, dash_mm=(2.0, 1.2)),
                        "start-shape"))
        start = current().gettext("{seat} START").format(seat=seat.name.upper())
        ops.append(label(x + sq / 2, y + sq * 0.86, start, sq * 0.9, 7.0))
    ops.append(RectOp(grid, Style(stroke=INK, stroke_width_mm=0.8), "grid-edge"))
    ink = "#ffffff"
    # title, top
    ops.append(label(size / 2, edge * 0.52, t.title.upper(), size * 0.5, edge * 0.55 / 0.3528, ink))
    # die key, bottom
    ops.extend(_die_key(t, edge + sq * 0.2, size - edge, size - 2 * edge - sq * 0.4, edge, ink))
    band = size - 2 * edge - sq
    # cost key, left side (reads bottom to top), and a reminder on the right side (reads top to bottom)
    ops.append(Group(tuple(_cost_key(t, 0.0, 0.0, band, edge, ink)),
                     transform=Affine(0.0, -1.0, 1.0, 0.0, 0.0, size / 2 + band / 2)))
    _ = current().gettext
    reminder = (_("MOVE: roll the white die and go 0 to that many squares, in any of the 8 directions, over "
                  "anything.") + "  " + _("Helped nobody? Take {n} cube.").format(n=t.rules.move_income))
    ops.append(Group((label(band / 2, edge / 2, reminder, band * 0.96, 14.0, ink, bold=False),),
                     transform=Affine(0.0, 1.0, -1.0, 0.0, size, size / 2 - band / 2)))
    return Scene(tuple(ops))


def _die_key(t: PhilanthropistTemplate, x0: float, y0: float, width: float, height: float, ink: str) -> list[Op]:
    faces = t.action_die.faces
    cell = width / 6
    ops: list[Op] = []
    _ = current().gettext
    words = {"move": _("move"), "payday": _("payday: {n} x white die").format(n=t.rules.payday_multiplier),
             "card": _("business card")}
    for i, action in enumerate(faces):
        cx = x0 + cell * (i + 0.5)
        box = height * 0.62
        ops.append(RectOp(Rect(cx - cell * 0.46, y0 + height * 0.1, cell * 0.92, height * 0.8),
                          Style(fill=t.action_die.colour, stroke="#ffffff", stroke_width_mm=0.4), "die-key"))
        ops.append(label(cx - cell * 0.34, y0 + height * 0.5, str(i + 1), box, 20.0, "#ffffff"))
        ops.extend(action_icon(action, cx - cell * 0.15, y0 + height * 0.5, box * 0.8, "#ffffff"))
        ops.append(label(cx + cell * 0.2, y0 + height * 0.5, words[action], cell * 0.4, 13.0, "#ffffff"))
    return ops


def _cost_key(t: PhilanthropistTemplate, x0: float, y0: float, width: float, height: float, ink: str) -> list[Op]:
    kinds = t.meeples.kinds
    cell = width / (len(kinds) + 1)
    tr = current()
    ops: list[Op] = [label(x0 + cell * 0.5, height / 2, tr.gettext("TO HELP A MEEPLE, PAY"), cell * 0.9, 12.0, ink)]
    for i, k in enumerate(kinds):
        cx = x0 + cell * (i + 1.5)
        ops.extend(meeple_ops(cx - cell * 0.32, height / 2, height * 0.55, height * 0.75, k.colour))
        word = tr.ngettext("{name}: {n} cube", "{name}: {n} cubes", k.cost).format(name=k.name, n=k.cost)
        ops.append(label(cx + cell * 0.1, height * 0.33, word, cell * 0.62, 14.0, ink))
        ops.extend(pips(cx + cell * 0.1, height * 0.7, k.cost, height * 0.6, ink))  # clear of the grid's edge
    return ops


def board_declaration(t: PhilanthropistTemplate, scene: Scene) -> BoardDeclaration:
    """The board as the kit prints it: its seams run along grid lines (every square kept whole) and no knob
    cuts into a start square."""
    from boardgen.kit.board import BoardDeclaration, GridBoard

    b = t.board
    sq = b.square_mm
    n = b.squares
    avoid = tuple(Rect(b.border_mm + c * sq, b.border_mm + r * sq, sq, sq) for c, r in corner_squares(n))
    squares = tuple(space.bounds_mm for space in board_graph(t).spaces)
    return BoardDeclaration(GridBoard(t.title, b.size_mm, b.size_mm, scene, keep_whole=squares, avoid=avoid),
                            about=f"{n} x {n} squares of {sq:.1f} mm")
