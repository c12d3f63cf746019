"""Resilience Earth's own bots: a grower (RES first), a steward (LQ, few stones, dismantles when the tower is
risky), a sabbatical player, and a mixed one. They read the state directly (the same facts a player sees) and
answer with a legal action; the generic random, greedy and MCTS bots play through the API alone."""

from __future__ import annotations

import random
from collections.abc import Mapping

from boardgen.games.resilience_earth.rules.engine import INDUSTRY, SETTLEMENT, TOWN, ResilienceGame, ResilienceState
from boardgen.play.api import Game, State
from boardgen.play.bots import GENERIC_BOTS, Bot, BotFactory


class PolicyBot(Bot):
    """A rule-of-thumb player; subclasses set the knobs."""

    name = "policy"
    build_below = 1.0  # put stones on the tower only while one stone topples it with less than this chance
    dismantle_at = 2.0  # dismantle a town or industry while a stone would topple the tower with this chance
    industries = True
    towns = True
    max_fields = 99  # stop settling at this many fields
    sabbatical_when_production_below = -1  # take a sabbatical when the round would pay less RES than this
    sabbatical_when_lopsided = False
    drops_poor_fields = False  # give up a 1-pip settlement beside an industry (it pays less than the LQ it costs)

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        assert isinstance(game, ResilienceGame)
        self.g: ResilienceGame = game
        self.dismantled_in = 0  # the round this bot last dismantled in: it builds no stones back that round

    def risk(self, s: ResilienceState) -> float:
        return self.g.hazard[min(s.height, len(self.g.hazard) - 1)]

    def step(self, state: State) -> int:
        assert isinstance(state, ResilienceState)
        s, g, p = state, self.g, self.seat
        actions = s.legal_actions()  # in order: the bot's draws follow it (a set's order is CPython's secret)
        legal = set(actions)
        if g.SABBATICAL in legal and self.wants_sabbatical(s):
            return g.SABBATICAL
        risk = self.risk(s)
        if risk >= self.dismantle_at:
            mine = [f for f in range(g.F) if s.owner[f] == p and s.kind[f] in (TOWN, INDUSTRY)]
            if mine:
                f = max(mine, key=lambda f: (s.kind[f], -g.facts.levels[f], f))
                self.dismantled_in = s.round
                return g.DISMANTLE + f
        if self.drops_poor_fields:
            poor = [f for f in range(g.F) if s.owner[f] == p and s.kind[f] == SETTLEMENT and g.facts.levels[f] == 1
                    and g.DISMANTLE + f in legal and any(s.kind[n] == INDUSTRY for n in g.facts.neighbours[f])]
            if poor:
                self.dismantled_in = s.round
                return g.DISMANTLE + poor[0]
        settles = [a - g.SETTLE for a in actions if g.SETTLE <= a < g.TOWN]
        if self.drops_poor_fields:  # nor settles one
            settles = [f for f in settles if g.facts.levels[f] > 1
                       or not any(s.kind[n] == INDUSTRY for n in g.facts.neighbours[f])]
        owned = sum(1 for o in s.owner if o == p)
        if settles and owned < self.max_fields:
            return g.SETTLE + max(settles, key=lambda f: self.settle_value(s, f))
        if risk < self.build_below and self.dismantled_in != s.round:
            if self.industries:
                ind = [a - g.INDUSTRY for a in actions if g.INDUSTRY <= a < g.DISMANTLE]
                if ind:
                    return g.INDUSTRY + max(ind, key=lambda f: (g.facts.levels[f], -f))
            if self.towns:
                towns = [a - g.TOWN for a in actions if g.TOWN <= a < g.INDUSTRY]
                if towns:
                    return g.TOWN + max(towns, key=lambda f: (g.facts.levels[f], -f))
        return g.END

    def settle_value(self, s: ResilienceState, f: int) -> tuple[float, int]:
        g = self.g
        near_industry = any(s.kind[n] == INDUSTRY for n in g.facts.neighbours[f])
        cost = s.settle_cost(self.seat, f)
        free_borders = sum(1 for n in g.facts.neighbours[f] if s.owner[n] == -1)
        noise = self.rng.random() * 0.5  # players differ in taste: ties and near-ties go either way
        return (g.facts.levels[f] * 2 - cost - 2 * near_industry + 0.1 * free_borders + noise, -f)

    def wants_sabbatical(self, s: ResilienceState) -> bool:
        p = self.seat
        owned = sum(1 for o in s.owner if o == p)
        if (self.sabbatical_when_production_below >= 0 and owned >= 3
                and s.production(p) < self.sabbatical_when_production_below):
            return True
        if self.sabbatical_when_lopsided:
            res = s.tangible(p)
            total = res + s.lq[p]
            return total > 10 and res / total > self.g.rules.lopsided_share - 0.1
        return False


class GrowerBot(PolicyBot):
    """Settles and builds whatever pays most; stops adding stones only when one stone topples the tower with
    15% or more (the toppler loses everything: building on past that is not growth but a coin toss)."""

    name = "grower"
    build_below = 0.15


class StewardBot(PolicyBot):
    """Settles for LQ, builds towns only while the tower is safe, no industries, dismantles when it is not, and
    gives up a poor settlement that loses LQ beside an industry."""

    name = "steward"
    industries = False
    drops_poor_fields = True
    build_below = 0.03
    dismantle_at = 0.08


class KeeperBot(StewardBot):
    """A steward who never dismantles (to see whether dismantling pays)."""

    name = "keeper"
    dismantle_at = 2.0


class SabbaticalBot(PolicyBot):
    """A few fields, then a sabbatical whenever the round would pay less than the sabbatical is worth."""

    name = "sabbatical"
    industries = False
    max_fields = 5
    build_below = 0.05
    dismantle_at = 0.12
    sabbatical_when_production_below = 9


class MixedBot(PolicyBot):
    """Grows while the tower is low (industries first), turns steward as it rises - taking its industries down
    first, two stones each - and rests when its score gets lopsided."""

    name = "mixed"
    build_below = 0.06
    dismantle_at = 0.08
    sabbatical_when_lopsided = True


OWN_BOTS: dict[str, BotFactory] = {cls.name: cls for cls in (GrowerBot, StewardBot, KeeperBot, SabbaticalBot, MixedBot)}


def all_bots() -> Mapping[str, BotFactory]:
    return {**GENERIC_BOTS, **OWN_BOTS}


__all__ = ["OWN_BOTS", "GrowerBot", "KeeperBot", "MixedBot", "SabbaticalBot", "StewardBot", "all_bots"]
