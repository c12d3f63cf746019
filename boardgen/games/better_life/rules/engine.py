"""The BETTER Life rules engine on the OpenSpiel-shaped API (``boardgen.play.api``).

Node kinds:

- CHANCE: the deal (each seat's role, each seat's policy target card, the starting hands), each year's policy,
  the face-up action cards of a round, every die roll (the move and a Bonus space's extra roll) and every card
  draw. A draw picks one of the cards left in the pile with probability proportional to its copies, which is
  the same law as shuffling the pile and taking the top card; when a pile runs out its discards go back in
  (counted as a reshuffle) and the next draw is again a chance node. A test forces any outcome by applying it.
- a seat: the turn player decides before the roll (play the role card, one regular card, then roll), answers an
  event (accept it, cancel it with a card, buy it off with IP), picks a face-up card on reaching End of Year, and
  discards down to the hand limit.
- SIMULTANEOUS: the sealed bids at each End of Year; every seat's bid (0 up to its IP) arrives in one
  ``apply_actions`` and only then is anything revealed.
- TERMINAL: after the last vote, or as soon as biodiversity loss reaches the limit.

Everybody loses (``Outcome.winners == ()``) when the loss meter reaches its limit or the policy meter ends below
its goal; otherwise the most Victory Points win (ties share the win). Observations hide other players' IP,
hands, policy targets and bids not yet revealed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from boardgen.games.better_life.cards import ActionCard, Decks, EventCard
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Outcome, State

ROLL = 0
PLAY_ROLE = 1
ACCEPT_EVENT = 2
CANCEL_EVENT = 3
BUY_OFF = 4
PLAY_BASE = 10
PICK_BASE = 50
DISCARD_BASE = 90
BID_BASE = 130
MAX_DESIGNS = 40
# what ``Outcome.events`` counts (every name from the start, so a rule no game used shows as 0), before the
# vote bands ("vote-<band>") and the event cards ("event-<id>")
RULE_EVENTS = ("role-card", "action-card", "event-cancelled", "event-bought-off", "market-pick", "hand-limit-discard",
               "team-loss-policy", "team-loss-meter", "action-reshuffle", "event-reshuffle", "turn-skipped",
               "reserve-empty", "space-role-own", "space-role-other", "space-skip", "space-ip", "space-plus-one",
               "space-bonus", "space-empty", "space-fund", "space-payout", "space-event", "finish", "restored")


@dataclass(frozen=True)
class Rules:
    """The template and decks in the flat form the engine reads on every move."""

    config: BetterLifeTemplate
    decks: Decks
    track: tuple[str, ...]  # index 0 = Start, last = End of Year
    role_keys: tuple[str, ...]
    role_cards: tuple[ActionCard, ...]  # by role index
    actions: tuple[ActionCard, ...]  # regular designs (a card in a hand is an index into this)
    action_counts: tuple[int, ...]
    events: tuple[EventCard, ...]
    event_counts: tuple[int, ...]
    target_counts: tuple[int, ...]

    @staticmethod
    def of(config: BetterLifeTemplate, decks: Decks) -> Rules:
        regular = decks.regular_actions
        if len(regular) > MAX_DESIGNS or len(decks.events) > MAX_DESIGNS:
            raise ValueError(f"at most {MAX_DESIGNS} card designs per deck")
        return Rules(config, decks, ("start", *config.track.spaces), tuple(r.key for r in config.roles),
                     tuple(decks.action(r.card) for r in config.roles), regular,
                     tuple(c.quantity for c in regular), decks.events, tuple(c.quantity for c in decks.events),
                     tuple(t.quantity for t in decks.targets))

    @property
    def end(self) -> int:
        return len(self.track) - 1

    @property
    def event_names(self) -> tuple[str, ...]:
        """Every rule count of ``Outcome.events``, in this order."""
        return (*RULE_EVENTS, *(f"vote-{b.name}" for b in self.config.votes), *(f"event-{e.id}" for e in self.events))

    @property
    def bid_cap(self) -> int:
        """The largest bid: the template's ``ip.max_bid`` house rule, else every IP a player can hold (the
        players' IP never grow beyond the box, or what they started with if that is more)."""
        ip = self.config.ip
        if ip.max_bid is not None:
            return ip.max_bid
        return max(ip.box, ip.start * self.config.players.usual)


