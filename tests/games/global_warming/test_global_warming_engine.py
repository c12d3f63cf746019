"""Global Warming's engine with every chance outcome and choice forced: setup, the dice and their order,
cancellation, pawn quotas, tile moves, sinking, drowning, what each player sees, the variants."""

from __future__ import annotations

import random

import pytest

from boardgen.games.global_warming.rules.engine import (
    PASS,
    PAWN_BASE,
    PICK_BASE,
    PLACE_BASE,
    SUIT_UP,
    VALUE_UP,
    GlobalWarmingGame,
    GWState,
    island_shape,
)
from boardgen.games.global_warming.schema import RulesSpec
from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, IllegalActionError

UP, RIGHT, DOWN, LEFT = range(4)
M = 3  # the default sea margin
SIZE = 5 + 2 * M


def cell(x: int, y: int) -> int:
    """Table cell of island coordinates (x, y) (0..4 on the original island)."""
    return (y + M) * SIZE + x + M


def tile_at(x: int, y: int) -> int:
    """With tiles laid in id order, the tile that starts at (x, y) of the basic island."""
    k = y * 5 + x
    return k - 1 if k > 12 else k


def setup(rules: RulesSpec | None = None, players: int = 4, pawns: tuple[int, ...] = (0, 4, 20, 24 - 1),
          line: tuple[int, ...] = (2 * 6 + VALUE_UP, 2 * 7 + SUIT_UP, 2 * 8 + VALUE_UP)) -> GWState:
    """Tiles laid in id order (tile k on slot k), pawns drawn on the given tiles, the line forced."""
    game = GlobalWarmingGame(rules or RulesSpec(), players)
    state = game.new_initial_state()
    for t in range(24):
        assert state.current_player() == CHANCE
        state.apply_action(t)
    for t in pawns[:players]:
        state.apply_action(t)
    for a in line:
        state.apply_action(a)
    assert state.current_player() == SIMULTANEOUS
    return state


def pawn(seat: int, direction: int) -> int:
    return PAWN_BASE + seat * 4 + direction


def test_setup_places_tiles_pawns_and_a_line_of_three() -> None:
    s = setup()
    assert s.cell_tile[cell(0, 0)] == 0 and s.cell_tile[cell(4, 4)] == 23
    assert s.cell_tile[cell(2, 2)] == -1  # the centre is missing
    assert s.pawn_tile == [0, 4, 20, 23]
    assert len(s.bag) == 21 and [c for c, _ in s.line] == [6, 7, 8]  # the pawn coins went back
    assert s.turn == 1


def test_chance_outcomes_are_uniform_and_face_weighted() -> None:
    game = GlobalWarmingGame(RulesSpec(value_face_up=0.75), 4)
    s = game.new_initial_state()
    assert len(s.chance_outcomes()) == 24 and abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-12
    s = setup(RulesSpec(value_face_up=0.75), line=(12, 14, 16))
    s.apply_actions([1, 2, 3, 4])  # every actor steps; drive to the draw
    while s.current_player() >= 0:
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == CHANCE
    outs = dict(s.chance_outcomes())
    assert len(outs) == 2 * 21
    assert outs[2 * 9 + VALUE_UP] == pytest.approx(0.75 / 21)
    assert outs[2 * 9 + SUIT_UP] == pytest.approx(0.25 / 21)


def test_equal_faces_cancel_and_the_rest_act_blank_then_high_to_low() -> None:
    s = setup()
    s.apply_actions([3, 3, 1, 0])
    assert s.events["cancelled-die"] == 2
    assert s.queue == [(3, 0), (2, 1)]  # blank first, then the ace
    assert s.current_player() == 3
    s.apply_action(PASS)
    assert s.current_player() == 2 and s.moves_left == 1
    s2 = setup()
    s2.apply_actions([1, 5, 2, 4])
    assert [seat for seat, _ in s2.queue] == [1, 3, 2, 0]
    s3 = setup()
    s3.apply_actions([2, 2, 2, 2])  # all cancel: straight to the draw
    assert s3.current_player() == CHANCE and s3.phase == "draw"


def test_a_number_is_an_exact_quota_of_single_steps_with_any_pawns() -> None:
    s = setup()
    s.apply_actions([3, 0, 0, 0])  # seats 1-3 cancel: seat 0 makes exactly 3 steps
    assert s.current_player() == 0
    s.apply_action(pawn(0, RIGHT))  # (0,0) -> (1,0)
    s.apply_action(pawn(1, LEFT))  # a rival's pawn: (4,0) -> (3,0)
    assert s.current_player() == 0 and s.moves_left == 1
    s.apply_action(pawn(0, LEFT))  # back to where it started: allowed
    assert s.pawn_tile[0] == tile_at(0, 0) and s.pawn_tile[1] == tile_at(3, 0)
    assert s.current_player() == CHANCE  # quota used up, nobody else acts
    assert s.events["rival-pawn-move"] == 1


