"""A simulated game played again through the rules API, move by move: the sample games `boardgen simulate` keeps
in results.json (index, seed, line-up) are enough to see what every seat and every die did.

Game ``index`` of a simulation is seeded from the master seed and ``index`` alone (``derive_seed``), its seats'
bots from their own derived seeds, so ``replay_game`` plays the very game the simulation played (through the
API, whichever path played it there: a kernel plays the same games field for field).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, Outcome, sample_chance
from boardgen.play.simulate import derive_seed, lineup

if TYPE_CHECKING:
    from boardgen.plugin import BuildContext, GamePlugin

MAX_MOVES = 1_000_000


class Move(NamedTuple):
    """One action: the seat that took it (``CHANCE`` for a die or a draw), the action and how it reads. At a
    simultaneous node each seat's action is a move of its own, in seat order."""

    player: int
    action: int
    text: str


@dataclass(frozen=True)
class Replay:
    index: int
    seed: int  # the game's own seed (``derive_seed(master, "game", index)``)
    lineup: tuple[str, ...]
    moves: list[Move]
    outcome: Outcome


def replay_game(plugin: GamePlugin, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, index: int,
                rotate: bool = True) -> Replay:
    """Game ``index`` of the simulation ``boardgen simulate`` runs with this master ``seed``, bots and rotation,
    played again through the rules API with every move recorded; its outcome equals the simulation's."""
    game = ctx.value(f"game:{players}", lambda: plugin.new_game(ctx, players))
    factories = plugin.bots()
    names = lineup(tuple(bots), players, index, rotate)
    unknown = [b for b in names if b not in factories]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; expected one of {', '.join(sorted(factories))}")
    game_seed = derive_seed(seed, "game", index)
    # the seeds the simulation used (FastPath.game_seeds) and the same loop as bots.play_with_bots
    setup_seed, chance_seed = plugin.fast.game_seeds(tuple(bots), game_seed)
    chance_rng = random.Random(chance_seed)
    seats = [factories[name](game, seat, random.Random(derive_seed(game_seed, "seat", seat)))
             for seat, name in enumerate(names)]
    state = game.new_initial_state(setup_seed)
    moves: list[Move] = []
    for _ in range(MAX_MOVES):
        player = state.current_player()
        if player == TERMINAL:
            return Replay(index, game_seed, names, moves, state.outcome())
        if player == CHANCE:
            action = sample_chance(state, chance_rng)
            moves.append(Move(CHANCE, action, state.action_to_string(CHANCE, action)))
            state.apply_action(action)
        elif player == SIMULTANEOUS:
            joint = [bot.step(state) for bot in seats]
            moves.extend(Move(seat, a, state.action_to_string(seat, a)) for seat, a in enumerate(joint))
            state.apply_actions(joint)
        else:
            action = seats[player].step(state)
            moves.append(Move(player, action, state.action_to_string(player, action)))
            state.apply_action(action)
    raise RuntimeError(f"game {index} did not end within {MAX_MOVES} actions")
