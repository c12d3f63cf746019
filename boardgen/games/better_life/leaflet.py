"""The BETTER Life rules leaflet: one landscape sheet folded into a four-page A5 (or half-Letter) booklet.

Every number comes from the template and the deck rows (track spaces, payouts, vote bands, meters, scoring,
the policies with their section of the EU Biodiversity Strategy for 2030). The words are ours. Panels are set
with reportlab platypus at the largest body size that fits four pages (two nested sheets if it ever needs
more) and imposed with pikepdf in folding order: outside [4 | 1], inside [2 | 3]. Fixed PDF ids and reportlab's
``invariant`` keep the bytes the same from build to build.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pikepdf
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, KeepTogether, PageTemplate, Paragraph, Spacer, Table, TableStyle

from boardgen.errors import LayoutError
from boardgen.games.better_life.board import KIND_NAMES, band_name, role_name
from boardgen.games.better_life.cards import Decks
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.i18n import N_, Translator, in_language, translator
from boardgen.render.imposition import Paper
from boardgen.render.typeset import (
    FONT,
    FitError,
    booklet_order,
    finished_leaflet,
    fitted_column_widths,
    plain_text,
    register_fonts,
)

GREEN = colors.HexColor("#2e7d32")
SHADE = colors.HexColor("#eef5ea")
BODY_SIZES_PT = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
MARGIN_MM = 9.0


def _ordinal(n: int, tr: Translator) -> str:
    _ = tr.gettext
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(n) or _("{n}th").format(n=n)


def space_rows(config: BetterLifeTemplate, tr: Translator | None = None) -> list[tuple[str, str, str]]:
    """(kind name, how many on the track, what it does) for every kind the track uses."""
    tr = tr or translator(config)
    _ = tr.gettext
    sp = config.spaces
    counts = Counter("role" if s.startswith("role:") else s for s in config.track.spaces)
    does = {
        "role": _("Your own role's space: take {own} IP from the reserve. Another role's space: pay "
                  "{fee} IP to that player (if you have none, the reserve pays them).").format(
                      own=sp.own_role_ip, fee=sp.other_role_fee),
        "ip": _("Take {n} IP from the reserve.").format(n=sp.ip_space),
        "plus-one": _("Your next roll counts {n} more.").format(n=sp.plus_one),
        "bonus": _("Roll again at once and move on."),
        "skip": _("You miss your next turn."),
        "empty": _("Nothing happens."),
        "fund": _("Pay {n} IP into the Biodiversity Fund (the reserve pays if you are broke).").format(
            n=sp.fund_fee),
        "payout": _("Take everything in the Biodiversity Fund; if it is empty, take {n} IP "
                    "from the reserve.").format(n=sp.empty_fund_payout),
        "event": _("Draw the top event card, read it out, carry it out, put it on the discards. When the pile is "
                   "used up, shuffle the discards into a new pile."),
        "end-of-year": _("Stop here, even with steps left over: you are done for this round."),
    }
    names = {k: _(v) for k, v in dict(KIND_NAMES, role=N_("Role space")).items()}
    order = ["role", "ip", "plus-one", "bonus", "skip", "empty", "fund", "payout", "event", "end-of-year"]
    return [(names[k], str(counts[k]), does[k]) for k in order if counts.get(k)]


def _styles(body: float) -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=FONT, fontSize=body, leading=body * 1.22, spaceAfter=body * 0.35)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=body * 0.86, leading=body * 1.04),
        "h1": ParagraphStyle("h1", parent=base, fontName=FONT + "-Bold", fontSize=body * 2.6, leading=body * 3.0,
                             textColor=GREEN, spaceAfter=body * 0.3),
        "h2": ParagraphStyle("h2", parent=base, fontName=FONT + "-Bold", fontSize=body * 1.25,
                             leading=body * 1.5, textColor=GREEN, spaceBefore=body * 0.5, spaceAfter=body * 0.2),
        "cell": ParagraphStyle("cell", parent=base, fontSize=body * 0.9, leading=body * 1.08, spaceAfter=0),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=FONT + "-Bold", fontSize=body * 0.9,
                                leading=body * 1.08, spaceAfter=0),
    }


def _table(rows: Sequence[Sequence[str]], widths: Sequence[float], st: dict[str, ParagraphStyle],
           header: bool = True) -> Table:
    """A table whose columns hold their longest words (a column too narrow for a word is widened from the
    others; a FitError when the words need more than the panel)."""
    widths = fitted_column_widths(rows, widths, [st["cellb"].fontName if header else st["cell"].fontName,
                                                 st["cell"].fontName],
                                  st["cell"].fontSize, 4.0, f"the leaflet's table {plain_text(rows[0][0])!r}",
                                  by_word=True, first_column_font=st["cellb"].fontName)
    data = [[Paragraph(cell, st["cellb"] if (header and r == 0) or c == 0 else st["cell"])
             for c, cell in enumerate(row)] for r, row in enumerate(rows)]
    t = Table(data, colWidths=list(widths))
    style = [("FONTNAME", (0, 0), (-1, -1), FONT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
             ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
             ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2),
             ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.grey)]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), SHADE))
    t.setStyle(TableStyle(style))
    return t


def leaflet_story(config: BetterLifeTemplate, decks: Decks, board: Any, body: float, width: float) -> list[Any]:
    """The leaflet's flowables in reading order, every number from the template and the decks."""
    register_fonts()
    c = config
    tr = translator(c)
    _, n_ = tr.gettext, tr.ngettext
    st = _styles(body)
    P = Paragraph  # noqa: N806
    s = c.scoring
    v = c.votes
    roles = ", ".join(role_name(r.name, tr) for r in c.roles)
    n_track = len(c.track.spaces)
    goal = c.meters.policy_goal
    buy_off = (_("An event that shows a buy-off price can be cancelled by its drawer paying that many IP to the "
                 "reserve. ")
               if c.event_buy_off else _("Events cannot be bought off. "))
    give = (_("any number of their IP") if c.ip.max_bid is None
            else _("up to {n} of their IP").format(n=c.ip.max_bid))
    story: list[Any] = [
        P(c.title, st["h1"]),
        P(_("<b>{players} players · {start} to {end} · about 90 minutes</b>").format(
            players=c.players.usual, start=c.years.start, end=c.years.end), st["body"]),
        P(_("You lead one of five organisations in a small European region: {roles}. Each of you has plans of "
            "your own, but nature is shared. Every second year the region votes on one target of the EU "
            "Biodiversity Strategy for 2030, and the votes are paid for in Influence Points (IP) that you would "
            "rather keep. Give too little together and everybody loses; give more than the others and someone "
            "else wins.").format(roles=roles), st["body"]),
        P(_("How the game ends"), st["h2"]),
        P(_("<b>Everybody loses at once</b> if the Biodiversity Loss meter reaches {limit}, or if "
            "the Policy meter has not reached {goal} after the last vote in {end}. Otherwise the player "
            "with the most Victory Points (VP) wins; tied players share the win.").format(
                limit=c.meters.loss_limit, goal=goal, end=c.years.end), st["body"]),
        P(_("With {rounds} votes and {success} points for a success and {semi} for a semi-success, "
            "the goal of {goal} needs at least {mix}. That is at least {pool} IP into the "
            "pools over the game.").format(rounds=c.rounds, success=v[2].policy, semi=v[1].policy, goal=goal,
                                           mix=_min_successes(c, tr), pool=_min_pool(c)), st["body"]),
        P(_("What you need"), st["h2"]),
        _table([(_("Part"), _("Count"))] + [(part, str(count)) for part, count, _n in _inventory(c, decks, board)],
               [width * 0.78, width * 0.22], st),
        P(_("Setting up"), st["h2"]),
        P(_("Lay out the board. Put the Policy and Loss markers on 0 and the year marker on {start}. "
            "Shuffle the action, event, policy and Policy Target decks separately. Deal each player a role (or "
            "choose), its mat, role card, pawn and voting screen, {ip} IP, {hand} action cards "
            "and one Policy Target card, which you keep secret to the end. The other IP form the reserve. Pawns "
            "start on Start.").format(start=c.years.start, ip=c.ip.start, hand=c.start_hand), st["body"]),
        P(_("Reveal the first policy card on its place. Deal {market} action cards face up beside the board. "
            "The player who has gone longest without flying starts; play goes clockwise.").format(market=c.market),
          st["body"]),
        P(_("A round (two years)"), st["h2"]),
        P(_("A round is one lap of the track: Start, {n} spaces, then End of Year. On your turn:").format(
            n=n_track - 1), st["body"]),
        P(_("<b>1.</b> You may play your role card (once a round: turn it sideways, and straighten it at End of "
            "Year) and one action card that says <i>before you roll</i>, in either order."), st["body"]),
        P(_("<b>2.</b> Roll the d{sides} and move that many spaces clockwise.").format(sides=c.die_sides),
          st["body"]),
        P(_("<b>3.</b> Do what your space says (table below). Then the next player clockwise who has not finished "
            "takes a turn."), st["body"]),
        _table([(_("Space"), _("On the track"), _("What happens"))] + space_rows(c, tr),
               [width * 0.2, width * 0.14, width * 0.66], st),
        P(_("Reaching End of Year"), st["h2"]),
        P(_("You stop on End of Year even if your roll would carry you past it. The order you arrive in pays: "
            "{pays}. In the same order each finisher takes one of the face-up action cards (the last takes what is "
            "left). Whoever arrives last starts the next round. Cards nobody took are discarded.").format(
                pays=", ".join(_("{place} {n} IP").format(place=_ordinal(i + 1, tr), n=x)
                               for i, x in enumerate(c.finish_ip))), st["body"]),
        P(_("<b>Hand limit.</b> You may hold {n} action cards; your role card does not count. With "
            "more, discard down at once.").format(n=c.hand_limit), st["body"]),
        P(_("Events and action cards"), st["h2"]),
        P(_("Event cards may cost IP, move the Loss meter, skip your next turn or help you. Some look back at "
            "the last vote: they reward whoever gave the most, or fine those who gave nothing. ")
          + buy_off
          + _("A <i>Risk Plan</i> card cancels an event you drew once you have read it out. When the action deck "
              "runs out, shuffle its discards."), st["body"]),
        P(_("<b>An empty reserve.</b> The IP in play never exceed the box. When the reserve is empty, nothing is "
            "taken from it: a payment it owes (finishing IP, a space, a card or an event) is paid only as far as "
            "it goes and the rest is lost. IP come back to the reserve "
            "with every vote's pool, every payment to the reserve and every card that returns IP."), st["body"]),
        P(_("The End of Year vote"), st["h2"]),
        P(_("When every pawn stands on End of Year, the region votes on the policy card on the board. Talk for "
            "two minutes: promise, bargain, bluff; nothing said is binding. Then each player takes "
            "{give} from behind their screen into a closed fist, zero included. Everyone opens at the same moment; "
            "the IP go into the communal pool, are counted and return to the reserve, never to the players. "
            "Remember who gave the most and who gave nothing: two events ask about the last vote. Deals are "
            "words only: IP and cards change hands only as the rules say.").format(give=give), st["body"]),
        _table([(_("Pool"), _("Result"), _("Policy"), _("Loss"))]
               + [(_("{low}+ IP").format(low=b.min_ip) if i == 2
                   else _("{low} to {high} IP").format(low=b.min_ip, high=v[i + 1].min_ip - 1),
                   _capital(band_name(b.name, tr)), f"{b.policy:+d}", f"{b.loss:+d}") for i, b in enumerate(v)],
               [width * 0.28, width * 0.32, width * 0.2, width * 0.2], st),
        P(_("Lay the card face up beside the board in a row for its result (success, semi, weak): you score "
            "from these rows at the end, and it is never voted on again. The Loss meter never goes below 0. "
            "Move the year "
            "marker on {years} years. If the Loss meter reached {limit}, the game ends "
            "now. Otherwise put all pawns back on Start, reveal the next policy, deal new face-up action cards and "
            "begin the next round.").format(years=c.years.per_round, limit=c.meters.loss_limit), st["body"]),
        P(_("Victory Points"), st["h2"]),
        KeepTogether([  # the table and how to read it stay on one page
            _table([(_("Your Policy Target"), _("Success"), _("Semi")),
                    (_("Primary"), str(s.primary.success), str(s.primary.semi)),
                    (_("Secondary"), str(s.secondary.success), str(s.secondary.semi)),
                    (_("Tertiary"), str(s.tertiary.success), str(s.tertiary.semi))],
                   [width * 0.5, width * 0.25, width * 0.25], st),
            P(_("Add 1 VP for every {n} IP you still hold. A policy that was never voted on, or was "
                "weak, scores nothing. There are {policies} policies and only {rounds} votes.").format(
                    n=s.ip_per_vp, policies=len(decks.policies), rounds=c.rounds),
              st["body"])]),
        P(_("The policies"), st["h2"]),
        _table([(tr.pgettext("the policies table", "Policy"), _("The 2030 target (section of the strategy)"))]
               + [(p.title, f"{p.goal} ({p.section})") for p in decks.policies],
               [width * 0.3, width * 0.7], st),
        P(_("Designer's notes"), st["h2"]),
        P(_("The original rules leave some things open; this edition decides them. The track has {n} spaces "
            "after Start, so a lap takes about seven turns. Each role has {per_role} spaces of its own. The "
            "box holds {box} IP. Five votes for a goal of {goal} mean the table must pay for at least "
            "{mix}: a player who never pays can still win, but only if the others carry them. "
            "These choices are template keys: see docs/better-life.md.").format(
                n=n_track, per_role=_per_role(c, tr), box=c.ip.box, goal=goal, mix=_min_successes(c, tr)),
          st["small"]),
        P(_("Policies: European Commission, <i>EU Biodiversity Strategy for 2030: Bringing nature back into our "
            "lives</i>, COM(2020) 380 final. Game concept: the BETTER Life educational board game."), st["small"]),
    ]
    del n_
    return story


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _per_role(c: BetterLifeTemplate, tr: Translator) -> str:
    counts = {sum(1 for s in c.track.spaces if s == f"role:{r.key}") for r in c.roles}
    return tr.gettext(" to ").join(str(x) for x in sorted(counts))


