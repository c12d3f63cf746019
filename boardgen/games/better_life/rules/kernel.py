"""BETTER Life's rules and bots compiled (numba): whole games over one flat integer array, the same games as the
rules API (``engine.BetterLifeState`` played by ``boardgen.play.simulate.play_one``) for the same seeds.

The API engine is the reference; this is the second encoding of the same rules, checked against it game for game
(tests/games/better_life/test_better_life_kernel.py compares every result field). Each function below is the
engine method of the
same name, step for step: the queue of pending chance tasks, the phases, what each space, card and event does,
the vote. Chance draws from ``boardgen.play.kernel_random`` as ``sample_chance`` draws (same outcome lists, same
float sums); the game's four bots draw nothing, the generic random bot draws once per decision, as in Python.

A game's whole state is one int64 array ``gs``: scalars at fixed indices (``FUND`` ...), then arrays (a seat's IP,
hands as counts per card design, piles, the pending queue ...) at offsets that ``fast.py`` lays out for the
template's decks and passes in ``at`` (``at[O_IP]`` is where the IP start). The template's numbers are ``prm``
(indices ``P_*``) and its tables (cards, track) one int64 array ``tb`` with offsets in ``at`` too.
"""

from __future__ import annotations

import numpy as np

from boardgen.play import kernel_random as kr
from boardgen.play.kernels import compiled

_jit = compiled(__file__, kr.__file__)
_flat = compiled(__file__, kr.__file__, refcounts=False)  # the functions that make no array

PLAYERS = 5
ROLL, PLAY_ROLE, ACCEPT_EVENT, CANCEL_EVENT, BUY_OFF = 0, 1, 2, 3, 4  # engine's action numbers
PLAY_BASE, PICK_BASE, DISCARD_BASE, BID_BASE = 10, 50, 90, 130

BOT_KINDS = ("random", "free-rider", "fair-share", "target-seeker", "meter-reader")
B_RANDOM, B_FREE_RIDER, B_FAIR_SHARE, B_TARGET_SEEKER, B_METER_READER = range(5)

ACTION_EFFECTS = ("gain-ip", "roll-bonus", "take-each", "take-fund", "draw-action", "cancel-event", "restore")
A_GAIN, A_ROLL_BONUS, A_TAKE_EACH, A_TAKE_FUND, A_DRAW, A_CANCEL, A_RESTORE = range(7)
CARD_VALUE = (5, 2, 5, 4, 1, 4, 3)  # bots.CARD_VALUE by action effect
EVENT_EFFECTS = ("loss", "heal", "all-lose-ip", "all-gain-ip", "gain-ip", "lose-ip", "pay-fund", "skip", "back",
                 "draw-action", "reward-generous", "shame-idle")  # fmt: skip
(V_LOSS, V_HEAL, V_ALL_LOSE, V_ALL_GAIN, V_GAIN, V_LOSE, V_PAY_FUND, V_SKIP, V_BACK, V_DRAW, V_REWARD,
 V_SHAME) = range(12)
BAD_EVENT = (1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0)  # bots.BAD_EVENTS by event effect
SPACE_KINDS = ("start", "end-of-year", "role", "skip", "ip", "plus-one", "bonus", "empty", "fund", "payout", "event")
(K_START, K_END, K_ROLE, K_SKIP, K_IP, K_PLUS, K_BONUS, K_EMPTY, K_FUND, K_PAYOUT, K_EVENT) = range(11)

# engine.RULE_EVENTS, then the three vote bands, then one count per event card design
RULE_EVENTS = ("role-card", "action-card", "event-cancelled", "event-bought-off", "market-pick", "hand-limit-discard",
               "team-loss-policy", "team-loss-meter", "action-reshuffle", "event-reshuffle", "turn-skipped",
               "reserve-empty", "space-role-own", "space-role-other", "space-skip", "space-ip", "space-plus-one",
               "space-bonus", "space-empty", "space-fund", "space-payout", "space-event", "finish", "restored")
(C_ROLE_CARD, C_ACTION_CARD, C_CANCELLED, C_BOUGHT_OFF, C_MARKET_PICK, C_DISCARD, C_TEAM_POLICY, C_TEAM_METER,
 C_ACTION_RESHUFFLE, C_EVENT_RESHUFFLE, C_SKIPPED, C_RESERVE_EMPTY, C_ROLE_OWN, C_ROLE_OTHER, C_SKIP, C_IP,
 C_PLUS, C_BONUS, C_EMPTY, C_FUND, C_PAYOUT, C_SPACE_EVENT, C_FINISH, C_RESTORED) = range(24)
C_VOTE = 24  # + band (weak, semi, success)
C_EVENT = 27  # + event design

PH_SETUP, PH_START, PH_EVENT, PH_PICK, PH_DISCARD, PH_VOTE, PH_OVER = range(7)
TH_NONE, TH_SETUP, TH_START, TH_END_TURN, TH_AFTER_FINISH = range(5)  # after_draw / after_discard
T_ROLE, T_TARGET, T_DRAW, T_MARKET, T_POLICY, T_EVENT, T_ROLL = range(7)  # pending chance tasks
ROLL_MOVE, ROLL_BONUS = 0, 1
R_NONE, R_LOSS, R_POLICY = 0, 1, 2
QUEUE = 256  # the pending queue's ring

# scalars of gs
(FUND, LOSS, POLICY, ROUND, TURN, STARTER, CARD_PLAYED, ROLL_BONUS_NOW, EVENT_NOW, PHASE, AFTER_DISCARD, AFTER_DRAW,
 TURNS, OVER, REASON, POLICY_NOW, NFIN, NMARKET, PQ_HEAD, PQ_LEN, NVOTES, POOL_SUM) = range(22)
