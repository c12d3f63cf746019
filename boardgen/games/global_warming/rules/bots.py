"""Global Warming's own bots and the evaluation the generic greedy bot uses.

Danger: the chance that a tile sinks soon, from what the table shows. A line coin showing the value 3 is one
of the 3s still on the island, each as likely as the others (a suit face likewise); the k-th coin of the
line weighs ``danger_weights[k]`` (the leftmost sinks this turn). ``evaluate`` is the bot's own pawn's danger
(negated), rivals' danger, room to move and the rivals already drowned.

- ``cautious``: the greedy bot of the issue. At the dice it scores each face by playing that face greedily on
  the present island (a blank: the best tile move), then draws a face with probability growing with its score
  (softmax, ``bots.temperature``), so two cautious bots do not always cancel. Each pawn step keeps its own
  pawn off likely-to-sink tiles and pushes rivals onto them; a blank moves the tile that best strands a rival
  on a dangerous tile or frees its own pawn.
- ``search``: Monte Carlo search over determinised hidden coins (``resample_for``) with cautious playouts at
  the dice and random steps elsewhere, for smaller runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from boardgen.games.global_warming.rules.engine import (
    PASS,
    PAWN_BASE,
    PICK_BASE,
    PLACE_BASE,
    TILES,
    VALUE_UP,
    GWState,
    rank_of,
    suit_of,
)
from boardgen.games.global_warming.schema import BotsSpec
from boardgen.play.api import CHANCE, SIMULTANEOUS, Game, State, sample_chance
from boardgen.play.bots import GENERIC_BOTS, Bot, BotFactory

DEFAULT_BOTS = BotsSpec.model_validate({})


def danger(state: GWState, weights: tuple[float, ...] | None = None) -> list[float]:
    """Per tile, the weighted chance it sinks with one of the line's coins (what every player can know)."""
    weights = weights or getattr(state.game, "bot_spec", DEFAULT_BOTS).danger_weights
    out = [0.0] * TILES
    on_table = [c for c in range(TILES) if state.tile_cell[c] >= 0]
    for k, (coin, face) in enumerate(state.line):
        if k >= len(weights):
            break
        if face == VALUE_UP:
            r = rank_of(coin)
            cands = [c for c in on_table if rank_of(c) == r]
        else:
            s = suit_of(coin)
            cands = [c for c in on_table if suit_of(c) == s]
        if cands:
            p = weights[k] / len(cands)
            for c in cands:
                out[c] += p
    return out


def _free_neighbours(state: GWState, tile: int) -> int:
    n = 0
    for _, cell in state.game.neighbours[state.tile_cell[tile]]:
        t = state.cell_tile[cell]
        if t >= 0 and state.tile_pawn[t] < 0:
            n += 1
    return n


def position_value(state: GWState, seat: int, dang: list[float], spec: BotsSpec) -> float:
    if state.phase == "over":
        return 10.0 if state.winner() == seat else -10.0 + len(state.eliminated)
    if not state.alive[seat]:
        return -10.0 + len(state.eliminated)
    own = state.pawn_tile[seat]
    free = _free_neighbours(state, own)
    value = -dang[own] + spec.mobility * free - (spec.trapped if free == 0 else 0.0)
    for s, t in enumerate(state.pawn_tile):
        if s == seat:
            continue
        if t < 0:
            value += 2.0
        else:
            value += spec.rival_weight * dang[t]
    return value


def evaluate(state: GWState, seat: int) -> float:
    spec = getattr(state.game, "bot_spec", DEFAULT_BOTS)
    return position_value(state, seat, danger(state, spec.danger_weights), spec)


def _step_value(state: GWState, seat: int, action: int, dang: list[float], spec: BotsSpec) -> float:
    """The position after one pawn step, by moving the pawn in place and back (no copy of the state)."""
    pawn, d = divmod(action - PAWN_BASE, 4)
    start = state.pawn_tile[pawn]
    target = -1
    for dd, cell in state.game.neighbours[state.tile_cell[start]]:
        if dd == d:
            target = state.cell_tile[cell]
    state.tile_pawn[start], state.tile_pawn[target], state.pawn_tile[pawn] = -1, pawn, target
    try:
        return position_value(state, seat, dang, spec)
    finally:
        state.tile_pawn[target], state.tile_pawn[start], state.pawn_tile[pawn] = -1, pawn, start


def best_action(state: GWState, seat: int, rng: random.Random, spec: BotsSpec) -> int:
    """The cautious choice at an acting node of ``seat`` (a pawn step, a tile to take or where to put it)."""
    actions = state.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    dang = danger(state, spec.danger_weights)
    if actions[0] == PASS or PICK_BASE <= actions[0] < PLACE_BASE:
        # a blank: score each (tile, destination) pair, take the tile of the best pair (or pass)
        best, best_v = PASS, position_value(state, seat, dang, spec) if PASS in actions else -math.inf
        for a in actions:
            if a == PASS:
                continue
            _pair, v = _best_place(state, a - PICK_BASE, seat, dang, spec)
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best
    scored = [(_step_value(state, seat, a, dang, spec), a) for a in actions]
    top = max(v for v, _ in scored)
    choice = [a for v, a in scored if v >= top - 1e-9]
    return choice[int(rng.random() * len(choice))]


