"""`boardgen sections`: how the board of a game with a geographic map is cut into pieces (for a jigsaw board,
the proof that they fit one way only), as the game reports it (``GamePlugin.sections_report``)."""

from __future__ import annotations

from pathlib import Path

import click

from boardgen.commands.cells import map_of
from boardgen.commands.options import template_option
from boardgen.errors import blamed_on
from boardgen.plugin import BuildContext


@click.command("sections")
@template_option
def sections_command(template_path: Path | None) -> None:
    """Print how the board is cut: each piece's size, cells and neighbours (and for a jigsaw, the cut lines, the
    knobs and the unique-fit proof)."""
    plugin, config, _spec = map_of(template_path)
    with blamed_on(config.source):
        lines = plugin.sections_report(BuildContext(config, plugin))
    for line in lines:
        click.echo(line)
