"""Resilience Earth's printed parts, the leaflet and the kits.

Buildings (settlements, towns, industries in player colours and shapes), RES and LQ tokens, two-sided
BLOCKED/DESTROYED markers, the round leader's token, a tower base tile, two paper d6, and three card decks made
with the shared deck vocabulary (``boardgen.cards.deck``): climate events (each showing its spread pattern),
sabbatical cards and settlement maps (costs and production). Sheets on A4 and Letter, the print-then-cut edition,
PNG previews, an inventory and a zip per paper.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from shapely.geometry import Point
from shapely.geometry import Polygon as ShapelyPolygon

from boardgen.cards.deck import DECK_STYLE, CardLayout, Deck, deck_components, front_boxes, turned
from boardgen.cards.dice import die_component, folded_size_mm
from boardgen.cards.kitfiles import PaperKit
from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.cards.shapes import player_shape
from boardgen.cards.sheets import LaidOut, lay_out, layout_rank, one_orientation
from boardgen.games.resilience_earth.board import building_letter
from boardgen.i18n import N_, Translator, current, in_language, translator
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, assemble_kit
from boardgen.kit.parts import KitParts, Part, board_part, board_piece, parts_from_sets
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import fit_font, render_pdf
from boardgen.render.imposition import DEFAULT_STYLE, Paper
from boardgen.render.scene import (
    Circle,
    Font,
    Op,
    Path,
    Polygon,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    ink_on,
    mix,
)

INK = "#1a1a1a"
RES_COLOUR = "#c9a227"  # gold: tangible resources
LQ_COLOUR = "#3f9e8f"  # teal: life quality
BLOCKED_COLOUR = "#f2c94c"
DESTROYED_COLOUR = "#c0392b"
_ENGLISH = SimpleNamespace(language="en")  # a config for the English words (the code's own)
REGION_DIE_COLOUR = "#f4c27a"
DECK_NAMES = {"events": N_("Climate events"), "sabbatical": N_("Sabbatical"), "map": N_("Settlement map")}
"""The decks' names: on the card backs, the sheet headings, the inventory and the engine's part count check."""
KIND_WORDS = (N_("settlement"), N_("town"), N_("industry"))


# ------------------------------------------------------------------------------------------ tokens


def _label(x: float, y: float, text: str, width: float, size_pt: float, colour: str, bold: bool = True) -> Text:
    return Text(x, y, text, fit_font(text, Font(size_pt=size_pt, bold=bold), width), colour, "center", "middle")


def building_component(config: Any, player: int, kind: str, number: int) -> Component:
    """A building in the player's colour and shape; size and letter tell the kind (S < T < I)."""
    colours, shapes = config.components.player_colours, config.components.player_shapes
    colour, shape = colours[player], shapes[player]
    base = config.components.token_size_mm
    size = base * {"settlement": 0.8, "town": 1.0, "industry": 1.2}[kind]
    c = size / 2
    outline = player_shape(shape, c, c, size)
    ink = ink_on(colour)
    ops: list[Op] = [Path(geometry_path(outline), Style(fill=colour), "building")]
    ring = outline.buffer(-0.9, join_style="mitre")
    ops.append(Path(geometry_path(ring), Style(stroke="#ffffff", stroke_width_mm=0.8), "building-ring"))
    if kind == "industry":  # a second ring: a cue besides size and letter
        inner = outline.buffer(-2.6, join_style="mitre")
        ops.append(Path(geometry_path(inner), Style(stroke=ink, stroke_width_mm=0.5), "industry-ring"))
    ops.append(_label(c, c + (size * 0.08 if shape == "triangle" else 0), building_letter(kind, translator(config)),
                      size * 0.45, size * 1.3, ink))
    ops.append(Path(geometry_path(outline), Style(stroke=INK, stroke_width_mm=0.4), "cut-line"))
    # TRANSLATORS: a building's part name: P1 settlement (the number is the player's)
    name = translator(config).gettext("P{player} {kind}").format(player=player + 1,
                                                                 kind=translator(config).gettext(kind))
    return Component("token", f"{name} {number}", size, size, Scene(tuple(ops)),
                     geometry_path(outline), marks=False)


