"""`boardgen cells` (cell data to stdout or a file) and `boardgen info` (what the map stage made)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from boardgen.cache import cached_board as build_board
from boardgen.commands.options import template_option
from boardgen.errors import ConfigError
from boardgen.export import GeoBoard, adjacency_json, cells_csv, cells_geojson, write_gis
from boardgen.io import check_replaceable, write_atomic
from boardgen.plugin import BuildContext
from boardgen.projection.places import format_lonlat, island_name
from boardgen.template import load
from boardgen.template import load_map_template as load_template

_FORMATS = {"geojson": cells_geojson, "csv": cells_csv, "adjacency": adjacency_json}
_GIS = ("gpkg", "fgb")
LAYERS = ("cells", "sections", "land")


def geo_board(template_path: Path | None) -> GeoBoard:
    """The template's geographic board (any game whose plug-in has one), or a one-line error."""
    plugin, config = load(template_path)
    geo = plugin.geo_board(BuildContext(config, plugin))
    if geo is None:
        raise ConfigError(config.source, "game", f"{plugin.name!r} has no geographic hex map for this command "
                          "(see `boardgen build` and `boardgen validate`)")
    return geo


@click.command("cells")
@template_option
@click.option("--format", "-f", "fmt", type=click.Choice(sorted([*_FORMATS, *_GIS])), default="geojson",
              show_default=True,
              help="geojson: WGS84 hex polygons with properties; csv: one row per cell (column and row are 0-based, "
                   "labels 1-based: column 0 is A, row 0 is 1); adjacency: neighbour lists; gpkg: a GeoPackage "
                   "with the layers cells, sections and land in WGS84 and again in board mm (<layer>_board_mm); "
                   "fgb: FlatGeobuf of one layer (--layer).")
@click.option("--layer", type=click.Choice([*LAYERS, *(f"{n}_board_mm" for n in LAYERS)]), default=None,
              help="gpkg/fgb: write only this layer (fgb default: cells).")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
def cells_command(template_path: Path | None, fmt: str, layer: str | None, output: Path | None) -> None:
    """Export the land cells (label, zone, shares, neighbours) for other tools and editions."""
    if output is not None:
        check_replaceable(output)  # before the work: never replace a device, FIFO or link
    geo = geo_board(template_path)
    data = write_gis(geo, fmt, layer) if fmt in _GIS else _FORMATS[fmt](geo.board)
    if output is None:
        sys.stdout.buffer.write(data)
    else:
        write_atomic(output, data)
        click.echo(f"wrote {output} ({len(data):,} bytes)", err=True)


@click.command("info")
@template_option
def info_command(template_path: Path | None) -> None:
    """Print cell counts per zone, hex size, projection and the islands kept."""
    config = load_template(template_path)
    board = build_board(config)
    low, high = config.hexes.cell_count_range
    n = len(board.cells)
    click.echo(f"{config.title} ({config.edition}), template {config.source}")
    click.echo(f"board       {config.board.width_mm:g} x {config.board.height_mm:g} mm, "
               f"projection {config.map.projection} "
               f"(1 cm = {board.equator_km_per_mm * 10:.0f} km along the equator)")
    how = "searched for" if config.hexes.size_mm is None else "set in template, target"
    click.echo(f"hexes       {board.layout.orientation.name}-top, size {board.layout.size_mm:g} mm "
               f"({how} {config.hexes.target_cells} cells), land when >= {config.hexes.land_threshold:.0%} land")
    in_range = "ok" if low <= n <= high else f"OUTSIDE {low}-{high}"
    click.echo(f"land cells  {n} ({in_range})")
    minimum = config.classification.minimum_cells
    reasons: dict[str, dict[str, int]] = {z: {} for z in config.zones}
    for cell in board.cells:
        reasons[cell.zone][cell.zone_reason] = reasons[cell.zone].get(cell.zone_reason, 0) + 1
    for zone, count in board.zone_counts().items():
        flag = "" if count >= minimum else f"  below minimum {minimum}"
        detail = ", ".join(f"{k} {v}" for k, v in sorted(reasons[zone].items()))
        click.echo(f"  {zone:<14} {count:>4}  ({detail}){flag}")
    click.echo(f"islands kept {len(board.islands_kept)} (landmasses >= {config.map.island_min_area_km2:,.0f} km2 "
               "that no hex reached the land threshold on):")
    for island in board.islands_kept:
        lon, lat = island.center_lonlat
        name = island_name(lon, lat)
        click.echo(f"  {island.label:<6} {island.area_km2:>9,} km2 at {format_lonlat(lon, lat)}"
                   + (f"  ({name})" if name else ""))
    for note in board.notes:
        click.echo(f"note: {note}")
    timings = ", ".join(f"{k[:-2]} {v:.2f} s" for k, v in board.stats.items() if k.endswith("_s"))
    click.echo(f"map build   {timings}")
