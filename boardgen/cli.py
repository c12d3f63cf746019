"""The `boardgen` command line. Each command lives in boardgen/commands/; this module only wires them up
and turns a BoardgenError into one line on stderr and exit code 2."""

from __future__ import annotations

import sys

import click

from boardgen import __version__
from boardgen.commands.build import build_command
from boardgen.commands.cells import cells_command, info_command
from boardgen.commands.games import games_command, new_command, schema_command
from boardgen.commands.sections import sections_command
from boardgen.commands.simulate import simulate_command
from boardgen.commands.sweep import sweep_command
from boardgen.commands.validate import validate_command
from boardgen.errors import BoardgenError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="boardgen")
@click.option("--no-cache", is_flag=True, help="Build the map afresh instead of reading the cache of built boards.")
def cli(no_cache: bool) -> None:
    """boardgen: print-ready board game kits from templates, with rules engines that check them."""
    if no_cache:
        import os

        os.environ["BOARDGEN_NO_CACHE"] = "1"  # read by boardgen.cache, also in worker processes


cli.add_command(build_command)
cli.add_command(cells_command)
cli.add_command(info_command)
cli.add_command(sections_command)
cli.add_command(simulate_command)
cli.add_command(validate_command)
cli.add_command(games_command)
cli.add_command(new_command)
cli.add_command(schema_command)
cli.add_command(sweep_command)


def main(argv: list[str] | None = None) -> None:
    try:
        # Without standalone mode click returns (not raises) the code of ctx.exit(n).
        code = cli.main(args=argv, prog_name="boardgen", standalone_mode=False)
    except BoardgenError as exc:
        click.echo(f"boardgen: error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("boardgen: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