def building_sets(config: Any, players: int) -> list[ComponentSet]:
    """All buildings on shared sheets, each colour starting a new row (kinds follow on in the same rows, so no
    sheet is left with a handful of pieces)."""
    parts: list[Component] = []
    starts: list[int] = []
    per = config.components.per_colour
    for p in range(players):
        starts.append(len(parts))
        for kind in ("settlement", "town", "industry"):
            parts.extend(building_component(config, p, kind, i + 1) for i in range(per[kind]))
    tr = translator(config)
    title = tr.gettext("Buildings: {settlements} settlements ({s}), {towns} towns ({t}), {industries} industries "
                       "({i}) per colour").format(
        settlements=per["settlement"], towns=per["town"], industries=per["industry"],
        s=building_letter("settlement", tr), t=building_letter("town", tr), i=building_letter("industry", tr))
    return [ComponentSet("building", title, tuple(parts), uniform=False, gap_mm=1.5, row_starts=tuple(starts[1:]))]


VALUE_KINDS = {"RES": N_("RES"), "LQ": N_("LQ")}
"""The two value tokens' words (resources, life quality), printed on every token in the edition's words."""


def value_token(kind: str, value: int, size: float, number: int) -> Component:
    """A RES token (gold square, coin) or an LQ token (teal disc, heart) worth ``value``."""
    c = size / 2
    if kind == "RES":
        outline: ShapelyPolygon = ShapelyPolygon([(0, 0), (size, 0), (size, size), (0, size)])
        colour = RES_COLOUR
    else:
        outline = Point(c, c).buffer(c, quad_segs=16)
        colour = LQ_COLOUR
    ink = ink_on(colour)
    ops: list[Op] = [Path(geometry_path(outline), Style(fill=colour), "value-token")]
    ops.append(Path(geometry_path(outline.buffer(-1.0, join_style="mitre")), Style(stroke="#ffffff",
                                                                                  stroke_width_mm=0.5)))
    ops.append(_label(c, c - size * 0.08, str(value), size * 0.7, size * 1.6, ink))
    ops.append(_label(c, c + size * 0.3, current().gettext(VALUE_KINDS[kind]), size * 0.6, size * 0.7, ink))
    ops.append(Path(geometry_path(outline), Style(stroke=INK, stroke_width_mm=0.35), "cut-line"))
    return Component("token", f"{kind} {value} #{number}", size, size, Scene(tuple(ops)), geometry_path(outline),
                     marks=kind == "RES")


def value_sets(config: Any) -> list[ComponentSet]:
    size = config.components.token_size_mm
    out = []
    for kind, counts in (("RES", config.components.res_tokens), ("LQ", config.components.lq_tokens)):
        parts = tuple(value_token(kind, value, size, i + 1) for value, n in sorted(counts.items()) for i in range(n))
        values = ", ".join(f"{n} x {v}" for v, n in sorted(counts.items()))
        _ = translator(config).gettext
        title = _("{kind} tokens ({n}: {values})").format(kind=_(VALUE_KINDS[kind]), n=len(parts), values=values)
        out.append(ComponentSet(kind.lower(), title, parts,
                                gap_mm=0.0 if kind == "RES" else 2.0, stagger=kind == "LQ"))
    return out


def marker_component(config: Any, number: int) -> Component:
    """Two-sided: BLOCKED (yellow, stripes) on the front, DESTROYED (red, cross) on the back."""
    s = config.components.marker_size_mm
    outline = ShapelyPolygon([(0, 0), (s, 0), (s, s), (0, s)])

    def face(colour: str, word: str, cross: bool) -> Scene:
        ops: list[Op] = [RectOp(Rect(-3, -3, s + 6, s + 6), Style(fill=colour))]
        if cross:
            ops.append(Polygon(((2, 2), (s - 2, s - 2)), Style(stroke="#ffffff", stroke_width_mm=1.6), False))
            ops.append(Polygon(((s - 2, 2), (2, s - 2)), Style(stroke="#ffffff", stroke_width_mm=1.6), False))
        else:
            for k in range(-4, 5):
                x = k * s / 4
                ops.append(Polygon(((x, s), (x + s, 0)), Style(stroke=mix(colour, INK, 0.25), stroke_width_mm=1.2),
                                   False))
        ops.append(RectOp(Rect(1.5, s / 2 - 3.2, s - 3, 6.4), Style(fill="#ffffff")))
        ops.append(_label(s / 2, s / 2, word, s - 4, 9, INK))
        return Scene(tuple(ops))

    _ = translator(config).gettext
    return Component("marker", _("marker {n}").format(n=number), s, s, face(BLOCKED_COLOUR, _("BLOCKED"), False),
                     geometry_path(outline), back=face(DESTROYED_COLOUR, _("DESTROYED"), True))


