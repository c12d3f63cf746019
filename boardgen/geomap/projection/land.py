"""Natural Earth land from world-atlas' TopoJSON, decoded by hand into valid lon/lat polygons.

world-atlas stores "spherical" polygons: rings are stitched across the antimeridian and a ring may circle a
pole (Antarctica). GDAL reads such rings as invalid planar geometry, so we decode the topology ourselves:
delta-decode and dequantise the arcs, join each ring's arcs (a negative index is the reversed arc ~i),
unwrap longitudes so every ring is continuous, close pole-circling rings through the pole, and cut the result
at the antimeridian (any meridian, so the board's map edge can be chosen freely).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.ops import unary_union

from boardgen.errors import DataError

Ring = np.ndarray  # (n, 2) lon/lat


def decode_arcs(topology: dict) -> list[np.ndarray]:
    """Every arc as an (n, 2) float array of lon/lat."""
    transform = topology.get("transform")
    arcs = []
    for arc in topology["arcs"]:
        points = np.asarray(arc, dtype=np.float64)
        if transform:
            points = np.cumsum(points, axis=0) * transform["scale"] + transform["translate"]
        arcs.append(points)
    return arcs


def _ring_from_arcs(arc_indices: Sequence[int], arcs: list[np.ndarray]) -> np.ndarray:
    parts = []
    for k, index in enumerate(arc_indices):
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        parts.append(arc if k == 0 else arc[1:])  # consecutive arcs share their joining point
    return np.concatenate(parts)


def unwrap_longitudes(ring: np.ndarray) -> np.ndarray:
    """Shift longitudes by multiples of 360 so that no step between neighbours exceeds 180 degrees."""
    lon = ring[:, 0].copy()
    steps = np.diff(lon)
    jumps = np.where(steps > 180, -360.0, np.where(steps < -180, 360.0, 0.0))
    lon[1:] += np.cumsum(jumps)
    return np.column_stack([lon, ring[:, 1]])


def close_polar_ring(ring: np.ndarray) -> np.ndarray:
    """A ring whose unwrapped longitudes end 360 degrees from where they began circles a pole: close it
    along the pole (south for a ring in the southern hemisphere, north otherwise)."""
    drift = ring[-1, 0] - ring[0, 0]
    if abs(drift) < 180:
        return ring
    pole = -90.0 if ring[:, 1].mean() < 0 else 90.0
    start, end = ring[0], ring[-1]
    cap = np.array([[end[0], pole], [start[0], pole], start])
    return np.concatenate([ring, cap])


def cut_at_meridian(polygons: Sequence[Polygon], west_edge_deg: float) -> MultiPolygon:
    """Bring polygons whose longitudes run past one 360-degree window into [west, west + 360), cutting
    those that cross the window's edges and shifting the pieces by multiples of 360 degrees.

    The polygons must not overlap one another (true of land); only those that cross an edge are cut. Each
    polygon outside the window is intersected with every shifted window it meets and its parts joined, as one
    polygon at a time would be, but window by window over all of them (a map centred far from Greenwich moves
    hundreds of polygons)."""
    east_edge_deg = west_edge_deg + 360.0
    shapes = np.empty(len(polygons), dtype=object)
    shapes[:] = list(polygons)
    bounds = shapely.bounds(shapes).reshape(-1, 4)
    west, east = bounds[:, 0], bounds[:, 2]
    inside = (west >= west_edge_deg) & (east <= east_edge_deg)
    cut: dict[int, list[Polygon]] = {}  # polygon index -> its parts, shifted, in the order of the shifts
    for shift in (-720.0, -360.0, 0.0, 360.0, 720.0):
        window_west, window_east = west_edge_deg - shift, east_edge_deg - shift
        near = np.flatnonzero(~inside & (east >= window_west) & (west <= window_east))  # apart: cannot intersect
        window = box(window_west, -90.0, window_east, 90.0)
        meets = near[shapely.intersects(window, shapes[near])]
        parts = shapely.intersection(shapes[meets], window)
        for index, part in zip(meets.tolist(), parts.tolist(), strict=True):
            if not part.is_empty:
                cut.setdefault(index, []).append(shapely.affinity.translate(part, xoff=shift))
    one_part = [i for i in np.flatnonzero(~inside).tolist() if len(cut.get(i, ())) == 1]
    joined = dict(zip(one_part, shapely.union_all(_object_column([cut[i][0] for i in one_part]), axis=1).tolist(),
                      strict=True)) if one_part else {}
    pieces: list[Polygon] = []
    for index, polygon in enumerate(polygons):
        if inside[index]:
            pieces.append(polygon)
        else:
            pieces.extend(polygons_of(joined[index] if index in joined else unary_union(cut.get(index, []))))
    # Pieces that an earlier cut split at +-180 degrees and that now lie side by side must be joined again,
    # or they would share an edge (an invalid MultiPolygon).
    seams = [s for s in (-180.0, 180.0) if abs(s - west_edge_deg) > 1e-9 and abs(s - west_edge_deg - 360.0) > 1e-9]
    piece_bounds = shapely.bounds(_object_column(pieces)[:, 0]).tolist() if pieces else []
    on_seam = [any(abs(edge - s) < 1e-9 for s in seams for edge in (b[0], b[2])) for b in piece_bounds]
    if any(on_seam):
        seam_pieces = [p for p, on in zip(pieces, on_seam, strict=True) if on]
        pieces = [p for p, on in zip(pieces, on_seam, strict=True) if not on]
        pieces.extend(polygons_of(unary_union(seam_pieces)))
    return as_multipolygon(MultiPolygon(pieces))


def _object_column(geometries: Sequence[object]) -> np.ndarray:
    """Geometries as an (n, 1) object array (one row each, for shapely's per-row reductions)."""
    column = np.empty((len(geometries), 1), dtype=object)
    column[:, 0] = geometries
    return column


def polygons_of(geometry: object) -> list[Polygon]:
    """The polygons of any geometry, largest first (lines and points dropped): ``as_multipolygon``'s parts."""
    polygons: list[Polygon] = []
    for part in getattr(geometry, "geoms", [geometry]):
        if isinstance(part, Polygon) and not part.is_empty:
            polygons.append(part)
        elif isinstance(part, MultiPolygon):
            polygons.extend(part.geoms)
        elif hasattr(part, "geoms"):
            polygons.extend(polygons_of(part))
    return sorted(polygons, key=lambda p: (-p.area, p.bounds))


def as_multipolygon(geometry: object) -> MultiPolygon:
    """The polygons of any geometry, largest first, as one MultiPolygon (lines and points dropped)."""
    return MultiPolygon(polygons_of(geometry))


def _polygon_from_rings(rings: list[np.ndarray]) -> Polygon:
    exterior = close_polar_ring(unwrap_longitudes(rings[0]))
    holes = []
    ext_min, ext_max = exterior[:, 0].min(), exterior[:, 0].max()
    for ring in rings[1:]:
        hole = unwrap_longitudes(ring)
        middle = 0.5 * (hole[:, 0].min() + hole[:, 0].max())
        shift = 360.0 * np.round((0.5 * (ext_min + ext_max) - middle) / 360.0)
        if not ext_min <= middle + shift <= ext_max:
            shift = 0.0
        holes.append(hole + [shift, 0.0])
    polygon = Polygon(exterior, holes)
    if not polygon.is_valid:
        polygon = shapely.make_valid(polygon)
    return polygon


def land_from_topojson(topology: dict, object_name: str = "land") -> MultiPolygon:
    """The land object of a world-atlas topology as a valid MultiPolygon in lon/lat, cut at 180 degrees."""
    arcs = decode_arcs(topology)
    obj = topology["objects"][object_name]
    geometries = obj["geometries"] if obj["type"] == "GeometryCollection" else [obj]
    polygons: list[Polygon] = []
    for geometry in geometries:
        if geometry["type"] == "Polygon":
            arc_polygons = [geometry["arcs"]]
        elif geometry["type"] == "MultiPolygon":
            arc_polygons = geometry["arcs"]
        else:
            continue
        for arc_polygon in arc_polygons:
            rings = [_ring_from_arcs(ring, arcs) for ring in arc_polygon]
            polygon = _polygon_from_rings(rings)
            polygons.extend(getattr(polygon, "geoms", [polygon]))
    return cut_at_meridian([p for p in polygons if isinstance(p, Polygon)], -180.0)


@lru_cache(maxsize=4)
def load_land(path: Path) -> MultiPolygon:
    """Read and check a world-atlas land TopoJSON file."""
    try:
        topology = json.loads(Path(path).read_bytes())
    except FileNotFoundError:
        raise DataError(f"{path}: land data file not found (run scripts/refresh_data.py)") from None
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: not a readable TopoJSON file ({exc})") from None
    if not isinstance(topology, dict) or topology.get("type") != "Topology" or "land" not in topology.get(
        "objects", {}
    ):
        raise DataError(f"{path}: expected a TopoJSON Topology with a 'land' object")
    land = land_from_topojson(topology)
    if not land.is_valid:
        raise DataError(f"{path}: decoded land is not valid geometry")
    return land


def drop_antarctica(land: MultiPolygon, south_limit_deg: float = -60.0) -> MultiPolygon:
    """Land north of ``south_limit_deg`` (Antarctica lies wholly south of -60; nothing else does)."""
    return as_multipolygon(land.intersection(box(-180.0, south_limit_deg, 180.0, 90.0)))
