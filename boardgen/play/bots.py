"""Bots that play any game through the rules API alone: random, one-ply greedy on the game's evaluation, MCTS.

A bot is made for one seat with its own ``random.Random``; ``step(state)`` returns that seat's action at a node
where the seat decides (its own turn, or its part of a simultaneous node). Games may add bots of their own (the
plug-in's ``bots``); every bot, generic or not, is called the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping

from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, State, sample_chance


class Bot:
    """What one seat decides. Subclasses override ``step``."""

    name = "bot"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng

    def step(self, state: State) -> int:
        raise NotImplementedError


BotFactory = Callable[[Game, int, random.Random], Bot]


class RandomBot(Bot):
    """Any legal action, uniformly; in a game whose State names its actions' kinds (``action_kind(action)``:
    settle, build, dismantle, end the turn...), first a kind uniformly among the kinds open, then an action of
    that kind. Without it a rule with few actions (one town against thirty fields to settle) is almost never
    played, and the report could not judge it."""

    name = "random"

    def step(self, state: State) -> int:
        actions = state.legal_actions(self.seat)
        kind_of = getattr(state, "action_kind", None)
        if kind_of is not None and len(actions) > 1:
            kinds: list[int] = []
            for a in actions:
                k = kind_of(a)
                if k not in kinds:
                    kinds.append(k)
            if len(kinds) > 1:
                chosen = kinds[int(self.rng.random() * len(kinds))]
                actions = [a for a in actions if kind_of(a) == chosen]
        return actions[int(self.rng.random() * len(actions))]


def _advance(state: State, seat: int, action: int, rng: random.Random) -> State:
    """A copy of ``state`` after ``seat`` plays ``action`` (the others, at a simultaneous node, act at random)."""
    child = state.clone()
    if child.current_player() == SIMULTANEOUS:
        joint = []
        for p in range(child.game.info.num_players):
            if p == seat:
                joint.append(action)
            else:
                options = child.legal_actions(p)
                joint.append(options[int(rng.random() * len(options))])
        child.apply_actions(joint)
    else:
        child.apply_action(action)
    return child


class GreedyBot(Bot):
    """The action whose result the game's ``evaluate`` likes best for this seat, one ply deep (chance nodes
    that follow are averaged over a few samples). Ties go to a random one of the best."""

    name = "greedy"
    samples = 3

    def step(self, state: State) -> int:
        actions = state.legal_actions(self.seat)
        if len(actions) == 1:
            return actions[0]
        best: list[int] = []
        best_value = -math.inf
        for action in actions:
            total = 0.0
            for _ in range(self.samples):
                child = _advance(state, self.seat, action, self.rng)
                while child.current_player() == CHANCE:
                    child.apply_action(sample_chance(child, self.rng))
                total += self.game.evaluate(child, self.seat)
            if total > best_value + 1e-12:
                best, best_value = [action], total
            elif abs(total - best_value) <= 1e-12:
                best.append(action)
        return best[int(self.rng.random() * len(best))]


def rollout(state: State, rng: random.Random, max_steps: int = 100_000) -> list[float]:
    """Play ``state`` (a copy) to the end with uniformly random actions; the returns."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif player == SIMULTANEOUS:
            joint = []
            for p in range(state.game.info.num_players):
                options = state.legal_actions(p)
                joint.append(options[int(rng.random() * len(options))])
            state.apply_actions(joint)
        else:
            options = state.legal_actions()
            state.apply_action(options[int(rng.random() * len(options))])
        steps += 1
    return state.returns()


class MCTSBot(Bot):
    """Monte Carlo tree search at the root: UCB1 over this seat's actions, each playout a random game to the
    end. Cheap and game-agnostic; it reads the full state, so in hidden-information games it cheats unless the
    game determinises (``State.resample_for(player, rng)``, when a game provides it)."""

    name = "mcts"
    playouts = 60
    exploration = 1.4

    def step(self, state: State) -> int:
        actions = state.legal_actions(self.seat)
        if len(actions) == 1:
            return actions[0]
        info = self.game.info
        span = (info.max_utility - info.min_utility) or 1.0
        visits = [0] * len(actions)
        value = [0.0] * len(actions)
        resample = getattr(state, "resample_for", None)
        for n in range(1, max(self.playouts, len(actions)) + 1):
            if n <= len(actions):
                i = n - 1
            else:
                log_n = math.log(n)
                i = max(range(len(actions)),
                        key=lambda k: value[k] / visits[k] + self.exploration * math.sqrt(log_n / visits[k]))
            root = resample(self.seat, self.rng) if resample is not None else state
            child = _advance(root, self.seat, actions[i], self.rng)
            returns = rollout(child, self.rng)
            visits[i] += 1
            value[i] += (returns[self.seat] - info.min_utility) / span
        top = max(visits)
        best = [a for a, v in zip(actions, visits, strict=True) if v == top]
        return best[int(self.rng.random() * len(best))]


GENERIC_BOTS: Mapping[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def play_with_bots(state: State, bots: list[Bot], rng: random.Random, max_steps: int = 1_000_000) -> State:
    """Run ``state`` to its end: chance from ``rng``, every seat's choice from its bot. Returns the state."""
    for _ in range(max_steps):
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif player == SIMULTANEOUS:
            state.apply_actions([bot.step(state) for bot in bots])
        else:
            state.apply_action(bots[player].step(state))
    raise RuntimeError(f"game did not end within {max_steps} actions")