def leader_token(config: Any) -> Component:
    s = 34.0
    outline = Point(s / 2, s / 2).buffer(s / 2, quad_segs=16)
    _ = translator(config).gettext
    ops: list[Op] = [Path(geometry_path(outline), Style(fill="#2e4a62"), "leader"),
                     Circle(s / 2, s / 2, s / 2 - 1.5, Style(stroke="#ffffff", stroke_width_mm=0.6)),
                     _label(s / 2, s / 2 - 3, _("ROUND"), s * 0.7, 10, "#ffffff"),
                     _label(s / 2, s / 2 + 3.5, _("LEADER"), s * 0.7, 10, "#ffffff"),
                     Path(geometry_path(outline), Style(stroke=INK, stroke_width_mm=0.4), "cut-line")]
    return Component("token", _("round leader's token"), s, s, Scene(tuple(ops)), geometry_path(outline), marks=False)


def tower_tile(config: Any) -> Component:
    """A tile to glue on card and set under the tower (the board's base, stiffer)."""
    t = config.tower
    _ = translator(config).gettext
    s = t.base_diameter_mm + 14.0
    c = s / 2
    outline = Point(c, c).buffer(c, quad_segs=24)
    side = min(t.block_length_mm, t.base_diameter_mm * 0.65)
    ops: list[Op] = [Path(geometry_path(outline), Style(fill="#efe6d6"), "tower-tile"),
                     RectOp(Rect(c - side / 2, c - side / 2, side, side),
                            Style(stroke="#6b6b6b", stroke_width_mm=0.4, dash_mm=(1.5, 1.0))),
                     _label(c, c - side / 2 - 4.0, _("CLIMATE TOWER"), s * 0.7, 8, INK),
                     _label(c, c + side / 2 + 4.0, _("{n} blocks {length} x {width} mm").format(
                         n=t.stones, length=f"{t.block_length_mm:g}", width=f"{t.block_width_mm:g}"),
                            s * 0.7, 7, INK),
                     Path(geometry_path(outline), Style(stroke=INK, stroke_width_mm=0.4), "cut-line")]
    return Component("tile", translator(config).gettext("tower tile"), s, s, Scene(tuple(ops)),
                     geometry_path(outline), marks=False)


def named_die(part: Component, name: str, face: str) -> Component:
    """A paper d6 with its role written beside it and its faces in ``face`` (the region die is coloured, so
    everybody knows which die is read first)."""
    def recolour(op: Op) -> Op:
        if isinstance(op, Path) and op.name == "die-face":
            return replace(op, style=replace(op.style, fill=face))
        if isinstance(op, Text) and op.name == "die-name":
            return replace(op, text=name, font=Font(size_pt=7, bold=True))
        return op

    return replace(part, label=name, front=Scene(tuple(recolour(op) for op in part.front.items)))


def misc_set(config: Any, players: int) -> ComponentSet:
    size_mm = config.components.dice_size_mm
    _ = translator(config).gettext
    dice = [named_die(die_component(6, size_mm), _("region die (1st)"), REGION_DIE_COLOUR),
            named_die(die_component(6, size_mm), _("field die (2nd)"), "#ffffff")]
    parts = (tower_tile(config), leader_token(config), *dice)
    return ComponentSet("misc", _("Tower tile, round leader's token, two paper dice (cut, crease, glue the tabs)"),
                        parts, uniform=False)


def marker_set(config: Any) -> ComponentSet:
    parts = tuple(marker_component(config, i + 1) for i in range(config.markers.count))
    return ComponentSet("marker", translator(config).gettext("BLOCKED / DESTROYED markers ({n}, two-sided)").format(
        n=len(parts)), parts,
                        double_sided=True, gap_mm=0.0, outer_bleed=True)


# ------------------------------------------------------------------------------------------ cards


# The climate event cards of the shipped template, marked so that their names reach the catalogs (a card the
# template renames prints its own name in every language).
EVENT_NAMES = (N_("Heatwave"), N_("Drought"), N_("River flood"), N_("Storm surge"), N_("Wildfire"), N_("Cyclone"),
               N_("Crop failure"), N_("Glacier melt"), N_("Sea-level rise"), N_("Desertification"), N_("Landslide"),
               N_("Cold snap"), N_("Epidemic"), N_("Hailstorm"), N_("Dust storm"), N_("Permafrost thaw"))
