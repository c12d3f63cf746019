"""Global Warming's compiled (numba) kernel: whole games with the random, greedy and cautious bots over one flat
int64 array per state, playing exactly the games ``boardgen.play.simulate.play_one`` plays through the rules API.

The API engine (``engine.GWState``) is the reference; every function here mirrors it line for line so that the
same seeds give the same game: the legal actions in the same order, the chance outcomes as ``sample_chance``
sums them, the bots' draws from their own ``random.Random`` streams (``boardgen.play.kernel_random``) at the
same places, and the bots' scores added in the same order (``bots.danger`` / ``position_value``, the generic
``GreedyBot`` with its three samples per action and random rivals at the dice, and the cautious bot's six trial
turns per die face, played here by the same compiled rules). A test plays both paths and compares every field.

Importing this module imports numba and loads (the first time: compiles, about a minute) the kernel; the plug-in
imports it only for batches big enough to pay for that (``kernel_games``).
"""

from __future__ import annotations

import math
import sys
from collections import namedtuple
from typing import Any

import numpy as np

from boardgen.play import kernel_random
from boardgen.play.kernel_random import random as mt_random
from boardgen.play.kernel_random import sample_chance, sample_uniform_chance
from boardgen.play.kernels import compiled

_jit = compiled(__file__, kernel_random.__file__)

TILES = 24
RANKS = 6
FACES = 6
PASS = 6
PAWN_BASE = 7
PICK_BASE = PAWN_BASE + 16
PLACE_BASE = PICK_BASE + TILES
MAX_CELLS = 21 * 21  # sea_margin <= 8
MAX_PLAYERS = 4

# phases (engine: place, pawns, line, choose, act, draw, over)
PH_PLACE, PH_PAWNS, PH_LINE, PH_CHOOSE, PH_ACT, PH_DRAW, PH_OVER = range(7)

EVENTS = ("cancelled-die", "tile-move", "blank-pass", "pawn-move", "rival-pawn-move", "forfeit", "drowned",
          "island-split", "moved-tile-sinks", "bag-empty", "empty-sink")  # engine.GWState.events, in order
(E_CANCEL, E_TILE_MOVE, E_BLANK_PASS, E_PAWN_MOVE, E_RIVAL_MOVE, E_FORFEIT, E_DROWNED, E_SPLIT, E_MOVED_SINKS,
 E_BAG_EMPTY, E_EMPTY_SINK) = range(11)
N_EVENTS = 11
METRICS = ("turns", "cancel_share", "tile_moves", "pawn_moves", "rival_pawn_moves", "empty_sinks",
           "first_drowning_turn", "inner_start_seats", "inner_start_win", "outer_start_win")

BOT_KINDS = ("random", "greedy", "cautious")  # codes 0, 1, 2
RANDOM, GREEDY, CAUTIOUS = 0, 1, 2

# the state array: scalars, then per-seat, per-tile and per-cell rows
PHASE, TURN, MOVES_LEFT, PICKED, Q_LEN, Q_HEAD, LINE_LEN, BAG_N, PLACED_N, ELIM_N, CHOICES, PAWNS_N = range(12)
EV = 16
Q_SEAT = EV + 16
Q_FACE = Q_SEAT + MAX_PLAYERS
ALIVE = Q_FACE + MAX_PLAYERS
PAWN_TILE = ALIVE + MAX_PLAYERS
START_INNER = PAWN_TILE + MAX_PLAYERS
ELIM_SEAT = START_INNER + MAX_PLAYERS
ELIM_TURN = ELIM_SEAT + MAX_PLAYERS
LINE_COIN = ELIM_TURN + MAX_PLAYERS
LINE_FACE = LINE_COIN + TILES
TILE_CELL = LINE_FACE + TILES
TILE_PAWN = TILE_CELL + TILES
IN_BAG = TILE_PAWN + TILES
UNPLACED = IN_BAG + TILES
MOVED = UNPLACED + TILES
CELL_TILE = MOVED + TILES
STATE_SIZE = CELL_TILE + MAX_CELLS

