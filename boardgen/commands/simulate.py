"""`boardgen simulate`: play many games of any game with bots and write a report of results and plots."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from boardgen.commands.options import MAX_GAMES, MAX_JOBS, out_option, seed_type, template_option
from boardgen.errors import ConfigError
from boardgen.io import output_lock, prepare_output, write_inside
from boardgen.play.kernels import loading_s


def _bot_list(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    if not names:
        raise click.BadParameter("expected a comma-separated list of bots")
    return names


def check_bots(plugin, bots: tuple[str, ...] | None) -> None:  # type: ignore[no-untyped-def]
    if bots is None:
        return
    known = plugin.bots()
    for name in bots:
        if name not in known:
            raise click.BadParameter(f"unknown bot {name!r} for {plugin.name}; expected one of "
                                     f"{', '.join(sorted(known))}", param_hint="'--bots'")


def progress_bar(games: int, label: str):  # type: ignore[no-untyped-def]  # click's ProgressBar type is private
    return click.progressbar(length=games, label=label, file=sys.stderr, show_eta=True, show_percent=True)


@click.command("simulate")
@template_option
@out_option
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=None,
              help="Games to play (default: the template's simulate.games, 1000 unless it says).")
@click.option("--players", "-p", type=click.IntRange(1, 12), default=None,
              help="Players per game (default: the template's usual number).")
@click.option("--bots", "-b", default=None, callback=_bot_list,
              help="Comma-separated bots, repeated to fill the seats (default: the template's simulate.bots, "
                   "else the game's own mix; every game has random, greedy and mcts).")
@click.option("--seed", "-s", type=seed_type, default=None, help="Master seed (default: the template's seed).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True,
              help="Processes; results do not depend on it.")
@click.option("--rotate/--no-rotate", default=True, show_default=True,
              help="Shift the bot line-up one seat each game, so each seat meets each bot equally often.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate_command(template_path: Path | None, out_root: Path, games: int | None, players: int | None,
                     bots: tuple[str, ...] | None, seed: int | None, jobs: int, rotate: bool, quiet: bool) -> None:
    """Play many games with bots; write results.json and PNG plots to OUT/<edition>/report/."""
    from boardgen.play.report import results_bytes
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    plugin, config = load(template_path)
    prepare_output(out_root, config.edition)  # before the games: a folder we cannot write is one line now
    check_bots(plugin, bots)
    low, usual, high = plugin.player_range(config)
    players = players or usual
    if not low <= players <= high:
        raise ConfigError(config.source, "players", f"{players} players asked for; the template allows {low} to "
                          f"{high}")
    common = getattr(config, "simulate", None)  # the template's simulate: {bots, games, validate_games}
    bots = bots or (common.bots if common is not None else None) or plugin.default_bots
    games = games or (common.games if common is not None else 1000)
    seed = config.seed if seed is None else seed
    ctx = BuildContext(config, plugin)
    loading_before = loading_s()
    started = time.perf_counter()
    if quiet:
        document, plots, lines = plugin.simulate_report(ctx, games, players, bots, seed, jobs, rotate, None)
    else:
        with progress_bar(games, f"{games} games") as bar:
            document, plots, lines = plugin.simulate_report(ctx, games, players, bots, seed, jobs, rotate,
                                                            bar.update)
    # the rate: games over the time of playing and summarising them and drawing the plots; start-up (imports,
    # the template, a compiled kernel loaded from its cache) is outside it, as the imports always were, and the
    # kernel's load is printed beside it
    loading = loading_s() - loading_before
    elapsed = time.perf_counter() - started - loading
    out_dir = prepare_output(out_root, config.edition)
    report_dir = out_dir / "report"
    with output_lock(out_root):  # never while a build swaps the kit in
        out_dir.mkdir(exist_ok=True)
        write_inside(out_dir, "report/results.json", results_bytes(document))
        for name, png in plots.items():
            write_inside(out_dir, f"report/{name}", png)
    rate = games / max(elapsed, 1e-9)
    loaded = f"; start-up: the compiled kernel loaded in {loading:.1f} s" if loading >= 0.05 else ""
    click.echo(f"{games} games, {players} players, bots {','.join(bots)}, seed {seed}: "
               f"{elapsed:.1f} s ({rate:,.{0 if rate >= 10 else 2}f} games/s with {jobs} job{'s' if jobs > 1 else ''})"
               f"{loaded}")
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {report_dir}: results.json, {', '.join(sorted(plots))}")
