"""`boardgen export tts` (a Tabletop Simulator save) and `boardgen export pod` (print-on-demand images), both
from the parts the game declares once (``GamePlugin.kit_parts``)."""

from __future__ import annotations

from pathlib import Path

import click

from boardgen.commands.options import template_option
from boardgen.errors import ConfigError
from boardgen.io import Artifact, write_artifacts
from boardgen.plugin import BuildContext
from boardgen.template import load


def _declared(template_path: Path | None, quiet: bool) -> tuple[BuildContext, object]:
    _game, config = load(template_path)
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    ctx = BuildContext(config, progress=progress)
    try:
        kit = ctx.plugin.kit_parts(ctx)
    except NotImplementedError as exc:
        raise ConfigError(config.source, "game", str(exc)) from None
    return ctx, kit


def _out_dir(out: Path | None, edition: str, what: str) -> Path:
    return out if out is not None else Path("build") / edition / what


@click.group("export")
def export_command() -> None:
    """Export the kit's parts for other tables and printers (Tabletop Simulator, print-on-demand shops)."""


@export_command.command("tts")
@template_option
@click.option("--out", "-o", "out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder for the save and its images/ (default: build/<edition>/tts).")
@click.option("--base-url", default=None,
              help="Address the images will have (e.g. https://example.org/game/ after you upload the folder); "
                   "default: a file:// address of the output folder, which TTS opens on this machine.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
def tts_command(template_path: Path | None, out: Path | None, base_url: str | None, quiet: bool) -> None:
    """Write a Tabletop Simulator save (JSON) with every part of the game and its images."""
    from boardgen.exports.tts import slug, tts_save

    ctx, kit = _declared(template_path, quiet)
    out_dir = _out_dir(out, ctx.config.edition, "tts")
    if base_url is None:
        base_url = out_dir.resolve().as_uri() + "/"
    elif base_url and not base_url.endswith("/"):
        base_url += "/"
    save = tts_save(kit, base_url, progress=ctx.progress)  # type: ignore[arg-type]
    name = f"{slug(ctx.config.edition)}.json"
    artifacts = [Artifact(name, save.json_bytes(), "Tabletop Simulator save")]
    artifacts += [Artifact(f"images/{img.name}", img.data, f"{img.width_px} x {img.height_px} px")
                  for img in save.images.values()]
    write_artifacts(out_dir, artifacts)
    size = sum(len(a.data) for a in artifacts)
    click.echo(f"{ctx.config.title}: {out_dir / name} with {len(save.save['ObjectStates'])} objects and "
               f"{len(save.images)} images ({size / 1e6:.1f} MB); copy the folder into TTS's Saves folder")


@export_command.command("pod")
@template_option
@click.option("--profile", "-p", "profiles", multiple=True, required=True,
              help="A print-on-demand profile (see --list), or one defined in the template's "
                   "export.pod_profiles; repeat for several.")
@click.option("--out", "-o", "out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder for the images and manifest.csv (default: build/<edition>/pod).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
def pod_command(template_path: Path | None, profiles: tuple[str, ...], out: Path | None, quiet: bool) -> None:
    """Write one PNG per distinct face and back of every part a shop profile takes, with a manifest.csv."""
    from boardgen.exports.pod import pod_images, resolve_profiles

    ctx, kit = _declared(template_path, quiet)
    chosen = resolve_profiles(profiles, ctx.config)
    out_dir = _out_dir(out, ctx.config.edition, "pod")
    result = pod_images(kit, chosen, progress=ctx.progress)  # type: ignore[arg-type]
    write_artifacts(out_dir, result.artifacts)
    click.echo(f"{ctx.config.title}: {len(result.artifacts) - 1} images for {result.parts} parts in {out_dir} "
               f"(manifest.csv lists quantities)")
    for line in result.skipped:
        click.echo(f"  not exported: {line}", err=True)