def test_pawns_never_step_onto_pawns_water_or_across_a_gap() -> None:
    s = setup(pawns=(0, 1, 11, 23))  # pawn 2 at (1,2), beside the centre hole; pawns 0 and 1 side by side
    legal = s.clone()
    legal.apply_actions([1, 0, 0, 0])
    moves = legal.legal_actions()
    assert pawn(0, RIGHT) not in moves  # occupied
    assert pawn(0, UP) not in moves and pawn(0, LEFT) not in moves  # off the island
    assert pawn(2, RIGHT) not in moves  # the centre hole: no crossing to (2,2) or beyond
    assert pawn(2, UP) in moves
    with pytest.raises(IllegalActionError):
        legal.apply_action(pawn(2, RIGHT))


def test_a_pawn_quota_with_no_legal_step_is_forfeit() -> None:
    # every pawn boxed in: 2 players in the corner pair, with their other neighbours sunk
    s = setup(players=2, pawns=(0, 1))
    for t in (tile_at(2, 0), tile_at(0, 1), tile_at(1, 1)):
        c = s.tile_cell[t]
        s.cell_tile[c] = -1
        s.tile_cell[t] = -1
    s.apply_actions([2, 4])
    assert s.events["forfeit"] == 2 and s.current_player() == CHANCE


def test_a_blank_moves_an_empty_tile_to_a_cell_touching_the_island() -> None:
    s = setup()
    s.apply_actions([0, 1, 1, 1])
    assert s.current_player() == 0
    picks = s.legal_actions()
    assert picks[0] == PASS
    assert PICK_BASE + 0 not in picks  # a pawn stands on tile 0
    s.apply_action(PICK_BASE + tile_at(1, 1))
    dest = [a - PLACE_BASE for a in s.legal_actions()]
    assert cell(2, 2) in dest  # the centre hole touches the island
    assert cell(-1, 0) in dest and cell(5, 4) in dest
    assert cell(-1, -1) not in dest  # a corner only: no shared edge
    assert cell(1, 1) not in dest  # occupied (by itself)
    s.apply_action(PLACE_BASE + cell(-1, 0))
    assert s.tile_cell[tile_at(1, 1)] == cell(-1, 0) and s.cell_tile[cell(1, 1)] == -1
    assert s.events["tile-move"] == 1


def test_a_tile_may_not_be_put_where_only_it_touched_the_island() -> None:
    s = setup()
    s.apply_actions([0, 1, 1, 1])
    s.apply_action(PICK_BASE + tile_at(4, 1))
    dest = [a - PLACE_BASE for a in s.legal_actions()]
    assert cell(5, 1) not in dest  # beside the tile's own place only
    assert cell(6, 1) not in dest
    assert cell(5, 0) in dest  # beside (4,0)


def test_moving_tiles_may_split_the_island() -> None:
    s = setup(players=2, pawns=(0, 23))
    # cut the top-right corner off: move (4,1) then (3,0) away, leaving (4,0) alone
    for t, dest in ((tile_at(4, 1), cell(2, 2)), (tile_at(3, 0), cell(-1, 2))):
        s.apply_actions([0, 1])
        s.apply_action(PICK_BASE + t)
        s.apply_action(PLACE_BASE + dest)
        s.apply_action(pawn(1, UP))  # seat 1's ace
        s.apply_action(2 * s.bag[0] + VALUE_UP)  # the draw; the leftmost sinks
    assert s.components() >= 2 and s.events["island-split"] >= 1


def test_the_leftmost_coin_sinks_its_tile_and_drowns_its_pawn() -> None:
    s = setup(pawns=(6, 4, 20, 23))  # seat 0 stands on tile 6, the first coin of the line
    s.apply_actions([1, 1, 1, 1])  # all cancel
    assert s.current_player() == CHANCE
    s.apply_action(2 * 9 + SUIT_UP)  # draw coin 9 to the right
    assert [c for c, _ in s.line] == [7, 8, 9]
    assert s.retired == [6] and s.tile_cell[6] == -1
    assert not s.alive[0] and s.pawn_tile[0] == -1 and s.eliminated == [(0, 1)]
    assert s.legal_actions(0) == [PASS]  # a drowned player has no die
    assert s.current_player() == SIMULTANEOUS and s.turn == 2


