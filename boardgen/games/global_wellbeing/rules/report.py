"""`boardgen simulate` for the Global Wellbeing Game: its fused fast path (``rules.simulate``), its six plots
and its summary lines. The results match the API path game for game (tests/games/global_wellbeing/test_rules_api.py).
A line-up with
a bot the fused engine does not have (``mcts``, ``random-generic``, ``greedy-generic``) is played through the
rules API by the generic runner and reported with the generic summary and plots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardgen.plugin import BuildContext


def simulate_report(ctx: BuildContext, games: int, players: int, bots: Sequence[str], seed: int, jobs: int,
                    rotate: bool, progress: Callable[[int], None] | None
                    ) -> tuple[dict[str, Any], dict[str, bytes], list[str]]:
    from boardgen.games.global_wellbeing.rules.board import RulesBoard
    from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES
    from boardgen.games.global_wellbeing.rules.plots import report_plots
    from boardgen.games.global_wellbeing.rules.simulate import columns, results_json, simulate
    from boardgen.play.runner import GAMES_TABLE

    if any(name not in BOT_NAMES for name in bots):
        from boardgen.play.runner import generic_simulate_report

        return generic_simulate_report(ctx.plugin, ctx, games, players, bots, seed, jobs, rotate, progress)
    config = ctx.config
    board = ctx.value("rules_board", lambda: RulesBoard.from_board(ctx.board))
    sim = simulate(board, config.rules, games, players, bots, seed, jobs=jobs, rotate=rotate, progress=progress)
    data = results_json(sim, config.edition, config.template_sha256)
    plots = report_plots(sim, [z.colour for z in config.zones.values()])
    plots[GAMES_TABLE] = columns(sim).games_csv()
    summary = data["summary"]
    lines = []
    seats = "  ".join(f"{s['seat']}: {s['rate']:.1%}" for s in summary["win_rate_by_seat"])
    lines.append(f"win rate by seat   {seats}")
    by_bot = "  ".join(f"{name}: {v['rate']:.1%}" for name, v in summary["win_rate_by_bot"].items())
    lines.append(f"win rate by bot    {by_bot}")
    score = summary["score"]
    lines.append(f"scores             mean {score['mean']:.0f}, median {score['median']:.0f}, "
                 f"winner mean {score['winning_mean']:.0f}; ties {summary['ties']['share']:.1%}")
    settled = summary["lead_settled_after_turn"]
    lines.append(f"lead settled       after turn {settled['mean']:.1f} on average (median {settled['median']:g}); "
                 f"leader after setup won {settled['from_setup_share']:.0%} of games")
    finals = "  ".join(f"{name} {v['final_index_mean']:.1f}" for name, v in summary["zones"].items())
    lines.append(f"final index (mean) {finals}")
    return data, plots, lines
