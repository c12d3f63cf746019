"""The Philanthropist's rules leaflet's words: one landscape sheet printed on both sides and folded in half.

The cover holds the goal, the setup and the meeples' costs; the inside the turn (left) and the end of the game
with this edition's choices (right); the back cover what the box holds and how to make and print the kit.
Every number comes from the template, so a changed rule changes the leaflet. The words are our own; the shared
typesetter (``boardgen.kit.leaflet``) sets them, with body sizes whose small print stays at 8 pt or more.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.shapes import Circle, Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from boardgen.games.philanthropist.schema import Card, PhilanthropistTemplate, deck_stats
from boardgen.i18n import current
from boardgen.kit.leaflet import HALF_FOLD, SMALL_BELOW_BODY_PT, Block, Leaflet, Picture, Table
from boardgen.kit.leaflet import leaflet_pdf as typeset
from boardgen.render.imposition import Paper
from boardgen.render.typeset import register_fonts

INK = colors.HexColor("#1a1a1a")
MIN_PT = 8.0  # the smallest type of the leaflet's words: it is read at arm's length, printed at home
BODY_SIZES_PT = (10.0, 9.5, 9.0)
"""The body sizes the typesetter may try: its small print (1 pt under the body) stays at ``MIN_PT`` or more."""
assert min(BODY_SIZES_PT) - SMALL_BELOW_BODY_PT >= MIN_PT


def _cubes(n: int) -> str:
    return current().ngettext("{n} cube", "{n} cubes", n).format(n=n)


def _faces(t: PhilanthropistTemplate, action: str) -> str:
    _ = current().gettext
    nums = [str(i + 1) for i, a in enumerate(t.action_die.faces) if a == action]
    if not nums:
        return _("no face")  # a die without this action (the template may leave payday or card out)
    return nums[0] if len(nums) == 1 else _("{some} or {last}").format(some=", ".join(nums[:-1]), last=nums[-1])


def _quick_spread(side: int) -> str:
    """How to pick a square inside an area of side x side squares with the white die."""
    _ = current().gettext
    if side > 6:
        return _("Place them by eye, going round the areas in turn.")
    if side == 6:
        return _("A quick way: go round the areas in turn, dearest colours first, and roll the white die twice "
                 "for the column and the row inside the area; if that square is taken, pick the nearest free "
                 "one.")
    if side == 5:
        return _("A quick way: go round the areas in turn, dearest colours first, and roll the white die twice "
                 "for the column and the row inside the area (roll again on a {n}); if that square is taken, "
                 "pick the nearest free one.").format(n=side + 1)
    return _("A quick way: go round the areas in turn, dearest colours first, and roll the white die twice for "
             "the column and the row inside the area (roll again on a {n} or more); if that square is taken, "
             "pick the nearest free one.").format(n=side + 1)


def choices(t: PhilanthropistTemplate) -> list[tuple[str, str]]:
    """This edition's answers where the original rules are silent (key, sentence); the README repeats them."""
    tr = current()
    _ = tr.gettext
    r, b = t.rules, t.board
    limits = ", ".join(_("{rounds} rounds for {players} players").format(rounds=v, players=k)
                       for k, v in sorted(r.turn_limit.items()))
    tb = {"donated": _("Equal meeples at the end: whoever donated more cubes in all wins (add up the costs of "
                       "your meeples); if that is equal too, they share the win."),
          "cubes": _("Equal meeples at the end: whoever has more cubes left wins; if that is equal too, they "
                     "share the win."),
          "shared": _("Equal meeples at the end: they share the win.")}[r.tie_break]
    start = (_("Everyone starts with {cubes}, and each player after the first gets {more} more than the player "
               "before (this evens out the first player's head start).").format(
                   cubes=_cubes(r.start_cubes), more=_cubes(r.catch_up_cubes)) if r.catch_up_cubes else
             _("Everyone starts with {cubes}.").format(cubes=_cubes(r.start_cubes)))
    if r.middle_corner_cubes and t.players.min <= 3 <= t.players.max:
        start += " " + _("With three players, the player whose corner lies between the other two gets {cubes} "
                         "more.").format(cubes=_cubes(r.middle_corner_cubes))
    return [
        ("board.squares", _("The grid has {n} x {n} squares of {size} mm: a meeple and an avatar fit on one "
                            "square together.").format(n=b.squares, size=f"{b.square_mm:.0f}")),
        ("rules.start_cubes", start),
        ("rules.avatars_may_share", _("Two avatars may stand on the same square.") if r.avatars_may_share else
         _("Two avatars may not end a move on the same square.")),
        ("rules.stop_on_unpaid_meeple", _("You may end a move on a meeple you do not (or cannot) help; it stays.")
         if r.stop_on_unpaid_meeple else _("You may only end a move on a meeple if you help it.")),
        ("rules.income_when_collecting", _("A move that helps a meeple earns no income.") if not
         r.income_when_collecting else _("A move that helps a meeple still earns its income.")),
        ("rules.tie_break", tb),
        ("rules.turn_limit", _("A game that drags on ends after {limits}, even with meeples left.").format(
            limits=limits)),
    ]


