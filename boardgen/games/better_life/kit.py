"""The BETTER Life kit: the decks (action, role, event, policy, policy target, player aid) from the same rows
the engine plays, five role mats, five voting screens, IP tokens, pawns, meter markers, paper dice, the leaflet,
an inventory and a zip per paper (A4, US Letter).

The kit's files (components-{a4,letter}.pdf with the decks first, the print-then-cut edition, the leaflet,
inventory.csv, the zips) come from the shared kit assembler (``boardgen.kit.assembler``); this module declares
the parts, how they are laid out and the README's words for them.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from boardgen import __version__
from boardgen.cards.deck import CardLayout, Deck, cards_sheets, deck_components, draw_text, fit_text
from boardgen.cards.dice import die_component, folded_size_mm
from boardgen.cards.model import Component, ComponentSet
from boardgen.cards.sheets import LaidOut, lay_out, one_orientation
from boardgen.games.better_life.board import GREEN, INK, band_name, register_icons, role_name
from boardgen.games.better_life.cards import Decks
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.i18n import N_, Translator, translator
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, assemble_kit
from boardgen.kit.parts import (
    KitParts,
    board_part,
    board_piece,
    deck_part,
    default_name,
    parts_from_sets,
)
from boardgen.kit.shape import COMPONENTS
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import fit_font
from boardgen.render.imposition import Paper
from boardgen.render.scene import (
    Circle,
    Font,
    Op,
    Path,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    circle_path,
    ink_on,
    mix,
    rect_path,
)

MIN_BODY_PT = 7.0
MARKER_MAX_MM = 9.0
"""Meter markers fit inside the board's smallest meter cell (the year boxes are 10 mm tall)."""
"""No card's body text is set smaller than this (a card that needs less fails the build, naming the card)."""
TOKEN_COLOURS = {1: "#f6c945", 5: "#e08a2c", 10: "#b5651d"}
EFFECT_TIMING = {"start": N_("Play before you roll"), "event": N_("Play when you draw an event")}
DECK_NAMES = {"action": N_("Action cards"), "role": N_("Role cards"), "event": N_("Event cards"),
              "policy": N_("Policy cards"), "target": N_("Policy Target cards"), "aid": N_("Player aid")}
"""The decks' names: on the card backs, the sheet headings, the inventory and the engine's part count check."""


# ------------------------------------------------------------------------------------------ decks


def band_range(config: BetterLifeTemplate, i: int) -> str:
    """The pool totals of vote band ``i`` as printed: '0-5', '6-9', '10+'."""
    v = config.votes
    return f"{v[i].min_ip}+" if i == len(v) - 1 else f"{v[i].min_ip}-{v[i + 1].min_ip - 1}"


def _vote_line(config: BetterLifeTemplate, tr: Translator) -> str:
    return tr.gettext("Vote: {bands}").format(bands=" · ".join(
        f"{band_range(config, i)} {band_name(b.name, tr)}" for i, b in enumerate(config.votes)))


