"""Global Warming's own checks for `boardgen validate` (the generic seat, tie and length checks come first)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.games.global_warming.rules.engine import TILES
from boardgen.play.report import Finding, wilson_interval
from boardgen.plugin import BuildContext


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


def report_plots(ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
    """The generic plots, plus wins by starting ring and the share of games whose first pawn drowned by each
    turn."""
    from boardgen.play.plots import REFERENCE_COLOUR, SEAT_COLOUR, generic_plots
    from boardgen.render.charts import Bar, Line, bar_chart, line_chart, side_by_side

    out = generic_plots(ctx.plugin.title, summary, records)
    if not summary["games"]:
        return out
    rates = start_rates(summary)
    bars = [Bar(label, *rates[key]) for key, label in (("inner", "beside the hole"), ("outer", "outer ring"))]
    start = bar_chart(bars, title="start tile", y_label="win rate of a pawn", colour=SEAT_COLOUR,
                      reference=(summary["expected_seat_rate"], "even share"), reference_colour=REFERENCE_COLOUR,
                      size_in=(3.4, 3.0))
    firsts = sorted(r.outcome.metrics["first_drowning_turn"] for r in records)
    turns = list(range(1, int(max(firsts)) + 1))
    drowned = [sum(1 for f in firsts if f <= t) / len(firsts) for t in turns]
    first = line_chart([Line("", turns, drowned, "#009e73", steps=True)], title="first drowning", x_label="turn",
                       y_label="games with a pawn drowned", percent=True, y_range=(0.0, 1.0), size_in=(3.6, 3.0))
    out["start-and-first-drowning.png"] = side_by_side(
        [start, first], f"{ctx.plugin.title}: {summary['games']} games").png()
    return out