class BetterLifeGame(Game):
    def __init__(self, config: BetterLifeTemplate, decks: Decks) -> None:
        self.rules = Rules.of(config, decks)
        self.config = config
        n = config.players.usual
        turns_bound = config.rounds * n * (len(self.rules.track) + 4) * 6
        self.info = GameInfo(
            short_name="better_life", long_name="BETTER Life", num_players=n,
            num_distinct_actions=BID_BASE + self.rules.bid_cap + 1,
            max_chance_outcomes=max(config.die_sides + 1, len(decks.actions), len(decks.events) + 1,
                                    len(decks.policies), len(decks.targets), n),
            max_game_length=turns_bound, min_utility=-1.0, max_utility=1.0, utility="general_sum",
            dynamics="simultaneous", information="imperfect")

    def new_initial_state(self, seed: int | None = None) -> BetterLifeState:
        return BetterLifeState(self)

    def evaluate(self, state: State, player: int) -> float:
        """Victory Points so far, minus the share of a team loss the meters point to (for greedy bots)."""
        assert isinstance(state, BetterLifeState)
        if state.over:
            return 100.0 * state.returns()[player]
        c = self.config
        vp = state.victory_points(player)
        danger = state.loss / c.meters.loss_limit
        votes_left = c.rounds - state.round
        need = max(0, c.meters.policy_goal - state.policy)
        short = need / max(1, 3 * votes_left)
        return vp - 20.0 * danger * danger - 20.0 * short