def decks_for_print(config: BetterLifeTemplate, decks: Decks) -> list[Deck]:
    """Every deck as the printer sees it; the rows are the engine's rows."""
    roles = {r.card: r for r in config.roles}
    s = config.scoring
    tr = translator(config)
    _ = tr.gettext
    decks_named = {k: _(v) for k, v in DECK_NAMES.items()}
    action_rows = [{"title": c.title, "text": c.text, "subtitle": _(EFFECT_TIMING[c.timing]),
                    "footer": _("Action card · discard after use"), "quantity": c.quantity}
                   for c in decks.regular_actions]
    role_rows = [{"title": c.title, "text": c.text,
                  "subtitle": _("Role card of the {role}").format(role=role_name(roles[c.id].name, tr)),
                  "footer": _("Keep it: once a round, not counted in your hand"), "colour": roles[c.id].colour,
                  "quantity": 1}
                 for c in decks.actions if c.kind == "role" and c.id in roles]
    event_rows = []
    for e in decks.events:
        can_buy = bool(e.buy_off and config.event_buy_off)
        text = (e.text + "\n" + _("Buy it off: pay {n} IP to the reserve and nothing happens.").format(n=e.buy_off)
                if can_buy else e.text)
        event_rows.append({"title": e.title, "text": text, "footer": _("Event · can be bought off") if can_buy
                           else _("Event · cannot be bought off"), "quantity": e.quantity})
    policy_rows = [{"title": p.title,
                    "subtitle": _("EU Biodiversity Strategy 2030, section {section}").format(section=p.section),
                    "text": f"{p.goal}\n{p.text}", "footer": _vote_line(config, tr), "quantity": 1}
                   for p in decks.policies]
    titles = {p.id: p.title for p in decks.policies}
    target_rows = []
    for t in decks.targets:
        # stars rank the three policies; each name sits on its own line above what it pays
        text = "\n".join(f"{'{star}' * stars} {titles[pid]}\n"
                         + _("{rank}: {success} VP, semi {semi} VP").format(rank=rank, success=r.success, semi=r.semi)
                         for stars, rank, pid, r in ((3, _("primary"), t.primary, s.primary),
                                                     (2, _("secondary"), t.secondary, s.secondary),
                                                     (1, _("tertiary"), t.tertiary, s.tertiary)))
        target_rows.append({"title": _("Policy Target"), "subtitle": _("Keep it secret until the end"),
                            "text": text, "footer": _("Card {id}").format(id=t.id), "quantity": t.quantity})
    size = config.kit.card
    body = CardLayout(body_valign="middle", min_body_pt=MIN_BODY_PT)
    return [
        Deck.from_rows(decks_named["action"], action_rows, size, colour="#2f5d8a", pattern="diagonal", layout=body),
        Deck.from_rows(decks_named["role"], role_rows, size, colour="#4a4a4a", pattern="grid", layout=body),
        Deck.from_rows(decks_named["event"], event_rows, size, colour="#d9822b", pattern="chevron", layout=body),
        Deck.from_rows(decks_named["policy"], policy_rows, size, colour=GREEN, pattern="dots",
                       layout=CardLayout(body_valign="middle", body_pt=8.0, min_body_pt=MIN_BODY_PT)),
        Deck.from_rows(decks_named["target"], target_rows, size, colour="#6a3d9a", pattern="plain",
                       layout=CardLayout(body_valign="middle", body_pt=8.5, min_body_pt=MIN_BODY_PT)),
        Deck.from_rows(decks_named["aid"], [{"title": _("A turn, in short"), "text": aid_text(config),
                                       "quantity": config.players.usual}], size, colour="#37474f",
                       pattern="plain", layout=CardLayout(body_valign="middle", body_pt=7.5, min_body_pt=MIN_BODY_PT,
                                                          align="left")),
    ]


def aid_text(config: BetterLifeTemplate) -> str:
    sp = config.spaces
    sc = config.scoring
    pays = "/".join(str(x) for x in config.finish_ip)
    v = config.votes
    tr = translator(config)
    _ = tr.gettext
    buy = _(" (buy it off if it shows a price)") if config.event_buy_off else ""
    return "\n".join([
        _("1. Before you roll: your role card (once a round) and/or one 'before you roll' action card."),
        _("2. Roll, move, do the space. Own role +{own} IP; other role: pay it {fee}. "
          "IP +{ip}. Next roll +{plus}. Bonus: roll again. Skip: miss a turn. Fund: pay "
          "{fund}. Payout: take the Fund ({empty} if empty). Event: draw one{buy}.").format(
              own=sp.own_role_ip, fee=sp.other_role_fee, ip=sp.ip_space, plus=sp.plus_one, fund=sp.fund_fee,
              empty=sp.empty_fund_payout, buy=buy),
        _("3. End of Year: {pays} IP by arrival, then pick a face-up action card. Hand limit {limit}.").format(
            pays=pays, limit=config.hand_limit),
        _("4. Secret vote: {bands}.").format(bands="; ".join(
            f"{band_range(config, i)} {band_name(b.name, tr)} ("
            + ", ".join(x for x in (_("policy {n}").format(n=f"{b.policy:+d}") if b.policy else "",
                                    _("loss {n}").format(n=f"{b.loss:+d}") if b.loss else "") if x) + ")"
            for i, b in enumerate(v))),
        _("5. Score: target {p1}/{p2}, {s1}/{s2}, "
          "{t1}/{t2} VP (success/semi); 1 VP per {n} IP.").format(
              p1=sc.primary.success, p2=sc.primary.semi, s1=sc.secondary.success, s2=sc.secondary.semi,
              t1=sc.tertiary.success, t2=sc.tertiary.semi, n=sc.ip_per_vp),
        _("All lose at loss {limit}, or policy under {goal} in {end}.").format(
            limit=config.meters.loss_limit, goal=config.meters.policy_goal, end=config.years.end),
    ])


# ------------------------------------------------------------------------------------------ parts


