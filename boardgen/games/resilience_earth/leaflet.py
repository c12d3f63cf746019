"""The Resilience Earth rules leaflet's words: one landscape sheet, printed on both sides and folded in three
(six panels). Every number comes from the template, so a changed rule changes the leaflet. The shared typesetter
(``boardgen.kit.leaflet``) sets, fits and folds them."""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any

from boardgen.i18n import Translator, printing_in, translator
from boardgen.kit.leaflet import BODY_SIZES_PT as BODY_SIZES
from boardgen.kit.leaflet import TRI_FOLD, Block, Leaflet, Picture, Table, scene_picture
from boardgen.kit.leaflet import leaflet_pdf as typeset
from boardgen.plugin import BuildContext
from boardgen.render.imposition import Paper

BODY_SIZES_PT = (11.0, 10.5, *BODY_SIZES)
"""The shared sizes with two larger ones first (the English words leave half the sixth panel empty at 10 pt)."""

def collapse_table(config: Any, tr: Translator | None = None) -> list[list[str]]:
    from boardgen.games.resilience_earth.rules.engine import collapse_probability

    tr = tr or Translator("en", NullTranslations())
    _, n_ = tr.gettext, tr.ngettext
    t = config.tower
    rows = [[_("tower"), _("topples")]]
    for h in (5, 10, 15, 20, 25, 30):
        if h <= t.stones:
            p = collapse_probability(h, t.collapse_ceiling, t.collapse_midpoint, t.collapse_spread)
            rows.append([n_("{n} stone", "{n} stones", h).format(n=h), tr.percent(p, 1)])
    return rows