def move_diagram(t: PhilanthropistTemplate, width: float) -> Drawing:
    """A 7 x 7 corner of the board: the avatar in the middle, the white die shows 2, every shaded square is a
    legal end of the move (meeples do not block); one meeple stands inside the reach."""
    n, cell = 7, min(width * 0.42, 48 * mm) / 7
    d = Drawing(width, n * cell + 4)
    x0 = (width - n * cell) / 2
    seat = t.players.seats[0]
    for r in range(n):
        for c in range(n):
            reach = abs(r - 3) <= 2 and abs(c - 3) <= 2
            fill = colors.HexColor("#cfe3c8") if reach else colors.HexColor(t.board.light)
            d.add(Rect(x0 + c * cell, 2 + (n - 1 - r) * cell, cell, cell, fillColor=fill,
                       strokeColor=colors.HexColor("#9a9a8a"), strokeWidth=0.4))
    cx, cy = x0 + 3.5 * cell, 2 + 3.5 * cell
    d.add(Circle(cx, cy, cell * 0.36, fillColor=colors.HexColor(seat.colour), strokeColor=INK, strokeWidth=0.5))
    mx, my = x0 + 5.5 * cell, 2 + 4.5 * cell
    kind = t.meeples.kinds[min(1, len(t.meeples.kinds) - 1)]  # the second kind (the only one, if just one)
    d.add(Circle(mx, my, cell * 0.22, fillColor=colors.HexColor(kind.colour), strokeColor=INK, strokeWidth=0.4))
    d.add(Line(cx, cy, mx, my, strokeColor=INK, strokeWidth=0.8, strokeDashArray=[2, 1.5]))
    d.add(String(x0 + n * cell + 3, cy, current().gettext("white die: {n}").format(n=2), fontName=register_fonts(),
                 fontSize=MIN_PT, fillColor=INK))
    return d


def meeple_picture(t: PhilanthropistTemplate, width: float) -> Drawing:
    """The meeple colours in a row, each with its cost in cubes underneath (the cover's cost key)."""
    from reportlab.graphics.shapes import Polygon as RLPolygon

    from boardgen.games.philanthropist.art import meeple_shape

    kinds = t.meeples.kinds
    cell = width / len(kinds)
    h = min(cell * 0.9, 22 * mm)
    d = Drawing(width, h + 26)
    font = register_fonts()
    for i, k in enumerate(kinds):
        cx = cell * (i + 0.5)
        shape = meeple_shape(cx, 0.0, h * 0.7, h)
        points = [v for x, y in list(shape.exterior.coords)[:-1] for v in (x, 24 + h / 2 - y)]
        d.add(RLPolygon(points, fillColor=colors.HexColor(k.colour), strokeColor=INK, strokeWidth=0.6))
        d.add(String(cx, 12, f"{k.cost}", fontName=font + "-Bold", fontSize=12, fillColor=INK, textAnchor="middle"))
        d.add(String(cx, 1, f"{k.name}, {k.count}", fontName=font, fontSize=MIN_PT, fillColor=INK,
                     textAnchor="middle"))
    return d




