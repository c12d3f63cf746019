"""The compiled (numba) body of ``rules.fast``: whole games of the Global Wellbeing Game in flat int arrays.

Importing this module imports numba and loads (or, the first time, compiles) the kernel; ``rules.fast`` does it
only when a batch is big enough to be worth it (``boardgen.play.kernels.KernelLoader``, which also keeps the
machine code in boardgen's cache folder). Every line mirrors the rules API's state machine (``rules.engine``),
``state.GameState`` and ``bots`` so that a game plays exactly as there
(tests/games/global_wellbeing/test_global_wellbeing_kernel.py):

- the dice and each seat's bot draw from their own CPython ``random.Random`` (MT19937 seeded by
  ``init_by_array`` from the seed's 32-bit words; ``random()`` from two words, 27 + 26 bits), re-implemented
  here word for word; the 624-word twist is done one word at a time as words are drawn (the same words);
- free cells, each player's frontier and each player's pieces are ``GameState``'s "indexed sets" (append; remove
  by swapping in the last item), in the same order, because the bots pick by position in those lists;
- the bots' choices follow their Python code step by step: the same candidates in the same order, the same
  ``sorted`` pools, a draw only where the Python bot draws (``_best`` draws only on a tie).

Nothing in here reads module globals that live elsewhere: numba's cache is keyed on this file only, so the event
order and every constant the kernel uses are spelled out below (``rules.fast`` checks them against the API).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardgen.play import kernels

# Every function is compiled without numba's reference counting (``_nrt=False``): the kernel allocates nothing
# (``new_state`` does, in Python), and counting references to the array arguments on every call cost a third of
# the time. The machine code is kept on disk in the folder ``KernelLoader`` names after this file (and the
# shared random streams' file, which every kernel's folder name includes).
compiled: Any = kernels.compiled(__file__, Path(kernels.__file__).with_name("kernel_random.py"), _nrt=False)

# ---------------------------------------------------------------------------------------------- constants

EVENTS = (
    "setup_first", "setup_adjacent", "setup_anywhere", "move", "move_anywhere", "move_pass", "harvest",
    "harvest_zero", "harvest_short", "invest", "invest_anywhere", "no_chips", "out_of_pieces", "out_of_cells",
    "stewardship_up", "stewardship_down", "stewardship_same", "stewardship_blocked", "tipping_up", "tipping_down",
    "tipping_same", "tipping_blocked", "badge_won", "badge_lost", "badge_past_max", "tie",
)  # fmt: skip  (must equal rules.engine.EVENTS: rules.fast checks)
E_SETUP_FIRST, E_SETUP_ADJ, E_SETUP_ANY, E_MOVE, E_MOVE_ANY, E_MOVE_PASS = 0, 1, 2, 3, 4, 5
E_HARVEST, E_HARVEST_ZERO, E_HARVEST_SHORT, E_INVEST, E_INVEST_ANY, E_NO_CHIPS = 6, 7, 8, 9, 10, 11
E_OUT_PIECES, E_OUT_CELLS, E_ST_UP, E_ST_DOWN, E_ST_SAME, E_ST_BLOCKED = 12, 13, 14, 15, 16, 17
E_TIP_UP, E_TIP_DOWN, E_TIP_SAME, E_TIP_BLOCKED, E_BADGE_WON, E_BADGE_LOST = 18, 19, 20, 21, 22, 23
E_BADGE_PAST_MAX, E_TIE = 24, 25

BOT_KINDS = ("random", "greedy", "planner")  # the codes 0, 1, 2 of ``kinds``
RANDOM, GREEDY, PLANNER = 0, 1, 2

# the rules, packed into one int array (``prm``) in this order
PARAMS = (
    "complex", "economy", "start_chips", "supply", "bank", "threshold", "can_be_lost", "divisor", "capped",
    "pieces_limited", "setup_rounds", "turns", "steward_first", "stewardship_every", "tipping_every", "tipping_die",
    "move_optional", "move_next", "rotates", "investments", "bot_threshold", "bot_badges",
)  # fmt: skip
(P_COMPLEX, P_ECONOMY, P_START_CHIPS, P_SUPPLY, P_BANK, P_THRESHOLD, P_CAN_LOSE, P_DIVISOR, P_CAPPED,
 P_PIECES_LIMITED, P_SETUP_ROUNDS, P_TURNS, P_STEWARD_FIRST, P_STEWARD_EVERY, P_TIPPING_EVERY, P_TIPPING_DIE,
 P_MOVE_OPTIONAL, P_MOVE_NEXT, P_ROTATES, P_INVESTMENTS, P_BOT_THRESHOLD, P_BOT_BADGES) = range(22)

# The state of a game lives in a few packed int64 arrays (numba passes every array argument by value, so a few
# arrays with rows beat many arrays): their rows, by name.
OWNER, FREE_ITEMS, FREE_POS, HOLDERS, ZONE, NBR_N = range(6)  # cell: (6, cells); ZONE and NBR_N read only
CELL_ROWS = 6
FRONT_ITEMS, FRONT_POS, ADJ, PIECE_ITEMS, PIECE_POS = range(5)  # pc: (5, players, cells)
ZONE_COUNT, BADGES = range(2)  # pz: (2, players, zones)
FRONT_N, PIECE_N, CHIPS, SUPPLY, RAN_OUT, TARGET, KIND = range(7)  # pl: (7, players)
INDEX, FREE_IN_ZONE, DICE, MINIMA, BOT_BADGE, BADGE_VALUE, START, FINAL = range(8)  # zn: (8, zones)
VALUES, EXPECTED, GAIN = range(3)  # fv: (3, cells + 1) float64 scratch
FREE_N, BANK = range(2)  # ctr: (2,)
# pool: (cells + 1,) int64 scratch; nbr: (cells, max neighbours), -1 padded

MT_N = 624
MT_LANES = 8  # generators per game, seeded in lock step: 0 the dice, 1 + p seat p's bot (7 used at most)
MASK32 = 0xFFFFFFFF


def mt_base() -> np.ndarray:
    """MT19937's ``init_genrand(19650218)``: the state ``init_by_array`` starts from, whatever the seed."""
    mt = np.zeros(MT_N, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, MT_N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32
    return mt


MT_BASE = mt_base()


# ---------------------------------------------------------------------------------------------- MT19937


@compiled
def _mt_seed(mt: np.ndarray, mt_pos: np.ndarray, keys: np.ndarray, key_lens: np.ndarray, base: np.ndarray) -> None:
    """CPython's ``init_by_array`` (``random.seed`` of an int: its 32-bit words, least significant first) for
    every lane r of ``mt`` (MT_N, MT_LANES) at once, from the words ``keys[r, :key_lens[r]]`` (at most MT_N)."""
    lanes = mt.shape[1]
    for i in range(MT_N):
        for r in range(lanes):
            mt[i, r] = base[i]
    for r in range(lanes):
        mt_pos[r] = 0  # the key position j of each lane
    i = 1
    for _ in range(MT_N):
        for r in range(lanes):
            prev = mt[i - 1, r]
            j = mt_pos[r]
            mt[i, r] = ((mt[i, r] ^ ((prev ^ (prev >> 30)) * 1664525)) + keys[r, j] + j) & MASK32
            mt_pos[r] = j + 1 if j + 1 < key_lens[r] else 0
        i += 1
        if i >= MT_N:
            for r in range(lanes):
                mt[0, r] = mt[MT_N - 1, r]
            i = 1
    for _ in range(MT_N - 1):
        for r in range(lanes):
            prev = mt[i - 1, r]
            mt[i, r] = ((mt[i, r] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            for r in range(lanes):
                mt[0, r] = mt[MT_N - 1, r]
            i = 1
    for r in range(lanes):
        mt[0, r] = 0x80000000
        mt_pos[r] = 0


@compiled
def _random(mt: np.ndarray, mt_pos: np.ndarray, g: int) -> float:
    """``random.Random.random()`` of lane g: two tempered words, 27 and 26 bits. Each state word is twisted
    just before it is used, which gives the same words as CPython's whole-array twist (the twist of word i reads
    words i + 1 and i + 397 before they are twisted, and words i - 227 after)."""
    a = 0
    for half in range(2):
        i = mt_pos[g]
        j = i + 1 if i < MT_N - 1 else 0
        k = i + 397 if i < MT_N - 397 else i + 397 - MT_N
        y = (mt[i, g] & 0x80000000) | (mt[j, g] & 0x7FFFFFFF)
        v = mt[k, g] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        mt[i, g] = v
        mt_pos[g] = j
        v ^= v >> 11
        v ^= (v << 7) & 0x9D2C5680
        v ^= (v << 15) & 0xEFC60000
        v ^= v >> 18
        if half == 0:
            a = v >> 5
        else:
            return (a * 67108864.0 + (v >> 6)) * (1.0 / 9007199254740992.0)
    return 0.0


def mt_randoms(seed_words: list[int], count: int) -> np.ndarray:
    """``count`` values of ``random.Random(seed).random()`` for the seed of these words (for tests)."""
    mt = np.zeros((MT_N, MT_LANES), dtype=np.int64)
    pos = np.zeros(MT_LANES, dtype=np.int64)
    keys = np.zeros((MT_LANES, len(seed_words)), dtype=np.int64)
    keys[:] = seed_words
    _mt_seed(mt, pos, keys, np.full(MT_LANES, len(seed_words), dtype=np.int64), MT_BASE)
    return np.array([_random(mt, pos, 3) for _ in range(count)])


# ---------------------------------------------------------------------------------------------- the state


@compiled
def _set_add(items: np.ndarray, pos: np.ndarray, size: int, x: int) -> int:
    """Append x to an indexed set (items[:size], pos[x] its position); returns the new size."""
    pos[x] = size
    items[size] = x
    return size + 1


@compiled
def _set_remove(items: np.ndarray, pos: np.ndarray, size: int, x: int) -> int:
    """Remove x from an indexed set by moving the last item into its place; returns the new size."""
    i = pos[x]
    last = items[size - 1]
    if last != x:
        items[i] = last
        pos[last] = i
    pos[x] = -1
    return size - 1


@compiled
def _place(p: int, c: int, cell: np.ndarray, nbr: np.ndarray, pc: np.ndarray, pz: np.ndarray, pl: np.ndarray,
           ctr: np.ndarray) -> None:
    """``GameState.place``."""
    owner = cell[OWNER]
    front_items, front_pos, front_n = pc[FRONT_ITEMS], pc[FRONT_POS], pl[FRONT_N]
    owner[c] = p
    ctr[FREE_N] = _set_remove(cell[FREE_ITEMS], cell[FREE_POS], ctr[FREE_N], c)
    for q in range(front_n.shape[0]):
        if front_pos[q, c] >= 0:
            front_n[q] = _set_remove(front_items[q], front_pos[q], front_n[q], c)
    pl[PIECE_N, p] = _set_add(pc[PIECE_ITEMS, p], pc[PIECE_POS, p], pl[PIECE_N, p], c)
    pz[ZONE_COUNT, p, cell[ZONE, c]] += 1
    adj = pc[ADJ, p]
    for t in range(cell[NBR_N, c]):
        m = nbr[c, t]
        adj[m] += 1
        if adj[m] == 1 and owner[m] < 0:
            front_n[p] = _set_add(front_items[p], front_pos[p], front_n[p], m)
    cell[HOLDERS, c] |= 1 << p


@compiled
def _lift(p: int, c: int, cell: np.ndarray, nbr: np.ndarray, pc: np.ndarray, pz: np.ndarray, pl: np.ndarray,
          ctr: np.ndarray) -> None:
    """``GameState.lift``."""
    front_items, front_pos, front_n = pc[FRONT_ITEMS], pc[FRONT_POS], pl[FRONT_N]
    cell[OWNER, c] = -1
    ctr[FREE_N] = _set_add(cell[FREE_ITEMS], cell[FREE_POS], ctr[FREE_N], c)
    pl[PIECE_N, p] = _set_remove(pc[PIECE_ITEMS, p], pc[PIECE_POS, p], pl[PIECE_N, p], c)
    pz[ZONE_COUNT, p, cell[ZONE, c]] -= 1
    adj = pc[ADJ, p]
    for t in range(cell[NBR_N, c]):
        m = nbr[c, t]
        adj[m] -= 1
        if adj[m] == 0 and front_pos[p, m] >= 0:
            front_n[p] = _set_remove(front_items[p], front_pos[p], front_n[p], m)
    for q in range(front_n.shape[0]):
        if pc[ADJ, q, c] > 0:
            front_n[q] = _set_add(front_items[q], front_pos[q], front_n[q], c)


@compiled
def _destinations(p: int, src: int, cell: np.ndarray, pc: np.ndarray, pl: np.ndarray, ctr: np.ndarray
                  ) -> tuple[np.ndarray, int, int]:
    """``GameState.destinations`` as (list, its length, the position of ``src`` to skip or -1): the player's
    frontier, or every free cell when the frontier is empty."""
    if pl[FRONT_N, p] > 0:
        return pc[FRONT_ITEMS, p], pl[FRONT_N, p], pc[FRONT_POS, p, src] if src >= 0 else -1
    return cell[FREE_ITEMS], ctr[FREE_N], cell[FREE_POS, src] if src >= 0 else -1


@compiled
def _sort_head(a: np.ndarray, m: int) -> None:
    """Sort a[:m] in place (small pools: insertion sort)."""
    for i in range(1, m):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


# ---------------------------------------------------------------------------------------------- bots


@compiled
def _pick_tied(p: int, items: np.ndarray, length: int, skip: int, values: np.ndarray, zone_of: np.ndarray,
               mt: np.ndarray, mt_pos: np.ndarray) -> int:
    """``bots._best``: the cell of the highest value, drawn among the tied cells (in list order) if several.
    ``values`` is per zone when ``zone_of`` is not empty (``GreedyBot.cell_gain`` depends only on the zone),
    else per list position."""
    by_zone = zone_of.shape[0] > 0
    best = -np.inf
    tied = 0
    for j in range(length):
        if j == skip:
            continue
        v = values[zone_of[items[j]]] if by_zone else values[j]
        if v > best:
            best = v
            tied = 1
        elif v == best:
            tied += 1
    k = int(_random(mt, mt_pos, 1 + p) * tied) if tied > 1 else 0
    for j in range(length):
        if j == skip:
            continue
        v = values[zone_of[items[j]]] if by_zone else values[j]
        if v == best:
            if k == 0:
                return items[j]
            k -= 1
    return -1


@compiled
def _random_cell(p: int, src: int, cell: np.ndarray, pc: np.ndarray, pl: np.ndarray, ctr: np.ndarray,
                 mt: np.ndarray, mt_pos: np.ndarray) -> int:
    """``RandomBot.choose_cell``: position int(random() x length) of the destinations (``src`` left out)."""
    items, length, skip = _destinations(p, src, cell, pc, pl, ctr)
    if skip >= 0:
        length -= 1
    k = int(_random(mt, mt_pos, 1 + p) * length)
    if 0 <= skip <= k:
        k += 1
    return items[k]


@compiled
def _greedy_cell(p: int, src: int, threshold: int, badges_on: bool, cell: np.ndarray, pc: np.ndarray,
                 pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, fv: np.ndarray, ctr: np.ndarray, mt: np.ndarray,
                 mt_pos: np.ndarray) -> int:
    """``GreedyBot.choose_cell``, its gain computed once per zone."""
    gain = fv[GAIN]
    for z in range(zn.shape[1]):
        v = float(zn[INDEX, z])
        if badges_on and pz[BADGES, p, z] == 0 and pz[ZONE_COUNT, p, z] + 1 == threshold:
            v += zn[BOT_BADGE, z] * threshold
        gain[z] = v
    items, length, skip = _destinations(p, src, cell, pc, pl, ctr)
    return _pick_tied(p, items, length, skip, gain, cell[ZONE], mt, mt_pos)


@compiled
def _greedy_move(p: int, must: bool, threshold: int, cell: np.ndarray, pc: np.ndarray, pz: np.ndarray,
                 pl: np.ndarray, zn: np.ndarray, pool: np.ndarray, ctr: np.ndarray, mt: np.ndarray,
                 mt_pos: np.ndarray) -> int:
    """``GreedyBot.choose_move_piece`` (-1: stay)."""
    index, zone_of = zn[INDEX], cell[ZONE]
    pieces, n_pieces = pc[PIECE_ITEMS, p], pl[PIECE_N, p]
    worst = 1 << 62
    for j in range(n_pieces):
        v = index[zone_of[pieces[j]]]
        if v < worst:
            worst = v
    items, length, _ = _destinations(p, -1, cell, pc, pl, ctr)
    best = -1
    for j in range(length):
        v = index[zone_of[items[j]]]
        if v > best:
            best = v
    if best <= worst and not must:
        return -1
    m = 0
    for j in range(n_pieces):  # safe candidates: not a piece holding a badge at exactly the threshold
        c = pieces[j]
        if index[zone_of[c]] == worst and pz[ZONE_COUNT, p, zone_of[c]] != threshold:
            pool[m] = c
            m += 1
    if m == 0:
        for j in range(n_pieces):
            c = pieces[j]
            if index[zone_of[c]] == worst:
                pool[m] = c
                m += 1
    _sort_head(pool, m)
    return pool[int(_random(mt, mt_pos, 1 + p) * m)]


@compiled
def _planner_target(p: int, threshold: int, badges_on: bool, cell: np.ndarray, pz: np.ndarray, zn: np.ndarray,
                    ctr: np.ndarray) -> int:
    """``PlannerBot._pick_target``."""
    fiz, zone_of, free_items = zn[FREE_IN_ZONE], cell[ZONE], cell[FREE_ITEMS]
    fiz[:] = 0
    for j in range(ctr[FREE_N]):
        fiz[zone_of[free_items[j]]] += 1
    best_z, best_v = -1, -1.0
    for z in range(zn.shape[1]):
        if pz[BADGES, p, z]:
            continue
        need = threshold - pz[ZONE_COUNT, p, z]
        if need > fiz[z]:
            continue
        badge = zn[BOT_BADGE, z] if badges_on else 0
        room = fiz[z] if fiz[z] < 3 * threshold else 3 * threshold
        value = (zn[INDEX, z] + badge) * room / (need if need > 1 else 1)
        if value > best_v:
            best_z, best_v = z, value
    return best_z


@compiled
def _planner_prepare(p: int, threshold: int, badges_on: bool, cell: np.ndarray, pz: np.ndarray, pl: np.ndarray,
                     zn: np.ndarray, fv: np.ndarray, ctr: np.ndarray) -> None:
    """The planner's target (a new one when it has none or holds its badge) and ``_expected_index`` in fv."""
    t = pl[TARGET, p]
    if t < 0 or pz[BADGES, p, t]:
        pl[TARGET, p] = _planner_target(p, threshold, badges_on, cell, pz, zn, ctr)
    expected = fv[EXPECTED]
    n_zones = zn.shape[1]
    for z in range(n_zones):
        expected[z] = float(zn[INDEX, z])
    if badges_on:
        near = threshold - 2
        for q in range(pl.shape[1]):
            for z in range(n_zones):
                if pz[BADGES, q, z] or pz[ZONE_COUNT, q, z] >= near:
                    expected[z] += zn[BOT_BADGE, z]


@compiled
def _planner_score(p: int, c: int, threshold: int, badges_on: bool, cell: np.ndarray, pc: np.ndarray,
                   pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, fv: np.ndarray) -> float:
    """``PlannerBot._score`` (``_planner_prepare`` done)."""
    z = cell[ZONE, c]
    value = fv[EXPECTED, z]
    if z == pl[TARGET, p]:
        value += 1.5
    count = pz[ZONE_COUNT, p, z]
    if badges_on and pz[BADGES, p, z] == 0 and count + 1 == threshold:
        value += zn[BOT_BADGE, z] * threshold
    a = pc[ADJ, p, c]
    value += 0.25 * (a if a < 3 else 3)
    if count < threshold - 2:
        for q in range(pl.shape[1]):
            if q != p and pc[ADJ, q, c] and pz[BADGES, q, z] == 0 and pz[ZONE_COUNT, q, z] >= threshold - 2:
                value += 1.0
                break
    return value


@compiled
def _planner_move(p: int, must: bool, threshold: int, badges_on: bool, cell: np.ndarray, pc: np.ndarray,
                  pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, fv: np.ndarray, pool: np.ndarray,
                  ctr: np.ndarray, mt: np.ndarray, mt_pos: np.ndarray) -> int:
    """``PlannerBot.choose_move_piece`` (-1: stay)."""
    _planner_prepare(p, threshold, badges_on, cell, pz, pl, zn, fv, ctr)
    pieces, n_pieces = pc[PIECE_ITEMS, p], pl[PIECE_N, p]
    target, expected, values = pl[TARGET, p], fv[EXPECTED], fv[VALUES]
    worst = np.inf
    for j in range(n_pieces):
        z = cell[ZONE, pieces[j]]
        v = expected[z]
        if z == target:
            v += 1.5
        count = pz[ZONE_COUNT, p, z]
        if count <= threshold and (pz[BADGES, p, z] or count >= threshold - 2):
            v += 100.0  # a piece that holds or nearly holds a badge stays
        values[j] = v
        if v < worst:
            worst = v
    items, length, _ = _destinations(p, -1, cell, pc, pl, ctr)
    best = -1.0 if length == 0 else -np.inf
    for j in range(length):
        v = _planner_score(p, items[j], threshold, badges_on, cell, pc, pz, pl, zn, fv)
        if v > best:
            best = v
    if best <= worst + 0.5 and not must:
        return -1
    m = 0
    for j in range(n_pieces):
        if values[j] == worst:
            pool[m] = pieces[j]
            m += 1
    _sort_head(pool, m)
    return pool[int(_random(mt, mt_pos, 1 + p) * m)]


@compiled
def _planner_cell(p: int, src: int, threshold: int, badges_on: bool, cell: np.ndarray, nbr: np.ndarray,
                  pc: np.ndarray, pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, fv: np.ndarray,
                  pool: np.ndarray, ctr: np.ndarray, mt: np.ndarray, mt_pos: np.ndarray) -> int:
    """``PlannerBot.choose_cell``."""
    _planner_prepare(p, threshold, badges_on, cell, pz, pl, zn, fv, ctr)
    items, length, skip = _destinations(p, src, cell, pc, pl, ctr)
    target, owner, zone_of = pl[TARGET, p], cell[OWNER], cell[ZONE]
    if pl[PIECE_N, p] == 0 and target >= 0:
        # first piece: a free cell of the target zone with the most free target-zone neighbours
        top = -1
        m = 0
        for j in range(length):
            c = items[j]
            if j == skip or zone_of[c] != target:
                continue
            score = 0
            for t in range(cell[NBR_N, c]):
                n = nbr[c, t]
                if owner[n] < 0 and zone_of[n] == target:
                    score += 1
            if score > top:
                top = score
                m = 0
            if score == top:
                pool[m] = c
                m += 1
        if m > 0:
            _sort_head(pool, m)
            return pool[int(_random(mt, mt_pos, 1 + p) * m)]
    values = fv[VALUES]
    for j in range(length):
        if j != skip:
            values[j] = _planner_score(p, items[j], threshold, badges_on, cell, pc, pz, pl, zn, fv)
    return _pick_tied(p, items, length, skip, values, zone_of[:0], mt, mt_pos)


@compiled
def _choose_cell(p: int, src: int, threshold: int, badges_on: bool, cell: np.ndarray, nbr: np.ndarray,
                 pc: np.ndarray, pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, fv: np.ndarray, pool: np.ndarray,
                 ctr: np.ndarray, mt: np.ndarray, mt_pos: np.ndarray) -> int:
    """Seat p's bot's ``choose_cell`` (``src``: the lifted piece's cell, not a destination; -1 none)."""
    kind = pl[KIND, p]
    if kind == RANDOM:
        return _random_cell(p, src, cell, pc, pl, ctr, mt, mt_pos)
    if kind == GREEDY:
        return _greedy_cell(p, src, threshold, badges_on, cell, pc, pz, pl, zn, fv, ctr, mt, mt_pos)
    return _planner_cell(p, src, threshold, badges_on, cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos)


@compiled
def _choose_move(p: int, must: bool, threshold: int, badges_on: bool, cell: np.ndarray, pc: np.ndarray,
                 pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, fv: np.ndarray, pool: np.ndarray, ctr: np.ndarray,
                 mt: np.ndarray, mt_pos: np.ndarray) -> int:
    """Seat p's bot's ``choose_move_piece`` (-1: stay)."""
    kind = pl[KIND, p]
    if kind == RANDOM:
        return pc[PIECE_ITEMS, p, int(_random(mt, mt_pos, 1 + p) * pl[PIECE_N, p])]
    if kind == GREEDY:
        return _greedy_move(p, must, threshold, cell, pc, pz, pl, zn, pool, ctr, mt, mt_pos)
    return _planner_move(p, must, threshold, badges_on, cell, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos)


# ---------------------------------------------------------------------------------------------- the rules


@compiled
def _check_badges(p: int, threshold: int, can_be_lost: bool, pz: np.ndarray, events: np.ndarray) -> None:
    """``api.check_badges``."""
    for z in range(pz.shape[2]):
        if pz[BADGES, p, z] == 0:
            if pz[ZONE_COUNT, p, z] >= threshold:
                pz[BADGES, p, z] = 1
                events[E_BADGE_WON] += 1
        elif can_be_lost and pz[ZONE_COUNT, p, z] < threshold:
            pz[BADGES, p, z] = 0
            events[E_BADGE_LOST] += 1


@compiled
def _stewardship(zn: np.ndarray, mt: np.ndarray, mt_pos: np.ndarray, events: np.ndarray) -> None:
    """Stewardship (``api.steward_roll``): each zone's die in zone order."""
    for z in range(zn.shape[1]):
        die = zn[DICE, z]
        roll = 1 + int(_random(mt, mt_pos, 0) * die)
        value = zn[INDEX, z]
        if roll > value:
            if value < die:
                zn[INDEX, z] = value + 1
                events[E_ST_UP] += 1
            else:
                events[E_ST_BLOCKED] += 1
        elif roll < value:
            if value > zn[MINIMA, z]:
                zn[INDEX, z] = value - 1
                events[E_ST_DOWN] += 1
            else:
                events[E_ST_BLOCKED] += 1
        else:
            events[E_ST_SAME] += 1


@compiled
def _tipping(die: int, zn: np.ndarray, mt: np.ndarray, mt_pos: np.ndarray, events: np.ndarray) -> None:
    """The tipping point (``api.tipping_apply``): one roll against the sum of the indices."""
    roll = 1 + int(_random(mt, mt_pos, 0) * die)
    total = 0
    for z in range(zn.shape[1]):
        total += zn[INDEX, z]
    if roll == total:
        events[E_TIP_SAME] += 1
        return
    step = 1 if roll > total else -1
    events[E_TIP_UP if step > 0 else E_TIP_DOWN] += 1
    for z in range(zn.shape[1]):
        value = zn[INDEX, z] + step
        if zn[MINIMA, z] <= value <= zn[DICE, z]:
            zn[INDEX, z] = value
        else:
            events[E_TIP_BLOCKED] += 1


@compiled
def _harvest(p: int, divisor: int, capped: bool, pz: np.ndarray, pl: np.ndarray, zn: np.ndarray, ctr: np.ndarray,
             events: np.ndarray) -> None:
    """``api.harvest``."""
    total = 0
    for z in range(zn.shape[1]):
        total += pz[ZONE_COUNT, p, z] * zn[INDEX, z]
    due = total // divisor
    if due > 0:
        if capped and due > ctr[BANK]:
            events[E_HARVEST_SHORT] += 1
            due = ctr[BANK]
        pl[CHIPS, p] += due
        if capped:
            ctr[BANK] -= due
        if due > 0:
            events[E_HARVEST] += 1
    else:
        events[E_HARVEST_ZERO] += 1


@compiled
def _leaders(complex_game: bool, pz: np.ndarray, zn: np.ndarray) -> int:
    """``api.leaders_mask``: bit p set for every seat with the top score if the game ended now."""
    n_players, n_zones = pz.shape[1], pz.shape[2]
    final = zn[FINAL]
    for z in range(n_zones):
        final[z] = zn[INDEX, z]
        if complex_game and zn[BADGE_VALUE, z]:
            holders = 0
            for q in range(n_players):
                holders += pz[BADGES, q, z]
            final[z] += zn[BADGE_VALUE, z] * holders
    best = -(1 << 62)
    mask = 0
    for p in range(n_players):
        score = 0
        for z in range(n_zones):
            score += pz[ZONE_COUNT, p, z] * final[z]
        if score > best:
            best = score
            mask = 1 << p
        elif score == best:
            mask |= 1 << p
    return mask


@compiled
def _play_game(prm: np.ndarray, cell: np.ndarray, nbr: np.ndarray, pc: np.ndarray, pz: np.ndarray, pl: np.ndarray,
               zn: np.ndarray, fv: np.ndarray, pool: np.ndarray, ctr: np.ndarray, mt: np.ndarray,
               mt_pos: np.ndarray, events: np.ndarray, traj: np.ndarray, leaders: np.ndarray) -> None:
    """A game (``api.WellbeingState``) from a fresh state to the end of the last turn (scoring: ``play_games``)."""
    n_players = pl.shape[1]
    complex_game = prm[P_COMPLEX] != 0
    economy = prm[P_ECONOMY] != 0
    threshold = prm[P_THRESHOLD]
    can_be_lost = prm[P_CAN_LOSE] != 0
    divisor = prm[P_DIVISOR]
    capped = prm[P_CAPPED] != 0
    pieces_limited = prm[P_PIECES_LIMITED] != 0
    must = prm[P_MOVE_OPTIONAL] == 0
    move_next = prm[P_MOVE_NEXT] != 0
    steward_first = prm[P_STEWARD_FIRST] != 0
    bt = prm[P_BOT_THRESHOLD]
    bb = prm[P_BOT_BADGES] != 0
    chips, supply, ran_out = pl[CHIPS], pl[SUPPLY], pl[RAN_OUT]

    # ---- setup: rounds of one piece each, in seat order
    for _ in range(prm[P_SETUP_ROUNDS]):
        for p in range(n_players):
            if complex_game and chips[p] <= 0:
                events[E_NO_CHIPS] += 1
                continue
            if supply[p] <= 0:
                ran_out[p] |= 1
                events[E_OUT_PIECES] += 1
                continue
            if ctr[FREE_N] == 0:
                ran_out[p] |= 2
                events[E_OUT_CELLS] += 1
                continue
            first = pl[PIECE_N, p] == 0
            adjacent = pl[FRONT_N, p] > 0
            c = _choose_cell(p, -1, bt, bb, cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos)
            _place(p, c, cell, nbr, pc, pz, pl, ctr)
            events[E_SETUP_FIRST if first else (E_SETUP_ADJ if adjacent else E_SETUP_ANY)] += 1
            supply[p] -= 1
            if complex_game:
                chips[p] -= 1
                ctr[BANK] += 1
                _check_badges(p, threshold, can_be_lost, pz, events)

    # ---- turns
    for z in range(zn.shape[1]):
        traj[0, z] = zn[INDEX, z]
    leaders[0] = _leaders(complex_game, pz, zn)
    for turn in range(1, prm[P_TURNS] + 1):
        first_seat = (turn - 1) % n_players if prm[P_ROTATES] else 0
        for k in range(n_players):
            p = (first_seat + k) % n_players
            # (a) move one piece
            can_move = pl[PIECE_N, p] > 0 and (ctr[FREE_N] > 0 or move_next)
            src = _choose_move(p, must, bt, bb, cell, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos) if can_move else -1
            if src < 0:
                events[E_MOVE_PASS] += 1
            elif move_next:
                _lift(p, src, cell, nbr, pc, pz, pl, ctr)
                _, length, skip = _destinations(p, src, cell, pc, pl, ctr)
                if length == (1 if skip >= 0 else 0):  # nowhere else to go: the piece stays, a pass
                    _place(p, src, cell, nbr, pc, pz, pl, ctr)
                    events[E_MOVE_PASS] += 1
                else:
                    adjacent = pl[FRONT_N, p] > 0
                    c = _choose_cell(p, src, bt, bb, cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos)
                    _place(p, c, cell, nbr, pc, pz, pl, ctr)
                    events[E_MOVE if adjacent else E_MOVE_ANY] += 1
            else:
                adjacent = pl[FRONT_N, p] > 0
                c = _choose_cell(p, -1, bt, bb, cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos)
                _lift(p, src, cell, nbr, pc, pz, pl, ctr)
                _place(p, c, cell, nbr, pc, pz, pl, ctr)
                events[E_MOVE if adjacent else E_MOVE_ANY] += 1
            if economy:
                # (b) harvest
                _harvest(p, divisor, capped, pz, pl, zn, ctr, events)
                # (c) invest
                for _ in range(prm[P_INVESTMENTS]):
                    if chips[p] <= 0:
                        events[E_NO_CHIPS] += 1
                        break
                    if pieces_limited and supply[p] <= 0:
                        ran_out[p] |= 1
                        events[E_OUT_PIECES] += 1
                        break
                    if ctr[FREE_N] == 0:
                        ran_out[p] |= 2
                        events[E_OUT_CELLS] += 1
                        break
                    adjacent = pl[FRONT_N, p] > 0
                    c = _choose_cell(p, -1, bt, bb, cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos)
                    _place(p, c, cell, nbr, pc, pz, pl, ctr)
                    events[E_INVEST if adjacent else E_INVEST_ANY] += 1
                    chips[p] -= 1
                    ctr[BANK] += 1
                    if supply[p] > 0:  # (unlimited pieces: proxies once the printed ones are out)
                        supply[p] -= 1
            if complex_game:
                _check_badges(p, threshold, can_be_lost, pz, events)
        steward = turn % prm[P_STEWARD_EVERY] == 0
        tipping = turn % prm[P_TIPPING_EVERY] == 0
        if steward and steward_first:
            _stewardship(zn, mt, mt_pos, events)
        if tipping:
            _tipping(prm[P_TIPPING_DIE], zn, mt, mt_pos, events)
        if steward and not steward_first:
            _stewardship(zn, mt, mt_pos, events)
        for z in range(zn.shape[1]):
            traj[turn, z] = zn[INDEX, z]
        leaders[turn] = _leaders(complex_game, pz, zn)


@compiled
def play_games(prm: np.ndarray, kinds: np.ndarray, keys: np.ndarray, key_lens: np.ndarray, base: np.ndarray,
               cell: np.ndarray, nbr: np.ndarray, pc: np.ndarray, pz: np.ndarray, pl: np.ndarray, zn: np.ndarray,
               fv: np.ndarray, pool: np.ndarray, ctr: np.ndarray, mt: np.ndarray, mt_pos: np.ndarray,
               out_scores: np.ndarray, out_winners: np.ndarray, out_pieces: np.ndarray, out_chips: np.ndarray,
               out_final: np.ndarray, out_end: np.ndarray, out_badges: np.ndarray, out_traj: np.ndarray,
               out_leaders: np.ndarray, out_events: np.ndarray, out_ran_out: np.ndarray,
               out_cells: np.ndarray) -> None:
    """Play ``kinds.shape[0]`` games: game g's seat p is bot ``kinds[g, p]`` (``BOT_KINDS``); lane r of game
    g's generators (0 the dice, 1 + p seat p's bot) is seeded with the words ``keys[g, r, :key_lens[g, r]]``
    (``base``: ``MT_BASE``). The state arrays (see the row names above; ``new_state``) are reset for every
    game; results go into row g of the out arrays (``out_cells``: bit 0 occupied at the end, bit 1 contested)."""
    n_games, n_players = kinds.shape
    n_cells, n_zones = cell.shape[1], zn.shape[1]
    complex_game = prm[P_COMPLEX] != 0
    for g in range(n_games):
        _mt_seed(mt, mt_pos, keys[g], key_lens[g], base)
        for c in range(n_cells):
            cell[OWNER, c] = -1
            cell[FREE_ITEMS, c] = c
            cell[FREE_POS, c] = c
            cell[HOLDERS, c] = 0
        pc[FRONT_POS] = -1
        pc[PIECE_POS] = -1
        pc[ADJ] = 0
        pz[:] = 0
        for p in range(n_players):
            pl[FRONT_N, p] = 0
            pl[PIECE_N, p] = 0
            pl[CHIPS, p] = prm[P_START_CHIPS]
            pl[SUPPLY, p] = prm[P_SUPPLY]
            pl[RAN_OUT, p] = 0
            pl[TARGET, p] = -1
            pl[KIND, p] = kinds[g, p]
        for z in range(n_zones):
            zn[INDEX, z] = zn[START, z]
        ctr[FREE_N] = n_cells
        ctr[BANK] = prm[P_BANK]
        events = out_events[g]
        events[:] = 0
        _play_game(prm, cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt, mt_pos, events, out_traj[g], out_leaders[g])

        # ---- scoring (api.final_scores)
        for z in range(n_zones):
            out_end[g, z] = zn[INDEX, z]
            final = zn[INDEX, z]
            if complex_game:
                holders = 0
                for p in range(n_players):
                    holders += pz[BADGES, p, z]
                final += holders * zn[BADGE_VALUE, z]
                if final > zn[DICE, z]:
                    events[E_BADGE_PAST_MAX] += 1
            out_final[g, z] = final
        best = -(1 << 62)
        for p in range(n_players):
            score = 0
            for z in range(n_zones):
                score += pz[ZONE_COUNT, p, z] * out_final[g, z]
            out_scores[g, p] = score
            if score > best:
                best = score
        mask = 0
        winners = 0
        for p in range(n_players):
            if out_scores[g, p] == best:
                mask |= 1 << p
                winners += 1
        out_winners[g] = mask
        if winners > 1:
            events[E_TIE] += 1
        for p in range(n_players):
            out_pieces[g, p] = pl[PIECE_N, p]
            out_chips[g, p] = pl[CHIPS, p]
            out_ran_out[g, p] = pl[RAN_OUT, p]
            for z in range(n_zones):
                out_badges[g, p, z] = pz[BADGES, p, z]
        for c in range(n_cells):
            h = cell[HOLDERS, c]
            out_cells[g, c] = (1 if cell[OWNER, c] >= 0 else 0) | (2 if h & (h - 1) else 0)


def new_state(neighbours: np.ndarray, neighbour_counts: np.ndarray, zone_of: np.ndarray, dice: np.ndarray,
              minima: np.ndarray, start_index: np.ndarray, badge_value: np.ndarray, bot_badge: np.ndarray,
              n_players: int) -> tuple[np.ndarray, ...]:
    """The state arrays ``play_games`` takes after ``base`` (cell, nbr, pc, pz, pl, zn, fv, pool, ctr, mt,
    mt_pos), with the board's read-only rows filled in. The kernel itself never allocates."""
    n_cells, n_zones = zone_of.shape[0], dice.shape[0]
    cell = np.zeros((CELL_ROWS, n_cells), np.int64)
    cell[ZONE] = zone_of
    cell[NBR_N] = neighbour_counts
    zn = np.zeros((8, n_zones), np.int64)
    zn[DICE], zn[MINIMA], zn[START] = dice, minima, start_index
    zn[BOT_BADGE], zn[BADGE_VALUE] = bot_badge, badge_value
    return (
        cell, np.ascontiguousarray(neighbours, dtype=np.int64),
        np.zeros((5, n_players, n_cells), np.int64), np.zeros((2, n_players, n_zones), np.int64),
        np.zeros((7, n_players), np.int64), zn, np.zeros((3, max(n_cells, n_zones) + 1), np.float64),
        np.zeros(n_cells + 1, np.int64), np.zeros(2, np.int64),
        np.zeros((MT_N, MT_LANES), np.int64), np.zeros(MT_LANES, np.int64),
    )