# the game's numbers (int array ``gi``) and the bots' (float array ``gf``)
G_SIZE, G_PLAYERS, G_LINE_LENGTH, G_BLANK_MAY_PASS, G_NEUMAIER = range(5)
G_ORDER = 8  # order rank of die faces 0..5 (6 entries)
G_INTS = G_ORDER + 6
F_VALUE_UP, F_TEMPERATURE, F_LATE_BONUS, F_MOBILITY, F_TRAPPED, F_RIVAL, F_N_WEIGHTS = range(7)
F_WEIGHTS = 8  # danger weights (up to 6)
F_FLOATS = F_WEIGHTS + 6


# ---------------------------------------------------------------------------------------------- the rules


@_jit
def new_game(s: np.ndarray, gi: np.ndarray) -> None:
    """``GWState.__init__``."""
    s[:] = 0
    s[PHASE] = PH_PLACE
    s[PICKED] = -1
    for c in range(MAX_CELLS):
        s[CELL_TILE + c] = -1
    for t in range(TILES):
        s[TILE_CELL + t] = -1
        s[TILE_PAWN + t] = -1
        s[IN_BAG + t] = 1
        s[UNPLACED + t] = 1
    s[BAG_N] = TILES
    for p in range(MAX_PLAYERS):
        s[PAWN_TILE + p] = -1
        s[ALIVE + p] = 1 if p < gi[G_PLAYERS] else 0


@_jit
def destinations(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, tile: int, out: np.ndarray) -> int:
    """``GWState.destinations``: empty cells sharing an edge with a tile other than ``tile``, ascending."""
    n = 0
    cells = gi[G_SIZE] * gi[G_SIZE]
    for cell in range(cells):
        if s[CELL_TILE + cell] >= 0:
            continue
        for d in range(4):
            other = nbr[cell, d]
            if other < 0:
                continue
            o = s[CELL_TILE + other]
            if o >= 0 and o != tile:
                out[n] = cell
                n += 1
                break
    return n


FRONT = 128  # the frontier (empty cells beside a tile) holds at most 4 x 24 cells


@_jit
def frontier(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, cells: np.ndarray, counts: np.ndarray) -> int:
    """The empty cells beside at least one tile, ascending, each with how many tiles it touches: a tile's
    destinations are those that touch a tile other than it (``tile_destinations``), one pass for all tiles."""
    m = 0
    for cell in range(gi[G_SIZE] * gi[G_SIZE]):
        if s[CELL_TILE + cell] >= 0:
            continue
        k = 0
        for d in range(4):
            o = nbr[cell, d]
            if o >= 0 and s[CELL_TILE + o] >= 0:
                k += 1
        if k:
            cells[m] = cell
            counts[m] = k
            m += 1
    return m


@_jit
def tile_destinations(s: np.ndarray, nbr: np.ndarray, tile: int, cells: np.ndarray, counts: np.ndarray, m: int,
                      out: np.ndarray) -> int:
    """``destinations(tile)`` from the ``frontier``: its cells that touch a tile besides ``tile`` itself."""
    tc = s[TILE_CELL + tile]
    n = 0
    for i in range(m):
        c = cells[i]
        k = counts[i]
        for d in range(4):
            if nbr[c, d] == tc:
                k -= 1
                break
        if k > 0:
            out[n] = c
            n += 1
    return n


@_jit
def pawn_moves(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, out: np.ndarray) -> int:
    """``GWState.pawn_moves``: seat by seat, direction by direction."""
    n = 0
    for seat in range(gi[G_PLAYERS]):
        tile = s[PAWN_TILE + seat]
        if tile < 0:
            continue
        cell = s[TILE_CELL + tile]
        for d in range(4):
            c = nbr[cell, d]
            if c < 0:
                continue
            t = s[CELL_TILE + c]
            if t >= 0 and s[TILE_PAWN + t] < 0:
                out[n] = PAWN_BASE + seat * 4 + d
                n += 1
    return n


