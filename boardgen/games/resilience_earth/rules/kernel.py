"""Resilience Earth's compiled (numba) kernel: whole games with the random bot and the game's own policy bots
(grower, steward, keeper, sabbatical, mixed) over one flat int64 array per state, playing exactly the games
``boardgen.play.simulate.play_one`` plays through the rules API.

The API engine (``engine.ResilienceState``) is the reference; every function here mirrors it so that the same
seeds give the same game: legal actions in the same order, chance outcomes summed as ``sample_chance`` sums them
(tower stones, cards, dice, the timer), every rule counted under the same name, and the bots' draws from their
own ``random.Random`` streams (``boardgen.play.kernel_random``) at the same places. The policy bots' knobs come
from their Python classes (``fast.bot_table``). A test plays both paths and compares every field.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from boardgen.play import kernel_random
from boardgen.play.kernel_random import random as mt_random
from boardgen.play.kernel_random import sample_chance, sample_uniform_chance
from boardgen.play.kernels import compiled

_jit = compiled(__file__, kernel_random.__file__)
_flat = compiled(__file__, kernel_random.__file__, refcounts=False)  # the functions that make no array

EMPTY, SETTLEMENT, TOWN, INDUSTRY = 0, 1, 2, 3
TURN, STONE, CARD, DIE1, DIE2, TIMER, OVER = range(7)  # engine phases
NO_COVER, BLOCKED, DESTROYED = 0, 1, 2
ENDED_NONE, ENDED_COLLAPSE, ENDED_TIMER, ENDED_STONES = 0, 1, 2, 3
PERMANENT = 10**6
MAX_F, MAX_P, MAX_STACKS, MAX_CARDS = 36, 4, 24, 60

RULE_EVENTS = (
    "settle", "settle far", "town", "industry", "dismantle settlement", "dismantle town", "dismantle industry",
    "sabbatical", "did nothing", "stones removed", "event blocked", "event destroyed", "event missed",
    "buildings destroyed", "markers short", "deck reshuffled", "industry LQ loss", "collapse", "ended by collapse",
    "ended by timer", "ended by stones",
)  # fmt: skip  (engine.RULE_EVENTS: fast checks they agree)
(C_SETTLE, C_SETTLE_FAR, C_TOWN, C_INDUSTRY, C_DIS_SETTLEMENT, C_DIS_TOWN, C_DIS_INDUSTRY, C_SABBATICAL,
 C_NOTHING, C_STONES_REMOVED, C_EV_BLOCKED, C_EV_DESTROYED, C_EV_MISSED, C_DESTROYED, C_MARKERS_SHORT,
 C_RESHUFFLED, C_LQ_LOSS, C_COLLAPSE, C_END_COLLAPSE, C_END_TIMER, C_END_STONES) = range(21)
N_COUNTS = 21

BOT_KINDS = ("random", "grower", "steward", "keeper", "sabbatical", "mixed")  # codes 0..5
RANDOM = 0
# a policy bot's knobs (float table ``bp``, one row per kind)
B_BUILD_BELOW, B_DISMANTLE_AT, B_INDUSTRIES, B_TOWNS, B_MAX_FIELDS, B_SAB_PROD_BELOW, B_SAB_LOPSIDED, B_DROPS = range(8)

# the state array
(PHASE, STACK_AT, HEIGHT, RESERVE, OUT, ROUND, LEADER, TURN_IN_ROUND, PENDING_STONES, PENDING_EVENTS, DECK_N, CARD_AT,
 DIE_1, ACTIONS, STONE_PLAYER, ENDED, TOPPLER) = range(17)
COUNTS = 20
RES = COUNTS + N_COUNTS + 3
LQ = RES + MAX_P
ON_SAB = LQ + MAX_P
SABS = ON_SAB + MAX_P
PLACED = SABS + MAX_P  # p * 4 + kind
DISMANTLED_IN = PLACED + 4 * MAX_P  # the policy bots' memory: the round each seat last dismantled in
OWNER = DISMANTLED_IN + MAX_P
KIND = OWNER + MAX_F
COVER = KIND + MAX_F
UNTIL = COVER + MAX_F
STACKS = UNTIL + MAX_F
IN_DECK = STACKS + MAX_STACKS
STATE_SIZE = IN_DECK + MAX_CARDS

# the game's numbers (int array ``gi``)
(G_F, G_P, G_STACKS, G_CARDS, G_SETTLE, G_TRAVEL, G_TOWN_COST, G_INDUSTRY_COST, G_TOWN_STONES, G_INDUSTRY_STONES,
 G_SETTLEMENT_LQ, G_SAB_COST, G_SAB_LQ, G_SAB_LIMIT, G_LQ_LOSS, G_BUILDS_PER_TURN, G_REFUND, G_TO_RESERVE,
 G_DESTROYED_RETURNS, G_FIRST_END, G_LAST_END, G_LOP_PENALTY, G_LOP_BOTH, G_TOPPLER_SCORE, G_MARKERS,
 G_HAZARD_LEN) = range(26)
G_WORTH = 28  # building_res by kind (index 1..3)
G_SUPPLY = 32  # pieces per colour by kind (index 1..3)
G_YIELD = 36  # RES a round: (kind - 1) * 3 + level - 1
G_START_RES = 48
G_START_LQ = 52
G_INTS = 56


# ---------------------------------------------------------------------------------------------- the rules


@_flat
def new_game(s: np.ndarray, gi: np.ndarray, stacks0: np.ndarray) -> None:
    """``ResilienceState.__init__``."""
    s[:] = 0
    for p in range(gi[G_P]):
        s[RES + p] = gi[G_START_RES + p]
        s[LQ + p] = gi[G_START_LQ + p]
    for f in range(gi[G_F]):
        s[OWNER + f] = -1
    for i in range(gi[G_STACKS]):
        s[STACKS + i] = stacks0[i]
    for c in range(gi[G_CARDS]):
        s[IN_DECK + c] = 1
    s[DECK_N] = gi[G_CARDS]
    s[ROUND] = 1
    s[PHASE] = TURN
    s[CARD_AT] = -1
    s[STONE_PLAYER] = -1
    s[TOPPLER] = -1


@_flat
def stones_left(s: np.ndarray, gi: np.ndarray) -> int:
    n = s[RESERVE]
    for i in range(s[STACK_AT], gi[G_STACKS]):
        n += s[STACKS + i]
    return n


@_flat
def seat_to_move(s: np.ndarray, gi: np.ndarray) -> int:
    return (s[LEADER] + s[TURN_IN_ROUND]) % gi[G_P]


@_flat
def borders_own(s: np.ndarray, nbr: np.ndarray, p: int, f: int) -> bool:
    for j in range(nbr.shape[1]):
        n = nbr[f, j]
        if n < 0:
            break
        if s[OWNER + n] == p:
            return True
    return False


@_flat
def settle_cost(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, p: int, f: int) -> int:
    owns = False
    for g in range(gi[G_F]):
        if s[OWNER + g] == p:
            owns = True
            break
    far = owns and not borders_own(s, nbr, p, f)
    return gi[G_SETTLE] + (gi[G_TRAVEL] if far else 0)


@_flat
def legal_actions(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, out: np.ndarray) -> int:
    """``ResilienceState.legal_actions`` at a turn (sorted: settle, town, industry, dismantle, sabbatical, end)."""
    F = gi[G_F]  # noqa: N806
    p = seat_to_move(s, gi)
    n = 0
    limit = gi[G_BUILDS_PER_TURN]
    res = s[RES + p]
    if limit == 0 or s[ACTIONS] < limit:
        owns = False
        for f in range(F):
            if s[OWNER + f] == p:
                owns = True
                break
        base = gi[G_SETTLE]
        far = base + gi[G_TRAVEL]
        if s[PLACED + p * 4 + SETTLEMENT] < gi[G_SUPPLY + SETTLEMENT] and res >= base:
            anywhere = (not owns) or res >= far
            for f in range(F):
                if s[OWNER + f] == -1 and s[COVER + f] == NO_COVER and (anywhere or borders_own(s, nbr, p, f)):
                    out[n] = f
                    n += 1
        left = stones_left(s, gi)
        may_town = (res >= gi[G_TOWN_COST] and s[PLACED + p * 4 + TOWN] < gi[G_SUPPLY + TOWN]
                    and left >= gi[G_TOWN_STONES])
        may_industry = (res >= gi[G_INDUSTRY_COST] and s[PLACED + p * 4 + INDUSTRY] < gi[G_SUPPLY + INDUSTRY]
                        and left >= gi[G_INDUSTRY_STONES])
        if may_town:
            for f in range(F):
                if s[OWNER + f] == p and s[KIND + f] == SETTLEMENT and s[COVER + f] == NO_COVER:
                    out[n] = F + f
                    n += 1
        if may_industry:
            for f in range(F):
                if s[OWNER + f] == p and s[KIND + f] == SETTLEMENT and s[COVER + f] == NO_COVER:
                    out[n] = 2 * F + f
                    n += 1
        for f in range(F):
            if s[OWNER + f] == p:
                out[n] = 3 * F + f
                n += 1
    if (s[ACTIONS] == 0 and res >= gi[G_SAB_COST]
            and (gi[G_SAB_LIMIT] == 0 or s[SABS + p] < gi[G_SAB_LIMIT])):
        out[n] = 4 * F
        n += 1
    out[n] = 4 * F + 1
    return n + 1


@_flat
def sample_outcome(s: np.ndarray, gi: np.ndarray, hazard: np.ndarray, st: np.ndarray, probs: np.ndarray) -> int:
    """``sample_chance(state, rng)`` at a chance node: the outcome (0/1 for a stone or the timer, a card, a die)."""
    phase = s[PHASE]
    if phase == STONE:
        h = s[HEIGHT]
        if h > gi[G_HAZARD_LEN] - 1:
            h = gi[G_HAZARD_LEN] - 1
        p = hazard[h]
        if p > 0:
            probs[0] = 1.0 - p
            probs[1] = p
            return sample_chance(st, probs, 2)
        probs[0] = 1.0
        sample_chance(st, probs, 1)
        return 0
    if phase == CARD:
        i = sample_uniform_chance(st, s[DECK_N])
        for c in range(gi[G_CARDS]):
            if s[IN_DECK + c]:
                if i == 0:
                    return c
                i -= 1
        return -1
    if phase == DIE1 or phase == DIE2:  # noqa: SIM109
        for k in range(6):
            probs[k] = 1.0 / 6
        return 1 + sample_chance(st, probs, 6)
    left = gi[G_LAST_END] - s[ROUND] + 1
    p = 1.0 / left if left > 0 else 1.0
    if p < 1.0:
        probs[0] = 1.0 - p
        probs[1] = p
        return sample_chance(st, probs, 2)
    probs[0] = 1.0
    sample_chance(st, probs, 1)
    return 1


@_flat
def _finish(s: np.ndarray, reason: int) -> None:
    s[ENDED] = reason
    s[PHASE] = OVER
    s[COUNTS + C_END_COLLAPSE + reason - 1] += 1


@_flat
def _unstack(s: np.ndarray, gi: np.ndarray, stones: int) -> None:
    taken = stones if stones < s[HEIGHT] else s[HEIGHT]
    s[HEIGHT] -= taken
    if gi[G_TO_RESERVE]:
        s[RESERVE] += taken
    else:
        s[OUT] += taken
    s[COUNTS + C_STONES_REMOVED] += taken


@_flat
def _next_round(s: np.ndarray, gi: np.ndarray) -> None:
    s[ROUND] += 1
    s[LEADER] = (s[LEADER] + 1) % gi[G_P]
    s[TURN_IN_ROUND] = 0
    for p in range(gi[G_P]):
        s[ON_SAB + p] = 0
    s[PHASE] = TURN


@_flat
def _end_round(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, levels: np.ndarray) -> None:
    F = gi[G_F]  # noqa: N806
    for p in range(gi[G_P]):
        if s[ON_SAB + p]:
            continue
        for f in range(F):
            if s[OWNER + f] == p and s[COVER + f] != BLOCKED:
                s[RES + p] += gi[G_YIELD + (s[KIND + f] - 1) * 3 + levels[f] - 1]
    loss = gi[G_LQ_LOSS]
    if loss:
        for f in range(F):
            p = s[OWNER + f]
            if p < 0:
                continue
            beside = False
            for j in range(nbr.shape[1]):
                n = nbr[f, j]
                if n < 0:
                    break
                if s[KIND + n] == INDUSTRY:
                    beside = True
                    break
            if beside:
                if s[LQ + p] > 0:
                    s[COUNTS + C_LQ_LOSS] += 1
                s[LQ + p] = s[LQ + p] - loss if s[LQ + p] - loss > 0 else 0
    for f in range(F):
        if s[COVER + f] != NO_COVER and s[UNTIL + f] <= s[ROUND]:
            s[COVER + f] = NO_COVER
            s[UNTIL + f] = 0
    if s[ROUND] >= gi[G_FIRST_END]:
        s[PHASE] = TIMER
    else:
        _next_round(s, gi)


@_flat
def _end_turn(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, levels: np.ndarray) -> None:
    s[ACTIONS] = 0
    s[TURN_IN_ROUND] += 1
    if s[TURN_IN_ROUND] >= gi[G_P]:
        _end_round(s, gi, nbr, levels)


@_flat
def player_action(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, levels: np.ndarray, action: int) -> None:
    """``ResilienceState._player_action``."""
    F = gi[G_F]  # noqa: N806
    p = seat_to_move(s, gi)
    if action == 4 * F + 1:
        if s[ACTIONS] == 0:
            s[COUNTS + C_NOTHING] += 1
        _end_turn(s, gi, nbr, levels)
        return
    if action == 4 * F:
        s[RES + p] -= gi[G_SAB_COST]
        s[LQ + p] += gi[G_SAB_LQ]
        s[ON_SAB + p] = 1
        s[SABS + p] += 1
        s[COUNTS + C_SABBATICAL] += 1
        _end_turn(s, gi, nbr, levels)
        return
    s[ACTIONS] += 1
    f = action % F
    kind = action // F
    if kind == 0:
        cost = settle_cost(s, gi, nbr, p, f)
        s[COUNTS + (C_SETTLE_FAR if cost > gi[G_SETTLE] else C_SETTLE)] += 1
        s[RES + p] -= cost
        s[LQ + p] += gi[G_SETTLEMENT_LQ]
        s[OWNER + f] = p
        s[KIND + f] = SETTLEMENT
        s[PLACED + p * 4 + SETTLEMENT] += 1
    elif kind == 1 or kind == 2:
        new = TOWN if kind == 1 else INDUSTRY
        s[RES + p] -= gi[G_TOWN_COST] if new == TOWN else gi[G_INDUSTRY_COST]
        s[PLACED + p * 4 + SETTLEMENT] -= 1
        s[PLACED + p * 4 + new] += 1
        s[KIND + f] = new
        s[COUNTS + (C_TOWN if new == TOWN else C_INDUSTRY)] += 1
        s[PENDING_STONES] = gi[G_TOWN_STONES] if new == TOWN else gi[G_INDUSTRY_STONES]
        s[STONE_PLAYER] = p
        if s[PENDING_STONES]:
            s[PHASE] = STONE
    else:
        k = s[KIND + f]
        s[COUNTS + C_DIS_SETTLEMENT + k - 1] += 1
        s[RES + p] += gi[G_REFUND]
        if k == SETTLEMENT:
            s[OWNER + f] = -1
            s[KIND + f] = EMPTY
            s[PLACED + p * 4 + SETTLEMENT] -= 1
            lq = s[LQ + p] - gi[G_SETTLEMENT_LQ]
            s[LQ + p] = lq if lq > 0 else 0
        else:
            _unstack(s, gi, gi[G_TOWN_STONES] if k == TOWN else gi[G_INDUSTRY_STONES])
            s[PLACED + p * 4 + k] -= 1
            s[PLACED + p * 4 + SETTLEMENT] += 1
            s[KIND + f] = SETTLEMENT


@_flat
def _stone(s: np.ndarray, gi: np.ndarray, fell: int) -> None:
    if fell:
        s[TOPPLER] = s[STONE_PLAYER]
        s[COUNTS + C_COLLAPSE] += 1
        _finish(s, ENDED_COLLAPSE)
        return
    s[HEIGHT] += 1
    if s[RESERVE]:
        s[RESERVE] -= 1
    else:
        n = gi[G_STACKS]
        while s[STACK_AT] < n and s[STACKS + s[STACK_AT]] == 0:
            s[STACK_AT] += 1
        if s[STACK_AT] < n:
            s[STACKS + s[STACK_AT]] -= 1
            if s[STACKS + s[STACK_AT]] == 0:
                s[STACK_AT] += 1
                s[PENDING_EVENTS] += 1
    s[PENDING_STONES] -= 1
    if s[PENDING_STONES] > 0 and stones_left(s, gi) > 0:
        return
    s[PENDING_STONES] = 0
    if s[PENDING_EVENTS]:
        s[PHASE] = CARD
    elif stones_left(s, gi) == 0:
        _finish(s, ENDED_STONES)
    else:
        s[PHASE] = TURN


@_flat
def _event(s: np.ndarray, gi: np.ndarray, w: Any, card: int, die1: int, die2: int) -> None:
    number = die1 * 10 + die2
    effect = w.card_effect[card]
    s[COUNTS + (C_EV_BLOCKED if effect == BLOCKED else C_EV_DESTROYED)] += 1
    target = w.index_of[number]
    if target < 0:
        s[COUNTS + C_EV_MISSED] += 1
        return
    rounds = w.card_rounds[card]
    until = PERMANENT if rounds == 0 else s[ROUND] + rounds - 1
    for i in range(w.cover_len[card, target]):
        f = w.cover[card, target, i]
        if s[COVER + f] == NO_COVER:
            in_play = 0
            for g in range(gi[G_F]):
                if s[COVER + g] != NO_COVER:
                    in_play += 1
            if in_play >= gi[G_MARKERS]:
                s[COUNTS + C_MARKERS_SHORT] += 1
                continue
        if effect == DESTROYED or s[COVER + f] == NO_COVER:
            s[COVER + f] = effect
        if until > s[UNTIL + f]:
            s[UNTIL + f] = until
        if effect == DESTROYED and s[OWNER + f] >= 0:
            p = s[OWNER + f]
            k = s[KIND + f]
            s[COUNTS + C_DESTROYED] += 1
            s[PLACED + p * 4 + k] -= 1
            if gi[G_DESTROYED_RETURNS] and k != SETTLEMENT:
                _unstack(s, gi, gi[G_TOWN_STONES] if k == TOWN else gi[G_INDUSTRY_STONES])
            s[OWNER + f] = -1
            s[KIND + f] = EMPTY


@_flat
def apply_chance(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, levels: np.ndarray, w: Any, action: int) -> None:
    phase = s[PHASE]
    if phase == STONE:
        _stone(s, gi, action)
    elif phase == CARD:
        s[CARD_AT] = action
        s[IN_DECK + action] = 0
        s[DECK_N] -= 1
        s[PHASE] = DIE1
    elif phase == DIE1:
        s[DIE_1] = action
        s[PHASE] = DIE2
    elif phase == DIE2:
        _event(s, gi, w, s[CARD_AT], s[DIE_1], action)
        s[PENDING_EVENTS] -= 1
        if s[DECK_N] == 0:
            for c in range(gi[G_CARDS]):
                s[IN_DECK + c] = 1
            s[DECK_N] = gi[G_CARDS]
            s[COUNTS + C_RESHUFFLED] += 1
        s[PHASE] = CARD if s[PENDING_EVENTS] else TURN
        if s[PHASE] == TURN and stones_left(s, gi) == 0:
            _finish(s, ENDED_STONES)
    elif phase == TIMER:
        if action == 1:
            _finish(s, ENDED_TIMER)
        else:
            _next_round(s, gi)


# ---------------------------------------------------------------------------------------------- scores


@_flat
def tangible(s: np.ndarray, gi: np.ndarray, p: int) -> int:
    worth = s[RES + p]
    for f in range(gi[G_F]):
        if s[OWNER + f] == p:
            worth += gi[G_WORTH + s[KIND + f]]
    return worth


@_flat
def lopsided(s: np.ndarray, gi: np.ndarray, share_limit: float, p: int) -> bool:
    res = tangible(s, gi, p)
    total = res + s[LQ + p]
    if total <= 0:
        return False
    share = res / total
    return share > share_limit or (gi[G_LOP_BOTH] != 0 and 1.0 - share > share_limit)


@_flat
def production(s: np.ndarray, gi: np.ndarray, levels: np.ndarray, p: int) -> int:
    total = 0
    for f in range(gi[G_F]):
        if s[OWNER + f] == p and s[COVER + f] != BLOCKED:
            total += gi[G_YIELD + (s[KIND + f] - 1) * 3 + levels[f] - 1]
    return total


# ---------------------------------------------------------------------------------------------- bots


@_flat
def random_step(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, st: np.ndarray, w: Any) -> int:
    """``RandomBot.step`` with the State's ``action_kind``: a kind first, then an action of that kind."""
    acts = w.acts
    n = legal_actions(s, gi, nbr, acts)
    F = gi[G_F]  # noqa: N806
    if n > 1:
        kinds = w.kinds
        nk = 0
        for i in range(n):
            a = acts[i]
            k = (a // F if a // F < 4 else 4) + (1 if a == 4 * F + 1 else 0)
            if nk == 0 or kinds[nk - 1] != k:  # the actions are sorted, so are their kinds
                kinds[nk] = k
                nk += 1
        if nk > 1:
            chosen = kinds[int(mt_random(st) * nk)]
            m = 0
            for i in range(n):
                a = acts[i]
                k = (a // F if a // F < 4 else 4) + (1 if a == 4 * F + 1 else 0)
                if k == chosen:
                    acts[m] = a
                    m += 1
            n = m
    return acts[int(mt_random(st) * n)]


@_flat
def policy_step(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, levels: np.ndarray,
                hazard: np.ndarray, bp: np.ndarray, p: int, st: np.ndarray, w: Any) -> int:
    """``PolicyBot.step`` with the knobs ``bp`` of the seat's bot."""
    F = gi[G_F]  # noqa: N806
    acts = w.acts
    n = legal_actions(s, gi, nbr, acts)
    has_sab = False
    for i in range(n):
        if acts[i] == 4 * F:
            has_sab = True
    if has_sab:  # wants_sabbatical
        owned = 0
        for f in range(F):
            if s[OWNER + f] == p:
                owned += 1
        wants = False
        below = bp[B_SAB_PROD_BELOW]
        if below >= 0 and owned >= 3 and production(s, gi, levels, p) < below:
            wants = True
        elif bp[B_SAB_LOPSIDED] != 0:
            res = tangible(s, gi, p)
            total = res + s[LQ + p]
            wants = total > 10 and res / total > gf[0] - 0.1
        if wants:
            return 4 * F
    h = s[HEIGHT] if s[HEIGHT] < gi[G_HAZARD_LEN] - 1 else gi[G_HAZARD_LEN] - 1
    risk = hazard[h]
    if risk >= bp[B_DISMANTLE_AT]:
        best = -1
        for f in range(F):  # max by (kind, -level, f)
            if s[OWNER + f] != p or not (s[KIND + f] == TOWN or s[KIND + f] == INDUSTRY):
                continue
            if (best < 0 or s[KIND + f] > s[KIND + best]
                    or (s[KIND + f] == s[KIND + best] and (levels[f] < levels[best]
                                                           or (levels[f] == levels[best] and f > best)))):
                best = f
        if best >= 0:
            s[DISMANTLED_IN + p] = s[ROUND]
            return 3 * F + best
    drops = bp[B_DROPS] != 0
    if drops:
        for f in range(F):
            if s[OWNER + f] == p and s[KIND + f] == SETTLEMENT and levels[f] == 1:
                legal = False
                for i in range(n):
                    if acts[i] == 3 * F + f:
                        legal = True
                if legal and _beside_industry(s, nbr, f):
                    s[DISMANTLED_IN + p] = s[ROUND]
                    return 3 * F + f
    owned = 0
    for f in range(F):
        if s[OWNER + f] == p:
            owned += 1
    best = -1
    best_v = 0.0
    for i in range(n):
        a = acts[i]
        if a >= F:
            break
        f = a
        if drops and levels[f] == 1 and _beside_industry(s, nbr, f):
            continue
        if owned >= bp[B_MAX_FIELDS]:
            break
        near = 1 if _beside_industry(s, nbr, f) else 0
        cost = settle_cost(s, gi, nbr, p, f)
        free = 0
        for j in range(nbr.shape[1]):
            m = nbr[f, j]
            if m < 0:
                break
            if s[OWNER + m] == -1:
                free += 1
        noise = mt_random(st) * 0.5
        v = levels[f] * 2 - cost - 2 * near + 0.1 * free + noise
        if best < 0 or v > best_v or (v == best_v and f < best):
            best = f
            best_v = v
    if best >= 0:
        return best
    if risk < bp[B_BUILD_BELOW] and s[DISMANTLED_IN + p] != s[ROUND]:
        for kind, knob in ((2, B_INDUSTRIES), (1, B_TOWNS)):
            if bp[knob] == 0:
                continue
            pick = -1
            for i in range(n):
                a = acts[i]
                if kind * F <= a < (kind + 1) * F:
                    f = a - kind * F
                    if pick < 0 or levels[f] > levels[pick]:  # max by (level, -f): the first of the top level
                        pick = f
            if pick >= 0:
                return kind * F + pick
    return 4 * F + 1


@_flat
def _beside_industry(s: np.ndarray, nbr: np.ndarray, f: int) -> bool:
    for j in range(nbr.shape[1]):
        n = nbr[f, j]
        if n < 0:
            break
        if s[KIND + n] == INDUSTRY:
            return True
    return False


# ---------------------------------------------------------------------------------------------- whole games


@_jit
def play_games(gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, levels: np.ndarray, hazard: np.ndarray,
               stacks0: np.ndarray, bots: np.ndarray, kinds: np.ndarray, keys: np.ndarray, w: Any,
               out_i: np.ndarray, out_counts: np.ndarray) -> None:
    """Game ``g`` for each row of ``kinds`` with the streams seeded by ``keys[g]`` (chance, then each seat's
    bot), as ``play_with_bots`` plays ``play_one``. Per game into ``out_i``: round, ended, toppler, height, then
    per seat res, lq, tangible, lopsided (4 x 4) and the fields settled; the rule counts into ``out_counts``."""
    players = gi[G_P]
    s = w.state
    states, scratch = kernel_random.new_block(players + 1, kernel_random.BLOCK_GAMES)
    for g in range(kinds.shape[0]):
        rng = states[kernel_random.game_streams(states, scratch, keys, g):]
        new_game(s, gi, stacks0)
        while s[PHASE] != OVER:
            if s[PHASE] == TURN:
                p = seat_to_move(s, gi)
                kind = kinds[g, p]
                if kind == RANDOM:
                    a = random_step(s, gi, nbr, rng[1 + p], w)
                else:
                    a = policy_step(s, gi, gf, nbr, levels, hazard, bots[kind], p, rng[1 + p], w)
                player_action(s, gi, nbr, levels, a)
            else:
                a = sample_outcome(s, gi, hazard, rng[0], w.probs)
                apply_chance(s, gi, nbr, levels, w, a)
        out_i[g, 0] = s[ROUND]
        out_i[g, 1] = s[ENDED]
        out_i[g, 2] = s[TOPPLER]
        out_i[g, 3] = s[HEIGHT]
        for p in range(players):
            out_i[g, 4 + p] = s[RES + p]
            out_i[g, 8 + p] = s[LQ + p]
            out_i[g, 12 + p] = tangible(s, gi, p)
            out_i[g, 16 + p] = 1 if lopsided(s, gi, gf[0], p) else 0
        settled = 0
        for f in range(gi[G_F]):
            if s[OWNER + f] >= 0:
                settled += 1
        out_i[g, 20] = settled
        for c in range(N_COUNTS):
            out_counts[g, c] = s[COUNTS + c]


Work = namedtuple("Work", ["state", "rng", "acts", "kinds", "probs", "index_of", "cover", "cover_len",
                           "card_effect", "card_rounds"])
"""The arrays the kernel works in and the event cards' patterns, made once per batch."""


def work(players: int, index_of: np.ndarray, cover: np.ndarray, cover_len: np.ndarray, card_effect: np.ndarray,
         card_rounds: np.ndarray) -> Any:
    return Work(np.zeros(STATE_SIZE, dtype=np.int64), kernel_random.new_states(players + 1),
                np.zeros(4 * MAX_F + 2, dtype=np.int64), np.zeros(8, dtype=np.int64), np.zeros(8),
                index_of, cover, cover_len, card_effect, card_rounds)
