"""Global Warming's rules leaflet's words: our own words, the template's numbers, two columns on both sides of
an A4 or Letter sheet (set by the shared typesetter, ``boardgen.kit.leaflet``).

The words are blocks (headings, paragraphs, pictures) built by :func:`leaflet_content`, so the plain-text rules
(``rules.txt``) and the PDF say the same thing; every number comes from the template (players, line length,
order of the faces, the decisions this edition makes where the 2003 rules are silent).
"""

from __future__ import annotations

import io
from typing import Any

from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, Rect, String
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Image

from boardgen.i18n import N_, current
from boardgen.kit.leaflet import BODY_SIZES_PT as BODY_SIZES
from boardgen.kit.leaflet import COLUMNS, Block, Leaflet, Picture
from boardgen.kit.leaflet import leaflet_pdf as typeset
from boardgen.render.imposition import Paper
from boardgen.render.typeset import register_fonts

INK = "#1a1a1a"
SEA = "#6b8fb3"
BLUE = "#1d4e72"
BODY_SIZES_PT = (11.0, 10.5, *BODY_SIZES)
"""The shared sizes with two larger ones first: at 10 pt the words fill three columns and 3 lines of the
fourth; at 11 pt the sheet's second side is used."""


def _names(config: Any) -> list[str]:
    return list(config.piecepack.rank_names)


