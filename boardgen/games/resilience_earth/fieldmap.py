"""The playing field from the real Earth: the shared geographic map's hex cells (Natural Earth land, Köppen-Geiger
climate, elevation; ``boardgen.geomap``, read from the board cache when built before) grouped into dice-addressed
fields.

1. The geographic map builds hex cells on land with their Köppen shares and high-ground share.
2. Cells border when their hexes touch; landmasses a few hex steps apart across sea (``fields.strait_hexes``)
   are joined by strait links, and any landmass still apart is joined to its nearest neighbour by a sea route,
   so every cell can be reached (settling spreads along these links too).
3. The cells are grouped twice with a seeded, balanced region growing on that graph (seeds placed by a
   k-means++ draw, grown by geodesic distance to the group's centre with a penalty for size, then a few
   Lloyd rounds that move each seed to its group's centre): first into ``regions`` (the first die), then each
   region into ``per_region`` fields (the second die). A group grows only along links, so each is connected.
4. Each field's production level comes from its climate (Köppen main groups A-E) and terrain (high ground).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.ops import unary_union

from boardgen.geomap.model import Board, MapSpec
from boardgen.geomap.spec import BoardConfig, HexConfig, MapConfig
from boardgen.geomap.zones import CLIMATE_ZONES, climate_classification


@dataclass(frozen=True)
class Field:
    number: int  # 11..66: region die * 10 + field die
    region: int  # 1..regions
    cells: tuple[str, ...]  # hex cell labels
    centre_mm: tuple[float, float]  # a point inside the field (label anchor)
    lonlat: tuple[float, float]  # centre of the field on the globe
    neighbours: tuple[int, ...]  # bordering fields (numbers)
    climate: dict[str, float]  # share of its land in each Köppen main group
    high_ground: float  # share of its land that is high ground
    points: float
    level: int  # 1..3
    compactness: float  # Polsby-Popper of the union of its hexes (1 = a disc)
    land_connected: bool  # its cells touch by land alone (else a strait link holds it together)

    @property
    def label(self) -> str:
        return str(self.number)


@dataclass(frozen=True)
class FieldMap:
    board: Board
    fields: tuple[Field, ...]
    cell_field: dict[str, int]
    links: tuple[tuple[str, str, str], ...]  # (cell, cell, "strait" | "sea") joins beyond touching hexes
    outlines: dict[int, Any]  # field number -> shapely geometry (union of its hexes, board mm)
    tower_mm: tuple[float, float]

    def field(self, number: int) -> Field:
        for f in self.fields:
            if f.number == number:
                return f
        raise KeyError(number)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(f.number for f in self.fields)


def map_spec(config: Any) -> MapSpec:
    """The geographic map of this template: its flat ``map`` keys over the shared map's defaults (the climate
    zones of ``boardgen.geomap.zones``, no minimum cells per zone, any land-cell count the lattice gives)."""
    m, b = config.map, config.board
    return MapSpec(
        board=BoardConfig(width_mm=float(b.width_mm), height_mm=float(b.height_mm), margin_mm=float(b.margin_mm)),
        map=MapConfig(projection=m.projection, antarctica=m.antarctica, raster_mm=float(m.raster_mm),
                      frame_latitudes=(float(m.frame_latitudes[0]), float(m.frame_latitudes[1])),
                      island_min_area_km2=float(m.island_min_area_km2)),
        hexes=HexConfig(orientation=m.orientation, size_mm=None, target_cells=m.target_cells,
                        cell_count_range=(1, 100000), land_threshold=float(m.land_threshold)),
        classification=climate_classification(high_ground_elevation_m=float(m.high_ground_elevation_m),
                                              minimum_cells=0),
        zones=CLIMATE_ZONES, source=config.source)


def _unit_vectors(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    lo, la = np.radians(lon), np.radians(lat)
    return np.column_stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)])


def _components(n: int, adj: Sequence[set[int]]) -> list[int]:
    comp = [-1] * n
    c = 0
    for start in range(n):
        if comp[start] >= 0:
            continue
        stack = [start]
        comp[start] = c
        while stack:
            i = stack.pop()
            for j in adj[i]:
                if comp[j] < 0:
                    comp[j] = c
                    stack.append(j)
        c += 1
    return comp


def _connected(nodes: set[int], adj: Sequence[set[int]]) -> bool:
    if not nodes:
        return True
    start = min(nodes)
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        for j in adj[i]:
            if j in nodes and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == len(nodes)


def _pieces(nodes: set[int], adj: Sequence[set[int]]) -> list[set[int]]:
    """Connected pieces of ``nodes``, largest first."""
    left = set(nodes)
    out = []
    while left:
        start = min(left)
        seen = {start}
        stack = [start]
        while stack:
            i = stack.pop()
            for j in adj[i]:
                if j in left and j not in seen:
                    seen.add(j)
                    stack.append(j)
        out.append(seen)
        left -= seen
    return sorted(out, key=lambda p: (-len(p), min(p)))


def _peel(rest: set[int], target: int, xyz: np.ndarray, adj: Sequence[set[int]], rng: random.Random) -> set[int]:
    """A connected part of about ``target`` cells grown from the edge of ``rest``, leaving ``rest`` connected
    (a cell that would cut the rest in two is taken with the small pieces it cuts off, if they fit)."""
    members = sorted(rest)
    mean = xyz[members].mean(axis=0)
    far = sorted(members, key=lambda c: -float(np.sum((xyz[c] - mean) ** 2)))
    seed = far[rng.randrange(min(3, len(far)))]
    part = {seed}
    for piece in _pieces(rest - part, adj)[1:]:  # a seed on a neck: its far side comes along
        part |= piece
    while len(part) < target:
        centre = xyz[sorted(part)].mean(axis=0)
        frontier = sorted({n for c in part for n in adj[c] if n in rest and n not in part},
                          key=lambda c: float(np.sum((xyz[c] - centre) ** 2)))
        chosen: set[int] | None = None
        for c in frontier:
            pieces = _pieces(rest - part - {c}, adj)
            extra = {c}.union(*pieces[1:]) if len(pieces) > 1 else {c}
            if len(part) + len(extra) <= target + max(1, target // 8):
                chosen = extra
                break
        if chosen is None:
            break
        part |= chosen
    return part


def _refine(groups: list[set[int]], xyz: np.ndarray, adj: Sequence[set[int]], rounds: int, slack: int) -> None:
    """Boundary swaps that bring cells nearer their group's centre, keeping every group connected and its size
    within ``slack`` of the mean."""
    mean_size = sum(len(g) for g in groups) / len(groups)
    owner = {c: i for i, g in enumerate(groups) for c in g}
    for _ in range(rounds):
        centres = [xyz[sorted(g)].mean(axis=0) for g in groups]
        moved = 0
        for c in sorted(owner):
            a = owner[c]
            if len(groups[a]) - 1 < mean_size - slack:
                continue
            here = float(np.sum((xyz[c] - centres[a]) ** 2))
            for b in sorted({owner[n] for n in adj[c] if n in owner} - {a}):
                if len(groups[b]) + 1 > mean_size + slack:
                    continue
                if float(np.sum((xyz[c] - centres[b]) ** 2)) < here * 0.8 and _connected(groups[a] - {c}, adj):
                    groups[a].discard(c)
                    groups[b].add(c)
                    owner[c] = b
                    moved += 1
                    break
        if not moved:
            break


def partition(members: list[int], k: int, xyz: np.ndarray, adj: Sequence[set[int]], rng: random.Random,
              rounds: int, balance: float) -> list[list[int]]:
    """``members`` (connected through ``adj``) into ``k`` connected, compact groups of nearly equal size: parts
    are peeled off the edge of what is left (each an even share of it, grown towards its own centre, never
    cutting the rest in two), then boundary cells move to a nearer group for up to ``rounds`` rounds while
    sizes stay within ``balance`` x 10% of the mean."""
    rest = set(members)
    groups: list[set[int]] = []
    for i in range(k - 1):
        part = _peel(rest, round(len(rest) / (k - i)), xyz, adj, rng)
        groups.append(part)
        rest -= part
    groups.append(rest)
    slack = max(1, round(balance * 0.1 * len(members) / k))
    _refine(groups, xyz, adj, rounds, slack)
    return [sorted(g) for g in groups]


def _polsby_popper(geom: Any) -> float:
    if geom.length == 0:
        return 0.0
    return float(4 * math.pi * geom.area / geom.length**2)


def build_field_map(config: Any) -> FieldMap:
    from boardgen.geomap.cache import cached_board
    from boardgen.geomap.projection.fit import BoardProjection

    spec = map_spec(config)
    board = dataclasses.replace(cached_board(spec), config=config)  # the map's exports name this edition
    cells = board.cells
    n = len(cells)
    index = {c.label: i for i, c in enumerate(cells)}
    projection = BoardProjection.from_config(spec)
    cx = np.array([c.center_mm[0] for c in cells])
    cy = np.array([c.center_mm[1] for c in cells])
    lon, lat = projection.to_lonlat(cx, cy)
    mid_x, mid_y = config.board.width_mm / 2, config.board.height_mm / 2
    for i in np.flatnonzero(~(np.isfinite(lon) & np.isfinite(lat))).tolist():
        # a cell centre just outside the projection's frame (its hex reaches in): step towards the middle
        for t in np.linspace(0.01, 0.5, 50):
            x, y = cx[i] + t * (mid_x - cx[i]), cy[i] + t * (mid_y - cy[i])
            lo1, la1 = projection.to_lonlat(np.array([x]), np.array([y]))
            if np.isfinite(lo1[0]) and np.isfinite(la1[0]):
                lon[i], lat[i] = lo1[0], la1[0]
                break
    lon = (lon + 180.0) % 360.0 - 180.0
    xyz = _unit_vectors(lon, lat)

    adj: list[set[int]] = [set() for _ in range(n)]
    for i, c in enumerate(cells):
        for nb in c.neighbours:
            adj[i].add(index[nb])
    land_adj = [set(a) for a in adj]
    land_comp = _components(n, land_adj)
    links: list[tuple[str, str, str]] = []
    qs = np.array([c.hex.q for c in cells])
    rs = np.array([c.hex.r for c in cells])
    strait = config.fields.strait_hexes
    for i in range(n):  # strait links: different landmasses at most strait_hexes hex steps apart
        dq, dr = qs - qs[i], rs - rs[i]
        dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
        for j in np.flatnonzero((dist <= strait) & (np.arange(n) > i)).tolist():
            if land_comp[j] != land_comp[i]:
                adj[i].add(j)
                adj[j].add(i)
                links.append((cells[i].label, cells[j].label, "strait"))
    comp = _components(n, adj)
    while len(set(comp)) > 1:  # sea routes: join the smallest group to its nearest other cell
        counts: dict[int, int] = {}
        for k in comp:
            counts[k] = counts.get(k, 0) + 1
        small = min(counts, key=lambda c: (counts[c], c))
        inner = [i for i in range(n) if comp[i] == small]
        outer = np.array([i for i in range(n) if comp[i] != small])
        best = (math.inf, -1, -1)
        for i in inner:
            d = np.sum((xyz[outer] - xyz[i]) ** 2, axis=1)
            j = int(np.argmin(d))
            if d[j] < best[0]:
                best = (float(d[j]), i, int(outer[j]))
        _, i, j = best
        adj[i].add(j)
        adj[j].add(i)
        links.append((cells[min(i, j)].label, cells[max(i, j)].label, "sea"))
        comp = _components(n, adj)

    f = config.fields
    if n < 2 * f.count:  # the template's check (map.target_cells >= 3 a field) leaves room; the map may hold fewer
        from boardgen.errors import ConfigError

        raise ConfigError(config.source, "map.target_cells", f"the map has {n} land cells for {f.count} fields; "
                          "expected at least 2 a field (raise map.target_cells or use fewer fields)")
    rng = random.Random(config.seed)
    regions = partition(list(range(n)), f.regions, xyz, adj, rng, f.grouping_rounds, f.balance_weight)
    half = config.board.height_mm * 0.45
    # regions read like a page: the northern row left to right, then the southern row
    regions.sort(key=lambda g: (float(np.mean(cy[g])) > half, float(np.mean(cx[g]))))
    groups: list[tuple[int, int, list[int]]] = []
    for r, members in enumerate(regions, start=1):
        parts = partition(members, f.per_region, xyz, adj, rng, f.grouping_rounds, f.balance_weight)
        band = 3.0 * board.layout.size_mm  # fields within a region: rows of about two hexes, left to right
        parts.sort(key=lambda g: (round(float(np.mean(cy[g])) / band), float(np.mean(cx[g]))))
        for k, part in enumerate(parts, start=1):
            groups.append((r, k, part))

    cell_field: dict[str, int] = {}
    for r, k, part in groups:
        for i in part:
            cell_field[cells[i].label] = r * 10 + k
    points_cfg = config.production.climate_points
    lo_t, hi_t = config.production.level_thresholds
    fields: list[Field] = []
    outlines: dict[int, Any] = {}
    for r, k, part in groups:
        number = r * 10 + k
        weights = np.array([max(cells[i].land_share, 1e-6) for i in part])
        climate = dict.fromkeys("ABCDE", 0.0)
        for w, i in zip(weights, part, strict=True):
            for cls, share in cells[i].koppen_shares.items():
                climate[cls[0]] += float(w * share)
        total = sum(climate.values()) or 1.0
        climate = {g: round(v / total, 4) for g, v in climate.items()}
        high = float(np.average([cells[i].high_ground_share for i in part], weights=weights))
        points = sum(points_cfg[g] * s for g, s in climate.items()) - config.production.high_ground_penalty * high
        level = 1 if points < lo_t else 2 if points < hi_t else 3
        geom = unary_union([Polygon(board.hex_corners_mm(cells[i])) for i in part]).buffer(0.01)
        outlines[number] = geom
        neighbours = sorted({cell_field[cells[j].label] for i in part for j in adj[i]} - {number})
        inner_adj = {i: land_adj[i] & set(part) for i in part}
        land_connected = len(set(_components_subset(part, inner_adj))) == 1
        anchor = geom.buffer(-2.0) if geom.buffer(-2.0).area > 0 else geom
        polys = getattr(anchor, "geoms", [anchor])
        biggest = max(polys, key=lambda p: p.area)
        pt = shapely.ops.polylabel(biggest, tolerance=0.5) if isinstance(biggest, Polygon) else biggest.centroid
        mean = xyz[part].mean(axis=0)
        fields.append(Field(
            number=number, region=r, cells=tuple(sorted(cells[i].label for i in part)),
            centre_mm=(round(pt.x, 3), round(pt.y, 3)),
            lonlat=(round(math.degrees(math.atan2(mean[1], mean[0])), 3),
                    round(math.degrees(math.atan2(mean[2], math.hypot(mean[0], mean[1]))), 3)),
            neighbours=tuple(neighbours), climate=climate, high_ground=round(high, 4), points=round(points, 4),
            level=level, compactness=round(_polsby_popper(geom), 4), land_connected=land_connected))
    lon0 = projection.central_meridian_deg
    tower_lon = lon0 + ((config.tower.lon - lon0 + 180.0) % 360.0 - 180.0)
    tx, ty = projection.to_mm(np.array([tower_lon]), np.array([config.tower.lat]))
    return FieldMap(board=board, fields=tuple(fields), cell_field=cell_field, links=tuple(links),
                    outlines=outlines, tower_mm=(round(float(tx[0]), 3), round(float(ty[0]), 3)))


def _components_subset(part: list[int], adj: dict[int, set[int]]) -> list[int]:
    pos = {c: i for i, c in enumerate(part)}
    local = [{pos[j] for j in adj[c]} for c in part]
    return _components(len(part), local)


FIELD_FACTS_SOURCES = ("games/resilience_earth/fieldmap.py", "games/resilience_earth/engine.py")


def field_facts_key(config: Any) -> str:
    """The cache key of a template's field facts: the board key of its map (data files, versions, boardgen's
    map code) plus the keys that group and rate the fields, and the files that do it."""
    from boardgen.cache import make_key
    from boardgen.geomap.cache import board_key

    inputs = (f"{board_key(map_spec(config))} {config.board!r} {config.map!r} {config.fields!r} "
              f"{config.production!r}")
    return make_key("field-facts", inputs, {}, FIELD_FACTS_SOURCES)


def cached_field_facts(config: Any) -> Any:
    """What the rules read of the field map (``engine.FieldFacts``), from boardgen's disk cache while nothing it
    depends on changed: `simulate` and `validate` skip building the map (2-3 s of CPU) after the first run."""
    from boardgen.cache import cached
    from boardgen.games.resilience_earth.rules.engine import FieldFacts

    return cached("field-facts", field_facts_key(config), lambda: FieldFacts.from_field_map(build_field_map(config)))
