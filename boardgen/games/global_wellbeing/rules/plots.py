"""The simulation report's pictures, as PNG bytes (matplotlib, Agg, no timestamps: same data, same bytes)."""

from __future__ import annotations

import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from boardgen.games.global_wellbeing.rules.simulate import Simulation, wilson_interval, wins_by_bot, wins_by_seat

DPI = 100
SEAT_COLOUR = "#4c72b0"


def _png(fig: Figure) -> bytes:
    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


def _figure(width_in: float, height_in: float, left_in: float = 0.8, right_in: float = 0.2, bottom_in: float = 0.6,
            top_in: float = 0.45, wspace: float = 0.2, hspace: float = 0.2) -> Figure:
    """A figure with fixed margins (inches) around its axes. A layout engine would lay every figure out by
    drawing it an extra time, which cost as much as the drawing; these margins fit the labels drawn here."""
    fig = Figure(figsize=(width_in, height_in), dpi=DPI)
    fig.subplots_adjust(left=left_in / width_in, right=1 - right_in / width_in, bottom=bottom_in / height_in,
                        top=1 - top_in / height_in, wspace=wspace, hspace=hspace)
    return fig


BOT_COLOURS = {"greedy": "#4c72b0", "planner": "#55a868", "random": "#8c8c8c"}


def score_distribution(sim: Simulation) -> bytes:
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    by_bot: dict[str, list[int]] = {}
    for r in sim.results:
        for seat, name in enumerate(r.bots):
            by_bot.setdefault(name, []).append(r.scores[seat])
    winning = [max(r.scores) for r in sim.results]
    all_scores = [s for scores in by_bot.values() for s in scores]
    if all_scores:
        lo, hi = min(all_scores), max(all_scores)
        bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 40)))
        for name in sorted(by_bot):
            ax.hist(by_bot[name], bins=bins, histtype="stepfilled", alpha=0.45,
                    color=BOT_COLOURS.get(name, "#dd8452"), label=f"{name} bot")
        ax.hist(winning, bins=bins, histtype="step", linewidth=1.8, color="#c44e52", label="winning score")
    ax.set_xlabel("final score (pieces in each zone x its final index, summed)")
    ax.set_ylabel("players")
    ax.set_title(f"Score distribution, {sim.games} games, {sim.players} players")
    ax.legend(frameon=False)
    return _png(fig)


def _bars(ax, labels: Sequence[str], wins: Sequence[float], trials: Sequence[int], expected: float) -> None:
    rates = [w / t if t else 0.0 for w, t in zip(wins, trials, strict=True)]
    cis = [wilson_interval(w, t) for w, t in zip(wins, trials, strict=True)]
    err = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, cis, strict=True)],  # rounding: never below zero
           [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis, strict=True)]]
    xs = list(range(len(labels)))
    ax.bar(xs, rates, color=SEAT_COLOUR, yerr=err, capsize=4, ecolor="#333333")
    ax.axhline(expected, color="#c44e52", linestyle="--", linewidth=1, label=f"fair share {expected:.1%}")
    ax.set_xticks(xs, labels)
    ax.set_ylabel("win rate (ties shared), 95% Wilson interval")
    ax.set_ylim(0, max([*rates, expected]) * 1.5 + 0.02)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(frameon=False)


def win_rate_by_seat(sim: Simulation) -> bytes:
    fig = _figure(6, 4)
    ax = fig.add_subplot()
    wins = wins_by_seat(sim)
    _bars(ax, [f"seat {s + 1}" for s in range(sim.players)], wins, [sim.games] * sim.players, 1 / sim.players)
    ax.set_title("Win rate by seat (seat 1 plays first)")
    return _png(fig)


def win_rate_by_bot(sim: Simulation) -> bytes:
    fig = _figure(6, 4)
    ax = fig.add_subplot()
    by_bot = wins_by_bot(sim)
    names = list(by_bot)
    _bars(ax, names, [by_bot[n][0] for n in names], [by_bot[n][1] for n in names], 1 / sim.players)
    ax.set_title("Win rate by bot (per seat played)")
    return _png(fig)