def _text_box(text: str, box: Rect, size: float, min_size: float = 5.5, align: str = "left",
              valign: str = "top", colour: str = INK, name: str = "text") -> list[Op]:
    fit = fit_text(text, box, Font(size_pt=size), min_size)
    if fit is None:
        from boardgen.errors import LayoutError

        raise LayoutError(f"text does not fit its {box.width:.0f} x {box.height:.0f} mm box: {text[:40]!r}...")
    return draw_text(fit, box, colour, align, valign, name)  # type: ignore[arg-type]


def role_mat(config: BetterLifeTemplate, decks: Decks, index: int, cw: float, ch: float) -> Component:
    role = config.roles[index]
    card = decks.action(role.card)
    tr = translator(config)
    _ = tr.gettext
    name = role_name(role.name, tr)
    w, h = 2 * cw + 3 * 8.0 + 95.0, ch + 34.0
    band = 14.0
    ops: list[Op] = [RectOp(Rect(-3, -3, w + 6, h + 6), Style(fill=mix(role.colour, "#ffffff", 0.85))),
                     RectOp(Rect(-3, -3, w + 6, band + 3), Style(fill=role.colour))]
    ink = ink_on(role.colour)
    ops.append(Text(6.0, band / 2 + 0.5, name, Font(size_pt=18, bold=True), ink, baseline="middle",
                    name="mat-title"))
    ops.append(Text(w - 6.0, band / 2 + 0.5, _("{title} · role mat").format(title=config.title), Font(size_pt=8),
                    ink, align="right", baseline="middle"))
    y = band + 9.0
    for k, label in enumerate((_("Your role card"), _("Your Policy Target (face down)"))):
        x = 8.0 + k * (cw + 8.0)
        ops.append(Text(x, y - 2.0, label, Font(size_pt=7, bold=True), INK))
        ops.append(RectOp(Rect(x, y, cw, ch), Style(fill="#ffffff", stroke="#7a7a7a", stroke_width_mm=0.35,
                                                    dash_mm=(2.0, 1.2)), "card-place"))
    ops += _text_box(f"{card.title}: {card.text}", Rect(10.0, y + 10, cw - 4, ch - 20), 8.0, 5.5, "center",
                     "middle", "#777777", "mat-role-text")
    tx = 8.0 + 2 * (cw + 8.0)
    own = [i for i, s in enumerate(config.track.spaces, start=1) if s == f"role:{role.key}"]
    where = ", ".join(str(i) for i in own)
    sp = config.spaces
    sc = config.scoring
    text = "\n".join([
        _("Your spaces on the track: {where}. Landing there pays you {own} IP from the reserve; anyone "
          "else landing there pays you {fee} IP.").format(where=where, own=sp.own_role_ip, fee=sp.other_role_fee),
        _("Keep your IP behind your voting screen: nobody needs to know how many you have."),
        _("Hand: up to {n} action cards (the role card apart). Before you roll you may play your "
          "role card (once a round) and one action card marked 'before you roll'.").format(n=config.hand_limit),
        _("Score at the end: your Policy Target (success {p1}/{s1}/{t1} VP, semi {p2}/{s2}/{t2} VP) and "
          "1 VP per {n} IP left.").format(p1=sc.primary.success, s1=sc.secondary.success, t1=sc.tertiary.success,
                                          p2=sc.primary.semi, s2=sc.secondary.semi, t2=sc.tertiary.semi,
                                          n=sc.ip_per_vp),
        _("End of Year pays {pays} IP in finishing order; each "
          "finisher then takes a face-up action card. The last to arrive starts the next round.").format(
              pays="/".join(str(x) for x in config.finish_ip)),
        _("The vote: {bands}.").format(bands="; ".join(
            _("{pool} IP {band} (policy {policy}, loss {loss})").format(
                pool=band_range(config, i), band=band_name(b.name, tr), policy=f"{b.policy:+d}",
                loss=f"{b.loss:+d}") for i, b in enumerate(config.votes))),
    ])
    ops += _text_box(text, Rect(tx, y - 4.0, w - tx - 6.0, ch + 8.0), 8.0, 6.0, name="mat-text")
    ops.append(Text(w / 2, h - 4.0, _("Action cards in your hand are secret; played cards go face up on the "
                                      "discard pile beside the action deck."), Font(size_pt=6.5, italic=True),
                    "#555555", align="center"))
    return Component("mat", _("{role} mat").format(role=name), w, h, Scene(tuple(ops)), rect_path(Rect(0, 0, w, h)))


