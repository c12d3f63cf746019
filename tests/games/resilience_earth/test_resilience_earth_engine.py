"""Resilience Earth rules with chosen dice, draws and collapses, on a 6 x 6 grid of fields (fast: no map)."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
import yaml

from boardgen.games.resilience_earth.rules.bots import OWN_BOTS
from boardgen.games.resilience_earth.rules.engine import (
    CARD,
    DIE1,
    INDUSTRY,
    SETTLEMENT,
    STONE,
    TIMER,
    TOWN,
    TURN,
    FieldFacts,
    ResilienceGame,
    ResilienceState,
    collapse_probability,
    pattern_fields,
)
from boardgen.games.resilience_earth.schema import ResilienceTemplate
from boardgen.play.api import CHANCE, TERMINAL, sample_chance
from boardgen.play.bots import RandomBot, play_with_bots
from boardgen.schema import validate_template

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "resilience-earth.yaml"


def grid_facts() -> FieldFacts:
    """Fields 11..66 on a 6 x 6 grid: row = first die (north to south), column = second die (west to east)."""
    numbers, neighbours, centres = [], [], []
    for r in range(6):
        for c in range(6):
            numbers.append((r + 1) * 10 + c + 1)
            centres.append((c * 10.0, r * 10.0))
            nb = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < 6 and 0 <= c + dc < 6:
                    nb.append((r + dr) * 6 + c + dc)
            neighbours.append(tuple(sorted(nb)))
    levels = tuple(1 + (i % 3) for i in range(36))
    return FieldFacts(tuple(numbers), tuple(neighbours), levels, tuple(centres))


def config(**rules: object) -> ResilienceTemplate:
    data = yaml.safe_load(TEMPLATE.read_text())
    if "players" in rules:
        data["players"]["usual"] = rules.pop("players")
    data["rules"].update(rules)
    return validate_template(ResilienceTemplate, data, str(TEMPLATE))


def new_state(players: int = 2, **rules: object) -> ResilienceState:
    game = ResilienceGame(grid_facts(), config(**rules), players)
    return game.new_initial_state()


def f(state: ResilienceState, number: int) -> int:
    return state.game.facts.numbers.index(number)


def act(state: ResilienceState, kind: str, number: int) -> None:
    g = state.game
    base = {"settle": g.SETTLE, "town": g.TOWN, "industry": g.INDUSTRY, "dismantle": g.DISMANTLE}[kind]
    state.apply_action(base + f(state, number))


def stand(state: ResilienceState, stones: int = 1) -> None:
    for _ in range(stones):
        assert state.current_player() == CHANCE and state.phase == STONE
        state.apply_action(0)


def test_collapse_curve_is_logistic_and_rising() -> None:
    p = [collapse_probability(h, 0.35, 26, 3.5) for h in range(32)]
    assert p[26] == pytest.approx(0.175)
    assert all(a < b for a, b in itertools.pairwise(p))
    assert p[0] < 0.001 and p[31] < 0.35
    s = new_state()
    s.height = 26
    s.phase = STONE
    outcomes = dict(s.chance_outcomes())
    t = s.game.tower
    want = collapse_probability(26, t.collapse_ceiling, t.collapse_midpoint, t.collapse_spread)
    assert outcomes[1] == pytest.approx(want) and sum(outcomes.values()) == pytest.approx(1.0)


def test_settling_costs_travel_when_far_from_own_land() -> None:
    s = new_state()
    assert s.settle_cost(0, f(s, 66)) == 2  # no land yet: the first settlement goes anywhere at base cost
    act(s, "settle", 11)
    assert (s.res[0], s.lq[0]) == (1, s.game.rules.settlement_lq) == (1, 1)
    s.res[0] = 10
    assert s.settle_cost(0, f(s, 12)) == 2  # borders 11
    assert s.settle_cost(0, f(s, 22)) == 4  # diagonal is not a border
    act(s, "settle", 33)
    assert s.res[0] == 6
    g = s.game
    assert g.SETTLE + f(s, 11) not in s.legal_actions()  # taken
    s.res[0] = 3
    legal = s.legal_actions()
    assert g.SETTLE + f(s, 12) in legal and g.SETTLE + f(s, 55) not in legal  # 4 RES: too far for 3


def test_upgrades_put_stones_on_the_tower_from_the_countdown() -> None:
    s = new_state()
    act(s, "settle", 11)
    s.res[0] = 30
    act(s, "town", 11)
    assert s.kind[f(s, 11)] == TOWN and s.res[0] == 30 - s.game.costs.town == 23
    stand(s)
    assert (s.height, s.stacks[0], s.phase) == (1, 4, TURN)
    act(s, "settle", 12)
    act(s, "industry", 12)
    assert s.pending_stones == 2
    stand(s, 2)
    assert (s.height, s.stacks[0]) == (3, 2)
    assert s.placed[0] == {SETTLEMENT: 0, TOWN: 1, INDUSTRY: 1}


def test_dismantling_lifts_stones_into_the_reserve_and_returns_settlement_lq() -> None:
    s = new_state()
    act(s, "settle", 11)
    s.res[0] = 30
    act(s, "industry", 11)
    stand(s, 2)
    act(s, "dismantle", 11)
    assert (s.height, s.reserve, s.kind[f(s, 11)]) == (0, 2, SETTLEMENT)
    act(s, "settle", 12)
    act(s, "town", 12)
    stand(s)
    assert (s.reserve, s.stacks[0]) == (1, 3)  # the reserve is used before the countdown
    lq = s.lq[0]
    act(s, "dismantle", 11)  # a plain settlement leaves and takes its LQ along
    assert s.owner[f(s, 11)] == -1 and s.lq[0] == lq - s.game.rules.settlement_lq


def test_sabbatical_pays_lq_and_skips_production() -> None:
    s = new_state()
    act(s, "settle", 13)  # level 3 field (index 2)
    s.apply_action(s.game.END)
    act(s, "settle", 66)
    s.apply_action(s.game.END)  # round 1 ends: both paid
    assert s.round == 2 and s.res[0] == 1 + 2 and s.res[1] == 1 + 2
    # round 2: seat 1 leads; seat 1 takes a sabbatical
    assert s.current_player() == 1
    s.apply_action(s.game.SABBATICAL)
    assert (s.res[1], s.lq[1]) == (2, 1 + 5)  # settlement 1 LQ + sabbatical 5 LQ
    s.apply_action(s.game.END)
    assert s.res[0] == 3 + 2 and s.res[1] == 2  # no RES for the sabbatical
    s.sabbaticals[0] = 2
    assert s.game.SABBATICAL not in s.legal_actions()  # the limit (2 a game)


def test_industry_lq_loss_is_at_most_one_per_field() -> None:
    s = new_state()
    g = s.game
    for n in (22, 11, 33):  # seat 0's fields; 21 and 23 (seat 1) are industries beside 22, 11 and 33
        s.owner[f(s, n)], s.kind[f(s, n)] = 0, SETTLEMENT
    for n in (21, 23):
        s.owner[f(s, n)], s.kind[f(s, n)] = 1, INDUSTRY
    s.lq = [10, 10]
    s.apply_action(g.END)
    s.apply_action(g.END)
    assert s.lq[0] == 10 - 3  # 22 borders two industries but pays once; 11 and 33 border one each
    assert s.lq[1] == 10  # 21 and 23 border no industry


def test_first_empty_stack_draws_an_event_that_covers_the_pattern() -> None:
    s = new_state()
    cards = [c.name for c in s.game.cards]
    s.height, s.stacks[0] = 4, 1
    act(s, "settle", 11)
    s.res[0] = 10
    act(s, "town", 11)
    stand(s)
    assert s.phase == CARD and s.stacks[0] == 0
    drought = cards.index("Drought")  # blocked 3 rounds, E and W
    s.apply_action(drought)
    assert s.phase == DIE1
    s.apply_action(3)
    s.apply_action(4)
    covered = {s.game.facts.numbers[i] for i, e in enumerate(s.cover_effect) if e}
    assert covered == {34, 33, 35}
    assert all(s.cover_effect[f(s, n)] == "blocked" and s.cover_until[f(s, n)] == 3 for n in covered)
    assert s.phase == TURN and s.game.SETTLE + f(s, 34) not in s.legal_actions()


def test_destroyed_removes_buildings_and_blocked_pays_nothing() -> None:
    s = new_state()
    g = s.game
    s.owner[f(s, 44)], s.kind[f(s, 44)] = 1, TOWN
    s.placed[1][TOWN] = 1
    s._event([c.name for c in g.cards].index("Landslide"), 4, 4)  # destroyed, 1 round, just the field
    assert s.owner[f(s, 44)] == -1 and s.placed[1][TOWN] == 0 and s.cover_effect[f(s, 44)] == "destroyed"
    s.owner[f(s, 11)], s.kind[f(s, 11)] = 0, SETTLEMENT
    s._event([c.name for c in g.cards].index("Glacier melt"), 1, 1)  # blocked: 11 (no field north of it)
    assert s.cover_effect[f(s, 11)] == "blocked"
    res = s.res[0]
    s.apply_action(g.END)
    s.apply_action(g.END)
    assert s.res[0] == res  # blocked field: no RES
    assert s.cover_effect[f(s, 44)] == ""  # the one-round marker came off


def test_patterns_follow_the_compass_on_the_field() -> None:
    facts = grid_facts()
    i = facts.numbers.index
    assert pattern_fields(facts, i(33), ["E"]) == (i(33), i(34))
    assert pattern_fields(facts, i(33), ["E", "E"]) == (i(33), i(34), i(35))
    assert set(pattern_fields(facts, i(33), ["all"])) == {i(33), i(23), i(43), i(32), i(34)}
    assert pattern_fields(facts, i(11), ["N", "W"]) == (i(11),)  # off the edge: lost
    assert pattern_fields(facts, i(33), ["NE"]) in ((i(33), i(23)), (i(33), i(34)))


def test_the_builder_of_a_falling_tower_loses_and_lq_decides() -> None:
    s = new_state(players=3)
    s.res = [0, 50, 0]
    s.lq = [9, 0, 12]
    s.owner[f(s, 11)], s.kind[f(s, 11)] = 0, SETTLEMENT
    s.res[0] = 10
    act(s, "town", 11)
    s.apply_action(1)  # the tower falls
    assert s.current_player() == TERMINAL and s.ended == "collapse" and s.toppler == 0
    out = s.outcome()
    assert out.winners == (2,)  # RES count for nothing: seat 1's 50 RES do not help
    assert out.scores == (-1.0, 0.0, 12.0) and out.metrics["collapse"] == 1.0


def test_timer_ending_scores_res_plus_lq_with_the_lopsided_penalty() -> None:
    s = new_state(players=2)
    s.round = 10
    s.res, s.lq = [30, 18], [6, 14]
    s.apply_action(s.game.END)
    s.apply_action(s.game.END)
    assert s.phase == TIMER and dict(s.chance_outcomes())[1] == pytest.approx(1 / 5)
    s.apply_action(1)
    out = s.outcome()
    assert s.ended == "timer"
    assert out.scores == (30 + 6 - 5, 18 + 14)  # 30:6 is 83% RES: more lopsided than 80:20
    assert out.winners == (1,)


def test_standing_buildings_count_as_res_at_the_end_and_in_the_split() -> None:
    s = new_state(players=2)
    worth = s.game.rules.building_res
    assert worth == {"settlement": 1, "town": 4, "industry": 10}
    s.owner[f(s, 11)], s.kind[f(s, 11)] = 0, INDUSTRY
    s.owner[f(s, 12)], s.kind[f(s, 12)] = 0, TOWN
    s.owner[f(s, 13)], s.kind[f(s, 13)] = 0, SETTLEMENT
    s.owner[f(s, 14)], s.kind[f(s, 14)] = 1, SETTLEMENT
    s.res, s.lq = [10, 20], [6, 6]
    assert (s.tangible(0), s.tangible(1)) == (10 + 10 + 4 + 1, 20 + 1)
    s._finish("timer")  # the timer rings (straight away: no production, no LQ loss first)
    # seat 0: 25 tangible + 6 LQ = 31, 81% tangible: lopsided (-5); seat 1: 21 + 6 = 27, 78%: not
    assert s.outcome().scores == (25 + 6 - 5, 21 + 6) and s.outcome().winners == (1,)  # the penalty decides


def test_seat_extras_add_to_the_starting_res_and_lq() -> None:
    s = new_state(players=3, starting_res_extra=[0, 1], starting_lq_extra=[0, 2, 4])
    assert (s.res, s.lq) == ([3, 4, 3], [0, 2, 4])


def test_timer_always_rings_by_the_last_round() -> None:
    s = new_state()
    s.round = 14
    s.apply_action(s.game.END)
    s.apply_action(s.game.END)
    assert s.chance_outcomes() == [(1, 1.0)]


def test_the_last_stone_ends_the_game() -> None:
    s = new_state()
    s.stacks = [0] * 11 + [1]
    s.stack_at = 11
    s.height = 30
    s.owner[f(s, 11)], s.kind[f(s, 11)] = 0, SETTLEMENT
    s.res[0] = 10
    act(s, "town", 11)
    s.apply_action(0)
    assert s.phase == CARD  # the last stack's event is still drawn
    s.apply_action(0)
    s.apply_action(1)
    s.apply_action(1)
    assert s.ended == "stones" and s.is_terminal()


def test_whole_games_end_and_are_reproducible() -> None:
    game = ResilienceGame(grid_facts(), config(), 4)
    results = []
    for seed in (1, 2):
        for _ in range(2):
            rng = random.Random(seed)
            bots = [OWN_BOTS[name](game, i, random.Random(seed + i)) for i, name in
                    enumerate(("grower", "steward", "sabbatical", "mixed"))]
            end = play_with_bots(game.new_initial_state(), bots, rng)
            results.append((end.history(), end.outcome().scores))
    assert results[0] == results[1] and results[2] == results[3] and results[0] != results[2]
    rng = random.Random(7)
    for _ in range(10):  # random play: chance outcomes are distributions, clones are independent
        state = game.new_initial_state()
        bots = [RandomBot(game, i, random.Random(i)) for i in range(4)]
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                assert math.isclose(sum(p for _, p in state.chance_outcomes()), 1.0)
                state.apply_action(sample_chance(state, rng))
            else:
                twin = state.clone()
                action = bots[state.current_player()].step(state)
                state.apply_action(action)
                assert twin.history() != state.history()
        assert state.outcome().length >= 1


def test_a_town_or_industry_needs_enough_stones_left() -> None:
    s = new_state()
    g = s.game
    act(s, "settle", 11)
    s.res[0] = 30
    s.stacks = [0] * 11 + [1]  # one stone left in all
    s.stack_at = 11
    legal = s.legal_actions()
    assert g.TOWN + f(s, 11) in legal  # a town takes one stone
    assert g.INDUSTRY + f(s, 11) not in legal  # an industry takes two: not enough left
    s.reserve = 1
    assert g.INDUSTRY + f(s, 11) in s.legal_actions()  # a lifted-off stone counts too


def test_an_industry_puts_both_stones_on_before_the_event_is_drawn() -> None:
    s = new_state()
    act(s, "settle", 11)
    s.res[0] = 30
    s.stacks[0] = 1  # the first stone empties the first countdown space
    act(s, "industry", 11)
    stand(s)
    assert s.phase == STONE and s.pending_events == 1  # the second stone first
    stand(s)
    assert s.phase == CARD and s.height == 2 and s.stacks[:2] == [0, 3]


def test_lq_never_goes_below_zero() -> None:
    s = new_state()
    g = s.game
    s.owner[f(s, 22)], s.kind[f(s, 22)] = 0, SETTLEMENT
    s.owner[f(s, 21)], s.kind[f(s, 21)] = 1, INDUSTRY
    s.lq = [0, 0]
    s.apply_action(g.END)
    s.apply_action(g.END)
    assert s.lq[0] == 0  # the loss beside the industry finds no LQ to take
    s.apply_action(g.END)  # seat 1 leads round 2
    s.apply_action(g.DISMANTLE + f(s, 22))  # a settlement leaving takes LQ the player no longer has
    assert s.lq[0] == 0


def test_observation_gives_the_fields_printed_on_the_board() -> None:
    s = new_state()
    obs = s.observation(0)
    facts = grid_facts()
    assert set(obs["fields"]) == set(facts.numbers)
    assert obs["fields"][11] == {"level": 1, "borders": [12, 21]}
    assert obs["fields"][36] == {"level": facts.levels[facts.numbers.index(36)], "borders": [26, 35, 46]}


def test_the_random_bot_picks_an_action_kind_first() -> None:
    """With 30 fields to settle and one town to build, the town is still chosen about a quarter of the time
    (kinds open: settle, town, dismantle, end)."""
    s = new_state()
    g = s.game
    act(s, "settle", 11)
    s.res[0] = g.costs.town
    assert g.costs.town < g.costs.industry
    legal = s.legal_actions()
    kinds = {s.action_kind(a) for a in legal}
    assert kinds == {0, 1, 3, 5}  # settle, town, dismantle, end (no industry yet; sabbatical: acted)
    rng = random.Random(5)
    bot = RandomBot(g, 0, rng)
    towns = sum(bot.step(s) == g.TOWN + f(s, 11) for _ in range(2000))
    assert 400 < towns < 600


def test_every_bot_rule_fires_in_default_games_and_events_list_unused_rules() -> None:
    game = ResilienceGame(grid_facts(), config(), 4)
    totals: dict[str, int] = {}
    for seed in range(30):
        bots = [OWN_BOTS[name](game, i, random.Random(seed * 10 + i)) for i, name in
                enumerate(("grower", "steward", "sabbatical", "mixed"))]
        end = play_with_bots(game.new_initial_state(), bots, random.Random(seed))
        for k, v in end.outcome().events.items():
            totals[k] = totals.get(k, 0) + v
    assert set(totals) == set(game.rule_events)
    assert "event missed" not in totals and "deck reshuffled" not in totals  # cannot happen with these numbers
    for rule in ("dismantle industry", "dismantle town", "dismantle settlement", "town", "industry",
                 "sabbatical", "settle far"):
        assert totals[rule] > 0, rule
