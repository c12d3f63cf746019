"""The Resilience Earth rules as an OpenSpiel-shaped game (``boardgen.play.api``).

A round: every player has one turn, the round leader first (the player token passes left after each round).
On a turn a player makes any number of builds (settle, upgrade to a town or an industry) and dismantles, or
takes a sabbatical, or does nothing; ``end`` closes the turn. Each stone put on the Climate Tower is a chance
node: the tower stands or falls (the collapse curve). A stone is taken from the dismantled reserve first, else
from the current countdown stack; when a stack empties, a climate event follows: a card is drawn (chance), two
dice name the field (two chance nodes) and the card's pattern covers fields with BLOCKED or DESTROYED. At the
round's end players are paid (production), lose LQ for fields beside industries, markers whose time is up come
off, and from ``first_end_round`` on a chance node decides whether the hidden timer rings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardgen.play.api import CHANCE, TERMINAL, Game, GameInfo, Outcome, State

EMPTY, SETTLEMENT, TOWN, INDUSTRY = 0, 1, 2, 3
KIND_NAMES = {SETTLEMENT: "settlement", TOWN: "town", INDUSTRY: "industry"}
PERMANENT = 10**6

RULE_EVENTS = (
    "settle", "settle far", "town", "industry", "dismantle settlement", "dismantle town", "dismantle industry",
    "sabbatical", "did nothing", "stones removed", "event blocked", "event destroyed", "event missed",
    "buildings destroyed", "markers short", "deck reshuffled", "industry LQ loss", "collapse", "ended by collapse",
    "ended by timer", "ended by stones",
)  # fmt: skip
"""Every rule a game's outcome counts (``Outcome.events``), so a rule no bot ever used shows as 0; the few
that cannot happen under a template's numbers are left out (``ResilienceGame.rule_events``)."""

# phases
TURN, STONE, CARD, DIE1, DIE2, TIMER, OVER = range(7)

COMPASS_DEG = {"N": 90.0, "NE": 45.0, "E": 0.0, "SE": -45.0, "S": -90.0, "SW": -135.0, "W": 180.0, "NW": 135.0}


@dataclass(frozen=True)
class FieldFacts:
    """What the rules need of the field map (no geometry): numbers, borders, levels, board positions."""

    numbers: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]  # indices
    levels: tuple[int, ...]
    centres_mm: tuple[tuple[float, float], ...]

    @classmethod
    def from_field_map(cls, fm: Any) -> FieldFacts:
        numbers = tuple(f.number for f in fm.fields)
        index = {n: i for i, n in enumerate(numbers)}
        return cls(numbers, tuple(tuple(index[n] for n in f.neighbours) for f in fm.fields),
                   tuple(f.level for f in fm.fields), tuple(f.centre_mm for f in fm.fields))


def pattern_fields(facts: FieldFacts, target: int, reach: Sequence[str]) -> tuple[int, ...]:
    """Fields (indices) a card covers when the dice name ``target``: the target, and for each compass step the
    bordering field whose direction on the board is nearest that compass point (within 67.5 degrees; none: the
    step is lost). A step repeated goes one field further the same way; "all": every bordering field."""
    out = [target]
    reached: dict[str, int] = {}
    for step in reach:
        if step == "all":
            out.extend(n for n in facts.neighbours[target] if n not in out)
            continue
        at = reached.get(step, target)
        want = COMPASS_DEG[step]
        x0, y0 = facts.centres_mm[at]
        best: tuple[float, int] | None = None
        for n in facts.neighbours[at]:
            x1, y1 = facts.centres_mm[n]
            angle = math.degrees(math.atan2(-(y1 - y0), x1 - x0))  # board y grows downwards
            diff = abs((angle - want + 180.0) % 360.0 - 180.0)
            if diff <= 67.5 and (best is None or (diff, n) < best):
                best = (diff, n)
        if best is None:
            reached[step] = at
            continue
        reached[step] = best[1]
        if best[1] not in out:
            out.append(best[1])
    return tuple(out)


