"""Global Warming's own checks for `boardgen validate` (the generic seat, tie and length checks come first)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def report_plots(ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
    """The generic plots, plus wins by starting ring and the share of games whose first pawn drowned by each
    turn."""
    from matplotlib.figure import Figure

    from boardgen.play.plots import _png, generic_plots

    out = generic_plots(ctx.plugin.title, summary, records)
    if not summary["games"]:
        return out
    rates = start_rates(summary)
    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot(1, 2, 1)
    keys = ["inner", "outer"]
    values = [rates[k][0] for k in keys]
    ax.bar(["beside the hole", "outer ring"], values,
           yerr=[[rates[k][0] - rates[k][1] for k in keys], [rates[k][2] - rates[k][0] for k in keys]],
           capsize=4, color="#56b4e9")
    ax.axhline(summary["expected_seat_rate"], color="#d55e00", linestyle="--")
    ax.set_ylabel("win rate of a pawn")
    ax.set_title("start tile", fontsize=9)
    ax = fig.add_subplot(1, 2, 2)
    firsts = sorted(r.outcome.metrics["first_drowning_turn"] for r in records)
    turns = list(range(1, int(max(firsts)) + 1))
    ax.step(turns, [sum(1 for f in firsts if f <= t) / len(firsts) for t in turns], where="post", color="#009e73")
    ax.set_xlabel("turn")
    ax.set_ylabel("games with a pawn drowned")
    ax.set_title("first drowning", fontsize=9)
    fig.suptitle(f"{ctx.plugin.title}: {summary['games']} games", fontsize=10)
    fig.tight_layout()
    out["start-and-first-drowning.png"] = _png(fig)
    return out
