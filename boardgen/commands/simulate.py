"""`boardgen simulate`: play many games with bots and write a report of results and plots."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from boardgen.commands.options import out_option, template_option
from boardgen.config import load_template
from boardgen.errors import ConfigError
from boardgen.io import write_atomic


def _bot_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    from boardgen.rules.bots import BOT_NAMES

    names = tuple(v.strip() for v in value.split(",") if v.strip())
    if not names:
        raise click.BadParameter("expected a comma-separated list of bots")
    for name in names:
        if name not in BOT_NAMES:
            raise click.BadParameter(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")
    return names


def progress_bar(games: int, label: str):  # click's ProgressBar type is private
    return click.progressbar(length=games, label=label, file=sys.stderr, show_eta=True, show_percent=True)


@click.command("simulate")
@template_option
@out_option
@click.option("--games", "-n", type=click.IntRange(min=1), default=1000, show_default=True, help="Games to play.")
@click.option("--players", "-p", type=click.IntRange(1, 6), default=None,
              help="Players per game (default: the template's rules.players).")
@click.option("--bots", "-b", default="greedy,planner,random", show_default=True, callback=_bot_list,
              help="Comma-separated bots (random, greedy, planner), repeated to fill the seats.")
@click.option("--seed", "-s", type=int, default=None, help="Master seed (default: the template's seed).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes; results do not depend on it.")
@click.option("--rotate/--no-rotate", default=True, show_default=True,
              help="Shift the bot line-up one seat each game, so each seat meets each bot equally often.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate_command(template_path: Path | None, out_root: Path, games: int, players: int | None,
                     bots: tuple[str, ...], seed: int | None, jobs: int, rotate: bool, quiet: bool) -> None:
    """Play many games with bots; write results.json and PNG plots to OUT/<edition>/report/."""
    from boardgen.mapbuild import build_board
    from boardgen.rules.board import RulesBoard
    from boardgen.rules.plots import report_plots
    from boardgen.rules.simulate import results_json, simulate

    config = load_template(template_path)
    players = players or config.rules.players
    if not config.rules.min_players <= players <= config.rules.max_players:
        raise ConfigError(config.source, "rules.min_players",
                          f"{players} players asked for; the template allows {config.rules.min_players} to "
                          f"{config.rules.max_players}")
    seed = config.seed if seed is None else seed
    board = RulesBoard.from_board(build_board(config))
    started = time.perf_counter()
    if quiet:
        sim = simulate(board, config.rules, games, players, bots, seed, jobs=jobs, rotate=rotate)
    else:
        with progress_bar(games, f"{games} games") as bar:
            sim = simulate(board, config.rules, games, players, bots, seed, jobs=jobs, rotate=rotate,
                           progress=bar.update)
    elapsed = time.perf_counter() - started
    report_dir = out_root / config.edition / "report"
    data = results_json(sim, config.edition, config.template_sha256)
    write_atomic(report_dir / "results.json", (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
    plots = report_plots(sim, [z.colour for z in config.zones.values()])
    for name, png in plots.items():
        write_atomic(report_dir / name, png)
    summary = data["summary"]
    rate = games / max(elapsed, 1e-9)
    click.echo(f"{games} games, {players} players, bots {','.join(bots)}, seed {seed}: "
               f"{elapsed:.1f} s ({rate:,.0f} games/s with {jobs} job{'s' if jobs > 1 else ''})")
    seats = "  ".join(f"{s['seat']}: {s['rate']:.1%}" for s in summary["win_rate_by_seat"])
    click.echo(f"win rate by seat   {seats}")
    by_bot = "  ".join(f"{name}: {v['rate']:.1%}" for name, v in summary["win_rate_by_bot"].items())
    click.echo(f"win rate by bot    {by_bot}")
    score = summary["score"]
    click.echo(f"scores             mean {score['mean']:.0f}, median {score['median']:.0f}, "
               f"winner mean {score['winning_mean']:.0f}; ties {summary['ties']['share']:.1%}")
    settled = summary["lead_settled_after_turn"]
    click.echo(f"lead settled       after turn {settled['mean']:.1f} on average (median {settled['median']:g}); "
               f"leader after setup won {settled['from_setup_share']:.0%} of games")
    finals = "  ".join(f"{name} {v['final_index_mean']:.1f}" for name, v in summary["zones"].items())
    click.echo(f"final index (mean) {finals}")
    click.echo(f"wrote {report_dir}: results.json, {', '.join(sorted(plots))}")
