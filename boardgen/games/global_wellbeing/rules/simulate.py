"""Many games, on one core or several, and the statistics a designer reads from them.

Game ``i`` is seeded with ``derive_seed(master_seed, "game", i)`` and its seats are filled from the bot
list (rotated by ``i`` when ``rotate`` is on, so every seat meets every bot equally often); the results do
not depend on how many processes played them.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from boardgen.config import RulesConfig
from boardgen.games.global_wellbeing.rules import fast
from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES, bot_factory
from boardgen.games.global_wellbeing.rules.engine import EVENTS, GameResult, decided_after, derive_seed, play_game
from boardgen.play.columns import OutcomeColumns
from boardgen.play.pool import play_in_order
from boardgen.play.simulate import game_samples

CHUNK_GAMES = 50  # games per chunk on one process (several processes size their chunks: boardgen.play.pool)


def lineup(bots: Sequence[str], players: int, game: int, rotate: bool) -> tuple[str, ...]:
    """The bot in each seat of game ``game``: the list repeated to fill the seats, shifted by the game."""
    shift = game % len(bots) if rotate else 0
    return tuple(bots[(seat + shift) % len(bots)] for seat in range(players))


@dataclass
class Simulation:
    """Everything the reports need; per-cell counts are summed, per-game results kept without them."""

    board: RulesBoard
    rules: RulesConfig
    bots: tuple[str, ...]
    players: int
    seed: int
    rotate: bool
    results: list[GameResult] = field(default_factory=list)
    occupied: list[int] = field(default_factory=list)  # per cell: games in which it was occupied at the end
    contested: list[int] = field(default_factory=list)  # per cell: games in which two players stood on it

    @property
    def games(self) -> int:
        return len(self.results)

    def trajectories(self) -> Any:
        """Every game's index per zone at the start and after every turn, as one (games, turns + 1, zones) int64
        array (made once: the summary and the trajectory chart both read it)."""
        import itertools

        import numpy as np

        cached = getattr(self, "_trajectories", None)
        if cached is not None and cached.shape[0] == len(self.results):
            return cached
        turns = len(self.results[0].trajectory) if self.results else 0
        zones = len(self.board.zones)
        flat = itertools.chain.from_iterable(itertools.chain.from_iterable(r.trajectory for r in self.results))
        array = np.fromiter(flat, dtype=np.int64, count=len(self.results) * turns * zones)
        self._trajectories = array.reshape(len(self.results), turns, zones)
        return self._trajectories


# -------------------------------------------------------------------------------------- running games

_WORKER: dict[str, object] = {}


def _init_worker(board: RulesBoard, rules: RulesConfig, bots: tuple[str, ...], players: int, seed: int,
                 rotate: bool, games: int = 0) -> None:
    """``games``: how many the simulation plays in all (0: not known), to choose the engine (``rules.fast``)."""
    _WORKER.update(board=board, rules=rules, bots=bots, players=players, seed=seed, rotate=rotate, games=games)


Chunk = tuple[list[GameResult], list[int], list[int]]  # results in game order, per-cell counts summed


def _play_chunk(bounds: tuple[int, int]) -> Chunk:
    return _unpack(_play_packed(bounds))


def _unpack(packed: Chunk | fast.Batch) -> Chunk:
    if isinstance(packed, fast.Batch):
        return packed.results(cells=False), packed.occupied_counts(), packed.contested_counts()
    return packed


# The pool's contract (boardgen.play.pool): ``_init_worker`` runs in the calling process before any worker is
# forked (so what it loads, a compiled kernel included, is inherited); ``_play_packed`` is a module-level function
# run in any process for any run of games. A worker pickles what it returns back to this process, which
# ``_unpack``s it as it arrives: the kernel's arrays (``fast.Batch``) travel for next to nothing, where the
# GameResults made from them would cost a pickling and an unpickling each (as much as a tenth of a kernel game).
def _play_packed(bounds: tuple[int, int]) -> Chunk | fast.Batch:
    board: RulesBoard = _WORKER["board"]  # type: ignore[assignment]
    rules: RulesConfig = _WORKER["rules"]  # type: ignore[assignment]
    bots: tuple[str, ...] = _WORKER["bots"]  # type: ignore[assignment]
    players: int = _WORKER["players"]  # type: ignore[assignment]
    seed: int = _WORKER["seed"]  # type: ignore[assignment]
    rotate: bool = _WORKER["rotate"]  # type: ignore[assignment]
    games = range(*bounds)
    planned: int = _WORKER.get("games", 0)  # type: ignore[assignment]
    if fast.use_kernel(board, rules, bots, players, len(games), planned):  # the same games, compiled
        batch = fast.play_batch(board, rules, [lineup(bots, players, game, rotate) for game in games],
                                [derive_seed(seed, "game", game) for game in games])
        return batch
    badge_values = tuple(z.badge_value for z in board.zones) if rules.variant == "complex" else ()
    dice = tuple(z.die for z in board.zones)
    factories = {name: bot_factory(name, rules.badge_threshold, badge_values, dice) for name in set(bots)}
    occupied = [0] * board.n_cells
    contested = [0] * board.n_cells
    out = []
    for game in games:
        names = lineup(bots, players, game, rotate)
        result = play_game(board, rules, [factories[n] for n in names], derive_seed(seed, "game", game), names)
        for c, v in enumerate(result.occupied):
            occupied[c] += v
        for c, v in enumerate(result.contested):
            contested[c] += v
        out.append(replace(result, occupied=(), contested=()))
    return out, occupied, contested


def check_bots(bots: Sequence[str]) -> None:
    for name in bots:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")


def simulate(board: RulesBoard, rules: RulesConfig, games: int, players: int, bots: Sequence[str], seed: int,
             jobs: int = 1, rotate: bool = True, progress: Callable[[int], None] | None = None) -> Simulation:
    """Play ``games`` games; ``progress(n)`` is called with the number of games just finished.

    With ``jobs > 1`` this process and ``jobs - 1`` forked workers share the games (boardgen.play.pool);
    ``_init_worker`` runs here first, so forked workers inherit its state."""
    bots = tuple(bots)
    check_bots(bots)
    sim = Simulation(board, rules, bots, players, seed, rotate, [], [0] * board.n_cells, [0] * board.n_cells)
    init_args = (board, rules, bots, players, seed, rotate, games)
    _init_worker(*init_args)
    if jobs > 1:  # load the kernel (if the run warrants it) before the workers fork, so they inherit it
        fast.use_kernel(board, rules, bots, players, 0, games)

    def counts(bounds: tuple[int, int], chunk: Chunk) -> None:
        results, occupied, contested = chunk
        sim.occupied[:] = map(operator.add, sim.occupied, occupied)
        sim.contested[:] = map(operator.add, sim.contested, contested)
        if progress is not None:
            progress(len(results))

    for results, _, _ in play_in_order(games, jobs, _play_packed, CHUNK_GAMES, counts, (_init_worker, init_args),
                                       convert=_unpack):
        sim.results.extend(results)
    return sim


# -------------------------------------------------------------------------------------- statistics


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def wins_by_seat(sim: Simulation) -> list[float]:
    """Wins per seat; a tie for first shares the win (1/k each)."""
    wins = [0.0] * sim.players
    for r in sim.results:
        for s in r.winners:
            wins[s] += 1.0 / len(r.winners)
    return wins


def wins_by_bot(sim: Simulation) -> dict[str, tuple[float, int]]:
    """Per bot name: (shared wins, seats played)."""
    out: dict[str, list[float]] = {}
    for r in sim.results:
        for seat, name in enumerate(r.bots):
            entry = out.setdefault(name, [0.0, 0])
            entry[1] += 1
            if seat in r.winners:
                entry[0] += 1.0 / len(r.winners)
    return {name: (v[0], int(v[1])) for name, v in sorted(out.items())}


def _int_array(rows: Any, count: int, shape: tuple[int, ...]) -> Any:
    """Integers from an iterable, as an int64 array of ``shape`` (``count`` values in all)."""
    import numpy as np

    return np.fromiter(rows, dtype=np.int64, count=count).reshape(shape)


def event_totals(sim: Simulation) -> dict[str, dict[str, int]]:
    """Per event: total count and number of games in which it happened at least once."""
    import itertools

    n, k = len(sim.results), len(EVENTS)
    events = _int_array(itertools.chain.from_iterable(r.events for r in sim.results), n * k, (n, k))
    totals, games = events.sum(axis=0).tolist(), (events != 0).sum(axis=0).tolist()
    return {name: {"count": totals[i], "games": games[i]} for i, name in enumerate(EVENTS)}


def badge_games_by_zone(sim: Simulation) -> list[int]:
    """Per zone: games in which at least one player held that zone's badge at the end."""
    import itertools

    n, zones = len(sim.results), len(sim.board.zones)
    flat = itertools.chain.from_iterable(itertools.chain.from_iterable(r.badges for r in sim.results))
    badges = _int_array(flat, n * sim.players * zones, (n, sim.players, zones))
    return [int(v) for v in (badges != 0).any(axis=1).sum(axis=0)]


