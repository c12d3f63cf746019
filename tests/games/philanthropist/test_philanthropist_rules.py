"""The Philanthropist's rules on hand-made positions: every die and draw forced through chance nodes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardgen.games.philanthropist.rules.engine import (
    ACTION,
    DRAW,
    END,
    MOVE,
    PhilanthropistGame,
    PhilState,
    Rules,
    king_steps,
)
from boardgen.games.philanthropist.schema import load_cards
from boardgen.play.api import CHANCE, TERMINAL, IllegalActionError
from boardgen.play.bots import play_with_bots
from boardgen.plugin import BuildContext
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "templates" / "philanthropist.yaml"


@pytest.fixture(scope="module")
def setup() -> tuple:
    plugin, config = load(TEMPLATE)
    return plugin, config, load_cards(config)


def game(setup: tuple, players: int = 4, **rule_changes: object) -> PhilanthropistGame:
    _plugin, config, cards = setup
    if rule_changes:
        config = config.model_copy(update={"rules": config.rules.model_copy(update=rule_changes)})
    return PhilanthropistGame(Rules.from_template(config, cards), players)


def set_out(g: PhilanthropistGame, first: int = 0) -> PhilState:
    """Set out the meeples on the first free square each time, pick ``first``, then clear the board."""
    s = g.new_initial_state()
    while s.phase != ACTION:
        s.apply_action(first if s.current_player() == CHANCE and s.phase == 1 else s.legal_actions()[0])
    return s


def empty_board(s: PhilState, meeples: dict[int, int] | None = None) -> PhilState:
    s.meeple_at = [-1] * (s.n * s.n)
    for sq, kind in (meeples or {}).items():
        s.meeple_at[sq] = kind
    s.left = sum(1 for k in s.meeple_at if k >= 0)
    return s


def sq(s: PhilState, row: int, col: int) -> int:
    return row * s.n + col


def test_setup_spreads_meeples_evenly_and_keeps_corners_free(setup: tuple) -> None:
    g = game(setup)
    s = g.new_initial_state()
    rng = random.Random(3)
    chance_nodes = 0
    while s.phase != ACTION:
        assert s.current_player() == CHANCE
        outcomes = s.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        chance_nodes += 1
    assert chance_nodes == 51 + 1  # one node per meeple, one for the first player
    assert sum(1 for k in s.meeple_at if k >= 0) == 51
    counts = [0] * 16
    for square, kind in enumerate(s.meeple_at):
        if kind >= 0:
            counts[g.block_of[square]] += 1
    assert set(counts) <= {3, 4}  # 51 over 16 areas: 3 or 4 each
    for corner in (0, 15, 255, 240):
        assert s.meeple_at[corner] < 0
    assert [s.meeple_at.count(k) for k in range(5)] == [16, 10, 10, 10, 5]


def test_first_player_and_catch_up_cubes(setup: tuple) -> None:
    s = set_out(game(setup), first=2)
    assert s.player == 2 and s.first == 2
    assert s.cubes == [3 + 2, 3 + 3, 3, 3 + 1]  # seat 3 starts, then 4, 1, 2
    assert s.pos == [0, 15, 255, 240]


def test_three_players_the_middle_corner_gets_extra_cubes(setup: tuple) -> None:
    s = set_out(game(setup, players=3), first=0)
    assert s.pos == [0, 15, 255]
    assert s.cubes == [3, 3 + 1 + 2, 3 + 2]  # catch-up by turn order; seat 2 sits between the others


def test_two_players_start_in_opposite_corners(setup: tuple) -> None:
    s = set_out(game(setup, players=2))
    assert s.pos == [0, 255]


def roll_move(s: PhilState, white: int) -> None:
    s.apply_action(1)  # action die 1: move
    assert s.current_player() == CHANCE
    s.apply_action(white)
    assert s.current_player() == s.player and s.phase == MOVE


def test_moves_reach_every_square_within_the_die_in_eight_directions(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)))
    s.pos[0] = sq(s, 7, 7)
    roll_move(s, 2)
    legal = s.legal_actions()
    assert sorted(legal) == sorted(sq(s, r, c) for r in range(5, 10) for c in range(5, 10))  # 0 to 2 steps
    assert sq(s, 7, 7) in legal  # staying put (moving 0) is allowed
    assert sq(s, 7, 10) not in legal


def test_moves_are_clipped_at_the_board_edge(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)))
    roll_move(s, 6)  # seat 1 in the top left corner
    assert len(s.legal_actions()) == 7 * 7


def test_meeples_do_not_block_and_may_be_stood_on(setup: tuple) -> None:
    s = set_out(game(setup))
    centre = sq(s, 7, 7)
    ring = {centre + dr * s.n + dc: 4 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc}  # red meeples
    empty_board(s, ring)
    s.pos[0] = centre
    s.cubes[0] = 0
    roll_move(s, 2)
    legal = s.legal_actions()
    assert sq(s, 5, 5) in legal and sq(s, 9, 9) in legal  # beyond the ring
    assert sq(s, 6, 6) in legal  # on a meeple, without collecting it
    assert all(a < s.n * s.n for a in legal)  # cannot pay for a red meeple: no collect action


def test_a_move_may_not_end_on_an_unpaid_meeple_when_the_template_says_so(setup: tuple) -> None:
    s = empty_board(set_out(game(setup, stop_on_unpaid_meeple=False)), {1: 0, 100: 0})
    s.cubes[0] = 0
    roll_move(s, 1)
    assert 1 not in s.legal_actions()
    s.cubes[0] = 1
    assert s.legal_actions()[-1] == 256 + 1


def test_collecting_pays_the_cost_removes_the_meeple_and_earns_no_income(setup: tuple) -> None:
    sq_ = 2 * 16 + 2
    s = empty_board(set_out(game(setup)), {sq_: 2, 100: 0})  # a green meeple (cost 3) at C3
    s.cubes[0] = 5
    roll_move(s, 2)
    collect = 256 + sq_
    assert collect in s.legal_actions()
    assert s.action_to_string(0, collect) == "move to C3 and collect the green meeple"
    s.apply_action(collect)
    assert s.cubes[0] == 2 and s.meeples[0] == 1 and s.donated[0] == 3
    assert s.meeple_at[sq_] == -1 and s.pos[0] == sq_
    assert s.player == 1 and s.phase == ACTION  # collecting ends the turn
    assert s.events["income"] == 0 and s.events["collect"] == 1


def test_income_when_collecting_is_a_template_choice(setup: tuple) -> None:
    s = empty_board(set_out(game(setup, income_when_collecting=True)), {17: 0, 100: 0})
    s.cubes[0] = 1
    roll_move(s, 1)
    s.apply_action(256 + 17)
    assert s.cubes[0] == 1  # paid 1, earned 1


def test_a_plain_move_earns_one_cube(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)), {100: 0})
    before = s.cubes[0]
    roll_move(s, 3)
    s.apply_action(sq(s, 3, 3))
    assert s.cubes[0] == before + 1 and s.pos[0] == sq(s, 3, 3)


def test_an_unaffordable_collect_is_illegal(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)), {1: 3, 100: 0})  # a yellow meeple (cost 4) next door
    s.cubes[0] = 3
    roll_move(s, 1)
    with pytest.raises(IllegalActionError):
        s.apply_action(256 + 1)


def test_avatars_may_not_share_when_the_template_says_so(setup: tuple) -> None:
    s = empty_board(set_out(game(setup, avatars_may_share=False)), {100: 0})
    s.pos[1] = 1
    roll_move(s, 1)
    assert 1 not in s.legal_actions() and 0 in s.legal_actions()
    shared = empty_board(set_out(game(setup)), {100: 0})
    shared.pos[1] = 1
    roll_move(shared, 1)
    assert 1 in shared.legal_actions()


def test_payday_pays_twice_the_white_die(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)), {100: 0})
    before = s.cubes[0]
    s.apply_action(3)  # action die 3: payday
    assert s.current_player() == CHANCE
    s.apply_action(4)
    assert s.cubes[0] == before + 8 and s.player == 1


def draw(s: PhilState, title: str) -> None:
    s.apply_action(6)  # action die 6: a business card
    assert s.phase == DRAW
    index = next(i for i, c in enumerate(s.rules.cards) if c.title == title)
    s.apply_action(index)


@pytest.mark.parametrize(("title", "holding", "after"), [
    ("Bonus", 2, 8), ("Patent sold", 0, 8), ("Lawsuit", 5, 2), ("Lawsuit", 1, 0), ("Late fine", 4, 0),
    ("Market slump", 5, 2), ("Market slump", 1, 0), ("Bankruptcy", 9, 0), ("Audit", 0, 0)])
def test_card_effects_with_the_floor_at_zero(setup: tuple, title: str, holding: int, after: int) -> None:
    s = empty_board(set_out(game(setup)), {100: 0})
    s.cubes[0] = holding
    draw(s, title)
    assert s.cubes[0] == after


def test_card_draws_follow_the_pile_and_reshuffle_when_it_runs_out(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)), {100: 0})
    bankruptcy = next(i for i, c in enumerate(s.rules.cards) if c.title == "Bankruptcy")
    draw(s, "Bankruptcy")
    assert bankruptcy not in [a for a, _ in s.chance_outcomes()] or s.phase != DRAW
    s.apply_action(6)
    assert bankruptcy not in [a for a, _ in s.chance_outcomes()]  # the one Bankruptcy card is in the discards
    probabilities = dict(s.chance_outcomes())
    assert abs(sum(probabilities.values()) - 1) < 1e-9
    assert probabilities[0] == pytest.approx(2 / 29)
    for _ in range(29):
        if s.phase != DRAW:
            s.apply_action(6)
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.events["reshuffle"] == 1
    assert sum(s.pile) == 30


def test_the_game_ends_when_the_last_meeple_is_collected(setup: tuple) -> None:
    s = empty_board(set_out(game(setup, players=2)), {1: 0})
    s.meeples = [4, 4]
    s.donated = [4, 9]
    roll_move(s, 1)
    s.apply_action(256 + 1)
    assert s.current_player() == TERMINAL and s.phase == END
    assert s.meeples == [5, 4]
    assert s.outcome().winners == (0,) and s.returns() == [1.0, 0.0]


@pytest.mark.parametrize(("tie_break", "winners"), [("donated", (1,)), ("cubes", (0,)), ("shared", (0, 1))])
def test_tie_break(setup: tuple, tie_break: str, winners: tuple[int, ...]) -> None:
    s = empty_board(set_out(game(setup, players=2, tie_break=tie_break)), {1: 0})
    s.meeples = [4, 5]
    s.donated = [5, 9]
    s.cubes = [4, 0]
    roll_move(s, 1)
    s.apply_action(256 + 1)  # seat 1 pays 1 cube: 5 meeples each, 6 vs 9 cubes donated, 3 vs 0 cubes left
    assert s.outcome().winners == winners


def test_the_turn_limit_ends_a_stalled_game(setup: tuple) -> None:
    g = game(setup, players=2, turn_limit={2: 5, 3: 70, 4: 55})
    s = empty_board(set_out(g), {100: 4})
    for _ in range(10):
        s.apply_action(3)
        s.apply_action(1)
    assert s.current_player() == TERMINAL and s.limit_hit
    out = s.outcome()
    assert out.length == 5 and out.metrics["turn_limit_hit"] == 1.0 and out.metrics["meeples_left"] == 1


def test_whole_games_end_and_repeat_with_the_same_seed(setup: tuple) -> None:
    plugin, config, _cards = setup
    g = plugin.new_game(BuildContext(config, plugin), 3)
    factories = plugin.bots()
    results = []
    for _ in range(2):
        bots = [factories[name](g, seat, random.Random(seat)) for seat, name in
                enumerate(("collector", "planner", "random"))]
        s = play_with_bots(g.new_initial_state(), bots, random.Random(11))
        results.append((s.history(), s.outcome().scores))
        assert s.left == 0 or s.limit_hit
        assert sum(s.meeples) + s.left == 51
    assert results[0] == results[1]


def test_king_steps() -> None:
    assert king_steps(16, 0, 17) == 1 and king_steps(16, 0, 255) == 15 and king_steps(16, 5, 5) == 0


@pytest.mark.parametrize("name", ["collector", "planner"])
def test_bots_help_a_meeple_within_reach(setup: tuple, name: str) -> None:
    plugin = setup[0]
    g = game(setup)
    s = empty_board(set_out(g), {2 * 16 + 2: 4, 2 * 16 + 1: 0, 200: 1})  # red (5) and black (1) in reach
    s.cubes[0] = 6
    roll_move(s, 2)
    bot = plugin.bots()[name](g, 0, random.Random(1))
    assert bot.step(s) == 256 + 2 * 16 + 1  # the cheap one


@pytest.mark.parametrize("name", ["collector", "planner"])
def test_bots_head_for_a_meeple_out_of_reach(setup: tuple, name: str) -> None:
    plugin = setup[0]
    g = game(setup)
    s = empty_board(set_out(g), {10 * 16 + 10: 0})
    roll_move(s, 3)
    bot = plugin.bots()[name](g, 0, random.Random(1))
    action = bot.step(s)
    assert action == 3 * 16 + 3  # three diagonal steps toward K11
    assert king_steps(16, action, 10 * 16 + 10) == 7


@pytest.mark.parametrize("seed", range(4))
def test_random_play_keeps_every_invariant(setup: tuple, seed: int) -> None:
    """OpenSpiel's random_sim_test in spirit: random legal play, checking the state after every action."""
    from boardgen.play.api import sample_chance

    g = game(setup, players=2 + seed % 3)
    s = g.new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while not s.is_terminal():
        player = s.current_player()
        if player == CHANCE:
            outcomes = s.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert [a for a, _ in outcomes] == s.legal_actions()
            action = sample_chance(s, rng)
        else:
            legal = s.legal_actions()
            assert legal == s.legal_actions(player)
            assert all(s.legal_actions(other) == [] for other in range(g.info.num_players) if other != player)
            # half the time the highest action (a collect when there is one), so games finish
            action = legal[rng.randrange(len(legal))] if rng.random() < 0.5 else max(legal)
            assert s.action_to_string(player, action)
        copy = s.clone()
        s.apply_action(action)
        assert copy.history() == s.history()[:-1]  # the clone did not move
        assert min(s.cubes) >= 0
        on_board = sum(1 for k in s.meeple_at if k >= 0)
        assert on_board == (s.left if s.placed == 51 else s.placed)
        assert sum(s.meeples) + s.left == 51
        assert 1 <= sum(s.pile) <= 30
        steps += 1
        assert steps < g.info.max_game_length
    out = s.outcome()
    assert out.winners and sum(s.returns()) == pytest.approx(1.0)
    assert sum(out.scores) + out.metrics["meeples_left"] == 51


