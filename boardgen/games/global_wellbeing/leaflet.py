"""The rules leaflet: a landscape sheet folded in half into a four-page A5 (or half-Letter) booklet.

The words (``leaflet_blocks``) come from the template, so a changed rule changes the leaflet. They are typeset
with reportlab platypus onto booklet pages (one panel each, in reading order) and then imposed with pikepdf
onto the printed sheet sides in folding order: outside = [back cover | cover], inside = [page 2 | page 3]. If
the text ever needs more than four pages, it takes two nested sheets (8 pages: [8|1] [2|7] [6|3] [4|5]).

Pictures are vectors: the map and the zone icons are drawn with cairo (the board's own code) into small PDFs
and laid over the placeholders that platypus positioned. Complex rules sit in yellow boxes that the simpler
game skips. DejaVu Sans is registered from the system's font files so the PDF embeds it; ``invariant=1`` and
pikepdf's ``deterministic_id`` keep the bytes the same from build to build.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pikepdf
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from boardgen.games.global_wellbeing.board_layout import count_word
from boardgen.games.global_wellbeing.rules.variants import ECONOMY_VARIANT, describe, player_counts
from boardgen.games.global_wellbeing.schema import Config
from boardgen.games.global_wellbeing.tokens import MARKERS_PER_ZONE
from boardgen.i18n import N_, Translator, current
from boardgen.render.imposition import Paper
from boardgen.render.pdf_fonts import retag_subsets
from boardgen.render.typeset import FONT, booklet_order, register_fonts

YELLOW = colors.HexColor("#fff2a8")
INK = colors.HexColor("#1a1a1a")
SUMMARY_BG = colors.HexColor("#eef3f7")
BODY_SIZES_PT = (9.5, 9.0, 8.5)
"""Body text sizes tried in turn: the largest that fits one folded sheet wins (else two sheets at the first)."""
MIN_BODY_PT = min(BODY_SIZES_PT)
MAP_SHARE = 0.94
"""The leaflet map's width as a share of the panel's text width."""


# ------------------------------------------------------------------------------------------ the words


@dataclass(frozen=True)
class Block:
    """A piece of the leaflet: a heading, paragraphs, an optional table; ``complex`` blocks are shaded yellow,
    ``boxed`` ones (the turn summary) framed."""

    heading: str
    paragraphs: tuple[str, ...] = ()
    complex: bool = False
    table: tuple[tuple[str, ...], ...] = ()
    icons: tuple[str, ...] = ()  # zone names: a zone icon in the table's first column, one per body row
    image: str = ""  # "map": the board picture goes after the first paragraph
    boxed: bool = False
    new_page: bool = False  # start on the next page (the back cover)


def _tr() -> Translator:
    return current()


COUNT_WORDS = (N_("zero"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
               N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"))
"""The number words ``count_word`` writes, marked for the catalog (the leaflet prints them translated)."""


def _turns(n: int) -> str:
    return _tr().ngettext("{n} turn", "{n} turns", n).format(n=n)


def _pieces(n: int) -> str:
    return _tr().ngettext("{n} piece", "{n} pieces", n).format(n=n)


def _rounds(n: int) -> str:
    return _tr().ngettext("{n} round", "{n} rounds", n).format(n=n)


def _ordinal(n: int) -> str:
    _ = _tr().gettext
    if 10 <= n % 100 <= 20:
        return _("{n}th").format(n=n)
    return {1: _("{n}st"), 2: _("{n}nd"), 3: _("{n}rd")}.get(n % 10, _("{n}th")).format(n=n)


def _every(n: int) -> str:
    _ = _tr().gettext
    return _("every turn") if n == 1 else _("every {nth} turn").format(nth=_ordinal(n))


def _and_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _tr().gettext("{some} and {last}").format(some=", ".join(items[:-1]), last=items[-1])


def _or_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _tr().gettext("{some} or {last}").format(some=", ".join(items[:-1]), last=items[-1])


def harvest_example(config: Config) -> tuple[list[tuple[str, int, int]], int, int]:
    """A setup-sized holding over the three richest start zones: ([(zone, pieces, index)], total, chips)."""
    r = config.rules
    zones = sorted(config.zones.items(), key=lambda kv: (-kv[1].start_index, list(config.zones).index(kv[0])))[:3]
    n = r.setup_rounds
    split = [n // 3 + (1 if i < n % 3 else 0) for i in range(3)]
    rows = [(name, k, z.start_index) for (name, z), k in zip(zones, split, strict=True) if k > 0]
    total = sum(k * idx for _, k, idx in rows)
    return rows, total, total // r.harvest_divisor


def scoring_example(config: Config) -> tuple[list[tuple[str, int, int, int, int]], int, str, str]:
    """A final position: per zone (zone, pieces, end index, badge bonus, final index), the score, and which
    zones carry badges (the example player's and one rival's)."""
    r = config.rules
    names = list(config.zones)
    own_badge = names[1 % len(names)]
    rival_badge = names[3 % len(names)]
    pattern = [2, r.badge_threshold, 3, 4, 1, 2, 3, 1]
    rows = []
    for i, name in enumerate(names):
        z = config.zones[name]
        pieces = pattern[i % len(pattern)]
        bonus = z.badge_value if name in (own_badge, rival_badge) else 0
        rows.append((name, pieces, z.start_index, bonus, z.start_index + bonus))
    score = sum(p * f for _, p, _, _, f in rows)
    return rows, score, own_badge, rival_badge


def _isolated_note(isolated: Sequence[str]) -> str:
    _ = _tr().gettext
    if not isolated:
        return ""
    if len(isolated) <= 8:
        return _("Cells {cells} are islands cut off from all the other land cells. A piece gets there only as a "
                 "player's first setup piece or when the anywhere-free rule applies, and it never links up with "
                 "the mainland.").format(cells=_and_list(sorted(isolated)))
    return _("{n} cells are islands cut off from all the other land cells. A piece gets there only as a player's "
             "first setup piece or when the anywhere-free rule applies, and it never links up with the "
             "mainland.").format(n=len(isolated))


def _economy_variant(base_divisor: int) -> str:
    """The economy variant's sentence (``ECONOMY_VARIANT``), whole."""
    _ = _tr().gettext
    change = ECONOMY_VARIANT
    if set(change) == {"investments_per_turn", "harvest_divisor"}:
        return _("<i>Variant</i> where every chip counts: buy up to {n} pieces a turn and divide harvests by "
                 "{divisor}, not {base}.").format(n=change["investments_per_turn"],
                                                  divisor=change["harvest_divisor"], base=base_divisor)
    return "<i>Variant</i> where every chip counts: " + describe(change, base_divisor) + "."