SCALARS = 32
# offsets in at: arrays of gs, then tables of tb
S_ARRAYS = ("role", "target", "ip", "pos", "skip", "plus", "role_used", "hand_n", "hand", "apile", "adisc", "epile",
            "edisc", "tpile", "pleft", "result", "fin", "market", "pq_kind", "pq_arg", "last_bids", "min_bid",
            "counts")  # fmt: skip
(O_ROLE, O_TARGET, O_IP, O_POS, O_SKIP, O_PLUS, O_ROLE_USED, O_HAND_N, O_HAND, O_APILE, O_ADISC, O_EPILE, O_EDISC,
 O_TPILE, O_PLEFT, O_RESULT, O_FIN, O_MARKET, O_PQK, O_PQA, O_LAST, O_MINBID, O_COUNTS) = range(23)
T_TABLES = ("finish_ip", "track_kind", "track_arg", "act_effect", "act_amount", "act_timing", "act_count",
            "role_effect", "role_amount", "ev_effect", "ev_amount", "ev_buyoff", "ev_count", "tgt_count",
            "tgt_rank")  # fmt: skip
(O_FINISH_IP, O_TRACK_KIND, O_TRACK_ARG, O_ACT_EFFECT, O_ACT_AMOUNT, O_ACT_TIMING, O_ACT_COUNT, O_ROLE_EFFECT,
 O_ROLE_AMOUNT, O_EV_EFFECT, O_EV_AMOUNT, O_EV_BUYOFF, O_EV_COUNT, O_TGT_COUNT, O_TGT_RANK) = range(23, 38)

PARAMS = ("designs", "events", "targets", "policies", "roles", "end", "die_sides", "hand_limit", "start_hand",
          "market", "ip_start", "box", "bid_cap", "loss_limit", "policy_goal", "policy_max", "rounds", "ip_per_vp",
          "own_role_ip", "other_role_fee", "ip_space", "plus_one", "fund_fee", "empty_fund_payout", "buy_off",
          "semi_min", "success_min", "band_policy_0", "band_policy_1", "band_policy_2", "band_loss_0",
          "band_loss_1", "band_loss_2", "vp_primary_success", "vp_primary_semi", "vp_secondary_success",
          "vp_secondary_semi", "vp_tertiary_success", "vp_tertiary_semi")  # fmt: skip
(P_A, P_E, P_T, P_P, P_R, P_END, P_DIE, P_HAND_LIMIT, P_START_HAND, P_MARKET, P_IP_START, P_BOX, P_BID_CAP,
 P_LOSS_LIMIT, P_POLICY_GOAL, P_POLICY_MAX, P_ROUNDS, P_IP_PER_VP, P_OWN_ROLE, P_OTHER_FEE, P_IP_SPACE, P_PLUS_ONE,
 P_FUND_FEE, P_EMPTY_PAYOUT, P_BUY_OFF, P_SEMI_MIN, P_SUCCESS_MIN, P_BAND_POLICY, _P1, _P2, P_BAND_LOSS, _P4, _P5,
 P_VP) = range(34)
BY_RANK = (5, 3, 2)  # bots.TargetSeeker.by_rank


# ------------------------------------------------------------------------------------------ small helpers


@_flat
def _push(gs: np.ndarray, at: np.ndarray, kind: int, arg: int) -> None:
    i = (gs[PQ_HEAD] + gs[PQ_LEN]) % QUEUE
    gs[at[O_PQK] + i] = kind
    gs[at[O_PQA] + i] = arg
    gs[PQ_LEN] += 1


@_flat
def _pop(gs: np.ndarray) -> None:
    gs[PQ_HEAD] = (gs[PQ_HEAD] + 1) % QUEUE
    gs[PQ_LEN] -= 1


@_flat
def _front(gs: np.ndarray, at: np.ndarray) -> int:
    return gs[at[O_PQK] + gs[PQ_HEAD]] if gs[PQ_LEN] > 0 else -1


@_flat
def _reserve(gs: np.ndarray, at: np.ndarray, prm: np.ndarray) -> int:
    total = 0
    for s in range(PLAYERS):
        total += gs[at[O_IP] + s]
    return prm[P_BOX] - total - gs[FUND]


@_flat
def _gain(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, seat: int, amount: int) -> int:
    got = max(0, min(amount, _reserve(gs, at, prm)))
    gs[at[O_IP] + seat] += got
    if got < amount:
        gs[at[O_COUNTS] + C_RESERVE_EMPTY] += 1
    return got


@_flat
def _pile_sum(gs: np.ndarray, at: int, count: int) -> int:
    total = 0
    for i in range(count):
        total += gs[at + i]
    return total


@_flat
def _draw_from(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, events_pile: bool) -> bool:
    """``_draw_from``: refill an empty pile from its discards (a reshuffle); False if both are empty."""
    pile = at[O_EPILE] if events_pile else at[O_APILE]
    disc = at[O_EDISC] if events_pile else at[O_ADISC]
    count = prm[P_E] if events_pile else prm[P_A]
    if _pile_sum(gs, pile, count):
        return True
    if not _pile_sum(gs, disc, count):
        return False
    for i in range(count):
        gs[pile + i] += gs[disc + i]
        gs[disc + i] = 0
    gs[at[O_COUNTS] + (C_EVENT_RESHUFFLE if events_pile else C_ACTION_RESHUFFLE)] += 1
    return True