def collapse_probability(height: int, ceiling: float, midpoint: float, spread: float) -> float:
    """Chance that a stone put on a tower ``height`` stones high (before it) topples it: a logistic hazard."""
    return ceiling / (1.0 + math.exp(-(height - midpoint) / spread))


class ResilienceGame(Game):
    def __init__(self, facts: FieldFacts, config: Any, players: int) -> None:
        self.facts = facts
        self.config = config
        self.rules = config.rules
        self.costs = config.costs
        self.tower = config.tower
        self.cards = config.events
        self.players = players
        self.F = len(facts.numbers)
        F = self.F  # noqa: N806 - the field count, as in the docs
        self.SETTLE, self.TOWN, self.INDUSTRY, self.DISMANTLE = 0, F, 2 * F, 3 * F
        self.SABBATICAL, self.END = 4 * F, 4 * F + 1
        self.cover = tuple(tuple(pattern_fields(facts, t, card.reach) for t in range(F)) for card in self.cards)
        self.index = {n: i for i, n in enumerate(facts.numbers)}
        prod = config.production
        self.yields = {SETTLEMENT: prod.settlement, TOWN: prod.town, INDUSTRY: prod.industry}
        stones = self.tower.stones
        self.hazard = tuple(collapse_probability(h, self.tower.collapse_ceiling, self.tower.collapse_midpoint,
                                                 self.tower.collapse_spread) for h in range(stones + 1))
        per = config.components.per_colour
        self.supply = {SETTLEMENT: per["settlement"], TOWN: per["town"], INDUSTRY: per["industry"]}
        left_out = set()
        if all(r * 10 + d in self.index for r in range(1, 7) for d in range(1, 7)):
            left_out.add("event missed")  # every pair of dice names a field
        if len(self.cards) >= len(self.tower.countdown_stacks):
            left_out.add("deck reshuffled")  # one event per emptied stack: the deck never runs out
        self.rule_events = tuple(e for e in RULE_EVENTS if e not in left_out)
        max_rounds = self.rules.last_end_round
        self.info = GameInfo(
            short_name="resilience_earth", long_name="Resilience Earth", num_players=players,
            num_distinct_actions=4 * F + 2, max_chance_outcomes=max(len(self.cards), 7),
            max_game_length=max_rounds * players * 200 + 400, min_utility=0.0, max_utility=1.0)

    def new_initial_state(self, seed: int | None = None) -> ResilienceState:
        return ResilienceState(self)

    def evaluate(self, state: State, player: int) -> float:
        assert isinstance(state, ResilienceState)
        return state.heuristic(player)