def leaflet_blocks(config: Config, isolated: Sequence[str] = (), sections: int = 9) -> list[Block]:
    """The leaflet's content, in reading order, every number from ``config``. ``isolated``: labels of land
    cells cut off from the main group of cells (from the board)."""
    tr = _tr()
    _ = tr.gettext
    r = config.rules
    zones = list(config.zones.items())
    last_year = r.start_year + r.turns * r.years_per_turn
    steward_turns = [t for t in range(1, r.turns + 1) if t % r.stewardship_every == 0]
    tipping_turns = [t for t in range(1, r.turns + 1) if t % r.tipping_point_every == 0]
    start_sum = sum(z.start_index for _z, z in zones)
    steward_first = r.end_of_turn_order == "stewardship-first"
    invest_limit = (_("as many new pieces as you can pay for") if r.investments_per_turn == 0
                    else _("one new piece") if r.investments_per_turn == 1
                    else _("{n} new pieces").format(n=r.investments_per_turn))
    complex_game = r.variant == "complex"
    even, other = player_counts(config)
    blocks: list[Block] = []
    key_rows = [("", _("Zone"), _("Die"), _("Index"), _("Start"))]
    for name, z in zones:
        key_rows.append(("", name, f"d{z.die}", _("{low} to {high}").format(low=z.minimum_index, high=z.die),
                         str(z.start_index)))

    players = _("<b>Players:</b> {counts}; the game is made for {n}.").format(
        counts=_or_list([str(n) for n in even]), n=config.players.usual)
    if other:
        players += " " + _("With {counts} people, some play as teams of two: a team is one player (one colour, "
                           "pieces, chips and turn) and decides together.").format(
                               counts=_or_list([str(n) for n in other]))
    blocks.append(Block(config.title, (
        _("A world map game for philanthropists. Each player is one of several equally rich billionaires who "
          "want to do the most good with their money. Putting a piece on a land cell of the map stands for "
          "funding the nature and the people of that place: forest protection in the tropics, water and farming "
          "in dry lands, and so on."),
        _("The game lasts {turns}. A turn is one generation, about {years} years, so play runs from {start} to "
          "about {end}. Whoever has built the most wellbeing then wins.").format(
              turns=_turns(r.turns), years=r.years_per_turn, start=r.start_year, end=last_year),
        players,
    ), image="map", table=tuple(key_rows), icons=tuple(name for name, _z in zones)))
    cells = _("The board shows about {n} land cells, hexagons laid over the world's coastlines. Each cell belongs "
              "to one climate zone, shown by its colour and its symbol. Only one piece may stand on a cell.").format(
                  n=config.hexes.target_cells)
    if not config.map.antarctica:
        cells += " " + _("Antarctica is left off on purpose: nobody invests there.")
    blocks.append(Block(_("The map and its zones"), (
        cells,
        _("Every zone has a bio-productivity index: how much good an investment there does. Each zone also has "
          "a die; its number of sides is the highest value the zone's index can reach. The key on the front "
          "page shows each zone's symbol and die, the range of its index and where it starts."),
    )))

    contents = [
        _("a world map board in {n} jigsaw sections (they fit together only one way)").format(
            n=_(count_word(sections))),
        _("{n} pieces for each of {players} players, P1 to P{players}, each colour with its own shape (flat "
          "tokens, or standees that stand up)").format(n=r.pieces_per_player, players=config.players.max),
        _("{n} chips worth 1 billion each").format(n=r.bank_chips),
        _("{n} philanthropy badges ({per} for each zone)").format(n=len(zones) * config.players.max,
                                                                  per=config.players.max),
        _("the bio-productivity index table card with {n} zone markers (a spare for each zone), and the turn "
          "counter with its turn marker").format(n=MARKERS_PER_ZONE * len(zones)),
        _("paper dice: d4, d6, d8, d10, d12 and d20 (real dice work just as well)"),
    ]
    blocks.append(Block(_("In the box"), tuple("• " + c for c in contents)))
    simple = (_("Rules in yellow boxes belong to the full game: chips, harvests, investing and badges. For a "
                "quicker game, leave them out: each player just takes {pieces} for the setup phase and still "
                "harvests and invests.") if r.simple_harvest else
              _("Rules in yellow boxes belong to the full game: chips, harvests, investing and badges. For a "
                "quicker game, leave them out: each player just takes {pieces} for the setup phase and after that "
                "only moves them.")).format(pieces=_pieces(r.setup_rounds))
    simple += " " + (_("This edition is set up for the full game.") if complex_game else
                     _("This edition is set up for the simple game."))
    blocks.append(Block(_("Full game and simple game"), (simple,)))

    first = (_("• Choose a <b>first player</b>; play goes to the left, and the first seat passes one place to the "
               "left after every turn.") if r.first_player_rotates else
             _("• Choose a <b>first player</b>; play goes to the left, and the same player starts every round."))
    blocks.append(Block(_("Setting up"), (
        _("• One player is also the <b>banker</b>: they keep the bank's chips and hand out what is due."),
        _("• Each player chooses a colour and takes its {n} pieces (tokens or standees, whichever you made) and "
          "{chips} chips from the bank.").format(n=r.pieces_per_player, chips=r.starting_chips),
        first,
        _("• The bio-productivity index table is printed twice, on the board and on its own card. Use either "
          "one (the card is easier to reach). Put each zone's marker in its orange start box, beside the number: "
          "{starts}.").format(starts=", ".join(f"{n} {z.start_index}" for n, z in zones)),
        _("• Put the turn marker on the SETUP box of the turn counter. It has a box for each turn with the year "
          "its generation begins ({first}, {second}, …); green boxes are stewardship turns, red ones tipping "
          "points.").format(first=r.start_year, second=r.start_year + r.years_per_turn),
        _("<b>Setup phase</b> ({rounds}): in each round every player, in turn, places one of their pieces on a "
          "free cell. Your first piece may go anywhere; each later one must go next to one of your own pieces "
          "if such a cell is free, and anywhere free if not.").format(rounds=_rounds(r.setup_rounds)),
    )))
    blocks.append(Block(_("Chips and the bank"), (
        _("You start with {chips} chips of 1 billion; with {players} players the other {rest} of the {bank} "
          "chips stay in the bank. Every piece you place costs one chip, in the setup phase too: pay the banker "
          "as you place it.").format(chips=r.starting_chips, players=config.players.usual,
                                     rest=r.bank_chips - config.players.usual * r.starting_chips, bank=r.bank_chips),
        (_("The bank pays out only the chips it holds: when it runs short, a harvest gets what is left, and when "
           "it is empty, harvests pay nothing until investments bring chips back.")
         if r.harvest_capped_by_bank else _("If the bank runs out, keep count on paper.")),
    ), complex=True))

    move = {(True, True): _("<b>a) Move.</b> You may move one of your pieces to a free cell next to another of "
                            "your pieces. If no such cell is free, it may go to any free cell."),
            (True, False): _("<b>a) Move.</b> You may move one of your pieces to a free cell next to one of your "
                             "pieces. If no such cell is free, it may go to any free cell."),
            (False, True): _("<b>a) Move.</b> Move one of your pieces to a free cell next to another of your "
                             "pieces. If no such cell is free, it may go to any free cell."),
            (False, False): _("<b>a) Move.</b> Move one of your pieces to a free cell next to one of your "
                              "pieces. If no such cell is free, it may go to any free cell.")}[
        (bool(r.move_optional), bool(r.move_next_to_other_pieces))]
    blocks.append(Block(_("A turn"), (
        _("Players take turns one after another. On your turn, do the steps in this order:"),
        move,
        _("This placing rule holds for every piece, all game: next to your own pieces if a cell there is free, "
          "anywhere free if not.") + " " + _isolated_note(isolated),
    )))
    rows, total, chips = harvest_example(config)
    parts = " + ".join(f"{k} × {idx}" for _z, k, idx in rows)
    where = ", ".join(_("{n} in {zone}").format(n=k, zone=name) for name, k, _i in rows)
    invest = (_("<b>c) Invest.</b> Pay the banker one chip and place one new piece, following the placing rule. "
                "You may buy <b>{limit} a turn</b>, however many chips you hold.") if r.investments_per_turn else
              _("<b>c) Invest.</b> Pay the banker one chip and place one new piece, following the placing rule. "
                "You may buy <b>{limit} a turn</b>.")).format(limit=invest_limit)
    if r.pieces_limited:
        invest += " " + _("With no pieces left in your supply you cannot invest.")
    blocks.append(Block(_("b) Harvest and c) Invest"), (
        _("<b>b) Harvest.</b> Add up the current index of the zone under each of your pieces. Divide the sum by "
          "{divisor} and round down: the banker pays you that many chips. Your pieces stay where they "
          "are.").format(divisor=r.harvest_divisor),
        tr.ngettext("Example: right after setup you have {n} pieces, {where}. At the start values the sum is "
                    "{parts} = {total}, and {total} ÷ {divisor} rounded down is {chips} chip.",
                    "Example: right after setup you have {n} pieces, {where}. At the start values the sum is "
                    "{parts} = {total}, and {total} ÷ {divisor} rounded down is {chips} chips.", chips).format(
                        n=r.setup_rounds, where=where, parts=parts, total=total, divisor=r.harvest_divisor,
                        chips=chips),
        invest,
        _("<b>Chips score nothing at the end.</b> With one piece a turn they pile up late in the game; that is "
          "expected.") if r.investments_per_turn == 1 else
        _("<b>Chips score nothing at the end.</b> Spend them while you can."),
        *([_economy_variant(r.harvest_divisor)]
          if any(getattr(r, k) != v for k, v in ECONOMY_VARIANT.items()) else []),
    ), complex=True))
    lost = (_("You lose it again if you drop below that many pieces in its zone.")
            if r.badges_can_be_lost else _("Once won, a badge is kept to the end."))
    values = {z.badge_value for _z, z in zones}
    bonus = (_("At the end, each badge adds +{n} to its zone's index, for every player's score.").format(
        n=values.pop()) if len(values) == 1 else
        _("At the end, each badge adds its number to its zone's index ({values}), for every player's "
          "score.").format(values=", ".join(f"{n} +{z.badge_value}" for n, z in zones)))
    blocks.append(Block(_("Philanthropy badges"), (
        _("After each of your turns and setup pieces, take a zone's badge if you have {n} or more pieces there "
          "(one badge per zone at most).").format(n=r.badge_threshold) + " " + lost,
        bonus + " " + _("Badges held by several players add up, and the index may go past its usual top value."),
    ), complex=True))

    same_die: dict[int, list[str]] = {}
    for n, z in zones:
        same_die.setdefault(z.die, []).append(n)
    twice = [_("the d{die} once for each of {zones}").format(die=d, zones=_and_list(names))
             for d, names in same_die.items() if len(names) > 1]
    dice = ", ".join(_("d{die} for {zone}").format(die=z.die, zone=n) for n, z in zones)
    turns_list = ", ".join(map(str, steward_turns))
    steward = [
        (_("At the end of {every} (turns {turns}) the climate changes. The banker (or anyone) rolls each zone's "
           "die: {dice}; roll {twice}.") if twice else
         _("At the end of {every} (turns {turns}) the climate changes. The banker (or anyone) rolls each zone's "
           "die: {dice}.")).format(every=_every(r.stewardship_every), turns=turns_list, dice=dice,
                                   twice="; ".join(twice)),
        _("If the roll is higher than the zone's index, move its marker up one box; if lower, down one box; if "
          "equal, leave it. A marker never goes above its die's top value or below its lowest box."),
    ]
    if r.stewardship_every != 1:
        steward.append(_("(Only {every}: climates shift over generations.) <i>Variant:</i> for a wilder "
                         "climate, roll at the end of every turn.").format(every=_every(r.stewardship_every)))
    blocks.append(Block(_("Stewardship"), tuple(steward)))
    always_low = start_sum > r.tipping_point_die
    order = (_("When stewardship and a tipping point fall on the same turn, do stewardship first, then the "
               "tipping point.") if steward_first else
             _("When stewardship and a tipping point fall on the same turn, do the tipping point first, then "
               "stewardship."))
    blocks.append(Block(_("Tipping points"), (
        _("At the end of {every} (turns {turns}) roll the d{die} and compare it with the sum of all {n} indices. "
          "Higher: every index goes up one box; lower: every index goes down one; equal: nothing happens. "
          "Markers at their top or bottom stay put.").format(
              every=_every(r.tipping_point_every), turns=", ".join(map(str, tipping_turns)),
              die=r.tipping_point_die, n=len(zones)),
        (_("Tipping points are usually bad news: at the start the indices add up to {sum}, more than a d{die} "
           "can roll, so they can only fall until the sum is {low} or less.").format(
               sum=start_sum, die=r.tipping_point_die, low=r.tipping_point_die - 1) if always_low else
         _("At the start the indices add up to {sum}.").format(sum=start_sum)) + " " + order,
    )))
    score_rows, score, own_badge, rival_badge = scoring_example(config)
    table = [(_("Zone"), _("Pieces"), _("Index"), _("Badges"), _("Final"), _("Points"))]
    for name, pieces, end, plus, final in score_rows:
        table.append((name, str(pieces), str(end), f"+{plus}" if plus else "", str(final), str(pieces * final)))
    table.append((_("Total"), str(sum(p for _n, p, *_rest in score_rows)), "", "", "", str(score)))
    blocks.append(Block(_("End of the game and scoring"), (
        _("The game ends after turn {n} (or at a point you agree on before you start). First add the badges to "
          "the indices (yellow rule). Then each player scores, for every zone, their number of pieces there "
          "times that zone's final index. Most points wins; a tie is a shared win.").format(n=r.turns),
        _("Example: the indices end where they started, you hold the {own} badge and another player holds the "
          "{rival} badge. Both zones rise for every player:").format(own=own_badge, rival=rival_badge),
    ), table=tuple(table)))

    rolls = [_("turns {turns}: stewardship").format(turns=turns_list)] if steward_turns else []
    if tipping_turns:
        tipping = ", ".join(map(str, tipping_turns))
        rolls.append(_("turns {turns}: tipping point (after stewardship)").format(turns=tipping) if steward_first
                     else _("turns {turns}: tipping point (before stewardship)").format(turns=tipping))
    setup_line = (_("<b>Setup:</b> {rounds} of one piece each (1 chip a piece).") if complex_game else
                  _("<b>Setup:</b> {rounds} of one piece each.")).format(rounds=_rounds(r.setup_rounds))
    each = (_("<b>Each player in turn:</b> a) move one piece (or not); b) harvest: sum of indices ÷ {divisor}, "
              "rounded down; c) invest: at most {limit}, 1 chip each.") if r.move_optional else
            _("<b>Each player in turn:</b> a) move one piece; b) harvest: sum of indices ÷ {divisor}, rounded "
              "down; c) invest: at most {limit}, 1 chip each.")).format(divisor=r.harvest_divisor,
                                                                        limit=invest_limit)
    blocks.append(Block(_("A turn at a glance"), (
        setup_line,
        each,
        (_("<b>When everyone has played:</b> {rolls}; then move the turn marker one box on.").format(
            rolls="; ".join(rolls)) if rolls else
         _("<b>When everyone has played:</b> then move the turn marker one box on.")),
        _("<b>After turn {n}:</b> add the badges, then score pieces × index in every zone.").format(n=r.turns),
    ), boxed=True))
    return blocks