@_flat
def _finished(gs: np.ndarray, at: np.ndarray, seat: int) -> bool:
    found = False
    for i in range(gs[NFIN]):
        if gs[at[O_FIN] + i] == seat:
            found = True
    return found


@_flat
def _next_seat(gs: np.ndarray, at: np.ndarray, seat: int) -> int:
    for k in range(1, PLAYERS + 1):
        s = (seat + k) % PLAYERS
        if not _finished(gs, at, s):
            return s
    return seat


@_flat
def _begin_turn(gs: np.ndarray, at: np.ndarray, seat: int) -> None:
    for _ in range(2 * PLAYERS):
        if _finished(gs, at, seat):
            seat = _next_seat(gs, at, seat)
            continue
        if gs[at[O_SKIP] + seat]:
            gs[at[O_SKIP] + seat] = 0
            gs[at[O_COUNTS] + C_SKIPPED] += 1
            seat = _next_seat(gs, at, seat)
            continue
        break
    gs[TURN] = seat
    gs[PHASE] = PH_START
    gs[CARD_PLAYED] = 0
    gs[ROLL_BONUS_NOW] = 0
    gs[TURNS] += 1


@_flat
def _end_turn(gs: np.ndarray, at: np.ndarray) -> None:
    if gs[OVER]:
        return
    if gs[NFIN] == PLAYERS:
        gs[PHASE] = PH_VOTE
        return
    _begin_turn(gs, at, _next_seat(gs, at, gs[TURN]))


@_flat
def _check_hand(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, then: int) -> None:
    me = gs[TURN]
    if gs[at[O_HAND_N] + me] > prm[P_HAND_LIMIT]:
        gs[PHASE] = PH_DISCARD
        gs[AFTER_DISCARD] = then
        return
    if then == TH_START:
        gs[PHASE] = PH_START
    elif then in (TH_END_TURN, TH_AFTER_FINISH):
        _end_turn(gs, at)


@_flat
def _start_round(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, number: int, starter: int) -> None:
    gs[ROUND] = number
    gs[STARTER] = starter
    for s in range(PLAYERS):
        gs[at[O_POS] + s] = 0
        gs[at[O_ROLE_USED] + s] = 0
    gs[NFIN] = 0
    for i in range(gs[NMARKET]):
        gs[at[O_ADISC] + gs[at[O_MARKET] + i]] += 1
    gs[NMARKET] = 0
    gs[PHASE] = PH_START
    gs[PQ_HEAD] = 0
    gs[PQ_LEN] = 0
    if _pile_sum(gs, at[O_PLEFT], prm[P_P]):
        _push(gs, at, T_POLICY, 0)
    for _ in range(prm[P_MARKET]):
        _push(gs, at, T_MARKET, 0)
    while gs[PQ_LEN] > 0 and _front(gs, at) == T_MARKET and not _draw_from(gs, at, prm, False):
        _pop(gs)
    if gs[PQ_LEN] == 0:
        _begin_turn(gs, at, starter)


@_flat
def _move_loss(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, delta: int) -> None:
    gs[LOSS] = max(0, gs[LOSS] + delta)
    if gs[LOSS] >= prm[P_LOSS_LIMIT]:
        gs[LOSS] = prm[P_LOSS_LIMIT]
        gs[OVER] = 1
        gs[REASON] = R_LOSS
        gs[PHASE] = PH_OVER
        gs[PQ_HEAD] = 0
        gs[PQ_LEN] = 0
        gs[at[O_COUNTS] + C_TEAM_METER] += 1


@_flat
def _has_cancel(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, seat: int) -> bool:
    found = False
    for d in range(prm[P_A]):
        if gs[at[O_HAND] + seat * prm[P_A] + d] > 0 and tb[at[O_ACT_EFFECT] + d] == A_CANCEL:
            found = True
    return found


@_flat
def _hand_add(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, seat: int, design: int, delta: int) -> None:
    gs[at[O_HAND] + seat * prm[P_A] + design] += delta
    gs[at[O_HAND_N] + seat] += delta


# ------------------------------------------------------------------------------------------ effects


@_flat
def _card_effect(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, effect: int, amount: int, me: int) -> None:
    if effect == A_GAIN:
        _gain(gs, at, prm, me, amount)
    elif effect == A_ROLL_BONUS:
        gs[ROLL_BONUS_NOW] += amount
    elif effect == A_TAKE_EACH:
        for s in range(PLAYERS):
            if s != me:
                paid = min(amount, gs[at[O_IP] + s])
                gs[at[O_IP] + s] -= paid
                gs[at[O_IP] + me] += paid
    elif effect == A_TAKE_FUND:
        if gs[FUND]:
            gs[at[O_IP] + me] += gs[FUND]
            gs[FUND] = 0
        else:
            _gain(gs, at, prm, me, 1)
    elif effect == A_DRAW:
        gs[AFTER_DRAW] = TH_START
        for _ in range(amount):
            _push(gs, at, T_DRAW, me)
        while gs[PQ_LEN] > 0 and not _draw_from(gs, at, prm, False):
            _pop(gs)
        if gs[PQ_LEN] == 0:
            _check_hand(gs, at, prm, TH_START)
    elif effect == A_RESTORE:
        gs[at[O_IP] + me] -= amount
        _move_loss(gs, at, prm, -1)
        gs[at[O_COUNTS] + C_RESTORED] += 1