def _min_successes(c: BetterLifeTemplate, tr: Translator) -> str:
    """The cheapest mix of results that reaches the policy goal in the available votes, in words."""
    best: tuple[int, int, int] | None = None
    v = c.votes
    for succ in range(c.rounds + 1):
        for semi in range(c.rounds - succ + 1):
            if succ * v[2].policy + semi * v[1].policy >= c.meters.policy_goal:
                cost = succ * v[2].min_ip + semi * v[1].min_ip
                if best is None or cost < best[0]:
                    best = (cost, succ, semi)
    if best is None:
        return tr.gettext("more votes than the game has (the goal cannot be reached)")
    _cost, succ, semi = best
    parts = [tr.ngettext("{n} successful vote", "{n} successful votes", succ).format(n=succ)]
    if semi:
        parts.append(tr.ngettext("{n} semi-successful one", "{n} semi-successful ones", semi).format(n=semi))
    return tr.gettext(" and ").join(parts)

def _min_pool(c: BetterLifeTemplate) -> int:
    v = c.votes
    costs = []
    for succ in range(c.rounds + 1):
        for semi in range(c.rounds - succ + 1):
            if succ * v[2].policy + semi * v[1].policy >= c.meters.policy_goal:
                costs.append(succ * v[2].min_ip + semi * v[1].min_ip)
    return min(costs) if costs else 0