FLIP_EDGES = (N_("long"), N_("short"))  # what imposition.flip_edge names, as the README prints it


def event_text(card: Any, tr: Translator | None = None) -> tuple[str, str]:
    tr = tr or translator(_ENGLISH)
    _, n_ = tr.gettext, tr.ngettext
    what = _("BLOCKED") if card.effect == "blocked" else _("DESTROYED")
    how_long = _("for the rest of the game") if card.rounds == 0 else \
        n_("for {n} round (this one included)", "for {n} rounds (this one included)", card.rounds).format(
            n=card.rounds)
    if card.effect == "blocked":
        body = _("Cover the fields shown: they yield no RES and take no new building.")
    else:
        body = _("Cover the fields shown: every building on them goes back to its owner's supply.")
    return f"{what} {how_long}", body


def pattern_ops(reach: tuple[str, ...], effect: str, box: Rect, tr: Translator | None = None) -> list[Op]:
    """The card's spread on a mini-field: the field the dice name in the middle, its eight compass neighbours
    around it (and a second ring for a step taken twice); covered ones in the effect's colour."""
    from boardgen.games.resilience_earth.rules.engine import COMPASS_DEG

    colour = BLOCKED_COLOUR if effect == "blocked" else DESTROYED_COLOUR
    cx, cy = box.center
    r = min(box.width, box.height) / 2
    covered: set[tuple[str, int]] = set()
    steps: dict[str, int] = {}
    every = "all" in reach
    for step in reach:
        if step != "all":
            steps[step] = steps.get(step, 0) + 1
            covered.add((step, steps[step]))
    ops: list[Op] = []
    for name, deg in COMPASS_DEG.items():
        for ring in (1, 2):
            d = r * (0.45 if ring == 1 else 0.84)
            x, y = cx + d * math.cos(math.radians(deg)), cy - d * math.sin(math.radians(deg))
            on = (name, ring) in covered or (every and ring == 1)
            if ring == 2 and not on:
                continue
            if on:
                back = (cx + d * 0.55 * math.cos(math.radians(deg)), cy - d * 0.55 * math.sin(math.radians(deg)))
                ops.append(Polygon((back, (x, y)), Style(stroke=INK, stroke_width_mm=0.5), False, "pattern-step"))
            ops.append(Circle(x, y, r * 0.15, Style(fill=colour if on else "#ffffff", stroke=INK if on else "#9a9a9a",
                                                    stroke_width_mm=0.3), name="pattern-cell"))
            if ring == 1:
                shown = name
                if tr is not None:
                    from boardgen.games.resilience_earth.leaflet import direction_word

                    shown = direction_word(name, tr)
                ops.append(Text(x, y, shown, Font(size_pt=7, bold=on), ink_on(colour) if on else "#6b6b6b",
                                "center", "middle"))
    ops.append(Circle(cx, cy, r * 0.22, Style(fill=colour, stroke=INK, stroke_width_mm=0.6), name="pattern-target"))
    dice = (tr or translator(_ENGLISH)).gettext("dice")
    ops.append(Text(cx, cy, dice, Font(size_pt=7, bold=True), ink_on(colour), "center", "middle"))
    return ops


def event_deck(config: Any) -> tuple[Deck, ComponentSet]:
    tr = translator(config)
    rows = []
    for card in config.events:
        subtitle, body = event_text(card, tr)
        rows.append({"title": tr.gettext(card.name), "subtitle": subtitle, "text": body,
                     "footer": tr.gettext("Roll both dice: first die region, second die field"),
                     "colour": "#8a3b12" if card.effect == "destroyed" else "#7a6212"})
    names = {k: tr.gettext(v) for k, v in DECK_NAMES.items()}
    deck = Deck.from_rows(names["events"], rows, config.components.card_size, colour="#8a3b12",
                          pattern="chevron", layout=CardLayout(body_pt=7.0, min_body_pt=6.0, body_valign="top"))
    cset = deck_components(deck, tr)
    w, h = deck.size_mm
    boxes = front_boxes(w, h, deck.layout, False, True, True)
    area = boxes.body
    picture = Rect(area.x, area.y + area.height * 0.24, area.width, area.height * 0.76)
    parts = []
    for part, card in zip(cset.components, config.events, strict=True):
        front = Scene(part.front.items + tuple(pattern_ops(card.reach, card.effect, picture,
                                                           tr if tr.language != "en" else None)))
        parts.append(replace(part, front=front))
    return deck, replace(cset, kind=CARD_KINDS[0], components=tuple(parts))  # one kind in every language


