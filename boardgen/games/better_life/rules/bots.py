"""BETTER Life's own bots: four attitudes to the commons, differing in what they bid at the End of Year.

All of them read only ``state.observation(seat)`` (their own IP, hand and target card, the public meters and the
bids revealed at earlier votes) and share one sensible way of handling cards and events; only the sealed bid
differs:

- ``free-rider``: never bids; lets the others carry the policies and keeps its IP for Victory Points.
- ``fair-share``: bids its even share of a successful vote (the success threshold divided by the players).
- ``target-seeker``: bids only for a policy on its own target card (more for the primary than the tertiary).
- ``meter-reader``: reads the meters, works out which band the table needs (success when the policy goal or
  the loss meter demands it) and tops the pool up to it, counting on each other player for the least they have
  ever given at a vote.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from boardgen.games.better_life.rules.engine import (
    ACCEPT_EVENT,
    BID_BASE,
    BUY_OFF,
    CANCEL_EVENT,
    DISCARD_BASE,
    PICK_BASE,
    PLAY_BASE,
    PLAY_ROLE,
    ROLL,
    BetterLifeGame,
)
from boardgen.play.api import SIMULTANEOUS, Game, State
from boardgen.play.bots import GENERIC_BOTS, Bot, BotFactory

BAD_EVENTS = {"loss", "all-lose-ip", "lose-ip", "pay-fund", "skip", "back"}
CARD_VALUE = {"gain-ip": 5, "take-each": 5, "cancel-event": 4, "take-fund": 4, "restore": 3, "roll-bonus": 2,
              "draw-action": 1}


class BetterLifeBot(Bot):
    name = "better-life"
    cooperative = True

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        assert isinstance(game, BetterLifeGame)
        self.bl = game

    # ------------------------------------------------------------------ the bid
    def bid(self, obs: Mapping[str, Any]) -> int:
        raise NotImplementedError

    # ------------------------------------------------------------------ everything else
    def step(self, state: State) -> int:
        legal = state.legal_actions(self.seat)
        if len(legal) == 1:
            return legal[0]
        obs = state.observation(self.seat)
        if state.current_player() == SIMULTANEOUS:
            wanted = max(0, min(self.bid(obs), len(legal) - 1))
            return BID_BASE + wanted
        phase = obs["phase"]
        rules = self.bl.rules
        if phase == "start":
            if PLAY_ROLE in legal:
                return PLAY_ROLE
            plays = [a for a in legal if a >= PLAY_BASE]
            loss = int(obs["loss"])
            limit = self.bl.config.meters.loss_limit
            for a in sorted(plays, key=lambda a: -self._value(rules.actions[a - PLAY_BASE].effect, loss)):
                effect = rules.actions[a - PLAY_BASE].effect
                if effect == "restore" and loss < (2 if self.cooperative else limit - 1):
                    continue
                if effect == "draw-action" and int(obs["hand_sizes"][self.seat]) >= 3:
                    continue
                return a
            return ROLL
        if phase == "event":
            event = rules.decks.events[[e.id for e in rules.events].index(str(obs["event"]))]
            if event.effect not in BAD_EVENTS:
                return ACCEPT_EVENT
            if CANCEL_EVENT in legal:
                return CANCEL_EVENT
            if BUY_OFF in legal and event.effect == "loss":
                loss = int(obs["loss"])
                if self.cooperative or loss + event.amount >= self.bl.config.meters.loss_limit:
                    return BUY_OFF
            return ACCEPT_EVENT
        if phase == "pick":
            return max(legal, key=lambda a: (CARD_VALUE[rules.actions[a - PICK_BASE].effect], -a))
        if phase == "discard":
            return min(legal, key=lambda a: (CARD_VALUE[rules.actions[a - DISCARD_BASE].effect], a))
        return legal[0]

    def _value(self, effect: str, loss: int) -> int:
        return CARD_VALUE[effect] + (3 if effect == "restore" and loss >= 3 else 0)

    # ------------------------------------------------------------------ helpers for bids
    def success_min(self) -> int:
        return self.bl.config.votes[2].min_ip

    def semi_min(self) -> int:
        return self.bl.config.votes[1].min_ip


class FreeRider(BetterLifeBot):
    name = "free-rider"
    cooperative = False

    def bid(self, obs: Mapping[str, Any]) -> int:
        return 0


class FairShare(BetterLifeBot):
    name = "fair-share"

    def bid(self, obs: Mapping[str, Any]) -> int:
        return math.ceil(self.success_min() / self.bl.config.players.usual)


class TargetSeeker(BetterLifeBot):
    name = "target-seeker"
    cooperative = False
    by_rank = (5, 3, 2)

    def bid(self, obs: Mapping[str, Any]) -> int:
        target = tuple(obs["my_target"])
        policy = obs["policy_now"]
        return self.by_rank[target.index(policy)] if policy in target else 0


class MeterReader(BetterLifeBot):
    name = "meter-reader"

    def bid(self, obs: Mapping[str, Any]) -> int:
        c = self.bl.config
        need = c.meters.policy_goal - int(obs["policy"])
        loss = int(obs["loss"])
        # success while the goal is not reached or the loss meter is close; a semi-success keeps loss level
        wanted = self.success_min() if need > 0 or loss >= c.meters.loss_limit - 2 else self.semi_min()
        history = tuple(obs["bid_history"])
        fair = math.ceil(self.success_min() / c.players.usual)
        # count on each other player for the least they have ever given (a fair share before any vote):
        # free riders are not counted on and nobody is assumed to repeat a large bid; top the pool up to the band
        others = sum(min((year[s] for year in history), default=fair) for s in range(c.players.usual) if s != self.seat)
        return max(0, wanted - others)


BETTER_LIFE_BOTS: dict[str, BotFactory] = {
    "free-rider": FreeRider, "fair-share": FairShare, "target-seeker": TargetSeeker, "meter-reader": MeterReader,
}


def all_bots() -> dict[str, BotFactory]:
    return {**GENERIC_BOTS, **BETTER_LIFE_BOTS}