def leaflet_content(t: PhilanthropistTemplate, cards: Sequence[Card], inventory: Sequence[tuple[str, int, str]],
                    card_flip: str = "long") -> Leaflet:
    """The leaflet's words: the cover, the inside (a new panel at "Your turn" and at "End of the game") and the
    back cover (``inventory``: (part, count, size) rows; ``card_flip``: the edge the card sheets flip on)."""
    tr = current()
    _ = tr.gettext
    r = t.rules
    m = t.meeples
    n = t.board.squares
    deck = sum(c.quantity for c in cards)
    mean, _sd = deck_stats(tuple(cards), 5)
    area = n // m.spread_blocks
    setup_3 = _("3. Decide at random who goes first; play passes clockwise. The first player takes {cubes} from "
                "the bank; every next player takes {more} more than the one before.").format(
                    cubes=_cubes(r.start_cubes), more=_cubes(r.catch_up_cubes)) if r.catch_up_cubes else _(
        "3. Decide at random who goes first; play passes clockwise. The first player takes {cubes} from the bank; "
        "so does everybody else.").format(cubes=_cubes(r.start_cubes))
    if r.middle_corner_cubes:
        setup_3 += " " + _("With three players, the one whose corner lies between the other two takes {cubes} "
                           "extra.").format(cubes=_cubes(r.middle_corner_cubes))
    move = _("Roll the white die. Move your avatar up to that many squares, or stay put. Each step goes to any of "
             "the 8 squares around you, straight or diagonal, and you may change direction as you go. Meeples and "
             "other avatars never block you.")
    move += " " + (_("If you end the move without helping anyone, your business pays you {cubes}.").format(
        cubes=_cubes(r.move_income)) if r.move_income else "")
    helping = (_("If your move ends on a meeple's square, you may help it: pay its cost in cubes to the bank and "
                 "take the meeple. Helping ends your turn, and that move earns no income.")
               if not r.income_when_collecting else
               _("If your move ends on a meeple's square, you may help it: pay its cost in cubes to the bank and "
                 "take the meeple. Helping ends your turn; the move still earns its income."))
    helping += " " + (_("You may also end a move on a meeple and leave it there.") if r.stop_on_unpaid_meeple else
                      _("You may only stop on a meeple you help."))
    limits = ", ".join(_("{rounds} with {players} players").format(rounds=v, players=k)
                       for k, v in sorted(r.turn_limit.items()))
    sample = (_("Blue holds 4 cubes and rolls the action die: it shows {move}, a move. The white die shows 3. A "
                "green meeple (cost 3) stands 3 squares away, so Blue walks there diagonally, pays 3 cubes and "
                "takes it. That ends Blue's turn with 1 cube left and no income.") if not r.income_when_collecting
              else _("Blue holds 4 cubes and rolls the action die: it shows {move}, a move. The white die shows 3. "
                     "A green meeple (cost 3) stands 3 squares away, so Blue walks there diagonally, pays 3 cubes "
                     "and takes it. That ends Blue's turn with 1 cube left plus the income.")).format(
                         move=_faces(t, "move").split(",")[0])
    sample += " " + _("Next turn the action die shows {payday}: payday. The white die shows 5, so Blue takes "
                      "{cubes}.").format(payday=_faces(t, "payday"), cubes=_cubes(5 * r.payday_multiplier))
    blocks = (
        Block(paragraphs=(
            "<i>" + _("A friendly race to do good, for {min} to {max} players.").format(
                min=t.players.min, max=t.players.max) + "</i>",
            _("You have done well in business and now you want to give back. Move your avatar across the "
              "board, earn cubes from your company, and spend them to help the people who need it, shown as "
              "meeples. When the last of the {n} meeples has been helped, the player who helped the most "
              "wins.").format(n=m.total))),
        Block(_("Setting up"), (
            _("1. Lay the board out. Each player takes an avatar and a player aid and puts the avatar on the "
              "start square of its colour (with two players, use opposite corners)."),
            _("2. Spread the {n} meeples over the board, one to a square, never on a start square. Keep it "
              "even: the board is split into {blocks} x {blocks} areas of {side} x {side} squares; give each "
              "area about the same number and mix the colours.").format(
                  n=m.total, blocks=m.spread_blocks, side=area) + " " + _quick_spread(area),
            setup_3,
            _("4. Two players shuffle the {n} business cards in turn and put them face down.").format(n=deck))),
        Block(_("Helping costs"), (
            _("Cubes to pay for each colour of meeple (and how many of each are in the box):"),),
            picture=Picture(lambda width: meeple_picture(t, width)), small=True, keep_together=True),
        Block(_("Your turn"), (_("Roll the coloured action die and do what its face says:"),),
              table=Table(((_("Die"), _("Action")), (_faces(t, "move"), _("Move")),
                           (_faces(t, "payday"), _("Payday")), (_faces(t, "card"), _("Business card"))), (1, 2)),
              new_panel=True),
        Block(_("Move"), (move,), picture=Picture(lambda width: move_diagram(t, width))),
        Block(paragraphs=(_("With a 2 on the white die, Red may end on any shaded square, including the blue "
                            "meeple's."),), small=True),
        Block(_("Helping a meeple"), (helping,)),
        Block(_("Payday"), (_("Roll the white die and take {n} times the number in cubes.").format(
            n=r.payday_multiplier),)),
        Block(_("Business card"), (
            _("Draw the top card, do what it says and put it on the discard pile. When you must pay more "
              "cubes than you have, pay all you have; you never go below zero. When the pile runs out, "
              "shuffle the discards into a new pile."),)),
        Block(paragraphs=(_("On average a card is worth about {mean} cubes, but a few of them hurt.").format(
            mean=f"{mean:+.1f}"),), small=True),
        Block(_("End of the game"), (
            _("The game ends as soon as the last meeple is helped. Count your meeples: most meeples wins.")
            + " " + choices(t)[5][1],
            _("If the game drags on, it ends after a set number of rounds ({limits}); then too, most meeples "
              "wins. Keep count with a pencil mark per round.").format(limits=limits)), new_panel=True),
        Block(_("Choices this edition makes"), (
            _("The original rules leave these open; this is how we play them:"),), small=True),
        Block(paragraphs=tuple(f"• {text}" for _key, text in choices(t))),
        Block(_("The bank"), (
            _("The kit prints {n} cubes' worth of tokens. If the bank ever runs dry, use coins or write it "
              "down. Make change freely.").format(n=t.cubes.total),), small=True),
        Block(_("A sample turn"), (sample,)),
    )
    return Leaflet(t.title, blocks, t.source, back=back_cover(t, inventory, card_flip), fold=HALF_FOLD,
                   sheets=(1,), body_sizes_pt=BODY_SIZES_PT, subject=t.edition)


