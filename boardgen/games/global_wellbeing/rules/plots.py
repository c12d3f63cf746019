"""The simulation report's pictures, as PNG bytes drawn with ``boardgen.render.charts`` (cairo, no matplotlib;
no timestamps: same data, same bytes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgen.games.global_wellbeing.rules.report import Simulation, wins_by_bot, wins_by_seat
from boardgen.play.report import wilson_interval
from boardgen.render.charts import (
    MAGMA_R,
    VIRIDIS,
    Bar,
    Chart,
    ColourMap,
    Series,
    StepPanel,
    bar_chart,
    hex_heat_map_chart,
    histogram_chart,
    integer_bins,
    step_panels_chart,
)

SEAT_COLOUR = "#4c72b0"
BOT_COLOURS = {"greedy": "#4c72b0", "planner": "#55a868", "random": "#8c8c8c"}
OTHER_BOT_COLOUR = "#dd8452"
WINNING_COLOUR = "#c44e52"
STEWARDSHIP_COLOUR = "#bbbbbb"
TIPPING_COLOUR = "#e3a0a2"


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n:,} games"


def score_chart(sim: Simulation) -> Chart:
    c = sim.columns
    scores = c.scores.astype(np.int64)
    by_bot: dict[str, Any] = {c.bot_names[code]: scores[c.lineups == code] for code in range(len(c.bot_names))
                              if np.any(c.lineups == code)}  # arrays: the histogram counts them as they are
    winning: Any = scores.max(axis=1) if sim.games else np.zeros(0, np.int64)
    edges = integer_bins(int(scores.min()), int(scores.max())) if scores.size else integer_bins(0, 0)
    series = [Series(f"{name} bot", by_bot[name], BOT_COLOURS.get(name, OTHER_BOT_COLOUR)) for name in sorted(by_bot)]
    series.append(Series("winning score", winning, WINNING_COLOUR, filled=False))
    return histogram_chart(series, edges, title=f"Score distribution, {_games(sim.games)}, {sim.players} players",
                           x_label="final score (pieces in each zone x its final index, summed)", y_label="players")


def score_distribution(sim: Simulation) -> bytes:
    return score_chart(sim).png()


def _bars(labels: Sequence[str], wins: Sequence[float], trials: Sequence[int]) -> list[Bar]:
    out = []
    for label, w, t in zip(labels, wins, trials, strict=True):
        rate = w / t if t else 0.0
        low, high = wilson_interval(w, t)
        out.append(Bar(label, rate, min(low, rate), max(high, rate)))  # rounding: the bar inside its interval
    return out


def _win_rate_chart(sim: Simulation, bars: list[Bar], title: str) -> Chart:
    expected = 1 / sim.players
    return bar_chart(bars, title=title, y_label="win rate (ties shared), 95% Wilson interval", colour=SEAT_COLOUR,
                     reference=(expected, f"fair share {expected:.1%}"), reference_colour=WINNING_COLOUR)


def win_rate_by_seat(sim: Simulation) -> bytes:
    wins = wins_by_seat(sim)
    bars = _bars([f"seat {s + 1}" for s in range(sim.players)], wins, [sim.games] * sim.players)
    return _win_rate_chart(sim, bars, "Win rate by seat (seat 1 plays first)").png()


def win_rate_by_bot(sim: Simulation) -> bytes:
    by_bot = wins_by_bot(sim)
    names = list(by_bot)
    bars = _bars(names, [by_bot[n][0] for n in names], [by_bot[n][1] for n in names])
    return _win_rate_chart(sim, bars, "Win rate by bot (per seat played)").png()


def trajectory_chart(sim: Simulation, colours: Sequence[str]) -> Chart:
    """One small panel per zone: mean index after every turn, its 10-90% band, and the zone's bounds."""
    rules = sim.rules
    n = sim.games
    length = rules.turns + 1 if n else 1
    turns = list(range(length))
    edges = [*turns, length]  # the value after the last turn is drawn over one more turn's width
    v_lines = [(float(t), TIPPING_COLOUR if t % rules.tipping_point_every == 0 else STEWARDSHIP_COLOUR)
               for t in turns[1:] if t % rules.tipping_point_every == 0 or t % rules.stewardship_every == 0]
    # ticks on the stewardship phases when there are a few of them, else about five ticks
    period = rules.stewardship_every
    tick_step = period if 2 <= length // max(1, period) <= 8 else max(1, length // 5)
    panels = []
    trajectories: Any = sim.trajectories() if n else None
    final_index = sim.array("final_index", (len(sim.board.zones),))
    for z, zone in enumerate(sim.board.zones):
        mean: list[float] = []
        p10: list[float] = []
        p90: list[float] = []
        dot = None
        if n:
            values = trajectories[:, :, z]  # (games, turns)
            mean = (values.sum(axis=0) / n).tolist()  # integer sums, divided as Python divides them
            low, high = int(0.1 * (n - 1)), int(0.9 * (n - 1))
            ranked = np.partition(values, (low, high), axis=0)  # those two ranks of each turn's values in place
            p10 = ranked[low].tolist()
            p90 = ranked[high].tolist()
            final = int(final_index[:, z].sum()) / n
            if final != mean[-1]:
                dot = (length - 0.5, final, f"{final:.1f} with badges")
        top = max(zone.die + 1, int(final_index[:, z].max()) + 1 if n else 0)
        panels.append(StepPanel(
            f"{zone.name} (d{zone.die}, start {zone.start_index})", edges, mean, p10, p90,
            colours[z] if z < len(colours) else SEAT_COLOUR, min(top, 2 * zone.die + 2),
            list(range(0, length + 1, tick_step)), v_lines, (zone.die, zone.minimum_index), dot))
    return step_panels_chart(
        panels, title=[f"Bio-productivity index after every turn: mean (line) and 10-90% of {_games(n)} (band)",
                       "grey lines: stewardship, red lines: tipping point; dot: mean final index with badges"],
        x_label="after turn", y_label="index", dot_colour=WINNING_COLOUR)


