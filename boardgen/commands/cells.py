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
    """Print cell counts per zone, hex size, projection, the islands kept, the jigsaw grid and where the legend
    panels go; exit code 1 when the land-cell count is outside its band or the panels find no room."""
    from boardgen.config import CELL_COUNT_TOLERANCE, cell_count_band
    from boardgen.errors import ConfigError, LayoutError, blamed_on
    from boardgen.games.global_wellbeing.board_layout import legend_for, panelled_board, section_page_sizes_mm
    from boardgen.layout.sections import cut_sections
    from boardgen.render.board_art import LEGEND_FALLBACKS, legend_specs

    config = load_template(template_path)
    layout_error: LayoutError | ConfigError | None = None
    try:
        board = panelled_board(config)
    except (LayoutError, ConfigError) as exc:  # no room for the legend (a ConfigError naming a board that has)
        if isinstance(exc, ConfigError) and not exc.key.startswith("board"):
            raise
        layout_error = exc
        board = build_board(config)  # a map that cannot be built at all stops here, with its own error
    low, high = cell_count_band(config.hexes)
    n = len(board.cells)
    click.echo(f"{config.title} ({config.edition}), template {config.source}")
    click.echo(f"board       {config.board.width_mm:g} x {config.board.height_mm:g} mm, "
               f"projection {config.map.projection} "
               f"(1 cm = {board.equator_km_per_mm * 10:.0f} km along the equator)")
    how = "searched for" if config.hexes.size_mm is None else "set in template, target"
    click.echo(f"hexes       {board.layout.orientation.name}-top, size {board.layout.size_mm:g} mm "
               f"({how} {config.hexes.target_cells} cells), land when >= {config.hexes.land_threshold:.0%} land")
    band = ("hexes.cell_count_range" if config.hexes.cell_count_range is not None else
            f"auto: target_cells +- {CELL_COUNT_TOLERANCE:.0%}")
    in_range = f"ok, band {low}-{high}" if low <= n <= high else f"OUTSIDE {low}-{high}"
    click.echo(f"land cells  {n} ({in_range}; {band})")
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
    click.echo("legend panels, tried in this order (never over a land cell):")
    for i, fallback in enumerate(LEGEND_FALLBACKS, 1):
        click.echo(f"  {i}. {fallback}")
    click.echo("  (the central meridian, map.projection's lon_0, is never moved: where the map is cut is yours)")
    if layout_error is None:
        with blamed_on(config.source):
            layout = cut_sections(board, section_page_sizes_mm())
            legend = legend_for(board, layout)
        grid = "auto" if config.sections.columns is None or config.sections.rows is None else "pinned"
        page_w, page_h = layout.page_mm or (0.0, 0.0)
        click.echo(f"sections    {layout.columns} columns x {layout.rows} rows ({grid}), "
                   f"{'portrait' if page_h > page_w else 'landscape'} A4 and Letter")
        strip = board.config.board.panel_strip_mm
        table = next(b for b in legend if b.name == "bio-productivity table")
        full = legend_specs(board, layout.sections[0].bounds_mm)[0].shapes_mm[0][1]
        away = any(not layout.sections[0].outline_mm.contains(b.polygon) for b in legend)
        used = 4 if strip else 3 if away else 2 if abs(table.height_mm - full) > 1e-6 else 1
        where = ", ".join(f"{b.name} {b.width_mm:.0f} x {b.height_mm:.0f} mm at ({b.x_mm:.0f}, {b.y_mm:.0f})"
                          for b in legend)
        click.echo(f"legend      way {used}" + (f" (panel strip {strip:g} mm)" if strip else "") + f": {where}")
    else:
        click.echo(f"legend      no room: {layout_error}")
    if layout_error is not None or not low <= n <= high:
        sys.exit(1)