@_flat
def _event_effect(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, event: int, me: int) -> None:
    effect = tb[at[O_EV_EFFECT] + event]
    amount = tb[at[O_EV_AMOUNT] + event]
    ip = at[O_IP]
    gs[PHASE] = PH_START
    if effect == V_LOSS:
        _move_loss(gs, at, prm, amount)
        if gs[OVER]:
            return
    elif effect == V_HEAL:
        _move_loss(gs, at, prm, -amount)
    elif effect == V_ALL_LOSE:
        for s in range(PLAYERS):
            gs[ip + s] -= min(amount, gs[ip + s])
    elif effect == V_ALL_GAIN:
        for s in range(PLAYERS):
            _gain(gs, at, prm, s, amount)
    elif effect == V_GAIN:
        _gain(gs, at, prm, me, amount)
    elif effect == V_LOSE:
        gs[ip + me] -= min(amount, gs[ip + me])
    elif effect == V_PAY_FUND:
        paid = min(amount, gs[ip + me])
        gs[ip + me] -= paid
        gs[FUND] += paid + max(0, min(amount - paid, _reserve(gs, at, prm)))
    elif effect == V_REWARD:
        if gs[NVOTES] > 0:
            top = 0
            for s in range(PLAYERS):
                top = max(top, gs[at[O_LAST] + s])
            if top > 0:
                for s in range(PLAYERS):
                    if gs[at[O_LAST] + s] == top:
                        _gain(gs, at, prm, s, amount)
    elif effect == V_SHAME:
        for s in range(PLAYERS):
            if gs[NVOTES] > 0 and gs[at[O_LAST] + s] == 0:
                paid = min(amount, gs[ip + s])
                gs[ip + s] -= paid
                gs[FUND] += paid
    elif effect == V_SKIP:
        gs[at[O_SKIP] + me] = 1
    elif effect == V_BACK:
        gs[at[O_POS] + me] = max(0, gs[at[O_POS] + me] - amount)
    elif effect == V_DRAW:
        gs[AFTER_DRAW] = TH_END_TURN
        for _ in range(amount):
            _push(gs, at, T_DRAW, me)
        while gs[PQ_LEN] > 0 and not _draw_from(gs, at, prm, False):
            _pop(gs)
        if gs[PQ_LEN] > 0:
            return
        _check_hand(gs, at, prm, TH_END_TURN)
        return
    _end_turn(gs, at)


@_flat
def _offer_event(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray) -> None:
    me = gs[TURN]
    event = gs[EVENT_NOW]
    price = tb[at[O_EV_BUYOFF] + event]
    can_cancel = _has_cancel(gs, at, prm, tb, me)
    can_buy = prm[P_BUY_OFF] != 0 and price != 0 and gs[at[O_IP] + me] >= price
    if can_cancel or can_buy:
        gs[PHASE] = PH_EVENT
        return
    gs[at[O_EDISC] + event] += 1
    _event_effect(gs, at, prm, tb, event, me)


@_flat
def _finish(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray) -> None:
    me = gs[TURN]
    rank = gs[NFIN]
    gs[at[O_FIN] + rank] = me
    gs[NFIN] += 1
    _gain(gs, at, prm, me, tb[at[O_FINISH_IP] + rank])
    gs[at[O_COUNTS] + C_FINISH] += 1
    market = at[O_MARKET]
    if gs[NMARKET] == 1 or (gs[NMARKET] > 0 and gs[NFIN] == PLAYERS):
        card = gs[market]
        for i in range(gs[NMARKET] - 1):
            gs[market + i] = gs[market + i + 1]
        gs[NMARKET] -= 1
        _hand_add(gs, at, prm, me, card, 1)
        gs[at[O_COUNTS] + C_MARKET_PICK] += 1
        _check_hand(gs, at, prm, TH_AFTER_FINISH)
    elif gs[NMARKET] > 0:
        gs[PHASE] = PH_PICK
    else:
        _end_turn(gs, at)


@_flat
def _land(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray) -> None:
    me = gs[TURN]
    ip = at[O_IP]
    counts = at[O_COUNTS]
    square = gs[at[O_POS] + me]
    kind = tb[at[O_TRACK_KIND] + square]
    if kind == K_END:
        _finish(gs, at, prm, tb)
        return
    if kind == K_ROLE:
        owner_role = tb[at[O_TRACK_ARG] + square]
        owner = 0
        for s in range(PLAYERS):
            if gs[at[O_ROLE] + s] == owner_role:
                owner = s
                break
        if owner == me:
            _gain(gs, at, prm, me, prm[P_OWN_ROLE])
            gs[counts + C_ROLE_OWN] += 1
        else:
            fee = prm[P_OTHER_FEE]
            paid = min(fee, gs[ip + me])
            gs[ip + me] -= paid
            gs[ip + owner] += paid
            _gain(gs, at, prm, owner, fee - paid)
            gs[counts + C_ROLE_OTHER] += 1
    elif kind == K_SKIP:
        gs[at[O_SKIP] + me] = 1
        gs[counts + C_SKIP] += 1
    elif kind == K_IP:
        _gain(gs, at, prm, me, prm[P_IP_SPACE])
        gs[counts + C_IP] += 1
    elif kind == K_PLUS:
        gs[at[O_PLUS] + me] += prm[P_PLUS_ONE]
        gs[counts + C_PLUS] += 1
    elif kind == K_BONUS:
        gs[counts + C_BONUS] += 1
        _push(gs, at, T_ROLL, ROLL_BONUS)
        return
    elif kind == K_EMPTY:
        gs[counts + C_EMPTY] += 1
    elif kind == K_FUND:
        fee = prm[P_FUND_FEE]
        paid = min(fee, gs[ip + me])
        gs[ip + me] -= paid
        gs[FUND] += paid
        gs[FUND] += max(0, min(fee - paid, _reserve(gs, at, prm)))
        gs[counts + C_FUND] += 1
    elif kind == K_PAYOUT:
        gs[counts + C_PAYOUT] += 1
        if gs[FUND]:
            gs[ip + me] += gs[FUND]
            gs[FUND] = 0
        else:
            _gain(gs, at, prm, me, prm[P_EMPTY_PAYOUT])
    elif kind == K_EVENT:
        gs[counts + C_SPACE_EVENT] += 1
        if _draw_from(gs, at, prm, True):
            _push(gs, at, T_EVENT, 0)
            return
    _end_turn(gs, at)