@pytest.mark.parametrize("winner_left, decided", [(2, 1.0), (20, 0.0)])
def test_a_card_edge_decides_only_when_the_winner_needed_those_cubes(setup: tuple, winner_left: int,
                                                                     decided: float) -> None:
    """Seat 0 wins 10-9 on meeples and got 8 cubes more than seat 1 from gain cards: that decided the game
    only if seat 0 did not end with those cubes still in hand."""
    g = game(setup)
    s = empty_board(set_out(g))
    s.phase = END
    s.meeples = [10, 9, 5, 3]
    s.cubes = [winner_left, 0, 0, 0]
    s.card_net = [[10, 0, 0, 0], [2, -2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    m = s.outcome().metrics
    assert m["winner_cubes_left"] == winner_left
    assert m["decided_by_card_gain"] == decided
    assert m["decided_by_card_lose"] == 0.0  # an edge of 2 cubes from losses: no more than the 2 cubes left


@pytest.mark.parametrize(("phase_steps", "action", "words"), [
    ((), 7, "action die 7 (its faces are 1-6)"),
    ((), 0, "action die 0 (its faces are 1-6)"),
    ((), -1, "action die -1 (its faces are 1-6)"),
    ((1,), 7, "white die 7 (its faces are 1-6)"),
    ((3,), 0, "white die 0 (its faces are 1-6)"),
    ((6,), 13, "card row 13 (the deck has rows 0-"),
    ((1, 2), 512, "move 512 (moves are 0-511)"),
    ((1, 2), -3, "move -3 (moves are 0-511)"),
])
def test_out_of_range_actions_are_illegal_with_the_right_words(setup: tuple, phase_steps: tuple[int, ...],
                                                               action: int, words: str) -> None:
    """Die value 7, move 512, card row 13 and the like raise IllegalActionError (not a look-up error), and the
    message names the value as out of range rather than reading it as another face ("action die 0: card")."""
    s = empty_board(set_out(game(setup)), {100: 0})
    for step in phase_steps:
        s.apply_action(step)
    with pytest.raises(IllegalActionError) as caught:
        s.apply_action(action)
    assert words in str(caught.value)


def test_a_collect_where_no_meeple_stands_is_illegal_and_says_so(setup: tuple) -> None:
    s = empty_board(set_out(game(setup)), {100: 0})
    s.apply_action(1)
    s.apply_action(2)
    with pytest.raises(IllegalActionError, match="no meeple stands there"):
        s.apply_action(256 + 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_play_the_game_to_its_own_end(setup: tuple, players: int) -> None:
    """The game's random bot helps every meeple before the turn limit, so its games use every rule."""
    from boardgen.games.philanthropist.rules.bots import philanthropist_bots
    from boardgen.play.simulate import play_one

    g = game(setup, players=players)
    records = [play_one(g, philanthropist_bots(), ["random"] * players, seed) for seed in range(40)]
    assert all(r.outcome.metrics["meeples_left"] == 0 and r.outcome.events["all-helped"] == 1 for r in records)
    assert all(r.outcome.metrics["turn_limit_hit"] == 0 for r in records)
    used = {k for r in records for k, v in r.outcome.events.items() if v}
    assert used >= {"move", "payday", "card", "collect", "income", "card-floor", "all-helped"}
    # the generic uniform pick never gets there: the reason the game has its own random bot
    uniform = play_one(g, philanthropist_bots(), ["uniform"] * players, 1)
    assert uniform.outcome.metrics["turn_limit_hit"] == 1
