"""Property tests: whatever the board, players, bots and rule options, the game state stays consistent."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.config import RulesConfig, load_template
from boardgen.games.global_wellbeing.rules.board import hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES, bot_factory
from boardgen.games.global_wellbeing.rules.engine import play_game
from boardgen.games.global_wellbeing.rules.state import GameState

ZONES = load_template().zones


@st.composite
def games(draw: st.DrawFn) -> tuple:
    columns = draw(st.integers(3, 9))
    rows = draw(st.integers(2, 7))
    holes = draw(st.lists(st.tuples(st.integers(0, columns - 1), st.integers(0, rows - 1)), max_size=6))
    board = hex_rectangle(columns, rows, ZONES, holes=holes)
    players = draw(st.integers(1, 6))
    rules = dataclasses.replace(
        RulesConfig(),
        variant=draw(st.sampled_from(["simple", "complex"])),
        turns=draw(st.integers(1, 12)),
        setup_rounds=draw(st.integers(1, 10)),
        starting_chips=draw(st.integers(0, 12)),
        pieces_per_player=draw(st.integers(10, 20)),
        stewardship_every=draw(st.integers(1, 5)),
        tipping_point_every=draw(st.integers(1, 10)),
        badge_threshold=draw(st.integers(2, 8)),
        badges_can_be_lost=draw(st.booleans()),
        bank_chips=draw(st.integers(0, 80)),
        harvest_capped_by_bank=draw(st.booleans()),
        investments_per_turn=draw(st.integers(0, 3)),
        move_optional=draw(st.booleans()),
        move_next_to_other_pieces=draw(st.booleans()),
        pieces_limited=draw(st.booleans()),
        simple_harvest=draw(st.booleans()),
        first_player_rotates=draw(st.booleans()),
        end_of_turn_order=draw(st.sampled_from(["stewardship-first", "tipping-first"])),
        harvest_divisor=draw(st.integers(1, 30)),
    )
    bots = [draw(st.sampled_from(BOT_NAMES)) for _ in range(players)]
    seed = draw(st.integers(0, 2**32))
    return board, rules, bots, seed


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
