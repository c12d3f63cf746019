"""Options shared by several commands."""

from __future__ import annotations

from pathlib import Path

import click

from boardgen.schema import MAX_SIMULATED_GAMES

template_option = click.option(
    "--template", "-t", "template_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
    help="Template YAML (default: the default game's own template; `boardgen games` lists the games).",
)
out_option = click.option(
    "--out", "-o", "out_root", type=click.Path(path_type=Path, file_okay=False), default=Path("build"),
    show_default=True, help="Output folder; files go to OUT/<edition>/.",
)

MAX_GAMES = MAX_SIMULATED_GAMES
"""Games one `simulate` or `validate` run may play (``boardgen.schema.MAX_SIMULATED_GAMES``, the template's limit
of ``simulate.games`` too)."""
MAX_JOBS = 256
seed_type = click.IntRange(0, 2**63 - 1)
"""Seeds are 0 .. 2**63 - 1, as in templates."""
