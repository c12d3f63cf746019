"""`boardgen sweep`: many rule variants x many games, ranked by an objective (local processes or Dask)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from boardgen.commands.options import out_option, template_option
from boardgen.errors import ConfigError


@click.command("sweep")
@template_option
@out_option
@click.option("--vary", "varies", multiple=True, required=True, metavar="KEY=V1,V2|KEY=START:STOP:STEP",
              help="A template key and its values; repeat for more keys (every combination is played).")
@click.option("--games", "-n", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="Games per variant.")
@click.option("--players", "-p", type=click.IntRange(1, 12), default=None, help="Players (default: the usual).")
@click.option("--bots", "-b", default=None, help="Comma-separated bots filling the seats (default: the game's mix).")
@click.option("--seed", "-s", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Master seed (default: the template's).")
@click.option("--sample", type=click.IntRange(1, 100_000), default=None,
              help="Play this many random combinations instead of all of them.")
@click.option("--objective", default="seat_spread + ties", show_default=True,
              help="Expression over the metrics; lower is better (e.g. 'seat_spread + ties + abs(length - 20)/100').")
@click.option("--batch", "batch_games", type=click.IntRange(1, 100_000), default=200, show_default=True,
              help="Games per task.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Local processes (ignored with --scheduler).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:8786",
              help="Run the batches on this Dask scheduler's workers instead of local processes.")
@click.option("--resume", is_flag=True, help="Keep the batches an interrupted run of the same sweep wrote.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def sweep_command(template_path: Path | None, out_root: Path, varies: tuple[str, ...], games: int,
                  players: int | None, bots: str | None, seed: int | None, sample: int | None, objective: str,
                  batch_games: int, jobs: int, scheduler: str | None, resume: bool, quiet: bool) -> None:
    """Play every variant of the template's rules and rank them; writes OUT/<edition>/sweep/."""
    from boardgen.commands.simulate import check_bots, progress_bar
    from boardgen.play import sweep
    from boardgen.schema import GameTemplate, move_old_keys
    from boardgen.template import load, read_template

    data, source, sha = read_template(template_path)
    plugin, config = load(template_path)
    model = plugin.template_model()
    if isinstance(model, type) and issubclass(model, GameTemplate):  # old spellings moved once, not per variant
        data = move_old_keys(data, model.moved_keys, source, model.players_was_a_count)
    parsed = [sweep.parse_vary(v) for v in varies]
    target = sweep.Objective.parse(objective)
    bot_names = tuple(b.strip() for b in bots.split(",") if b.strip()) if bots else plugin.default_bots
    check_bots(plugin, bot_names)
    low, usual, high = plugin.player_range(config)
    players_varied = players is None and any(v.key.split(".")[0] == "players" for v in parsed)
    players = players or usual
    if not low <= players <= high:
        raise ConfigError(source, "players", f"{players} players asked for; the template allows {low} to {high}")
    master = config.seed if seed is None else seed
    variants = sweep.variant_grid(parsed, sample, master)
    path = Path(source)
    plan = sweep.Plan(plugin.name, path.name, sha, data, source, tuple(variants), games, players, bot_names, master,
                      True, min(batch_games, games), players_varied)
    sweep.check_variants(plan)  # every variant is a valid template before a game is played
    target.check(sweep.probe_metrics(plan))  # and the objective names metrics the game reports
    out_dir = out_root / config.edition / "sweep"
    total = len(variants) * games
    where = scheduler or f"{jobs} local process{'es' if jobs > 1 else ''}"
    click.echo(f"{plugin.title}: {len(variants)} variants x {games} games on {where}", err=True)
    started = time.perf_counter()
    if quiet:
        result = sweep.run_sweep(plan, out_dir, target, jobs, scheduler, resume)
    else:
        with progress_bar(total, "sweep") as bar:
            result = sweep.run_sweep(plan, out_dir, target, jobs, scheduler, resume, bar.update)
    elapsed = time.perf_counter() - started
    written = sweep.write_sweep(result, out_dir, path, config.edition)
    played = result.batches_run
    click.echo(f"{total:,} games in {elapsed:.1f} s ({played} batches played, {result.batches_resumed} resumed)")
    unfinished = [r for r in result.rows if not sweep.finite(r["objective"])]
    if unfinished:
        shown = ", ".join(str(r["variant"]) for r in unfinished[:10]) + (", ..." if len(unfinished) > 10 else "")
        click.echo(f"objective not finite for {len(unfinished)} of {len(result.rows)} variants ({shown}): "
                   f"ranked last (a division by 0, or undefined)")
    if result.best is None:
        click.echo("no variant has a finite objective: no best variant, no best.yaml")
    else:
        best = result.rows[result.best]
        click.echo(f"best: variant {best['variant']} "
                   f"{', '.join(f'{k}={v}' for k, v in best['overrides'].items())}: objective {best['objective']:g} "
                   f"(seat spread {best['metrics']['seat_spread']:.3f}, ties {best['metrics']['ties']:.3f})")
        apart = result.separation
        if apart is not None and apart.get("separated") is False:
            needed = apart.get("games_to_separate")
            more = (f"about {needed:,} games per variant would separate them" if needed
                    else "the two score the same: more games would not separate them")
            click.echo(f"warning: the best is not separated from the runner-up, variant {apart['runner_up']}: the "
                       f"95% interval of their difference, {apart['ci95'][0]:g} to {apart['ci95'][1]:g}, includes "
                       f"0 ({games:,} games each); {more}")
        elif apart is not None and apart.get("separated") is None:
            click.echo(f"note: cannot tell whether the best is separated from the runner-up ({apart['note']})")
    click.echo(f"wrote {out_dir}: {', '.join(written)}")
