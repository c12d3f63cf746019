"""`boardgen build`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from boardgen.build import build
from boardgen.commands.options import MAX_JOBS, out_option, template_option
from boardgen.template import load


def _human_size(n_bytes: int) -> str:
    for unit in ("B", "KB", "MB"):
        if n_bytes < 1024 or unit == "MB":
            return f"{n_bytes:.0f} {unit}" if unit == "B" else f"{n_bytes:.1f} {unit}"
        n_bytes /= 1024  # type: ignore[assignment]
    return ""


@click.command("build")
@template_option
@out_option
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@click.option("--force", is_flag=True, help="Write the kit even when its validation finds error-level problems "
              "(without it such a build writes nothing and exits with code 2).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Processes for the stages that run side by side (default: every core; 1 when "
                   "BOARDGEN_SERIAL_STAGES=1); the kit does not depend on it.")
def build_command(template_path: Path | None, out_root: Path, quiet: bool, force: bool, jobs: int | None) -> None:
    """Build the kit: cell data, board and component PDFs, previews, manifest."""
    started = time.perf_counter()
    _game, config = load(template_path)
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    out_dir, ctx = build(config, out_root, progress, force=force, jobs=jobs)
    elapsed = time.perf_counter() - started
    click.echo(f"{config.title}: {len(ctx.artifacts)} files in {out_dir}")
    for artifact in sorted(ctx.artifacts, key=lambda a: a.path):
        pages = f"{artifact.pages:>3} pages" if artifact.pages else " " * 9
        click.echo(f"  {artifact.path:<40} {pages} {_human_size(len(artifact.data)):>9}")
    stage_times = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in ctx.timings_s.items())
    click.echo(f"done in {elapsed:.2f} s ({stage_times})")
