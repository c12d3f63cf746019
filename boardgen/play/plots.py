"""Plots every game's simulation report gets: win rate by seat with 95% intervals, and game length (drawn with
``boardgen.render.charts``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SEAT_COLOUR = "#56b4e9"
REFERENCE_COLOUR = "#d55e00"
LENGTH_COLOUR = "#009e73"


def seat_bars(summary: Mapping[str, Any]) -> list[Any]:
    """The summary's win rate by seat as bars with their 95% intervals."""
    from boardgen.render.charts import Bar

    # rounding can put a bound a hair past the rate: the bar stays inside its interval
    return [Bar(str(s["seat"]), s["rate"], min(s["ci95"][0], s["rate"]), max(s["ci95"][1], s["rate"]))
            for s in summary["win_rate_by_seat"]]


def generic_plots(title: str, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
    """Win rate by seat and the histogram of game length (``records``: the games, as records or a
    ``RecordView`` over their columns)."""
    from boardgen.render.charts import Series, bar_chart, histogram_chart, integer_bins

    seats = bar_chart(seat_bars(summary), title=f"{title}: wins by seat ({summary['games']} games, 95% CI)",
                      x_label="seat", y_label="win rate", colour=SEAT_COLOUR, size_in=(6.0, 3.2),
                      reference=(summary["expected_seat_rate"], "even share"), reference_colour=REFERENCE_COLOUR)
    columns = getattr(records, "columns", None)  # a RecordView: the lengths straight from its column
    lengths = columns.length.tolist() if columns is not None else [int(r.outcome.length) for r in records]
    edges = integer_bins(min(lengths), max(lengths)) if lengths else [0, 1]
    length = histogram_chart([Series("", lengths, LENGTH_COLOUR, opacity=1.0)], edges,
                             title=f"{title}: game length", x_label="game length", y_label="games",
                             size_in=(6.0, 3.2))
    return {"win-rate-by-seat.png": seats.png(), "game-length.png": length.png()}