def leaflet_content(ctx: BuildContext) -> Leaflet:
    """The leaflet's words in reading order, in the template's language."""
    cfg = ctx.config
    tr = translator(cfg)
    _, n_ = tr.gettext, tr.ngettext
    r, c, p, t = cfg.rules, cfg.costs, cfg.production, cfg.tower
    fm = ctx.board
    per = cfg.components.per_colour
    levels = {lv: sum(1 for f in fm.fields if f.level == lv) for lv in (1, 2, 3)}
    stacks = ", ".join(str(s) for s in t.countdown_stacks)
    blocked = sum(1 for e in cfg.events if e.effect == "blocked")
    out: list[Block] = []
    out.append(Block(paragraphs=(
        _("A game for {min} to {max} players from about 12 years. You spread over the real "
          "Earth, gather resources (<b>RES</b>) and life quality (<b>LQ</b>) - but every town and industry puts a "
          "stone on the <b>Climate Tower</b>. If the tower falls while you add to it, the planet collapses: you "
          "lose, and only life quality counts for everybody else.").format(min=cfg.players.min, max=cfg.players.max),
        _("The board shows the world's land in {fields} fields. Each has a two-digit number: the first "
          "digit is its region (colour), the second the field in that region, so two dice name any field. Pips "
          "show how much a field produces: 1 pip poor ({poor} fields), 2 fair ({fair}), 3 rich "
          "({rich}). The fields were drawn from real coastlines, climates (Köppen-Geiger) and heights: "
          "warm, wet lowlands are rich; deserts, ice and high mountains are poor. Dashed lines join fields that "
          "border each other across a strait.").format(fields=len(fm.fields), poor=levels[1], fair=levels[2],
                                                       rich=levels[3]),
    ), picture=board_picture(ctx)))
    out.append(Block(_("The settlement map"), (
        _("What building costs (RES; +travel to settle far away), the stones it adds, and the RES it pays each "
          "round on a field with 1, 2 or 3 pips (each player has this card):"),
    ), table=Table((("", _("cost"), _("stones"), _("RES a round: 1/2/3 pips")),
                    (_("settlement"), f"{c.settlement} (+{c.travel})", "0", "/".join(map(str, p.settlement))),
                    (_("town"), str(c.town), str(c.town_stones), "/".join(map(str, p.town))),
                    (_("industry"), str(c.industry), str(c.industry_stones), "/".join(map(str, p.industry)))),
                   (0.26, 0.2, 0.18, 0.36))))
    out.append(Block(_("In the box"), (
        _("Board; {stones} tower stones ({blocks}; not printed); "
          "{settlements} settlements, {towns} towns and "
          "{industries} industries in {colours} colours and shapes; "
          "{res} RES and {lq} LQ tokens; "
          "{markers} markers (BLOCKED on one side, DESTROYED on the other); {events} climate "
          "event cards; a sabbatical card and a settlement map per player; the round leader's token; 2 dice.").format(
            stones=t.stones, blocks=block_text(t, tr), settlements=per["settlement"] * cfg.players.max,
            towns=per["town"] * cfg.players.max, industries=per["industry"] * cfg.players.max, colours=cfg.players.max,
            res=sum(cfg.components.res_tokens.values()), lq=sum(cfg.components.lq_tokens.values()),
            markers=cfg.markers.count, events=len(cfg.events)),
    )))
    out.append(Block(_("Setting up"), (
        _("Put the tower stones on the {spaces} countdown spaces around the tower base, in the "
          "order printed there: {stacks}. Shuffle the event cards face down beside them. Everybody takes "
          "{res} RES, a colour, a sabbatical card and a settlement map. The youngest player takes "
          "the round leader's token.").format(spaces=len(t.countdown_stacks), stacks=stacks, res=r.starting_res),
        _("A hidden timer ends the game: before you start, somebody who does not play sets a timer for 50 to 70 "
          "minutes and hides it (in the simulations: after round {first} to {last}, "
          "each equally likely).").format(first=r.first_end_round, last=r.last_end_round),
    )))
    build_limit = (_("as many as you can pay for") if not r.builds_per_turn
                   else _("up to {n}").format(n=r.builds_per_turn))
    if r.sabbatical_limit:
        sabbatical = _("<b>Sabbatical</b>: hand in {cost} RES and take {lq} LQ; you build nothing "
                       "and get no RES this round (at most {limit} times a game).")
    else:
        sabbatical = _("<b>Sabbatical</b>: hand in {cost} RES and take {lq} LQ; you build nothing "
                       "and get no RES this round.")
    out.append(Block(_("Your turn"), (
        _("The round leader plays first, then the others clockwise. On your turn do one of these:"),
        _("<b>Build</b> ({limit}, in any order): <b>settle</b> an empty field that borders one of yours "
          "for {settle} RES, or any empty field on Earth for {far} RES (your first "
          "settlement goes anywhere for {settle}); a new settlement gives {lq} LQ once. "
          "Turn one of your settlements into a <b>town</b> for {town} RES (put {town_stones} "
          "on the tower) or into an <b>industry</b> for {industry} RES ({industry_stones}). "
          "One building per field. A town or industry is built only while the stones it needs are still left "
          "(lifted-off stones and countdown spaces together). You have {per_settlement} settlements, "
          "{per_town} towns and {per_industry} industries of your colour: with every piece of a kind on the "
          "board you build no more of it until one comes back (dismantled or destroyed). "
          "<b>Dismantle</b>: a town or industry becomes a settlement again and you lift "
          "its stones off the tower; a settlement leaves the board and takes its {lq} LQ with it.").format(
            limit=build_limit, settle=c.settlement, far=c.settlement + c.travel, lq=r.settlement_lq,
            town=c.town, town_stones=n_("{n} stone", "{n} stones", c.town_stones).format(n=c.town_stones),
            industry=c.industry,
            industry_stones=n_("{n} stone", "{n} stones", c.industry_stones).format(n=c.industry_stones),
            per_settlement=per["settlement"], per_town=per["town"], per_industry=per["industry"]),
        sabbatical.format(cost=r.sabbatical_cost, lq=r.sabbatical_lq, limit=r.sabbatical_limit),
        _("<b>Nothing</b>: you are content as you are."),
    )))
    if c.industry_stones > 1:
        event_when = _("When a countdown space is emptied, its event space shows: draw a climate event card and "
                       "roll both dice, once every stone of the building is on (an industry's {n} stones all go "
                       "on before the event of a space its first stone emptied).")
    else:
        event_when = _("When a countdown space is emptied, its event space shows: draw a climate event card and "
                       "roll both dice, once every stone of the building is on.")
    out.append(Block(_("Stones and the tower"), (
        _("A stone comes from the stones lifted off earlier (kept beside the tower) or else from the countdown "
          "space in turn. Put each stone on the tower by hand, one at a time, "
          "{per_layer} to a layer and each layer across the one below. If the tower falls, the game "
          "ends at once.").format(per_layer=t.blocks_per_layer),
        event_when.format(n=c.industry_stones) + " " + _(
            "When the last space is emptied its event is still played; then, if the tower stands, the game ends "
            "(the last stone). The dice name the field hit (the coloured region die first, the white field die "
            "second). The card shows which neighbouring fields are hit too: turn the card to the board's north "
            "and follow the compass arrows from the field hit to the bordering field that lies most nearly that "
            "way."),
    )))
    out.append(Block(_("Climate events"), (
        _("{blocked} cards BLOCK fields: they give no RES and take no new building while covered. "
          "{destroy} cards DESTROY: every building on the fields goes back to its owner (its "
          "tower stones stay put) and nobody builds there while covered. A card names its rounds: the marker comes "
          "off at the end of the last one; 'rest of the game' markers stay. When the markers run out, the "
          "remaining fields stay uncovered.").format(blocked=blocked, destroy=len(cfg.events) - blocked),
    )))
    out.append(Block(_("End of the round"), (
        _("Every player not on sabbatical takes RES for each of their buildings on a field that is not blocked "
          "(the settlement map): settlement {settlement}, town {town}, industry {industry} RES on a field with "
          "1/2/3 pips.").format(settlement="/".join(map(str, p.settlement)), town="/".join(map(str, p.town)),
                                industry="/".join(map(str, p.industry))),
        _("Then each player hands in {loss} LQ for every field of theirs that borders an industry "
          "(anybody's) - at most one per field however many industries it borders. LQ never drops below 0: "
          "a loss you cannot pay is simply dropped. Pass the leader's token left.").format(loss=r.industry_lq_loss),
    )))
    out.append(Block(_("The end"), (
        _("<b>The tower falls</b>: whoever added the stone loses. RES are worth nothing: the most LQ wins."),
        _("<b>The timer rings</b> or <b>the last stone</b> is on the tower and it stands: everybody adds RES"
          "{worth} and LQ. Anyone whose RES and LQ are more lopsided than {share} to "
          "{rest} (either way) loses {penalty} points. The highest total wins; "
          "a tie is shared.").format(worth=worth_text(r, tr), share=tr.percent(r.lopsided_share),
                                     rest=tr.percent(1 - r.lopsided_share), penalty=r.lopsided_penalty),
    )))
    out.append(Block(_("An example"), (event_example(ctx, tr), scoring_example(ctx, tr))))
    out.append(Block(_("How shaky is the tower?"), (
        _("The simulations treat the tower as a dice roll: a stone added to a tower of n stones topples it with "
          "chance {ceiling} / (1 + e^(-(n - {midpoint}) / {spread})). Real "
          "blocks decide at your table; the numbers say how careful to be.").format(
            ceiling=tr.number(t.collapse_ceiling), midpoint=tr.number(t.collapse_midpoint),
            spread=tr.number(t.collapse_spread)),
    ), table=Table(tuple(map(tuple, collapse_table(cfg, tr))), (0.5, 0.5))))
    out.append(Block(_("Where the original rules leave room"), (
        _("We fixed costs, production, the {events} cards' patterns and rounds, when the timer may "
          "ring, and the countdown ({stacks}; the original also mentions events after 5, then 4, 4, 3, 3, 3, "
          "3... stones - a template key). Dismantled stones are used again before the countdown. Buildings "
          "standing at the end count as RES, since the original names houses and industries as tangible "
          "resources. Talk, deals and "
          "promises are allowed at any time; they bind nobody.").format(events=len(cfg.events), stacks=stacks),
        _("Resilience Earth was created by Herbert Mayer and Martin Schneider in the ForChange research "
          "association. This edition's words, board and parts were made with boardgen from Natural Earth land, "
          "Köppen-Geiger climate and ETOPO elevation data."),
    )))
    return Leaflet(cfg.title, tuple(out), cfg.source, fold=TRI_FOLD, sheets=(1,), body_sizes_pt=BODY_SIZES_PT,
                   subject=cfg.edition)


