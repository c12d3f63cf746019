"""Each rule of the game (the rules API's state machine) on small hand-made boards."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from boardgen.games.global_wellbeing.rules.board import RulesBoard, components, hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import Bot, GreedyBot, PlannerBot, RandomBot, bot_factory
from boardgen.games.global_wellbeing.rules.engine import (
    EV,
    TIPPING,
    WellbeingGame,
    check_badges,
    play_game,
    steward_roll,
    tipping_apply,
)
from boardgen.games.global_wellbeing.rules.report import decided_after, simulate
from boardgen.games.global_wellbeing.rules.state import GameState
from boardgen.games.global_wellbeing.schema import RulesConfig, load_template
from boardgen.geomap.spec import ZoneConfig
from boardgen.play.api import CHANCE, IllegalActionError
from boardgen.play.report import wilson_interval
from boardgen.play.simulate import derive_seed, lineup

ZONES = load_template().zones
NAMES = tuple(ZONES)  # Polar, Temperate, Arid, Tropical, Mediterranean, Mountains


def line_board(zones: Sequence[str], zone_config: Mapping[str, ZoneConfig] = ZONES) -> RulesBoard:
    """Cells c0 - c1 - c2 - ... in a path, zone names given per cell."""
    labels = [f"c{i}" for i in range(len(zones))]
    edges = [(labels[i], labels[i + 1]) for i in range(len(labels) - 1)]
    return RulesBoard.from_lists(labels, zones, edges, zone_config)


def quiet_rules(**changes: object) -> RulesConfig:
    """Rules with no stewardship or tipping point inside the game, unless asked for."""
    base = dict(turns=1, stewardship_every=99, tipping_point_every=99)
    base.update(changes)
    return RulesConfig().model_copy(update={**base})


class ScriptBot(Bot):
    """Places on the given cells in order (setup and investment), never moves."""

    name = "script"

    def __init__(self, cells: Sequence[int], moves: Sequence[tuple[int, int]] = ()) -> None:
        super().__init__(random.Random(0))
        self.cells = list(cells)
        self.moves = list(moves)
        self.pending: int | None = None

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        if not self.moves:
            return None
        src, dst = self.moves.pop(0)
        self.pending = dst
        return src

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        if purpose == "move":
            return self.pending  # type: ignore[return-value]
        return self.cells.pop(0)


# ------------------------------------------------------------------------------------ board and state


def test_board_from_lists_is_symmetric_and_components_found() -> None:
    board = RulesBoard.from_lists(["a", "b", "c", "d"], ["Polar"] * 4, [("a", "b"), ("b", "c")], ZONES)
    assert board.neighbours == ((1,), (0, 2), (1,), ())
    assert components(board) == [[0, 1, 2], [3]]
    with pytest.raises(ValueError, match="symmetric"):
        RulesBoard(("a", "b"), (0, 0), ((1,), ()), board.zones)


def test_hex_rectangle_neighbours() -> None:
    board = hex_rectangle(4, 3, ZONES)
    assert board.n_cells == 12
    inner = board.index_of("B2")  # row 1 (odd, shifted right), column 1
    assert len(board.neighbours[inner]) == 6
    assert len(board.neighbours[board.index_of("A1")]) == 2  # corner of an even row
    assert len(components(board)) == 1


def test_adjacency_and_fallback() -> None:
    # a - b - c   d (isolated)
    board = RulesBoard.from_lists(["a", "b", "c", "d"], ["Polar"] * 4, [("a", "b"), ("b", "c")], ZONES)
    state = GameState(board, 2, 0, 10, 0)
    assert sorted(state.destinations(0)) == [0, 1, 2, 3]  # first piece: anywhere
    state.place(0, 0)
    assert state.destinations(0) == [1]  # next to own piece only
    assert not state.is_legal_destination(0, 3)
    state.place(1, 1)
    assert sorted(state.destinations(0)) == [2, 3]  # no free cell next to own pieces: anywhere free
    assert state.is_legal_destination(0, 3)
    assert state.destinations(1) == [2]
    state.lift(1, 1)
    assert state.destinations(0) == [1]
    state.check_invariants()


def test_illegal_placement_raises() -> None:
    board = line_board(["Polar"] * 4)
    with pytest.raises(IllegalActionError):
        play_game(board, quiet_rules(setup_rounds=2, turns=1), [ScriptBot([0, 3])], seed=1)


# ------------------------------------------------------------------------------------ harvest


@pytest.mark.parametrize(
    ("zones", "chips"),
    [
        (["Polar"] * 10, 0),  # 10 x 2 = 20 -> 0
        (["Arid"] * 10, 1),  # 10 x 3 = 30 -> 1
        (["Temperate"] * 10, 2),  # 10 x 6 = 60 -> 2
        (["Temperate"] * 9 + ["Tropical"], 1),  # 54 + 5 = 59 -> 1 (rounded down)
        (["Temperate"] * 5 + ["Polar"] * 5, 1),  # 30 + 10 = 40 -> 1
    ],
)
def test_harvest_rounds_down(zones: list[str], chips: int) -> None:
    board = line_board(zones)
    rules = quiet_rules(investments_per_turn=0)
    result = play_game(board, rules, [ScriptBot(range(10))], seed=3)
    assert result.chips == (chips,)
    assert result.events[EV["harvest" if chips else "harvest_zero"]] == 1


def test_investment_buys_one_piece_and_bank_caps_harvest() -> None:
    board = line_board(["Temperate"] * 14)
    result = play_game(board, quiet_rules(turns=2), [ScriptBot(range(14))], seed=3)
    # turn 1: harvest 60//30 = 2, invest 1 -> 11 pieces; turn 2: 66//30 = 2 -> 3 chips, invest -> 12 pieces
    assert result.pieces == (12,) and result.chips == (2,)
    # a bank of 10 chips: all dealt out at the start, paid back in setup; each harvest takes 2 of them
    capped = play_game(board, quiet_rules(turns=2, bank_chips=10, investments_per_turn=0),
                       [ScriptBot(range(14))], seed=3)
    assert capped.chips == (4,)
    short = play_game(board, quiet_rules(turns=6, bank_chips=10, investments_per_turn=0),
                      [ScriptBot(range(14))], seed=3)
    assert short.chips == (10,) and short.events[EV["harvest_short"]] == 1


def test_out_of_pieces_keeps_chips() -> None:
    board = line_board(["Temperate"] * 14)
    result = play_game(board, quiet_rules(turns=2, pieces_per_player=10), [ScriptBot(range(14))], seed=3)
    assert result.pieces == (10,) and result.chips == (4,)
    assert result.ran_out == (1,) and result.events[EV["out_of_pieces"]] == 2
    unlimited = play_game(board, quiet_rules(turns=2, pieces_per_player=10, pieces_limited=False),
                          [ScriptBot(range(14))], seed=3)
    assert unlimited.pieces == (12,)


def test_out_of_cells() -> None:
    board = line_board(["Temperate"] * 10)
    result = play_game(board, quiet_rules(), [ScriptBot(range(10))], seed=3)
    assert result.ran_out == (2,) and result.events[EV["out_of_cells"]] == 1


def test_simple_variant_has_no_chips_or_badges() -> None:
    board = line_board(["Temperate"] * 14)
    rules = quiet_rules(variant="simple", turns=3)
    result = play_game(board, rules, [ScriptBot(range(14))], seed=3)
    assert result.pieces == (10,) and result.chips == (0,)
    assert result.badges == ((0,) * 6,) and result.final_index == result.end_index
    with_harvest = play_game(board, quiet_rules(variant="simple", simple_harvest=True, turns=1),
                             [ScriptBot(range(14))], seed=3)
    assert with_harvest.pieces == (11,)


# ------------------------------------------------------------------------------------ moves


def test_move_must_land_next_to_another_own_piece() -> None:
    board = line_board(["Polar"] * 6)
    # pieces on c0 c1 c2; move c0 -> c3 (next to c2): legal
    ok = play_game(board, quiet_rules(setup_rounds=3, variant="simple"), [ScriptBot([0, 1, 2], [(0, 3)])], seed=1)
    assert ok.occupied == (0, 1, 1, 1, 0, 0) and ok.events[EV["move"]] == 1
    # move c2 -> c3: c3 only touches the moving piece's old cell, which no longer counts; the piece has nowhere
    # else to go (its own cell is no destination), so it stays: a pass
    stay = play_game(board, quiet_rules(setup_rounds=3, variant="simple"), [ScriptBot([0, 1, 2], [(2, 3)])], seed=1)
    assert stay.occupied == (1, 1, 1, 0, 0, 0) and stay.events[EV["move_pass"]] == 1 and stay.events[EV["move"]] == 0
    # move c0 -> c4: not next to an own piece while c3 is: refused
    with pytest.raises(IllegalActionError):
        play_game(board, quiet_rules(setup_rounds=3, variant="simple"), [ScriptBot([0, 1, 2], [(0, 4)])], seed=1)
    slide = play_game(board, quiet_rules(setup_rounds=3, variant="simple", move_next_to_other_pieces=False),
                      [ScriptBot([0, 1, 2], [(2, 3)])], seed=1)
    assert slide.occupied == (1, 1, 0, 1, 0, 0)


def test_move_fallback_anywhere() -> None:
    # c0 - c1, c2 isolated; seat 0 on c0, seat 1 on c1; seat 0 lifts c0: no own pieces left -> anywhere free
    board = RulesBoard.from_lists(["c0", "c1", "c2"], ["Polar"] * 3, [("c0", "c1")], ZONES)
    result = play_game(board, quiet_rules(setup_rounds=1, variant="simple"),
                       [ScriptBot([0], [(0, 2)]), ScriptBot([1])], seed=1)
    assert result.occupied == (0, 1, 1) and result.events[EV["move_anywhere"]] == 1


# ------------------------------------------------------------------------------------ dice


def stewardship(index: list[int], dice: Sequence[int], minima: Sequence[int], rng: random.Random,
                events: list[int]) -> None:
    """Each zone's die in zone order (one ``rng.random()`` each, as a simulation samples a chance node)."""
    for z, die in enumerate(dice):
        steward_roll(index, z, 1 + int(rng.random() * die), die, minima[z], events)