def leaflet_text(config: Config, isolated: Sequence[str] = (), sections: int = 9) -> str:
    """The leaflet's words as plain text (tests, README)."""
    out: list[str] = []
    for b in leaflet_blocks(config, isolated, sections):
        out.append(b.heading)
        out.extend(re.sub(r"<[^>]+>", "", p) for p in b.paragraphs)
        out.extend(" | ".join(row) for row in b.table)
    return "\n".join(out)


# ------------------------------------------------------------------------------------------ typesetting


@dataclass(frozen=True)
class Slot:
    """Where platypus put a vector picture: booklet page (1-based) and its box in points from the bottom left."""

    key: str
    page: int
    x_pt: float
    y_pt: float
    width_pt: float
    height_pt: float


class VectorSlot(Flowable):
    """An empty box of a given size that remembers where it was drawn (the picture is laid over it later)."""

    def __init__(self, key: str, width: float, height: float, sink: list[Slot]) -> None:
        super().__init__()
        self.key, self.width, self.height, self.sink = key, width, height, sink

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab API)
        return self.width, self.height

    def draw(self) -> None:
        x, y = self.canv.absolutePosition(0, 0)
        self.sink.append(Slot(self.key, self.canv.getPageNumber(), x, y, self.width, self.height))


def _styles(body_pt: float) -> dict[str, ParagraphStyle]:
    family = register_fonts()
    lead = body_pt * 1.27
    base = ParagraphStyle("body", fontName=family, fontSize=body_pt, leading=lead, textColor=INK,
                          spaceAfter=body_pt * 0.35)
    return {
        "body": base,
        "title": ParagraphStyle("title", base, fontName=family + "-Bold", fontSize=17, leading=21, spaceAfter=5),
        "h": ParagraphStyle("h", base, fontName=family + "-Bold", fontSize=body_pt + 2.2, leading=body_pt + 4.5,
                            spaceBefore=body_pt * 0.45, spaceAfter=2),
        "cell": ParagraphStyle("cell", base, fontSize=body_pt - 0.5, leading=(body_pt - 0.5) * 1.2, spaceAfter=0),
    }