@_jit
def act_legal(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, out: np.ndarray, scratch: np.ndarray) -> int:
    """``GWState._act_legal`` into ``out``; the count."""
    face = s[Q_FACE + s[Q_HEAD]]
    if face == 0:
        if s[PICKED] < 0:
            n = 0
            first = 1 if gi[G_BLANK_MAY_PASS] else 0
            fc = scratch[:FRONT]
            fk = scratch[FRONT:2 * FRONT]
            m = frontier(s, gi, nbr, fc, fk)
            for t in range(TILES):
                tc = s[TILE_CELL + t]
                if tc < 0 or s[TILE_PAWN + t] >= 0:
                    continue
                for i in range(m):  # has a destination: a frontier cell touching a tile besides t
                    k = fk[i]
                    c = fc[i]
                    for d in range(4):
                        if nbr[c, d] == tc:
                            k -= 1
                            break
                    if k > 0:
                        out[first + n] = PICK_BASE + t
                        n += 1
                        break
            if n and first:
                out[0] = PASS
                return n + 1
            if first:
                for i in range(n):
                    out[i] = out[i + 1]
            return n
        n = destinations(s, gi, nbr, s[PICKED], scratch)
        for i in range(n):
            out[i] = PLACE_BASE + scratch[i]
        return n
    return pawn_moves(s, gi, nbr, out)


@_jit
def components(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, seen: np.ndarray, stack: np.ndarray) -> int:
    """``GWState.components``."""
    cells = gi[G_SIZE] * gi[G_SIZE]
    for c in range(cells):
        seen[c] = 0
    count = 0
    for t in range(TILES):
        start = s[TILE_CELL + t]
        if start < 0 or seen[start]:
            continue
        count += 1
        top = 0
        stack[top] = start
        top += 1
        seen[start] = 1
        while top:
            top -= 1
            c = stack[top]
            for d in range(4):
                o = nbr[c, d]
                if o >= 0 and not seen[o] and s[CELL_TILE + o] >= 0:
                    seen[o] = 1
                    stack[top] = o
                    top += 1
    return count


@_jit
def chance_probabilities(s: np.ndarray, gf: np.ndarray, actions: np.ndarray, probs: np.ndarray) -> int:
    """``GWState.chance_outcomes`` at a coin draw (line or draw phase), in the engine's order."""
    v = gf[F_VALUE_UP]
    bag = s[BAG_N]
    n = 0
    for coin in range(TILES):
        if not s[IN_BAG + coin]:
            continue
        if v > 0:
            actions[n] = coin * 2
            probs[n] = v / bag
            n += 1
        if v < 1:
            actions[n] = coin * 2 + 1
            probs[n] = (1 - v) / bag
            n += 1
    return n


@_jit
def sample_outcome(s: np.ndarray, gf: np.ndarray, st: np.ndarray, actions: np.ndarray, probs: np.ndarray) -> int:
    """``sample_chance(state, rng)`` at any chance node."""
    phase = s[PHASE]
    if phase == PH_PLACE or phase == PH_PAWNS:  # noqa: SIM109  (numba: no tuple membership of ints here)
        n = 0
        for t in range(TILES):
            ok = s[UNPLACED + t] if phase == PH_PLACE else s[TILE_PAWN + t] < 0
            if ok:
                actions[n] = t
                n += 1
        return actions[sample_uniform_chance(st, n)]
    n = chance_probabilities(s, gf, actions, probs)
    return actions[sample_chance(st, probs, n)]


@_jit
def _draw(s: np.ndarray, action: int) -> None:
    coin = action // 2
    s[IN_BAG + coin] = 0
    s[BAG_N] -= 1
    s[LINE_COIN + s[LINE_LEN]] = coin
    s[LINE_FACE + s[LINE_LEN]] = action % 2
    s[LINE_LEN] += 1


@_jit
def _sink(s: np.ndarray, gi: np.ndarray) -> None:
    coin = s[LINE_COIN]
    for i in range(s[LINE_LEN] - 1):
        s[LINE_COIN + i] = s[LINE_COIN + i + 1]
        s[LINE_FACE + i] = s[LINE_FACE + i + 1]
    s[LINE_LEN] -= 1
    cell = s[TILE_CELL + coin]
    if s[MOVED + coin]:
        s[EV + E_MOVED_SINKS] += 1
    s[CELL_TILE + cell] = -1
    s[TILE_CELL + coin] = -1
    seat = s[TILE_PAWN + coin]
    if seat >= 0:
        s[TILE_PAWN + coin] = -1
        s[PAWN_TILE + seat] = -1
        s[ALIVE + seat] = 0
        s[ELIM_SEAT + s[ELIM_N]] = seat
        s[ELIM_TURN + s[ELIM_N]] = s[TURN]
        s[ELIM_N] += 1
        s[EV + E_DROWNED] += 1
    else:
        s[EV + E_EMPTY_SINK] += 1
    alive = 0
    for p in range(gi[G_PLAYERS]):
        alive += s[ALIVE + p]
    if alive <= 1 or s[LINE_LEN] == 0:
        s[PHASE] = PH_OVER
    else:
        s[TURN] += 1
        s[PHASE] = PH_CHOOSE