def voting_screen(config: BetterLifeTemplate, index: int) -> Component:
    """Three panels that fold zig-zag and stand: how to bid, the role's name in the middle, the vote bands.
    Folded zig-zag, the middle panel faces the table and both outer panels (the texts) face their owner."""
    role = config.roles[index]
    tr = translator(config)
    _ = tr.gettext
    name = role_name(role.name, tr)
    h = config.kit.screen_height_mm
    pw = round(h * 0.85, 2)
    w = 3 * pw
    ops: list[Op] = [RectOp(Rect(-3, -3, w + 6, h + 6), Style(fill=mix(role.colour, "#ffffff", 0.8)))]
    ops.append(RectOp(Rect(pw, 0, pw, h), Style(fill=role.colour), "screen-name-panel"))
    ink = ink_on(role.colour)
    ops.append(Text(1.5 * pw, h * 0.42, name, fit_font(name, Font(size_pt=16, bold=True), pw - 6), ink,
                    align="center", baseline="middle", name="screen-name"))
    ops.append(Text(1.5 * pw, h * 0.58, _("voting screen"), Font(size_pt=8), ink, align="center",
                    baseline="middle"))
    ops += _text_box(_("Hide your IP behind this screen. At each End of Year, after the talk, take the IP you "
                       "want to give into your closed fist (nothing is fine too). Everyone opens at once; the "
                       "pool is counted and goes to the reserve."), Rect(3, 4, pw - 6, h - 8), 7.5, 7.0,
                     "left", "middle", name="screen-text")
    v = config.votes
    bands = "\n".join(_("{pool} IP: {band}. Policy {policy}, loss {loss}.").format(
        pool=band_range(config, i), band=band_name(b.name, tr), policy=f"{b.policy:+d}", loss=f"{b.loss:+d}")
        for i, b in enumerate(v))
    ops += _text_box(_("The pool decides:") + "\n" + bands, Rect(2 * pw + 3, 4, pw - 6, h - 8), 7.5, 7.0, "left",
                     "middle", name="screen-bands")
    fold = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.2, 0.8))
    folds = (((pw, 0.0), (pw, h)), ((2 * pw, 0.0), (2 * pw, h)))
    ops += [Path((("M", *a), ("L", *b)), fold, "fold-line") for a, b in folds]
    return Component("screen", _("{role} screen").format(role=name), w, h, Scene(tuple(ops)),
                     rect_path(Rect(0, 0, w, h)), folds=folds)


def disc(kind: str, label: str, size: float, fill: str, text: str, sub: str = "") -> Component:
    r = size / 2
    ops: list[Op] = [Circle(r, r, r, Style(fill=fill)),
                     Circle(r, r, r * 0.82, Style(stroke=ink_on(fill), stroke_width_mm=0.25))]
    font = fit_font(text, Font(size_pt=size * 0.9, bold=True), size * 0.62)
    ops.append(Text(r, r - (size * 0.06 if sub else 0), text, font, ink_on(fill), align="center",
                    baseline="middle"))
    if sub:
        ops.append(Text(r, r + size * 0.27, sub, fit_font(sub, Font(size_pt=size * 0.3), size * 0.6),
                        ink_on(fill), align="center", baseline="middle"))
    ops.append(Path(circle_path(r, r, r), Style(stroke=INK, stroke_width_mm=0.3), "cut-line"))
    return Component(kind, label, size, size, Scene(tuple(ops)), circle_path(r, r, r), marks=False)


def ip_tokens(config: BetterLifeTemplate) -> ComponentSet:
    _ = translator(config).gettext
    parts = []
    for value, count in sorted(config.ip.denominations.items()):
        colour = TOKEN_COLOURS.get(value, "#c9a227")
        parts += [disc("token", _("{value} IP").format(value=value) + f" #{k + 1}", config.kit.token_mm, colour,
                       str(value), _("IP")) for k in range(count)]
    total = sum(v * n for v, n in config.ip.denominations.items())
    return ComponentSet("token", _("IP tokens ({n} tokens worth {total} IP)").format(n=len(parts), total=total),
                        tuple(parts),
                        uniform=True, stagger=True)