def back_cover(t: PhilanthropistTemplate, inventory: Sequence[tuple[str, int, str]],
               card_flip: str = "long") -> tuple[Block, ...]:
    """What the box holds, how to make the kit and how to print it."""
    _ = current().gettext
    flip = _("<b>long edge</b>") if card_flip == "long" else _("<b>short edge</b>")
    return (
        Block(_("In the box"), ("<br/>".join(  # one line a part: a list, not paragraphs apart
            _("{count} x {name} ({size})").format(count=count, name=name, size=size) if size
            else _("{count} x {name}").format(count=count, name=name) for name, count, size in inventory),),
            small=True),
        Block(_("Making the kit"), (
            _("<b>Board:</b> cut out the sections on their outer line. The number beside each tab and "
              "notch names the section that joins there, and the small grid beside each page number "
              "shows where the section sits; the pieces fit together one way only. Tape the back. A "
              "print shop can print board-poster.pdf in one piece instead."),
            _("<b>Meeples:</b> cut the strips apart, fold on the dashed lines so the two pictures face "
              "out, glue them back to back and bend the end flaps out as feet."),
            _("<b>Dice:</b> cut on the solid line, crease the dashed lines, glue the grey tabs inside. "
              "<b>Avatars, cubes, cards:</b> cut on the solid lines or the crop marks. Real dice, cubes "
              "or coins work just as well.")), small=True),
        Block(_("Printing"), (
            _("Print every page at 100% (actual size), never 'fit to page'; each sheet has a 100 mm bar "
              "to check. Business cards: print their pages double-sided, flipping on the {edge}, so each "
              "back lands behind its front. This leaflet: print both sides flipping on the short edge, "
              "then fold it in half.").format(edge=flip),
            _("Made with boardgen from the template edition '{edition}'.").format(edition=t.edition)), small=True),
    )


def leaflet_pdf(t: PhilanthropistTemplate, cards: Sequence[Card], paper: Paper,
                inventory: Sequence[tuple[str, int, str]], card_flip: str = "long") -> tuple[bytes, int]:
    """(pdf bytes, sheet sides): one folded sheet (a FitError if the words need more). ``card_flip``: the
    duplex flip ("long" or "short" edge) the card sheets need, as laid out."""
    return typeset(leaflet_content(t, cards, inventory, card_flip), paper)