def aid_decks(config: Any, players: int) -> list[ComponentSet]:
    r, c, p = config.rules, config.costs, config.production
    _ = translator(config).gettext
    colours = config.components.player_colours
    sab_text = _("Instead of acting this turn: hand in {cost} RES and take {lq} LQ. You build nothing and are paid "
                 "no RES at the end of this round. Lay this card face up until the round ends.").format(
        cost=r.sabbatical_cost, lq=r.sabbatical_lq)
    if r.sabbatical_limit:
        sab_text += " " + _("At most {n} a game.").format(n=r.sabbatical_limit)
    sab_rows = [{"title": _("Sabbatical"), "subtitle": _("Player {n}").format(n=i + 1), "colour": colours[i],
                 "text": sab_text} for i in range(players)]
    level = " / ".join
    map_text = _("Settle: {settle} RES (+{travel} RES if it borders none of your fields; your first settlement goes "
                 "anywhere for {settle} RES).\n"
                 "Town: {town} RES on your settlement, +{town_stones} tower stone.\n"
                 "Industry: {industry} RES on your settlement, +{industry_stones} tower stones.\n"
                 "RES each round on a field with 1 / 2 / 3 pips: settlement {p_settlement}, town {p_town}, "
                 "industry {p_industry}.\n"
                 "A new settlement: +{lq} LQ once. Each of your fields beside an industry: -{loss} LQ a round.").format(
        settle=c.settlement, travel=c.travel, town=c.town, town_stones=c.town_stones, industry=c.industry,
        industry_stones=c.industry_stones, p_settlement=level(map(str, p.settlement)), p_town=level(map(str, p.town)),
        p_industry=level(map(str, p.industry)), lq=r.settlement_lq, loss=r.industry_lq_loss)
    if any(r.building_res.values()):
        map_text += "\n" + _("At the end (tower standing) each building counts as RES: settlement {settlement}, town "
                              "{town}, industry {industry}.").format(settlement=r.building_res.get("settlement", 0),
                                                                     town=r.building_res.get("town", 0),
                                                                     industry=r.building_res.get("industry", 0))
    map_rows = [{"title": _("Settlement map"), "subtitle": _("Player {n}").format(n=i + 1), "colour": colours[i],
                 "text": map_text} for i in range(players)]
    small = CardLayout(body_pt=7.0, min_body_pt=5.5)
    tr = translator(config)
    names = {k: tr.gettext(v) for k, v in DECK_NAMES.items()}
    sab = Deck.from_rows(names["sabbatical"], sab_rows, config.components.card_size, colour="#3f9e8f", pattern="dots",
                         layout=CardLayout(body_pt=8.0))
    smap = Deck.from_rows(names["map"], map_rows, config.components.card_size, colour="#c9a227",
                          pattern="grid", layout=small)
    a, b = deck_components(sab, tr), deck_components(smap, tr)
    return [replace(a, kind="player-cards", title=_("Sabbatical cards and settlement maps ({n} cards)").format(
                        n=2 * players),
                    components=a.components + b.components)]


# ------------------------------------------------------------------------------------------ the kit


def component_sets(config: Any, players: int) -> list[ComponentSet]:
    with in_language(config):
        _deck, events = event_deck(config)
        return [events, *aid_decks(config, players), marker_set(config), *value_sets(config),
                *building_sets(config, players), misc_set(config, players)]


CARD_KINDS = (N_("climate-events"), N_("player-cards"))
"""The card sheets' kinds (one in every language); the sheet headings print them in the edition's words."""


def best_layout(cset: ComponentSet, paper: Paper, title: str, keep_orientation: bool = False) -> LaidOut:
    """Cards: the orientation (paper and cards, upright or turned) that needs the fewest sheets, as the deck
    vocabulary's ``deck_sheets`` does; other parts: the paper upright. ``keep_orientation``: the paper stays
    as given (the file's pages all one way round, see ``sheets.one_orientation``)."""
    if cset.kind not in CARD_KINDS:
        return lay_out(cset, paper, title, "duplex")
    best: LaidOut | None = None
    for turn in (False, True):
        s = replace(cset, components=tuple(turned(p) for p in cset.components)) if turn else cset
        for pp in ((paper,) if keep_orientation else (paper.portrait(), paper.landscape())):
            try:
                laid = lay_out(s, pp, title, "duplex", DECK_STYLE)
            except ValueError:
                continue
            if best is None or layout_rank(laid) < layout_rank(best):
                best = laid
    assert best is not None
    return best


