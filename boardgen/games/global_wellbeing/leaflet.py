"""The flagship's rules leaflet: its words, every number from the template, so a changed rule changes the
leaflet; a landscape sheet folded in half into a four-page A5 (or half-Letter) booklet, set by the shared
typesetter (``boardgen.kit.leaflet``).

The map and the zone icons are vectors drawn with cairo (the board's own code, ``minimap.leaflet_pictures``)
and laid over their places. Complex rules sit in yellow boxes that the simpler game skips; the turn summary
is the back cover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from reportlab.lib.units import mm

from boardgen.games.global_wellbeing.board_layout import count_word
from boardgen.games.global_wellbeing.rules.variants import ECONOMY_VARIANT, describe, player_counts
from boardgen.games.global_wellbeing.schema import Config
from boardgen.games.global_wellbeing.tokens import MARKERS_PER_ZONE
from boardgen.i18n import N_, Translator, current
from boardgen.kit.leaflet import HALF_FOLD, Block, Cell, Leaflet, LeafletLayout, Picture, Table, pdf_picture
from boardgen.kit.leaflet import leaflet_layout as typeset
from boardgen.render.imposition import Paper

BODY_SIZES_PT = (9.5, 9.0, 8.5)
"""Body text sizes tried in turn: the largest that fits one folded sheet wins (else two sheets)."""
MIN_BODY_PT = min(BODY_SIZES_PT)
MAP_SHARE = 0.94
"""The leaflet map's width as a share of the panel's text width."""
MAP_MIN_SHARE = 0.7
"""How far the map may shrink to keep the rules on one sheet (a taller map: Antarctica on, say)."""
ZONE_ICON_MM = 5.2
KEY_WEIGHTS = (0.1, 0.36, 0.18, 0.18, 0.18)
"""The zone key's columns: icon, zone, die, index range, start."""
SCORE_WEIGHTS = (0.28, 0.144, 0.144, 0.144, 0.144, 0.144)


# ------------------------------------------------------------------------------------------ the words


@dataclass(frozen=True)
class Pictures:
    """The leaflet's vector pictures (drawn with cairo by ``minimap.leaflet_pictures``): ``pdf`` holds one page
    per key, in ``keys`` order ("map", then "zone:<name>")."""

    pdf: bytes | None
    keys: tuple[str, ...]
    map_aspect: float = 0.5

    def picture(self, key: str, aspect: float, size_pt: float | None = None, share: float = 1.0,
                min_share: float | None = None) -> Picture | None:
        """The picture ``key`` (None when it was not drawn)."""
        if self.pdf is None or key not in self.keys:
            return None
        return replace(pdf_picture(self.pdf, self.keys.index(key), aspect, size_pt), share=share,
                       min_share=min_share)


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


def leaflet(config: Config, isolated: Sequence[str] = (), sections: int = 9, pictures: Pictures | None = None
            ) -> Leaflet:
    """The leaflet's words, in reading order, every number from ``config``. ``isolated``: labels of land
    cells cut off from the main group of cells (from the board); ``pictures``: the map and zone icons."""
    pictures = pictures or Pictures(None, ())
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
    key_rows: list[tuple[Cell, ...]] = [("", _("Zone"), _("Die"), _("Index"), _("Start"))]
    for name, z in zones:
        icon = pictures.picture(f"zone:{name}", 1.0, size_pt=ZONE_ICON_MM * mm)
        key_rows.append((icon or "", name, f"d{z.die}", _("{low} to {high}").format(low=z.minimum_index,
                                                                                    high=z.die),
                         str(z.start_index)))

    players = _("<b>Players:</b> {counts}; the game is made for {n}.").format(
        counts=_or_list([str(n) for n in even]), n=config.players.usual)
    if other:
        players += " " + _("With {counts} people, some play as teams of two: a team is one player (one colour, "
                           "pieces, chips and turn) and decides together.").format(
                               counts=_or_list([str(n) for n in other]))
    blocks.append(Block(paragraphs=(
        _("A world map game for philanthropists. Each player is one of several equally rich billionaires who "
          "want to do the most good with their money. Putting a piece on a land cell of the map stands for "
          "funding the nature and the people of that place: forest protection in the tropics, water and farming "
          "in dry lands, and so on."),
        _("The game lasts {turns}. A turn is one generation, about {years} years, so play runs from {start} to "
          "about {end}. Whoever has built the most wellbeing then wins.").format(
              turns=_turns(r.turns), years=r.years_per_turn, start=r.start_year, end=last_year),
        players,
    ), picture=pictures.picture("map", pictures.map_aspect, share=MAP_SHARE, min_share=MAP_MIN_SHARE),
        table=Table(tuple(key_rows), KEY_WEIGHTS, centre_first_column=True)))
    blocks.append(Block(paragraphs=(_("Yellow boxes: rules of the full game. Skip them for the simple game."),),
                        box="shaded", small=True))
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
    ), box="shaded"))

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
    ), box="shaded"))
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
    ), box="shaded"))

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
    ), table=Table(tuple(table), SCORE_WEIGHTS)))

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
    summary = Block(_("A turn at a glance"), (
        setup_line,
        each,
        (_("<b>When everyone has played:</b> {rolls}; then move the turn marker one box on.").format(
            rolls="; ".join(rolls)) if rolls else
         _("<b>When everyone has played:</b> then move the turn marker one box on.")),
        _("<b>After turn {n}:</b> add the badges, then score pieces × index in every zone.").format(n=r.turns),
    ), box="framed")
    return Leaflet(config.title, tuple(blocks), config.source, back=(summary,), fold=HALF_FOLD, sheets=(1, 2),
                   body_sizes_pt=BODY_SIZES_PT, subject=config.edition)


def leaflet_text(config: Config, isolated: Sequence[str] = (), sections: int = 9) -> str:
    """The leaflet's words as plain text (tests, README)."""
    return leaflet(config, isolated, sections).text()


# ------------------------------------------------------------------------------------------ the sheet


def leaflet_layout(config: Config, paper: Paper, pictures: Pictures | None = None,
                   isolated: Sequence[str] = (), sections: int = 9) -> tuple[bytes, LeafletLayout]:
    """The leaflet on a landscape ``paper`` folded in half: (pdf bytes, how it was set)."""
    return typeset(leaflet(config, isolated, sections, pictures), paper)


def leaflet_pdf(config: Config, paper: Paper, pictures: Pictures | None = None,
                isolated: Sequence[str] = (), sections: int = 9) -> tuple[bytes, int]:
    """The leaflet: (pdf bytes, printed pages = sheet sides)."""
    data, layout = leaflet_layout(config, paper, pictures, isolated, sections)
    return data, layout.sheet_sides


__all__: Sequence[str] = ["Pictures", "leaflet", "leaflet_layout", "leaflet_pdf", "leaflet_text"]