def tipping_point(index: list[int], dice: Sequence[int], minima: Sequence[int], die: int, rng: random.Random,
                  events: list[int]) -> None:
    tipping_apply(index, dice, minima, 1 + int(rng.random() * die), events)


class FixedRolls:
    """A stand-in for random.Random whose random() gives the listed die faces in turn."""

    def __init__(self, faces: Sequence[int], dice: Sequence[int]) -> None:
        self.values = [(f - 0.5) / d for f, d in zip(faces, dice, strict=True)]

    def random(self) -> float:
        return self.values.pop(0)


def test_stewardship_up_down_same_and_bounds() -> None:
    dice = (4, 12, 6, 10, 8, 4)
    minima = (1, 1, 1, 1, 1, 2)
    index = [2, 6, 3, 5, 4, 2]
    events = [0] * len(EV)
    # rolls: 4 > 2 up, 6 = 6 same, 1 < 3 down, 10 > 5 up, 1 < 4 down, 1 < 2 but at minimum 2: blocked
    stewardship(index, dice, minima, FixedRolls([4, 6, 1, 10, 1, 1], dice), events)  # type: ignore[arg-type]
    assert index == [3, 6, 2, 6, 3, 2]
    assert events[EV["stewardship_up"]] == 2 and events[EV["stewardship_down"]] == 2
    assert events[EV["stewardship_same"]] == 1 and events[EV["stewardship_blocked"]] == 1