def lay_kit(config: Any, sets: list[ComponentSet], paper: Paper) -> list[LaidOut]:
    """Every part on ``paper``, all pages turned one way (the file has backs)."""
    return one_orientation(lambda pp: [best_layout(s, pp, f"{config.title}: {s.title}", pp is not paper)
                                       for s in sets], paper)


def build_kit(config: Any, sets: list[ComponentSet], paper: Paper) -> PaperKit:
    laid = lay_kit(config, sets, paper)
    pages = tuple(p for lo in laid for p in lo.pages)
    pdf = render_pdf(pages, title=f"{config.title}: components ({paper.name})")
    return PaperKit(paper, tuple(laid), pages, pdf)


STONE_COLOUR = "#d9b98c"  # unpainted wood
LEAFLET_HOW = N_("the rules: print double-sided (flip on the short edge) and fold in three at the marks, zigzag, "
                 "with the title panel in front.")
TOWER_NOTE = N_("The Climate Tower: stack the stones on the tower base in the middle of the board, as the leaflet "
                "shows.")
BOX_EXTRA = ((1, N_("rules leaflet"), N_("one sheet folded in three")),)
"""The README's words of the kit (looked up in the edition's catalog by the assembler)."""


def kit_parts(ctx: BuildContext) -> KitParts:
    """Every part of the Resilience Earth box, declared once (``boardgen.kit.parts``): the field board, the
    climate event deck, sabbatical and settlement-map cards, markers, RES and LQ tokens, buildings, the tower
    tile, the leader's token, two paper dice and the tower's wooden stones (not printed)."""
    from boardgen.games.resilience_earth.board import board_scene
    from boardgen.games.resilience_earth.leaflet import block_text

    config = ctx.config
    players = config.players.max
    b = config.board
    _ = translator(config).gettext
    declared = [board_part(_("board"), board_piece(board_scene(ctx, bleed_mm=DEFAULT_STYLE.bleed_mm), b.width_mm,
                                                   b.height_mm))]
    dice_w, dice_h, dice_d = folded_size_mm(6, config.components.dice_size_mm)
    region_die = _("region die (1st)")
    for p in parts_from_sets(component_sets(config, players), "components-{paper}.pdf", kinds={"card": "deck"}):
        if p.kind == "deck":
            p = replace(p, deck=p.name)
        if p.kind == "die":
            p = replace(p, width_mm=dice_w, height_mm=dice_h, depth_mm=dice_d, sides=6,
                        colour=REGION_DIE_COLOUR if p.name == region_die else "#ffffff")
        declared.append(p)
    t = config.tower
    declared.append(Part(_("tower stone"), "block", t.stones, t.block_length_mm, t.block_width_mm,
                         depth_mm=t.block_width_mm, printed=False, colour=STONE_COLOUR))
    return KitParts(config.game, config.title, tuple(declared),
                    (_("scissors or a craft knife and metal ruler, glue for the paper dice"),
                     _("for the tower stones, {stones} of them: {blocks} (a mini tumbling-tower game has them)").format(
                         stones=t.stones, blocks=block_text(t, translator(config)))))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The engine's numbers: the stones of the countdown stacks, the event cards it draws from, the markers."""
    from boardgen.games.resilience_earth.rules.engine import ResilienceGame

    config = ctx.config
    game = ctx.plugin.new_game(ctx, config.players.max)
    assert isinstance(game, ResilienceGame)
    _ = translator(config).gettext
    events = {k: _(v) for k, v in DECK_NAMES.items()}["events"]
    return {_("tower stone"): game.tower.stones, events: len(game.cards),
            _("marker"): config.markers.count}


def components_stage(ctx: BuildContext) -> list[Artifact]:
    """The kit from the declared parts through the shared assembler (``boardgen.kit.assembler``)."""
    from boardgen.games.resilience_earth.leaflet import leaflet_pdf

    config = ctx.config
    sets = component_sets(config, config.players.max)
    _ = translator(config).gettext
    spec = KitSpec(
        config.title, kit_parts(ctx), functools.partial(lay_kit, config, sets),
        lambda paper, _kit: leaflet_pdf(ctx, paper), LEAFLET_HOW, notes=(TOWER_NOTE,), box_extra=BOX_EXTRA,
        gettext=_)
    return assemble_kit(ctx, spec)