def test_a_moved_tile_sinks_where_it_now_lies() -> None:
    s = setup()
    s.apply_actions([0, 1, 1, 1])
    s.apply_action(PICK_BASE + 6)
    s.apply_action(PLACE_BASE + cell(2, 2))
    s.apply_action(2 * 9 + VALUE_UP)
    assert s.tile_cell[6] == -1 and s.cell_tile[cell(2, 2)] == -1 and s.cell_tile[cell(1, 1)] == -1
    assert s.events["moved-tile-sinks"] == 1


def test_last_survivor_wins_and_the_game_never_ties() -> None:
    s = setup(players=2, pawns=(6, 23))
    s.apply_actions([2, 2])
    s.apply_action(2 * 9 + VALUE_UP)
    assert s.current_player() == TERMINAL
    assert s.returns() == [0.0, 1.0]
    out = s.outcome()
    assert out.winners == (1,) and out.length == 1 and out.scores == (0.0, 1.0)


def test_when_the_bag_is_empty_the_line_keeps_sinking() -> None:
    s = setup(players=2, pawns=(0, 23))
    order = [c for c in s.bag if c not in (0, 23)] + [23, 0]
    for coin in order:
        s.apply_actions([3, 3])
        s.apply_action(2 * coin + VALUE_UP)
    assert not s.bag and [c for c, _ in s.line] == [order[-3], 23, 0] and not s.is_terminal()
    s.apply_actions([3, 3])  # no draw: the leftmost sinks at once
    assert s.events["bag-empty"] == 1 and [c for c, _ in s.line] == [23, 0]
    s.apply_actions([3, 3])
    assert s.is_terminal() and s.outcome().winners == (0,) and s.turn == 23


def test_observation_shows_up_faces_only() -> None:
    a = setup(line=(2 * 6 + VALUE_UP, 2 * 7 + SUIT_UP, 2 * 8 + VALUE_UP))
    # same visible faces, other hidden sides: rank 0 of suit 1 (6) vs rank 0 of suit 2 (12)
    b = setup(line=(2 * 12 + VALUE_UP, 2 * 7 + SUIT_UP, 2 * 8 + VALUE_UP))
    for p in range(4):
        assert a.observation(p) == b.observation(p)
    assert a.observation(0)["line"] == ["value null", "suit Moons", "value 2"]
    assert "Moons" not in a.observation(0)["line"][0]


def test_resample_keeps_the_visible_faces() -> None:
    s = setup()
    rng = random.Random(1)
    seen = set()
    for _ in range(40):
        r = s.resample_for(0, rng)
        assert [f for _, f in r.line] == [f for _, f in s.line]
        assert r.line[0][0] % 6 == 0  # value null: some null tile
        assert r.line[1][0] // 6 == 1  # suit Moons
        assert sorted(r.bag + [c for c, _ in r.line]) == sorted(s.bag + [c for c, _ in s.line])
        seen.add(r.line[0][0])
    assert len(seen) > 1


@pytest.mark.parametrize("setup_name,moved,outer", [
    ("orthogonal", [(2, 1), (1, 2), (3, 2), (2, 3)], [(2, -1), (-1, 2), (5, 2), (2, 5)]),
    ("diagonal", [(1, 1), (3, 1), (1, 3), (3, 3)], [(2, -1), (-1, 2), (5, 2), (2, 5)]),
])
def test_variant_setups_move_four_tiles_to_the_outer_edge_middles(setup_name: str, moved: list, outer: list) -> None:
    cells = set(island_shape(setup_name, 0))
    assert len(cells) == 24
    assert not cells & set(moved) and set(outer) <= cells and (2, 2) not in cells
    assert set(island_shape("basic", 0)) == {(x, y) for x in range(5) for y in range(5)} - {(2, 2)}


def test_random_games_end_with_exactly_one_survivor() -> None:
    from boardgen.play.bots import RandomBot, play_with_bots

    game = GlobalWarmingGame(RulesSpec(setup="diagonal"), 3)
    for seed in range(25):
        bots = [RandomBot(game, s, random.Random(seed * 7 + s)) for s in range(3)]
        st = play_with_bots(game.new_initial_state(seed), bots, random.Random(seed))
        out = st.outcome()
        assert len(out.winners) == 1 and 1 <= out.length <= 24
        assert len(st.eliminated) == 2 and out.events["drowned"] == 2
        assert len(st.history()) <= game.info.max_game_length