@dataclass(frozen=True)
class Pictures:
    """Vector pictures to lay over the slots: ``pdf`` holds one page per key, in ``keys`` order."""

    pdf: bytes | None
    keys: tuple[str, ...]
    map_aspect: float = 0.5


def _block_flowables(block: Block, styles: dict[str, ParagraphStyle], width: float, first: bool,
                     pictures: Pictures, sink: list[Slot]) -> list[Flowable]:
    heading_style = styles["title"] if first else styles["h"]
    inner_width = width - (8 if block.complex or block.boxed else 0)
    heading = Paragraph(block.heading, heading_style)
    paragraphs: list[Flowable] = [Paragraph(p, styles["body"]) for p in block.paragraphs]
    if block.image == "map" and "map" in pictures.keys:
        img_w = inner_width * MAP_SHARE
        paragraphs.append(Spacer(1, 2))
        slot = VectorSlot("map", img_w, img_w * pictures.map_aspect, sink)
        slot.hAlign = "CENTER"
        paragraphs.append(slot)
        paragraphs.append(Spacer(1, 3))
    table: list[Flowable] = [_table(block, styles, inner_width, pictures, sink)] if block.table else []
    head_break: list[Flowable] = [PageBreak()] if block.new_page else []
    if not (block.complex or block.boxed):
        # a heading never ends a panel; a table stays with the paragraph that leads into it
        head = [KeepTogether([heading, *paragraphs[:1]])]
        if table and len(paragraphs) > 1:
            return [*head_break, *head, *paragraphs[1:-1], KeepTogether([paragraphs[-1], *table])]
        if table:
            return [*head_break, KeepTogether([heading, *paragraphs, *table])]
        return [*head_break, *head, *paragraphs[1:]]
    items: list[Flowable] = [heading, *paragraphs, *table]
    box = Table([[items]], colWidths=[width])
    style: list[tuple[object, ...]] = [("FONTNAME", (0, 0), (-1, -1), FONT), ("LEFTPADDING", (0, 0), (-1, -1), 4),
             ("RIGHTPADDING", (0, 0), (-1, -1), 4), ("TOPPADDING", (0, 0), (-1, -1), 1),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]
    if block.complex:
        style.append(("BACKGROUND", (0, 0), (-1, -1), YELLOW))
    else:
        style += [("BACKGROUND", (0, 0), (-1, -1), SUMMARY_BG), ("BOX", (0, 0), (-1, -1), 1.0, INK)]
    box.setStyle(TableStyle(style))
    return [*head_break, box, Spacer(1, 4)]


