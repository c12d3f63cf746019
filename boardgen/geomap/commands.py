"""The map's commands, for any game whose board is the geographic hex map (``plugin.geo``: ``map_spec`` and
``geo_board``): `boardgen cells` (cell data to stdout or a file), `boardgen info` (what the map stage made) and
`boardgen sections` (how the board is cut into pieces, as the game reports it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from boardgen.commands.options import template_option
from boardgen.errors import ConfigError, blamed_on
from boardgen.export import GeoBoard, adjacency_json, cells_csv, cells_geojson, write_gis
from boardgen.geomap.cache import cached_board
from boardgen.geomap.model import MapSpec
from boardgen.geomap.projection.places import format_lonlat, island_name
from boardgen.io import check_replaceable, write_atomic
from boardgen.plugin import BuildContext, GamePlugin
from boardgen.template import load

_FORMATS = {"geojson": cells_geojson, "csv": cells_csv, "adjacency": adjacency_json}
_GIS = ("gpkg", "fgb")
LAYERS = ("cells", "sections", "land")


def geo_board(template_path: Path | None) -> GeoBoard:
    """The template's geographic board (any game whose plug-in has one), or a one-line error."""
    plugin, config = load(template_path)
    geo = plugin.geo.geo_board(BuildContext(config, plugin)) if plugin.geo is not None else None
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


def map_of(template_path: Path | None) -> tuple[GamePlugin, Any, MapSpec]:
    """The template's game, its validated template and the spec of its geographic map, or a one-line error for a
    game whose board is not a map."""
    plugin, config = load(template_path)
    spec = plugin.geo.map_spec(config) if plugin.geo is not None else None
    if spec is None:
        raise ConfigError(config.source, "game", f"{plugin.name!r} has no geographic hex map for this command "
                          "(see `boardgen build` and `boardgen validate`)")
    return plugin, config, spec


@click.command("info")
@template_option
def info_command(template_path: Path | None) -> None:
    """Print cell counts per zone, hex size, projection, the islands kept, and what the game says of its board
    (e.g. its jigsaw grid and where the legend panels go); exit code 1 when the land-cell count is outside its
    band or the game's board is not right (its legend panels find no room)."""
    from boardgen.errors import ConfigError, LayoutError
    from boardgen.geomap.spec import CELL_COUNT_TOLERANCE, cell_count_band

    plugin, config, spec = map_of(template_path)
    ctx = BuildContext(config, plugin)
    assert plugin.geo is not None  # map_of found the map through it
    try:
        geo = plugin.geo.geo_board(ctx)
        board = geo.board if geo is not None else cached_board(spec)
    except (LayoutError, ConfigError) as exc:  # the game's own lines below say what did not fit (a ConfigError
        if isinstance(exc, ConfigError) and not exc.key.startswith("board"):  # naming a board size that has room)
            raise
        board = cached_board(spec)  # a map that cannot be built at all stops here, with its own error
    spec = board.map_spec  # the map as built (e.g. beside a panel strip the game reserved)
    low, high = cell_count_band(spec.hexes)
    n = len(board.cells)
    click.echo(f"{getattr(config, 'title', plugin.title)} ({getattr(config, 'edition', plugin.name)}), "
               f"template {config.source}")
    click.echo(f"board       {spec.board.width_mm:g} x {spec.board.height_mm:g} mm, "
               f"projection {spec.map.projection} "
               f"(1 cm = {board.equator_km_per_mm * 10:.0f} km along the equator)")
    how = "searched for" if spec.hexes.size_mm is None else "set in template, target"
    click.echo(f"hexes       {board.layout.orientation.name}-top, size {board.layout.size_mm:g} mm "
               f"({how} {spec.hexes.target_cells} cells), land when >= {spec.hexes.land_threshold:.0%} land")
    band = ("hexes.cell_count_range" if spec.hexes.cell_count_range is not None else
            f"auto: target_cells +- {CELL_COUNT_TOLERANCE:.0%}")
    in_range = f"ok, band {low}-{high}" if low <= n <= high else f"OUTSIDE {low}-{high}"
    click.echo(f"land cells  {n} ({in_range}; {band})")
    minimum = spec.classification.minimum_cells
    reasons: dict[str, dict[str, int]] = {z: {} for z in spec.zones}
    for cell in board.cells:
        reasons[cell.zone][cell.zone_reason] = reasons[cell.zone].get(cell.zone_reason, 0) + 1
    for zone, count in board.zone_counts().items():
        flag = "" if count >= minimum else f"  below minimum {minimum}"
        detail = ", ".join(f"{k} {v}" for k, v in sorted(reasons[zone].items()))
        click.echo(f"  {zone:<14} {count:>4}  ({detail}){flag}")
    click.echo(f"islands kept {len(board.islands_kept)} (landmasses >= {spec.map.island_min_area_km2:,.0f} km2 "
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
    lines, board_ok = plugin.geo.map_info(ctx)
    for line in lines:
        click.echo(line)
    if not board_ok or not low <= n <= high:
        sys.exit(1)


@click.command("sections")
@template_option
def sections_command(template_path: Path | None) -> None:
    """Print how the board is cut: each piece's size, cells and neighbours (and for a jigsaw, the cut lines, the
    knobs and the unique-fit proof)."""
    plugin, config, _spec = map_of(template_path)
    assert plugin.geo is not None  # map_of found the map through it
    with blamed_on(config.source):
        lines = plugin.geo.sections_report(BuildContext(config, plugin))
    for line in lines:
        click.echo(line)
