"""`boardgen simulate` for any game: bots play many seeded games; a summary follows, computed from columns.

Game ``i`` is played with chance drawn from ``derive_seed(seed, "game", i)`` and each seat's bot from its own
derived seed, so results do not depend on ``--jobs`` or on which process played which game. A run of games is
played by the game's compiled kernel when its plug-in has one for these bots (``FastPath.kernel_batch``), else
through the rules API; either way it arrives as :class:`~boardgen.play.columns.OutcomeColumns`, and the summary
is computed from those arrays. The summary holds what every game's balance report needs: win rate by seat and
by bot with 95% intervals, ties, how often nobody won, game length, scores and the game's own metrics (means,
min, max) and rule counts. ``game_samples`` picks a few games (the longest, the shortest, one with a seat that
scored nothing, a few at random) that ``boardgen.play.replay`` can play again move by move.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np

from boardgen.play.api import Game
from boardgen.play.bots import BotFactory, play_with_bots
from boardgen.play.columns import GameRecord, OutcomeColumns
from boardgen.play.kernels import loading_s
from boardgen.play.pool import play_in_order
from boardgen.play.report import wilson_interval

CHUNK_GAMES = 25  # the first run of games on one job; later runs are sized by the measured rate (play_in_order)
RANDOM_SAMPLES = 3  # games picked at random for ``game_samples``, beside the longest, shortest and 0-point ones

Kernel = Callable[[int, int], OutcomeColumns | None]  # games start..stop by a compiled kernel, or None

__all__ = ["CHUNK_GAMES", "GameRecord", "GameSeeds", "Kernel", "Simulation", "default_game_seeds", "derive_seed",
           "game_samples", "lineup", "play_columns", "play_one", "seat_spread", "seat_wins", "simulate", "summary",
           "summary_of_columns"]


def derive_seed(master_seed: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path (game index, seat...), independent of process."""
    text = ":".join(str(x) for x in (master_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def lineup(bots: Sequence[str], players: int, game: int, rotate: bool) -> tuple[str, ...]:
    """The bot in each seat of game ``game``: the list repeated to fill the seats, shifted by the game."""
    shift = game % len(bots) if rotate else 0
    return tuple(bots[(seat + shift) % len(bots)] for seat in range(players))


def bot_codes(bots: Sequence[str]) -> tuple[str, ...]:
    """The names a simulation's columns index: each bot of the line-up once, in line-up order."""
    return tuple(dict.fromkeys(bots))


class RecordView(Sequence[GameRecord]):
    """The games of some columns as records, made on first use (for reports that read records)."""

    def __init__(self, columns: OutcomeColumns) -> None:
        self.columns = columns
        self._records: list[GameRecord] | None = None

    def _all(self) -> list[GameRecord]:
        if self._records is None:
            self._records = self.columns.records()
        return self._records

    def __len__(self) -> int:
        return self.columns.games

    @overload
    def __getitem__(self, index: int) -> GameRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameRecord]: ...

    def __getitem__(self, index: int | slice) -> GameRecord | list[GameRecord]:
        return self._all()[index]

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(self._all())


def empty_columns(players: int, bots: Sequence[str]) -> OutcomeColumns:
    return OutcomeColumns(bot_codes(bots), np.zeros(0, np.int64), np.zeros((0, players), np.int8),
                          np.zeros((0, players), np.float64), np.zeros((0, players), np.bool_), np.zeros(0, np.int64))


@dataclass
class Simulation:
    game_name: str
    players: int
    bots: tuple[str, ...]
    seed: int
    rotate: bool
    columns: OutcomeColumns | None = None
    _view: RecordView | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.columns is None:
            self.columns = empty_columns(self.players, self.bots)

    @property
    def table(self) -> OutcomeColumns:
        assert self.columns is not None
        return self.columns

    @property
    def games(self) -> int:
        return self.table.games

    @property
    def records(self) -> RecordView:
        """The games as records (made from the columns on first use)."""
        if self._view is None or self._view.columns is not self.columns:
            self._view = RecordView(self.table)
        return self._view


GameSeeds = Callable[[Sequence[str], int], tuple[int, int]]  # (line-up, game seed) -> (setup seed, chance seed)


def default_game_seeds(bots: Sequence[str], seed: int) -> tuple[int, int]:
    """The initial state's and the chance generator's seeds of the game seeded ``seed``."""
    return derive_seed(seed, "setup"), derive_seed(seed, "chance")


def play_one(game: Game, factories: Mapping[str, BotFactory], names: Sequence[str], seed: int,
             game_seeds: GameSeeds | None = None) -> GameRecord:
    """One game: seat s's bot seeded ``derive_seed(seed, "seat", s)``, the initial state and chance seeded by
    ``game_seeds`` (a plug-in's ``FastPath.game_seeds``; default ``default_game_seeds``)."""
    setup_seed, chance_seed = (game_seeds or default_game_seeds)(tuple(names), seed)
    bots = [factories[name](game, seat, random.Random(derive_seed(seed, "seat", seat)))
            for seat, name in enumerate(names)]
    state = play_with_bots(game.new_initial_state(setup_seed), bots, random.Random(chance_seed))
    return GameRecord(seed, tuple(names), state.outcome())


_WORKER: dict[str, Any] = {}


def _init_worker(make_game: Callable[[], Game], factories: Mapping[str, BotFactory], bots: tuple[str, ...],
                 players: int, seed: int, rotate: bool, kernel: Kernel | None, offset: int = 0,
                 game_seeds: GameSeeds | None = None) -> None:
    _WORKER.clear()
    _WORKER.update(make_game=make_game, factories=factories, bots=bots, players=players, seed=seed, rotate=rotate,
                   kernel=kernel, offset=offset, game_seeds=game_seeds)


def _game() -> Game:
    if "game" not in _WORKER:
        _WORKER["game"] = _WORKER["make_game"]()
    return _WORKER["game"]  # type: ignore[no-any-return]


def _play_range(start: int, stop: int) -> OutcomeColumns:
    """Games ``start .. stop``: the kernel's when it plays them (it decides per batch), else the API's."""
    w = _WORKER
    names = bot_codes(w["bots"])
    if w["kernel"] is not None:
        columns = w["kernel"](start, stop)
        if columns is not None:
            return columns.with_bot_names(names)
    game = _game()
    records = [play_one(game, w["factories"], lineup(w["bots"], w["players"], i, w["rotate"]),
                        derive_seed(w["seed"], "game", i), w["game_seeds"]) for i in range(start, stop)]
    return OutcomeColumns.from_records(records, w["players"], names)


def _play_chunk(bounds: tuple[int, int]) -> OutcomeColumns:
    offset = _WORKER["offset"]
    return _play_range(bounds[0] + offset, bounds[1] + offset)


KERNEL_CHUNK_GAMES = 100_000  # the most games one call of a kernel plays (bounds memory, shows progress)
KERNEL_PROBE_SHARE = 8  # on several jobs, this process first offers the kernel 1/(8 x jobs) of the games
KERNEL_WORKERS_MIN_S = 0.5  # CPU seconds of kernel games left, below which starting worker processes does not pay


def play_columns(make_game: Callable[[], Game], factories: Mapping[str, BotFactory], players: int, games: int,
                 bots: Sequence[str], seed: int, jobs: int = 1, rotate: bool = True,
                 progress: Callable[[int], None] | None = None, kernel: Kernel | None = None,
                 game_seeds: GameSeeds | None = None) -> OutcomeColumns:
    """Games ``0 .. games-1`` as columns: by ``kernel`` where it plays them, else through the rules API on the
    game ``make_game()`` returns (made only if needed, each game seeded by ``play_one`` with ``game_seeds``), on
    ``jobs`` processes; the same columns for any jobs.

    A kernel decides by the size of a batch whether loading it pays, so it is offered large batches: first, in
    this process, the whole run (one job) or an eighth of one job's share (several: the workers are forked after
    it, so they inherit the loaded kernel); if it takes that, every later batch is as large, and when the games
    left would take the kernel less than ``KERNEL_WORKERS_MIN_S`` of CPU at the rate of the first batch, this
    process plays them (worker processes would cost more than they save). If it declines, the games go through
    the API in short runs (and the kernel is still offered each)."""
    bots = tuple(bots)
    unknown = [b for b in bots if b not in factories]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; expected one of {', '.join(sorted(factories))}")
    _init_worker(make_game, dict(factories), bots, players, seed, rotate, kernel, 0, game_seeds)
    chunks: list[OutcomeColumns] = []
    start = 0
    chunk_games, steady = CHUNK_GAMES, False
    if kernel is not None and games > 0:
        probe = games if jobs <= 1 else -(-games // (KERNEL_PROBE_SHARE * jobs))
        probe = min(probe, KERNEL_CHUNK_GAMES)
        cpu, loading = time.process_time(), loading_s()
        first = kernel(0, probe)
        if first is not None:
            chunks.append(first.with_bot_names(bot_codes(bots)))
            start = probe
            chunk_games, steady = probe, True
            if progress is not None:
                progress(first.games)
            took = max(0.0, time.process_time() - cpu - (loading_s() - loading))  # the kernel's load aside
            if took * (games - probe) / probe < KERNEL_WORKERS_MIN_S:
                jobs = 1  # the rest is too short to pay for starting processes: this one plays it
    init_args = (make_game, dict(factories), bots, players, seed, rotate, kernel, start, game_seeds)
    _init_worker(*init_args)  # here first: forked workers inherit it (boardgen.play.pool)

    def advance(bounds: tuple[int, int], chunk: OutcomeColumns) -> None:
        if progress is not None:
            progress(chunk.games)

    # a game's objects may hold reference cycles (search trees): cycles=True
    chunks += play_in_order(games - start, jobs, _play_chunk, chunk_games, advance, (_init_worker, init_args),
                            cycles=True, steady=steady)
    _WORKER.clear()
    if not chunks:
        return empty_columns(players, bots)
    return OutcomeColumns.concat(chunks).with_bot_names(bot_codes(bots))


def simulate(game: Game, factories: Mapping[str, BotFactory], games: int, bots: Sequence[str], seed: int,
             jobs: int = 1, rotate: bool = True, progress: Callable[[int], None] | None = None,
             kernel: Kernel | None = None) -> Simulation:
    """Play ``games`` games of ``game`` (its player count fixed) with the named bots, in seat order."""
    players = game.info.num_players
    columns = play_columns(lambda: game, factories, players, games, bots, seed, jobs, rotate, progress, kernel)
    return Simulation(game.info.short_name, players, tuple(bots), seed, rotate, columns)


def _round(x: float) -> float:
    return round(x, 4)


def _describe(values: np.ndarray) -> dict[str, float]:
    """Mean, median, min and max as the rounded Python numbers of the values' own type (ints stay ints), the
    same numbers ``statistics.fmean`` and ``statistics.median`` give over the values as a list."""
    n = int(values.size)
    if n == 0:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0}
    ordered = np.sort(values, axis=None)
    middle = ordered[n // 2].item() if n % 2 else (ordered[n // 2 - 1].item() + ordered[n // 2].item()) / 2
    return {"mean": _round(math.fsum(values.ravel().tolist()) / n), "median": _round(middle),
            "min": _round(ordered[0].item()), "max": _round(ordered[-1].item())}


def _present(values: np.ndarray) -> np.ndarray:
    """A metric's values in the games that had one (NaN marks a game without)."""
    missing = np.isnan(values)
    return values[~missing] if missing.any() else values


def _sequential_sum(values: np.ndarray) -> float:
    """The sum added up in order, as a Python loop would (numpy's ``sum`` adds pairwise: other last bits)."""
    return float(np.add.accumulate(values, dtype=np.float64)[-1]) if values.size else 0.0


def seat_wins(columns: OutcomeColumns, players: int) -> tuple[list[float], dict[str, tuple[float, int]]]:
    """Wins per seat, and per bot (by name, sorted) its wins and the seats it filled; a win shared by k seats
    counts 1/k, added up game by game (seat by seat) as a Python loop over the games would."""
    winners = columns.winners.astype(np.bool_, copy=False)
    k = winners.sum(axis=1)
    share = np.where(k > 0, 1.0 / np.maximum(k, 1), 0.0)
    credit = winners * share[:, None]  # (n, players): each game's win credit per seat
    by_seat = [_sequential_sum(credit[:, seat]) for seat in range(players)]
    by_bot = {}
    lineups = columns.lineups
    for code in sorted(range(len(columns.bot_names)), key=lambda c: columns.bot_names[c]):
        sat = lineups == code
        seats = int(sat.sum())
        if seats:
            by_bot[columns.bot_names[code]] = (_sequential_sum(np.where(sat, credit, 0.0).ravel()), seats)
    return by_seat, by_bot


def summary_of_columns(columns: OutcomeColumns, players: int, bots: Sequence[str], seed: int) -> dict[str, Any]:
    """Seat and bot win rates with 95% intervals (a shared win counts 1/k), ties, no-winner games, length,
    scores, the game's metrics and how often each rule fired, from the columns of ``columns.games`` games."""
    n = columns.games
    k = columns.winners.sum(axis=1)
    wins_by_seat, wins_by_bot = seat_wins(columns, players)
    by_seat = []
    for seat, wins in enumerate(wins_by_seat):
        low, high = wilson_interval(wins, n)
        by_seat.append({"seat": seat + 1, "wins": _round(wins), "rate": _round(wins / n if n else 0.0),
                        "ci95": [_round(low), _round(high)]})
    # a bot's rate: its (shared) wins per seat it filled; 1/N is an even share, as for a seat
    by_bot = {name: {"wins": _round(wins), "seats": seats, "rate": _round(wins / seats)}
              for name, (wins, seats) in wins_by_bot.items()}
    ties = int((k > 1).sum())
    nobody = int((k == 0).sum())
    scores = columns.scores
    win_scores = scores.max(axis=1) if scores.size else scores.reshape(-1)
    return {
        "games": n,
        "players": players,
        "bots": list(bots),
        "seed": seed,
        "expected_seat_rate": _round(1 / players) if players else 0.0,
        "win_rate_by_seat": by_seat,
        "win_rate_by_bot": by_bot,
        "ties": {"games": ties, "share": _round(ties / n if n else 0.0)},
        "nobody_won": {"games": nobody, "share": _round(nobody / n if n else 0.0)},
        "length": _describe(columns.length),
        "score": {**_describe(scores), "winning_mean": _describe(win_scores)["mean"]},
        "metrics": {key: _describe(_present(columns.metrics[key])) for key in sorted(columns.metrics)},
        "events": {key: {"total": int(columns.events[key].sum()), "games": int(np.count_nonzero(columns.events[key]))}
                   for key in sorted(columns.events)},
    }


def summary(sim: Simulation) -> dict[str, Any]:
    """The summary of a simulation (see ``summary_of_columns``)."""
    return summary_of_columns(sim.table, sim.players, sim.bots, sim.seed)


def game_samples(columns: OutcomeColumns, seed: int, random_games: int = RANDOM_SAMPLES) -> list[dict[str, Any]]:
    """A few games worth replaying, each as its index, seed and line-up (enough for ``replay_game``): the
    longest, the shortest, the first in which a seat scored nothing, and ``random_games`` more drawn by a seed
    derived from ``seed``. A game picked for two reasons is listed once with both."""
    n = columns.games
    if n == 0:
        return []
    picks: dict[int, list[str]] = {}

    def pick(index: int, why: str) -> None:
        picks.setdefault(int(index), []).append(why)

    pick(int(np.argmax(columns.length)), "longest")
    pick(int(np.argmin(columns.length)), "shortest")
    zero = np.flatnonzero((columns.scores == 0).any(axis=1)) if columns.scores.size else np.zeros(0, np.int64)
    if zero.size:
        pick(int(zero[0]), "a seat scored 0")
    rng = random.Random(derive_seed(seed, "samples"))
    for index in sorted(rng.sample(range(n), min(random_games, n))):
        pick(index, "random")
    return [{"index": i, "seed": int(columns.seeds[i]), "lineup": [columns.bot_names[j] for j in columns.lineups[i]],
             "why": picks[i], "length": int(columns.length[i]), "scores": columns.scores[i].tolist()}
            for i in sorted(picks)]


def seat_spread(summary_: Mapping[str, Any]) -> float:
    """The largest distance of a seat's win rate from the even share 1/N (0 is perfectly even)."""
    expected = summary_["expected_seat_rate"]
    return max((abs(s["rate"] - expected) for s in summary_["win_rate_by_seat"]), default=0.0)