@_flat
def _move(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, kind: int, face: int) -> None:
    me = gs[TURN]
    steps = face
    if kind == ROLL_MOVE:
        steps += gs[ROLL_BONUS_NOW] + gs[at[O_PLUS] + me]
        gs[at[O_PLUS] + me] = 0
        gs[ROLL_BONUS_NOW] = 0
    gs[at[O_POS] + me] = min(prm[P_END], gs[at[O_POS] + me] + steps)
    _land(gs, at, prm, tb)


# ------------------------------------------------------------------------------------------ chance


@_flat
def _sample(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, st: np.ndarray, probs: np.ndarray,
            outs: np.ndarray) -> int:
    """``sample_chance`` over ``chance_outcomes()`` of the task at the queue's front: the outcome."""
    kind = _front(gs, at)
    if kind == T_ROLL:
        return kr.sample_uniform_chance(st, prm[P_DIE]) + 1
    if kind == T_ROLE:
        m = 0
        for i in range(prm[P_R]):
            taken = False
            for s in range(PLAYERS):
                if gs[at[O_ROLE] + s] == i:
                    taken = True
            if not taken:
                outs[m] = i
                m += 1
        return outs[kr.sample_uniform_chance(st, m)]
    if kind == T_POLICY:
        m = 0
        for i in range(prm[P_P]):
            if gs[at[O_PLEFT] + i]:
                outs[m] = i
                m += 1
        return outs[kr.sample_uniform_chance(st, m)]
    if kind == T_TARGET:
        pile, count = at[O_TPILE], prm[P_T]
    elif kind == T_EVENT:
        pile, count = at[O_EPILE], prm[P_E]
    else:
        pile, count = at[O_APILE], prm[P_A]
    total = _pile_sum(gs, pile, count)
    m = 0
    for i in range(count):
        k = gs[pile + i]
        if k:
            probs[m] = k / total
            outs[m] = i
            m += 1
    return outs[kr.sample_chance(st, probs, m)]


@_flat
def _resolve_chance(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, outcome: int) -> None:
    kind = _front(gs, at)
    arg = gs[at[O_PQA] + gs[PQ_HEAD]]
    _pop(gs)
    if kind == T_ROLE:
        gs[at[O_ROLE] + arg] = outcome
    elif kind == T_TARGET:
        gs[at[O_TARGET] + arg] = outcome
        gs[at[O_TPILE] + outcome] -= 1
    elif kind == T_DRAW:
        gs[at[O_APILE] + outcome] -= 1
        _hand_add(gs, at, prm, arg, outcome, 1)
    elif kind == T_MARKET:
        gs[at[O_APILE] + outcome] -= 1
        gs[at[O_MARKET] + gs[NMARKET]] = outcome
        gs[NMARKET] += 1
    elif kind == T_POLICY:
        gs[POLICY_NOW] = outcome
        gs[at[O_PLEFT] + outcome] = 0
    elif kind == T_EVENT:
        gs[at[O_EPILE] + outcome] -= 1
        gs[EVENT_NOW] = outcome
        gs[at[O_COUNTS] + C_EVENT + outcome] += 1
    else:
        _move(gs, at, prm, tb, arg, outcome)
    while gs[PQ_LEN] > 0 and (_front(gs, at) == T_DRAW or _front(gs, at) == T_MARKET):
        if _draw_from(gs, at, prm, False):
            break
        _pop(gs)
    if gs[PQ_LEN] > 0 and _front(gs, at) == T_EVENT and not _draw_from(gs, at, prm, True):
        _pop(gs)
        _end_turn(gs, at)
        return
    if gs[PQ_LEN] == 0 and not gs[OVER]:  # _after_chance
        if gs[PHASE] == PH_SETUP:
            _start_round(gs, at, prm, 0, 0)
        elif kind == T_DRAW:
            _check_hand(gs, at, prm, gs[AFTER_DRAW])
        elif kind in (T_MARKET, T_POLICY):
            _begin_turn(gs, at, gs[STARTER])
        elif kind == T_EVENT:
            _offer_event(gs, at, prm, tb)


# ------------------------------------------------------------------------------------------ decisions


@_flat
def _usable(gs: np.ndarray, at: np.ndarray, effect: int, amount: int, seat: int) -> bool:
    if effect == A_RESTORE:
        return gs[at[O_IP] + seat] >= amount and gs[LOSS] > 0
    return effect != A_CANCEL


