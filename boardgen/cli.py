"""The `boardgen` command line. Each command lives in boardgen/commands/; this module only wires them up
and turns a BoardgenError into one line on stderr and exit code 2."""

from __future__ import annotations

import contextlib
import errno
import os
import sys

import click

from boardgen import __version__
from boardgen.commands.build import build_command
from boardgen.commands.export import export_command
from boardgen.commands.games import games_command, new_command, schema_command
from boardgen.commands.serve import serve_command
from boardgen.commands.simulate import simulate_command
from boardgen.commands.sweep import sweep_command
from boardgen.commands.validate import validate_command
from boardgen.errors import BoardgenError, one_line
from boardgen.geomap.commands import cells_command, info_command, sections_command


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
cli.add_command(serve_command)
cli.add_command(simulate_command)
cli.add_command(validate_command)
cli.add_command(games_command)
cli.add_command(new_command)
cli.add_command(schema_command)
cli.add_command(sweep_command)
cli.add_command(export_command)


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"boardgen: error: {one_line(message)}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI. Whatever happens, the user sees one line on stderr and exit code 2 (130 when interrupted);
    ``BOARDGEN_DEBUG=1`` shows the traceback of an unexpected error instead."""
    debug = os.environ.get("BOARDGEN_DEBUG", "") not in ("", "0")
    try:
        # Without standalone mode click returns (not raises) the code of ctx.exit(n).
        code = cli.main(args=argv, prog_name="boardgen", standalone_mode=False)
    except BoardgenError as exc:
        _fail(str(exc))
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("boardgen: interrupted", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        command = exc.ctx.command_path if exc.ctx is not None else "boardgen"
        _fail(f"{exc.format_message()} (see `{command} --help`)", exc.exit_code)
    except click.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except OSError as exc:
        if debug:
            raise
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        what = "no space left on the device" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
        _fail(f"cannot write or read a file{where}: {what}")
    except (Exception, RecursionError, MemoryError) as exc:
        if debug:
            raise
        kind = "nested too deeply" if isinstance(exc, RecursionError) else (
            "out of memory" if isinstance(exc, MemoryError) else f"{type(exc).__name__}: {exc}")
        _fail(f"unexpected error ({kind}); please report it with the template "
              "(BOARDGEN_DEBUG=1 shows the traceback)")
    sys.exit(code if isinstance(code, int) else 0)


def run() -> None:
    """The ``boardgen`` console command: ``main``, then the process ends at once with its exit code, its output
    flushed (``os._exit``). The interpreter's own teardown (collecting and freeing every object a build made:
    about 0.1 s of wall and CPU time after the flagship's 2.3 s build) does nothing a finished command needs:
    every file a command writes is written, closed and renamed before it returns, and no command leaves a worker
    process, thread or temporary folder behind (the stages' process pool and the temporary folders are context
    managers). Output that cannot be written (a full disk) ends it with exit code 120 and one line, as Python
    ends; a reader that went away (``boardgen games | head -1``) does not. Called in-process (tests, a script),
    ``main`` exits as Python does."""
    try:
        main()
        code = 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:  # as Python does for sys.exit("text"): the text on stderr, exit code 1
            print(exc.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # (started with the stream closed)
            continue
        try:
            stream.flush()
        except BrokenPipeError:
            pass
        except (OSError, ValueError) as exc:
            with contextlib.suppress(Exception):
                os.write(2, f"boardgen: error: cannot write the output: {exc}\n".encode())
            code = code or 120
    os._exit(code)


if __name__ == "__main__":
    main()
