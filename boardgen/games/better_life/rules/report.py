"""BETTER Life's findings and plots for `boardgen simulate` and `validate`: how often everyone loses and why,
each role's win rate, the Victory Point spread, how often each policy passes, and the meters at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from boardgen.play.plots import generic_plots
from boardgen.play.report import Finding
from boardgen.plugin import BuildContext

TEAM_LOSS_WARNING = 0.6  # everyone loses this often with the default bots: the commons is too hard
TEAM_LOSS_FLOOR = 0.02  # or this rarely: the shared goal never bites
LOSS_IDLE = 0.2  # the loss meter ends below this share of its limit and never ends a game: it is no threat


def _mean(summary: Mapping[str, Any], key: str) -> float:
    return float(summary["metrics"].get(key, {}).get("mean", 0.0))


def rule_findings(ctx: BuildContext, summary: Mapping[str, Any]) -> list[Finding]:
    out: list[Finding] = []
    n = summary["games"]
    if not n:
        return out
    lose = _mean(summary, "everyone_loses")
    by_loss = _mean(summary, "lost_to_loss_meter")
    by_policy = _mean(summary, "lost_to_policy_meter")
    bots = ", ".join(summary["bots"])
    out.append(Finding("everyone-loses", "info", "team goal",
                       f"everyone lost {lose:.1%} of {n} games ({by_loss:.1%} biodiversity loss reached "
                       f"{ctx.config.meters.loss_limit}, {by_policy:.1%} policy meter below "
                       f"{ctx.config.meters.policy_goal}); bots {bots}"))
    if lose > TEAM_LOSS_WARNING:
        out.append(Finding("team-loss-high", "warning", "team goal",
                           f"everyone loses in {lose:.1%} of games with these bots"))
    if lose < TEAM_LOSS_FLOOR:
        out.append(Finding("team-loss-low", "warning", "team goal",
                           f"everyone loses in only {lose:.1%} of games: the shared goal hardly bites"))
    weak, semi, success = (_mean(summary, f"votes_{b}") for b in ("weak", "semi", "success"))
    out.append(Finding("vote-results", "info", "votes",
                       f"per game {success:.2f} successful, {semi:.2f} semi-successful and {weak:.2f} weak votes "
                       f"of {ctx.config.rounds}"))
    loss_end = _mean(summary, "loss_meter_end")
    if by_loss == 0 and loss_end < LOSS_IDLE * ctx.config.meters.loss_limit:
        out.append(Finding("loss-meter-idle", "warning", "meters",
                           f"the Biodiversity Loss meter ended no game and stands at {loss_end:.2f} of "
                           f"{ctx.config.meters.loss_limit} at the end on average: with these bots it is no "
                           "threat (successful votes and bought-off events keep it near 0)"))
    out.append(Finding("meters-at-end", "info", "meters",
                       f"policy meter ends at {_mean(summary, 'policy_meter_end'):.2f} on average, biodiversity "
                       f"loss at {_mean(summary, 'loss_meter_end'):.2f}; mean pool {_mean(summary, 'pool_mean'):.1f} "
                       "IP a vote"))
    out.append(Finding("vp-spread", "info", "scoring",
                       f"Victory Points: winner {_mean(summary, 'vp_top'):.1f} on average, spread (top minus "
                       f"bottom) {_mean(summary, 'vp_spread'):.1f}"))
    roles = [r.key for r in ctx.config.roles]
    survived = max(1e-9, 1 - lose)
    rates = ", ".join(f"{k} {_mean(summary, f'win_{k}'):.1%}" for k in roles)
    out.append(Finding("role-win-rate", "info", "roles", f"win rate by role (all games): {rates}"))
    for k in roles:
        share = _mean(summary, f"win_{k}") / survived
        if lose < 1 and abs(share - 1 / len(roles)) > 0.12:
            out.append(Finding("role-advantage", "warning", f"role {k}",
                               f"wins {share:.1%} of the games someone wins (even share {1 / len(roles):.1%})"))
    passes = ", ".join(f"{key.removeprefix('passed_')} {v['mean']:.0%}" for key, v in summary["metrics"].items()
                       if key.startswith("passed_"))
    out.append(Finding("policies-passed", "info", "policies", f"share of games each policy was voted a "
                       f"success: {passes}"))
    by_bot = summary.get("win_rate_by_bot", {})
    if len(by_bot) > 1:
        ranked = sorted(by_bot.items(), key=lambda kv: -kv[1]["rate"])
        text = ", ".join(f"{name} {v['rate']:.1%}" for name, v in ranked)
        out.append(Finding("who-gains", "info", "bots", f"win rate per seat filled: {text}"))
        if "free-rider" in by_bot:
            rider = by_bot["free-rider"]["rate"]
            others = [v["rate"] for name, v in by_bot.items() if name != "free-rider"]
            best = max(others)
            if rider > best:
                out.append(Finding("free-riding-pays", "warning", "commons",
                                   f"the free rider wins {rider:.1%} of its seats, more than any contributor "
                                   f"(best {best:.1%}): cooperation does not pay with these bots"))
    return out


def plots(title: str, ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
    from boardgen.render.charts import Series, histogram_chart, integer_bins

    out = generic_plots(title, summary, records)
    columns = getattr(records, "columns", None)  # a RecordView: the meter straight from its column
    ends = (columns.metrics["policy_meter_end"].astype(np.int64).tolist() if columns is not None
            else [int(r.outcome.metrics["policy_meter_end"]) for r in records])
    chart = histogram_chart([Series("", ends, "#0072b2", opacity=1.0)], integer_bins(0, max(ends, default=0)),
                            title=f"{title}: policy meter at the end ({len(records)} games)",
                            x_label="policy meter at the end", y_label="games", size_in=(6.0, 3.2),
                            reference_x=(ctx.config.meters.policy_goal - 0.5, "goal"))
    out["policy-meter-end.png"] = chart.png()
    return out
