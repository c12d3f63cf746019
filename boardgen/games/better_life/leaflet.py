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
from boardgen.games.better_life.board import KIND_NAMES
from boardgen.games.better_life.cards import Decks
from boardgen.games.better_life.model import BetterLifeTemplate
from boardgen.render.imposition import Paper
from boardgen.render.typeset import FONT, booklet_order, finished_leaflet, register_fonts

GREEN = colors.HexColor("#2e7d32")
SHADE = colors.HexColor("#eef5ea")
BODY_SIZES_PT = (10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)
MARGIN_MM = 9.0


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def space_rows(config: BetterLifeTemplate) -> list[tuple[str, str, str]]:
    """(kind name, how many on the track, what it does) for every kind the track uses."""
    sp = config.spaces
    counts = Counter("role" if s.startswith("role:") else s for s in config.track.spaces)
    does = {
        "role": f"Your own role's space: take {sp.own_role_ip} IP from the reserve. Another role's space: pay "
                f"{sp.other_role_fee} IP to that player (if you have none, the reserve pays them).",
        "ip": f"Take {sp.ip_space} IP from the reserve.",
        "plus-one": f"Your next roll counts {sp.plus_one} more.",
        "bonus": "Roll again at once and move on.",
        "skip": "You miss your next turn.",
        "empty": "Nothing happens.",
        "fund": f"Pay {sp.fund_fee} IP into the Biodiversity Fund (the reserve pays if you are broke).",
        "payout": f"Take everything in the Biodiversity Fund; if it is empty, take {sp.empty_fund_payout} IP "
                  "from the reserve.",
        "event": "Draw the top event card, read it out, carry it out, put it on the discards. When the pile is "
                 "used up, shuffle the discards into a new pile.",
        "end-of-year": "Stop here, even with steps left over: you are done for this round.",
    }
    names = dict(KIND_NAMES, role="Role space")
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
    st = _styles(body)
    P = Paragraph  # noqa: N806
    s = c.scoring
    v = c.votes
    roles = ", ".join(r.name for r in c.roles)
    n_track = len(c.track.spaces)
    goal = c.meters.policy_goal
    story: list[Any] = [
        P(c.title, st["h1"]),
        P(f"<b>{c.players} players · {c.years.start} to {c.years.end} · about 90 minutes</b>", st["body"]),
        P(f"You lead one of five organisations in a small European region: {roles}. Each of you has plans of "
          "your own, but nature is shared. Every second year the region votes on one target of the EU "
          "Biodiversity Strategy for 2030, and the votes are paid for in Influence Points (IP) that you would "
          "rather keep. Give too little together and everybody loses; give more than the others and someone "
          "else wins.", st["body"]),
        P("How the game ends", st["h2"]),
        P(f"<b>Everybody loses at once</b> if the Biodiversity Loss meter reaches {c.meters.loss_limit}, or if "
          f"the Policy meter has not reached {goal} after the last vote in {c.years.end}. Otherwise the player "
          "with the most Victory Points (VP) wins; tied players share the win.", st["body"]),
        P(f"With {c.rounds} votes and {v[2].policy} points for a success and {v[1].policy} for a semi-success, "
          f"the goal of {goal} needs at least {_min_successes(c)}. That is at least {_min_pool(c)} IP into the "
          "pools over the game.", st["body"]),
        P("What you need", st["h2"]),
        _table([("Part", "Count")] + [(part, str(count)) for part, count, _n in _inventory(c, decks, board)],
               [width * 0.78, width * 0.22], st),
        P("Setting up", st["h2"]),
        P(f"Lay out the board. Put the Policy and Loss markers on 0 and the year marker on {c.years.start}. "
          f"Shuffle the action, event, policy and Policy Target decks separately. Deal each player a role (or "
          f"choose), its mat, role card, pawn and voting screen, {c.ip.start} IP, {c.start_hand} action cards "
          "and one Policy Target card, which you keep secret to the end. The other IP form the reserve. Pawns "
          "start on Start.", st["body"]),
        P(f"Reveal the first policy card on its place. Deal {c.market} action cards face up beside the board. "
          "The player who has gone longest without flying starts; play goes clockwise.", st["body"]),
        P("A round (two years)", st["h2"]),
        P(f"A round is one lap of the track: Start, {n_track - 1} spaces, then End of Year. On your turn:",
          st["body"]),
        P("<b>1.</b> You may play your role card (once a round: turn it sideways, and straighten it at End of "
          "Year) and one action card that says <i>before you roll</i>, in either order.", st["body"]),
        P(f"<b>2.</b> Roll the d{c.die_sides} and move that many spaces clockwise.", st["body"]),
        P("<b>3.</b> Do what your space says (table below). Then the next player clockwise who has not finished "
          "takes a turn.", st["body"]),
        _table([("Space", "On the track", "What happens")] + space_rows(c),
               [width * 0.2, width * 0.14, width * 0.66], st),
        P("Reaching End of Year", st["h2"]),
        P("You stop on End of Year even if your roll would carry you past it. The order you arrive in pays: "
          + ", ".join(f"{_ordinal(i + 1)} {x} IP" for i, x in enumerate(c.finish_ip))
          + ". In the same order each finisher takes one of the face-up action cards (the last takes what is "
          "left). Whoever arrives last starts the next round. Cards nobody took are discarded.", st["body"]),
        P(f"<b>Hand limit.</b> You may hold {c.hand_limit} action cards; your role card does not count. With "
          "more, discard down at once.", st["body"]),
        P("Events and action cards", st["h2"]),
        P("Event cards may cost IP, move the Loss meter, skip your next turn or help you. Some look back at "
          "the last vote: they reward whoever gave the most, or fine those who gave nothing. "
          + ("An event that shows a buy-off price can be cancelled by its drawer paying that many IP to the "
             "reserve. "
             if c.event_buy_off else "Events cannot be bought off. ")
          + "A <i>Risk Plan</i> card cancels an event you drew once you have read it out. When the action deck "
          "runs out, shuffle its discards.", st["body"]),
        P("<b>An empty reserve.</b> The IP in play never exceed the box. When the reserve is empty, nothing is "
          "taken from it: a payment it owes (finishing IP, a space, a card or an event) is paid only as far as "
          "it goes and the rest is lost. IP come back to the reserve "
          "with every vote's pool, every payment to the reserve and every card that returns IP.", st["body"]),
        P("The End of Year vote", st["h2"]),
        P("When every pawn stands on End of Year, the region votes on the policy card on the board. Talk for "
          "two minutes: promise, bargain, bluff; nothing said is binding. Then each player takes "
          + ("any number of their IP" if c.ip.max_bid is None else f"up to {c.ip.max_bid} of their IP")
          + " from behind their screen into a closed fist, zero included. Everyone opens at the same moment; "
          "the IP go into the communal pool, are counted and return to the reserve, never to the players. "
          "Remember who gave the most and who gave nothing: two events ask about the last vote. Deals are "
          "words only: IP and cards change hands only as the rules say.", st["body"]),
        _table([("Pool", "Result", "Policy", "Loss")]
               + [(f"{b.min_ip}{'+' if i == 2 else f' to {v[i + 1].min_ip - 1}'} IP", b.name.capitalize(),
                   f"{b.policy:+d}", f"{b.loss:+d}") for i, b in enumerate(v)],
               [width * 0.28, width * 0.32, width * 0.2, width * 0.2], st),
        P(f"Lay the card face up beside the board in a row for its result (success, semi, weak): you score "
          f"from these rows at the end, and it is never voted on again. The Loss meter never goes below 0. "
          f"Move the year "
          f"marker on {c.years.per_round} years. If the Loss meter reached {c.meters.loss_limit}, the game ends "
          "now. Otherwise put all pawns back on Start, reveal the next policy, deal new face-up action cards and "
          "begin the next round.", st["body"]),
        P("Victory Points", st["h2"]),
        KeepTogether([  # the table and how to read it stay on one page
            _table([("Your Policy Target", "Success", "Semi"),
                    ("Primary", str(s.primary.success), str(s.primary.semi)),
                    ("Secondary", str(s.secondary.success), str(s.secondary.semi)),
                    ("Tertiary", str(s.tertiary.success), str(s.tertiary.semi))],
                   [width * 0.5, width * 0.25, width * 0.25], st),
            P(f"Add 1 VP for every {s.ip_per_vp} IP you still hold. A policy that was never voted on, or was "
              f"weak, scores nothing. There are {len(decks.policies)} policies and only {c.rounds} votes.",
              st["body"])]),
        P("The policies", st["h2"]),
        _table([("Policy", "The 2030 target (section of the strategy)")]
               + [(p.title, f"{p.goal} ({p.section})") for p in decks.policies],
               [width * 0.3, width * 0.7], st),
        P("Designer's notes", st["h2"]),
        P(f"The original rules leave some things open; this edition decides them. The track has {n_track} spaces "
          f"after Start, so a lap takes about seven turns. Each role has {_per_role(c)} spaces of its own. The "
          f"box holds {c.ip.box} IP. Five votes for a goal of {goal} mean the table must pay for at least "
          f"{_min_successes(c)}: a player who never pays can still win, but only if the others carry them. "
          "These choices are template keys: see docs/better-life.md.", st["small"]),
        P("Policies: European Commission, <i>EU Biodiversity Strategy for 2030: Bringing nature back into our "
          "lives</i>, COM(2020) 380 final. Game concept: the BETTER Life educational board game.", st["small"]),
    ]
    return story