def test_without_blank_pass_a_blank_must_move_a_tile() -> None:
    s = setup(RulesSpec(blank_may_pass=False))
    s.apply_actions([0, 1, 1, 1])
    assert PASS not in s.legal_actions() and all(PICK_BASE <= a < PLACE_BASE for a in s.legal_actions())


def test_variant_state_lays_tiles_outside_the_edges() -> None:
    s = setup(RulesSpec(setup="orthogonal"), pawns=(0, 4, 19, 23))
    assert s.cell_tile[cell(2, -1)] >= 0 and s.cell_tile[cell(2, 5)] >= 0
    assert s.cell_tile[cell(2, 1)] == -1 and s.cell_tile[cell(1, 2)] == -1 and s.cell_tile[cell(2, 2)] == -1


def test_search_bot_plays_a_short_game() -> None:
    from boardgen.games.global_warming.rules.bots import SearchBot
    from boardgen.games.global_warming.schema import BotsSpec
    from boardgen.play.bots import RandomBot, play_with_bots

    game = GlobalWarmingGame(RulesSpec(), 2)
    game.bot_spec = BotsSpec(mcts_playouts=4)  # type: ignore[attr-defined]
    bots = [SearchBot(game, 0, random.Random(1)), RandomBot(game, 1, random.Random(2))]
    st = play_with_bots(game.new_initial_state(), bots, random.Random(3))
    assert st.is_terminal() and len(st.outcome().winners) == 1


@pytest.mark.parametrize("phase_actions,bad", [
    ((), 24),  # a tile 24 to lay: tiles are 0-23
    ((), -1),
    (tuple(range(24)), 24),  # a starting coin 24
    (tuple(range(24)) + (0, 4, 20, 23), 48),  # coin 24 drawn for the line (48 = 24 * 2)
    (tuple(range(24)) + (0, 4, 20, 23), 1000),
])
def test_out_of_range_chance_outcomes_are_illegal_actions(phase_actions: tuple[int, ...], bad: int) -> None:
    state = GlobalWarmingGame(RulesSpec(), 4).new_initial_state()
    for a in phase_actions:
        state.apply_action(a)
    assert state.current_player() == CHANCE
    with pytest.raises(IllegalActionError, match=rf"action {bad} \(no (tile|coin|coin draw) {bad}"):
        state.apply_action(bad)


def test_out_of_range_player_actions_are_illegal_actions() -> None:
    s = setup(players=2, pawns=(0, 23))
    with pytest.raises(IllegalActionError, match="no action 9999"):
        s.apply_actions([9999, 1])
    with pytest.raises(IllegalActionError, match="seat 0-1, not 5"):
        s.legal_actions(5)
    s.apply_actions([2, 1])  # seat 0 acts with a 2: pawn steps
    assert s.current_player() == 0
    with pytest.raises(IllegalActionError, match=r"pawn 3 up \(no such pawn: 2 players\)"):
        s.apply_action(pawn(2, UP))
    with pytest.raises(IllegalActionError, match=r"action -3 \(no action -3"):
        s.apply_action(-3)
    with pytest.raises(IllegalActionError, match=r"action 3 \(die 3\) is not legal for seat 0"):
        s.apply_action(3)


def test_observation_keeps_a_channel_of_sunk_tiles_and_gives_coordinates() -> None:
    """Sink the whole middle row (y = 2): the picture keeps it as water and the tile list names every place."""
    s = setup(players=2, pawns=(0, 23), line=(2 * tile_at(0, 2) + VALUE_UP, 2 * tile_at(1, 2) + VALUE_UP,
                                              2 * tile_at(3, 2) + VALUE_UP))
    s.apply_actions([3, 3])
    s.apply_action(2 * tile_at(4, 2) + VALUE_UP)
    for _ in range(3):
        s.apply_actions([3, 3])
        s.apply_action(2 * s.bag[2] + VALUE_UP)  # none of the coins of row 2
    assert s.retired == [tile_at(x, 2) for x in (0, 1, 3, 4)]
    obs = s.observation(0)
    rows = obs["island_picture"].split("\n")[1:]
    assert len(rows) == 5 and rows[2].strip(" .") == ""  # the channel is there, all water
    places = {(t["x"], t["y"]) for t in obs["island"]}
    assert len(obs["island"]) == len(places) == 24 - 4
    assert not any(y == 2 for _, y in places)
    assert (0, 0) in places and (4, 4) in places
    first = obs["island"][0]
    assert first == {"x": 0, "y": 0, "tile": "null of Suns", "suit": "Suns", "rank": "null", "moved": False,
                     "pawn": 1}