def pieces(config: BetterLifeTemplate) -> ComponentSet:
    tr = translator(config)
    _ = tr.gettext
    names = [role_name(r.name, tr) for r in config.roles]
    parts = [disc("pawn", _("{role} pawn").format(role=name), config.kit.pawn_mm, r.colour, name[0])
             for r, name in zip(config.roles, names, strict=True)]
    m = min(config.kit.pawn_mm * 0.8, MARKER_MAX_MM)
    # TRANSLATORS: P, L and Y are the letters on the policy, loss and year markers
    parts += [disc("marker", _("policy marker"), m, GREEN, _("P")),
              disc("marker", _("loss marker"), m, "#c62828", _("L")),
              disc("marker", _("year marker"), m, "#1565c0", _("Y"))]
    return ComponentSet("pawn", _("Pawns (one per role) and meter markers (policy, loss, year)"), tuple(parts),
                        uniform=False)


def dice_set(config: BetterLifeTemplate) -> ComponentSet:
    die = die_component(config.die_sides, config.kit.dice_size_mm, translator(config))
    return ComponentSet("die", translator(config).gettext("Paper d{sides} (two, one spare)").format(
        sides=config.die_sides), (die, die), uniform=False)


def component_sets(config: BetterLifeTemplate, decks: Decks) -> list[ComponentSet]:
    from boardgen.cards.deck import card_size

    cw, ch = card_size(config.kit.card)
    mats = tuple(role_mat(config, decks, i, cw, ch) for i in range(len(config.roles)))
    screens = tuple(voting_screen(config, i) for i in range(len(config.roles)))
    small = pieces(config)
    dice = dice_set(config)
    small = ComponentSet("pawn", f"{small.title}; {dice.title}", (*small.components, *dice.components),
                         uniform=False, row_starts=(len(small.components),))
    _ = translator(config).gettext
    return [ComponentSet("mat", _("Role mats"), mats, uniform=False),
            ComponentSet("screen", _("Voting screens: fold zig-zag, the name towards the table"), screens,
                         uniform=False),
            ip_tokens(config), small]


# ------------------------------------------------------------------------------------------ stage


def kit_parts(ctx: BuildContext) -> KitParts:
    """Every part of the BETTER Life box, declared once (``boardgen.kit.parts``): the track board, the six
    decks, role mats, voting screens, IP tokens, pawns, meter markers and the paper dice."""
    from boardgen.games.better_life.board import board_scene

    config: BetterLifeTemplate = ctx.config
    decks: Decks = ctx.plugin.decks(ctx)  # type: ignore[attr-defined]
    register_icons()
    board = ctx.board
    scene, _avoid = board_scene(config, board)
    declared = [board_part(translator(config).gettext("board"), board_piece(scene, board.width_mm, board.height_mm))]
    for deck in decks_for_print(config, decks):
        cards = deck_components(deck, translator(config))
        declared.append(deck_part(deck.name, cards, COMPONENTS, cards.kind))
    die_name = translator(config).gettext("d{sides}").format(sides=config.die_sides)  # the name on its net
    for p in parts_from_sets(component_sets(config, decks), COMPONENTS,
                             name=lambda c: die_name if c.kind == "die" else default_name(c)):
        if p.kind == "die":
            w, h, d = folded_size_mm(config.die_sides, config.kit.dice_size_mm)
            p = replace(p, sides=config.die_sides, width_mm=w, height_mm=h, depth_mm=d)
        declared.append(p)
    return KitParts(config.game, config.title, tuple(declared),
                    (translator(config).gettext("scissors or a craft knife and ruler, glue for the dice; a real die "
                                                "and coins or beads can stand in for the paper ones"),))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The engine's piles: action, event and policy-target cards by their copies, policies, roles, dice."""
    config: BetterLifeTemplate = ctx.config
    rules = ctx.plugin.new_game(ctx, config.players.usual).rules  # type: ignore[attr-defined]
    tr = translator(config)
    _ = tr.gettext
    decks_named = {k: _(v) for k, v in DECK_NAMES.items()}
    counts = {decks_named["action"]: sum(rules.action_counts), decks_named["event"]: sum(rules.event_counts),
              decks_named["target"]: sum(rules.target_counts), decks_named["policy"]: len(rules.decks.policies),
              decks_named["role"]: len(config.roles)}
    counts.update({_("{role} pawn").format(role=role_name(r.name, tr)): 1 for r in config.roles})
    return counts