@_jit
def apply_chance(s: np.ndarray, gi: np.ndarray, shape: np.ndarray, inner: np.ndarray, action: int) -> None:
    phase = s[PHASE]
    if phase == PH_PLACE:
        cell = shape[s[PLACED_N]]
        s[UNPLACED + action] = 0
        s[PLACED_N] += 1
        s[CELL_TILE + cell] = action
        s[TILE_CELL + action] = cell
        if s[PLACED_N] == TILES:
            s[PHASE] = PH_PAWNS
    elif phase == PH_PAWNS:
        seat = s[PAWNS_N]
        s[PAWN_TILE + seat] = action
        s[TILE_PAWN + action] = seat
        s[START_INNER + seat] = inner[s[TILE_CELL + action]]
        s[PAWNS_N] += 1
        if s[PAWNS_N] == gi[G_PLAYERS]:
            s[PHASE] = PH_LINE
    elif phase == PH_LINE:
        _draw(s, action)
        if s[LINE_LEN] == gi[G_LINE_LENGTH] or s[BAG_N] == 0:
            s[PHASE] = PH_CHOOSE
            s[TURN] = 1
    else:
        _draw(s, action)
        _sink(s, gi)


@_jit
def _end_actions(s: np.ndarray, gi: np.ndarray) -> None:
    s[Q_LEN] = 0
    s[Q_HEAD] = 0
    s[PICKED] = -1
    s[MOVES_LEFT] = 0
    if s[BAG_N]:
        s[PHASE] = PH_DRAW
    else:
        s[EV + E_BAG_EMPTY] += 1
        _sink(s, gi)


@_jit
def _start_actor(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, buf: np.ndarray, scratch: np.ndarray) -> None:
    while s[Q_HEAD] < s[Q_LEN]:
        s[MOVES_LEFT] = s[Q_FACE + s[Q_HEAD]]
        s[PICKED] = -1
        s[PHASE] = PH_ACT
        if act_legal(s, gi, nbr, buf, scratch) > 0:
            return
        s[EV + E_FORFEIT] += 1
        s[Q_HEAD] += 1
    _end_actions(s, gi)


@_jit
def apply_joint(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, faces_in: np.ndarray, buf: np.ndarray,
                scratch: np.ndarray) -> None:
    """``GWState._apply_actions``: reveal, cancel equal faces, queue the rest in action order."""
    players = gi[G_PLAYERS]
    counts = np.zeros(FACES, dtype=np.int64)
    faces = np.empty(MAX_PLAYERS, dtype=np.int64)
    for p in range(players):
        faces[p] = faces_in[p] if s[ALIVE + p] else -1
        if faces[p] >= 0:
            counts[faces[p]] += 1
            s[CHOICES] += 1
    for f in range(FACES):
        if counts[f] > 1:
            s[EV + E_CANCEL] += counts[f]
    n = 0
    for rank in range(FACES):  # the acting faces are distinct: sorting by rank is walking the ranks
        for p in range(players):
            f = faces[p]
            if f >= 0 and counts[f] == 1 and gi[G_ORDER + f] == rank:
                s[Q_SEAT + n] = p
                s[Q_FACE + n] = f
                n += 1
    s[Q_LEN] = n
    s[Q_HEAD] = 0
    _start_actor(s, gi, nbr, buf, scratch)


@_jit
def _next_actor(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, buf: np.ndarray, scratch: np.ndarray) -> None:
    s[Q_HEAD] += 1
    _start_actor(s, gi, nbr, buf, scratch)


