"""The flagship through the rules API: ``play_game`` plays the games a simulation seeds, and a whole game with
chosen dice (the compiled kernel is checked against this state machine in test_global_wellbeing_kernel.py)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from rules_strategies import (
    ZONES,
    games,
)

import boardgen.geomap.build
from boardgen.cli import cli
from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES, bot_factory
from boardgen.games.global_wellbeing.rules.engine import (
    DEST,
    INVEST,
    PICK,
    SETUP,
    GameResult,
    WellbeingGame,
    WellbeingState,
    api_bots,
    play_game,
)
from boardgen.games.global_wellbeing.schema import RulesConfig, load_template
from boardgen.geomap.model import Board
from boardgen.play.api import CHANCE, TERMINAL, IllegalActionError
from boardgen.play.bots import play_with_bots
from boardgen.play.simulate import derive_seed, lineup

NAMES = tuple(ZONES)  # Polar d4, Temperate d12, Arid d6, Tropical d10, Mediterranean d8, Mountains d4


def with_callbacks(board: RulesBoard, rules: RulesConfig, names: Sequence[str], seed: int) -> GameResult:
    """``play_game`` with the bots ``simulate`` gives."""
    complex_game = rules.variant == "complex"
    badge_values = tuple(z.badge_value for z in board.zones) if complex_game else ()
    dice = tuple(z.die for z in board.zones)
    factories = [bot_factory(n, rules.badge_threshold, badge_values, dice) for n in names]
    return play_game(board, rules, factories, seed, names)


def through_api(board: RulesBoard, rules: RulesConfig, names: Sequence[str], seed: int) -> GameResult:
    """The API path as a simulation seeds it: dice from random.Random(seed) through the generic runner's
    sampler, seat s's bot from derive_seed(seed, "seat", s)."""
    game = WellbeingGame(board, rules, len(names))
    factories = api_bots()
    bots = [factories[n](game, s, random.Random(derive_seed(seed, "seat", s))) for s, n in enumerate(names)]
    state = play_with_bots(game.new_initial_state(seed), bots, random.Random(seed))
    assert isinstance(state, WellbeingState)
    return state.result(seed, names)


# ------------------------------------------------------------------------------------ equivalence

def test_play_game_plays_the_simulated_games(default_board: Board) -> None:
    board = RulesBoard.from_board(default_board)
    config = load_template()
    rules, players = config.rules, config.players.usual
    for i in range(10):
        names = lineup(list(BOT_NAMES), players, i, True)
        seed = derive_seed(2026, "equivalence", i)
        assert with_callbacks(board, rules, names, seed) == through_api(board, rules, names, seed)


@settings(max_examples=30, deadline=None)
@given(games())
def test_same_games_under_every_rule_option(case: tuple) -> None:
    board, rules, bots, seed = case
    names = tuple(bots)
    assert through_api(board, rules, names, seed) == with_callbacks(board, rules, names, seed)


# ------------------------------------------------------------------------------------ chosen dice

def chosen_dice_game() -> tuple[WellbeingGame, WellbeingState]:
    """Two players on a line of ten cells; a badge at 3 pieces; stewardship and tipping point every 2nd turn."""
    zones = ["Temperate", "Temperate", "Temperate", "Arid", "Polar", "Tropical", "Tropical", "Mediterranean",
             "Mountains", "Mountains"]
    labels = [f"c{i}" for i in range(10)]
    board = RulesBoard.from_lists(labels, zones, list(itertools.pairwise(labels)), ZONES)
    rules = RulesConfig().model_copy(
        update={
            "players": 2,
            "setup_rounds": 2,
            "turns": 4,
            "stewardship_every": 2,
            "tipping_point_every": 2,
            "badge_threshold": 3,
            "harvest_divisor": 10,
        }
    )
    game = WellbeingGame(board, rules, 2)
    return game, game.new_initial_state()


def play(state: WellbeingState, player: int, node: int, action_text: str) -> None:
    """Apply the one legal action of ``player`` at ``node`` whose string is ``action_text``."""
    assert state.current_player() == player and state.node == node
    by_text = {state.action_to_string(player, a): a for a in state.legal_actions()}
    assert action_text in by_text, (action_text, sorted(by_text))
    state.apply_action(by_text[action_text])


def roll(state: WellbeingState, face: int, index_after: Sequence[int]) -> None:
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == max(a for a, _ in outcomes) + 1 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert len({p for _, p in outcomes}) == 1  # a fair die
    state.apply_action(face - 1)
    assert state.gs.index == list(index_after)