def test_tipping_point_both_ways_and_bounds() -> None:
    dice = (4, 12, 6, 10, 8, 4)
    minima = (1, 1, 1, 1, 1, 1)
    events = [0] * len(EV)
    low = [1, 1, 1, 1, 1, 4]  # sum 9; a 20 raises all but the zone at its die
    tipping_point(low, dice, minima, 20, FixedRolls([20], [20]), events)  # type: ignore[arg-type]
    assert low == [2, 2, 2, 2, 2, 4] and events[EV["tipping_up"]] == 1 and events[EV["tipping_blocked"]] == 1
    high = [2, 6, 3, 5, 4, 1]  # sum 21; a 5 lowers all but the zone at its minimum
    tipping_point(high, dice, minima, 20, FixedRolls([5], [20]), events)  # type: ignore[arg-type]
    assert high == [1, 5, 2, 4, 3, 1] and events[EV["tipping_down"]] == 1 and events[EV["tipping_blocked"]] == 2
    same = [2, 2, 2, 2, 2, 2]  # sum 12; a 12 leaves them
    tipping_point(same, dice, minima, 20, FixedRolls([12], [20]), events)  # type: ignore[arg-type]
    assert same == [2] * 6 and events[EV["tipping_same"]] == 1


def test_start_sum_over_twenty_tipping_only_falls_at_first() -> None:
    index = [z.start_index for z in ZONES.values()]
    assert sum(index) == 22
    dice = tuple(z.die for z in ZONES.values())
    for seed in range(50):
        trial = list(index)
        events = [0] * len(EV)
        tipping_point(trial, dice, (1,) * 6, 20, random.Random(seed), events)
        assert events[EV["tipping_up"]] == 0