def _table(block: Block, styles: dict[str, ParagraphStyle], width: float, pictures: Pictures,
           sink: list[Slot]) -> Table:
    data: list[list[object]] = []
    for i, row in enumerate(block.table):
        cells: list[object] = [Paragraph(c if i else f"<b>{c}</b>", styles["cell"]) for c in row]
        if block.icons and i > 0 and f"zone:{block.icons[i - 1]}" in pictures.keys:
            size = 5.2 * mm
            cells[0] = VectorSlot(f"zone:{block.icons[i - 1]}", size, size, sink)
        data.append(cells)
    ncols = len(block.table[0])
    if block.icons:
        widths = [0.1 * width, 0.36 * width] + [0.54 * width / (ncols - 2)] * (ncols - 2)
    else:
        widths = [0.28 * width] + [0.72 * width / (ncols - 1)] * (ncols - 1)
    t = Table(data, colWidths=widths, hAlign="LEFT", repeatRows=1)
    style = [("FONTNAME", (0, 0), (-1, -1), FONT), ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
             ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("ALIGN", (0, 1), (0, -1), "CENTER"),
             ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
             ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee"))]
    t.setStyle(TableStyle(style))
    return t


@dataclass(frozen=True)
class PanelGeometry:
    width_mm: float
    height_mm: float
    side_mm: float = 11.0
    top_mm: float = 11.0
    bottom_mm: float = 17.0

    @property
    def frame_width_mm(self) -> float:
        return self.width_mm - 2 * self.side_mm


class _TooLongError(Exception):
    """A trial layout began a page past the most it may use."""


def _panel_number(geometry: PanelGeometry, max_pages: int | None = None):
    def on_page(canvas, doc) -> None:
        if max_pages is not None and doc.page > max_pages:
            raise _TooLongError
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.drawRightString((geometry.width_mm - geometry.side_mm) * mm, 6 * mm, str(doc.page))
        canvas.restoreState()

    return on_page


def _panels_pdf(config: Config, geometry: PanelGeometry, body_pt: float, pictures: Pictures,
                isolated: Sequence[str], max_pages: int | None = None, sections: int = 9
                ) -> tuple[bytes, int, list[Slot]] | None:
    """The booklet's pages (panels) set in ``body_pt``: (pdf, pages, picture slots); None as soon as a page past
    ``max_pages`` begins (a size that does not fit is not set to the end)."""
    styles = _styles(body_pt)
    frame = Frame(geometry.side_mm * mm, geometry.bottom_mm * mm, geometry.frame_width_mm * mm,
                  (geometry.height_mm - geometry.top_mm - geometry.bottom_mm) * mm, id="panel", leftPadding=0,
                  rightPadding=0, topPadding=0, bottomPadding=0)
    buf = io.BytesIO()
    doc = BaseDocTemplate(buf, pagesize=(geometry.width_mm * mm, geometry.height_mm * mm), invariant=1,
                          initialFontName=FONT, title=f"{config.title}: rules", author="boardgen", creator="boardgen")
    doc.addPageTemplates([PageTemplate("panel", [frame], onPage=_panel_number(geometry, max_pages))])
    sink: list[Slot] = []
    story: list[Flowable] = []
    width = geometry.frame_width_mm * mm
    legend = Table([[Paragraph(_tr().gettext("Yellow boxes: rules of the full game. Skip them for the simple game."),
                               styles["cell"])]], colWidths=[width])
    legend.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), YELLOW), ("FONTNAME", (0, 0), (-1, -1), FONT)]))
    for i, block in enumerate(leaflet_blocks(config, isolated, sections)):
        story.extend(_block_flowables(block, styles, width, i == 0, pictures, sink))
        if i == 0:
            story.extend([Spacer(1, 1), legend, Spacer(1, 3)])
    try:
        doc.build(story)
    except _TooLongError:
        return None
    return buf.getvalue(), doc.page, sink