def index_trajectories(sim: Simulation, colours: Sequence[str]) -> bytes:
    return trajectory_chart(sim, colours).png()


def heat_chart(sim: Simulation, values: Sequence[float], title: str, colour_map: ColourMap = MAGMA_R) -> Chart:
    """Each cell drawn at its board position (corners from the board's hex layout), coloured by value."""
    corners = sim.board.corners_mm
    if corners is None:
        raise ValueError("the heat map needs a board built from a map (RulesBoard.from_board)")
    return hex_heat_map_chart(corners, values, title=title, x_label="board x (mm)", y_label="board y (mm)",
                              bar_label="share of games", colour_map=colour_map)


def heat_map(sim: Simulation, values: Sequence[float], title: str, colour_map: ColourMap = MAGMA_R) -> bytes:
    return heat_chart(sim, values, title, colour_map).png()


def report_plots(sim: Simulation, colours: Sequence[str]) -> dict[str, bytes]:
    """File name -> PNG bytes for every plot of the simulation report."""
    n = max(sim.games, 1)
    plots = {
        "score-distribution.png": score_distribution(sim),
        "win-rate-by-seat.png": win_rate_by_seat(sim),
        "win-rate-by-bot.png": win_rate_by_bot(sim),
        "index-trajectories.png": index_trajectories(sim, colours),
    }
    if sim.board.corners_mm is not None:
        occupied, contested = sim.cell_counts()
        plots["heat-occupied.png"] = heat_map(
            sim, [v / n for v in occupied], f"How often each cell is occupied at the end ({_games(sim.games)})")
        plots["heat-contested.png"] = heat_map(
            sim, [v / n for v in contested],
            f"How often each cell is contested: pieces of two or more players stood on it ({_games(sim.games)})",
            VIRIDIS)
    return plots


__all__ = ["heat_chart", "heat_map", "index_trajectories", "report_plots", "score_chart", "score_distribution",
           "trajectory_chart", "win_rate_by_bot", "win_rate_by_seat"]