def _round(x: float) -> float:
    return round(float(x), 6)


def _percentile(sorted_values: list[int], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = (len(sorted_values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def summary(sim: Simulation) -> dict[str, Any]:
    """The numbers of results.json (rounded, sorted: the same simulation gives the same bytes)."""
    n = sim.games
    zones = sim.board.zone_names
    seat_wins = wins_by_seat(sim)
    scores = sorted(s for r in sim.results for s in r.scores)
    winning = sorted(max(r.scores) for r in sim.results)
    ties = sum(1 for r in sim.results if len(r.winners) > 1)
    trajectory_mean = []
    if n:  # integer sums (exact), divided as Python divides them
        trajectory_mean = [[_round(x) for x in row] for row in (sim.trajectories().sum(axis=0) / n).tolist()]
    ran_pieces = sum(1 for r in sim.results if any(v & 1 for v in r.ran_out))
    ran_cells = sum(1 for r in sim.results if any(v & 2 for v in r.ran_out))
    badges = badge_games_by_zone(sim)
    decided = sorted(decided_after(r) for r in sim.results)
    return {
        "games": n,
        "players": sim.players,
        "bots": list(sim.bots),
        "rotate_seats": sim.rotate,
        "seed": sim.seed,
        "win_rate_by_seat": [
            {"seat": s + 1, "wins": _round(w), "games": n, "rate": _round(w / n if n else 0.0),
             "ci95": [_round(x) for x in wilson_interval(w, n)]}
            for s, w in enumerate(seat_wins)
        ],
        "win_rate_by_bot": {
            name: {"wins": _round(w), "seats": seats, "rate": _round(w / seats if seats else 0.0),
                   "ci95": [_round(x) for x in wilson_interval(w, seats)]}
            for name, (w, seats) in wins_by_bot(sim).items()
        },
        "score": {
            "mean": _round(sum(scores) / len(scores)) if scores else 0.0,
            "min": scores[0] if scores else 0,
            "p10": _round(_percentile(scores, 0.1)),
            "median": _round(_percentile(scores, 0.5)),
            "p90": _round(_percentile(scores, 0.9)),
            "max": scores[-1] if scores else 0,
            "winning_mean": _round(sum(winning) / n) if n else 0.0,
        },
        "ties": {"games": ties, "share": _round(ties / n if n else 0.0)},
        "lead_settled_after_turn": {  # the turn after which the eventual winner always led (0: after setup)
            "mean": _round(sum(decided) / n) if n else 0.0,
            "median": _round(_percentile(decided, 0.5)),
            "from_setup_share": _round(sum(1 for d in decided if d == 0) / n if n else 0.0),
        },
        "turns": sim.rules.turns,
        "years": [sim.rules.start_year, sim.rules.start_year + sim.rules.turns * sim.rules.years_per_turn],
        "pieces_on_board_mean": _round(sum(sum(r.pieces) for r in sim.results) / (n * sim.players)) if n else 0.0,
        "chips_left_mean": _round(sum(sum(r.chips) for r in sim.results) / (n * sim.players)) if n else 0.0,
        "ran_out": {"pieces_games": ran_pieces, "cells_games": ran_cells,
                    "pieces_share": _round(ran_pieces / n if n else 0.0),
                    "cells_share": _round(ran_cells / n if n else 0.0)},
        "zones": {
            name: {
                "final_index_mean": _round(sum(r.final_index[z] for r in sim.results) / n) if n else 0.0,
                "end_index_mean": _round(sum(r.end_index[z] for r in sim.results) / n) if n else 0.0,
                "badge_games": badges[z],
                "badge_share": _round(badges[z] / n if n else 0.0),
            }
            for z, name in enumerate(zones)
        },
        "index_trajectory_mean": trajectory_mean,
        "events": event_totals(sim),
    }


def results_json(sim: Simulation, edition: str = "", template_sha256: str = "") -> dict[str, Any]:
    n = max(sim.games, 1)
    return {
        "edition": edition,
        "template_sha256": template_sha256,
        "rules": {k: getattr(sim.rules, k) for k in sorted(vars(sim.rules))},
        "summary": summary(sim),
        "cells": [
            {"label": label, "occupied_share": _round(sim.occupied[c] / n),
             "contested_share": _round(sim.contested[c] / n)}
            for c, label in enumerate(sim.board.labels)
        ],
        "samples": game_samples(columns(sim), sim.seed),  # games worth replaying; every game: games.csv
    }


def columns(sim: Simulation) -> OutcomeColumns:
    """The games' seeds, line-ups, scores, winners and length as columns (the per-game table, the samples)."""
    import numpy as np

    cached: OutcomeColumns | None = getattr(sim, "_columns", None)
    if cached is not None and cached.games == sim.games:
        return cached
    n, players = sim.games, sim.players
    names = tuple(dict.fromkeys(sim.bots))
    code = {name: i for i, name in enumerate(names)}
    winners = np.zeros((n, players), dtype=np.bool_)
    for i, r in enumerate(sim.results):
        winners[i, list(r.winners)] = True
    made = OutcomeColumns(names, np.array([r.seed for r in sim.results], dtype=np.int64),
                          np.array([[code[b] for b in r.bots] for r in sim.results], dtype=np.int8).reshape(n, players),
                          np.array([r.scores for r in sim.results], dtype=np.int64).reshape(n, players), winners,
                          np.full(n, sim.rules.turns, dtype=np.int64))
    sim._columns = made  # type: ignore[attr-defined]  # made once: the samples and games.csv both read it
    return made


__all__ = ["Simulation", "badge_games_by_zone", "check_bots", "columns", "event_totals", "lineup", "results_json",
           "simulate", "summary", "wilson_interval", "wins_by_bot", "wins_by_seat"]