@_flat
def _legal(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, legal: np.ndarray) -> int:
    """``legal_actions()`` at the turn player's node (ascending), into ``legal``; returns how many."""
    me = gs[TURN]
    designs = prm[P_A]
    hand = at[O_HAND] + me * designs
    phase = gs[PHASE]
    m = 0
    if phase == PH_START:
        legal[m] = ROLL
        m += 1
        role = gs[at[O_ROLE] + me]
        if not gs[at[O_ROLE_USED] + me] and _usable(gs, at, tb[at[O_ROLE_EFFECT] + role],
                                                     tb[at[O_ROLE_AMOUNT] + role], me):
            legal[m] = PLAY_ROLE
            m += 1
        if not gs[CARD_PLAYED]:
            for d in range(designs):
                if gs[hand + d] > 0 and tb[at[O_ACT_TIMING] + d] == 0 and _usable(
                        gs, at, tb[at[O_ACT_EFFECT] + d], tb[at[O_ACT_AMOUNT] + d], me):
                    legal[m] = PLAY_BASE + d
                    m += 1
    elif phase == PH_EVENT:
        legal[m] = ACCEPT_EVENT
        m += 1
        if _has_cancel(gs, at, prm, tb, me):
            legal[m] = CANCEL_EVENT
            m += 1
        price = tb[at[O_EV_BUYOFF] + gs[EVENT_NOW]]
        if prm[P_BUY_OFF] != 0 and price != 0 and gs[at[O_IP] + me] >= price:
            legal[m] = BUY_OFF
            m += 1
    elif phase == PH_PICK:
        for d in range(designs):
            for i in range(gs[NMARKET]):
                if gs[at[O_MARKET] + i] == d:
                    legal[m] = PICK_BASE + d
                    m += 1
                    break
    elif phase == PH_DISCARD:
        for d in range(designs):
            if gs[hand + d] > 0:
                legal[m] = DISCARD_BASE + d
                m += 1
    return m


@_flat
def _apply(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, action: int) -> None:
    """``_apply_action`` at the turn player's node."""
    me = gs[TURN]
    counts = at[O_COUNTS]
    phase = gs[PHASE]
    if phase == PH_START:
        if action == ROLL:
            _push(gs, at, T_ROLL, ROLL_MOVE)
        elif action == PLAY_ROLE:
            gs[at[O_ROLE_USED] + me] = 1
            gs[counts + C_ROLE_CARD] += 1
            role = gs[at[O_ROLE] + me]
            _card_effect(gs, at, prm, tb[at[O_ROLE_EFFECT] + role], tb[at[O_ROLE_AMOUNT] + role], me)
        else:
            d = action - PLAY_BASE
            _hand_add(gs, at, prm, me, d, -1)
            gs[at[O_ADISC] + d] += 1
            gs[CARD_PLAYED] = 1
            gs[counts + C_ACTION_CARD] += 1
            _card_effect(gs, at, prm, tb[at[O_ACT_EFFECT] + d], tb[at[O_ACT_AMOUNT] + d], me)
    elif phase == PH_EVENT:
        event = gs[EVENT_NOW]
        gs[at[O_EDISC] + event] += 1
        if action == ACCEPT_EVENT:
            _event_effect(gs, at, prm, tb, event, me)
        elif action == CANCEL_EVENT:
            for d in range(prm[P_A]):
                if gs[at[O_HAND] + me * prm[P_A] + d] > 0 and tb[at[O_ACT_EFFECT] + d] == A_CANCEL:
                    _hand_add(gs, at, prm, me, d, -1)
                    gs[at[O_ADISC] + d] += 1
                    break
            gs[counts + C_CANCELLED] += 1
            _end_turn(gs, at)
        else:
            gs[at[O_IP] + me] -= tb[at[O_EV_BUYOFF] + event]
            gs[counts + C_BOUGHT_OFF] += 1
            _end_turn(gs, at)
    elif phase == PH_PICK:
        d = action - PICK_BASE
        market = at[O_MARKET]
        i = 0
        while gs[market + i] != d:
            i += 1
        while i < gs[NMARKET] - 1:
            gs[market + i] = gs[market + i + 1]
            i += 1
        gs[NMARKET] -= 1
        _hand_add(gs, at, prm, me, d, 1)
        gs[counts + C_MARKET_PICK] += 1
        _check_hand(gs, at, prm, TH_AFTER_FINISH)
    elif phase == PH_DISCARD:
        d = action - DISCARD_BASE
        _hand_add(gs, at, prm, me, d, -1)
        gs[at[O_ADISC] + d] += 1
        gs[counts + C_DISCARD] += 1
        _check_hand(gs, at, prm, gs[AFTER_DISCARD])


@_flat
def _vote(gs: np.ndarray, at: np.ndarray, prm: np.ndarray, bids: np.ndarray) -> None:
    """``_apply_actions``: the sealed bids revealed, the policy voted."""
    total = 0
    for s in range(PLAYERS):
        gs[at[O_IP] + s] -= bids[s]
        total += bids[s]
        gs[at[O_LAST] + s] = bids[s]
        if gs[NVOTES] == 0 or bids[s] < gs[at[O_MINBID] + s]:
            gs[at[O_MINBID] + s] = bids[s]
    gs[NVOTES] += 1
    gs[POOL_SUM] += total
    band = 0
    if total >= prm[P_SUCCESS_MIN]:
        band = 2
    elif total >= prm[P_SEMI_MIN]:
        band = 1
    gs[at[O_RESULT] + gs[POLICY_NOW]] = band
    gs[at[O_COUNTS] + C_VOTE + band] += 1
    gs[POLICY] = min(prm[P_POLICY_MAX], gs[POLICY] + prm[P_BAND_POLICY + band])
    _move_loss(gs, at, prm, prm[P_BAND_LOSS + band])
    if gs[OVER]:
        return
    if gs[ROUND] + 1 >= prm[P_ROUNDS]:
        gs[OVER] = 1
        if gs[POLICY] < prm[P_POLICY_GOAL]:
            gs[REASON] = R_POLICY
            gs[at[O_COUNTS] + C_TEAM_POLICY] += 1
        return
    _start_round(gs, at, prm, gs[ROUND] + 1, gs[at[O_FIN] + gs[NFIN] - 1])