def _best_place(state: GWState, tile: int, seat: int, dang: list[float], spec: BotsSpec) -> tuple[int, float]:
    best, best_v = -1, -math.inf
    for cell in state.destinations(tile):
        old = state.tile_cell[tile]
        state.cell_tile[old] = -1
        state.cell_tile[cell] = tile
        state.tile_cell[tile] = cell
        v = position_value(state, seat, dang, spec)
        state.cell_tile[cell] = -1
        state.cell_tile[old] = tile
        state.tile_cell[tile] = old
        if v > best_v + 1e-9:
            best, best_v = PLACE_BASE + cell, v
    return best, best_v


def place_action(state: GWState, seat: int, spec: BotsSpec) -> int:
    dang = danger(state, spec.danger_weights)
    action, _ = _best_place(state, state.picked, seat, dang, spec)
    return action


def face_scores(state: GWState, seat: int, rng: random.Random, spec: BotsSpec) -> list[float]:
    """How good each die face looks if ``seat`` alone acted with it now."""
    scores = []
    for face in range(6):
        trial = state.clone()
        trial.queue = [(seat, face)]
        trial.moves_left = face
        trial.picked = -1
        trial.phase = "act"
        if not trial._act_legal():
            scores.append(evaluate(state, seat) - 0.05)
            continue
        steps = 0
        while trial.phase == "act" and steps < 8:
            if face == 0 and trial.picked >= 0:
                a = place_action(trial, seat, spec)
            else:
                a = best_action(trial, seat, rng, spec)
            trial._apply_action(a)
            steps += 1
        if trial.phase == "act":  # unreachable with a legal quota; keep the score of what was played
            pass
        # the trial ran the sink's bookkeeping (draw phase); score the island before the draw
        scores.append(evaluate(trial, seat) if trial.phase != "over" else evaluate(state, seat))
    return scores


class CautiousBot(Bot):
    name = "cautious"

    def __init__(self, game: Game, seat: int, rng: random.Random, spec: BotsSpec | None = None) -> None:
        super().__init__(game, seat, rng)
        self.spec: BotsSpec = spec if spec is not None else getattr(game, "bot_spec", DEFAULT_BOTS)

    def step(self, state: State) -> int:
        assert isinstance(state, GWState)
        if state.current_player() == SIMULTANEOUS:
            if not state.alive[self.seat]:
                return PASS
            scores = face_scores(state, self.seat, self.rng, self.spec)
            if self.spec.late_bonus:
                order = state.game.order_rank
                scores = [v + self.spec.late_bonus * order[f] / 5 for f, v in enumerate(scores)]
            top = max(scores)
            weights = [math.exp((s - top) / self.spec.temperature) for s in scores]
            r = self.rng.random() * sum(weights)
            acc = 0.0
            for face, w in enumerate(weights):
                acc += w
                if r < acc:
                    return face
            return 5
        if state.picked >= 0:
            return place_action(state, self.seat, self.spec)
        return best_action(state, self.seat, self.rng, self.spec)


class SearchBot(Bot):
    """Flat Monte Carlo over this seat's choices on determinised coins; playouts: cautious dice, random steps."""

    name = "search"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        self.spec: BotsSpec = getattr(game, "bot_spec", DEFAULT_BOTS)
        self.cautious = CautiousBot(game, seat, rng, self.spec)

    def step(self, state: State) -> int:
        assert isinstance(state, GWState)
        actions = state.legal_actions(self.seat)
        if len(actions) == 1:
            return actions[0]
        if state.current_player() != SIMULTANEOUS and state.picked >= 0:
            return place_action(state, self.seat, self.spec)
        if state.current_player() != SIMULTANEOUS and (actions[0] == PASS or PICK_BASE <= actions[0] < PLACE_BASE):
            return self.cautious.step(state)
        if state.current_player() != SIMULTANEOUS:
            actions = [a for a in actions if PAWN_BASE <= a < PICK_BASE]
        total = [0.0] * len(actions)
        count = [0] * len(actions)
        playouts = max(self.spec.mcts_playouts, len(actions))
        for n in range(playouts):
            i = n % len(actions)
            world = state.resample_for(self.seat, self.rng)
            total[i] += self._playout(world, actions[i])
            count[i] += 1
        best = max(range(len(actions)), key=lambda k: (total[k] / count[k], -k))
        return actions[best]

    def _playout(self, state: GWState, action: int) -> float:
        rng = self.rng
        if state.current_player() == SIMULTANEOUS:
            joint = [action if p == self.seat else self._quick_face(state, p)
                     for p in range(state.game.players)]
            state.apply_actions(joint)
        else:
            state.apply_action(action)
        turns = 0
        start = state.turn
        while not state.is_terminal() and state.turn - start < 4:
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif player == SIMULTANEOUS:
                state.apply_actions([self._quick_face(state, p) for p in range(state.game.players)])
            else:
                state.apply_action(best_action(state, player, rng, self.spec) if state.picked < 0
                                   else place_action(state, player, self.spec))
            turns += 1
        if state.is_terminal():
            return 1.0 if state.winner() == self.seat else 0.0
        value = evaluate(state, self.seat)
        return 1.0 / (1.0 + math.exp(-value))

    def _quick_face(self, state: GWState, seat: int) -> int:
        if not state.alive[seat]:
            return PASS
        return int(self.rng.random() * 6)


def game_bots() -> Mapping[str, BotFactory]:
    bots: dict[str, Any] = dict(GENERIC_BOTS)
    bots["cautious"] = CautiousBot
    bots["search"] = SearchBot
    return bots