def _sheet_decor(config: Config, sheet: Paper, sides: int, geometry: PanelGeometry) -> bytes:
    """One page per printed side: fold marks, the 100 mm ruler and the printing note on the left panel."""
    register_fonts()
    w, h = sheet.width_mm * mm, sheet.height_mm * mm
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=FONT)
    c.setTitle(f"{config.title}: rules")
    for side in range(sides):
        c.setLineWidth(0.4)
        c.setDash(2, 2)
        c.line(w / 2, h - 5 * mm, w / 2, h - 9 * mm)  # fold marks: 5 mm in from the edge, where printers print
        c.line(w / 2, 5 * mm, w / 2, 9 * mm)
        c.setDash()
        x0, y0 = geometry.side_mm * mm, 9.5 * mm
        c.setLineWidth(0.3)
        c.line(x0, y0, x0 + 100 * mm, y0)
        for k in range(0, 101):
            tick = 2.6 if k % 10 == 0 else 1.8 if k % 5 == 0 else 1.0
            c.line(x0 + k * mm, y0, x0 + k * mm, y0 + tick * mm)
        c.setFont(FONT, 6)
        for k in (0, 50, 100):
            c.drawCentredString(x0 + k * mm, y0 + 3.2 * mm, str(k))
        sheet_no, inside = divmod(side, 2)
        fold = (_tr().gettext("fold · sheet {n}, inside") if inside else
                _tr().gettext("fold · sheet {n}, outside")).format(n=sheet_no + 1)
        c.setFont(FONT, 6)
        c.drawString(x0, y0 - 3.4 * mm, _tr().gettext("Print at 100%: this bar must measure 100 mm. "
                                                      "Double-sided, flip on the short edge."))
        c.setFont(FONT, 6)
        c.drawString(w / 2 + 1.5 * mm, h - 7 * mm, fold)
        c.showPage()
    c.save()
    return buf.getvalue()


