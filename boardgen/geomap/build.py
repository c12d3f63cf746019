"""The map stage: a ``MapSpec`` (a game's map keys) -> classified land cells on the board (a ``Board``).

land (Natural Earth) -> projected to board mm -> rasterised -> hex lattice -> land cells (+ islands kept,
+ overrides) -> Köppen/elevation shares per cell -> zones -> neighbours and labels.
"""

from __future__ import annotations

import functools
import math
import time
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np
import pyproj
import shapely
from shapely.geometry import MultiPolygon, Polygon

from boardgen.cache import cached_data
from boardgen.errors import ConfigError
from boardgen.geomap.hexgrid import (
    Hex,
    HexLayout,
    Orientation,
    column_letters,
    hexes_covering_qr,
    offset_coordinates,
    offset_coordinates_array,
    orientation_named,
)
from boardgen.geomap.lattice import (
    LandRaster,
    hex_stats,
    hex_to_key,
    key_to_hex,
    land_and_pixel_keys,
    land_hexes,
    pack_keys,
    rasterise_land,
    search_hex_size,
    unpack_keys,
)
from boardgen.geomap.model import Board, Cell, IslandKept, MapSpec
from boardgen.geomap.projection.fit import BoardProjection
from boardgen.geomap.projection.land import drop_antarctica, load_land
from boardgen.geomap.projection.rasters import KOPPEN_OCEAN, load_elevation, load_koppen, sample_koppen_land
from boardgen.geomap.spec import (
    CELL_COUNT_TOLERANCE,
    KOPPEN_CLASSES,
    MAX_HEXES_ON_BOARD,
    MAX_RASTER_PIXELS,
    cell_count_band,
    raster_step_mm,
    resolve_data_path,
)
from boardgen.geomap.zones import CellClimate, assign_zones

_GEOD = pyproj.Geod(ellps="WGS84")


class HexLabeller:
    """Stable labels for every hex on the board: column letters + row number ("AF12")."""

    def __init__(self, layout: HexLayout, width_mm: float, height_mm: float) -> None:
        self.layout = layout
        self._q, self._r = hexes_covering_qr(layout, width_mm, height_mm)
        cols, rows = offset_coordinates_array(layout, self._q, self._r)
        self.col0 = int(cols.min())
        self.row0 = int(rows.min())

    @functools.cached_property
    def by_label(self) -> dict[str, Hex]:
        """Every board hex by its label (made when first asked for: only overrides need it)."""
        cols, rows = offset_coordinates_array(self.layout, self._q, self._r)
        cols, rows = cols - self.col0, rows - self.row0
        letters = {int(c): column_letters(int(c)) for c in np.unique(cols)}
        return {f"{letters[c]}{row + 1}": Hex(q, r) for q, r, c, row in zip(
            self._q.tolist(), self._r.tolist(), cols.tolist(), rows.tolist(), strict=True)}

    def column_row(self, h: Hex) -> tuple[int, int]:
        col, row = offset_coordinates(self.layout, h)
        return col - self.col0, row - self.row0

    def label(self, h: Hex) -> str:
        col, row = self.column_row(h)
        return f"{column_letters(col)}{row + 1}"

    def hex_for(self, label: str, source: str, key: str) -> Hex:
        if label not in self.by_label:
            raise ConfigError(source, key, f"no hex labelled {label!r} on this board (labels run "
                              f"A1..{max(self.by_label, key=lambda s: (len(s), s))})")
        return self.by_label[label]


