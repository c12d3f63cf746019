"""The rules: no move onto a piece's own cell, a mandatory move is enforced, an empty bank's
harvest is not counted as a harvest."""

from __future__ import annotations

import random

import pytest

from boardgen.games.global_wellbeing.rules.board import hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import Bot, GreedyBot, PlannerBot, RandomBot, bot_factory
from boardgen.games.global_wellbeing.rules.engine import EV, play_game
from boardgen.games.global_wellbeing.rules.state import GameState
from boardgen.games.global_wellbeing.schema import RulesConfig, load_template
from boardgen.play.api import IllegalActionError

ZONES = load_template().zones
BOARD = hex_rectangle(12, 10, ZONES)


def rules(**changes: object) -> RulesConfig:
    return RulesConfig().model_copy(update={**changes})


class Recorder(Bot):
    """Wraps a bot and records (source, destination) of every move it makes."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.rng)
        self.inner = inner
        self.name = inner.name
        self.moves: list[tuple[int, int]] = []
        self.src: int | None = None

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        self.src = self.inner.choose_move_piece(state, p, must)
        return self.src

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        c = self.inner.choose_cell(state, p, purpose)
        if purpose == "move":
            assert self.src is not None
            self.moves.append((self.src, c))
        return c


class SelfMover(Bot):
    """Always 'moves' its first piece back onto the cell it came from."""

    name = "self-mover"

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        self.src = state.piece_items[p][0]
        return self.src

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        if purpose == "move":
            return self.src
        return state.destinations(p)[0]


class Passer(RandomBot):
    name = "passer"

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        return None


def test_a_piece_cannot_move_onto_its_own_cell() -> None:
    with pytest.raises(IllegalActionError):
        play_game(BOARD, rules(turns=2), [SelfMover(random.Random(1)), RandomBot(random.Random(2))], seed=3)


def test_the_own_cell_is_not_offered_as_a_destination() -> None:
    state = GameState(BOARD, 1, 0, 5, 0)
    state.place(0, 5)
    state.place(0, 6)
    state.lift(0, 5)
    assert 5 in state.destinations(0)  # free again...
    state.moving_from = 5
    assert 5 not in state.destinations(0) and not state.is_legal_destination(0, 5)  # ...but not for this move


@pytest.mark.parametrize("bot", [PlannerBot, GreedyBot, RandomBot])
def test_no_bot_wastes_a_move_and_every_move_counts(bot) -> None:
    """Once 30% of the planner's 'moves' going back to the same cell."""
    config = load_template()
    badge_values = tuple(z.badge_value for z in config.zones.values())
    make = bot_factory(bot.name, config.rules.badge_threshold, badge_values,
                       tuple(z.die for z in config.zones.values()))
    players = [Recorder(make(random.Random(seat))) for seat in range(4)]
    result = play_game(BOARD, config.rules, players, seed=11)
    moves = [m for p in players for m in p.moves]
    assert moves
    assert not [m for m in moves if m[0] == m[1]]
    assert result.events[EV["move"]] + result.events[EV["move_anywhere"]] == len(moves)


def test_mandatory_move_is_enforced() -> None:
    with pytest.raises(IllegalActionError, match=r"stay \(move no piece\)\) is not legal"):
        play_game(BOARD, rules(turns=2, move_optional=False), [Passer(random.Random(1)), Passer(random.Random(2))],
                  seed=5)
    # the shipped bots always move when they must
    factories = [bot_factory(n, 8, (1,) * len(ZONES), tuple(z.die for z in ZONES.values()))
                 for n in ("planner", "greedy", "random")]
    result = play_game(BOARD, rules(move_optional=False), factories, seed=7)
    assert result.events[EV["move_pass"]] == 0
    assert result.events[EV["move"]] + result.events[EV["move_anywhere"]] == 3 * RulesConfig().turns


def test_an_empty_bank_pays_no_harvest() -> None:
    """The simple game with harvests and a bank of no chips: no harvest ever pays, so none is counted."""
    r = rules(turns=6, variant="simple", simple_harvest=True, bank_chips=0)
    factories = [bot_factory("greedy", 8, (1,) * len(ZONES), tuple(z.die for z in ZONES.values()))] * 2
    result = play_game(BOARD, r, factories, seed=9)
    assert result.events[EV["harvest"]] == 0
    assert result.events[EV["harvest_short"]] == 2 * 6
    assert result.chips == (0, 0)
    # with chips in the bank the same game does harvest
    rich = play_game(BOARD, rules(turns=6, variant="simple", simple_harvest=True), factories, seed=9)
    assert rich.events[EV["harvest"]] > 0