def _count_words(n: int) -> str:
    _ = current().gettext
    words = {1: N_("one"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six")}
    return _(words[n]) if n in words else str(n)


def leaflet_content(config: Any) -> Leaflet:
    """The leaflet's words and pictures in reading order."""
    _ = current().gettext
    r = config.rules
    pp = config.piecepack
    names = _names(config)
    suits = [s.name for s in pp.suits]
    order = ", ".join(names[f] for f in r.action_order)
    blank = names[0]
    line = r.line_length
    value_pct = round(r.value_face_up * 100)
    players = (_("For {min} to {max} players (the original is written for {n}), about 20 minutes.").format(
        min=config.players.min, max=config.players.max, n=config.players.usual)
        if config.players.min != config.players.max else
        _("For {players} players (the original is written for {n}), about 20 minutes.").format(
            players=config.players.usual, n=config.players.usual))
    pieces = (_("A piecepack: the {tiles} tiles, the {coins} coins, and for each player the pawn and the die of one "
                "suit ({suits}). Faces of the dice: {faces}.") if blank == "blank" else
              _("A piecepack: the {tiles} tiles, the {coins} coins, and for each player the pawn and the die of one "
                "suit ({suits}). Faces of the dice: {faces} (the {blank} is the blank face: {blank} and blank mean "
                "the same).")).format(tiles=6 * len(suits), coins=6 * len(suits), suits=", ".join(suits),
                                      faces=", ".join(names), blank=blank)
    setup = _("Mix the tiles grid side up and lay them as a 5 by 5 square with the middle left empty. Then turn "
              "every tile over where it lies, so nobody chose where a tile went.")
    if r.setup != "basic":
        setup += " " + _("This edition plays the <b>{variant}</b> variant: see Variants below.").format(
            variant=r.setup)
    move_tile = (_("<b>{Blank}: move a tile.</b> Take a tile with no pawn on it and put it in an empty place that "
                   "shares a full edge with another tile, lined up with the grid. It may go beyond the island's "
                   "first outline, and the island may break in two or grow back together. You may also leave the "
                   "tiles as they are.") if r.blank_may_pass else
                 _("<b>{Blank}: move a tile.</b> Take a tile with no pawn on it and put it in an empty place that "
                   "shares a full edge with another tile, lined up with the grid. It may go beyond the island's "
                   "first outline, and the island may break in two or grow back together. If a tile can move, you "
                   "must move one.")).format(Blank=blank.capitalize())
    blocks = (
        Block(paragraphs=(_("A sinking-island game for the piecepack &middot; {min}-{max} players").format(
            min=config.players.min, max=config.players.max),)),
        Block(_("The idea"), (
            _("The ice caps are melting and the sea is rising over the island you are stranded on. Everybody "
              "drowns in the end; you want to be the last one to go, and to watch the others go first. A row of "
              "coins tells you, partly, which ground gives way next, so you can keep clear of it, unless the "
              "others push you back."),
            players + " " + _("Game by Mark Biggar, Aron Wall and Gloria Wall (2003); these are boardgen's own "
                              "words for it."),
        )),
        Block(_("What you need"), (
            pieces + " " + _("A cup or a bag for the coins. The table sheet of this kit shows the island plans and "
                             "a mat for the coin line."),
        ), picture=Picture(lambda width: pieces_image(config, width))),
        Block(_("Setting up"), (
            setup,
            _("Each player takes a pawn and the die of the same suit. Put all the coins in the cup. Each player "
              "draws one coin without looking and stands their pawn on the tile with the same suit and rank; "
              "then all these coins go back into the cup."),
            _("One player keeps the cup. Without looking, they draw {n} coins and lay them in a row, each showing "
              "whichever side landed up; nobody may peek underneath. The row is the line of coins: its leftmost "
              "coin names the next tile to sink, the others the tiles after it. One side of a coin shows its "
              "value, the other its suit, so you only ever know half of each.").format(n=_count_words(line)),
        ), picture=Picture(lambda width: island_drawing(config, width))),
        Block(_("A turn"), (
            _("<b>1. Choose.</b> Everyone still on the island secretly turns their die to the face they want and "
              "keeps it covered with a hand."),
            _("<b>2. Reveal.</b> Lift the hands together. Faces shown by two or more players cancel: those "
              "players do nothing this turn."),
            _("<b>3. Act.</b> The others act one at a time in this order: {order}. Nobody else has your face, so "
              "the order is always clear. Acting later is an advantage: you see, and may undo, what the others "
              "did.").format(order=order),
            move_tile,
            _("<b>A number: move pawns.</b> Make exactly that many steps (the ace is one). A step takes any pawn, "
              "yours or a rival's, to the tile next to it up, down, left or right, never diagonally, never onto "
              "a tile with a pawn and never over water. You may share the steps between pawns, or take a pawn "
              "away and back. Steer your own pawn off the tiles about to go and the others onto them."),
            _("<b>4. Sink.</b> The cup keeper draws a coin and adds it to the right end of the line without "
              "showing its hidden side. Then they turn over the leftmost coin. Its tile sinks: take it and the "
              "coin out of the game. A pawn on that tile drowns and its player is out (a good moment to hand "
              "them the cup)."),
        ), picture=Picture(lambda width: line_drawing(config, width))),
        Block(_("Winning"), (
            _("Play turns until only one pawn is left: its player wins. Only one tile sinks a turn, so two pawns "
              "never drown together and the game cannot end in a draw."),
        )),
        Block(_("Where the 2003 rules are silent (this edition's choices)"), (
            _("<b>Empty cup.</b> When no coin is left to draw, skip the draw; the leftmost coin is still turned "
              "over and its tile still sinks. The line gets shorter each turn."),
            _("<b>Moved tiles.</b> A coin names a tile, not a place: if its tile was moved, it sinks wherever "
              "it now lies."),
            _("<b>Gaps.</b> Pawns step only between tiles that share an edge; water, even a one-tile gap, cannot "
              "be crossed."),
            _("<b>Stuck.</b> If no pawn can step, the rest of your steps are lost; if no tile can move, your "
              "blank does nothing."),
            _("<b>Edge of the table.</b> A moved tile may go at most {n} places beyond the first 5 by 5 outline "
              "(the engine needs a table edge; in play this almost never matters).").format(n=r.sea_margin),
            _("<b>Fewer players.</b> With {n} or three, play the same way; the unused pawns and dice stay in the "
              "box, and cancelled faces become rarer.").format(n=_count_words(config.players.min)),
            _("<b>Coins in the line</b> land value side up about {pct}% of the time: drop them, do not place "
              "them.").format(pct=value_pct),
        )),
        Block(_("Variants"), (
            _("For a more tactical game, change the island before the tiles are turned up: move the four tiles "
              "that touch the empty middle along an edge (<b>orthogonal</b>) or at a corner (<b>diagonal</b>) "
              "to the outside of the middle of each outer edge, one per edge. The table sheet shows both plans "
              "(the moved tiles are the darker ones)."),
        ), picture=Picture(lambda width: variants_drawing(config, width))),
        Block(_("A turn at a glance"), (
            _("Set dice in secret &rarr; reveal, equal faces cancel &rarr; act in the order {order} &rarr; draw a "
              "coin to the right end &rarr; turn over the leftmost coin, its tile sinks &rarr; anyone on it is "
              "out.").format(order=order),
        )),
        Block(_("Hints"), (
            _("A coin showing a value could be that rank in any suit still afloat; a coin showing a suit could be "
              "any of that suit's tiles still afloat. Count what has sunk already and the guess narrows."),
            _("The strongest face is the one everybody wants, so it is also the one most likely to cancel. A "
              "quiet ace played when the others fight over the 5 may be all you need."),
            _("A blank can strand a rival: take away the tile their pawn would step to, or build a bridge for "
              "your own pawn to a safer corner."),
        )),
    )
    return Leaflet(config.title, blocks, config.source, accent=BLUE, fold=COLUMNS, sheets=(2,),
                   body_sizes_pt=BODY_SIZES_PT, subject=config.edition)


def leaflet_text(config: Any) -> str:
    """The leaflet's words as plain text (the kit's rules.txt)."""
    return leaflet_content(config).document_text()


def _symbol(d: Drawing, name: str, cx: float, cy: float, size: float, colour: str) -> None:
    from boardgen.games.piecepack.drawing import symbol_geometry

    g = symbol_geometry(name)
    polys = list(g.geoms) if hasattr(g, "geoms") else [g]
    for p in polys:
        pts: list[float] = []
        for x, y in list(p.exterior.coords)[:-1]:
            pts += [cx + x * size, cy - y * size]
        d.add(Polygon(pts, fillColor=HexColor(colour), strokeColor=None))


def _island(d: Drawing, config: Any, setup: str, ox: float, top: float, cell: float, pawns: bool) -> None:
    from boardgen.games.global_warming.rules.engine import island_shape

    pp = config.piecepack
    cells = island_shape(setup, 1)
    moved = {(3, 0), (0, 3), (6, 3), (3, 6)}
    example = {(2, 1): 0, (5, 2): 1, (4, 5): 2, (1, 4): 3} if pawns else {}
    for x, y in cells:
        px, py = ox + x * cell, top - (y + 1) * cell
        fill = "#d9cfae" if (x, y) in moved and setup != "basic" else pp.background
        d.add(Rect(px, py, cell * 0.92, cell * 0.92, fillColor=HexColor(fill),
                   strokeColor=HexColor("#8a7f66"), strokeWidth=0.5))
        if (x, y) in example:
            s = pp.suits[example[(x, y)]]
            d.add(Circle(px + cell * 0.46, py + cell * 0.46, cell * 0.3, fillColor=HexColor(s.colour),
                         strokeColor=None))
            _symbol(d, s.symbol, px + cell * 0.46, py + cell * 0.46, cell * 0.36, "#ffffff")
    d.add(Rect(ox + 3 * cell, top - 4 * cell, cell * 0.92, cell * 0.92, fillColor=None,
               strokeColor=HexColor(SEA), strokeWidth=0.5, strokeDashArray=[1.5, 1.5]))


def island_drawing(config: Any, width: float) -> Drawing:
    """The island of the template's setup with four pawns on example tiles."""
    cell = min(width / 7.2, 8 * mm)
    rows = 5 if config.rules.setup == "basic" else 7
    d = Drawing(width, cell * rows + 12)
    first = 1 if rows == 5 else 0
    _island(d, config, config.rules.setup, (width - 7 * cell) / 2, d.height + first * cell, cell, True)
    d.add(String(width / 2, 1, current().gettext("The island: 24 tiles, the middle empty, four pawns"),
                 fontName=register_fonts(),
                 fontSize=7, textAnchor="middle"))
    return d


def variants_drawing(config: Any, width: float) -> Drawing:
    cell = min(width / 15.5, 5 * mm)
    d = Drawing(width, cell * 7 + 12)
    font = register_fonts()
    for k, setup in enumerate(("orthogonal", "diagonal")):
        ox = k * width / 2 + (width / 2 - 7 * cell) / 2
        _island(d, config, setup, ox, d.height, cell, False)
        caption = current().gettext({"orthogonal": N_("orthogonal"), "diagonal": N_("diagonal")}[setup])
        d.add(String(ox + 3.5 * cell, 1, caption, fontName=font, fontSize=7, textAnchor="middle"))
    return d


def pieces_png(config: Any, dpi: float = 220.0, label_pt: float = 7.0) -> tuple[bytes, float, float]:
    """The pieces as the sheets print them: a tile face and back, a coin's two sides, a die face, a pawn.
    Returns PNG bytes and the picture's size in mm. ``label_pt`` is the labels' size before any scaling."""
    from boardgen.games.piecepack.drawing import coin_suit_side, coin_value_side, pawn_component, tile_back, tile_face
    from boardgen.render.cairo_backend import Page, render_png
    from boardgen.render.scene import Font as SceneFont
    from boardgen.render.scene import Group, Scene, Text

    _ = current().gettext
    pp = config.piecepack
    t, d = pp.tile_size_mm, pp.coin_diameter_mm
    k = 0.5  # tiles at half size
    items: list[Any] = []
    labels = []
    x = 0.0
    clip_square = (("M", 0.0, 0.0), ("L", t, 0.0), ("L", t, t), ("L", 0.0, t), ("Z",))
    for scene, label in ((tile_face(pp, 0, 3), _("tile face")), (tile_back(pp), _("tile back"))):
        items.append(Group((Group(scene.items, clip=clip_square),), transform=_affine(x, 0.0, k)))
        labels.append((x + t * k / 2, label))
        x += t * k + 4
    for scene, label in ((coin_value_side(pp, 3), _("coin: value")), (coin_suit_side(pp, 1), _("coin: suit"))):
        circle = tuple(_circle_cmds(d / 2, d / 2, d / 2))
        items.append(Group((Group(scene.items, clip=circle),), transform=_affine(x, (t * k - d) / 2, 1.0)))
        labels.append((x + d / 2, label))
        x += d + 4
    pawn = pawn_component(pp, 2)
    b = pawn.height_mm / 2 - pp.pawn_height_mm
    top = b + pp.pawn_height_mm
    body = (("M", 0.0, top), ("L", pp.pawn_width_mm, top), ("L", pp.pawn_width_mm, top + pp.pawn_height_mm),
            ("L", 0.0, top + pp.pawn_height_mm), ("Z",))
    items.append(Group((Group(pawn.front.items, clip=body),),
                       transform=_affine(x, -top + (t * k - pp.pawn_height_mm), 1.0)))
    labels.append((x + pp.pawn_width_mm / 2, _("pawn")))
    x += pp.pawn_width_mm
    label_mm = label_pt * 25.4 / 72
    baseline = t * k + 1.0 + 0.75 * label_mm
    h = baseline + 0.3 * label_mm + 0.2
    font = SceneFont(size_pt=label_pt)
    for cx, text in labels:
        items.append(Text(cx, baseline, text, font, INK, align="center"))
    png = render_png(Page(x, h, Scene(tuple(items))), dpi)
    return png, x, h


def _affine(dx: float, dy: float, k: float) -> Any:
    from boardgen.render.scene import Affine

    return Affine(k, 0.0, 0.0, k, dx, dy)


def _circle_cmds(cx: float, cy: float, r: float) -> list[tuple[Any, ...]]:
    import math as _m

    pts = [(cx + r * _m.cos(2 * _m.pi * i / 64), cy + r * _m.sin(2 * _m.pi * i / 64)) for i in range(64)]
    return [("M", *pts[0]), *(("L", *p) for p in pts[1:]), ("Z",)]


def line_drawing(config: Any, width: float) -> Drawing:
    pp = config.piecepack
    n = config.rules.line_length
    r = 4.2 * mm
    d = Drawing(width, 2 * r + 11)  # the labels stand 1 pt above the bottom, as the other captions do
    font = register_fonts()
    sinks, new_coin = current().gettext("turn over: sinks"), current().gettext("new coin")
    x0 = max(r + 2, stringWidth(sinks, font, 7) / 2)  # the first label stays inside the column
    gap = min(9 * mm, (width - x0 - r - 2 - 2 * r * n) / n)
    y = d.height - r - 2
    faces = [("value", 3), ("suit", 1), ("value", 0), ("suit", 3), ("value", 5), ("suit", 2)]
    for i in range(n + 1):
        cx = x0 + i * (2 * r + gap)
        new = i == n
        d.add(Circle(cx, y, r, fillColor=HexColor(pp.background), strokeColor=HexColor(SEA if new else INK),
                     strokeWidth=0.6, strokeDashArray=[2, 1.5] if new else None))
        kind, v = faces[i % len(faces)]
        if kind == "value":
            d.add(String(cx, y - r * 0.35, pp.ranks[v] or "", fontName=font + "-Bold", fontSize=r * 1.1,
                         textAnchor="middle", fillColor=HexColor(pp.neutral_colour)))
        else:
            _symbol(d, pp.suits[v].symbol, cx, y, r * 1.1, pp.suits[v].colour)
        label = sinks if i == 0 else (new_coin if new else "")
        if label:
            d.add(String(cx, y - r - 8, label, fontName=font, fontSize=7, textAnchor="middle"))
    d.add(Line(x0 + n * (2 * r + gap) - gap + 2, y, x0 + n * (2 * r + gap) - r - 2, y,
               strokeColor=HexColor(SEA), strokeWidth=0.8))
    return d


def pieces_image(config: Any, width: float) -> Image:
    """The pieces' picture at most ``width`` pt wide; shrunk to the column, its labels are drawn larger so they
    still print at 7 pt."""
    png, w_mm, h_mm = pieces_png(config)
    scale = min(1.0, width / (w_mm * mm))
    if scale < 1.0:
        png, w_mm, h_mm = pieces_png(config, label_pt=7.0 / scale)
    return Image(io.BytesIO(png), width=w_mm * mm * scale, height=h_mm * mm * scale)


def leaflet_pdf(config: Any, paper: Paper) -> tuple[bytes, int]:
    """The leaflet (one sheet, both sides, two columns) and its page count."""
    return typeset(leaflet_content(config), paper)