def _landmass_areas_km2(polygons: list[Polygon], projection: BoardProjection, pixel_counts: np.ndarray,
                        min_area_km2: float) -> dict[int, float]:
    """Geodesic area of every projected landmass that could be over ``min_area_km2`` (tiny ones skipped): each
    polygon oriented counter-clockwise, its outer ring's area plus its holes' (negative) areas, as
    ``Geod.geometry_area_perimeter`` sums them, with the rings' coordinates read in one call."""

    def unproject(coords: np.ndarray) -> np.ndarray:
        lon, lat = projection.to_lonlat(coords[:, 0], coords[:, 1])
        return np.column_stack([lon, lat])

    indices = np.flatnonzero(pixel_counts >= 2)
    lonlat = shapely.transform(np.array(polygons, dtype=object)[indices], unproject)  # one projection call
    with np.errstate(invalid="ignore"):  # a rim vertex that does not invert is NaN, as before
        oriented = shapely.orient_polygons(lonlat)
    rings, ring_polygon = shapely.get_rings(oriented, return_index=True)
    coords, coord_ring = shapely.get_coordinates(rings, return_index=True)
    starts = np.searchsorted(coord_ring, np.arange(len(rings) + 1))
    totals = np.zeros(len(indices))
    for ring, polygon in enumerate(ring_polygon.tolist()):
        part = coords[starts[ring]:starts[ring + 1]]
        area_m2, _ = _GEOD.polygon_area_perimeter(part[:, 0], part[:, 1])
        totals[polygon] += area_m2
    areas = {}
    for index, area_m2 in zip(indices.tolist(), totals.tolist(), strict=True):
        if abs(area_m2) / 1e6 >= min_area_km2:
            areas[int(index)] = abs(area_m2) / 1e6
    return areas


