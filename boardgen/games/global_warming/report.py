"""Global Warming's own checks for `boardgen validate` (the generic seat, tie and length checks come first)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgen.play.report import Finding, wilson_interval
from boardgen.plugin import BuildContext

from .engine import TILES


def board_findings(ctx: BuildContext) -> list[Finding]:
    cells = ctx.board
    out = [Finding("island", "info", "setup", f"{ctx.config.rules.setup} island of {len(cells)} tiles")]
    if len(cells) != TILES:
        out.append(Finding("island", "error", "setup", f"the island needs {TILES} tiles, the shape has {len(cells)}"))
    return out


def start_rates(summary: Mapping[str, Any]) -> dict[str, tuple[float, float, float]]:
    """Win rate of a seat that started on one of the 8 tiles around the centre hole, and of one that started
    on the outer ring, each with a 95% interval (from the per-game metrics' means)."""
    n = summary["games"]
    m = summary["metrics"]
    players = summary["players"]
    inner_seats = m["inner_start_seats"]["mean"] * n
    outer_seats = players * n - inner_seats
    out = {}
    for key, seats, wins in (("inner", inner_seats, m["inner_start_win"]["mean"] * n),
                             ("outer", outer_seats, m["outer_start_win"]["mean"] * n)):
        seats_i = max(1, round(seats))
        low, high = wilson_interval(wins, seats_i)
        out[key] = (wins / seats_i, low, high)
    return out


def rule_findings(ctx: BuildContext, summary: Mapping[str, Any]) -> list[Finding]:
    out: list[Finding] = []
    n = summary["games"]
    if not n:
        return out
    m = summary["metrics"]
    rates = start_rates(summary)
    for key, label in (("inner", "a tile beside the centre hole"), ("outer", "the outer ring")):
        rate, low, high = rates[key]
        out.append(Finding("start-tile", "info", key, f"a pawn starting on {label} wins {rate:.1%} "
                           f"(95% CI {low:.1%}-{high:.1%}) of its games"))
    out.append(Finding("cancellations", "info", "dice", f"{m['cancel_share']['mean']:.1%} of die choices cancel"))
    out.append(Finding("first-drowning", "info", "elimination",
                       f"the first pawn drowns on turn {m['first_drowning_turn']['mean']:.1f} on average"))
    if m["cancel_share"]["mean"] > 0.6:
        out.append(Finding("cancellations", "warning", "dice", "most die choices cancel: the game stalls"))
    return out