def _inventory(c: BetterLifeTemplate, decks: Decks, board: Any) -> list[tuple[str, int, str]]:
    from boardgen.games.better_life.kit import inventory

    return inventory(c, decks, board)


def _panels(config: BetterLifeTemplate, decks: Decks, board: Any, panel_w: float, panel_h: float,
            body: float) -> tuple[bytes, int]:
    register_fonts()
    buf = io.BytesIO()
    doc = BaseDocTemplate(buf, pagesize=(panel_w, panel_h), leftMargin=MARGIN_MM * mm, rightMargin=MARGIN_MM * mm,
                          topMargin=MARGIN_MM * mm, bottomMargin=(MARGIN_MM + 6) * mm, invariant=1,
                          initialFontName=FONT,
                          title=translator(config).gettext("{title}: rules").format(title=config.title),
                          author="boardgen", creator="boardgen")
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="panel", leftPadding=0,
                  rightPadding=0, topPadding=0, bottomPadding=0)

    def number(canvas: Canvas, d: Any) -> None:
        canvas.setFont(FONT, 6.5)
        canvas.drawCentredString(panel_w / 2, (MARGIN_MM + 3) * mm, str(d.page))

    doc.addPageTemplates([PageTemplate("panel", [frame], onPage=number)])
    story: list[Any] = []
    items = leaflet_story(config, decks, board, body, doc.width)
    k = 0
    while k < len(items):  # a heading stays with what follows it
        item = items[k]
        if isinstance(item, Paragraph) and item.style.name == "h2" and k + 1 < len(items):
            story.append(KeepTogether([item, items[k + 1]]))
            k += 2
            continue
        story.append(KeepTogether([item]) if isinstance(item, Table) else item)
        k += 1
    story.append(Spacer(1, 1))
    doc.build(story)
    data = buf.getvalue()
    return data, len(pikepdf.open(io.BytesIO(data)).pages)


