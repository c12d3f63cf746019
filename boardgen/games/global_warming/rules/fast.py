"""Global Warming's batches through its compiled kernel (``kernel``): when to use it, and the game's numbers
and seeds turned into the kernel's arrays and its results into ``OutcomeColumns``.

``kernel_batch`` answers None (the rules API plays) for bots the kernel does not play (search, mcts) and for
runs too small to pay for loading numba (``LOADER``); this module itself imports neither numba nor the kernel
until a batch is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgen.play.columns import OutcomeColumns
from boardgen.play.kernels import KernelLoader, batch_seeds

KERNEL_BOTS = ("random", "greedy", "cautious")  # kernel.BOT_KINDS
# what a game costs through the rules API on one core, in random-bot games (about 120 a second)
API_COST = {"random": 1.0, "greedy": 8.0, "cautious": 20.0}
LOAD_COST_GAMES = 70.0  # loading the cached kernel (about 0.6 s), in random-bot API games
COMPILE_COST_GAMES = 7000.0  # compiling it (about a minute)


LOADER = KernelLoader("boardgen.games.global_warming.rules.kernel", LOAD_COST_GAMES, COMPILE_COST_GAMES)
"""Loads the kernel once the games asked for in this process are worth it (``simulate --games 1`` never
imports numba); ``BOARDGEN_ENGINE`` forces either path."""



def warm_kernel() -> bool:
    """Compile the kernel into its disk cache (or load it): a few games of every bot kind (scripts/setup.sh)."""
    import yaml

    from boardgen.plugin import BuildContext, get_game
    from boardgen.yaml_reader import templates_dir

    plugin = get_game("global-warming")
    path = templates_dir() / plugin.template_file
    ctx = BuildContext(plugin.load_config(yaml.safe_load(path.read_text(encoding="utf-8")), str(path), ""), plugin)
    game = plugin.new_game(ctx, plugin.player_range(ctx.config)[1])
    play(game, KERNEL_BOTS, 0, 0, 3, True)
    return LOADER.cached()


def game_arrays(game: Any) -> tuple[np.ndarray, ...]:
    """(gi, gf, nbr, shape, inner) of a ``GlobalWarmingGame`` and its bots' spec."""
    from boardgen.games.global_warming.rules import kernel as k
    from boardgen.games.global_warming.rules.bots import DEFAULT_BOTS

    rules = game.rules
    spec = getattr(game, "bot_spec", DEFAULT_BOTS)
    n = game.size
    gi = np.zeros(k.G_INTS, dtype=np.int64)
    gi[k.G_SIZE], gi[k.G_PLAYERS], gi[k.G_LINE_LENGTH] = n, game.players, rules.line_length
    gi[k.G_BLANK_MAY_PASS] = 1 if rules.blank_may_pass else 0
    gi[k.G_NEUMAIER] = k.neumaier_sum()
    for face, rank in game.order_rank.items():
        gi[k.G_ORDER + face] = rank
    gf = np.zeros(k.F_FLOATS, dtype=np.float64)
    gf[k.F_VALUE_UP], gf[k.F_TEMPERATURE], gf[k.F_LATE_BONUS] = rules.value_face_up, spec.temperature, spec.late_bonus
    gf[k.F_MOBILITY], gf[k.F_TRAPPED], gf[k.F_RIVAL] = spec.mobility, spec.trapped, spec.rival_weight
    gf[k.F_N_WEIGHTS] = len(spec.danger_weights)
    gf[k.F_WEIGHTS:k.F_WEIGHTS + len(spec.danger_weights)] = spec.danger_weights
    nbr = np.full((n * n, 4), -1, dtype=np.int64)
    for cell, pairs in enumerate(game.neighbours):
        for d, other in pairs:
            nbr[cell, d] = other
    shape = np.array([y * n + x for x, y in game.shape], dtype=np.int64)
    inner = np.zeros(n * n, dtype=np.int64)
    for x, y in game.inner:
        inner[y * n + x] = 1
    return gi, gf, nbr, shape, inner


def play(game: Any, bots: Sequence[str], seed: int, start: int, stop: int, rotate: bool) -> OutcomeColumns:
    """Games ``start`` to ``stop`` as ``runner.api_batch`` seeds them, played by the kernel."""
    k = LOADER.load()
    if k is None:
        raise RuntimeError(LOADER.failed)

    players = game.players
    gi, gf, nbr, shape, inner = game_arrays(game)
    names = tuple(KERNEL_BOTS)
    count = stop - start
    kinds, seeds, keys = batch_seeds(names, bots, players, seed, start, stop, rotate)
    out_i = np.zeros((count, 16), dtype=np.int64)
    out_events = np.zeros((count, k.N_EVENTS), dtype=np.int64)
    k.play_games(gi, gf, nbr, kinds, keys, k.work(shape, inner, players), out_i, out_events)
    LOADER.mark_compiled()
    return columns(names, players, seeds, kinds, out_i, out_events)


def columns(names: tuple[str, ...], players: int, seeds: np.ndarray, kinds: np.ndarray, out_i: np.ndarray,
            out_events: np.ndarray) -> OutcomeColumns:
    """``GWState.outcome`` of each game from the kernel's numbers."""
    from boardgen.games.global_warming.rules import kernel as k

    n = seeds.shape[0]
    turns = out_i[:, 0]
    winner = out_i[:, 1]
    choices = out_i[:, 2]
    elim_n = out_i[:, 3]
    scores = np.full((n, players), float(players - 1))
    for j in range(players):
        seat = out_i[:, 4 + j]
        rows = np.flatnonzero(seat >= 0)
        scores[rows, seat[rows]] = float(j)
    winners = np.zeros((n, players), dtype=np.bool_)
    has = winner >= 0
    winners[np.flatnonzero(has), winner[has]] = True
    inner = out_i[:, 12:12 + players]
    won_inner = np.zeros(n)
    won_inner[has] = inner[np.flatnonzero(has), winner[has]]
    ev = {name: out_events[:, e].copy() for e, name in enumerate(k.EVENTS)}
    cancel = ev["cancelled-die"]
    share = np.zeros(n)
    nz = choices > 0
    share[nz] = cancel[nz] / choices[nz]
    first = np.where(elim_n > 0, out_i[:, 8], turns)
    metrics = {
        "turns": turns.astype(np.float64),
        "cancel_share": share,
        "tile_moves": ev["tile-move"].astype(np.float64),
        "pawn_moves": ev["pawn-move"].astype(np.float64),
        "rival_pawn_moves": ev["rival-pawn-move"].astype(np.float64),
        "empty_sinks": ev["empty-sink"].astype(np.float64),
        "first_drowning_turn": first.astype(np.float64),
        "inner_start_seats": inner.sum(axis=1).astype(np.float64),
        "inner_start_win": np.where(has & (won_inner == 1), 1.0, 0.0),
        "outer_start_win": np.where(has & (won_inner == 0), 1.0, 0.0),
    }
    return OutcomeColumns(names, seeds, kinds.astype(np.int8), scores, winners, turns.astype(np.int64), metrics, ev)


def kernel_batch(game: Any, bots: Sequence[str], seed: int, start: int, stop: int,
                 rotate: bool) -> OutcomeColumns | None:
    """The games by the kernel, or None (the API plays them) when it does not play these bots or the games asked
    for so far are not worth loading it (``LOADER``; a cautious game counts as 20 random ones)."""
    if stop <= start or any(b not in KERNEL_BOTS for b in bots):
        return None
    if not LOADER.wanted((stop - start) * sum(API_COST[b] for b in bots) / len(bots)):
        return None
    return play(game, bots, seed, start, stop, rotate)