# ------------------------------------------------------------------------------------ badges and scoring


def test_badge_won_and_lost() -> None:
    board = line_board(["Polar"] * 10)
    state = GameState(board, 1, 0, 30, 0)
    events = [0] * len(EV)
    for c in range(8):
        state.place(0, c)
    check_badges(state, 0, 8, False, events)
    assert state.badges[0][0] and events[EV["badge_won"]] == 1
    state.lift(0, 7)
    check_badges(state, 0, 8, False, events)
    assert state.badges[0][0]  # kept: badges cannot be lost
    check_badges(state, 0, 8, True, events)
    assert not state.badges[0][0] and events[EV["badge_lost"]] == 1


def test_badges_add_past_the_maximum_cumulatively() -> None:
    zones = dict(ZONES)
    zones["Polar"] = ZONES["Polar"].model_copy(update={"start_index": 4})  # at its die already
    board = line_board(["Polar"] * 16 + ["Arid"] * 4, zones)
    # seat 0 takes c0..c7, seat 1 c8..c15 (setup alternates seats): both hold the Polar badge
    rules = quiet_rules(setup_rounds=8, investments_per_turn=0)
    result = play_game(board, rules, [ScriptBot(range(8)), ScriptBot(range(8, 16))], seed=5)
    assert result.badges[0][0] == 1 and result.badges[1][0] == 1
    assert result.end_index[0] == 4
    assert result.final_index[0] == 4 + 2 * ZONES["Polar"].badge_value == 8  # past the d4's maximum
    assert result.scores == (64, 64)
    assert result.winners == (0, 1) and result.events[EV["tie"]] == 1  # a tie is reported
    assert result.leaders[-1] == 0b11


