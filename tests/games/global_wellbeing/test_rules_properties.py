"""Property tests: whatever the board, players, bots and rule options, the game state stays consistent."""

from __future__ import annotations

from hypothesis import given, settings
from rules_strategies import games

from boardgen.games.global_wellbeing.rules.bots import bot_factory
from boardgen.games.global_wellbeing.rules.engine import play_game
from boardgen.games.global_wellbeing.rules.state import GameState


@settings(max_examples=150, deadline=None)
@given(games())
def test_state_stays_consistent(game: tuple) -> None:
    board, rules, bots, seed = game
    badge_values = tuple(z.badge_value for z in board.zones)
    dice = tuple(z.die for z in board.zones)
    factories = [bot_factory(name, rules.badge_threshold, badge_values, dice) for name in bots]
    seen: list[int] = []

    def observe(state: GameState) -> None:
        # pieces never overlap, chips never negative, indices within bounds between turns (and more)
        state.check_invariants()
        on_board = [c for p in state.players for c in state.piece_items[p]]
        assert len(on_board) == len(set(on_board))
        assert all(chips >= 0 for chips in state.chips)
        seen.append(sum(len(items) for items in state.piece_items))

    result = play_game(board, rules, factories, seed, observer=observe)
    assert seen and seen == sorted(seen)  # pieces only ever join the board
    assert sum(result.pieces) == seen[-1] <= board.n_cells
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)
    for z, zone in enumerate(board.zones):
        assert zone.minimum_index <= result.end_index[z] <= zone.die
        assert result.final_index[z] >= result.end_index[z]
    assert result == play_game(board, rules, factories, seed)  # same seed, same game