# ------------------------------------------------------------------------------------------ bots


@_flat
def _bid(kind: int, gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, seat: int) -> int:
    """The sealed bid of one of the game's bots (``bots.<Bot>.bid``)."""
    fair = (prm[P_SUCCESS_MIN] + PLAYERS - 1) // PLAYERS
    if kind == B_FREE_RIDER:
        return 0
    if kind == B_FAIR_SHARE:
        return fair
    if kind == B_TARGET_SEEKER:
        target = gs[at[O_TARGET] + seat]
        if target < 0 or gs[POLICY_NOW] < 0:
            return 0
        rank = tb[at[O_TGT_RANK] + target * prm[P_P] + gs[POLICY_NOW]]
        return BY_RANK[rank] if rank >= 0 else 0
    need = prm[P_POLICY_GOAL] - gs[POLICY]
    wanted = prm[P_SUCCESS_MIN] if need > 0 or gs[LOSS] >= prm[P_LOSS_LIMIT] - 2 else prm[P_SEMI_MIN]
    others = 0
    for s in range(PLAYERS):
        if s != seat:
            others += gs[at[O_MINBID] + s] if gs[NVOTES] > 0 else fair
    return max(0, wanted - others)


@_flat
def _decide(kind: int, gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, legal: np.ndarray,
            m: int) -> int:
    """``BetterLifeBot.step`` at the turn player's node (the four attitudes decide alike off the vote)."""
    if m == 1:
        return legal[0]
    me = gs[TURN]
    phase = gs[PHASE]
    cooperative = kind != B_FREE_RIDER and kind != B_TARGET_SEEKER
    loss = gs[LOSS]
    limit = prm[P_LOSS_LIMIT]
    if phase == PH_START:
        for i in range(m):
            if legal[i] == PLAY_ROLE:
                return PLAY_ROLE
        best = -1
        best_value = 0
        for i in range(m):
            a = legal[i]
            if a < PLAY_BASE:
                continue
            effect = tb[at[O_ACT_EFFECT] + a - PLAY_BASE]
            if effect == A_RESTORE and loss < (2 if cooperative else limit - 1):
                continue
            if effect == A_DRAW and gs[at[O_HAND_N] + me] >= 3:
                continue
            value = CARD_VALUE[effect] + (3 if effect == A_RESTORE and loss >= 3 else 0)
            if best < 0 or value > best_value:
                best, best_value = a, value
        return best if best >= 0 else ROLL
    if phase == PH_EVENT:
        event = gs[EVENT_NOW]
        effect = tb[at[O_EV_EFFECT] + event]
        if not BAD_EVENT[effect]:
            return ACCEPT_EVENT
        can_buy = False
        for i in range(m):
            if legal[i] == CANCEL_EVENT:
                return CANCEL_EVENT
            if legal[i] == BUY_OFF:
                can_buy = True
        if can_buy and effect == V_LOSS and (cooperative or loss + tb[at[O_EV_AMOUNT] + event] >= limit):
            return BUY_OFF
        return ACCEPT_EVENT
    if phase == PH_PICK:
        best = -1
        best_value = 0
        for i in range(m):
            value = CARD_VALUE[tb[at[O_ACT_EFFECT] + legal[i] - PICK_BASE]]
            if best < 0 or value > best_value:
                best, best_value = legal[i], value
        return best
    if phase == PH_DISCARD:
        best = -1
        best_value = 0
        for i in range(m):
            value = CARD_VALUE[tb[at[O_ACT_EFFECT] + legal[i] - DISCARD_BASE]]
            if best < 0 or value < best_value:
                best, best_value = legal[i], value
        return best
    return legal[0]


# ------------------------------------------------------------------------------------------ whole games