def _decor(sheet: Paper, sides: int, title: str, ruler: str) -> bytes:
    register_fonts()
    w, h = sheet.width_mm * mm, sheet.height_mm * mm
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=FONT)
    c.setTitle(title)
    for side in range(sides):
        c.setLineWidth(0.4)
        c.setDash(2, 2)
        c.line(w / 2, h - 5 * mm, w / 2, h - 9 * mm)  # fold marks: 5 mm in from the edge, where printers print
        c.line(w / 2, 5 * mm, w / 2, 9 * mm)
        c.setDash()
        if side % 2 == 0:  # outside: the ruler at the foot of the back cover
            x0, y0 = 12 * mm, 8.5 * mm
            c.setLineWidth(0.3)
            c.line(x0, y0, x0 + 100 * mm, y0)
            for k in range(0, 101, 5):
                c.line(x0 + k * mm, y0, x0 + k * mm, y0 + (2.2 if k % 10 == 0 else 1.2) * mm)
            c.setFont(FONT, 6)
            c.drawString(x0, 5.5 * mm, ruler)
        c.showPage()
    c.save()
    return buf.getvalue()


def _impose(config: BetterLifeTemplate, sheet: Paper, panels: bytes, count: int) -> tuple[bytes, int]:
    pages = 4 * math.ceil(count / 4)
    order = booklet_order(pages)
    w, h = sheet.width_mm * mm, sheet.height_mm * mm
    half = w / 2
    _ = translator(config).gettext
    title = _("{title}: rules").format(title=config.title)
    decor = pikepdf.open(io.BytesIO(_decor(sheet, len(order), title, _(
        "This bar must measure 100 mm: print at 100%, double-sided, flip on the short edge, fold in half."))))
    source = pikepdf.open(io.BytesIO(panels))
    out = pikepdf.new()
    for left, right in order:
        out.pages.append(decor.pages[len(out.pages)])
        page = out.pages[-1]
        page.contents_coalesce()
        placed: list[bytes] = []
        for number, x0 in ((left, 0.0), (right, half)):
            if number > count:
                continue
            formx = out.copy_foreign(source.pages[number - 1].as_form_xobject())
            key = page.add_resource(formx, pikepdf.Name.XObject, pikepdf.Name(f"/Panel{number}"))
            placement = page.calc_form_xobject_placement(formx, key, pikepdf.Rectangle(x0, 0, x0 + half, h),
                                                         invert_transformations=True, allow_shrink=True,
                                                         allow_expand=True)
            placed.append(b"q\n" + placement + b"\nQ\n")
        page.contents_add(pikepdf.Stream(out, b"q\n"), prepend=True)
        page.contents_add(pikepdf.Stream(out, b"Q\n" + b"".join(placed)))
        box = pikepdf.Array([0, 0, round(w, 3), round(h, 3)])
        page.obj.MediaBox = box
        page.obj.TrimBox = box
    out.docinfo["/Title"] = title
    out.docinfo["/Creator"] = "boardgen"
    buf = io.BytesIO()
    out.save(buf, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return finished_leaflet(buf.getvalue()), len(order)


def leaflet_pdf(config: BetterLifeTemplate, decks: Decks, paper: Paper, board: Any) -> tuple[bytes, int]:
    """(PDF bytes, printed sides): the largest body size that fits one folded sheet; else two sheets."""
    sheet = paper.landscape()
    panel_w, panel_h = sheet.width_mm / 2 * mm, sheet.height_mm * mm
    first: tuple[bytes, int] | None = None
    too_narrow: FitError | None = None
    for body in BODY_SIZES_PT:
        try:
            data, count = _panels(config, decks, board, panel_w, panel_h, body)
        except FitError as exc:  # a word wider than its column at this size: try a smaller one
            too_narrow = too_narrow or exc
            continue
        first = first or (data, count)
        if count <= 4:
            return _impose(config, sheet, data, count)
    if first is None:
        assert too_narrow is not None
        with in_language(config):
            raise FitError(f"{config.source}: {too_narrow}")
    if first[1] > 8:
        raise LayoutError(f"{config.source}: the leaflet needs {first[1]} pages; at most 8 fit two sheets")
    return _impose(config, sheet, *first)