def _impose(config: Config, sheet: Paper, panels: bytes, count: int, slots: Sequence[Slot], pictures: Pictures,
            geometry: PanelGeometry) -> tuple[bytes, int]:
    pages = 4 * math.ceil(count / 4)
    order = booklet_order(pages)
    w, h = sheet.width_mm * mm, sheet.height_mm * mm
    half = w / 2
    decor = pikepdf.open(io.BytesIO(_sheet_decor(config, sheet, len(order), geometry)))
    source = pikepdf.open(io.BytesIO(panels))
    art = pikepdf.open(io.BytesIO(pictures.pdf)) if pictures.pdf else None
    out = pikepdf.new()
    for side, (left, right) in enumerate(order):
        out.pages.append(decor.pages[side])
        page = out.pages[-1]
        page.contents_coalesce()
        placed: list[bytes] = []

        def place(src: pikepdf.Page, rect: pikepdf.Rectangle, name: str, page: pikepdf.Page = page,
                  placed: list[bytes] = placed) -> None:
            # like Page.add_overlay, but with stable resource names (add_overlay picks random ones)
            formx = out.copy_foreign(src.as_form_xobject())
            key = page.add_resource(formx, pikepdf.Name.XObject, pikepdf.Name("/" + name))
            placement = page.calc_form_xobject_placement(formx, key, rect, invert_transformations=True,
                                                         allow_shrink=True, allow_expand=True)
            placed.append(b"q\n" + placement + b"\nQ\n")

        for number, x0 in ((left, 0.0), (right, half)):
            if number > count:
                continue
            place(source.pages[number - 1], pikepdf.Rectangle(x0, 0, x0 + half, h), f"Panel{number}")
            for i, slot in enumerate(s for s in slots if s.page == number):
                if art is None:
                    continue
                k = pictures.keys.index(slot.key)
                place(art.pages[k], pikepdf.Rectangle(x0 + slot.x_pt, slot.y_pt, x0 + slot.x_pt + slot.width_pt,
                                                      slot.y_pt + slot.height_pt), f"Art{number}x{i}")
        page.contents_add(pikepdf.Stream(out, b"q\n"), prepend=True)
        page.contents_add(pikepdf.Stream(out, b"Q\n" + b"".join(placed)))
        box = pikepdf.Array([0, 0, round(w, 3), round(h, 3)])
        page.obj.MediaBox = box
        page.obj.TrimBox = box
        page.obj.BleedBox = box
    out.docinfo["/Title"] = f"{config.title}: rules"
    out.docinfo["/Author"] = "boardgen"
    out.docinfo["/Creator"] = "boardgen"
    out.docinfo["/Subject"] = f"{config.edition} rules leaflet ({sheet.name}), {pages}-page booklet"
    retag_subsets(out)
    buf = io.BytesIO()
    out.save(buf, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buf.getvalue(), len(order)


@dataclass(frozen=True)
class LeafletLayout:
    body_pt: float
    booklet_pages: int  # pages of text (panels) before padding to a multiple of 4
    sheet_sides: int


def leaflet_layout(config: Config, paper: Paper, pictures: Pictures | None = None,
                   isolated: Sequence[str] = (), sections: int = 9) -> tuple[bytes, LeafletLayout]:
    """The leaflet on a landscape ``paper`` folded in half: (pdf bytes, how it was set)."""
    pictures = pictures or Pictures(None, ())
    sheet = paper.landscape()
    geometry = PanelGeometry(sheet.width_mm / 2, sheet.height_mm)
    chosen = None
    for body_pt in BODY_SIZES_PT:  # the largest size that fits one sheet (4 pages)
        fitted = _panels_pdf(config, geometry, body_pt, pictures, isolated, max_pages=4, sections=sections)
        if fitted is not None:
            chosen = (body_pt, *fitted)
            break
    if chosen is None:  # two nested sheets: take the largest size again
        body_pt = BODY_SIZES_PT[0]
        full = _panels_pdf(config, geometry, body_pt, pictures, isolated, sections=sections)
        assert full is not None
        chosen = (body_pt, *full)
    body_pt, panels, count, slots = chosen
    data, sides = _impose(config, sheet, panels, count, slots, pictures, geometry)
    return data, LeafletLayout(body_pt, count, sides)


def leaflet_pdf(config: Config, paper: Paper, pictures: Pictures | None = None,
                isolated: Sequence[str] = (), sections: int = 9) -> tuple[bytes, int]:
    """The leaflet: (pdf bytes, printed pages = sheet sides)."""
    data, layout = leaflet_layout(config, paper, pictures, isolated, sections)
    return data, layout.sheet_sides


__all__: Sequence[str] = ["Pictures", "booklet_order", "leaflet_blocks", "leaflet_layout", "leaflet_pdf",
                          "leaflet_text", "register_fonts"]