@_jit
def _outcome(g: int, gs: np.ndarray, at: np.ndarray, prm: np.ndarray, tb: np.ndarray, scores: np.ndarray,
             winners: np.ndarray, length: np.ndarray, metrics: np.ndarray, events: np.ndarray) -> None:
    """``outcome()`` into row g: metrics in ``fast.metric_names`` order (the fixed ones, then win_<role> and
    vp_<role> per role, then passed_<policy> per policy)."""
    policies = prm[P_P]
    vps = np.zeros(PLAYERS, dtype=np.float64)
    for s in range(PLAYERS):
        points = 0
        target = gs[at[O_TARGET] + s]
        if target >= 0:
            for policy in range(policies):
                rank = tb[at[O_TGT_RANK] + target * policies + policy]
                if rank < 0:
                    continue
                band = gs[at[O_RESULT] + policy]
                if band == 2:
                    points += prm[P_VP + 2 * rank]
                elif band == 1:
                    points += prm[P_VP + 2 * rank + 1]
        vps[s] = float(gs[at[O_IP] + s] // prm[P_IP_PER_VP] + points)
    team_lost = gs[OVER] != 0 and (gs[REASON] == R_LOSS or gs[REASON] == R_POLICY)
    top = vps.max()
    n_won = 0
    for s in range(PLAYERS):
        won = gs[OVER] != 0 and not team_lost and vps[s] == top
        winners[g, s] = won
        if won:
            n_won += 1
        scores[g, s] = vps[s]
    length[g] = gs[ROUND] + 1
    row = metrics[g]
    row[0] = 1.0 if team_lost else 0.0
    row[1] = 1.0 if gs[REASON] == R_LOSS else 0.0
    row[2] = 1.0 if gs[REASON] == R_POLICY else 0.0
    row[3] = float(gs[POLICY])
    row[4] = float(gs[LOSS])
    row[5] = top - vps.min()
    row[6] = top
    row[7] = float(gs[TURNS])
    row[8] = gs[POOL_SUM] / max(1, gs[NVOTES])
    bands = np.zeros(3, dtype=np.int64)
    for policy in range(policies):
        if gs[at[O_RESULT] + policy] >= 0:
            bands[gs[at[O_RESULT] + policy]] += 1
    row[9] = float(bands[2])
    row[10] = float(bands[1])
    row[11] = float(bands[0])
    k = 12
    for role in range(prm[P_R]):
        seat = -1
        for s in range(PLAYERS):
            if gs[at[O_ROLE] + s] == role:
                seat = s
                break
        row[k] = 1.0 / n_won if seat >= 0 and n_won > 0 and winners[g, seat] else 0.0
        row[k + 1] = vps[seat] if seat >= 0 else 0.0
        k += 2
    for policy in range(policies):
        row[k] = 1.0 if gs[at[O_RESULT] + policy] == 2 else 0.0
        k += 1
    for e in range(events.shape[1]):
        events[g, e] = gs[at[O_COUNTS] + e]


@_jit
def play_games(prm: np.ndarray, at: np.ndarray, tb: np.ndarray, size: int, kinds: np.ndarray, seeds: np.ndarray,
               scores: np.ndarray, winners: np.ndarray, length: np.ndarray, metrics: np.ndarray,
               events: np.ndarray) -> None:
    """Play game g of ``kinds[g]`` (a bot code per seat) with generators seeded ``seeds[g, 0]`` (chance) and
    ``seeds[g, 1 + p]`` (seat p's bot); write its outcome into row g of the outputs. ``size``: words of gs."""
    gs = np.zeros(size, dtype=np.int64)
    legal = np.empty(BID_BASE + prm[P_BID_CAP] + 1, dtype=np.int64)
    probs = np.empty(64 + prm[P_A] + prm[P_E] + prm[P_T], dtype=np.float64)
    outs = np.empty(64 + prm[P_A] + prm[P_E] + prm[P_T] + prm[P_P] + prm[P_R], dtype=np.int64)
    bids = np.zeros(PLAYERS, dtype=np.int64)
    drawing = False  # the game's own bots never draw: seat generators only when a random bot plays
    for g in range(kinds.shape[0]):
        for s in range(PLAYERS):
            if kinds[g, s] == B_RANDOM:
                drawing = True
    streams = seeds if drawing else seeds[:, :1].copy()
    states, scratch = kr.new_block(streams.shape[1], kr.BLOCK_GAMES)
    designs = prm[P_A]
    for g in range(seeds.shape[0]):
        rng = states[kr.game_streams(states, scratch, streams, g):]
        gs[:] = 0
        for s in range(PLAYERS):
            gs[at[O_ROLE] + s] = -1
            gs[at[O_TARGET] + s] = -1
            gs[at[O_IP] + s] = prm[P_IP_START]
        for d in range(designs):
            gs[at[O_APILE] + d] = tb[at[O_ACT_COUNT] + d]
        for e in range(prm[P_E]):
            gs[at[O_EPILE] + e] = tb[at[O_EV_COUNT] + e]
        for t in range(prm[P_T]):
            gs[at[O_TPILE] + t] = tb[at[O_TGT_COUNT] + t]
        for p in range(prm[P_P]):
            gs[at[O_PLEFT] + p] = 1
            gs[at[O_RESULT] + p] = -1
        gs[POLICY_NOW] = -1
        gs[EVENT_NOW] = -1
        gs[PHASE] = PH_SETUP
        gs[AFTER_DRAW] = TH_SETUP
        for s in range(PLAYERS):
            _push(gs, at, T_ROLE, s)
        for s in range(PLAYERS):
            _push(gs, at, T_TARGET, s)
        for _ in range(prm[P_START_HAND]):
            for s in range(PLAYERS):
                _push(gs, at, T_DRAW, s)
        while not gs[OVER]:
            if gs[PQ_LEN] > 0:
                _resolve_chance(gs, at, prm, tb, _sample(gs, at, prm, rng[0], probs, outs))
            elif gs[PHASE] == PH_VOTE:
                for s in range(PLAYERS):
                    cap = min(gs[at[O_IP] + s], prm[P_BID_CAP])
                    kind = kinds[g, s]
                    if kind == B_RANDOM:
                        bids[s] = kr.random_index(rng[1 + s], cap + 1)
                    else:
                        bids[s] = max(0, min(_bid(kind, gs, at, prm, tb, s), cap))
                _vote(gs, at, prm, bids)
            else:
                seat = gs[TURN]
                m = _legal(gs, at, prm, tb, legal)
                kind = kinds[g, seat]
                if kind == B_RANDOM:
                    action = legal[kr.random_index(rng[1 + seat], m)]
                else:
                    action = _decide(kind, gs, at, prm, tb, legal, m)
                _apply(gs, at, prm, tb, action)
        _outcome(g, gs, at, prm, tb, scores, winners, length, metrics, events)