def test_a_whole_game_with_chosen_dice() -> None:
    _game, s = chosen_dice_game()
    assert s.gs.index == [2, 6, 3, 5, 4, 2]  # start indices: Polar, Temperate, Arid, Tropical, Med., Mountains
    # setup: two rounds in seat order
    play(s, 0, SETUP, "place c0")
    play(s, 1, SETUP, "place c9")
    play(s, 0, SETUP, "place c1")
    assert s.legal_actions() == [8]  # next to c9 only
    play(s, 1, SETUP, "place c8")
    assert s.gs.chips == [8, 8] and s.gs.bank == 134
    # turn 1: seat 0 stays, harvests 2 Temperate x 6 // 10 = 1, invests on c2 (3rd Temperate: badge)
    assert s.gs.turn == 1
    assert s.legal_actions() == [10, 11, 20]  # the pieces on c0, c1, or stay
    play(s, 0, PICK, "stay (move no piece)")
    play(s, 0, INVEST, "invest in c2")
    assert s.gs.badges[0][NAMES.index("Temperate")]
    # seat 1 moves the piece on c9 next to its other piece (c8): c7; harvest 2 + 4 < 10; invests on c6
    play(s, 1, PICK, "move the piece on c9")
    assert sorted(s.legal_actions()) == [7]  # not c9: a piece never "moves" onto its own cell
    play(s, 1, DEST, "move it to c7")
    play(s, 1, INVEST, "invest in c6")
    assert s.gs.chips == [8, 7]
    # turn 2: both stay and invest; no dice until the end of the turn
    play(s, 0, PICK, "stay (move no piece)")
    play(s, 0, INVEST, "invest in c3")
    play(s, 1, PICK, "stay (move no piece)")
    play(s, 1, INVEST, "invest in c5")
    assert s.gs.chips == [8, 7]
    # end of turn 2: stewardship, one die per zone in zone order, then the tipping point
    assert s.action_to_string(CHANCE, 3) == "roll 4 (Polar, d4)"
    roll(s, 4, [3, 6, 3, 5, 4, 2])  # Polar 4 > 2: up
    roll(s, 1, [3, 5, 3, 5, 4, 2])  # Temperate 1 < 6: down
    roll(s, 3, [3, 5, 3, 5, 4, 2])  # Arid 3 = 3: no change
    roll(s, 10, [3, 5, 3, 6, 4, 2])  # Tropical 10 > 5: up
    roll(s, 4, [3, 5, 3, 6, 4, 2])  # Mediterranean 4 = 4: no change
    roll(s, 1, [3, 5, 3, 6, 4, 1])  # Mountains 1 < 2: down
    assert s.action_to_string(CHANCE, 4) == "roll 5 (tipping point, d20)"
    roll(s, 5, [2, 4, 2, 5, 3, 1])  # 5 < sum 22: every zone -1, Mountains held at its minimum 1
    # seat 0: Temperate 3 x (4 + badge 2) + Arid 2 = 20; seat 1: Tropical 2 x 5 + Med. 3 + Mountains 1 = 14
    assert s.scores_now() == (20, 14)
    assert s.gs.turn == 3 and s.current_player() == 0
    # turn 3: harvest 3 x 4 + 2 = 14 -> 1 chip; 2 x 5 + 3 + 1 = 14 -> 1 chip; the last two free cells
    play(s, 0, PICK, "stay (move no piece)")
    play(s, 0, INVEST, "invest in c4")
    play(s, 1, PICK, "stay (move no piece)")
    play(s, 1, INVEST, "invest in c9")
    assert s.gs.free_items == []
    # turn 4: the board is full: a move is still possible (lift and put back), no investment
    play(s, 0, PICK, "stay (move no piece)")
    play(s, 1, PICK, "stay (move no piece)")
    roll(s, 4, [3, 4, 2, 5, 3, 1])  # Polar 4 > 2: up
    roll(s, 12, [3, 5, 2, 5, 3, 1])  # Temperate 12 > 4: up
    roll(s, 1, [3, 5, 1, 5, 3, 1])  # Arid 1 < 2: down
    roll(s, 5, [3, 5, 1, 5, 3, 1])  # Tropical 5 = 5: no change
    roll(s, 8, [3, 5, 1, 5, 4, 1])  # Mediterranean 8 > 3: up
    roll(s, 1, [3, 5, 1, 5, 4, 1])  # Mountains 1 = 1: no change (at its minimum)
    roll(s, 20, [4, 6, 2, 6, 5, 2])  # 20 > sum 19: every zone +1
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    out = s.outcome()
    # final index: Temperate 6 + one badge holder x 2 = 8; seat 0: 3 x 8 + Arid 2 + Polar 4 = 30;
    # seat 1: Tropical 2 x 6 + Med. 5 + Mountains 2 x 2 = 21
    assert s.final == (4, 8, 2, 6, 5, 2)
    assert out.scores == (30.0, 21.0) and out.winners == (0,) and s.returns() == [1.0, 0.0]
    assert out.length == 4
    assert s.gs.chips == [9, 8] and s.gs.bank == 133  # 150 chips in all
    assert out.metrics["chips_left"] == 8.5 and out.metrics["final_index_sum"] == 27.0
    ev = out.events
    assert (ev["stewardship_up"], ev["stewardship_down"], ev["stewardship_same"]) == (5, 3, 4)
    assert (ev["tipping_up"], ev["tipping_down"], ev["tipping_same"], ev["tipping_blocked"]) == (1, 1, 0, 1)
    assert (ev["harvest"], ev["harvest_zero"], ev["invest"], ev["out_of_cells"]) == (7, 1, 6, 2)
    assert (ev["move"], ev["move_pass"], ev["badge_won"], ev["setup_first"], ev["setup_adjacent"]) == (1, 7, 1, 2, 2)
    assert s.trajectory == [
        (2, 6, 3, 5, 4, 2),
        (2, 6, 3, 5, 4, 2),
        (2, 4, 2, 5, 3, 1),
        (2, 4, 2, 5, 3, 1),
        (4, 6, 2, 6, 5, 2),
    ]


