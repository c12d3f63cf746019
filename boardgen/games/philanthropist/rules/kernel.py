"""The Philanthropist's rules and bots compiled (numba): whole games over flat integer arrays, the same games as
the rules API (``engine.PhilState`` played by ``boardgen.play.simulate.play_one``) for the same seeds.

The API engine is the reference; this is the second encoding of the same rules, checked against it game for game
(tests/games/philanthropist/test_philanthropist_kernel.py compares every result field).
Every step follows the engine's code:

- chance draws from a ``random.Random`` replayed by ``boardgen.play.kernel_random`` and samples as
  ``boardgen.play.api.sample_chance`` does (the same outcome lists, in the same order, with the same float sums);
- each seat's bot draws from its own generator, exactly where the Python bot calls ``rng.random()`` (the key
  functions of ``min``/``max`` draw once per item, in order) and ties resolve as ``min``/``max`` resolve them;
- legal moves are listed as ``PhilState.legal_actions`` lists them (plain moves by square, then collects).

Importing this module imports numba; ``boardgen.games.philanthropist.rules.fast`` loads it only when a batch is big
enough to pay for that. Nothing here reads another module's globals but ``kernel_random``'s functions (the
compile cache is keyed on both files).
"""

from __future__ import annotations

import numpy as np

from boardgen.play import kernel_random as kr
from boardgen.play.kernels import compiled

_jit = compiled(__file__, kr.__file__)

# the engine's phases (engine.PLACE ... engine.END; fast.py checks)
PLACE, FIRST, ACTION, WHITE_MOVE, WHITE_PAY, DRAW, MOVE, END = range(8)
PHASES_CHECK = (PLACE, FIRST, ACTION, WHITE_MOVE, WHITE_PAY, DRAW, MOVE, END)
FACE_MOVE, FACE_PAYDAY, FACE_CARD = 0, 1, 2  # action die faces, as codes
CARD_GAIN, CARD_LOSE, CARD_LOSE_HALF, CARD_LOSE_ALL = 0, 1, 2, 3  # engine.EFFECT_KINDS, in that order
TIE_DONATED, TIE_CUBES, TIE_SHARED = 0, 1, 2

BOT_KINDS = ("uniform", "random", "collector", "planner")  # the codes 0..3 of a seat's bot
UNIFORM, RANDOM, COLLECTOR, PLANNER = range(4)

EVENTS = ("move", "payday", "card", "collect", "income", "reshuffle", "card-floor", "all-helped")  # engine order
E_MOVE, E_PAYDAY, E_CARD, E_COLLECT, E_INCOME, E_RESHUFFLE, E_FLOOR, E_ALL_HELPED = range(8)

MAX_PLAYERS = 4
METRICS = ("rounds", "turns", "turn_limit_hit", "meeples_left", "peak_cubes_held", "supply_short", "tie_on_meeples",
           "winner_margin", "won_turn_position_1", "won_turn_position_2", "won_turn_position_3",
           "won_turn_position_4", "winner_cubes_left", "decided_by_card_gain", "decided_by_card_lose",
           "decided_by_card_lose_half", "decided_by_card_lose_all")  # fmt: skip
M_POSITION = 8  # won_turn_position_1 .. 4
M_CUBES_LEFT = 12
M_DECIDED = 13  # decided_by_card_<kind> for the four kinds

# the rules, packed into one int array (``prm``) in this order
PARAMS = ("squares", "players", "start_cubes", "move_income", "income_when_collecting", "payday_multiplier",
          "avatars_may_share", "stop_on_unpaid_meeple", "tie_break", "catch_up", "middle_corner", "turn_limit",
          "random_first", "supply", "min_cost")  # fmt: skip
(P_N, P_PLAYERS, P_START, P_INCOME, P_INCOME_COLLECTING, P_PAYDAY, P_SHARE, P_STOP_UNPAID, P_TIE, P_CATCH_UP,
 P_MIDDLE, P_TURN_LIMIT, P_RANDOM_FIRST, P_SUPPLY, P_MIN_COST) = range(15)

MEAN_WHITE = 3.5  # bots.MEAN_WHITE
INCOME_PER_TURN = 2.0  # bots.INCOME_PER_TURN
BLOCK_PREMIUM = 0.25  # bots.PlannerBot.block_premium
BLOCK_REACH = 6  # the planner's "a rival could take it on their next turn" distance