def event_example(ctx: BuildContext, tr: Translator | None = None) -> str:
    """A climate event on this very board: the first destroying card with a two-way spread, dice 3 and 4."""
    from boardgen.games.resilience_earth.rules.engine import FieldFacts, pattern_fields

    tr = tr or translator(ctx.config)
    _ = tr.gettext
    cfg = ctx.config
    facts = FieldFacts.from_field_map(ctx.board)
    cards = [e for e in cfg.events if len(e.reach) >= 2 and "all" not in e.reach] or list(cfg.events)
    card = cards[0]
    number = 34 if 34 in facts.numbers else facts.numbers[len(facts.numbers) // 2]
    hit = [facts.numbers[i] for i in pattern_fields(facts, facts.numbers.index(number), card.reach)]
    steps = _(" and ").join(direction_word(d, tr) for d in card.reach) or _("no step")
    others = ", ".join(str(n) for n in hit[1:]) or _("no other field")
    return _("<b>Event.</b> The stone you add empties a countdown space. You draw <i>{card}</i> "
             "({effect}, {steps}) and roll {first} and {second}: field {number} is hit, and "
             "following the card's arrows on this board also {others}.").format(
        card=_(card.name), effect=effect_word(card.effect, tr), steps=steps, first=number // 10,
        second=number % 10, number=number, others=others)


def block_text(tower: Any, tr: Translator) -> str:
    """The tower's stones as the box describes them (size, how they are laid)."""
    if tr.language == "en":
        return str(tower.block_text)
    return tr.gettext("{length} x {width} x {width} mm wooden blocks, {per_layer} to a layer, each layer across "
                      "the one below").format(length=f"{tower.block_length_mm:g}", width=f"{tower.block_width_mm:g}",
                                              per_layer=tower.blocks_per_layer)


def effect_word(effect: str, tr: Translator) -> str:
    """A card's effect as printed ('blocked', 'destroyed')."""
    _ = tr.gettext
    return {"blocked": _("blocked"), "destroyed": _("destroyed")}.get(effect, effect)


def direction_word(direction: str, tr: Translator) -> str:
    """A compass step of a card's pattern as printed ('N', 'SE', 'all')."""
    _ = tr.gettext
    words = {"N": _("N"), "NE": _("NE"), "E": _("E"), "SE": _("SE"), "S": _("S"), "SW": _("SW"), "W": _("W"),
             "NW": _("NW"), "all": _("all")}
    return words.get(direction, direction)


def worth_text(r: Any, tr: Translator | None = None) -> str:
    """What standing buildings count as at the end, as a clause ('' when they count nothing)."""
    tr = tr or Translator("en", NullTranslations())
    w = r.building_res
    if not any(w.values()):
        return ""
    return tr.gettext(" (each standing settlement counts as {settlement} RES, town {town}, "
                      "industry {industry})").format(settlement=w.get("settlement", 0), town=w.get("town", 0),
                                                     industry=w.get("industry", 0))


def scoring_example(ctx: BuildContext, tr: Translator | None = None) -> str:
    tr = tr or translator(ctx.config)
    _ = tr.gettext
    r = ctx.config.rules
    w = r.building_res
    town, industry, settlement = w.get("town", 0), w.get("industry", 0), w.get("settlement", 0)
    a_res, a_lq = 10, 6
    a_tangible = a_res + industry + 2 * town
    b_res, b_lq = 18, 14
    b_tangible = b_res + 3 * settlement
    share = a_tangible / (a_tangible + a_lq)
    lop = share > r.lopsided_share
    a_total = a_tangible + a_lq - (r.lopsided_penalty if lop else 0)
    b_lop = b_tangible / (b_tangible + b_lq) > r.lopsided_share
    b_total = b_tangible + b_lq - (r.lopsided_penalty if b_lop else 0)
    if any(w.values()):
        a_has = _("Ana has {res} RES, an industry and two towns (worth {industry} + {town} + {town}) and {lq} "
                  "LQ").format(res=a_res, industry=industry, town=town, lq=a_lq)
        b_has = _("Ben has {res} RES, three settlements (worth {worth}) and {lq} LQ").format(
            res=b_res, worth=3 * settlement, lq=b_lq)
    else:
        a_has = _("Ana has {res} RES and {lq} LQ").format(res=a_res, lq=a_lq)
        b_has = _("Ben has {res} RES and {lq} LQ").format(res=b_res, lq=b_lq)
    a_sum = (f"{a_tangible} + {a_lq} - {r.lopsided_penalty} = {a_total}" if lop
             else f"{a_tangible} + {a_lq} = {a_total}")
    if lop:
        a_why = _("{share} of her points are RES, more than {limit}, so she scores {sum}").format(
            share=tr.percent(share), limit=tr.percent(r.lopsided_share), sum=a_sum)
    else:
        a_why = _("she scores {sum}").format(sum=a_sum)
    winner = "Ben" if b_total > a_total else "Ana" if a_total > b_total else _("nobody alone")
    return _("<b>Scoring.</b> The timer rings. {a_has}: {a_why}. {b_has} and scores {b_total}: {winner} wins. "
             "Had the tower fallen instead (and not on Ben's or Ana's stone), Ben would win on LQ alone: {b_lq} "
             "to {a_lq}.").format(a_has=a_has, a_why=a_why, b_has=b_has, b_total=b_total, winner=winner,
                                  b_lq=b_lq, a_lq=a_lq)


def board_picture(ctx: BuildContext) -> Picture:
    """The board, small, as wide as the panel (the shared typesetter's scene picture: its words too small to
    read at that size are left out), drawn only when the leaflet is set."""
    from boardgen.games.resilience_earth.board import board_scene

    b = ctx.config.board
    def drawn() -> Picture:  # once per build: every paper and body size the fit loop tries reuses it
        return scene_picture(board_scene(ctx), b.width_mm, b.height_mm)

    return Picture(lambda width_pt: ctx.value("leaflet_board_picture", drawn).make(width_pt))


def leaflet_pdf(ctx: BuildContext, paper: Paper) -> tuple[bytes, int]:
    """The leaflet on one sheet (two sides, six panels) at the largest body size that fits. Words that do not
    fit even at the smallest size are a FitError naming the block and the language, never a cut-off text."""
    with printing_in(translator(ctx.config)):
        return typeset(leaflet_content(ctx), paper)
