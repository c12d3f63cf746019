"""boardgen games in OpenSpiel: OpenSpiel's own random_sim_test and MCTS bot through the adapter, for the
flagship, for every installed game, and for a small simultaneous-move, hidden-information game defined here."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import boardgen.geomap.build  # noqa: E402
from boardgen.games.global_wellbeing.rules.board import RulesBoard, hex_rectangle  # noqa: E402
from boardgen.games.global_wellbeing.rules.engine import WellbeingGame  # noqa: E402
from boardgen.games.global_wellbeing.schema import load_template  # noqa: E402
from boardgen.geomap.model import Board  # noqa: E402
from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Outcome, State  # noqa: E402
from boardgen.play.openspiel import play_mcts_game, register_games, to_pyspiel  # noqa: E402
from boardgen.plugin import BuildContext, installed_games  # noqa: E402
from boardgen.template import read_template  # noqa: E402

ZONES = load_template().zones


# ---------------------------------------------------------------------------------- a tiny test game

class SealedBids(Game):
    """Chance deals each of two players a secret card 0-2; both bid 0 or 1 at once; the higher bid wins,
    equal bids go to the higher card, equal cards share. Simultaneous moves, hidden information, chance."""

    info = GameInfo(short_name="sealed_bids", long_name="Sealed bids", num_players=2, num_distinct_actions=2,
                    max_chance_outcomes=3, max_game_length=3, min_utility=-1.0, max_utility=1.0,
                    utility="zero_sum", dynamics="simultaneous", information="imperfect")

    def new_initial_state(self, seed: int | None = None) -> BidsState:
        return BidsState(self)


class BidsState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.cards: list[int] = []
        self.bids: list[int] = []

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        return SIMULTANEOUS if not self.bids else TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        node = self.current_player()
        if node == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return [0, 1] if node == SIMULTANEOUS and player is not None and player >= 0 else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(c, 1 / 3) for c in range(3)] if len(self.cards) < 2 else []

    def _apply_action(self, action: int) -> None:
        self.cards.append(action)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self.bids = list(actions)

    def returns(self) -> list[float]:
        if not self.bids:
            return [0.0, 0.0]
        key = [(self.bids[p], self.cards[p]) for p in range(2)]
        return [0.0, 0.0] if key[0] == key[1] else ([1.0, -1.0] if key[0] > key[1] else [-1.0, 1.0])

    def outcome(self) -> Outcome:
        r = self.returns()
        return Outcome(tuple(r), tuple(p for p in range(2) if r[p] == max(r)), 1)

    def observation(self, player: int) -> dict[str, Any]:
        view: dict[str, Any] = {"my card": self.cards[player] if 0 <= player < len(self.cards) else None}
        if self.bids:
            view["bids"] = self.bids
        return view

    def observation_tensor(self, player: int) -> list[float]:
        out = [0.0] * 5
        if 0 <= player < len(self.cards):
            out[self.cards[player]] = 1.0
        if self.bids:
            out[3:5] = [float(b) for b in self.bids]
        return out

    def action_to_string(self, player: int, action: int) -> str:
        return f"deal {action}" if player == CHANCE else f"bid {action}"

    def clone(self) -> BidsState:
        new = BidsState(self.game)
        new._history, new.cards, new.bids = self._history[:], self.cards[:], self.bids[:]
        return new


def test_simultaneous_hidden_information_game() -> None:
    game = to_pyspiel(SealedBids())
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM and kind.provides_observation_tensor
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    assert state.observation_string(0) != state.observation_string(1)  # each sees only their own card
    assert list(state.observation_tensor(1))[:3] == [1.0, 0.0, 0.0]
    assert state.is_simultaneous_node() and state.legal_actions(0) == [0, 1]
    state.apply_actions([1, 1])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    returns, steps = play_mcts_game(game, seat=0, simulations=10, seed=3)  # through convert_to_turn_based
    assert sum(returns) == 0.0 and steps == 4


# ---------------------------------------------------------------------------------- the flagship

def test_flagship_random_sim_test_on_the_real_board(default_board: Board) -> None:
    board = RulesBoard.from_board(default_board)
    game = WellbeingGame(board, load_template().rules, 6)
    spiel = to_pyspiel(game)
    kind = spiel.get_type()
    assert kind.short_name == "boardgen_global_wellbeing"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert spiel.num_distinct_actions() == 2 * board.n_cells + 1  # place on a cell, pick a piece, stay
    assert spiel.max_chance_outcomes() == 20 and spiel.num_players() == 6
    pyspiel.random_sim_test(spiel, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [1, 2, 3, 6])
def test_flagship_random_sim_test_under_rule_options(players: int) -> None:
    rules = load_template().rules.model_copy(
        update={
            "turns": 6,
            "setup_rounds": 3,
            "stewardship_every": 2,
            "tipping_point_every": 3,
            "badge_threshold": 3,
            "move_next_to_other_pieces": players % 2 == 0,
            "move_optional": players != 3,
            "first_player_rotates": True,
            "end_of_turn_order": "tipping-first" if players > 2 else "stewardship-first",
        }
    )
    spiel = to_pyspiel(WellbeingGame(hex_rectangle(7, 5, ZONES, holes=[(3, 2)]), rules, players))
    pyspiel.random_sim_test(spiel, num_sims=10, serialize=False, verbose=False)


def test_openspiel_mcts_plays_a_flagship_game() -> None:
    rules = load_template().rules.model_copy(update={"turns": 5, "setup_rounds": 3})
    spiel = to_pyspiel(WellbeingGame(hex_rectangle(6, 4, ZONES), rules, 2))
    returns, steps = play_mcts_game(spiel, seat=0, simulations=15, seed=7)
    assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])
    # 2 x 3 setup placements, 5 turns of move decisions (1 or 2 each) and investments, 6 stewardship dice and
    # one tipping point (turn 5)
    assert 2 * 3 + 5 * 2 + 7 <= steps <= spiel.max_game_length()


# ---------------------------------------------------------------------------------- every installed game


@pytest.fixture
def fast_board(monkeypatch: pytest.MonkeyPatch, default_board: Board) -> Board:
    monkeypatch.setattr(boardgen.geomap.build, "build_board",
                        lambda config: dataclasses.replace(default_board, config=config))
    return default_board


@pytest.mark.parametrize("name", sorted(n for n, g in installed_games().items() if g.has_rules))
def test_every_installed_game_passes_random_sim_test(name: str, fast_board: Board) -> None:
    plugin = installed_games()[name]
    config = plugin.load_config(*read_template(plugin.default_template()))
    usual = plugin.player_range(config)[1]
    game = plugin.new_game(BuildContext(config, plugin), usual)
    spiel = to_pyspiel(game)
    pyspiel.random_sim_test(spiel, num_sims=2, serialize=False, verbose=False)
    returns, _steps = play_mcts_game(spiel, seat=0, simulations=2, seed=1)
    assert len(returns) == usual
    assert all(game.info.min_utility <= r <= game.info.max_utility for r in returns)


def test_registered_games_load_by_name(fast_board: Board) -> None:
    names = register_games(["global-wellbeing"])
    assert names == {"global-wellbeing": "boardgen_global_wellbeing"}
    assert "boardgen_global_wellbeing" in pyspiel.registered_names()
    four = pyspiel.load_game("boardgen_global_wellbeing", {"players": 4})
    assert four.num_players() == 4 and four.get_type().short_name == "boardgen_global_wellbeing"
    state = four.new_initial_state()
    assert state.current_player() == 0 and state.action_to_string(0, state.legal_actions()[0]).startswith("place ")
    default = pyspiel.load_game("boardgen_global_wellbeing")
    assert default.num_players() == 6
    assert register_games(["global-wellbeing"]) == names  # a second call leaves the registration alone


# ---------------------------------------------------------------------------------- a designer's own game
# (the ``tiny_installed`` fixture is in tests/conftest.py)


def test_an_entry_point_game_registers_and_passes(tiny_installed: Path) -> None:
    assert register_games(["tiny-stones"]) == {"tiny-stones": "boardgen_tiny_stones"}
    game = pyspiel.load_game("boardgen_tiny_stones")
    assert game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    returns, _steps = play_mcts_game(game, seat=0, simulations=30, seed=5)
    assert sorted(returns) == [-1.0, 1.0]