def inventory(config: BetterLifeTemplate, decks: Decks, board: Any) -> list[tuple[str, int, str]]:
    """(part, count, note) for everything in the box."""
    ip = config.ip
    _ = translator(config).gettext
    rows = [(_("board (poster, or jigsaw sections)"), 1,
             _("{n} track spaces with Start").format(n=len(board.kinds))),
            (_("action cards"), len(decks.action_copies()), _("{n} kinds").format(n=len(decks.regular_actions))),
            (_("role cards"), len(config.roles), _("one per role")),
            (_("event cards"), len(decks.event_copies()), _("{n} kinds").format(n=len(decks.events))),
            (_("policy cards"), len(decks.policies), _("EU Biodiversity Strategy 2030 targets")),
            (_("policy target cards"), len(decks.target_copies()), _("three policies each")),
            (_("player aid cards"), config.players.usual, "")]
    for value, count in sorted(ip.denominations.items()):
        rows.append((_("IP tokens of {value}").format(value=value), count,
                     _("worth {n} IP").format(n=value * count)))
    rows += [(_("role mats"), len(config.roles), ""), (_("voting screens"), len(config.roles), ""),
             (_("pawns"), len(config.roles), _("one per role colour")),
             (_("meter markers"), 3, _("policy, loss, year")),
             (_("paper d{sides}").format(sides=config.die_sides), 2, _("one to play, one spare")),
             (_("rules leaflet"), 1, _("one folded sheet"))]
    return rows


_HOW_TO = {
    "mat": N_("Print single-sided on card (160-250 g/m2); cut on the crop marks."),
    "screen": N_("Print single-sided on card; cut on the crop marks, crease the dashed lines and fold them opposite "
                 "ways (zig-zag) so the screen stands with the coloured name towards the table and both texts "
                 "towards you."),
    "token": N_("Print single-sided on card (the back is blank); cut out the discs."),
    "pawn": N_("Print single-sided on card; cut out the discs (or use any small pieces in the role colours); dice: "
               "cut on the solid line, crease the dashed lines, glue the grey tabs inside."),
}
"""How to print and cut each kind of sheet (the README's page guide looks each up in the edition's catalog)."""
CARD_HOW = {
    "duplex": N_("Print DOUBLE-SIDED on card (160-250 g/m2), each front page followed by its backs (flip edge "
                 "below); the cards touch: cut on the crop marks with long straight cuts (a craft knife and metal "
                 "ruler, or a guillotine)."),
    "gutter": N_("Print single-sided on card (160-250 g/m2); fold each sheet down the middle, glue the halves back "
                 "to back, then cut on the crop marks."),
    "fold": N_("Print single-sided on card (160-250 g/m2); cut out each card pair, fold it over on the dashed line "
               "and glue the halves back to back."),
}
LEAFLET_HOW = N_("the rules on one sheet: print double-sided (flip on the short edge), fold in half.")
CUT_CONTENTS = N_("the cards, then the other parts,")
BOX_EXTRA = ((1, N_("rules leaflet"), N_("one sheet folded in half")),)


def lay_everything(config: BetterLifeTemplate, decks: Decks, paper: Paper) -> list[LaidOut]:
    """The decks, then the other parts, in one file with every page one way round (the cards have backs)."""
    cards = [deck_components(d) for d in decks_for_print(config, decks)]  # drawn once, laid out on each try
    sets = component_sets(config, decks)
    mode = config.kit.double_sided

    def lay(pp: Paper) -> list[LaidOut]:
        return [*(cards_sheets(c, pp, mode, keep_orientation=pp is not paper) for c in cards),
                *(lay_out(s, pp, f"{config.title}: {s.title}", "duplex") for s in sets)]

    return one_orientation(lay, paper)


def components_stage(ctx: BuildContext) -> list[Artifact]:
    """The kit from the declared parts through the shared assembler (``boardgen.kit.assembler``)."""
    from boardgen.games.better_life.leaflet import leaflet_pdf

    config: BetterLifeTemplate = ctx.config
    decks: Decks = ctx.plugin.decks(ctx)  # type: ignore[attr-defined]
    register_icons()
    tr = translator(config)
    card_how = {deck_components(d, tr).kind: CARD_HOW[config.kit.double_sided] for d in decks_for_print(config, decks)}
    spec = KitSpec(
        config.title, kit_parts(ctx), functools.partial(lay_everything, config, decks),
        lambda paper, _kit: leaflet_pdf(config, decks, paper, ctx.board),
        LEAFLET_HOW, {**card_how, **_HOW_TO}, cut_contents=CUT_CONTENTS,
        header=(tr.gettext("edition {edition}, made by boardgen {version}, template sha256 {sha}").format(
            edition=config.edition, version=__version__, sha=config.template_sha256[:16]),),
        box_extra=BOX_EXTRA, gettext=tr.gettext)
    return assemble_kit(ctx, spec)


def token_count(config: BetterLifeTemplate) -> int:
    return sum(config.ip.denominations.values())


