"""The BETTER Life rules leaflet's words: one landscape sheet folded into a four-page A5 (or half-Letter) booklet.

Every number comes from the template and the deck rows (track spaces, payouts, vote bands, meters, scoring,
the policies with their section of the EU Biodiversity Strategy for 2030). The words are ours; the shared
typesetter (``boardgen.kit.leaflet``) sets them, fits them and folds the sheet.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from boardgen.games.better_life.board import KIND_NAMES, band_name, role_name
from boardgen.games.better_life.cards import Decks
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.i18n import N_, Translator, printing_in, translator
from boardgen.kit.leaflet import HALF_FOLD, Block, Leaflet, Table
from boardgen.kit.leaflet import leaflet_pdf as typeset
from boardgen.render.imposition import Paper

GREEN = "#2e7d32"


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


def leaflet_content(config: BetterLifeTemplate, decks: Decks, board: Any) -> Leaflet:
    """The leaflet's words in reading order, every number from the template and the decks."""
    c = config
    tr = translator(c)
    _ = tr.gettext
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
    blocks = [
        Block(paragraphs=(
            _("<b>{players} players · {start} to {end} · about 90 minutes</b>").format(
                players=c.players.usual, start=c.years.start, end=c.years.end),
            _("You lead one of five organisations in a small European region: {roles}. Each of you has plans of "
              "your own, but nature is shared. Every second year the region votes on one target of the EU "
              "Biodiversity Strategy for 2030, and the votes are paid for in Influence Points (IP) that you would "
              "rather keep. Give too little together and everybody loses; give more than the others and someone "
              "else wins.").format(roles=roles))),
        Block(_("How the game ends"), (
            _("<b>Everybody loses at once</b> if the Biodiversity Loss meter reaches {limit}, or if "
              "the Policy meter has not reached {goal} after the last vote in {end}. Otherwise the player "
              "with the most Victory Points (VP) wins; tied players share the win.").format(
                  limit=c.meters.loss_limit, goal=goal, end=c.years.end),
            _("With {rounds} votes and {success} points for a success and {semi} for a semi-success, "
              "the goal of {goal} needs at least {mix}. That is at least {pool} IP into the "
              "pools over the game.").format(rounds=c.rounds, success=v[2].policy, semi=v[1].policy, goal=goal,
                                             mix=_min_successes(c, tr), pool=_min_pool(c)))),
        Block(_("What you need"), table=Table(
            ((_("Part"), _("Count")), *((part, str(count)) for part, count, _n in _inventory(c, decks, board))),
            (0.78, 0.22), bold_first_column=True)),
        Block(_("Setting up"), (
            _("Lay out the board. Put the Policy and Loss markers on 0 and the year marker on {start}. "
              "Shuffle the action, event, policy and Policy Target decks separately. Deal each player a role (or "
              "choose), its mat, role card, pawn and voting screen, {ip} IP, {hand} action cards "
              "and one Policy Target card, which you keep secret to the end. The other IP form the reserve. Pawns "
              "start on Start.").format(start=c.years.start, ip=c.ip.start, hand=c.start_hand),
            _("Reveal the first policy card on its place. Deal {market} action cards face up beside the board. "
              "The player who has gone longest without flying starts; play goes clockwise.").format(
                  market=c.market))),
        Block(_("A round (two years)"), (
            _("A round is one lap of the track: Start, {n} spaces, then End of Year. On your turn:").format(
                n=n_track - 1),
            _("<b>1.</b> You may play your role card (once a round: turn it sideways, and straighten it at End of "
              "Year) and one action card that says <i>before you roll</i>, in either order."),
            _("<b>2.</b> Roll the d{sides} and move that many spaces clockwise.").format(sides=c.die_sides),
            _("<b>3.</b> Do what your space says (table below). Then the next player clockwise who has not "
              "finished takes a turn.")),
            table=Table(((_("Space"), _("On the track"), _("What happens")), *space_rows(c, tr)), (0.2, 0.14, 0.66),
                        bold_first_column=True)),
        Block(_("Reaching End of Year"), (
            _("You stop on End of Year even if your roll would carry you past it. The order you arrive in pays: "
              "{pays}. In the same order each finisher takes one of the face-up action cards (the last takes what "
              "is left). Whoever arrives last starts the next round. Cards nobody took are discarded.").format(
                  pays=", ".join(_("{place} {n} IP").format(place=_ordinal(i + 1, tr), n=x)
                                 for i, x in enumerate(c.finish_ip))),
            _("<b>Hand limit.</b> You may hold {n} action cards; your role card does not count. With "
              "more, discard down at once.").format(n=c.hand_limit))),
        Block(_("Events and action cards"), (
            _("Event cards may cost IP, move the Loss meter, skip your next turn or help you. Some look back at "
              "the last vote: they reward whoever gave the most, or fine those who gave nothing. ")
            + buy_off
            + _("A <i>Risk Plan</i> card cancels an event you drew once you have read it out. When the action deck "
                "runs out, shuffle its discards."),
            _("<b>An empty reserve.</b> The IP in play never exceed the box. When the reserve is empty, nothing is "
              "taken from it: a payment it owes (finishing IP, a space, a card or an event) is paid only as far as "
              "it goes and the rest is lost. IP come back to the reserve "
              "with every vote's pool, every payment to the reserve and every card that returns IP."))),
        Block(_("The End of Year vote"), (
            _("When every pawn stands on End of Year, the region votes on the policy card on the board. Talk for "
              "two minutes: promise, bargain, bluff; nothing said is binding. Then each player takes "
              "{give} from behind their screen into a closed fist, zero included. Everyone opens at the same "
              "moment; the IP go into the communal pool, are counted and return to the reserve, never to the "
              "players. Remember who gave the most and who gave nothing: two events ask about the last vote. "
              "Deals are words only: IP and cards change hands only as the rules say.").format(give=give),),
            table=Table(((_("Pool"), _("Result"), _("Policy"), _("Loss")),
                         *((_("{low}+ IP").format(low=b.min_ip) if i == 2
                            else _("{low} to {high} IP").format(low=b.min_ip, high=v[i + 1].min_ip - 1),
                            _capital(band_name(b.name, tr)), f"{b.policy:+d}", f"{b.loss:+d}")
                           for i, b in enumerate(v))),
                        (0.28, 0.32, 0.2, 0.2), bold_first_column=True),
            after=(_("Lay the card face up beside the board in a row for its result (success, semi, weak): you score "
                     "from these rows at the end, and it is never voted on again. The Loss meter never goes below 0. "
                     "Move the year "
                     "marker on {years} years. If the Loss meter reached {limit}, the game ends "
                     "now. Otherwise put all pawns back on Start, reveal the next policy, deal new face-up action "
                     "cards and begin the next round.").format(years=c.years.per_round, limit=c.meters.loss_limit),)),
        Block(_("Victory Points"), table=Table(
            ((_("Your Policy Target"), _("Success"), _("Semi")),
             (_("Primary"), str(s.primary.success), str(s.primary.semi)),
             (_("Secondary"), str(s.secondary.success), str(s.secondary.semi)),
             (_("Tertiary"), str(s.tertiary.success), str(s.tertiary.semi))), (0.5, 0.25, 0.25),
            bold_first_column=True),
            after=(_("Add 1 VP for every {n} IP you still hold. A policy that was never voted on, or was "
                     "weak, scores nothing. There are {policies} policies and only {rounds} votes.").format(
                         n=s.ip_per_vp, policies=len(decks.policies), rounds=c.rounds),),
            keep_together=True),  # the table and how to read it stay on one page
        Block(_("The policies"), table=Table(
            ((tr.pgettext("the policies table", "Policy"), _("The 2030 target (section of the strategy)")),
             *((p.title, f"{p.goal} ({p.section})") for p in decks.policies)), (0.3, 0.7), bold_first_column=True)),
        Block(_("Designer's notes"), (
            _("The original rules leave some things open; this edition decides them. The track has {n} spaces "
              "after Start, so a lap takes about seven turns. Each role has {per_role} spaces of its own. The "
              "box holds {box} IP. Five votes for a goal of {goal} mean the table must pay for at least "
              "{mix}: a player who never pays can still win, but only if the others carry them. "
              "These choices are template keys: see docs/better-life.md.").format(
                  n=n_track, per_role=_per_role(c, tr), box=c.ip.box, goal=goal, mix=_min_successes(c, tr)),
            _("Policies: European Commission, <i>EU Biodiversity Strategy for 2030: Bringing nature back into our "
              "lives</i>, COM(2020) 380 final. Game concept: the BETTER Life educational board game.")), small=True),
    ]
    return Leaflet(c.title, tuple(blocks), c.source, accent=GREEN, fold=HALF_FOLD, sheets=(1, 2),
                   subject=c.edition)


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


def leaflet_pdf(config: BetterLifeTemplate, decks: Decks, paper: Paper, board: Any) -> tuple[bytes, int]:
    """(PDF bytes, printed sides): one folded sheet at the largest size that fits, else two nested sheets."""
    with printing_in(translator(config)):
        return typeset(leaflet_content(config, decks, board), paper)