def test_score_is_pieces_times_final_index() -> None:
    board = line_board(["Temperate"] * 3 + ["Polar"] * 3 + ["Arid"] * 4)
    rules = quiet_rules(setup_rounds=3, investments_per_turn=0)
    result = play_game(board, rules, [ScriptBot([0, 1, 2]), ScriptBot([5, 4, 3])], seed=5)
    assert result.scores == (3 * 6, 3 * 2) and result.winners == (0,)
    assert result.leaders == (0b01, 0b01)
    won = np.array([[True, False], [True, False]])
    led = np.array([result.leaders + (0b01,) * 3, (0b10, 0b01, 0b10, 0b01, 0b01)])
    assert decided_after(won, led).tolist() == [0, 3]  # led from the end of setup; for good after turn 3
    assert result.chips == (7 + 18 // 30, 7 + 6 // 30)


# ------------------------------------------------------------------------------------ seeds and simulation


def test_same_seed_same_game() -> None:
    board = hex_rectangle(12, 10, ZONES)
    rules = load_template().rules
    factories = [bot_factory(name, 8, (2,) * 6, (4, 12, 6, 10, 8, 4)) for name in ("random", "greedy", "planner")]
    a = play_game(board, rules, factories * 2, seed=42)
    b = play_game(board, rules, factories * 2, seed=42)
    c = play_game(board, rules, factories * 2, seed=43)
    assert a == b
    assert a != c
    assert derive_seed(1, "game", 0) != derive_seed(1, "game", 1)


def test_simulation_independent_of_jobs() -> None:
    board = hex_rectangle(12, 10, ZONES)
    rules = load_template().rules
    one = simulate(board, rules, 60, 4, ["random", "greedy"], seed=9, jobs=1)
    two = simulate(board, rules, 60, 4, ["random", "greedy"], seed=9, jobs=2)
    assert one.columns.differences(two.columns) == [] and one.games == 60
    assert one.cell_counts() == two.cell_counts()


def test_lineup_rotates_through_seats() -> None:
    assert lineup(("a", "b", "c"), 6, 0, True) == ("a", "b", "c", "a", "b", "c")
    assert lineup(("a", "b", "c"), 6, 1, True) == ("b", "c", "a", "b", "c", "a")
    assert lineup(("a", "b"), 3, 1, False) == ("a", "b", "a")


def test_first_player_rotates_option() -> None:
    board = hex_rectangle(12, 10, ZONES)
    rules = load_template().rules.model_copy(update={"first_player_rotates": True})
    result = play_game(board, rules, [RandomBot] * 3, seed=4)
    assert len(result.scores) == 3


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_greedy_beats_random() -> None:
    board = hex_rectangle(16, 12, ZONES)
    rules = load_template().rules
    sim = simulate(board, rules, 60, 6, ["greedy", "random"], seed=2)
    c = sim.columns
    greedy_wins = int((c.winners & (c.lineups == c.bot_names.index("greedy"))).sum())
    assert greedy_wins > 45


def test_bots_choose_legal_cells() -> None:
    board = hex_rectangle(10, 8, ZONES)
    state = GameState(board, 2, 0, 30, 0)
    for bot in (RandomBot(random.Random(1)), GreedyBot(random.Random(1), 8, (2,) * 6),
                PlannerBot(random.Random(1), 8, (2,) * 6, (4, 12, 6, 10, 8, 4))):
        for p in (0, 1):
            c = bot.choose_cell(state, p, "setup")
            assert state.is_legal_destination(p, c)
            state.place(p, c)
    state.check_invariants()


@pytest.mark.parametrize(("order", "expected"), [
    ("stewardship-first", ["stewardship", "stewardship", "tipping"]),
    ("tipping-first", ["stewardship", "tipping", "stewardship"]),
])
def test_end_of_turn_order(order: str, expected: list[str]) -> None:
    board = line_board(["Temperate"] * 12)
    rules = quiet_rules(turns=10, stewardship_every=5, tipping_point_every=10, end_of_turn_order=order,
                        variant="simple", setup_rounds=2)
    state = WellbeingGame(board, rules, 1).new_initial_state()
    calls: list[tuple[int, str]] = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            kind = "tipping" if state.rolls[state.roll_i] == TIPPING else "stewardship"
            if not calls or calls[-1] != (state.gs.turn, kind):  # a stewardship rolls one die per zone
                calls.append((state.gs.turn, kind))
            state.apply_action(0)
        else:
            state.apply_action(state.legal_actions()[0])
    assert [kind for _turn, kind in calls] == expected  # turn 5: stewardship; turn 10: both, in the template's order


def test_mandatory_move_and_two_investments() -> None:
    board = hex_rectangle(10, 8, ZONES)
    greedy = bot_factory("greedy", 8, (2,) * 6, (4, 12, 6, 10, 8, 4))
    optional = play_game(board, quiet_rules(turns=5), [greedy, greedy], seed=3)
    forced = play_game(board, quiet_rules(turns=5, move_optional=False), [greedy, greedy], seed=3)
    assert forced.events[EV["move_pass"]] == 0
    assert optional.events[EV["move_pass"]] > 0
    two = play_game(board, quiet_rules(turns=5, investments_per_turn=2), [greedy, greedy], seed=3)
    assert sum(two.pieces) > sum(optional.pieces)