def _islands_without_cell(big_landmasses: Mapping[int, float], pixel_landmass: np.ndarray, pixel_keys: np.ndarray,
                          land_keys: np.ndarray) -> dict[int, int]:
    """For each big landmass whose most-covering hex is not a land cell: landmass index -> that hex's key."""
    land = set(land_keys.tolist())
    missing: dict[int, int] = {}
    big = np.array(sorted(big_landmasses), dtype=np.int64)
    if not len(big):
        return missing
    row_of = np.full(max(int(pixel_landmass.max()), int(big.max())) + 1, -1, dtype=np.int64)
    row_of[big] = np.arange(len(big))
    owner = row_of[pixel_landmass]
    inside = owner >= 0
    owner, keys = owner[inside], pixel_keys[inside]
    # (landmass, hex) pixel counts for every big landmass at once, the hexes numbered on their (q, r) box, which
    # numbers them in key order: a key packs q above r
    q, r = unpack_keys(keys)
    q0, r0 = int(q.min()), int(r.min())
    span_r = int(r.max()) - r0 + 1
    box = (q - q0) * span_r + (r - r0)
    present = np.flatnonzero(np.bincount(box))
    column = np.searchsorted(present, box)
    counts = np.bincount(owner * len(present) + column, minlength=len(big) * len(present))
    # per landmass the hex covering most of it, ties to the smaller key (argmax takes the first)
    best_box = present[counts.reshape(len(big), len(present)).argmax(axis=1)]
    best_keys = pack_keys(best_box // span_r + q0, best_box % span_r + r0)
    for index, best in zip(big.tolist(), best_keys.tolist(), strict=True):
        if best not in land and best not in missing.values():
            missing[index] = best
    return missing


def _check_hex_count(config: MapSpec, size_mm: float, orientation: Orientation, origin_mm: tuple[float, float],
                     raster: LandRaster) -> None:
    """The automatic search obeys the limit an explicit hexes.size has (config.py); the error names the most land
    cells the smallest allowed hexes give on this board."""
    hex_area = 1.5 * 3**0.5 * size_mm**2
    on_board = config.board.width_mm * config.board.height_mm / hex_area if hex_area > 0 else float("inf")
    if on_board > MAX_HEXES_ON_BOARD:
        board_mm2 = config.board.width_mm * config.board.height_mm
        smallest_mm = math.sqrt(board_mm2 / (1.5 * math.sqrt(3) * MAX_HEXES_ON_BOARD))
        most = len(land_hexes(HexLayout(orientation, smallest_mm * 1.001, origin_mm), raster,
                              config.hexes.land_threshold)[0])
        raise ConfigError(config.source, "hexes.target_cells",
                          f"{config.hexes.target_cells} cells need {size_mm:.2f}mm hexes, about {on_board:,.0f} on "
                          f"the board; expected at most {MAX_HEXES_ON_BOARD:,}: hexes.target_cells: {most} or fewer "
                          f"(the land cells {smallest_mm * 1.001:.2f}mm hexes give), or a bigger board")


def _check_cell_count(config: MapSpec, n: int, size_mm: float, orientation: Orientation,
                      origin_mm: tuple[float, float], raster: LandRaster) -> None:
    """The automatic hex size's land cells lie in the template's band (``cell_count_band``), else a ConfigError
    naming the counts this board can reach and a target the search does hit."""
    low, high = cell_count_band(config.hexes)
    if low <= n <= high:
        return
    threshold = config.hexes.land_threshold
    W, H = config.board.width_mm, config.board.height_mm  # noqa: N806
    smallest_mm = math.sqrt(W * H / (1.5 * math.sqrt(3) * MAX_HEXES_ON_BOARD))
    most = len(land_hexes(HexLayout(orientation, smallest_mm, origin_mm), raster, threshold)[0])
    fewest = len(land_hexes(HexLayout(orientation, 80.0, origin_mm), raster, threshold)[0])
    band = ("hexes.cell_count_range" if config.hexes.cell_count_range is not None
            else f"hexes.target_cells +- {CELL_COUNT_TOLERANCE:.0%}")
    raise ConfigError(config.source, "hexes.target_cells",
                      f"{config.hexes.target_cells} cells: the nearest hex size ({size_mm:g}mm) gives {n} land cells, "
                      f"outside [{low}, {high}] ({band}); this {W:g} x {H:g} mm board holds about {fewest} to "
                      f"{most:,} cells; expected e.g. hexes.target_cells: {n}")


DATA_KEYS = ("land_data", "koppen_data", "elevation_data")
"""The ``map`` keys that name the map's source data files."""


def data_file(spec: MapSpec, key: str) -> Path:
    """The data file the spec's ``map.<key>`` names, found as every game's data files are (``resolve_data_path``)."""
    return resolve_data_path(cast(Any, spec), getattr(spec.map, key), f"map.{key}")


def check_spec(spec: MapSpec) -> None:
    """The map keys a template may hold but the map cannot be made from, as a ConfigError naming the key: a
    projection pyproj does not know (or plain longitude/latitude), a frame narrower than 30 degrees, a raster
    too fine for the board."""
    source, b, m = spec.source, spec.board, spec.map
    try:
        crs = pyproj.CRS.from_user_input(m.projection)
    except pyproj.exceptions.CRSError as exc:
        raise ConfigError(source, "map.projection", f"not a projection pyproj knows ({exc})") from None
    if crs.is_geographic:
        raise ConfigError(source, "map.projection", f"{m.projection!r} is plain longitude/latitude; expected a map "
                          "projection such as '+proj=wintri +lon_0=11'")
    south, north = m.frame_latitudes
    if not (-90 <= south < north <= 90 and north - south >= 30):
        raise ConfigError(source, "map.frame_latitudes", "expected [south, north] latitudes with -90 <= south < "
                          f"north <= 90, at least 30 degrees apart, got {list(m.frame_latitudes)}")
    step_mm = raster_step_mm(b, m)
    pixels = math.ceil(b.width_mm / step_mm) * math.ceil(b.height_mm / step_mm)
    if pixels > MAX_RASTER_PIXELS:
        raise ConfigError(source, "map.raster", f"a {step_mm:g}mm raster on a {b.width_mm:g} x {b.height_mm:g} "
                          f"mm board is {pixels:,} pixels; expected at most {MAX_RASTER_PIXELS:,} (a coarser "
                          f"raster: at least {math.sqrt(b.width_mm * b.height_mm / MAX_RASTER_PIXELS) * 1.01:.2f}mm)")


_LAND_ON_BOARD: dict[tuple[Any, ...], tuple[BoardProjection, MultiPolygon, float]] = {}
"""The last few ``land_on_board`` results in this process (the legend's panel check and the board share them)."""


def land_on_board(template: Any) -> tuple[BoardProjection, MultiPolygon, float]:
    """(projection, land polygons in board mm, seconds it took): the land data (without Antarctica unless the
    template asks for it) projected and fitted to the board. Kept for the process's next call with the same map
    and board, so a check made before the hex search does not project the land twice."""
    config = MapSpec.of(template)
    path = data_file(config, "land_data")
    try:
        stat = path.stat()
        file_key: tuple[Any, ...] = (str(path), stat.st_size, stat.st_mtime_ns)
    except OSError:
        file_key = (str(path),)
    key = (config.map, config.board.width_mm, config.board.height_mm, config.board.margin_mm,
           config.board.panel_strip_mm, *file_key)
    if key in _LAND_ON_BOARD:
        return _LAND_ON_BOARD[key]
    started = time.perf_counter()
    if config.map.antarctica:
        land = cached_data("land", path, load_land)
    else:  # cut once per data file (0.04 s), like its decoding
        land = cached_data("land", path, lambda p: drop_antarctica(cached_data("land", p, load_land)),
                           variant="without Antarctica")
    projection = BoardProjection.from_config(config)
    land_mm = projection.geometry_to_mm(list(land.geoms))
    while len(_LAND_ON_BOARD) >= 4:
        del _LAND_ON_BOARD[next(iter(_LAND_ON_BOARD))]
    _LAND_ON_BOARD[key] = (projection, land_mm, time.perf_counter() - started)
    return _LAND_ON_BOARD[key]


def _nearest_land(key: int, chosen: set[int], labeller: HexLabeller) -> str:
    """The label of the land cell nearest the hex ``key`` (fewest hex steps, then the first label), for errors."""
    h = key_to_hex(key)
    return min((h.distance(key_to_hex(k)), labeller.label(key_to_hex(k))) for k in chosen)[1] if chosen else "none"


def build_board(template: Any) -> Board:
    """The classified map of ``template``: a ``MapSpec``, or a game's template holding the spec's sections
    (``MapSpec.of``); the board keeps it as its ``config``."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    config = MapSpec.of(template)
    source = config.source
    W, H = config.board.width_mm, config.board.height_mm  # noqa: N806

    check_spec(config)
    projection, land_mm, timings["project_s"] = land_on_board(config)
    koppen_grid = cached_data("koppen", data_file(config, "koppen_data"), load_koppen)
    elevation_grid = cached_data("elevation", data_file(config, "elevation_data"), load_elevation)
    timings["load_s"] = time.perf_counter() - started - timings["project_s"]
    polygons = list(land_mm.geoms)

    t = time.perf_counter()
    raster = rasterise_land(polygons, W, H, raster_step_mm(config.board, config.map))
    lon, lat = projection.to_lonlat(raster.x_mm, raster.y_mm)
    on_globe = np.isfinite(lon) & np.isfinite(lat)  # pixels on the frame's rim may not invert
    if not on_globe.all():
        raster = LandRaster(raster.step_mm, raster.x_mm[on_globe], raster.y_mm[on_globe], raster.landmass[on_globe])
        lon, lat = lon[on_globe], lat[on_globe]
    lon = (lon + 180.0) % 360.0 - 180.0
    koppen = sample_koppen_land(koppen_grid, lon, lat)
    elevation_m = elevation_grid.sample(lon, lat)
    timings["sample_s"] = time.perf_counter() - t

    t = time.perf_counter()
    orientation = orientation_named(config.hexes.orientation)
    origin_mm = (W / 2, H / 2)
    pixel_counts = np.bincount(raster.landmass, minlength=len(polygons))
    big_landmasses = _landmass_areas_km2(polygons, projection, pixel_counts, config.map.island_min_area_km2)
    size_mm = float(config.hexes.size_mm) if config.hexes.size_mm is not None else 0.0
    sizes_tried = 0
    lattice_target = config.hexes.target_cells
    counted: dict[tuple[float, int], int] = {}  # the searches share their land-cell counts
    for _ in range(3):  # islands kept count towards the target: search again without them
        if config.hexes.size_mm is None:
            size_mm, _, tried = search_hex_size(orientation, origin_mm, raster, config.hexes.land_threshold,
                                                lattice_target, counted)
            sizes_tried += tried
        _check_hex_count(config, size_mm, orientation, origin_mm, raster)
        layout = HexLayout(orientation, size_mm, origin_mm)
        land_keys, pixel_keys = land_and_pixel_keys(layout, raster, config.hexes.land_threshold)
        island_best = _islands_without_cell(big_landmasses, raster.landmass, pixel_keys, land_keys)
        next_target = config.hexes.target_cells - len(island_best)
        if config.hexes.size_mm is not None or next_target == lattice_target:
            break
        lattice_target = next_target
    timings["lattice_s"] = time.perf_counter() - t
    t = time.perf_counter()
    labeller = HexLabeller(layout, W, H)
    chosen = {int(k) for k in land_keys}
    islands: list[IslandKept] = []
    island_keys: set[int] = set()
    for index, best in island_best.items():
        chosen.add(best)
        island_keys.add(best)
        centre = polygons[index].representative_point()
        c_lon, c_lat = projection.to_lonlat(np.array([centre.x]), np.array([centre.y]))
        islands.append(IslandKept(labeller.label(key_to_hex(best)), round(big_landmasses[index]),
                                  (round(float((c_lon[0] + 180) % 360 - 180), 3), round(float(c_lat[0]), 3))))

    overrides = config.overrides
    for i, label in enumerate(overrides.add_cells):
        key = hex_to_key(labeller.hex_for(label, source, f"overrides.add_cells[{i}]"))
        if key in chosen:
            raise ConfigError(source, f"overrides.add_cells[{i}]", f"{label} is already a land cell")
        if not projection.frame_mm.contains(shapely.Point(layout.hex_to_point(key_to_hex(key)))):
            raise ConfigError(source, f"overrides.add_cells[{i}]", f"{label} lies outside the map's frame")
        chosen.add(key)
    for i, label in enumerate(overrides.remove_cells):
        key = hex_to_key(labeller.hex_for(label, source, f"overrides.remove_cells[{i}]"))
        if key not in chosen:
            raise ConfigError(source, f"overrides.remove_cells[{i}]",
                              f"{label} is not a land cell; expected one, e.g. {_nearest_land(key, chosen, labeller)}")
        chosen.discard(key)
    for label in overrides.zones:
        key = hex_to_key(labeller.hex_for(label, source, f"overrides.zones.{label}"))
        if key not in chosen:
            raise ConfigError(source, f"overrides.zones.{label}",
                              f"{label} is not a land cell; expected one, e.g. {_nearest_land(key, chosen, labeller)}")
    forced_zones = dict(overrides.zones)
    for i, place in enumerate(overrides.places):
        x_mm, y_mm = projection.to_mm(np.array([place.lon]), np.array([place.lat]))
        h = layout.point_to_hex(float(x_mm[0]), float(y_mm[0]))
        where = place.name or f"{place.lat:g}, {place.lon:g}"
        if hex_to_key(h) not in chosen:
            raise ConfigError(source, f"overrides.places[{i}]",
                              f"{where} falls on {labeller.label(h)}, which is not a land cell; expected a place on "
                              f"land, e.g. on {_nearest_land(hex_to_key(h), chosen, labeller)} (or add_cells)")
        forced_zones.setdefault(labeller.label(h), place.zone)  # a label override names its cell exactly: it wins

    keys = np.array(sorted(chosen), dtype=np.int64)
    rules = config.classification
    not_high = np.array([KOPPEN_CLASSES.index(k) + 1 for k in rules.high_ground_excludes], dtype=koppen.dtype)
    high_ground = (elevation_m >= rules.high_ground_elevation_m) & ~np.isin(koppen, not_high)
    stats = hex_stats(keys, pixel_keys, koppen, elevation_m, high_ground)
    koppen_to_zone = config.classification.koppen_to_zone
    zone_names = list(config.zones)

    climates: list[CellClimate] = []
    cell_facts = []
    for i, key in enumerate(keys.tolist()):
        h = key_to_hex(key)
        label = labeller.label(h)
        counts = stats.koppen_px[i, 1:KOPPEN_OCEAN].astype(float)  # classes 1..31
        if counts.sum() == 0:  # a hex added by override, or a sliver: use the climate nearest its centre
            cx, cy = layout.hex_to_point(h)
            c_lon, c_lat = projection.to_lonlat(np.array([cx]), np.array([cy]))
            nearest = sample_koppen_land(koppen_grid, (c_lon + 180) % 360 - 180, c_lat, max_radius=40)[0]
            if nearest != KOPPEN_OCEAN:
                counts[nearest - 1] = 1.0
            elif label in overrides.add_cells and label not in overrides.zones:
                raise ConfigError(source, f"overrides.add_cells[{list(overrides.add_cells).index(label)}]",
                                  f"{label} has no land climate within 3 degrees of its centre; "
                                  f"give it a zone in overrides.zones ({label}: ...)")
        total = counts.sum()
        koppen_shares = {KOPPEN_CLASSES[j]: counts[j] / total for j in np.flatnonzero(counts)} if total else {}
        zone_shares = dict.fromkeys(zone_names, 0.0)
        for cls, share in koppen_shares.items():
            zone_shares[koppen_to_zone[cls]] += share
        land_px = stats.land_px[i]
        high_share = float(stats.high_px[i] / land_px) if land_px else 0.0
        climates.append(CellClimate(label, zone_shares, high_share))
        cell_facts.append((h, label, koppen_shares, zone_shares, land_px, high_share,
                           float(stats.elevation_sum_m[i] / land_px) if land_px else 0.0))

    assignment = assign_zones(climates, zone_names, config.classification, forced_zones)
    land_labels = {label for _, label, *_ in cell_facts}
    by_hex_label = {h: label for h, label, *_ in cell_facts}
    cells = []
    for h, label, koppen_shares, zone_shares, land_px, high_share, mean_elev in cell_facts:
        col, row = labeller.column_row(h)
        neighbours = tuple(sorted(by_hex_label[n] for n in h.neighbours() if n in by_hex_label))
        reason = assignment.reasons[label]
        cells.append(Cell(
            label=label, hex=h, column=col, row=row,
            center_mm=tuple(round(v, 4) for v in layout.hex_to_point(h)),  # type: ignore[arg-type]
            land_share=round(min(1.0, float(land_px * raster.pixel_area_mm2 / layout.area_mm2)), 4),
            zone=assignment.zones[label],
            zone_shares=_frozen_rounded(zone_shares),
            koppen_shares=_frozen_rounded(koppen_shares),
            high_ground_share=round(high_share, 4),
            mean_elevation_m=round(mean_elev, 1),
            zone_reason=reason,
            neighbours=neighbours,
            kept_as_island="island" if hex_to_key(h) in island_keys else "",
        ))
    assert land_labels == {c.label for c in cells}
    cells.sort(key=lambda c: (c.row, c.column))
    if config.hexes.size_mm is None:
        _check_cell_count(config, len(cells), size_mm, orientation, origin_mm, raster)
    timings["cells_s"] = time.perf_counter() - t
    timings["total_s"] = time.perf_counter() - started

    return Board(
        config=template, spec=config, layout=layout, cells=tuple(cells), land_mm=land_mm, frame_mm=projection.frame_mm,
        equator_km_per_mm=projection.equator_km_per_mm, islands_kept=tuple(islands), notes=assignment.notes,
        stats=types.MappingProxyType({"hex_size_mm": size_mm, "sizes_tried": sizes_tried,
                                      "land_pixels": len(raster.x_mm), **timings}),
    )


def _frozen_rounded(shares: Mapping[str, float]) -> Mapping[str, float]:
    return types.MappingProxyType({k: round(float(v), 4) for k, v in shares.items()})
