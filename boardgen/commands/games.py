"""`boardgen games` (the installed games), `boardgen new` (a starter template) and `boardgen schema`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from boardgen.errors import ConfigError
from boardgen.io import write_atomic


@click.command("games")
def games_command() -> None:
    """List the installed games (entry-point group boardgen.games)."""
    from boardgen.plugin import broken_games, installed_games

    games = installed_games()
    width = max((len(n) for n in games), default=10)
    for name, plugin in games.items():
        click.echo(f"{name:<{width}}  {plugin.title}: {plugin.summary}")
    for name, why in broken_games().items():
        click.echo(f"{name:<{width}}  (failed to load: {why})", err=True)


def _game(name: str):  # type: ignore[no-untyped-def]
    from boardgen.plugin import get_game

    return get_game(name, "<command line>")


@click.command("new")
@click.argument("game")
@click.argument("output", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
def new_command(game: str, output: Path, force: bool) -> None:
    """Write a commented starter template for GAME to OUTPUT; it builds as it is."""
    plugin = _game(game)
    if output.exists() and not force:
        raise ConfigError(str(output), "", "file exists; pass --force to overwrite it")
    template = plugin.default_template()
    text = template.read_text(encoding="utf-8")
    # the shipped template names its schema relative to itself; the copy names it where it is installed
    text = re.sub(r"^(# yaml-language-server: \$schema=)(\S+)$",
                  lambda m: m.group(1) + (template.parent / m.group(2)).resolve().as_uri(), text, count=1,
                  flags=re.MULTILINE)
    write_atomic(output, text.encode("utf-8"))
    click.echo(f"wrote {output}: {plugin.title}; build it with `boardgen build --template {output}`", err=True)


@click.command("schema")
@click.argument("game")
def schema_command(game: str) -> None:
    """Print the JSON Schema of GAME's templates (editors read it through the $schema line)."""
    sys.stdout.write(json.dumps(_game(game).json_schema(), indent=2, ensure_ascii=False) + "\n")
