"""Plots every game's simulation report gets: win rate by seat with 95% intervals, and game length."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return buffer.getvalue()


def generic_plots(title: str, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
    from matplotlib.figure import Figure

    seats = summary["win_rate_by_seat"]
    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot()
    rates = [s["rate"] for s in seats]
    low = [max(0.0, s["rate"] - s["ci95"][0]) for s in seats]  # rounding can put a bound a hair past the rate
    high = [max(0.0, s["ci95"][1] - s["rate"]) for s in seats]
    ax.bar([str(s["seat"]) for s in seats], rates, yerr=[low, high], capsize=4, color="#56b4e9")
    ax.axhline(summary["expected_seat_rate"], color="#d55e00", linestyle="--", label="even share")
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate")
    ax.set_title(f"{title}: wins by seat ({summary['games']} games, 95% CI)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    out = {"win-rate-by-seat.png": _png(fig)}

    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot()
    lengths = [r.outcome.length for r in records]
    if lengths:
        lo, hi = min(lengths), max(lengths)
        ax.hist(lengths, bins=range(lo, hi + 2), color="#009e73", align="left")
    ax.set_xlabel("game length")
    ax.set_ylabel("games")
    ax.set_title(f"{title}: game length")
    fig.tight_layout()
    out["game-length.png"] = _png(fig)
    return out
