"""The Philanthropist's own bots (besides the generic random, greedy and MCTS).

- ``collector``: the sensible greedy player. If it can pay for a meeple within reach it collects the cheapest
  one; otherwise it heads for the meeple that is cheapest to reach (steps plus cost) and banks the income.
- ``random``: a player with no plan. It helps a meeple within reach it can pay for (a random one of them) and
  otherwise steps toward a meeple picked at random this turn (a random one of the squares that bring it closer).
  The generic uniform pick over all actions (``uniform``) almost never finds the last meeples: every such game
  ran into the turn limit with about 32 of 51 meeples left, so the game's own ending was never played.
- ``planner``: values each meeple by one over what it costs in cubes and in turns (travel, plus the turns needed
  to earn missing cubes) and adds a premium for meeples a rival could take on their next turn (blocking them);
  it always helps a meeple within reach when it can pay (waiting for a better one lost in simulation), the one
  it values most.
"""

from __future__ import annotations

import random

from boardgen.games.philanthropist.rules.engine import PhilanthropistGame, PhilState, king_steps
from boardgen.play.api import State
from boardgen.play.bots import Bot, BotFactory, GreedyBot, MCTSBot, RandomBot

MEAN_WHITE = 3.5
INCOME_PER_TURN = 2.0  # cubes a turn on average (moves, paydays and cards), measured by simulation


def _toward(state: PhilState, target: int, legal: list[int], rng: random.Random) -> int:
    """The legal plain move (or, failing that, any legal action) that ends closest to ``target`` (ties at
    random, so no corner of the board is favoured)."""
    n = state.n
    nn = n * n
    here = state.pos[state.player]
    r0, c0 = divmod(here, n)
    tr, tc = divmod(target, n)
    d = state.white
    dr = max(-d, min(d, tr - r0))
    dc = max(-d, min(d, tc - c0))
    best = (r0 + dr) * n + (c0 + dc)
    legal_set = set(legal)
    if best in legal_set:
        return best
    plain = [a for a in legal if a < nn] or legal
    return min(plain, key=lambda a: (king_steps(n, a % nn, target), rng.random()))


class RandomPhilanthropist(Bot):
    name = "random"

    def step(self, state: State) -> int:
        assert isinstance(state, PhilState)
        legal = state.legal_actions(self.seat)
        nn = state.n * state.n
        collects = [a for a in legal if a >= nn]
        if collects:
            return collects[int(self.rng.random() * len(collects))]
        meeples = [sq for sq, k in enumerate(state.meeple_at) if k >= 0]
        if not meeples:
            return legal[int(self.rng.random() * len(legal))]
        target = meeples[int(self.rng.random() * len(meeples))]
        now = king_steps(state.n, state.pos[self.seat], target)
        closer = [a for a in legal if king_steps(state.n, a % nn, target) < now] or legal
        return closer[int(self.rng.random() * len(closer))]


class CollectorBot(Bot):
    name = "collector"

    def step(self, state: State) -> int:
        assert isinstance(state, PhilState)
        legal = state.legal_actions(self.seat)
        nn = state.n * state.n
        costs = state.rules.costs
        collects = [a for a in legal if a >= nn]
        if collects:
            return min(collects, key=lambda a: (costs[state.meeple_at[a - nn]], self.rng.random()))
        here = state.pos[self.seat]
        targets = [(king_steps(state.n, here, sq) + costs[k], self.rng.random(), sq)
                   for sq, k in enumerate(state.meeple_at) if k >= 0]
        if not targets:
            return legal[0]
        return _toward(state, min(targets)[2], legal, self.rng)


class PlannerBot(Bot):
    name = "planner"
    block_premium = 0.25
    collect_share = 0.0  # a meeple within reach is always worth taking (measured: waiting for a better one loses)

    def _value(self, state: PhilState, seat: int, sq: int, kind: int) -> float:
        cost = state.rules.costs[kind]
        steps = king_steps(state.n, state.pos[seat], sq)
        travel = 0.0 if steps == 0 else max(1.0, steps / MEAN_WHITE)
        short = max(0, cost - state.cubes[seat])
        turns = max(travel, short / INCOME_PER_TURN) + 1.0
        value = 1.0 / (cost + INCOME_PER_TURN * turns)
        for rival in range(state.game.info.num_players):
            if rival != seat and state.cubes[rival] >= cost and king_steps(state.n, state.pos[rival], sq) <= 6:
                value *= 1.0 + self.block_premium
                break
        return value

    def step(self, state: State) -> int:
        assert isinstance(state, PhilState)
        legal = state.legal_actions(self.seat)
        nn = state.n * state.n
        plans = [(self._value(state, self.seat, sq, k), self.rng.random(), sq)
                 for sq, k in enumerate(state.meeple_at) if k >= 0]
        if not plans:
            return legal[0]
        best_value, _tie, target = max(plans)
        collects = [a for a in legal if a >= nn]
        if collects:
            # value of collecting now: this turn's meeple, paid for now, no travel
            now = max(collects, key=lambda a: (self._value(state, self.seat, a - nn, state.meeple_at[a - nn]),
                                               self.rng.random()))
            now_value = 1.0 / (state.rules.costs[state.meeple_at[now - nn]] + INCOME_PER_TURN)
            if now_value >= self.collect_share * best_value:
                return now
        return _toward(state, target, legal, self.rng)


def philanthropist_bots() -> dict[str, BotFactory]:
    return {"random": RandomPhilanthropist, "uniform": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot,
            "collector": CollectorBot, "planner": PlannerBot}


def make_bot(name: str, game: PhilanthropistGame, seat: int, seed: int = 0) -> Bot:
    return philanthropist_bots()[name](game, seat, random.Random(seed))