def index_trajectories(sim: Simulation, colours: Sequence[str]) -> bytes:
    """One small panel per zone: mean index after every turn, its 10-90% band, and the zone's bounds."""
    zones = sim.board.zones
    columns = 3
    rows = -(-len(zones) // columns)
    fig = _figure(10, 2.6 * rows + 0.6, left_in=0.55, right_in=0.1, bottom_in=0.5, top_in=0.85, wspace=0.14,
                  hspace=0.3)
    axes = fig.subplots(rows, columns, sharex=True, squeeze=False)
    rules = sim.rules
    n = len(sim.results)
    length = len(sim.results[0].trajectory) if n else 1
    turns = list(range(length))
    for z in range(rows * columns):
        ax = axes[z // columns][z % columns]
        if z >= len(zones):
            ax.set_visible(False)
            continue
        zone = zones[z]
        colour = colours[z] if z < len(colours) else "#4c72b0"
        for t in turns[1:]:
            if t % rules.tipping_point_every == 0:
                ax.axvline(t, color="#c44e52", linewidth=0.8, alpha=0.5)
            elif t % rules.stewardship_every == 0:
                ax.axvline(t, color="#999999", linewidth=0.6, alpha=0.5)
        ax.axhline(zone.die, color="#555555", linewidth=0.6, linestyle=":")
        ax.axhline(zone.minimum_index, color="#555555", linewidth=0.6, linestyle=":")
        if n:
            per_turn = [sorted(r.trajectory[t][z] for r in sim.results) for t in turns]
            mean = [sum(v) / n for v in per_turn]
            p10 = [v[int(0.1 * (n - 1))] for v in per_turn]
            p90 = [v[int(0.9 * (n - 1))] for v in per_turn]
            xs = [*turns, length]  # the value after the last turn is drawn over one more turn's width
            ax.fill_between(xs, [*p10, p10[-1]], [*p90, p90[-1]], color=colour, alpha=0.3, linewidth=0,
                            step="post")
            ax.plot(xs, [*mean, mean[-1]], color="#222222", linewidth=1.6, drawstyle="steps-post")
            final = sum(r.final_index[z] for r in sim.results) / n
            if final != mean[-1]:
                ax.plot([length - 0.5], [final], marker="o", color="#c44e52", markersize=5)
                ax.annotate(f"{final:.1f} with badges", (length - 0.5, final), textcoords="offset points",
                            xytext=(-4, 4), ha="right", fontsize=8, color="#c44e52")
        ax.set_title(f"{zone.name} (d{zone.die}, start {zone.start_index})", fontsize=10)
        top = max([zone.die + 1, *(r.final_index[z] + 1 for r in sim.results)]) if n else zone.die + 1
        ax.set_ylim(0, min(top, 2 * zone.die + 2))
        ax.set_xlim(0, length)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xticks(turns[:: max(1, length // 5)])
        if z % columns == 0:
            ax.set_ylabel("index")
        if z // columns == rows - 1:
            ax.set_xlabel("after turn")
    fig.suptitle(f"Bio-productivity index after every turn: mean (line) and 10-90% of {n} games (band)\n"
                 "grey lines: stewardship, red lines: tipping point; dot: mean final index with badges",
                 fontsize=10, y=1 - 0.08 / fig.get_figheight(), va="top")
    return _png(fig)


def heat_map(sim: Simulation, values: Sequence[float], title: str, cmap: str = "magma_r") -> bytes:
    """Each cell drawn at its board position (corners from the board's hex layout), coloured by value."""
    corners = sim.board.corners_mm
    if corners is None:
        raise ValueError("the heat map needs a board built from a map (RulesBoard.from_board)")
    xs = [x for cell in corners for x, _ in cell]
    ys = [y for cell in corners for _, y in cell]
    x0, x1, y0, y1 = min(xs) - 5, max(xs) + 5, min(ys) - 5, max(ys) + 5
    # axes sized to the board's aspect, the colour bar in a fixed strip on the right (no layout pass)
    left_in, bottom_in, top_in, bar_strip_in = 0.75, 0.6, 0.5, 1.25
    width_in = 11 - left_in - bar_strip_in
    height_in = width_in * (y1 - y0) / (x1 - x0)
    if height_in > 9:  # a tall board: as high as a page allows, narrower
        height_in, width_in = 9.0, 9.0 * (x1 - x0) / (y1 - y0)
    fig = Figure(figsize=(11, height_in + bottom_in + top_in), dpi=DPI)
    fig_h = fig.get_figheight()
    ax = fig.add_axes((left_in / 11, bottom_in / fig_h, width_in / 11, height_in / fig_h))
    polys = [[(x, y) for x, y in cell] for cell in corners]
    coll = PolyCollection(polys, array=list(values), cmap=cmap, edgecolors="#555555", linewidths=0.3)
    coll.set_clim(0.0, max(1e-9, max(values, default=1.0)))
    ax.add_collection(coll)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)  # board mm: y down
    ax.set_aspect("equal")
    ax.set_xlabel("board x (mm)")
    ax.set_ylabel("board y (mm)")
    ax.set_title(title)
    bar_h = 0.7 * height_in
    cax = fig.add_axes(((left_in + width_in + 0.3) / 11, (bottom_in + (height_in - bar_h) / 2) / fig_h, 0.2 / 11,
                        bar_h / fig_h))
    fig.colorbar(coll, cax=cax, label="share of games")
    return _png(fig)


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
        plots["heat-occupied.png"] = heat_map(
            sim, [v / n for v in sim.occupied], f"How often each cell is occupied at the end ({sim.games} games)")
        plots["heat-contested.png"] = heat_map(
            sim, [v / n for v in sim.contested],
            f"How often each cell is contested: pieces of two or more players stood on it ({sim.games} games)",
            cmap="viridis")
    return plots


__all__ = ["heat_map", "index_trajectories", "report_plots", "score_distribution", "win_rate_by_bot",
           "win_rate_by_seat"]