def test_tipping_point_equal_and_tipping_first() -> None:
    game, _ = chosen_dice_game()
    rules = game.rules.model_copy(update={"turns": 2, "tipping_point_die": 30, "end_of_turn_order": "tipping-first"})
    game = WellbeingGame(game.board, rules, 2)
    s = game.new_initial_state()
    while s.current_player() != CHANCE:
        s.apply_action(s.legal_actions()[0])
    assert s.gs.turn == 2 and len(s.chance_outcomes()) == 30  # the tipping point comes first
    roll(s, 22, [2, 6, 3, 5, 4, 2])  # 22 = sum 22: no change
    assert len(s.chance_outcomes()) == 4  # then the Polar die
    for face, index in (
        (1, [1, 6, 3, 5, 4, 2]),
        (12, [1, 7, 3, 5, 4, 2]),
        (6, [1, 7, 4, 5, 4, 2]),
        (1, [1, 7, 4, 4, 4, 2]),
        (8, [1, 7, 4, 4, 5, 2]),
        (2, [1, 7, 4, 4, 5, 2]),
    ):
        roll(s, face, index)
    assert s.is_terminal()
    assert s.outcome().events["tipping_same"] == 1 and s.outcome().events["stewardship_same"] == 1


def test_illegal_actions_clone_and_observation() -> None:
    game, s = chosen_dice_game()
    with pytest.raises(IllegalActionError):
        s.apply_action(game.stay)  # no staying during setup
    s.apply_action(0)
    with pytest.raises(IllegalActionError):
        s.apply_action(0)  # occupied
    copy = s.clone()
    copy.apply_action(9)
    assert s.gs.owner[9] == -1 and copy.gs.owner[9] == 1 and s.history() == [0] and copy.history() == [0, 9]
    assert s.legal_actions(0) == [] and s.legal_actions(1) == s.legal_actions()
    view = s.observation(0)
    assert view["pieces"] == [["c0"], []] and view["index"]["Temperate"] == 6 and view == s.observation(1)
    tensor = s.observation_tensor(0)
    assert len(tensor) == len(copy.observation_tensor(1)) and tensor[0] == 1.0
    assert game.info.num_distinct_actions == 21 and game.info.max_chance_outcomes == 20


# ------------------------------------------------------------------------------------ the command


@pytest.fixture
def fast_board(monkeypatch: pytest.MonkeyPatch, default_board: Board) -> Board:
    monkeypatch.setattr(boardgen.geomap.build, "build_board",
                        lambda config: dataclasses.replace(default_board, config=config))
    return default_board


def test_simulate_with_generic_bots_goes_through_the_api(fast_board: Board, tmp_path: Path) -> None:
    assert {"random", "greedy", "planner", "mcts", "random-generic", "greedy-generic"} <= set(api_bots())
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "--games",
            "6",
            "--players",
            "2",
            "--bots",
            "random-generic,greedy",
            "--quiet",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / load_template().edition / "report" / "results.json").read_text())
    summary = data["summary"]
    assert summary["games"] == 6 and summary["bots"] == ["random-generic", "greedy"]
    assert set(summary["win_rate_by_bot"]) == {"random-generic", "greedy"}
    assert summary["length"]["mean"] == 20 and summary["events"]["setup_first"]["total"] == 12
