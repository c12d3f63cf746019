"""BETTER Life's engine with chosen dice, draws and bids: every space kind, finishing rewards, the hand limit,
the vote thresholds, both team losses and the Victory Points."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardgen.games.better_life.rules.engine import (
    ACCEPT_EVENT,
    BID_BASE,
    BUY_OFF,
    CANCEL_EVENT,
    DISCARD_BASE,
    PICK_BASE,
    PLAY_BASE,
    PLAY_ROLE,
    ROLL,
    BetterLifeGame,
    BetterLifeState,
)
from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, IllegalActionError
from boardgen.play.bots import play_with_bots
from boardgen.plugin import BuildContext
from boardgen.template import load

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "better-life.yaml"


@pytest.fixture(scope="module")
def game() -> BetterLifeGame:
    plugin, config = load(TEMPLATE)
    g = plugin.new_game(BuildContext(config, plugin), 5)
    assert isinstance(g, BetterLifeGame)
    return g


def first_outcomes(state: BetterLifeState) -> None:
    """Resolve chance nodes with their first outcome until a decision is due."""
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])


def dealt(game: BetterLifeGame) -> BetterLifeState:
    state = game.new_initial_state()
    first_outcomes(state)
    return state


def space(game: BetterLifeGame, kind: str, nth: int = 0) -> int:
    return [i for i, s in enumerate(game.rules.track) if s == kind][nth]


def roll_to(state: BetterLifeState, target: int, face: int = 1) -> None:
    """Put the turn player ``face`` spaces before ``target`` and roll ``face``."""
    seat = state.turn
    state.pos[seat] = target - face
    state.apply_action(ROLL)
    assert state.current_player() == CHANCE
    state.apply_action(face)


def test_deal_is_chance_and_observation_hides_hands(game: BetterLifeGame) -> None:
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4]  # seat 1's role
    state.apply_action(3)  # seat 1 is the Municipality
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 4]
    first_outcomes(state)
    assert state.role == [3, 0, 1, 2, 4]
    assert state.current_player() == 0 and state.phase == "start"
    assert all(len(h) == 2 for h in state.hand)
    assert state.ip == [5] * 5
    assert state.policy_now == 0 and len(state.market) == 5
    obs = state.observation(1)
    assert obs["my_ip"] == 5 and len(obs["my_target"]) == 3
    assert obs["my_hand"] == tuple(sorted(game.rules.actions[i].id for i in state.hand[1]))
    assert obs["hand_sizes"] == (2, 2, 2, 2, 2)
    assert set(obs) & {"ip", "hands", "targets", "bids"} == set()  # nobody else's IP, hand or target
    state.ip[0] = 17
    assert state.observation(1) == obs  # another player's stack changes nothing in seat 2's view


def test_own_and_other_role_spaces(game: BetterLifeGame) -> None:
    state = dealt(game)  # seat s has role s: seat 0 University, seat 1 Industry
    roll_to(state, space(game, "role:university"))
    assert state.ip[0] == 7  # own role space: +2 from the reserve
    assert state.counts["space-role-own"] == 1
    assert state.turn == 1
    roll_to(state, space(game, "role:university"), face=2)
    assert state.ip[1] == 4 and state.ip[0] == 8  # another role's space: pay 1 to its owner
    state.ip[2] = 0
    roll_to(state, space(game, "role:industry"))
    assert state.ip[2] == 0 and state.ip[1] == 5  # broke: the fee comes from the reserve


def test_skip_ip_plus_one_empty(game: BetterLifeGame) -> None:
    state = dealt(game)
    roll_to(state, space(game, "skip"))
    assert state.skip_next[0]
    roll_to(state, space(game, "ip"))  # seat 1
    assert state.ip[1] == 6
    roll_to(state, space(game, "plus-one"))  # seat 2
    assert state.plus_one[2] == 1
    roll_to(state, space(game, "empty"))  # seat 3
    assert state.ip[3] == 5 and state.turn == 4
    state.pos[4] = 1
    state.apply_action(ROLL)
    state.apply_action(1)  # seat 4 to space 2
    assert state.turn == 1  # seat 0's turn was skipped
    assert not state.skip_next[0] and state.counts["turn-skipped"] == 1
    state.pos[1] = 0
    state.apply_action(ROLL)
    state.apply_action(1)
    # seat 2 rolls 3 from the plus-one space: the +1 makes it 4
    start = state.pos[2]
    state.apply_action(ROLL)
    state.apply_action(3)
    assert state.pos[2] == start + 4 and state.plus_one[2] == 0


def test_bonus_rolls_again(game: BetterLifeGame) -> None:
    state = dealt(game)
    roll_to(state, space(game, "bonus"))
    assert state.current_player() == CHANCE and state.pending == [("roll", "bonus")]
    state.apply_action(2)
    assert state.pos[0] == space(game, "bonus") + 2


def test_fund_and_payout(game: BetterLifeGame) -> None:
    state = dealt(game)
    roll_to(state, space(game, "fund"))
    assert state.fund == 1 and state.ip[0] == 4
    state.ip[1] = 0
    roll_to(state, space(game, "fund"))
    assert state.fund == 2 and state.ip[1] == 0  # broke: the reserve pays
    roll_to(state, space(game, "payout"))
    assert state.ip[2] == 7 and state.fund == 0
    roll_to(state, space(game, "payout"))
    assert state.ip[3] == 6  # empty fund: 1 IP from the reserve


def _event_index(game: BetterLifeGame, event_id: str) -> int:
    return [e.id for e in game.rules.events].index(event_id)


def test_event_draw_reshuffle_buy_off_and_cancel(game: BetterLifeGame) -> None:
    state = dealt(game)
    state.hand[0] = []
    roll_to(state, space(game, "event"))
    assert state.current_player() == CHANCE
    wildfire = _event_index(game, "wildfire")
    assert dict(state.chance_outcomes())[wildfire] == pytest.approx(2 / 26)
    state.apply_action(wildfire)
    assert state.phase == "event" and state.legal_actions() == [ACCEPT_EVENT, BUY_OFF]
    state.apply_action(BUY_OFF)
    assert state.ip[0] == 2 and state.loss == 0 and state.counts["event-bought-off"] == 1
    # seat 1 holds a Risk Plan and cancels
    risk = [c.id for c in game.rules.actions].index("risk-plan")
    state.hand[1] = [risk]
    roll_to(state, space(game, "event"))
    state.apply_action(wildfire)
    assert CANCEL_EVENT in state.legal_actions()
    state.apply_action(CANCEL_EVENT)
    assert state.hand[1] == [] and state.loss == 0
    # seat 2 accepts: loss +1
    roll_to(state, space(game, "event"))
    assert [a for a, _ in state.chance_outcomes()].count(wildfire) == 0  # both wildfires drawn
    state.apply_action(_event_index(game, "invasive"))
    state.apply_action(ACCEPT_EVENT)
    assert state.loss == 1
    # empty the pile: the next draw reshuffles the discards
    state.event_pile = [0] * len(state.event_pile)
    roll_to(state, space(game, "event"))
    assert state.counts["event-reshuffle"] == 1 and sum(state.event_pile) == 3


def test_role_card_once_a_round_and_one_regular_card(game: BetterLifeGame) -> None:
    state = dealt(game)
    tail = [c.id for c in game.rules.actions].index("tailwind")
    grant = [c.id for c in game.rules.actions].index("small-grant")
    state.hand[0] = [tail, grant]
    assert state.legal_actions() == [ROLL, PLAY_ROLE, PLAY_BASE + tail, PLAY_BASE + grant]
    state.apply_action(PLAY_BASE + tail)
    assert state.legal_actions() == [ROLL, PLAY_ROLE]  # one regular card a turn
    state.apply_action(PLAY_ROLE)  # University: draw two action cards
    assert state.current_player() == CHANCE
    first_outcomes(state)
    assert len(state.hand[0]) == 3 and state.role_used[0]
    assert state.legal_actions() == [ROLL]
    state.apply_action(ROLL)
    state.apply_action(1)
    assert state.pos[0] == 3  # 1 + Tailwind's 2


def test_hand_limit(game: BetterLifeGame) -> None:
    state = dealt(game)
    state.hand[0] = [0, 1, 2, 3]
    state.apply_action(PLAY_ROLE)  # draw two: six cards, limit four
    first_outcomes(state)
    assert state.phase == "discard" and state.current_player() == 0
    state.apply_action(state.legal_actions()[0])
    assert state.phase == "discard"
    state.apply_action(DISCARD_BASE + 3)
    assert state.phase == "start" and len(state.hand[0]) == 4
    assert state.counts["hand-limit-discard"] == 2


def finish_round(state: BetterLifeState) -> list[int]:
    """Every player reaches End of Year in seat order from the starter; picks the first card offered."""
    order = []
    end = state.g.rules.end
    while state.current_player() not in (SIMULTANEOUS, TERMINAL):
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.phase == "start":
            order.append(state.turn)
            state.pos[state.turn] = end - 1
            state.apply_action(ROLL)
            state.apply_action(1)
        else:
            state.apply_action(state.legal_actions()[0])
    return order


def test_finishing_order_rewards_and_next_starter(game: BetterLifeGame) -> None:
    state = dealt(game)
    for h in state.hand:
        h.clear()
    market = sorted(state.market)
    order = finish_round(state)
    assert order == [0, 1, 2, 3, 4]
    assert state.ip == [9, 8, 8, 7, 7]  # 4, 3, 3, 2, 2
    assert all(len(h) == 1 for h in state.hand) and state.market == []
    assert sorted(h[0] for h in state.hand) == market
    assert state.current_player() == SIMULTANEOUS
    state.apply_actions([BID_BASE + 2] * 5)
    first_outcomes(state)
    assert state.round == 1 and state.turn == 4  # the last to finish starts


def test_pick_is_a_choice(game: BetterLifeGame) -> None:
    state = dealt(game)
    state.pos[0] = game.rules.end - 1
    state.apply_action(ROLL)
    state.apply_action(1)
    assert state.phase == "pick" and state.turn == 0
    assert state.legal_actions() == sorted({PICK_BASE + i for i in state.market})


@pytest.mark.parametrize(("bids", "band", "policy", "loss"), [
    ((1, 1, 1, 1, 1), "weak", 0, 1), ((2, 1, 1, 1, 1), "semi", 1, 0), ((5, 4, 0, 0, 0), "semi", 1, 0),
    ((5, 5, 0, 0, 0), "success", 3, 0), ((0, 0, 0, 0, 0), "weak", 0, 1)])
def test_vote_thresholds(game: BetterLifeGame, bids: tuple[int, ...], band: str, policy: int, loss: int) -> None:
    state = dealt(game)
    finish_round(state)
    assert state.current_player() == SIMULTANEOUS
    before = list(state.ip)
    assert state.legal_actions(0) == [BID_BASE + b for b in range(before[0] + 1)]
    with pytest.raises(IllegalActionError):
        state.apply_action(BID_BASE)
    state.apply_actions([BID_BASE + b for b in bids])
    assert state.results[0] == band and state.policy == policy and state.loss == loss
    assert state.ip == [a - b for a, b in zip(before, bids, strict=True)]
    assert state.last_bids == bids and state.pools == [sum(bids)]


def test_success_lowers_loss(game: BetterLifeGame) -> None:
    state = dealt(game)
    state.loss = 2
    finish_round(state)
    state.apply_actions([BID_BASE + 2] * 5)
    assert state.loss == 1 and state.policy == 3


def test_team_loss_by_loss_meter(game: BetterLifeGame) -> None:
    state = dealt(game)
    state.loss = 4
    finish_round(state)
    state.apply_actions([BID_BASE] * 5)
    assert state.is_terminal() and state.reason == "loss"
    out = state.outcome()
    assert out.winners == () and state.returns() == [-1.0] * 5 and out.metrics["lost_to_loss_meter"] == 1.0


def test_team_loss_by_event_ends_at_once(game: BetterLifeGame) -> None:
    state = dealt(game)
    state.loss = 4
    state.hand[0] = []
    state.ip[0] = 0
    roll_to(state, space(game, "event"))
    state.apply_action(_event_index(game, "wildfire"))
    assert state.is_terminal() and state.outcome().winners == ()


def play_years(state: BetterLifeState, bids: list[int]) -> None:
    for year_bid in bids:
        finish_round(state)
        state.apply_actions([BID_BASE + min(year_bid, state.ip[s]) for s in range(5)])


def test_team_loss_by_policy_meter(game: BetterLifeGame) -> None:
    state = dealt(game)
    play_years(state, [2, 2, 2, 1, 1])  # success x3 = 9, then semi... 3 + 3 + 3 + 0 + 0 = 9 < 10
    assert state.is_terminal() and state.policy == 9 and state.reason == "policy"
    assert state.outcome().winners == () and state.outcome().metrics["lost_to_policy_meter"] == 1.0


def test_victory_points(game: BetterLifeGame) -> None:
    state = dealt(game)
    play_years(state, [2, 2, 2, 2, 2])  # five successes: policy 15
    assert state.is_terminal() and state.reason == "" and state.policy == 15
    rules = game.rules
    voted = list(state.results)
    assert len(voted) == 5
    for seat in range(5):
        target = rules.decks.targets[state.target[seat]]
        expect = state.ip[seat] // 3
        for pid, vp in zip(target.ranked, (7, 4, 2), strict=True):
            if rules.decks.policy_index(pid) in voted:
                expect += vp
        assert state.victory_points(seat) == expect
    out = state.outcome()
    best = max(out.scores)
    assert out.winners == tuple(s for s in range(5) if out.scores[s] == best)


def test_semi_target_points(game: BetterLifeGame) -> None:
    state = dealt(game)
    rules = game.rules
    target = rules.decks.targets[state.target[0]]
    state.results = {rules.decks.policy_index(target.primary): "semi",
                     rules.decks.policy_index(target.secondary): "success",
                     rules.decks.policy_index(target.tertiary): "weak"}
    assert state.target_points(0) == 3 + 4


@pytest.mark.parametrize("bots", [("random",), ("free-rider", "fair-share", "meter-reader", "target-seeker")])
def test_whole_games_are_deterministic(game: BetterLifeGame, bots: tuple[str, ...]) -> None:
    from boardgen.games.better_life.rules.bots import all_bots

    def once(seed: int) -> tuple[object, ...]:
        factories = all_bots()
        players = [factories[bots[s % len(bots)]](game, s, random.Random(seed + s)) for s in range(5)]
        state = play_with_bots(game.new_initial_state(), players, random.Random(seed))
        assert isinstance(state, BetterLifeState)
        out = state.outcome()
        return (out.scores, out.winners, tuple(state.history()))

    assert once(11) == once(11)
    assert once(11) != once(12)


def test_clone_is_independent(game: BetterLifeGame) -> None:
    state = dealt(game)
    copy = state.clone()
    roll_to(copy, space(game, "ip"))
    assert state.pos[0] == 0 and state.ip[0] == 5 and copy.ip[0] == 6
    assert len(state.history()) < len(copy.history())


def test_reputation_events_follow_the_last_vote(game: BetterLifeGame) -> None:
    state = dealt(game)
    finish_round(state)
    state.apply_actions([BID_BASE + b for b in (4, 0, 4, 1, 0)])
    first_outcomes(state)  # next round: policy and face-up cards
    state.hand = [[] for _ in range(5)]
    before = list(state.ip)
    seat = state.turn
    roll_to(state, space(game, "event"))
    state.apply_action(_event_index(game, "thanks"))
    gained = [a - b for a, b in zip(state.ip, before, strict=True)]
    assert gained == [3, 0, 3, 0, 0] and seat in range(5)
    before = list(state.ip)
    fund = state.fund
    roll_to(state, space(game, "event"))
    state.apply_action(_event_index(game, "expose"))
    paid = [b - a for a, b in zip(state.ip, before, strict=True)]
    assert paid == [0, min(2, before[1]), 0, 0, min(2, before[4])]
    assert state.fund == fund + sum(paid)


def test_a_vote_may_take_any_number_of_the_ip_held(game: BetterLifeGame) -> None:
    """The seed: each player contributes "however many IP they wish"; a seat holding 56 IP may give all 56."""
    state = dealt(game)
    finish_round(state)
    state.ip = [56, 3, 0, 9, 7]
    assert state.legal_actions(0) == [BID_BASE + b for b in range(57)]
    assert state.legal_actions(2) == [BID_BASE]
    state.apply_actions([BID_BASE + 56, BID_BASE + 3, BID_BASE, BID_BASE, BID_BASE])
    assert state.pools == [59] and state.ip[0] == 0 and state.results[0] == "success"
    assert game.info.num_distinct_actions > BID_BASE + 160  # room for every IP of the box


def test_a_bid_cap_is_only_a_house_rule() -> None:
    plugin, config = load(TEMPLATE)
    assert config.ip.max_bid is None
    capped = config.model_copy(update={"ip": config.ip.model_copy(update={"max_bid": 12})})
    g = plugin.new_game(BuildContext(capped, plugin), 5)
    assert isinstance(g, BetterLifeGame)
    state = dealt(g)
    finish_round(state)
    state.ip[0] = 30
    assert max(state.legal_actions(0)) == BID_BASE + 12
    assert g.info.num_distinct_actions == BID_BASE + 13


def test_risk_plan_cancels_an_event_after_it_is_read(game: BetterLifeGame) -> None:
    """The card's text and the engine agree: the drawer reads the event out (it is in every player's view),
    then may discard it with a Risk Plan, and nothing happens."""
    risk = [c.id for c in game.rules.actions].index("risk-plan")
    assert "read it out" in game.rules.actions[risk].text and "unread" not in game.rules.actions[risk].text
    state = dealt(game)
    state.hand[0] = [risk]
    roll_to(state, space(game, "event"))
    state.apply_action(_event_index(game, "wildfire"))
    assert state.phase == "event" and CANCEL_EVENT in state.legal_actions()
    assert state.observation(0)["event"] == "wildfire" and state.observation(3)["event"] == "wildfire"
    state.apply_action(CANCEL_EVENT)
    assert state.loss == 0 and state.hand[0] == [] and state.counts["event-cancelled"] == 1


def test_an_empty_reserve_pays_only_what_it_holds(game: BetterLifeGame) -> None:
    """With the box's IP all in players' hands, finishing IP and IP spaces pay nothing (counted)."""
    state = dealt(game)
    box = game.config.ip.box
    state.ip = [box - 4 * 5, 5, 5, 5, 5]
    assert state.reserve == 0
    roll_to(state, space(game, "ip"))
    assert state.ip[0] == box - 20 and state.counts["reserve-empty"] == 1
    state.ip[1] -= 1  # one IP back in the reserve: a 2-IP payment pays 1
    assert state.reserve == 1
    assert state._gain(1, 2) == 1 and state.reserve == 0 and state.counts["reserve-empty"] == 2
