"""`boardgen simulate` for any game: bots play many seeded games through the rules API; a summary follows.

Game ``i`` is played with chance drawn from ``derive_seed(seed, "game", i)`` and each seat's bot from its own
derived seed, so results do not depend on ``--jobs`` or on which process played which game. The summary holds
what every game's balance report needs: win rate by seat and by bot with 95% intervals, ties, how often nobody
won, game length, scores and the game's own metrics (means, min, max) and rule counts.
"""

from __future__ import annotations

import hashlib
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgen.play.api import Game, Outcome
from boardgen.play.bots import BotFactory, play_with_bots
from boardgen.play.pool import play_in_order
from boardgen.play.report import wilson_interval

CHUNK_GAMES = 25


def derive_seed(master_seed: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path (game index, seat...), independent of process."""
    text = ":".join(str(x) for x in (master_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def lineup(bots: Sequence[str], players: int, game: int, rotate: bool) -> tuple[str, ...]:
    """The bot in each seat of game ``game``: the list repeated to fill the seats, shifted by the game."""
    shift = game % len(bots) if rotate else 0
    return tuple(bots[(seat + shift) % len(bots)] for seat in range(players))


@dataclass(frozen=True)
class GameRecord:
    seed: int
    bots: tuple[str, ...]
    outcome: Outcome


@dataclass
class Simulation:
    game_name: str
    players: int
    bots: tuple[str, ...]
    seed: int
    rotate: bool
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)


def play_one(game: Game, factories: Mapping[str, BotFactory], names: Sequence[str], seed: int) -> GameRecord:
    chance_rng = random.Random(derive_seed(seed, "chance"))
    bots = [factories[name](game, seat, random.Random(derive_seed(seed, "seat", seat)))
            for seat, name in enumerate(names)]
    state = play_with_bots(game.new_initial_state(derive_seed(seed, "setup")), bots, chance_rng)
    return GameRecord(seed, tuple(names), state.outcome())


_WORKER: dict[str, Any] = {}


def _init_worker(game: Game, factories: Mapping[str, BotFactory], bots: tuple[str, ...], players: int,
                 seed: int, rotate: bool) -> None:
    _WORKER.update(game=game, factories=factories, bots=bots, players=players, seed=seed, rotate=rotate)


def _play_chunk(bounds: tuple[int, int]) -> list[GameRecord]:
    w = _WORKER
    return [play_one(w["game"], w["factories"], lineup(w["bots"], w["players"], i, w["rotate"]),
                     derive_seed(w["seed"], "game", i)) for i in range(*bounds)]


def simulate(game: Game, factories: Mapping[str, BotFactory], games: int, bots: Sequence[str], seed: int,
             jobs: int = 1, rotate: bool = True, progress: Callable[[int], None] | None = None) -> Simulation:
    """Play ``games`` games of ``game`` (its player count fixed) with the named bots, in seat order."""
    bots = tuple(bots)
    unknown = [b for b in bots if b not in factories]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; expected one of {', '.join(sorted(factories))}")
    players = game.info.num_players
    sim = Simulation(game.info.short_name, players, bots, seed, rotate)
    init_args = (game, dict(factories), bots, players, seed, rotate)
    _init_worker(*init_args)  # here first: forked workers inherit it (boardgen.play.pool)

    def advance(bounds: tuple[int, int], chunk: list[GameRecord]) -> None:
        if progress is not None:
            progress(len(chunk))

    # a game's objects may hold reference cycles (search trees): cycles=True
    for chunk in play_in_order(games, jobs, _play_chunk, CHUNK_GAMES, advance, (_init_worker, init_args), cycles=True):
        sim.records.extend(chunk)
    return sim


def _round(x: float) -> float:
    return round(x, 4)


def _describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0}
    return {"mean": _round(statistics.fmean(values)), "median": _round(statistics.median(values)),
            "min": _round(min(values)), "max": _round(max(values))}


def summary(sim: Simulation) -> dict[str, Any]:
    """Seat and bot win rates with 95% intervals (a shared win counts 1/k), ties, no-winner games, length,
    scores, the game's metrics and how often each rule fired."""
    n = sim.games
    seat_wins = [0.0] * sim.players
    bot_wins: dict[str, float] = {}
    bot_seats: dict[str, int] = {}
    ties = nobody = 0
    metrics: dict[str, list[float]] = {}
    events: dict[str, int] = {}
    events_games: dict[str, int] = {}
    for record in sim.records:
        out = record.outcome
        winners = out.winners
        if not winners:
            nobody += 1
        elif len(winners) > 1:
            ties += 1
        for name in record.bots:
            bot_seats[name] = bot_seats.get(name, 0) + 1
        for w in winners:
            seat_wins[w] += 1 / len(winners)
            bot_wins[record.bots[w]] = bot_wins.get(record.bots[w], 0.0) + 1 / len(winners)
        for key, value in out.metrics.items():
            metrics.setdefault(key, []).append(float(value))
        for key, count in out.events.items():
            events[key] = events.get(key, 0) + count
            if count:
                events_games[key] = events_games.get(key, 0) + 1
    by_seat = []
    for seat, wins in enumerate(seat_wins):
        low, high = wilson_interval(wins, n)
        by_seat.append({"seat": seat + 1, "wins": _round(wins), "rate": _round(wins / n if n else 0.0),
                        "ci95": [_round(low), _round(high)]})
    by_bot = {}
    for name in sorted(bot_seats):
        wins = bot_wins.get(name, 0.0)
        # a bot's rate: its (shared) wins per seat it filled; 1/N is an even share, as for a seat
        by_bot[name] = {"wins": _round(wins), "seats": bot_seats[name], "rate": _round(wins / bot_seats[name])}
    all_scores = [s for r in sim.records for s in r.outcome.scores]
    win_scores = [max(r.outcome.scores) for r in sim.records if r.outcome.scores]
    return {
        "games": n,
        "players": sim.players,
        "bots": list(sim.bots),
        "seed": sim.seed,
        "expected_seat_rate": _round(1 / sim.players) if sim.players else 0.0,
        "win_rate_by_seat": by_seat,
        "win_rate_by_bot": by_bot,
        "ties": {"games": ties, "share": _round(ties / n if n else 0.0)},
        "nobody_won": {"games": nobody, "share": _round(nobody / n if n else 0.0)},
        "length": _describe([r.outcome.length for r in sim.records]),
        "score": {**_describe(all_scores), "winning_mean": _describe(win_scores)["mean"]},
        "metrics": {key: _describe(values) for key, values in sorted(metrics.items())},
        "events": {key: {"total": events[key], "games": events_games.get(key, 0)} for key in sorted(events)},
    }


def seat_spread(summary_: Mapping[str, Any]) -> float:
    """The largest distance of a seat's win rate from the even share 1/N (0 is perfectly even)."""
    expected = summary_["expected_seat_rate"]
    return max((abs(s["rate"] - expected) for s in summary_["win_rate_by_seat"]), default=0.0)
