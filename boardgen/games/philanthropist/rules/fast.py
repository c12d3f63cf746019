"""The Philanthropist's compiled path: batches of games played by ``kernel`` (numba), the same games as the rules
API plays for the same seeds (``runner.api_batch``), returned as ``OutcomeColumns``.

``kernel_batch`` is what the plug-in's hook calls: None (the API plays) when a bot has no compiled form
(``greedy``, ``mcts``), when ``BOARDGEN_ENGINE=reference``, or in auto mode while the games asked for in this
process are too few to pay for loading numba and the kernel (``LOAD_COST_GAMES``), so ``simulate --games 1``
stays quick. ``warm_kernel`` compiles the kernel into boardgen's cache (scripts/setup.sh runs it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgen.games.philanthropist.rules.engine import (
    ACTION,
    DRAW,
    EFFECT_KINDS,
    END,
    FIRST,
    MOVE,
    PLACE,
    WHITE_MOVE,
    WHITE_PAY,
    PhilanthropistGame,
    effect_kind,
)
from boardgen.play.columns import OutcomeColumns
from boardgen.play.kernels import KernelLoader, game_seeds, generator_seeds
from boardgen.play.simulate import lineup

KERNEL_BOTS = ("uniform", "random", "collector", "planner")  # kernel.BOT_KINDS
# Importing numba and loading the cached kernel takes about 0.45 s of CPU, some 60 games of the API path with the
# default bots (140 games/s); compiling it the first time about 11 s, some 1,500 games.
LOAD_COST_GAMES = 60
COMPILE_COST_GAMES = 1500
LOADER = KernelLoader("boardgen.games.philanthropist.rules.kernel", LOAD_COST_GAMES, COMPILE_COST_GAMES)
PHASES = (PLACE, FIRST, ACTION, WHITE_MOVE, WHITE_PAY, DRAW, MOVE, END)


def unsupported(game: PhilanthropistGame, bots: Sequence[str]) -> str:
    """Why the kernel cannot play these games ("" when it can)."""
    unknown = [b for b in bots if b not in KERNEL_BOTS]
    if unknown:
        return f"bot {unknown[0]!r} has no compiled form"
    if not 2 <= game.info.num_players <= 4:
        return "players outside 2..4"
    return ""


def _arrays(kernel: Any, game: PhilanthropistGame) -> tuple[np.ndarray, ...]:
    r = game.rules
    n = r.squares
    players = game.info.num_players
    tie = {"donated": kernel.TIE_DONATED, "cubes": kernel.TIE_CUBES, "shared": kernel.TIE_SHARED}[r.tie_break]
    values = {"squares": n, "players": players, "start_cubes": r.start_cubes, "move_income": r.move_income,
              "income_when_collecting": int(r.income_when_collecting), "payday_multiplier": r.payday_multiplier,
              "avatars_may_share": int(r.avatars_may_share), "stop_on_unpaid_meeple": int(r.stop_on_unpaid_meeple),
              "tie_break": tie, "catch_up": r.catch_up, "middle_corner": r.middle_corner,
              "turn_limit": r.turn_limit(players), "random_first": int(r.random_first), "supply": r.supply,
              "min_cost": min(r.costs)}
    prm = np.array([values[name] for name in kernel.PARAMS], dtype=np.int64)
    face_code = {"move": kernel.FACE_MOVE, "payday": kernel.FACE_PAYDAY, "card": kernel.FACE_CARD}
    no_meeple = np.zeros(n * n, dtype=np.int64)
    no_meeple[list(game.no_meeple)] = 1
    kinds = [EFFECT_KINDS.index(effect_kind(c)) for c in r.cards]
    amounts = [int(c.effect.split()[1]) if c.effect.split()[1].isdigit() else 0 for c in r.cards]
    return (prm, np.array(r.costs, dtype=np.int64), np.array(r.place_order, dtype=np.int64),
            np.array([face_code[f] for f in r.faces], dtype=np.int64), np.array(game.block_of, dtype=np.int64),
            no_meeple, np.array(game.corners, dtype=np.int64), np.array(kinds, dtype=np.int64),
            np.array(amounts, dtype=np.int64), np.array([c.quantity for c in r.cards], dtype=np.int64))


def play_columns(game: PhilanthropistGame, lineups: Sequence[Sequence[str]], seeds: Sequence[int]
                 ) -> OutcomeColumns:
    """Games ``seeds[i]`` (each a game's seed, as ``play_one`` takes it) with the bots ``lineups[i]`` seat by
    seat, through the kernel (loaded if it is not)."""
    kernel = LOADER.load()
    if kernel is None:
        raise RuntimeError(LOADER.failed)
    if tuple(game.new_initial_state().events) != kernel.EVENTS or kernel.PHASES_CHECK != PHASES:
        raise RuntimeError("philanthropist.kernel is out of step with the engine's events or phases")
    players = game.info.num_players
    n = len(seeds)
    names = tuple(sorted({b for line in lineups for b in line}))
    code = {name: kernel.BOT_KINDS.index(name) for name in names}
    kinds = np.array([[code[b] for b in line] for line in lineups], dtype=np.int64).reshape(n, players)
    gen_seeds = generator_seeds(seeds, players)
    scores = np.zeros((n, players), dtype=np.float64)
    winners = np.zeros((n, players), dtype=np.bool_)
    length = np.zeros(n, dtype=np.int64)
    metrics = np.zeros((n, len(kernel.METRICS)), dtype=np.float64)
    events = np.zeros((n, len(kernel.EVENTS)), dtype=np.int64)
    kernel.play_games(*_arrays(kernel, game), kinds, gen_seeds, scores, winners, length, metrics, events)
    LOADER.mark_compiled()
    kept = [i for i, name in enumerate(kernel.METRICS)
            if not name.startswith("won_turn_position_") or int(name.rsplit("_", 1)[1]) <= players]
    index = {name: i for i, name in enumerate(names)}
    return OutcomeColumns(names, np.array(seeds, dtype=np.int64),
                          np.array([[index[b] for b in line] for line in lineups], dtype=np.int8).reshape(n, players),
                          scores, winners, length,
                          {kernel.METRICS[i]: metrics[:, i].copy() for i in kept},
                          {name: events[:, i].copy() for i, name in enumerate(kernel.EVENTS)})


def kernel_batch(game: PhilanthropistGame, bots: Sequence[str], seed: int, start: int, stop: int,
                 rotate: bool) -> OutcomeColumns | None:
    """Games ``start`` to ``stop`` of a simulation seeded ``seed`` (as ``play_batch`` seeds them), or None when
    the API path should play them."""
    players = game.info.num_players
    if stop <= start or unsupported(game, bots) or not LOADER.wanted(stop - start):
        return None
    lineups = [lineup(bots, players, i, rotate) for i in range(start, stop)]
    return play_columns(game, lineups, game_seeds(seed, start, stop))


def warm_kernel() -> bool:
    """Compile the kernel into its disk cache now (or load it), so auto mode takes it from the first large run;
    scripts/setup.sh calls this. False when numba is not installed."""
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    plugin = get_game("philanthropist")
    if LOADER.load() is None:
        return False
    _plugin, config = load(plugin.default_template())
    game = plugin.new_game(BuildContext(config, plugin), 2)
    assert isinstance(game, PhilanthropistGame)
    play_columns(game, [("collector", "random"), ("planner", "uniform")], [1, 2])
    return LOADER.cached()


__all__ = ["KERNEL_BOTS", "LOADER", "kernel_batch", "play_columns", "unsupported", "warm_kernel"]
