"""`boardgen simulate` for the Global Wellbeing Game: games played by the shared runner (``boardgen.play``: the
compiled kernel through ``FastPath.kernel_batch`` where it plays them, the rules API's state machine else), and
the game's own summary, plots and lines computed from the games' columns (``OutcomeColumns``: the shared fields
plus the game's own per-game arrays: pieces, chips, indices per zone, badges, the index after every turn, the
leaders, running out, the cells occupied and contested). A line-up with a bot the game does not have itself
(``mcts``, ``random-generic``, ``greedy-generic``) is reported with the generic summary and plots.

Game ``i`` is seeded with ``derive_seed(seed, "game", i)`` and its seats are filled from the bot list (rotated by
``i`` when ``rotate`` is on, so every seat meets every bot equally often); the results do not depend on how many
processes played them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES
from boardgen.games.global_wellbeing.rules.engine import EVENTS
from boardgen.games.global_wellbeing.schema import RulesConfig
from boardgen.play.columns import OutcomeColumns
from boardgen.play.report import wilson_interval
from boardgen.play.simulate import bot_codes, game_samples, seat_wins
from boardgen.plugin import BuildContext


@dataclass
class Simulation:
    """A simulation's games as columns, with the board and rules they were played under."""

    board: RulesBoard
    rules: RulesConfig
    bots: tuple[str, ...]
    players: int
    seed: int
    rotate: bool
    columns: OutcomeColumns

    @property
    def games(self) -> int:
        return self.columns.games

    def array(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """The game's own per-game array ``name`` ((games, *shape); empty when no game was played)."""
        values = self.columns.arrays.get(name)
        return values if values is not None else np.zeros((self.games, *shape), dtype=np.int64)

    def trajectories(self) -> np.ndarray:
        """Every game's index per zone at the start and after every turn: (games, turns + 1, zones) int64."""
        return self.array("trajectory", (self.rules.turns + 1, len(self.board.zones)))

    def cell_counts(self) -> tuple[list[int], list[int]]:
        """Per cell: games in which it was occupied at the end, and games in which pieces of two or more players
        stood on it."""
        cells = self.array("cells", (self.board.n_cells,))
        occupied = np.count_nonzero(cells & 1, axis=0) if self.games else np.zeros(self.board.n_cells, np.int64)
        contested = np.count_nonzero(cells & 2, axis=0) if self.games else np.zeros(self.board.n_cells, np.int64)
        return occupied.tolist(), contested.tolist()


def simulate(board: RulesBoard, rules: RulesConfig, games: int, players: int, bots: Sequence[str], seed: int,
             jobs: int = 1, rotate: bool = True, progress: Callable[[int], None] | None = None) -> Simulation:
    """Play ``games`` games through the shared runner (``boardgen.play.simulate.play_columns``): the kernel where
    it plays them, the rules API else, seeded as the plug-in seeds them (``FastPath.game_seeds``)."""
    from boardgen.games.global_wellbeing import plugin
    from boardgen.games.global_wellbeing.rules import fast
    from boardgen.games.global_wellbeing.rules.engine import WellbeingGame, api_bots
    from boardgen.play.simulate import play_columns

    bots = tuple(bots)
    check_bots(bots)
    game = WellbeingGame(board, rules, players)

    def kernel(start: int, stop: int) -> OutcomeColumns | None:
        return fast.kernel_batch(game, bots, seed, start, stop, rotate)

    columns = play_columns(lambda: game, api_bots(), players, games, bots, seed, jobs, rotate, progress, kernel,
                           plugin.fast.game_seeds)
    return Simulation(board, rules, bots, players, seed, rotate, columns)


def check_bots(bots: Sequence[str]) -> None:
    for name in bots:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")


# -------------------------------------------------------------------------------------- statistics


def wins_by_seat(sim: Simulation) -> list[float]:
    """Wins per seat; a tie for first shares the win (1/k each)."""
    return seat_wins(sim.columns, sim.players)[0]


def wins_by_bot(sim: Simulation) -> dict[str, tuple[float, int]]:
    """Per bot name (sorted): (shared wins, seats played)."""
    return seat_wins(sim.columns, sim.players)[1]


def ties(sim: Simulation) -> int:
    """Games that ended in a tie for first place."""
    return int(np.count_nonzero(sim.columns.winners.sum(axis=1) > 1))


def decided_after(winners: np.ndarray, leaders: np.ndarray) -> np.ndarray:
    """Per game, the turn after which the final winner(s) always led (0: from the end of setup on): ``winners``
    (games, players) bool, ``leaders`` (games, turns + 1) seat bit masks of who led after setup and every turn."""
    n, length = leaders.shape
    turns = length - 1
    mask = (winners.astype(np.int64) << np.arange(winners.shape[1], dtype=np.int64)).sum(axis=1) if n else \
        np.zeros(0, np.int64)
    led = (leaders[:, :turns] & mask[:, None]) != 0  # (games, turns): a winner led after setup / turn t
    trailing = np.cumprod(led[:, ::-1], axis=1).sum(axis=1)  # the run of such turns up to the last but one
    return turns - trailing


def _round(x: float) -> float:
    return round(float(x), 6)


def _percentile(sorted_values: np.ndarray, q: float) -> float:
    """The ``q`` quantile of integers in order, interpolated between the two nearest (as Python numbers)."""
    if not sorted_values.size:
        return 0.0
    k = (sorted_values.size - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    low, high = int(sorted_values[lo]), int(sorted_values[hi])
    return low + (high - low) * (k - lo)


def event_totals(sim: Simulation) -> dict[str, dict[str, int]]:
    """Per event: total count and number of games in which it happened at least once."""
    events = sim.columns.events
    zero = np.zeros(sim.games, dtype=np.int64)
    return {name: {"count": int(events.get(name, zero).sum()), "games": int(np.count_nonzero(events.get(name, zero)))}
            for name in EVENTS}


def badge_games_by_zone(sim: Simulation) -> list[int]:
    """Per zone: games in which at least one player held that zone's badge at the end."""
    badges = sim.array("badges", (sim.players, len(sim.board.zones)))
    return [int(v) for v in (badges != 0).any(axis=1).sum(axis=0)]


def summary(sim: Simulation) -> dict[str, Any]:
    """The numbers of results.json (rounded, sorted: the same simulation gives the same bytes)."""
    n = sim.games
    c = sim.columns
    zones = sim.board.zone_names
    n_zones = len(zones)
    seat_wins_, bot_wins = seat_wins(c, sim.players)
    scores = np.sort(c.scores.ravel()).astype(np.int64)
    winning_sum = int(c.scores.max(axis=1).astype(np.int64).sum()) if n else 0
    tie_games = ties(sim)
    trajectory_mean = []
    if n:  # integer sums (exact), divided as Python divides them
        trajectory_mean = [[_round(x) for x in row] for row in (sim.trajectories().sum(axis=0) / n).tolist()]
    ran_out = sim.array("ran_out", (sim.players,))
    ran_pieces = int(np.count_nonzero((ran_out & 1).any(axis=1))) if n else 0
    ran_cells = int(np.count_nonzero((ran_out & 2).any(axis=1))) if n else 0
    badges = badge_games_by_zone(sim)
    leaders = sim.array("leaders", (sim.rules.turns + 1,))
    decided = np.sort(decided_after(c.winners, leaders))
    pieces = int(sim.array("pieces", (sim.players,)).sum())
    chips = int(sim.array("chips", (sim.players,)).sum())
    final_sums = sim.array("final_index", (n_zones,)).sum(axis=0).tolist()
    end_sums = sim.array("end_index", (n_zones,)).sum(axis=0).tolist()
    return {
        "games": n,
        "players": sim.players,
        "bots": list(sim.bots),
        "rotate_seats": sim.rotate,
        "seed": sim.seed,
        "win_rate_by_seat": [
            {"seat": s + 1, "wins": _round(w), "games": n, "rate": _round(w / n if n else 0.0),
             "ci95": [_round(x) for x in wilson_interval(w, n)]}
            for s, w in enumerate(seat_wins_)
        ],
        "win_rate_by_bot": {
            name: {"wins": _round(w), "seats": seats, "rate": _round(w / seats if seats else 0.0),
                   "ci95": [_round(x) for x in wilson_interval(w, seats)]}
            for name, (w, seats) in bot_wins.items()
        },
        "score": {
            "mean": _round(int(scores.sum()) / scores.size) if scores.size else 0.0,  # integer sums, divided
            "min": int(scores[0]) if scores.size else 0,
            "p10": _round(_percentile(scores, 0.1)),
            "median": _round(_percentile(scores, 0.5)),
            "p90": _round(_percentile(scores, 0.9)),
            "max": int(scores[-1]) if scores.size else 0,
            "winning_mean": _round(winning_sum / n) if n else 0.0,
        },
        "ties": {"games": tie_games, "share": _round(tie_games / n if n else 0.0)},
        "lead_settled_after_turn": {  # the turn after which the eventual winner always led (0: after setup)
            "mean": _round(int(decided.sum()) / n) if n else 0.0,
            "median": _round(_percentile(decided, 0.5)),
            "from_setup_share": _round(int(np.count_nonzero(decided == 0)) / n if n else 0.0),
        },
        "turns": sim.rules.turns,
        "years": [sim.rules.start_year, sim.rules.start_year + sim.rules.turns * sim.rules.years_per_turn],
        "pieces_on_board_mean": _round(pieces / (n * sim.players)) if n else 0.0,
        "chips_left_mean": _round(chips / (n * sim.players)) if n else 0.0,
        "ran_out": {"pieces_games": ran_pieces, "cells_games": ran_cells,
                    "pieces_share": _round(ran_pieces / n if n else 0.0),
                    "cells_share": _round(ran_cells / n if n else 0.0)},
        "zones": {
            name: {
                "final_index_mean": _round(final_sums[z] / n) if n else 0.0,
                "end_index_mean": _round(end_sums[z] / n) if n else 0.0,
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
    occupied, contested = sim.cell_counts()
    return {
        "edition": edition,
        "template_sha256": template_sha256,
        "rules": {k: getattr(sim.rules, k) for k in sorted(vars(sim.rules))},
        "summary": summary(sim),
        "cells": [
            {"label": label, "occupied_share": _round(occupied[c] / n), "contested_share": _round(contested[c] / n)}
            for c, label in enumerate(sim.board.labels)
        ],
        "samples": game_samples(sim.columns, sim.seed),  # games worth replaying; every game: games.csv
    }


# -------------------------------------------------------------------------------------- the command


def simulation(ctx: BuildContext, columns: OutcomeColumns, players: int, bots: Sequence[str], seed: int,
               rotate: bool) -> Simulation:
    """The games of ``columns`` (played on ``ctx``'s board) as a ``Simulation``."""
    board = ctx.value("rules_board", lambda: RulesBoard.from_board(ctx.board))
    return Simulation(board, ctx.config.rules, tuple(bots), players, seed, rotate,
                      columns.with_bot_names(bot_codes(bots)))


def simulate_report(ctx: BuildContext, games: int, players: int, bots: Sequence[str], seed: int, jobs: int,
                    rotate: bool, progress: Callable[[int], None] | None
                    ) -> tuple[dict[str, Any], dict[str, bytes], list[str]]:
    from boardgen.games.global_wellbeing.rules.plots import report_plots
    from boardgen.play.runner import GAMES_TABLE, generic_simulate_report, play

    if any(name not in BOT_NAMES for name in bots):
        return generic_simulate_report(ctx.plugin, ctx, games, players, bots, seed, jobs, rotate, progress)
    config = ctx.config
    columns = play(ctx.plugin, ctx, games, players, bots, seed, jobs, rotate, progress)
    sim = simulation(ctx, columns, players, bots, seed, rotate)
    data = results_json(sim, config.edition, config.template_sha256)
    plots = report_plots(sim, [z.colour for z in config.zones.values()])
    plots[GAMES_TABLE] = sim.columns.games_csv()
    summary_ = data["summary"]
    lines = []
    seats = "  ".join(f"{s['seat']}: {s['rate']:.1%}" for s in summary_["win_rate_by_seat"])
    lines.append(f"win rate by seat   {seats}")
    by_bot = "  ".join(f"{name}: {v['rate']:.1%}" for name, v in summary_["win_rate_by_bot"].items())
    lines.append(f"win rate by bot    {by_bot}")
    score = summary_["score"]
    lines.append(f"scores             mean {score['mean']:.0f}, median {score['median']:.0f}, "
                 f"winner mean {score['winning_mean']:.0f}; ties {summary_['ties']['share']:.1%}")
    settled = summary_["lead_settled_after_turn"]
    lines.append(f"lead settled       after turn {settled['mean']:.1f} on average (median {settled['median']:g}); "
                 f"leader after setup won {settled['from_setup_share']:.0%} of games")
    finals = "  ".join(f"{name} {v['final_index_mean']:.1f}" for name, v in summary_["zones"].items())
    lines.append(f"final index (mean) {finals}")
    return data, plots, lines


__all__ = ["Simulation", "badge_games_by_zone", "check_bots", "decided_after", "event_totals", "results_json",
           "simulate", "simulate_report", "simulation", "summary", "ties", "wins_by_bot", "wins_by_seat"]