@_jit
def apply_act(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, action: int, buf: np.ndarray,
              scratch: np.ndarray, seen: np.ndarray, stack: np.ndarray) -> None:
    """``GWState._act``."""
    seat = s[Q_SEAT + s[Q_HEAD]]
    face = s[Q_FACE + s[Q_HEAD]]
    if face == 0:
        if action == PASS:
            s[EV + E_BLANK_PASS] += 1
            _next_actor(s, gi, nbr, buf, scratch)
        elif s[PICKED] < 0:
            s[PICKED] = action - PICK_BASE
        else:
            tile = s[PICKED]
            cell = action - PLACE_BASE
            before = components(s, gi, nbr, seen, stack)
            s[CELL_TILE + s[TILE_CELL + tile]] = -1
            s[CELL_TILE + cell] = tile
            s[TILE_CELL + tile] = cell
            s[MOVED + tile] = 1
            s[EV + E_TILE_MOVE] += 1
            if components(s, gi, nbr, seen, stack) > before:
                s[EV + E_SPLIT] += 1
            _next_actor(s, gi, nbr, buf, scratch)
        return
    pawn = (action - PAWN_BASE) // 4
    d = (action - PAWN_BASE) % 4
    tile = s[PAWN_TILE + pawn]
    target = s[CELL_TILE + nbr[s[TILE_CELL + tile], d]]
    s[TILE_PAWN + tile] = -1
    s[TILE_PAWN + target] = pawn
    s[PAWN_TILE + pawn] = target
    s[EV + E_PAWN_MOVE] += 1
    if pawn != seat:
        s[EV + E_RIVAL_MOVE] += 1
    s[MOVES_LEFT] -= 1
    if s[MOVES_LEFT] == 0:
        _next_actor(s, gi, nbr, buf, scratch)
    elif pawn_moves(s, gi, nbr, buf) == 0:
        s[EV + E_FORFEIT] += 1
        _next_actor(s, gi, nbr, buf, scratch)


@_jit
def winner(s: np.ndarray, gi: np.ndarray) -> int:
    w = -1
    n = 0
    for p in range(gi[G_PLAYERS]):
        if s[ALIVE + p]:
            w = p
            n += 1
    return w if n == 1 else -1


# ---------------------------------------------------------------------------------------------- bots' scores


