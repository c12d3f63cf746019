"""Cell data for other tools and editions: GeoJSON (WGS84, rings counter-clockwise as RFC 7946 asks), CSV, an
adjacency list, and GeoPackage / FlatGeobuf layers through pyogrio (cells, sections and land, in WGS84 and in the
board's own millimetres), all deterministic."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import MultiPolygon, Polygon, box, mapping

from boardgen.geomap.model import Board, Cell
from boardgen.geomap.projection.fit import BoardProjection
from boardgen.geomap.spec import KOPPEN_CLASSES
from boardgen.io import Artifact

COORD_DECIMALS = 5  # about a metre: far finer than a cell
POINTS_PER_HEX_EDGE = 4  # hex edges are straight on the board, curved on the globe
WORLD_SHIFTS = (-360.0, 0.0, 360.0)  # a cell's lon/lat polygon is cut at 180 degrees and its parts moved back


def board_projection(board: Board) -> BoardProjection:
    return BoardProjection.from_config(board.map_spec)


def cell_lonlat_geometry(board: Board, cell: Cell, projection: BoardProjection) -> Polygon | MultiPolygon:
    """The hex back-projected to lon/lat, its edges densified, split at 180 degrees if it crosses it (RFC 7946)."""
    corners = np.array(board.hex_corners_mm(cell) + [board.hex_corners_mm(cell)[0]])
    t = np.linspace(0.0, 1.0, POINTS_PER_HEX_EDGE, endpoint=False)
    ring = np.concatenate([a + (b - a) * t[:, None] for a, b in itertools.pairwise(corners)])
    with np.errstate(invalid="ignore"):
        lon, lat = projection.to_lonlat(ring[:, 0], ring[:, 1])
    if not (np.all(np.isfinite(lon)) and np.all(np.isfinite(lat))):
        # a cell on the rim of an oval or pointed outline (Mollweide's, Eckert IV's): points beyond the world's
        # outline have no longitude and latitude, so only the hexagon's part inside it is on the globe
        inside = shapely.intersection(Polygon(corners), projection.frame_inset_mm(1e-3))
        pieces = [g for g in getattr(inside, "geoms", [inside]) if g.geom_type == "Polygon" and not g.is_empty]
        if pieces:
            largest = max(pieces, key=lambda g: g.area)
            edge_mm = float(np.hypot(*(corners[1] - corners[0])))
            ring = np.asarray(shapely.segmentize(largest, edge_mm / POINTS_PER_HEX_EDGE).exterior.coords)[:-1]
            lon, lat = projection.to_lonlat(ring[:, 0], ring[:, 1])
    lat = np.clip(lat, -90.0, 90.0)
    polygon = Polygon(np.column_stack([lon, lat]))
    try:
        parts = _world_pieces(polygon)
    except shapely.errors.GEOSException:  # a hex near a pole of some projections folds over itself in lon/lat
        parts = _world_pieces(shapely.make_valid(polygon))
    if not parts:
        from boardgen.errors import ConfigError

        raise ConfigError(board.map_spec.source, "map.projection",
                          f"cell {cell.label} does not map back to longitude/latitude; expected a world projection")
    return _put_together(parts)


def _put_together(parts: Sequence[Any]) -> Polygon | MultiPolygon:
    """A cell's parts on the globe (each moved back from its copy of the world) as one geometry, rounded to
    COORD_DECIMALS and oriented as GeoJSON asks."""
    polygons = [g for part in parts for g in getattr(part, "geoms", [part]) if isinstance(g, Polygon)]
    geometry: Polygon | MultiPolygon = polygons[0] if len(polygons) == 1 else MultiPolygon(polygons)
    try:
        rounded = shapely.set_precision(geometry, 10**-COORD_DECIMALS)
    except shapely.errors.GEOSException:  # a cell folded over itself at a pole
        rounded = shapely.set_precision(shapely.make_valid(geometry), 10**-COORD_DECIMALS, mode="pointwise")
    return counter_clockwise(rounded)  # type: ignore[no-any-return]


def counter_clockwise(geometry: Any) -> Any:
    """Polygons (one or an array) with their outer rings counter-clockwise and holes clockwise, as RFC 7946
    asks of GeoJSON (the board's y axis points down, so hexes traced on the board come out clockwise)."""
    return shapely.orient_polygons(geometry, exterior_cw=False)


def _world_pieces(polygon: Any) -> list[Any]:
    parts = []
    for shift in WORLD_SHIFTS:
        piece = polygon.intersection(box(-180.0 - shift, -90.0, 180.0 - shift, 90.0))
        if not piece.is_empty and piece.area > 0:
            parts.append(shapely.affinity.translate(piece, xoff=shift))
    return parts


def cell_centre_lonlat(cell: Cell, projection: BoardProjection) -> tuple[float, float]:
    return _centres_lonlat([cell], projection)[0]


def _centres_lonlat(cells: Sequence[Cell], projection: BoardProjection) -> list[tuple[float, float]]:
    """Every cell's centre in lon/lat (one projection call for all), rounded to COORD_DECIMALS."""
    if not cells:
        return []
    centres = np.array([c.center_mm for c in cells], dtype=float)
    with np.errstate(invalid="ignore"):
        lon, lat = projection.to_lonlat(centres[:, 0], centres[:, 1])
    off_globe = np.flatnonzero(~(np.isfinite(lon) & np.isfinite(lat)))
    if len(off_globe):  # a rim cell's centre beyond the world's outline: the nearest point inside it
        inside = projection.frame_inset_mm(0.05)
        nearest = np.array([shapely.ops.nearest_points(inside, shapely.Point(*centres[i]))[0].coords[0]
                            for i in off_globe.tolist()])
        lon[off_globe], lat[off_globe] = projection.to_lonlat(nearest[:, 0], nearest[:, 1])
    lon = (lon + 180.0) % 360.0 - 180.0
    return [(round(x, COORD_DECIMALS), round(y, COORD_DECIMALS)) for x, y in zip(lon.tolist(), lat.tolist(),
                                                                                   strict=True)]


def cell_properties(board: Board, cell: Cell, projection: BoardProjection,
                    centre_lonlat: tuple[float, float] | None = None) -> dict[str, Any]:
    lon, lat = cell_centre_lonlat(cell, projection) if centre_lonlat is None else centre_lonlat
    return {
        "label": cell.label,
        "q": cell.hex.q,
        "r": cell.hex.r,
        "column": cell.column,
        "row": cell.row,
        "x_mm": round(cell.center_mm[0], 3),
        "y_mm": round(cell.center_mm[1], 3),
        "lon": lon,
        "lat": lat,
        "zone": cell.zone,
        "zone_reason": cell.zone_reason,
        "land_share": cell.land_share,
        "high_ground_share": cell.high_ground_share,
        "mean_elevation_m": cell.mean_elevation_m,
        "kept_as_island": bool(cell.kept_as_island),
        "zone_shares": {z: cell.zone_shares.get(z, 0.0) for z in board.map_spec.zones},
        "koppen_shares": dict(cell.koppen_shares),
        "neighbours": list(cell.neighbours),
    }


def _all_properties(board: Board, projection: BoardProjection) -> list[dict[str, Any]]:
    centres = _centres_lonlat(board.cells, projection)
    return [cell_properties(board, cell, projection, centre) for cell, centre in zip(board.cells, centres,
                                                                                      strict=True)]


def cells_lonlat_geometries(board: Board, projection: BoardProjection) -> list[Polygon | MultiPolygon]:
    """``cell_lonlat_geometry`` of every cell, with shapely's array functions: one projection call and one
    GEOS call per step for all cells. A cell cut at 180 degrees is put together from its parts as that function
    does; a cell whose hexagon leaves the world's outline or folds over a pole in lon/lat takes the per-cell path
    (alone: the others keep the fast one), so every geometry is exactly the one ``cell_lonlat_geometry`` makes."""
    cells = board.cells
    if not cells:
        return []
    centres = np.array([board.layout.hex_to_point(c.hex) for c in cells], dtype=float)
    corners = centres[:, None, :] + np.array(board.layout.corner_offsets())  # board.hex_corners_mm of each, (n, 6, 2)
    closed = np.concatenate([corners, corners[:, :1]], axis=1)
    t = np.linspace(0.0, 1.0, POINTS_PER_HEX_EDGE, endpoint=False)
    a, b = closed[:, :-1, None, :], closed[:, 1:, None, :]
    ring = (a + (b - a) * t[:, None]).reshape(len(cells), -1, 2)
    with np.errstate(invalid="ignore"):
        lon, lat = projection.to_lonlat(ring[..., 0].ravel(), ring[..., 1].ravel())
    on_globe = (np.isfinite(lon) & np.isfinite(lat)).reshape(ring.shape[:2]).all(axis=1)
    lat = np.clip(lat, -90.0, 90.0)
    polygons = shapely.polygons(np.column_stack([lon, lat]).reshape(ring.shape))
    fast = on_globe & shapely.is_valid(polygons)  # the rest: off the outline, or folded over a pole
    try:
        pieces = [shapely.intersection(polygons[fast], box(-180.0 - shift, -90.0, 180.0 - shift, 90.0))
                  for shift in WORLD_SHIFTS]
        kept = np.array([~shapely.is_empty(p) & (shapely.area(p) > 0) for p in pieces])  # (shifts, cells)
        middle = WORLD_SHIFTS.index(0.0)
        polygon = shapely.get_type_id(pieces[middle]) == shapely.GeometryType.POLYGON
        simple = (kept.sum(axis=0) == 1) & kept[middle] & polygon
        # shapely.affinity.translate(piece, xoff=0.0)'s arithmetic, for all simple cells at once
        moved = shapely.transform(pieces[middle][simple], lambda c: np.column_stack(
            [1.0 * c[:, 0] + 0.0 * c[:, 1] + 0.0, 0.0 * c[:, 0] + 1.0 * c[:, 1] + 0.0]))
        rounded = iter(counter_clockwise(shapely.set_precision(moved, 10**-COORD_DECIMALS)).tolist())
        # a cell cut at 180 degrees: its parts moved back as _world_pieces moves them, then put together
        cut = iter([_put_together([shapely.affinity.translate(pieces[s][k], xoff=shift)
                                   for s, shift in enumerate(WORLD_SHIFTS) if kept[s, k]])
                    if kept[:, k].any() else None  # nothing on the globe: the per-cell path names the cell
                    for k in np.flatnonzero(~simple).tolist()])
    except shapely.errors.GEOSException:
        return [cell_lonlat_geometry(board, cell, projection) for cell in cells]
    fast_simple = iter(simple.tolist())
    geometries: list[Polygon | MultiPolygon] = []
    for cell, is_fast in zip(cells, fast.tolist(), strict=True):
        geometry = None
        if is_fast:
            geometry = next(rounded) if next(fast_simple) else next(cut)
        geometries.append(cell_lonlat_geometry(board, cell, projection) if geometry is None else geometry)
    return geometries


def _geojson_geometries(geometries: Sequence[Polygon | MultiPolygon]) -> list[dict[str, Any]]:
    """``shapely.geometry.mapping`` of each geometry; polygons without holes from one coordinate array."""
    array = np.array(geometries, dtype=object)
    plain = (shapely.get_type_id(array) == shapely.GeometryType.POLYGON) & (shapely.get_num_interior_rings(array) == 0)
    coords, index = shapely.get_coordinates(shapely.get_exterior_ring(array[plain]), return_index=True)
    splits = np.flatnonzero(np.diff(index)) + 1
    rings = iter(np.split(coords, splits) if len(coords) else [])
    out: list[dict[str, Any]] = []
    for geometry, is_plain in zip(geometries, plain.tolist(), strict=True):
        if is_plain:
            out.append({"type": "Polygon", "coordinates": (tuple(map(tuple, next(rings).tolist())),)})
        else:
            out.append(mapping(geometry))
    return out


def cells_geojson(board: Board) -> bytes:
    projection = board_projection(board)
    properties = _all_properties(board, projection)
    geometries = _geojson_geometries(cells_lonlat_geometries(board, projection))
    features = [
        {"type": "Feature", "id": cell.label, "properties": props, "geometry": geometry}
        for cell, props, geometry in zip(board.cells, properties, geometries, strict=True)
    ]
    collection = {
        "type": "FeatureCollection",
        "name": f"{getattr(board.config, 'edition', 'map')}-cells",
        "boardgen": {"hex_size_mm": board.layout.size_mm, "orientation": board.layout.orientation.name,
                     "origin_mm": list(board.layout.origin_mm), "projection": board.map_spec.map.projection,
                     "board_mm": [board.map_spec.board.width_mm, board.map_spec.board.height_mm]},
        "features": features,
    }
    return _json_bytes(collection, indent=None)


def cells_csv(board: Board) -> bytes:
    projection = board_projection(board)
    zones = list(board.map_spec.zones)
    header = ["label", "q", "r", "column", "row", "x_mm", "y_mm", "lon", "lat", "zone", "zone_reason",
              "land_share", "high_ground_share", "mean_elevation_m", "kept_as_island"]
    header += [f"zone_share_{z}" for z in zones] + [f"koppen_{k}" for k in KOPPEN_CLASSES] + ["neighbours"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for cell, p in zip(board.cells, _all_properties(board, projection), strict=True):
        row = [p[k] for k in header[:15]]
        row += [p["zone_shares"][z] for z in zones]
        row += [cell.koppen_shares.get(k, 0.0) for k in KOPPEN_CLASSES]
        row.append(" ".join(cell.neighbours))
        writer.writerow(row)
    return out.getvalue().encode()


def adjacency_json(board: Board) -> bytes:
    return _json_bytes({c.label: list(c.neighbours) for c in board.cells}, indent=1)


def _json_bytes(value: Any, indent: int | None) -> bytes:
    return (json.dumps(value, indent=indent, ensure_ascii=False, sort_keys=False) + "\n").encode()


def map_stage(ctx: Any) -> list[Artifact]:
    from boardgen.render.map_preview import map_preview_png

    board = ctx.board
    return [
        Artifact("cells.geojson", cells_geojson(board), "land cells as WGS84 hex polygons with their properties"),
        Artifact("cells.csv", cells_csv(board), "land cells, one row each"),
        Artifact("adjacency.json", adjacency_json(board), "each cell's neighbouring land cells"),
        Artifact("preview/map.png", map_preview_png(board), "the classified map"),
    ]


def cell_at_lonlat(board: Board, lon: float, lat: float) -> Cell | None:
    """The land cell under a geographic point, or None over the sea."""
    x, y = board_projection(board).to_mm(np.array([lon]), np.array([lat]))
    h = board.layout.point_to_hex(float(x[0]), float(y[0]))
    return next((c for c in board.cells if c.hex == h), None)


# ------------------------------------------------------------------------------------------ GIS layers

BOARD_MM_CRS = ('ENGCRS["board millimetres (x right, y down)",EDATUM["the trimmed board\'s top-left corner"],'
                'CS[Cartesian,2],AXIS["x (right)",east,ORDER[1],LENGTHUNIT["millimetre",0.001]],'
                'AXIS["y (down)",south,ORDER[2],LENGTHUNIT["millimetre",0.001]]]')
"""The board's own coordinates as a CRS: millimetres from the trimmed board's top-left corner, y down."""
WGS84 = "EPSG:4326"
GIS_DATE = "2026-01-01T00:00:00.000Z"
"""The date a GeoPackage says its layers changed (GDAL's OGR_CURRENT_DATE), so rebuilds are byte-identical."""
GIS_FORMATS = {"gpkg": "GPKG", "fgb": "FlatGeobuf"}


@dataclass(frozen=True)
class GeoLayer:
    """Named areas of a geographic board besides its cells (jigsaw sections, a game's fields), in board mm."""

    name: str
    properties: tuple[dict[str, Any], ...]
    geometries_mm: tuple[Any, ...]


@dataclass(frozen=True)
class GeoBoard:
    """What ``boardgen cells`` exports of a game whose board is the geographic hex map: the map (cells and
    land) and the game's areas on it (a jigsaw's sections, a game's fields or regions)."""

    board: Board
    layers: tuple[GeoLayer, ...] = ()


def mm_to_lonlat_geometry(geometry_mm: Any, projection: BoardProjection, densify_mm: float = 2.0) -> Any:
    """A board-mm (Multi)Polygon on the globe: densified, back-projected, cut at 180 degrees, rounded like the
    cells and wound counter-clockwise."""
    dense = shapely.segmentize(geometry_mm, densify_mm)

    def back(coords: np.ndarray) -> np.ndarray:
        lon, lat = projection.to_lonlat(coords[:, 0], coords[:, 1])
        return np.column_stack([lon, np.clip(lat, -90.0, 90.0)])

    lonlat = shapely.make_valid(shapely.transform(dense, back))
    parts = [g for p in _world_pieces(lonlat) for g in getattr(p, "geoms", [p]) if isinstance(g, Polygon)]
    geometry = parts[0] if len(parts) == 1 else MultiPolygon(parts)
    return counter_clockwise(shapely.set_precision(geometry, 10**-COORD_DECIMALS, mode="pointwise"))


def _table(properties: Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
    """Columns from feature properties; nested values (lists, mappings) as the JSON the GeoJSON holds."""
    columns: dict[str, list[Any]] = {}
    for props in properties:
        for key, value in props.items():
            text = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list | tuple) else value
            columns.setdefault(key, []).append(text)
    return columns


def gis_layers(geo: GeoBoard) -> dict[str, Any]:
    """GeoDataFrames by layer name: ``cells``, each of the board's areas and ``land`` in WGS84, and the same
    as ``<name>_board_mm`` in the board's own millimetres (``BOARD_MM_CRS``)."""
    import geopandas as gpd

    board = geo.board
    projection = board_projection(board)
    cell_props = _all_properties(board, projection)
    hexes_mm = [Polygon(board.hex_corners_mm(c)) for c in board.cells]
    land_mm = list(getattr(board.land_mm, "geoms", [board.land_mm]))
    land_props = [{"part": i + 1, "area_mm2": round(p.area, 1)} for i, p in enumerate(land_mm)]
    sources: list[tuple[str, list[dict[str, Any]], list[Any], list[Any] | None]] = [
        ("cells", cell_props, hexes_mm, list(cells_lonlat_geometries(board, projection)))]
    sources += [(layer.name, list(layer.properties), list(layer.geometries_mm), None) for layer in geo.layers]
    sources.append(("land", land_props, land_mm, None))
    frames: dict[str, Any] = {}
    for name, props, mm, lonlat in sources:
        table = _table(props)
        world = lonlat if lonlat is not None else [mm_to_lonlat_geometry(g, projection) for g in mm]
        frames[name] = gpd.GeoDataFrame(table, geometry=world, crs=WGS84)
        frames[f"{name}_board_mm"] = gpd.GeoDataFrame(dict(table), geometry=counter_clockwise(np.array(mm)),
                                                      crs=BOARD_MM_CRS)
    return frames


def write_gis(geo: GeoBoard, fmt: str, layer: str | None = None) -> bytes:
    """The layers as a GeoPackage (all of them) or FlatGeobuf (one: ``layer``, default ``cells``) file's bytes,
    written by GDAL through pyogrio into a temporary folder."""
    import tempfile

    import pyogrio

    frames = gis_layers(geo)
    if fmt == "fgb":
        name = layer or "cells"
        frames = {name: frames[name]}
    elif layer is not None:
        frames = {layer: frames[layer]}
    pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": GIS_DATE, "OGR_SQLITE_JOURNAL": "OFF"})
    with tempfile.TemporaryDirectory(prefix="boardgen-gis-") as tmp:
        path = Path(tmp) / f"{getattr(geo.board.config, 'edition', 'map')}.{fmt}"
        for name, frame in frames.items():
            pyogrio.write_dataframe(frame, path, layer=name, driver=GIS_FORMATS[fmt],
                                    **({"append": True} if path.exists() and fmt == "gpkg" else {}))
        return path.read_bytes()