class ResilienceState(State):
    game: ResilienceGame

    def __init__(self, game: ResilienceGame, blank: bool = False) -> None:
        super().__init__(game)
        if blank:
            return
        g = game
        n = g.players
        extra = tuple(g.rules.starting_res_extra)
        self.res = [g.rules.starting_res + (extra[p] if p < len(extra) else 0) for p in range(n)]
        extra = tuple(g.rules.starting_lq_extra)
        self.lq = [extra[p] if p < len(extra) else 0 for p in range(n)]
        self.owner = [-1] * g.F
        self.kind = [EMPTY] * g.F
        self.cover_effect = [""] * g.F  # "", "blocked", "destroyed"
        self.cover_until = [0] * g.F  # last round the marker stays
        self.stacks = list(g.tower.countdown_stacks)
        self.stack_at = 0
        self.height = 0
        self.reserve = 0
        self.out = 0
        self.round = 1
        self.leader = 0
        self.turn_in_round = 0
        self.phase = TURN
        self.pending_stones = 0
        self.pending_events = 0
        self.deck = list(range(len(g.cards)))
        self.card = -1
        self.die1 = 0
        self.on_sabbatical = [False] * n
        self.sabbaticals = [0] * n
        self.actions_this_turn = 0
        self.stone_player = -1
        self.ended = ""  # "collapse" | "timer" | "stones"
        self.toppler = -1
        self.placed = [{SETTLEMENT: 0, TOWN: 0, INDUSTRY: 0} for _ in range(n)]
        self.counts: dict[str, int] = {}

    # ------------------------------------------------------------------ basics
    def clone(self) -> ResilienceState:
        c = ResilienceState(self.game, blank=True)
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                value = [dict(v) if isinstance(v, dict) else v for v in value]
            elif isinstance(value, dict):
                value = dict(value)
            c.__dict__[key] = value
        c.game = self.game
        return c

    def _count(self, key: str, k: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + k

    def seat_to_move(self) -> int:
        return (self.leader + self.turn_in_round) % self.game.players

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == TURN:
            return self.seat_to_move()
        return CHANCE

    def markers_in_play(self) -> int:
        return sum(1 for e in self.cover_effect if e)

    def stones_left(self) -> int:
        return self.reserve + sum(self.stacks[self.stack_at:])

    # ------------------------------------------------------------------ legal moves
    def _borders_own(self, p: int, f: int) -> bool:
        return any(self.owner[n] == p for n in self.game.facts.neighbours[f])

    def owns_any(self, p: int) -> bool:
        return p in self.owner

    def settle_cost(self, p: int, f: int) -> int:
        g = self.game
        far = self.owns_any(p) and not self._borders_own(p, f)
        return g.costs.settlement + (g.costs.travel if far else 0)

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.phase == OVER:
            return []
        if self.phase != TURN:
            return [a for a, _ in self.chance_outcomes()]
        g = self.game
        p = self.seat_to_move()
        if player is not None and player != p:
            return []
        limit = g.rules.builds_per_turn
        can_build = not limit or self.actions_this_turn < limit
        res = self.res[p]
        settle: list[int] = []
        town: list[int] = []
        industry: list[int] = []
        dismantle: list[int] = []
        if can_build:
            supply = g.supply
            placed = self.placed[p]
            owner, kind, cover = self.owner, self.kind, self.cover_effect
            # the costs and limits checked once per call, not once per field
            base = g.costs.settlement
            far = base + g.costs.travel
            own = [f for f in range(g.F) if owner[f] == p]
            nb = g.facts.neighbours
            may_settle = placed[SETTLEMENT] < supply[SETTLEMENT] and res >= base
            anywhere = not own or res >= far  # the first settlement goes anywhere at base cost
            stones_ok = self.stones_left()
            may_town = res >= g.costs.town and placed[TOWN] < supply[TOWN] and stones_ok >= g.costs.town_stones
            may_industry = (res >= g.costs.industry and placed[INDUSTRY] < supply[INDUSTRY]
                            and stones_ok >= g.costs.industry_stones)
            if may_settle:
                settle = [f for f in range(g.F) if owner[f] == -1 and not cover[f]
                          and (anywhere or any(owner[n] == p for n in nb[f]))]
            for f in own:
                if kind[f] == SETTLEMENT and not cover[f]:
                    if may_town:
                        town.append(g.TOWN + f)
                    if may_industry:
                        industry.append(g.INDUSTRY + f)
                dismantle.append(g.DISMANTLE + f)
        acts = [g.SETTLE + f for f in settle] + town + industry + dismantle
        if (self.actions_this_turn == 0 and res >= g.rules.sabbatical_cost
                and (not g.rules.sabbatical_limit or self.sabbaticals[p] < g.rules.sabbatical_limit)):
            acts.append(g.SABBATICAL)
        acts.append(g.END)
        return acts

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game
        if self.phase == STONE:
            p = g.hazard[min(self.height, len(g.hazard) - 1)]
            return [(0, 1.0 - p), (1, p)] if p > 0 else [(0, 1.0)]
        if self.phase == CARD:
            return [(c, 1.0 / len(self.deck)) for c in sorted(self.deck)]
        if self.phase in (DIE1, DIE2):
            return [(face, 1.0 / 6) for face in range(1, 7)]
        if self.phase == TIMER:
            left = g.rules.last_end_round - self.round + 1
            p = 1.0 / left if left > 0 else 1.0
            return [(0, 1.0 - p), (1, p)] if p < 1.0 else [(1, 1.0)]
        return []

    # ------------------------------------------------------------------ applying
    def _apply_action(self, action: int) -> None:
        g = self.game
        if self.phase == TURN:
            self._player_action(self.seat_to_move(), action)
        elif self.phase == STONE:
            self._stone(action)
        elif self.phase == CARD:
            self.card = action
            self.deck.remove(action)
            self.phase = DIE1
        elif self.phase == DIE1:
            self.die1 = action
            self.phase = DIE2
        elif self.phase == DIE2:
            self._event(self.card, self.die1, action)
            self.pending_events -= 1
            if not self.deck:
                self.deck = list(range(len(g.cards)))
                self._count("deck reshuffled")
            self.phase = CARD if self.pending_events else TURN
            if self.phase == TURN and self.stones_left() == 0:
                self._finish("stones")
        elif self.phase == TIMER:
            if action == 1:
                self._finish("timer")
            else:
                self._next_round()

    def _player_action(self, p: int, action: int) -> None:
        g = self.game
        if action == g.END:
            if self.actions_this_turn == 0:
                self._count("did nothing")
            self._end_turn()
            return
        if action == g.SABBATICAL:
            self.res[p] -= g.rules.sabbatical_cost
            self.lq[p] += g.rules.sabbatical_lq
            self.on_sabbatical[p] = True
            self.sabbaticals[p] += 1
            self._count("sabbatical")
            self._end_turn()
            return
        self.actions_this_turn += 1
        f = action % g.F
        kind = action // g.F
        if kind == 0:  # settle
            cost = self.settle_cost(p, f)
            self._count("settle far" if cost > g.costs.settlement else "settle")
            self.res[p] -= cost
            self.lq[p] += g.rules.settlement_lq
            self.owner[f], self.kind[f] = p, SETTLEMENT
            self.placed[p][SETTLEMENT] += 1
        elif kind in (1, 2):
            new = TOWN if kind == 1 else INDUSTRY
            self.res[p] -= g.costs.town if new == TOWN else g.costs.industry
            self.placed[p][SETTLEMENT] -= 1
            self.placed[p][new] += 1
            self.kind[f] = new
            self._count(KIND_NAMES[new])
            self.pending_stones = g.costs.town_stones if new == TOWN else g.costs.industry_stones
            self.stone_player = p
            if self.pending_stones:
                self.phase = STONE
        else:  # dismantle: a town or industry steps down to a settlement, a settlement leaves the field
            k = self.kind[f]
            self._count(f"dismantle {KIND_NAMES[k]}")
            self.res[p] += g.rules.dismantle_refund
            if k == SETTLEMENT:
                self.owner[f], self.kind[f] = -1, EMPTY
                self.placed[p][SETTLEMENT] -= 1
                self.lq[p] = max(0, self.lq[p] - g.rules.settlement_lq)
            else:
                stones = g.costs.town_stones if k == TOWN else g.costs.industry_stones
                self._unstack(stones)
                self.placed[p][k] -= 1
                self.placed[p][SETTLEMENT] += 1
                self.kind[f] = SETTLEMENT

    def _unstack(self, stones: int) -> None:
        taken = min(stones, self.height)
        self.height -= taken
        if self.game.rules.dismantled_stones == "reserve":
            self.reserve += taken
        else:
            self.out += taken
        self._count("stones removed", taken)

    def _stone(self, fell: int) -> None:
        """One stone goes onto the tower (from the reserve, else the current countdown stack)."""
        if fell:
            self.toppler = self.stone_player
            self._count("collapse")
            self._finish("collapse")
            return
        self.height += 1
        if self.reserve:
            self.reserve -= 1
        else:
            while self.stack_at < len(self.stacks) and self.stacks[self.stack_at] == 0:
                self.stack_at += 1
            if self.stack_at < len(self.stacks):
                self.stacks[self.stack_at] -= 1
                if self.stacks[self.stack_at] == 0:
                    self.stack_at += 1
                    self.pending_events += 1
        self.pending_stones -= 1
        if self.pending_stones > 0 and self.stones_left() > 0:
            return
        self.pending_stones = 0
        if self.pending_events:
            self.phase = CARD
        elif self.stones_left() == 0:
            self._finish("stones")
        else:
            self.phase = TURN

    def _event(self, card: int, die1: int, die2: int) -> None:
        g = self.game
        spec = g.cards[card]
        number = die1 * 10 + die2
        self._count(f"event {spec.effect}")
        if number not in g.index:  # a smaller field map: the dice name no field; nothing happens
            self._count("event missed")
            return
        until = PERMANENT if spec.rounds == 0 else self.round + spec.rounds - 1
        for f in g.cover[card][g.index[number]]:
            if not self.cover_effect[f] and self.markers_in_play() >= g.config.markers.count:
                self._count("markers short")
                continue
            if spec.effect == "destroyed" or not self.cover_effect[f]:
                self.cover_effect[f] = spec.effect
            self.cover_until[f] = max(self.cover_until[f], until)
            if spec.effect == "destroyed" and self.owner[f] >= 0:
                p, k = self.owner[f], self.kind[f]
                self._count("buildings destroyed")
                self.placed[p][k] -= 1
                if g.rules.destroyed_returns_stones and k != SETTLEMENT:
                    self._unstack(g.costs.town_stones if k == TOWN else g.costs.industry_stones)
                self.owner[f], self.kind[f] = -1, EMPTY

    def _end_turn(self) -> None:
        self.actions_this_turn = 0
        self.turn_in_round += 1
        if self.turn_in_round >= self.game.players:
            self._end_round()

    def _end_round(self) -> None:
        g = self.game
        for p in range(g.players):
            if self.on_sabbatical[p]:
                continue
            for f in range(g.F):
                if self.owner[f] == p and self.cover_effect[f] != "blocked":
                    self.res[p] += g.yields[self.kind[f]][g.facts.levels[f] - 1]
        loss = g.rules.industry_lq_loss
        if loss:
            for f in range(g.F):
                p = self.owner[f]
                if p >= 0 and any(self.kind[n] == INDUSTRY for n in g.facts.neighbours[f]):
                    if self.lq[p] > 0:
                        self._count("industry LQ loss")
                    self.lq[p] = max(0, self.lq[p] - loss)
        for f in range(g.F):
            if self.cover_effect[f] and self.cover_until[f] <= self.round:
                self.cover_effect[f], self.cover_until[f] = "", 0
        if self.round >= g.rules.first_end_round:
            self.phase = TIMER
        else:
            self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        self.leader = (self.leader + 1) % self.game.players
        self.turn_in_round = 0
        self.on_sabbatical = [False] * self.game.players
        self.phase = TURN

    def _finish(self, reason: str) -> None:
        self.ended = reason
        self.phase = OVER
        self._count(f"ended by {reason}")

    # ------------------------------------------------------------------ scoring
    def tangible(self, p: int) -> int:
        """RES in hand plus what the player's standing buildings count as at the end (``building_res``)."""
        worth = self.game.rules.building_res
        return self.res[p] + sum(worth.get(KIND_NAMES[self.kind[f]], 0) for f in range(self.game.F)
                                 if self.owner[f] == p)

    def lopsided(self, p: int) -> bool:
        r = self.game.rules
        res = self.tangible(p)
        total = res + self.lq[p]
        if total <= 0:
            return False
        share = res / total
        return share > r.lopsided_share or (r.lopsided_both_ways and 1.0 - share > r.lopsided_share)

    def scores(self) -> list[float]:
        r = self.game.rules
        if self.ended == "collapse":
            return [float(r.toppler_score) if p == self.toppler else float(self.lq[p])
                    for p in range(self.game.players)]
        return [float(self.tangible(p) + self.lq[p] - (r.lopsided_penalty if self.lopsided(p) else 0))
                for p in range(self.game.players)]

    def winners(self) -> tuple[int, ...]:
        if self.phase != OVER:
            return ()
        scores = self.scores()
        seats = [p for p in range(self.game.players) if p != self.toppler]
        best = max(scores[p] for p in seats)
        return tuple(p for p in seats if scores[p] == best)

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != OVER:
            return [0.0] * n
        w = self.winners()
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)]

    def production(self, p: int) -> int:
        g = self.game
        return sum(g.yields[self.kind[f]][g.facts.levels[f] - 1] for f in range(g.F)
                   if self.owner[f] == p and self.cover_effect[f] != "blocked")

    def heuristic(self, p: int) -> float:
        """For greedy bots: the player's score now plus a few rounds of production, minus the risk of being
        the one who topples the tower (a loss), relative to the best other player."""
        if self.phase == OVER:
            return self.returns()[p] * 1000.0 + self.scores()[p]
        g = self.game
        rounds_left = max(1.0, (g.rules.first_end_round + g.rules.last_end_round) / 2 - self.round)
        def value(q: int) -> float:
            return self.tangible(q) + self.lq[q] + min(rounds_left, 4.0) * self.production(q)
        others = max(value(q) for q in range(g.players) if q != p)
        risk = g.hazard[min(self.height, len(g.hazard) - 1)]
        return value(p) - others - 60.0 * risk

    def outcome(self) -> Outcome:
        g = self.game
        scores = self.scores()
        lq = self.lq
        metrics = {
            "collapse": 1.0 if self.ended == "collapse" else 0.0,
            "ended_by_timer": 1.0 if self.ended == "timer" else 0.0,
            "ended_by_stones": 1.0 if self.ended == "stones" else 0.0,
            "tower_height": float(self.height),
            "events": float(self.counts.get("event blocked", 0) + self.counts.get("event destroyed", 0)),
            "lq_spread": float(max(lq) - min(lq)),
            "mean_lq": sum(lq) / len(lq),
            "mean_res": sum(self.res) / len(self.res),
            "lopsided_players": float(sum(1 for p in range(self.game.players) if self.lopsided(p))),
            "dismantles": float(sum(v for k, v in self.counts.items() if k.startswith("dismantle"))),
            "sabbaticals": float(self.counts.get("sabbatical", 0)),
            "fields_settled": float(sum(1 for o in self.owner if o >= 0)),
        }
        return Outcome(scores=tuple(scores), winners=self.winners(), length=self.round, metrics=metrics,
                       events={k: self.counts.get(k, 0) for k in sorted(g.rule_events)})

    # ------------------------------------------------------------------ views
    def observation(self, player: int) -> dict[str, Any]:
        g = self.game
        return {
            "round": self.round,
            "leader": self.leader,
            "res": list(self.res),
            "lq": list(self.lq),
            "tower": self.height,
            "stacks": self.stacks[self.stack_at:],
            "reserve": self.reserve,
            "buildings": {g.facts.numbers[f]: (self.owner[f], KIND_NAMES[self.kind[f]])
                          for f in range(g.F) if self.owner[f] >= 0},
            "covered": {g.facts.numbers[f]: (self.cover_effect[f], self.cover_until[f])
                        for f in range(g.F) if self.cover_effect[f]},
            "ended": self.ended,
            # what the board prints: each field's production pips and the fields it borders (numbers)
            "fields": {g.facts.numbers[f]: {"level": g.facts.levels[f],
                                            "borders": sorted(g.facts.numbers[n] for n in g.facts.neighbours[f])}
                       for f in range(g.F)},
        }

    def action_kind(self, action: int) -> int:
        """0 settle, 1 town, 2 industry, 3 dismantle, 4 sabbatical, 5 end the turn (a chance outcome: 0)."""
        if self.phase != TURN:
            return 0
        return min(action // self.game.F, 4) + (1 if action == self.game.END else 0)

    def action_to_string(self, player: int, action: int) -> str:
        g = self.game
        if player == CHANCE:
            return {STONE: lambda: "tower falls" if action else "tower stands",
                    CARD: lambda: f"draw {g.cards[action].name}",
                    DIE1: lambda: f"first die {action}", DIE2: lambda: f"second die {action}",
                    TIMER: lambda: "timer rings" if action else "timer quiet"}.get(
                        self.phase, lambda: str(action))()
        if action == g.END:
            return "end turn"
        if action == g.SABBATICAL:
            return "sabbatical"
        verb = ("settle", "town on", "industry on", "dismantle")[action // g.F]
        return f"{verb} {g.facts.numbers[action % g.F]}"