def _per_role(c: BetterLifeTemplate) -> str:
    counts = {sum(1 for s in c.track.spaces if s == f"role:{r.key}") for r in c.roles}
    return " to ".join(str(x) for x in sorted(counts))


def _min_successes(c: BetterLifeTemplate) -> str:
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
        return "more votes than the game has (the goal cannot be reached)"
    _cost, succ, semi = best
    parts = [f"{succ} successful vote{'s' if succ != 1 else ''}"]
    if semi:
        parts.append(f"{semi} semi-successful one{'s' if semi != 1 else ''}")
    return " and ".join(parts)


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
                          initialFontName=FONT, title=f"{config.title}: rules", author="boardgen", creator="boardgen")
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


def _decor(sheet: Paper, sides: int, title: str) -> bytes:
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
            c.drawString(x0, 5.5 * mm, "This bar must measure 100 mm: print at 100%, double-sided, flip on the "
                         "short edge, fold in half.")
        c.showPage()
    c.save()
    return buf.getvalue()


def _impose(config: BetterLifeTemplate, sheet: Paper, panels: bytes, count: int) -> tuple[bytes, int]:
    pages = 4 * math.ceil(count / 4)
    order = booklet_order(pages)
    w, h = sheet.width_mm * mm, sheet.height_mm * mm
    half = w / 2
    decor = pikepdf.open(io.BytesIO(_decor(sheet, len(order), f"{config.title}: rules")))
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
    out.docinfo["/Title"] = f"{config.title}: rules"
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
    for body in BODY_SIZES_PT:
        data, count = _panels(config, decks, board, panel_w, panel_h, body)
        first = first or (data, count)
        if count <= 4:
            return _impose(config, sheet, data, count)
    assert first is not None
    if first[1] > 8:
        raise LayoutError(f"{config.source}: the leaflet needs {first[1]} pages; at most 8 fit two sheets")
    return _impose(config, sheet, *first)