@_jit
def danger(s: np.ndarray, gf: np.ndarray, out: np.ndarray) -> None:
    """``bots.danger``."""
    for t in range(TILES):
        out[t] = 0.0
    nw = int(gf[F_N_WEIGHTS])
    for k in range(s[LINE_LEN]):
        if k >= nw:
            break
        coin = s[LINE_COIN + k]
        value_up = s[LINE_FACE + k] == 0
        count = 0
        for c in range(TILES):
            if s[TILE_CELL + c] >= 0 and ((c % RANKS == coin % RANKS) if value_up else (c // RANKS == coin // RANKS)):
                count += 1
        if count:
            p = gf[F_WEIGHTS + k] / count
            for c in range(TILES):
                if s[TILE_CELL + c] >= 0 and ((c % RANKS == coin % RANKS) if value_up
                                              else (c // RANKS == coin // RANKS)):
                    out[c] += p


@_jit
def position_value(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int,
                   dang: np.ndarray) -> float:
    """``bots.position_value``."""
    if s[PHASE] == PH_OVER:
        return 10.0 if winner(s, gi) == seat else -10.0 + s[ELIM_N]
    if not s[ALIVE + seat]:
        return -10.0 + s[ELIM_N]
    own = s[PAWN_TILE + seat]
    free = 0
    cell = s[TILE_CELL + own]
    for d in range(4):
        c = nbr[cell, d]
        if c >= 0:
            t = s[CELL_TILE + c]
            if t >= 0 and s[TILE_PAWN + t] < 0:
                free += 1
    value = -dang[own] + gf[F_MOBILITY] * free - (gf[F_TRAPPED] if free == 0 else 0.0)
    for p in range(gi[G_PLAYERS]):
        if p == seat:
            continue
        t = s[PAWN_TILE + p]
        if t < 0:
            value += 2.0
        else:
            value += gf[F_RIVAL] * dang[t]
    return value


@_jit
def evaluate(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int, dang: np.ndarray) -> float:
    danger(s, gf, dang)
    return position_value(s, gi, gf, nbr, seat, dang)


@_jit
def _best_place(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, tile: int, seat: int,
                dang: np.ndarray, cells: np.ndarray, n: int, out: np.ndarray) -> float:
    """``bots._best_place`` over the tile's destinations ``cells[:n]``: the best (out[0]) and its value."""
    best = -1
    best_v = -math.inf
    for i in range(n):
        cell = cells[i]
        old = s[TILE_CELL + tile]
        s[CELL_TILE + old] = -1
        s[CELL_TILE + cell] = tile
        s[TILE_CELL + tile] = cell
        v = position_value(s, gi, gf, nbr, seat, dang)
        s[CELL_TILE + cell] = -1
        s[CELL_TILE + old] = tile
        s[TILE_CELL + tile] = old
        if v > best_v + 1e-9:
            best = PLACE_BASE + cell
            best_v = v
    out[0] = best
    return best_v


@_jit
def best_action(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int, st: np.ndarray,
                w: Any) -> int:
    """``bots.best_action`` (a pawn step, or the tile a blank takes)."""
    actions, scratch, dang, cells, one, values = w.actions, w.scratch, w.dang, w.cells, w.one, w.values
    n = act_legal(s, gi, nbr, actions, scratch)
    if n == 1:
        return actions[0]
    danger(s, gf, dang)
    if actions[0] == PASS or (PICK_BASE <= actions[0] < PLACE_BASE):
        best = PASS
        best_v = position_value(s, gi, gf, nbr, seat, dang) if actions[0] == PASS else -math.inf
        fc = scratch[:FRONT]
        fk = scratch[FRONT:2 * FRONT]
        m = frontier(s, gi, nbr, fc, fk)  # the moves below put each tile back: one frontier serves all
        for i in range(n):
            a = actions[i]
            if a == PASS:
                continue
            k = tile_destinations(s, nbr, a - PICK_BASE, fc, fk, m, cells)
            v = _best_place(s, gi, gf, nbr, a - PICK_BASE, seat, dang, cells, k, one)
            if v > best_v + 1e-9:
                best = a
                best_v = v
        return best
    top = -math.inf
    for i in range(n):
        a = actions[i]
        pawn = (a - PAWN_BASE) // 4
        d = (a - PAWN_BASE) % 4
        start = s[PAWN_TILE + pawn]
        target = s[CELL_TILE + nbr[s[TILE_CELL + start], d]]
        s[TILE_PAWN + start] = -1
        s[TILE_PAWN + target] = pawn
        s[PAWN_TILE + pawn] = target
        v = position_value(s, gi, gf, nbr, seat, dang)
        s[TILE_PAWN + target] = -1
        s[TILE_PAWN + start] = pawn
        s[PAWN_TILE + pawn] = start
        values[i] = v
        if v > top:
            top = v
    k = 0
    for i in range(n):
        if values[i] >= top - 1e-9:
            scratch[k] = actions[i]
            k += 1
    return scratch[int(mt_random(st) * k)]


@_jit
def place_action(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int, w: Any) -> int:
    danger(s, gf, w.dang)
    n = destinations(s, gi, nbr, s[PICKED], w.cells)
    _best_place(s, gi, gf, nbr, s[PICKED], seat, w.dang, w.cells, n, w.one)
    return w.one[0]


@_jit
def cautious_face(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int, st: np.ndarray,
                  w: Any) -> int:
    """``CautiousBot.step`` at the dice: six trial turns, then a softmax draw."""
    if not s[ALIVE + seat]:
        return PASS
    trial = w.trial
    scores = w.scores
    used = CELL_TILE + gi[G_SIZE] * gi[G_SIZE]
    for face in range(FACES):
        trial[:used] = s[:used]
        trial[Q_LEN] = 1
        trial[Q_HEAD] = 0
        trial[Q_SEAT] = seat
        trial[Q_FACE] = face
        trial[MOVES_LEFT] = face
        trial[PICKED] = -1
        trial[PHASE] = PH_ACT
        if act_legal(trial, gi, nbr, w.actions, w.scratch) == 0:
            scores[face] = evaluate(s, gi, gf, nbr, seat, w.dang) - 0.05
            continue
        steps = 0
        while trial[PHASE] == PH_ACT and steps < 8:
            if face == 0 and trial[PICKED] >= 0:
                a = place_action(trial, gi, gf, nbr, seat, w)
            else:
                a = best_action(trial, gi, gf, nbr, seat, st, w)
            apply_act(trial, gi, nbr, a, w.buf, w.scratch, w.seen, w.stack)
            steps += 1
        if trial[PHASE] != PH_OVER:
            scores[face] = evaluate(trial, gi, gf, nbr, seat, w.dang)
        else:
            scores[face] = evaluate(s, gi, gf, nbr, seat, w.dang)
    late = gf[F_LATE_BONUS]
    if late:
        for f in range(FACES):
            scores[f] = scores[f] + late * gi[G_ORDER + f] / 5
    top = scores[0]
    for f in range(1, FACES):
        if scores[f] > top:
            top = scores[f]
    weights = w.weights
    for f in range(FACES):
        weights[f] = math.exp((scores[f] - top) / gf[F_TEMPERATURE])
    total = python_sum(weights, FACES, gi[G_NEUMAIER] != 0)
    r = mt_random(st) * total
    acc = 0.0
    for f in range(FACES):
        acc += weights[f]
        if r < acc:
            return f
    return 5


@_jit
def python_sum(values: np.ndarray, n: int, neumaier: bool) -> float:
    """``sum(list of floats)``: plain left-to-right before Python 3.12, compensated (Neumaier) from 3.12 on."""
    total = 0.0
    if not neumaier:
        for i in range(n):
            total += values[i]
        return total
    c = 0.0
    for i in range(n):
        x = values[i]
        t = total + x
        if abs(total) >= abs(x):
            c += (total - t) + x
        else:
            c += (x - t) + total
        total = t
    if c != 0.0 and math.isfinite(c):
        total += c
    return total


@_jit
def cautious_act(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int, st: np.ndarray,
                 w: Any) -> int:
    if s[PICKED] >= 0:
        return place_action(s, gi, gf, nbr, seat, w)
    return best_action(s, gi, gf, nbr, seat, st, w)


@_jit
def greedy_step(s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int, st: np.ndarray,
                w: Any) -> int:
    """The generic ``GreedyBot.step`` with Global Warming's ``evaluate``: three samples of each action (rivals
    at the dice act at random, chance that follows is sampled), the best total, a random one of equal ones."""
    players = gi[G_PLAYERS]
    simultaneous = s[PHASE] == PH_CHOOSE
    own = w.own
    if simultaneous:
        if not s[ALIVE + seat]:
            return PASS
        n = FACES
        for f in range(FACES):
            own[f] = f
    else:
        n = act_legal(s, gi, nbr, own, w.scratch)
        if n == 1:
            return own[0]
    child = w.child
    joint = w.joint
    drew = False
    value = 0.0
    best = w.best
    nbest = 0
    best_value = -math.inf
    used = CELL_TILE + gi[G_SIZE] * gi[G_SIZE]  # the cells past the table are never read
    for i in range(n):
        action = own[i]
        total = 0.0
        for sample in range(3):
            if sample and not simultaneous and not drew:
                # a step that drew nothing (no rivals' dice, no coin after it) gives the same position again:
                # add its value as the Python bot adds each sample's
                total += value
                continue
            drew = False
            child[:used] = s[:used]
            if simultaneous:
                for p in range(players):
                    if p == seat:
                        joint[p] = action
                    elif child[ALIVE + p]:
                        joint[p] = int(mt_random(st) * FACES)
                    else:
                        mt_random(st)
                        joint[p] = PASS
                apply_joint(child, gi, nbr, joint, w.buf, w.scratch)
            else:
                apply_act(child, gi, nbr, action, w.buf, w.scratch, w.seen, w.stack)
            while child[PHASE] == PH_DRAW or child[PHASE] == PH_LINE:
                a = sample_outcome(child, gf, st, w.chance_actions, w.probs)
                apply_chance(child, gi, w.shape, w.inner, a)
                drew = True
            value = evaluate(child, gi, gf, nbr, seat, w.dang)
            total += value
        if total > best_value + 1e-12:
            best[0] = action
            nbest = 1
            best_value = total
        elif abs(total - best_value) <= 1e-12:
            best[nbest] = action
            nbest += 1
    return best[int(mt_random(st) * nbest)]


@_jit
def random_step(s: np.ndarray, gi: np.ndarray, nbr: np.ndarray, seat: int, st: np.ndarray, w: Any) -> int:
    """``RandomBot.step``: int(random() * n) of the legal actions."""
    if s[PHASE] == PH_CHOOSE:
        if not s[ALIVE + seat]:
            mt_random(st)
            return PASS
        return int(mt_random(st) * FACES)
    n = act_legal(s, gi, nbr, w.own, w.scratch)
    return w.own[int(mt_random(st) * n)]


@_jit
def bot_step(kind: int, s: np.ndarray, gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, seat: int,
             st: np.ndarray, w: Any) -> int:
    if kind == RANDOM:
        return random_step(s, gi, nbr, seat, st, w)
    if kind == GREEDY:
        return greedy_step(s, gi, gf, nbr, seat, st, w)
    if s[PHASE] == PH_CHOOSE:
        return cautious_face(s, gi, gf, nbr, seat, st, w)
    return cautious_act(s, gi, gf, nbr, seat, st, w)


# ---------------------------------------------------------------------------------------------- whole games


@_jit
def play_games(gi: np.ndarray, gf: np.ndarray, nbr: np.ndarray, kinds: np.ndarray, keys: np.ndarray,
               w: Any, out_i: np.ndarray, out_events: np.ndarray) -> None:
    """Play game ``g`` for each row of ``kinds`` (the bot kind per seat) with the streams seeded by ``keys[g]``
    (chance, then each seat's bot): ``play_with_bots`` of ``play_one``. Writes per game: turn, winner, the
    elimination order (seats, -1 past the last), choices and the start-inner flags into ``out_i``; the events
    into ``out_events``."""
    players = gi[G_PLAYERS]
    s = w.state
    faces = w.faces
    states, scratch = kernel_random.new_block(players + 1, kernel_random.BLOCK_GAMES)
    for g in range(kinds.shape[0]):
        rng = states[kernel_random.game_streams(states, scratch, keys, g):]
        new_game(s, gi)
        while s[PHASE] != PH_OVER:
            phase = s[PHASE]
            if phase == PH_CHOOSE:
                for p in range(players):
                    faces[p] = bot_step(kinds[g, p], s, gi, gf, nbr, p, rng[1 + p], w)
                apply_joint(s, gi, nbr, faces, w.buf, w.scratch)
            elif phase == PH_ACT:
                p = s[Q_SEAT + s[Q_HEAD]]
                a = bot_step(kinds[g, p], s, gi, gf, nbr, p, rng[1 + p], w)
                apply_act(s, gi, nbr, a, w.buf, w.scratch, w.seen, w.stack)
            else:
                a = sample_outcome(s, gf, rng[0], w.chance_actions, w.probs)
                apply_chance(s, gi, w.shape, w.inner, a)
        out_i[g, 0] = s[TURN]
        out_i[g, 1] = winner(s, gi)
        out_i[g, 2] = s[CHOICES]
        out_i[g, 3] = s[ELIM_N]
        for k in range(MAX_PLAYERS):
            out_i[g, 4 + k] = s[ELIM_SEAT + k] if k < s[ELIM_N] else -1
            out_i[g, 8 + k] = s[ELIM_TURN + k] if k < s[ELIM_N] else -1
            out_i[g, 12 + k] = s[START_INNER + k]
        for e in range(N_EVENTS):
            out_events[g, e] = s[EV + e]


Work = namedtuple("Work", [
    "state", "rng", "faces", "trial", "child", "actions", "own", "scratch", "buf", "cells", "one", "best", "joint",
    "seen", "stack", "chance_actions", "values", "dang", "scores", "weights", "probs", "shape", "inner"])
"""Every array the kernel works in, made once per batch (numba passes a named tuple of arrays as one value)."""


def work(shape: np.ndarray, inner: np.ndarray, players: int) -> Any:
    cells = MAX_CELLS
    ints = lambda n: np.zeros(n, dtype=np.int64)  # noqa: E731
    floats = lambda n: np.zeros(n, dtype=np.float64)  # noqa: E731
    return Work(ints(STATE_SIZE), kernel_random.new_states(players + 1), ints(MAX_PLAYERS), ints(STATE_SIZE),
                ints(STATE_SIZE), ints(cells + 8), ints(cells + 8), ints(cells + 8), ints(cells + 8),
                ints(cells + 8), ints(1), ints(cells + 8), ints(MAX_PLAYERS), ints(cells), ints(cells + 8),
                ints(2 * TILES), floats(cells + 8), floats(TILES), floats(FACES), floats(FACES), floats(2 * TILES),
                shape.astype(np.int64), inner.astype(np.int64))


def neumaier_sum() -> int:
    """Whether this Python's ``sum`` of floats is compensated (3.12 and later)."""
    return 1 if sys.version_info >= (3, 12) else 0
