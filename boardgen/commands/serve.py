"""`boardgen serve`: the local web app (live kit preview, play in the browser, replays) on 127.0.0.1."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path

import click

from boardgen.commands.options import out_option, template_option
from boardgen.errors import ConfigError


@click.command("serve")
@template_option
@out_option
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. Only 127.0.0.1 or localhost: the server is for this computer alone.")
@click.option("--open/--no-open", "open_page", default=True, show_default=True, help="Open the page in a browser.")
@click.option("--no-watch", is_flag=True, help="Do not rebuild when the template or its data files change.")
def serve_command(template_path: Path | None, out_root: Path, port: int, host: str, open_page: bool,
                  no_watch: bool) -> None:
    """Preview the kit live (rebuilt on save), play the game in the browser, step through replays."""
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise click.BadParameter(f"{host!r}: the server binds this computer's loopback address only "
                                 "(127.0.0.1, localhost or ::1)", param_hint="--host")
    if template_path is None:
        from boardgen.plugin import default_game, get_game

        template_path = get_game(default_game()).default_template()
    template = template_path
    if not template.is_file():
        raise ConfigError(str(template), "(file)", "no such template file")
    import uvicorn

    from boardgen.serve.app import create_app

    app = create_app(template, out_root, watch_files=not no_watch)
    url = f"http://{'127.0.0.1' if host != '::1' else '[::1]'}:{port}/"
    click.echo(f"boardgen serve: {template} at {url} (Ctrl+C stops it)", err=True)
    if open_page and port:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
