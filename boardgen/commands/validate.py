"""`boardgen validate`: board and rules checks for any game; exit code 1 when any finding is an error."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from boardgen.commands.options import MAX_GAMES, MAX_JOBS, seed_type, template_option


@click.command("validate")
@template_option
@click.option("--games", "-n", type=click.IntRange(0, MAX_GAMES), default=None,
              help="Games to simulate for the rules checks (default: the template's number).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True, help="Processes.")
@click.option("--seed", "-s", type=seed_type, default=None, help="Master seed (default: the template's seed).")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON instead of text.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--kit", "kit_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="A built kit folder (OUT/<edition>) whose print files to check too: fonts, type sizes, line "
                   "widths, page boxes, duplex backs, edge clearance, sheet fill, cut files.")
def validate_command(template_path: Path | None, games: int | None, jobs: int,
                     seed: int | None, as_json: bool, quiet: bool, kit_dir: Path | None) -> None:
    """Check that the board makes a playable, fair game (exit code 1 on any error finding)."""
    from boardgen.commands.simulate import progress_bar
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    plugin, config = load(template_path)
    ctx = BuildContext(config, plugin)
    n_games = plugin.validate_games(config) if games is None else games
    if quiet or n_games == 0:
        report = plugin.validate(ctx, n_games, jobs=jobs, seed=seed)
    else:
        with progress_bar(n_games, f"validating with {n_games} games") as bar:
            report = plugin.validate(ctx, n_games, jobs=jobs, seed=seed, progress=bar.update)
    if kit_dir is not None:
        from boardgen.i18n import translator
        from boardgen.kit.shape import shape_findings
        from boardgen.play.report import Report
        from boardgen.render.print_checks import kit_files, kit_findings

        findings = kit_findings(kit_files(kit_dir), translator(config, plugin))
        report = Report(report.edition, [*report.findings, *findings, *shape_findings(kit_dir)],
                        report.simulation).sorted()
    if as_json:
        sys.stdout.buffer.write(report.json_bytes())
    else:
        click.echo(report.text(), nl=False)
    if report.errors:
        sys.exit(1)  # SystemExit passes through boardgen.cli.main (click's Exit would be swallowed there)