class BetterLifeState(State):
    def __init__(self, game: BetterLifeGame) -> None:
        super().__init__(game)
        r = game.rules
        c = r.config
        n = c.players.usual
        self.g = game
        self.role: list[int] = [-1] * n
        self.target: list[int] = [-1] * n
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.ip: list[int] = [c.ip.start] * n
        self.pos: list[int] = [0] * n
        self.skip_next: list[bool] = [False] * n
        self.plus_one: list[int] = [0] * n
        self.role_used: list[bool] = [False] * n
        self.action_pile: list[int] = list(r.action_counts)
        self.action_discard: list[int] = [0] * len(r.actions)
        self.event_pile: list[int] = list(r.event_counts)
        self.event_discard: list[int] = [0] * len(r.events)
        self.target_pile: list[int] = list(r.target_counts)
        self.policies_left: list[int] = list(range(len(r.decks.policies)))
        self.results: dict[int, str] = {}  # policy index -> band name, in voting order
        self.policy_now = -1
        self.market: list[int] = []
        self.finished: list[int] = []
        self.fund = 0
        self.loss = 0
        self.policy = 0
        self.round = 0
        self.turn = 0
        self.starter = 0
        self.card_played = False
        self.roll_bonus = 0
        self.event_now = -1
        self.phase = "setup"  # setup | start | event | pick | discard | vote | over
        self.after_discard = ""
        self.after_draw = "setup"
        self.pending: list[tuple[Any, ...]] = []
        self.last_bids: tuple[int, ...] = ()
        self.bid_history: list[tuple[int, ...]] = []  # every revealed vote, in order (public)
        self.pools: list[int] = []
        self.turns = 0
        self.over = False
        self.reason = ""  # "", "loss", "policy"
        self.counts: Counter[str] = Counter(dict.fromkeys(r.event_names, 0))
        self.pending = [("role", s) for s in range(n)] + [("target", s) for s in range(n)]
        self.pending += [("draw", s) for _ in range(c.start_hand) for s in range(n)]

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending:
            return CHANCE
        if self.phase == "vote":
            return SIMULTANEOUS
        return self.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        task = self.pending[0]
        kind = task[0]
        r = self.g.rules
        if kind == "roll":
            sides = r.config.die_sides
            return [(face, 1.0 / sides) for face in range(1, sides + 1)]
        if kind == "role":
            free = [i for i in range(len(r.role_keys)) if i not in self.role]
            return [(i, 1.0 / len(free)) for i in free]
        if kind == "policy":
            return [(i, 1.0 / len(self.policies_left)) for i in self.policies_left]
        pile = {"target": self.target_pile, "event": self.event_pile}.get(kind, self.action_pile)
        total = sum(pile)
        return [(i, k / total) for i, k in enumerate(pile) if k]

    def legal_actions(self, player: int | None = None) -> list[int]:
        cp = self.current_player()
        if cp == TERMINAL:
            return []
        if cp == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if cp == SIMULTANEOUS:
            assert player is not None
            return [BID_BASE + b for b in range(min(self.ip[player], self.g.rules.bid_cap) + 1)]
        if player is not None and player != cp:
            return []
        r = self.g.rules
        me = self.turn
        hand = self.hand[me]
        if self.phase == "start":
            out = [ROLL]
            if not self.role_used[me] and self._usable(r.role_cards[self.role[me]], me):
                out.append(PLAY_ROLE)
            if not self.card_played:
                out += sorted({PLAY_BASE + i for i in hand if r.actions[i].timing == "start"
                               and self._usable(r.actions[i], me)})
            return sorted(out)
        if self.phase == "event":
            out = [ACCEPT_EVENT]
            if any(r.actions[i].effect == "cancel-event" for i in hand):
                out.append(CANCEL_EVENT)
            price = r.events[self.event_now].buy_off
            if r.config.event_buy_off and price and self.ip[me] >= price:
                out.append(BUY_OFF)
            return out
        if self.phase == "pick":
            return sorted({PICK_BASE + i for i in self.market})
        if self.phase == "discard":
            return sorted({DISCARD_BASE + i for i in hand})
        return []

    def _usable(self, card: ActionCard, seat: int) -> bool:
        if card.effect == "restore":
            return self.ip[seat] >= card.amount and self.loss > 0
        return card.effect != "cancel-event"

    def _apply_action(self, action: int) -> None:
        if self.pending:
            self._resolve_chance(action)
            return
        r = self.g.rules
        me = self.turn
        if self.phase == "start":
            if action == ROLL:
                self.pending.append(("roll", "move"))
            elif action == PLAY_ROLE:
                self.role_used[me] = True
                self.counts["role-card"] += 1
                self._card_effect(r.role_cards[self.role[me]], me)
            else:
                index = action - PLAY_BASE
                self.hand[me].remove(index)
                self.action_discard[index] += 1
                self.card_played = True
                self.counts["action-card"] += 1
                self._card_effect(r.actions[index], me)
        elif self.phase == "event":
            event = self.event_now
            self.event_discard[event] += 1
            if action == ACCEPT_EVENT:
                self._event_effect(r.events[event], me)
            elif action == CANCEL_EVENT:
                card = next(i for i in sorted(self.hand[me]) if r.actions[i].effect == "cancel-event")
                self.hand[me].remove(card)
                self.action_discard[card] += 1
                self.counts["event-cancelled"] += 1
                self._end_turn()
            else:
                price = r.events[event].buy_off
                self.ip[me] -= price
                self.counts["event-bought-off"] += 1
                self._end_turn()
        elif self.phase == "pick":
            index = action - PICK_BASE
            self.market.remove(index)
            self.hand[me].append(index)
            self.counts["market-pick"] += 1
            self._check_hand("after-finish")
        elif self.phase == "discard":
            index = action - DISCARD_BASE
            self.hand[me].remove(index)
            self.action_discard[index] += 1
            self.counts["hand-limit-discard"] += 1
            self._check_hand(self.after_discard)

    def _apply_actions(self, actions: Any) -> None:
        bids = tuple(a - BID_BASE for a in actions)
        c = self.g.config
        for seat, bid in enumerate(bids):
            self.ip[seat] -= bid
        total = sum(bids)
        band = c.band_of(total)
        self.last_bids = bids
        self.bid_history.append(bids)
        self.pools.append(total)
        self.results[self.policy_now] = band.name
        self.counts[f"vote-{band.name}"] += 1
        self.policy = min(c.meters.policy_max, self.policy + band.policy)
        self._move_loss(band.loss)
        if self.over:
            return
        if self.round + 1 >= c.rounds:
            self.over = True
            if self.policy < c.meters.policy_goal:
                self.reason = "policy"
                self.counts["team-loss-policy"] += 1
            return
        self._start_round(self.round + 1, self.finished[-1])

    # ------------------------------------------------------------------ chance
    def _draw_from(self, pile: list[int], discard: list[int], name: str) -> bool:
        """Refill an empty pile from its discards (a reshuffle). False if both are empty."""
        if sum(pile):
            return True
        if not sum(discard):
            return False
        for i, k in enumerate(discard):
            pile[i] += k
            discard[i] = 0
        self.counts[f"{name}-reshuffle"] += 1
        return True

    def _resolve_chance(self, outcome: int) -> None:
        task = self.pending.pop(0)
        kind = task[0]
        r = self.g.rules
        if kind == "role":
            self.role[task[1]] = outcome
        elif kind == "target":
            self.target[task[1]] = outcome
            self.target_pile[outcome] -= 1
        elif kind == "draw":
            self.action_pile[outcome] -= 1
            self.hand[task[1]].append(outcome)
        elif kind == "market":
            self.action_pile[outcome] -= 1
            self.market.append(outcome)
        elif kind == "policy":
            self.policy_now = outcome
            self.policies_left.remove(outcome)
        elif kind == "event":
            self.event_pile[outcome] -= 1
            self.event_now = outcome
            self.counts[f"event-{r.events[outcome].id}"] += 1
        elif kind == "roll":
            self._move(task[1], outcome)
        # a queued draw may find its pile empty: reshuffle now or drop draws that cannot happen
        while self.pending and self.pending[0][0] in ("draw", "market"):
            if self._draw_from(self.action_pile, self.action_discard, "action"):
                break
            self.pending.pop(0)
        if self.pending and self.pending[0][0] == "event" and not self._draw_from(
                self.event_pile, self.event_discard, "event"):
            self.pending.pop(0)
            self._end_turn()
            return
        if not self.pending and not self.over:
            self._after_chance(kind)

    def _after_chance(self, kind: str) -> None:
        if self.phase == "setup":
            self._start_round(0, 0)
        elif kind == "draw":
            self._check_hand(self.after_draw)
        elif kind in ("market", "policy"):
            self._begin_turn(self.starter)
        elif kind == "event":
            self._offer_event()

    # ------------------------------------------------------------------ flow
    def _start_round(self, number: int, starter: int) -> None:
        c = self.g.config
        self.round = number
        self.starter = starter
        n = c.players.usual
        self.pos = [0] * n
        self.finished = []
        self.role_used = [False] * n
        for card in self.market:  # cards nobody took go to the discards
            self.action_discard[card] += 1
        self.market = []
        self.phase = "start"
        self.pending = [("policy",)] if self.policies_left else []
        self.pending += [("market",)] * c.market
        while self.pending and self.pending[0][0] == "market" and not self._draw_from(
                self.action_pile, self.action_discard, "action"):
            self.pending.pop(0)
        if not self.pending:
            self._begin_turn(starter)

    def _next_seat(self, seat: int) -> int:
        n = self.g.config.players.usual
        for k in range(1, n + 1):
            s = (seat + k) % n
            if s not in self.finished:
                return s
        return seat

    def _begin_turn(self, seat: int) -> None:
        n = self.g.config.players.usual
        for _ in range(2 * n):
            if seat in self.finished:
                seat = self._next_seat(seat)
                continue
            if self.skip_next[seat]:
                self.skip_next[seat] = False
                self.counts["turn-skipped"] += 1
                seat = self._next_seat(seat)
                continue
            break
        self.turn = seat
        self.phase = "start"
        self.card_played = False
        self.roll_bonus = 0
        self.turns += 1

    def _end_turn(self) -> None:
        if self.over:
            return
        if len(self.finished) == self.g.config.players.usual:
            self.phase = "vote"
            return
        self._begin_turn(self._next_seat(self.turn))

    def _check_hand(self, then: str) -> None:
        me = self.turn
        if len(self.hand[me]) > self.g.config.hand_limit:
            self.phase = "discard"
            self.after_discard = then
            return
        if then == "start":
            self.phase = "start"
        elif then == "end-turn" or then == "after-finish":
            self._end_turn()

    # ------------------------------------------------------------------ moving and spaces
    def _gain(self, seat: int, amount: int) -> int:
        got = max(0, min(amount, self.reserve))
        self.ip[seat] += got
        if got < amount:
            self.counts["reserve-empty"] += 1
        return got

    @property
    def reserve(self) -> int:
        return self.g.config.ip.box - sum(self.ip) - self.fund

    def _move(self, kind: str, face: int) -> None:
        me = self.turn
        r = self.g.rules
        steps = face
        if kind == "move":
            steps += self.roll_bonus + self.plus_one[me]
            self.plus_one[me] = 0
            self.roll_bonus = 0
        self.pos[me] = min(r.end, self.pos[me] + steps)
        self._land()

    def _land(self) -> None:
        me = self.turn
        r = self.g.rules
        c = r.config
        sp = c.spaces
        space = r.track[self.pos[me]]
        kind = space.split(":", 1)[0]
        if kind == "end-of-year":
            self._finish()
            return
        if kind == "role":
            owner_role = r.role_keys.index(space[5:])
            owner = self.role.index(owner_role)
            if owner == me:
                self._gain(me, sp.own_role_ip)
                self.counts["space-role-own"] += 1
            else:
                fee = sp.other_role_fee
                paid = min(fee, self.ip[me])
                self.ip[me] -= paid
                self.ip[owner] += paid
                self._gain(owner, fee - paid)
                self.counts["space-role-other"] += 1
        elif kind == "skip":
            self.skip_next[me] = True
            self.counts["space-skip"] += 1
        elif kind == "ip":
            self._gain(me, sp.ip_space)
            self.counts["space-ip"] += 1
        elif kind == "plus-one":
            self.plus_one[me] += sp.plus_one
            self.counts["space-plus-one"] += 1
        elif kind == "bonus":
            self.counts["space-bonus"] += 1
            self.pending.append(("roll", "bonus"))
            return
        elif kind == "empty":
            self.counts["space-empty"] += 1
        elif kind == "fund":
            paid = min(sp.fund_fee, self.ip[me])
            self.ip[me] -= paid
            self.fund += paid
            self.fund += max(0, min(sp.fund_fee - paid, self.reserve))
            self.counts["space-fund"] += 1
        elif kind == "payout":
            self.counts["space-payout"] += 1
            if self.fund:
                self.ip[me] += self.fund
                self.fund = 0
            else:
                self._gain(me, sp.empty_fund_payout)
        elif kind == "event":
            self.counts["space-event"] += 1
            if self._draw_from(self.event_pile, self.event_discard, "event"):
                self.pending.append(("event",))
                return
        self._end_turn()

    def _finish(self) -> None:
        me = self.turn
        c = self.g.config
        rank = len(self.finished)
        self.finished.append(me)
        self._gain(me, c.finish_ip[rank])
        self.counts["finish"] += 1
        if len(self.market) == 1 or (self.market and len(self.finished) == c.players.usual):
            self.hand[me].append(self.market.pop(0))
            self.counts["market-pick"] += 1
            self._check_hand("after-finish")
        elif self.market:
            self.phase = "pick"
        else:
            self._end_turn()

    def _move_loss(self, delta: int) -> None:
        c = self.g.config
        self.loss = max(0, self.loss + delta)
        if self.loss >= c.meters.loss_limit:
            self.loss = c.meters.loss_limit
            self.over = True
            self.reason = "loss"
            self.phase = "over"
            self.pending = []
            self.counts["team-loss-meter"] += 1

    def _offer_event(self) -> None:
        r = self.g.rules
        me = self.turn
        event = r.events[self.event_now]
        can_cancel = any(r.actions[i].effect == "cancel-event" for i in self.hand[me])
        can_buy = r.config.event_buy_off and event.buy_off and self.ip[me] >= event.buy_off
        if can_cancel or can_buy:
            self.phase = "event"
            return
        self.event_discard[self.event_now] += 1
        self._event_effect(event, me)

    # ------------------------------------------------------------------ effects
    def _card_effect(self, card: ActionCard, me: int) -> None:
        n = self.g.config.players.usual
        effect, amount = card.effect, card.amount
        if effect == "gain-ip":
            self._gain(me, amount)
        elif effect == "roll-bonus":
            self.roll_bonus += amount
        elif effect == "take-each":
            for s in range(n):
                if s != me:
                    paid = min(amount, self.ip[s])
                    self.ip[s] -= paid
                    self.ip[me] += paid
        elif effect == "take-fund":
            if self.fund:
                self.ip[me] += self.fund
                self.fund = 0
            else:
                self._gain(me, 1)
        elif effect == "draw-action":
            self.after_draw = "start"
            self.pending += [("draw", me)] * amount
            while self.pending and not self._draw_from(self.action_pile, self.action_discard, "action"):
                self.pending.pop(0)
            if not self.pending:
                self._check_hand("start")
        elif effect == "restore":
            self.ip[me] -= amount  # paid to the box
            self._move_loss(-1)
            self.counts["restored"] += 1

    def _event_effect(self, event: EventCard, me: int) -> None:
        n = self.g.config.players.usual
        effect, amount = event.effect, event.amount
        self.phase = "start"
        if effect == "loss":
            self._move_loss(amount)
            if self.over:
                return
        elif effect == "heal":
            self._move_loss(-amount)
        elif effect == "all-lose-ip":
            for s in range(n):
                self.ip[s] -= min(amount, self.ip[s])
        elif effect == "all-gain-ip":
            for s in range(n):
                self._gain(s, amount)
        elif effect == "gain-ip":
            self._gain(me, amount)
        elif effect == "lose-ip":
            self.ip[me] -= min(amount, self.ip[me])
        elif effect == "pay-fund":
            paid = min(amount, self.ip[me])
            self.ip[me] -= paid
            self.fund += paid + max(0, min(amount - paid, self.reserve))
        elif effect == "reward-generous":  # the biggest bid(s) at the last vote
            if self.last_bids and max(self.last_bids) > 0:
                top = max(self.last_bids)
                for s in range(n):
                    if self.last_bids[s] == top:
                        self._gain(s, amount)
        elif effect == "shame-idle":  # who gave nothing at the last vote pays the Fund
            for s in range(n):
                if self.last_bids and self.last_bids[s] == 0:
                    paid = min(amount, self.ip[s])
                    self.ip[s] -= paid
                    self.fund += paid
        elif effect == "skip":
            self.skip_next[me] = True
        elif effect == "back":
            self.pos[me] = max(0, self.pos[me] - amount)
        elif effect == "draw-action":
            self.after_draw = "end-turn"
            self.pending += [("draw", me)] * amount
            while self.pending and not self._draw_from(self.action_pile, self.action_discard, "action"):
                self.pending.pop(0)
            if self.pending:
                return
            self._check_hand("end-turn")
            return
        self._end_turn()

    # ------------------------------------------------------------------ scoring and views
    def target_points(self, seat: int) -> int:
        r = self.g.rules
        if self.target[seat] < 0:
            return 0
        s = r.config.scoring
        total = 0
        for policy_id, vp in zip(r.decks.targets[self.target[seat]].ranked, (s.primary, s.secondary, s.tertiary),
                                 strict=True):
            band = self.results.get(r.decks.policy_index(policy_id))
            total += vp.success if band == "success" else vp.semi if band == "semi" else 0
        return total

    def victory_points(self, seat: int) -> int:
        return self.ip[seat] // self.g.config.scoring.ip_per_vp + self.target_points(seat)

    @property
    def team_lost(self) -> bool:
        return self.over and self.reason in ("loss", "policy")

    def winners(self) -> tuple[int, ...]:
        if not self.over or self.team_lost:
            return ()
        vps = [self.victory_points(s) for s in range(self.g.config.players.usual)]
        best = max(vps)
        return tuple(s for s, v in enumerate(vps) if v == best)

    def returns(self) -> list[float]:
        n = self.g.config.players.usual
        if not self.over:
            return [0.0] * n
        if self.team_lost:
            return [-1.0] * n
        won = self.winners()
        return [1.0 / len(won) if s in won else 0.0 for s in range(n)]

    def outcome(self) -> Outcome:
        r = self.g.rules
        n = r.config.players.usual
        vps = [float(self.victory_points(s)) for s in range(n)]
        won = self.winners()
        metrics: dict[str, float] = {
            "everyone_loses": float(self.team_lost), "lost_to_loss_meter": float(self.reason == "loss"),
            "lost_to_policy_meter": float(self.reason == "policy"), "policy_meter_end": float(self.policy),
            "loss_meter_end": float(self.loss), "vp_spread": max(vps) - min(vps), "vp_top": max(vps),
            "turns": float(self.turns), "pool_mean": sum(self.pools) / max(1, len(self.pools)),
            "votes_success": float(sum(1 for b in self.results.values() if b == "success")),
            "votes_semi": float(sum(1 for b in self.results.values() if b == "semi")),
            "votes_weak": float(sum(1 for b in self.results.values() if b == "weak")),
        }
        for i, key in enumerate(r.role_keys):
            seat = self.role.index(i) if i in self.role else -1
            metrics[f"win_{key}"] = (1.0 / len(won)) if seat in won else 0.0
            metrics[f"vp_{key}"] = vps[seat] if seat >= 0 else 0.0
        for i, policy in enumerate(r.decks.policies):
            metrics[f"passed_{policy.id}"] = float(self.results.get(i) == "success")
        return Outcome(tuple(vps), won, self.round + 1, metrics, dict(self.counts))

    def observation(self, player: int) -> dict[str, Any]:
        r = self.g.rules
        n = r.config.players.usual
        obs: dict[str, Any] = {
            "year": r.config.years.start + self.round * r.config.years.per_round, "round": self.round + 1,
            "phase": self.phase, "turn": self.turn, "loss": self.loss, "policy": self.policy, "fund": self.fund,
            "reserve_empty": self.reserve <= 0, "positions": tuple(self.pos), "finished": tuple(self.finished),
            "roles": tuple(r.role_keys[x] if x >= 0 else "" for x in self.role),
            "role_used": tuple(self.role_used), "hand_sizes": tuple(len(h) for h in self.hand),
            "market": tuple(r.actions[i].id for i in sorted(self.market)),
            "policy_now": r.decks.policies[self.policy_now].id if self.policy_now >= 0 else "",
            "results": tuple((r.decks.policies[k].id, v) for k, v in self.results.items()),
            "last_bids": self.last_bids, "bid_history": tuple(self.bid_history), "pools": tuple(self.pools),
            "skip_next": tuple(self.skip_next),
        }
        if 0 <= player < n:
            obs["seat"] = player
            obs["my_ip"] = self.ip[player]
            obs["my_hand"] = tuple(sorted(r.actions[i].id for i in self.hand[player]))
            obs["my_target"] = (r.decks.targets[self.target[player]].ranked if self.target[player] >= 0 else ())
            obs["my_plus_one"] = self.plus_one[player]
        if self.phase == "event" and self.event_now >= 0:
            obs["event"] = r.events[self.event_now].id
        return obs

    def action_to_string(self, player: int, action: int) -> str:
        r = self.g.rules
        if player == CHANCE and self.pending:
            kind = self.pending[0][0]
            if kind == "roll":
                return f"roll {action}"
            if kind == "role":
                return f"seat {self.pending[0][1] + 1} is the {r.config.roles[action].name}"
            if kind == "target":
                return f"seat {self.pending[0][1] + 1} draws target card {r.decks.targets[action].id}"
            if kind == "policy":
                return f"policy of the year: {r.decks.policies[action].title}"
            if kind == "event":
                return f"event: {r.events[action].title}"
            return f"{kind}: {r.actions[action].title}"
        if action >= BID_BASE:
            return f"bid {action - BID_BASE} IP"
        if action >= DISCARD_BASE:
            return f"discard {r.actions[action - DISCARD_BASE].title}"
        if action >= PICK_BASE:
            return f"pick {r.actions[action - PICK_BASE].title}"
        if action >= PLAY_BASE:
            return f"play {r.actions[action - PLAY_BASE].title}"
        return {ROLL: "roll", PLAY_ROLE: "play role card", ACCEPT_EVENT: "accept the event",
                CANCEL_EVENT: "cancel the event with a card", BUY_OFF: "buy the event off"}.get(action, str(action))

    def clone(self) -> BetterLifeState:
        other = object.__new__(BetterLifeState)
        other.__dict__.update(self.__dict__)
        for name in ("role", "target", "ip", "pos", "skip_next", "plus_one", "role_used", "action_pile",
                     "action_discard", "event_pile", "event_discard", "target_pile", "policies_left", "market",
                     "finished", "pending", "pools", "bid_history", "_history"):
            setattr(other, name, list(getattr(self, name)))
        other.hand = [list(h) for h in self.hand]
        other.results = dict(self.results)
        other.counts = Counter(self.counts)
        return other