@_jit
def _king(n: int, a: int, b: int) -> int:
    dr = abs(a // n - b // n)
    dc = abs(a % n - b % n)
    return dr if dr > dc else dc


@_jit
def _legal(prm: np.ndarray, costs: np.ndarray, meeple_at: np.ndarray, pos: np.ndarray, cubes: np.ndarray,
           seat: int, white: int, legal: np.ndarray, scratch: np.ndarray) -> int:
    """``PhilState.legal_actions`` at a move node into ``legal``; returns how many."""
    n = prm[P_N]
    nn = n * n
    players = prm[P_PLAYERS]
    share = prm[P_SHARE] != 0
    stop_unpaid = prm[P_STOP_UNPAID] != 0
    here = pos[seat]
    r0 = here // n
    c0 = here % n
    cash = cubes[seat]
    m = 0
    k = 0
    for r in range(max(0, r0 - white), min(n, r0 + white + 1)):
        for c in range(max(0, c0 - white), min(n, c0 + white + 1)):
            sq = r * n + c
            if not share and sq != here:
                taken = False
                for q in range(players):
                    if q != seat and pos[q] == sq:
                        taken = True
                if taken:
                    continue
            kind = meeple_at[sq]
            if kind >= 0:
                if costs[kind] <= cash:
                    scratch[k] = nn + sq
                    k += 1
                if not stop_unpaid:
                    continue
            legal[m] = sq
            m += 1
    for i in range(k):
        legal[m + i] = scratch[i]
    return m + k


@_jit
def _toward(n: int, here: int, white: int, target: int, legal: np.ndarray, m: int, st: np.ndarray) -> int:
    """``bots._toward``: the plain move straight toward ``target`` if legal, else the legal plain move (or any)
    closest to it, ties at random (one draw per candidate, in order)."""
    nn = n * n
    r0 = here // n
    c0 = here % n
    tr = target // n
    tc = target % n
    dr = max(-white, min(white, tr - r0))
    dc = max(-white, min(white, tc - c0))
    best = (r0 + dr) * n + (c0 + dc)
    plain = 0
    for i in range(m):
        if legal[i] == best:
            return best
        if legal[i] < nn:
            plain += 1
    choice = -1
    best_d = 0
    best_r = 0.0
    for i in range(m):
        a = legal[i]
        if plain > 0 and a >= nn:
            continue
        d = _king(n, a % nn, target)
        r = kr.random(st)
        if choice < 0 or d < best_d or (d == best_d and r < best_r):
            choice, best_d, best_r = a, d, r
    return choice


@_jit
def _planner_value(prm: np.ndarray, costs: np.ndarray, pos: np.ndarray, cubes: np.ndarray, seat: int, sq: int,
                   kind: int) -> float:
    """``PlannerBot._value``."""
    n = prm[P_N]
    cost = costs[kind]
    steps = _king(n, pos[seat], sq)
    travel = 0.0 if steps == 0 else max(1.0, steps / MEAN_WHITE)
    short = max(0, cost - cubes[seat])
    turns = max(travel, short / INCOME_PER_TURN) + 1.0
    value = 1.0 / (cost + INCOME_PER_TURN * turns)
    for rival in range(prm[P_PLAYERS]):
        if rival != seat and cubes[rival] >= cost and _king(n, pos[rival], sq) <= BLOCK_REACH:
            value *= 1.0 + BLOCK_PREMIUM
            break
    return value


@_jit
def _bot_step(kind: int, prm: np.ndarray, costs: np.ndarray, meeple_at: np.ndarray, msq: np.ndarray, mcount: int,
              pos: np.ndarray, cubes: np.ndarray, seat: int, white: int, legal: np.ndarray, m: int, st: np.ndarray
              ) -> int:
    """The action the seat's bot picks from ``legal[:m]`` (``bots.py``, draw for draw); ``msq[:mcount]``: the
    squares holding a meeple, in square order (as the bots enumerate the board)."""
    n = prm[P_N]
    nn = n * n
    if kind == UNIFORM:
        return legal[kr.random_index(st, m)]
    first_collect = m
    for i in range(m):
        if legal[i] >= nn:
            first_collect = i
            break
    collects = m - first_collect
    if kind == RANDOM:
        if collects > 0:
            return legal[first_collect + kr.random_index(st, collects)]
        if mcount == 0:
            return legal[kr.random_index(st, m)]
        target = msq[kr.random_index(st, mcount)]
        now = _king(n, pos[seat], target)
        closer = 0
        for i in range(m):
            if _king(n, legal[i] % nn, target) < now:
                closer += 1
        if closer == 0:
            return legal[kr.random_index(st, m)]
        pick = kr.random_index(st, closer)
        for i in range(m):
            if _king(n, legal[i] % nn, target) < now:
                if pick == 0:
                    return legal[i]
                pick -= 1
        return -1
    if kind == COLLECTOR:
        if collects > 0:
            choice = -1
            best_c = 0
            best_r = 0.0
            for i in range(first_collect, m):
                c = costs[meeple_at[legal[i] - nn]]
                r = kr.random(st)
                if choice < 0 or c < best_c or (c == best_c and r < best_r):
                    choice, best_c, best_r = legal[i], c, r
            return choice
        here = pos[seat]
        target = -1
        best_d = 0
        best_r = 0.0
        for j in range(mcount):
            sq = msq[j]
            k = meeple_at[sq]
            d = _king(n, here, sq) + costs[k]
            r = kr.random(st)
            if target < 0 or d < best_d or (d == best_d and r < best_r):
                target, best_d, best_r = sq, d, r
        if target < 0:
            return legal[0]
        return _toward(n, here, white, target, legal, m, st)
    # PLANNER
    target = -1
    best_v = 0.0
    best_r = 0.0
    for j in range(mcount):
        sq = msq[j]
        k = meeple_at[sq]
        v = _planner_value(prm, costs, pos, cubes, seat, sq, k)
        r = kr.random(st)
        if target < 0 or v > best_v or (v == best_v and (r > best_r or (r == best_r and sq > target))):
            target, best_v, best_r = sq, v, r
    if target < 0:
        return legal[0]
    if collects > 0:
        choice = -1
        best_v = 0.0
        best_r = 0.0
        for i in range(first_collect, m):
            sq = legal[i] - nn
            v = _planner_value(prm, costs, pos, cubes, seat, sq, meeple_at[sq])
            r = kr.random(st)
            if choice < 0 or v > best_v or (v == best_v and r > best_r):
                choice, best_v, best_r = legal[i], v, r
        return choice  # collect_share 0: a meeple within reach is always taken
    return _toward(n, pos[seat], white, target, legal, m, st)


@_jit
def _gain(seat: int, amount: int, cubes: np.ndarray, players: int, peak: int) -> int:
    """``PhilState._gain``; returns the new peak of cubes held."""
    cubes[seat] += amount
    total = 0
    for q in range(players):
        total += cubes[q]
    return max(peak, total)


@_jit
def play_games(prm: np.ndarray, costs: np.ndarray, place_order: np.ndarray, faces: np.ndarray,
               block_of: np.ndarray, no_meeple: np.ndarray, corners: np.ndarray, card_kind: np.ndarray,
               card_amount: np.ndarray, card_qty: np.ndarray, kinds: np.ndarray, seeds: np.ndarray,
               scores: np.ndarray, winners: np.ndarray, length: np.ndarray, metrics: np.ndarray,
               events: np.ndarray) -> None:
    """Play game g of ``kinds[g]`` (a bot code per seat) with generators seeded ``seeds[g, 0]`` (chance) and
    ``seeds[g, 1 + p]`` (seat p's bot); write its outcome into row g of the outputs."""
    n = prm[P_N]
    nn = n * n
    players = prm[P_PLAYERS]
    n_cards = card_qty.shape[0]
    n_place = place_order.shape[0]
    n_blocks = 0
    for s in range(nn):
        n_blocks = max(n_blocks, block_of[s] + 1)
    meeple_at = np.empty(nn, dtype=np.int64)
    msq = np.empty(nn, dtype=np.int64)  # the squares holding a meeple, ascending
    free_in_block = np.empty(n_blocks, dtype=np.int64)  # empty squares a meeple may be set on, per area
    block_fill = np.empty(n_blocks, dtype=np.int64)
    pos = np.empty(players, dtype=np.int64)
    cubes = np.empty(players, dtype=np.int64)
    meeples = np.empty(players, dtype=np.int64)
    donated = np.empty(players, dtype=np.int64)
    turns = np.empty(players, dtype=np.int64)
    card_net = np.empty((players, 4), dtype=np.int64)
    pile = np.empty(n_cards, dtype=np.int64)
    ev = np.empty(len(EVENTS), dtype=np.int64)
    legal = np.empty(2 * nn, dtype=np.int64)
    scratch = np.empty(2 * nn, dtype=np.int64)
    probs = np.empty(max(n_cards, 1), dtype=np.float64)
    states, block_scratch = kr.new_block(1 + players, kr.BLOCK_GAMES)
    for g in range(seeds.shape[0]):
        rng = states[kr.game_streams(states, block_scratch, seeds, g):]
        chance = rng[0]
        meeple_at[:] = -1
        block_fill[:] = 0
        free_in_block[:] = 0
        for s in range(nn):
            if no_meeple[s] == 0:
                free_in_block[block_of[s]] += 1
        mcount = 0
        for p in range(players):
            pos[p] = corners[p]
            cubes[p] = prm[P_START]
            meeples[p] = 0
            donated[p] = 0
            turns[p] = 0
            for e in range(4):
                card_net[p, e] = 0
        for i in range(n_cards):
            pile[i] = card_qty[i]
        ev[:] = 0
        placed = 0
        left = n_place
        first = 0
        player = 0
        rounds = 0
        white = 0
        limit_hit = 0
        peak = 0
        for p in range(players):
            peak += cubes[p]
        phase = PLACE if n_place > 0 else FIRST
        start_now = phase == FIRST and prm[P_RANDOM_FIRST] == 0
        while True:
            if start_now:  # PhilState._start(first)
                player = first
                for k in range(players):
                    cubes[(first + k) % players] = prm[P_START] + k * prm[P_CATCH_UP]
                if players == 3:
                    cubes[1] += prm[P_MIDDLE]
                peak = 0
                for p in range(players):
                    peak += cubes[p]
                phase = ACTION
                start_now = False
            if phase == END:
                break
            end_turn = False
            if phase == PLACE:
                # PhilState._free_squares: the empty squares of the least-filled areas, in square order
                low = -1
                for b in range(n_blocks):
                    if free_in_block[b] > 0 and (low < 0 or block_fill[b] < low):
                        low = block_fill[b]
                count = 0
                for b in range(n_blocks):
                    if free_in_block[b] > 0 and block_fill[b] == low:
                        count += free_in_block[b]
                pick = kr.sample_uniform_chance(chance, count)
                s = -1
                for t in range(nn):
                    if meeple_at[t] < 0 and no_meeple[t] == 0 and block_fill[block_of[t]] == low:
                        if pick == 0:
                            s = t
                            break
                        pick -= 1
                meeple_at[s] = place_order[placed]
                block_fill[block_of[s]] += 1
                free_in_block[block_of[s]] -= 1
                j = mcount
                while j > 0 and msq[j - 1] > s:
                    msq[j] = msq[j - 1]
                    j -= 1
                msq[j] = s
                mcount += 1
                placed += 1
                if placed == n_place:
                    phase = FIRST
                    if prm[P_RANDOM_FIRST] == 0:
                        first = 0
                        start_now = True
            elif phase == FIRST:
                first = kr.sample_uniform_chance(chance, players)
                start_now = True
            elif phase == ACTION:
                face = faces[kr.sample_uniform_chance(chance, 6)]
                if face == FACE_MOVE:
                    ev[E_MOVE] += 1
                    phase = WHITE_MOVE
                elif face == FACE_PAYDAY:
                    ev[E_PAYDAY] += 1
                    phase = WHITE_PAY
                else:
                    ev[E_CARD] += 1
                    phase = DRAW
            elif phase == WHITE_MOVE:
                white = kr.sample_uniform_chance(chance, 6) + 1
                phase = MOVE
            elif phase == WHITE_PAY:
                roll = kr.sample_uniform_chance(chance, 6) + 1
                peak = _gain(player, prm[P_PAYDAY] * roll, cubes, players, peak)
                end_turn = True
            elif phase == DRAW:
                total = 0
                for i in range(n_cards):
                    total += pile[i]
                count = 0
                for i in range(n_cards):
                    if pile[i]:
                        probs[count] = pile[i] / total
                        scratch[count] = i
                        count += 1
                card = scratch[kr.sample_chance(chance, probs, count)]
                pile[card] -= 1
                before = cubes[player]
                kind = card_kind[card]
                amount = card_amount[card]
                if kind == CARD_GAIN:
                    after = before + amount
                elif kind == CARD_LOSE_ALL:
                    after = 0
                elif kind == CARD_LOSE_HALF:
                    after = before // 2
                else:
                    after = max(0, before - amount)
                    if amount > 0 and before - amount < 0:
                        ev[E_FLOOR] += 1
                card_net[player, kind] += after - before
                cubes[player] = after
                held = 0
                for p in range(players):
                    held += cubes[p]
                peak = max(peak, held)
                empty = True
                for i in range(n_cards):
                    if pile[i]:
                        empty = False
                if empty:
                    for i in range(n_cards):
                        pile[i] = card_qty[i]
                    ev[E_RESHUFFLE] += 1
                end_turn = True
            else:  # MOVE: the seat's bot decides
                m = _legal(prm, costs, meeple_at, pos, cubes, player, white, legal, scratch)
                action = _bot_step(kinds[g, player], prm, costs, meeple_at, msq, mcount, pos, cubes, player, white,
                                   legal, m, rng[1 + player])
                collect = action >= nn
                sq = action - nn if collect else action
                pos[player] = sq
                if collect:
                    kind = meeple_at[sq]
                    cost = costs[kind]
                    cubes[player] -= cost
                    meeples[player] += 1
                    donated[player] += cost
                    meeple_at[sq] = -1
                    j = 0
                    while msq[j] != sq:
                        j += 1
                    mcount -= 1
                    while j < mcount:
                        msq[j] = msq[j + 1]
                        j += 1
                    left -= 1
                    ev[E_COLLECT] += 1
                if (not collect or prm[P_INCOME_COLLECTING] != 0) and prm[P_INCOME] != 0:
                    peak = _gain(player, prm[P_INCOME], cubes, players, peak)
                    ev[E_INCOME] += 1
                end_turn = True
            if end_turn:  # PhilState._end_turn
                turns[player] += 1
                if left == 0:
                    ev[E_ALL_HELPED] += 1
                    phase = END
                else:
                    player = (player + 1) % players
                    phase = ACTION
                    if player == first:
                        rounds += 1
                        if rounds >= prm[P_TURN_LIMIT]:
                            limit_hit = 1
                            phase = END
        _outcome(g, prm, meeples, donated, cubes, turns, card_net, first, limit_hit, left, peak, ev, scores,
                 winners, length, metrics, events)


@_jit
def _key_greater(a: int, b: int, meeples: np.ndarray, second: np.ndarray) -> bool:
    return meeples[a] > meeples[b] or (meeples[a] == meeples[b] and second[a] > second[b])


@_jit
def _outcome(g: int, prm: np.ndarray, meeples: np.ndarray, donated: np.ndarray, cubes: np.ndarray,
             turns: np.ndarray, card_net: np.ndarray, first: int, limit_hit: int, left: int, peak: int,
             ev: np.ndarray, scores: np.ndarray, winners: np.ndarray, length: np.ndarray, metrics: np.ndarray,
             events: np.ndarray) -> None:
    """``PhilState.outcome`` into row g."""
    players = prm[P_PLAYERS]
    tie = prm[P_TIE]
    second = np.zeros(players, dtype=np.int64)
    for s in range(players):
        second[s] = donated[s] if tie == TIE_DONATED else cubes[s] if tie == TIE_CUBES else 0
    best = 0
    for s in range(1, players):
        if _key_greater(s, best, meeples, second):
            best = s
    n_won = 0
    for s in range(players):
        won = meeples[s] == meeples[best] and second[s] == second[best]
        winners[g, s] = won
        if won:
            n_won += 1
        scores[g, s] = float(meeples[s])
    longest = 0
    total_turns = 0
    top = meeples[0]
    for s in range(players):
        longest = max(longest, turns[s])
        total_turns += turns[s]
        top = max(top, meeples[s])
    at_top = 0
    for s in range(players):
        if meeples[s] == top:
            at_top += 1
    runner_value = -1  # sorted(meeples)[-2]: the top again when it is shared
    if at_top > 1:
        runner_value = top
    else:
        for s in range(players):
            if meeples[s] != top and meeples[s] > runner_value:
                runner_value = meeples[s]
    margin = float(top - runner_value) if players > 1 else 0.0
    length[g] = longest
    row = metrics[g]
    row[0] = float(longest)
    row[1] = float(total_turns)
    row[2] = float(limit_hit)
    row[3] = float(left)
    row[4] = float(peak)
    row[5] = 1.0 if peak > prm[P_SUPPLY] else 0.0
    row[6] = 1.0 if at_top > 1 else 0.0
    row[7] = margin
    for k in range(MAX_PLAYERS):
        row[M_POSITION + k] = 0.0
        if k < players and winners[g, (first + k) % players]:
            row[M_POSITION + k] = 1.0 / n_won
    # ranked = sorted(seats, key=ranking_key, reverse=True) (stable): the first seat of the best key, then the
    # first seat of the best key among the rest
    w = best
    runner = -1
    for s in range(players):
        if s == w:
            continue
        if runner < 0 or _key_greater(s, runner, meeples, second):
            runner = s
    row[M_CUBES_LEFT] = float(cubes[w])
    for i in range(4):
        row[M_DECIDED + i] = 0.0
        if n_won == 1 and players > 1:
            need = (int(margin) + 1) * prm[P_MIN_COST]
            edge = card_net[w, i] - card_net[runner, i]
            row[M_DECIDED + i] = 1.0 if edge >= need and edge > cubes[w] else 0.0
    for e in range(ev.shape[0]):
        events[g, e] = ev[e]
